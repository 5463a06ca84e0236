"""The state of a FUBAR game: pydantic models folded from the log by `rules.apply` (digest section 4).

Counts that the book lets change in play (Trademarks, Flaws, Relationships, Goals, Concept
abilities, the Resolve cap) are lists and numbers, never fixed-size fields (F-12).
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from engine.fubar.options import FubarOptions

Tier = Literal["minor", "moderate", "major"]
TIERS: tuple[str, ...] = ("minor", "moderate", "major")
Scope = Literal["physical", "mental", "social", "resources", "other"]
Stakes = Literal["low", "high"]
Strength = Literal["weak", "average", "challenging", "strong", "overwhelming"]
STRENGTH_DICE = {"weak": 1, "average": 0, "challenging": -1, "strong": -2, "overwhelming": -3}  # F-16
ARMOUR = {"none": (0, 0), "light": (2, 1), "medium": (4, 2), "heavy": (6, 3)}  # rating, soak (F-21)
SHIELD_BENEFIT = {"none": 2, "light": 2, "medium": 1, "heavy": 0}


class M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Frozen(BaseModel):
    """A record that never changes once made: copies of a state share it (copying stays cheap as the
    game's Details, answers and Conditions pile up)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def __deepcopy__(self, memo: dict | None = None) -> "Frozen":  # noqa: D105
        return self


class Seat(Frozen):
    name: str
    role: Literal["player", "gm"]


class Condition(Frozen):
    """A Condition on a character or an opposition (F-19): its tier ages toward gone."""

    id: str
    name: str
    tier: Tier = "minor"
    positive: bool = False
    scope: Scope = "other"
    since_scene: int = 0


class Relationship(Frozen):
    target: str
    positive: bool


class Asset(M):
    """Invested gear or a supporting character (F-22); a group asset invests nothing."""

    name: str
    concept: str
    trademarks: list[str] = Field(default_factory=list)
    flaws: list[str] = Field(default_factory=list)
    resolve: int = 0
    invested: list[str] = Field(default_factory=list)  # the owner's Trademarks given for it
    group: bool = False
    lost: bool = False


class Armour(M):
    kind: Literal["none", "light", "medium", "heavy"] = "none"
    partial: bool = False
    shield: bool = False
    shield_used: bool = False
    soak_left: int = 0
    broken: bool = False  # soak spent to 0: rating 0 until repaired in downtime (F-21)

    def rating(self) -> int:
        if self.broken:
            return 0
        r = ARMOUR[self.kind][0] - (2 if self.partial else 0)
        return max(0, r)


class Character(M):
    """A player character (digest section 4)."""

    name: str
    seat: str
    concept: str
    concept_abilities: list[str] = Field(default_factory=list)
    trademarks: list[str]
    flaws: list[str]
    relationships: list[Relationship]
    goals: list[str]
    resolve: int = 5
    cap: int = 5
    doom: int = 0
    level: int = 0
    conditions: list[Condition] = Field(default_factory=list)
    downtime_session: int = -1  # the session its downtime was used in (F-8)
    armour: Armour = Field(default_factory=Armour)
    weapon_rating: int = 0
    magic_pool: int = 0
    scale: int = 0
    assets: list[Asset] = Field(default_factory=list)
    powers: list[str] = Field(default_factory=list)  # Descriptors that are supernatural powers (F-23)
    super_descriptor: Optional[str] = None  # the one 'super' Trademark, 2D (F-23 option, L215)
    power_scene_uses: dict[str, int] = Field(default_factory=dict)
    power_session_uses: dict[str, int] = Field(default_factory=dict)
    disabled_powers: list[str] = Field(default_factory=list)
    fu: int = 0            # the Split/Replace appendix's FU pool (F-26)
    consequences: list[Condition] = Field(default_factory=list)  # the Replace appendix (F-26)
    consequences_full: bool = False  # a Consequence found no room: out unless traded (F-26, F-AMB-14)
    out: bool = False
    out_text: str = ""


class Opposition(M):
    """A GM character or a static obstacle; strength or its own Descriptors; maybe a Resolve pool (F-14, F-16)."""

    id: str
    name: str
    kind: Literal["character", "obstacle"] = "character"
    strength: Strength = "average"
    resolve: int = 0
    trademarks: list[str] = Field(default_factory=list)
    flaws: list[str] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    scale: int = 0
    armour: Armour = Field(default_factory=Armour)
    weapon_rating: int = 0
    defeated: bool = False


class Detail(Frozen):
    """A fact about the scene or world: from an and/but, a bought fact, or the GM's framing."""

    id: str
    text: str
    by: str
    seq: int
    scene: int
    origin: Literal["outcome", "fact", "gm", "scenario"] = "gm"


class DieMod(Frozen):
    """One source of +-dice on a roll, with what it is (F-4)."""

    source: str
    name: str
    dice: int


class Roll(M):
    """One roller's pool: net dice, faces, and whether it is done being rerolled."""

    key: str
    net: int
    faces: list[int] = Field(default_factory=list)
    gm_faces: list[int] = Field(default_factory=list)  # Buckets: the opposing d10 pool
    gm_size: int = 0
    kept: bool = False
    rerolls: int = 0
    result: Optional[int] = None


class Answer(Frozen):
    """A settled conflict, kept as a Fact: its question and the ladder's answer."""

    id: str
    question: str
    actor: str
    result: int
    text: str = ""
    seq: int
    scene: int


class Conflict(M):
    id: str
    actor: str
    question: str
    others: dict[str, str] = Field(default_factory=dict)  # seat -> its own question (F-25)
    intent: str = ""
    aligned: list[str] = Field(default_factory=list)
    helpers: list[str] = Field(default_factory=list)
    target_pc: Optional[str] = None
    opposition: Optional[str] = None
    claimed: list[DieMod] = Field(default_factory=list)
    risky_asked: bool = False
    goal: Optional[str] = None
    goal_step: Optional[Literal["milestone", "final"]] = None
    power: Optional[str] = None
    asset: Optional[str] = None
    stage: Literal["ruling", "roll", "after_roll", "reroll", "narrate"] = "ruling"
    pc_stakes: Stakes = "low"
    opposition_stakes: Stakes = "low"
    risky: bool = False
    combat: bool = False
    mods: list[DieMod] = Field(default_factory=list)
    rolls: list[Roll] = Field(default_factory=list)
    rerolling: Optional[str] = None
    reroll_indices: list[int] = Field(default_factory=list)
    result: Optional[int] = None
    narrator: str = ""
    conceded_by: Optional[str] = None
    opponent_done: bool = False
    level_bump: bool = False
    soaked: list[str] = Field(default_factory=list)
    asset_covers: bool = False
    losses: dict[str, int] = Field(default_factory=dict)  # Resolve each character lost (for the tier)
    soak: dict[str, bool] = Field(default_factory=dict)


class Scene(M):
    number: int
    place: str
    text: str
    downtime: bool = False
    present: list[str] = Field(default_factory=list)  # opposition ids framed in
    spotlight: int = 0
    turns_taken: int = 0
    ended: bool = False


class PendingFact(M):
    seat: str
    text: str
    descriptor: str = ""


class GameState(M):
    options: FubarOptions = Field(default_factory=FubarOptions)
    seats: list[Seat]
    seq: int = 0
    phase: Literal["scenario", "characters", "play", "over"] = "scenario"
    title: str = ""
    situation: str = ""
    places: list[str] = Field(default_factory=list)
    scenario: int = 1
    session: int = 1
    session_gain_deferred: bool = False
    characters: dict[str, Character] = Field(default_factory=dict)  # by seat
    opposition: dict[str, Opposition] = Field(default_factory=dict)
    scenes: list[Scene] = Field(default_factory=list)
    details: list[Detail] = Field(default_factory=list)
    answers: list[Answer] = Field(default_factory=list)
    conflict: Optional[Conflict] = None
    fact: Optional[PendingFact] = None
    escape: list[str] = Field(default_factory=list)        # seats whose character fell below 0 (F-6)
    advance: dict[str, str] = Field(default_factory=dict)  # seat -> "success"|"failure" (F-11, F-12)
    relationships_due: list[str] = Field(default_factory=list)  # seats owed a scenario-end Relationship
    gm_turn: bool = False
    counter: int = 0
    final_scenario: bool = False
    scenario_closed: bool = False

    @property
    def gm(self) -> str:
        return next(s.name for s in self.seats if s.role == "gm")

    @property
    def players(self) -> list[str]:
        return [s.name for s in self.seats if s.role == "player"]

    def scene(self) -> Optional[Scene]:
        return self.scenes[-1] if self.scenes and not self.scenes[-1].ended else None

    def live_players(self) -> list[str]:
        return [p for p in self.players if p in self.characters and not self.characters[p].out]
