"""The state of a Paganini game (digest section 4), folded from the log by `rules.apply`."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from engine.paganini.advancement import Lot
from engine.paganini.options import PaganiniOptions

DamageType = Literal["cutting", "piercing", "blunt", "energy"]  # @20607


class M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Seat(M):
    name: str
    role: Literal["player", "gm"]


class Skill(M):
    kind: Literal["general", "experience", "special"]
    level: int


class Weapon(M):
    """Rated like traits (@20069): Quality on rolls made with it, Damage for the damage roll."""

    name: str
    quality: int = Field(0, ge=-4, le=4)
    damage: int = Field(0, ge=-4, le=4)
    types: list[DamageType] = Field(default_factory=lambda: ["blunt"])
    strength: Literal["full", "half", "none"] = "full"
    mode: Literal["melee", "thrown", "fired"] = "melee"
    skill: str = ""
    requires: dict[str, int] = Field(default_factory=dict)  # attribute minimums (@22431)
    scale: Optional[int] = None  # a fired weapon's own scale (None: the wielder's)


class Armour(M):
    name: str = "none"
    ratings: dict[DamageType, int] = Field(default_factory=dict)  # HD against each damage type (@20607)
    heavy: bool = False


class Character(M):
    id: str
    seat: str  # who plays it: a player's seat, or the GM's for an NPC
    npc: bool = False
    name: str
    concept: str = ""
    description: str = ""
    attributes: dict[str, int]
    skills: dict[str, Skill] = Field(default_factory=dict)
    scale: dict[str, int] = Field(default_factory=dict)  # "size" and per-ability entries (P-8)
    weapons: list[Weapon] = Field(default_factory=list)
    armour: Armour = Field(default_factory=Armour)
    shield: Literal["none", "target", "kite", "tower"] = "none"
    wounds: int = 0
    excess: int = 0  # boxes beyond the 25th, reported to the GM (P-AMB-1)
    conscious: bool = True
    dead: bool = False
    dazed: bool = False
    lots: list[Lot] = Field(default_factory=list)
    used: dict[str, list[str]] = Field(default_factory=dict)  # adventure id -> skills used or trained
    days_this_week: int = 0
    studying: str = ""  # the in-game reason of an intensive week (P-11)

    def size(self) -> int:
        return self.scale.get("size", 0)

    def able(self) -> bool:
        return self.conscious and not self.dead


class Mod(M):
    """One named source of dice on a roll (+HD, -LD)."""

    name: str
    dice: int


class Pool(M):
    """One roller's pool: the parts summed into n, the faces, the kept die and its tier."""

    key: str
    who: str
    label: str
    parts: list[Mod] = Field(default_factory=list)
    faces: list[int] = Field(default_factory=list)
    kept: Optional[int] = None
    tier: Optional[int] = None

    @property
    def net(self) -> int:
        return sum(m.dice for m in self.parts)


class Check(M):
    """An action check, an opposed check or a passive check (P-3..P-7)."""

    id: str
    kind: Literal["check", "opposed", "passive"] = "check"
    actor: str = ""
    seat: str = ""
    intent: str
    attribute: str = ""
    skill: Optional[str] = None
    skill_kind: Optional[str] = None
    opponent: Optional[str] = None
    stage: Literal["ruling", "roll", "narrate"] = "ruling"
    difficulty: str = "average"
    pools: list[Pool] = Field(default_factory=list)
    outcome: str = ""
    success: Optional[bool] = None
    narrator: str = ""
    in_combat: bool = False
    rounds_left: int = 0


class Attack(M):
    """One attack in combat: the rolls, then damage and the Fitness roll (P-14..P-20)."""

    attacker: str
    target: str
    weapon: str
    ranged: bool = False
    damage_type: str = "blunt"
    stage: Literal["defend", "roll", "damage", "fitness", "narrate"] = "defend"
    attack: Optional[Pool] = None
    defence: Optional[Pool] = None
    defence_parts: list[Mod] = Field(default_factory=list)  # dice the attack puts on the defence roll
    margin: int = 0
    hit: Optional[bool] = None
    damage: Optional[Pool] = None
    boxes: int = 0
    excess: int = 0
    fitness: Optional[Pool] = None
    knocked_out: bool = False
    outcome: str = ""


class Combat(M):
    round: int = 1
    combatants: list[str]
    stage: Literal["initiative", "initiative_roll", "initiative_extra", "turns", "round_end"] = "initiative"
    attribute: str = ""
    init: list[Pool] = Field(default_factory=list)
    extra: list[Pool] = Field(default_factory=list)
    slots: list[list[str]] = Field(default_factory=list)
    slot: int = 0
    acted: list[str] = Field(default_factory=list)  # acted in the current slot
    defences: dict[str, int] = Field(default_factory=dict)
    attack: Optional[Attack] = None
    long: dict[str, Check] = Field(default_factory=dict)  # long actions being kept up, by actor (P-13)


class Scene(M):
    number: int
    place: str
    text: str
    present: list[str] = Field(default_factory=list)
    turns: dict[str, int] = Field(default_factory=dict)
    round: int = 1
    ended: bool = False


class Adventure(M):
    id: str = "a1"
    title: str
    situation: str
    places: list[str] = Field(default_factory=list)
    time_consuming: bool = False
    designated: Optional[str] = None
    designated_given: bool = False
    days: int = 0


class Note(M):
    """Established fiction: a narrated outcome, a scene's framing, the GM's word."""

    id: str
    text: str
    by: str
    seq: int
    scene: int = 0
    subject: Optional[str] = None
    kind: str = "outcome"


class GameState(M):
    options: PaganiniOptions = Field(default_factory=PaganiniOptions)
    seats: list[Seat]
    seq: int = 0
    phase: Literal["adventure", "characters", "play", "over"] = "adventure"
    adventure: Optional[Adventure] = None
    characters: dict[str, Character] = Field(default_factory=dict)
    scenes: list[Scene] = Field(default_factory=list)
    check: Optional[Check] = None
    combat: Optional[Combat] = None
    notes: list[Note] = Field(default_factory=list)
    week: int = 1
    next_lot: int = 1
    counter: int = 0
    checks: list[dict] = Field(default_factory=list)  # every settled roll: n, kept, tier (for eval)

    @property
    def gm(self) -> str:
        return next(s.name for s in self.seats if s.role == "gm")

    @property
    def players(self) -> list[str]:
        return [s.name for s in self.seats if s.role == "player"]

    def scene(self) -> Optional[Scene]:
        return self.scenes[-1] if self.scenes and not self.scenes[-1].ended else None

    def pcs(self) -> list[Character]:
        return [c for c in self.characters.values() if not c.npc]

    def attribute_names(self) -> tuple[str, ...]:
        from engine.paganini.sheet import ATTRIBUTES
        return ATTRIBUTES + tuple(self.options.extra_attributes)
