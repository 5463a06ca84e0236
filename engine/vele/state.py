"""Vele's game state: players with their dice, components with traits, the bowl, the scene and
the struggle in progress. Plain pydantic models; `apply` works on a deep copy."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engine.vele.options import VeleOptions

Kind = Literal["pc", "main", "normal", "minion"]

# The Vele rules version a new game is played by (its log header's `ruleset_version`). 2: spotlight cards go to the
# middle of the table (L737). 3: XP for a d4 trait used alone (L627) and for a story component that wins a struggle
# that is not an attack on either side (L562); an attached component moves with its unit, never alone (L683, L415);
# a winning mass-struggle defender pays the bowl's fee from its winnings (L433, L489). A log written by an older
# version replays by that version's rules (ruleset.game_from_header), so its bytes and states do not change.
# 4: in a mass struggle an attached member's own die comes back with the lowest die left of the winnings (L398,
# L433); an integrated, unattached component does not move away from the one it aids, and goes with it (L421,
# L423); a hidden roll's effect is told before play goes on (L690).
RULES_VERSION = 4


class Trait(BaseModel):
    name: str
    size: int
    focus: bool = False
    damage: Literal["", "X", "S"] = ""  # V-35 marks: X must be healed, S clears at scene end
    control: list[str] = Field(default_factory=list)  # V-37: initials of control attackers

    @property
    def healthy(self) -> bool:
        return not self.damage and not self.control


class Ability(BaseModel):
    trait: str
    effect: Literal["power_attack", "power_defense", "heal", "area", "selective_area", "block", "auto_block"]
    size: int


class Component(BaseModel):
    id: str
    name: str
    owner: str
    kind: Kind
    traits: list[Trait]
    aspects: list[str] = Field(default_factory=list)
    abilities: list[Ability] = Field(default_factory=list)
    allocated: list[int] = Field(default_factory=list)  # ability dice on the sheet (V-24)
    original_allocated: int = 0  # points allocated at the purchase, for the top-up (V-13)
    controller: str | None = None  # V-37: who plays it until scene end
    vele: bool = False  # V-7: a Vele or Verminite
    stationary: bool = False  # V-41: terrain that attacks on its victims' turn
    one_shot: bool = False  # V-21: works once
    used: bool = False  # V-21: the one-shot has acted
    temporary: bool = False  # V-22: made from bowl dice for a scene; wagers bowl dice only
    group: str = ""  # V-60: the group it belongs to (its owner's), if any
    unit: str = ""  # V-45: the component it is integrated with and aids ('' : autonomous)
    attached: bool = False  # V-45: physically attached to its unit (acts as one, normal targeting applies)
    virtual: bool = False  # V-22: fiction with no mechanics
    out: bool = False

    def trait(self, name: str) -> Trait | None:
        return next((t for t in self.traits if t.name == name), None)

    def healthy(self) -> dict[str, int]:
        return {t.name: t.size for t in self.traits if t.healthy}


class Player(BaseModel):
    name: str
    xp: int = 0
    xp_earned: int = 0
    character: list[int] = Field(default_factory=list)
    story: list[int] = Field(default_factory=list)
    bid: int | None = None
    rolloff: list[int] = Field(default_factory=list)
    built: bool = False
    pc_spotlights: int = 0  # PC spotlight cards made this story (V-61, V-AMB-13)
    fate_scene: int = 0  # the scene in which this player last spent XP on fate (V-46, V-AMB-14)


class TempAspect(BaseModel):
    text: str
    on: str  # component id
    kind: Literal["fragile", "sticky"]
    by: str
    free_tags: int = 1


class Stake(BaseModel):
    trait: str
    die: int
    source: Literal["own", "bowl"]
    component: str = ""  # an ally's component (V-43); "" for the side's own
    player: str = ""  # the ally's player, whose pool pays and is paid


class SideState(BaseModel):
    component: str
    player: str
    stakes: list[Stake] = Field(default_factory=list)
    power: list[int] = Field(default_factory=list)
    average: bool = False
    difficulty: int = 0
    faces: list[int] = Field(default_factory=list)
    power_faces: list[int] = Field(default_factory=list)
    wagered: bool = False
    bonus: int = 0  # fate (V-46)
    allies: list[str] = Field(default_factory=list)  # V-43: components allying this side
    called: list[str] = Field(default_factory=list)  # called as allies, still to answer
    block: Literal["", "block", "auto_block"] = ""  # V-24: the Block ability this side uses (the actor only)
    block_faces: list[int] = Field(default_factory=list)  # V-24: Auto-Block's reroll, read if the struggle fails


class Struggle(BaseModel):
    goal: Literal["attack", "control", "maneuver", "block", "overcome"]
    text: str = ""
    target_trait: str | None = None
    actor: SideState
    opponent: SideState
    stage: Literal["difficulty", "wager_actor", "wager_opponent", "ally", "roll", "fate", "damage"] = "difficulty"
    fate_queue: list[str] = Field(default_factory=list)  # players still to spend or pass, in tone order (V-30)
    situational: int = 0
    head_to_head: bool = False
    interrupt: bool = False  # V-41: terrain struck on its victim's turn; the turn stays the victim's
    hidden: bool = False  # V-31: the other side hides its roll and tells only the effect; nothing is wagered
    prevents: str = ""  # V-39: a block's stated aim (a component id; '': any struggle)
    effect: int = 0
    winner: str | None = None
    mass: bool = False  # V-38 (L433): an Area struggle; `opponent` is the defender now wagering or absorbing
    others: list[SideState] = Field(default_factory=list)  # V-38: the other defenders of a mass struggle
    hits: list[str] = Field(default_factory=list)  # V-38: beaten defenders still to absorb their effect, in order
    hit_effects: dict[str, int] = Field(default_factory=dict)  # V-38: each beaten defender's effect


class Extended(BaseModel):
    """An overpower fight (V-32): exchanges until a side surrenders or cannot continue."""
    a: str  # component ids
    b: str
    failures: dict[str, int] = Field(default_factory=dict)
    exchanges: int = 0
    next_actor: str = ""


class Scene(BaseModel):
    number: int
    act: int
    narrator: str
    place: str
    text: str = ""
    present: list[str] = Field(default_factory=list)
    turns: list[str] = Field(default_factory=list)
    turn: int = 0
    ended: bool = False
    zones: list[str] = Field(default_factory=list)  # V-44: the map, a row of zones ([]: movement in the fiction)
    where: dict[str, str] = Field(default_factory=dict)  # V-44: component id -> zone (unplaced: the first zone)
    moved: dict[str, int] = Field(default_factory=dict)  # V-44: zones moved this turn, per component

    def zone_of(self, cid: str) -> str:
        return self.where.get(cid, self.zones[0]) if self.zones else ""


class Exclusion(BaseModel):
    component: str
    owner: str
    narrator_die: int
    owner_die: int | None = None
    accepted: bool | None = None


class Healing(BaseModel):
    """A healing attempt waiting for its roll (V-40)."""
    healer: str
    trait: str
    patient: str
    count: int
    wounded: dict[str, int]  # the patient's damaged traits -> size, all opposing


class Spotlight(BaseModel):
    """A spotlight card (V-61): made by `maker` for their PC. By the newer rule (L737) it lies in the middle of the
    table and `holder` is filled, once achieved, with the narrator who brought it about; by the older text
    (L935, logs before version 2) another player takes it at act setup and holds it."""
    maker: str
    kind: Literal["pc", "group"] = "pc"
    text: str
    holder: str = ""
    act: int = 1
    done: bool = False


class Vote(BaseModel):
    """A claim under vote (V-1, V-2, V-AMB-4): a challenge against a struggle's claim, or an approval a
    player asks for (hitting an aspect). Everyone but the player whose claim it is votes."""
    kind: Literal["challenge", "approval"]
    subject: str  # the claim, in words
    claimant: str  # whose claim is judged
    by: str  # who challenged, or who asks approval
    voters: list[str]
    opposed: dict[str, bool] = Field(default_factory=dict)  # voter -> opposes the claim
    claim: dict = Field(default_factory=dict)  # what an approved claim does (hit_aspect: component, aspect, danger)
    tie: bool = False  # an approval tie waits for its d6 (V-AMB-4)


class Blocking(BaseModel):
    """A block that stands (V-39, L479-481): until the blocker's player's next turn, `target` must first beat
    `value` (the block struggle's result, reused) before struggling against `prevents` (any: '')."""
    blocker: str  # component ids
    target: str
    prevents: str = ""
    value: int
    player: str  # the blocker's player: the block falls when their next turn starts


class Group(BaseModel):
    """A group of story characters (V-60, L716-733): its owner's, bought with the group's own dice points."""
    name: str
    owner: str
    leader: str  # component id
    members: list[str]  # component ids, the leader first
    points_left: int
    act: int
    connected: list[str] = Field(default_factory=list)  # V-AMB-18: players who added a connection to it


class Revising(BaseModel):
    """V-4 (L267): a struggle's claim the table's challenge turned down, which its actor may justify with revised
    fiction right away, again and again, until no majority opposes it (or do something else)."""
    struggle: Struggle
    extended: Extended | None = None
    opposed: list[int] = Field(default_factory=list)  # supporters of the challenge, the first claim then each revision
    voters: int = 0
    at: int = 0  # the action after which it may be justified (the next one only)


class Record(BaseModel):
    """One resolved exchange, for the log's readers and the app's struggle panel."""
    seq: int
    scene: int
    actor: str
    opponent: str
    goal: str
    actor_result: int
    opponent_result: int
    winner: str | None
    effect: int
    disabled: list[str] = Field(default_factory=list)
    text: str = ""
    countered: bool = False  # V-41: a counter-struggle was asked for after this failure
    hidden_from: list[str] = Field(default_factory=list)  # V-31: seats shown only the effect, not results or winner
    told: str = ""  # V-31 (L690): the hidden roll's effect as its opponent's player told it in the story


class GameState(BaseModel):
    seats: list[str]
    options: VeleOptions = Field(default_factory=VeleOptions)
    rules_version: int = RULES_VERSION  # the rules a game is played by: an old log's, on replay (RULES_VERSION)
    seq: int = 0
    counter: int = 0
    phase: Literal["bid", "rolloff", "build", "frame", "exclusion", "exclusion_roll", "scene", "struggle",
                   "narrator", "vote", "vote_roll", "heal_roll", "over"] = "bid"
    act: int = 1
    acts: int = 1
    players: dict[str, Player] = Field(default_factory=dict)
    bowl: list[int] = Field(default_factory=list)
    total_points: int = 0
    order: list[str] = Field(default_factory=list)  # initiative order of this act (V-42)
    priority: list[str] = Field(default_factory=list)  # the first act's order: story priority (V-58)
    narrator: str = ""
    narrators: list[str] = Field(default_factory=list)  # every narrator in turn, for the record
    components: dict[str, Component] = Field(default_factory=dict)
    aspects: list[TempAspect] = Field(default_factory=list)
    objective: str = ""
    guidelines: list[str] = Field(default_factory=list)  # V-6: written down, for the whole story
    objective_done: bool = False
    scenes: list[Scene] = Field(default_factory=list)
    exclusion: Exclusion | None = None
    healing: Healing | None = None
    healed: dict[str, list[str]] = Field(default_factory=dict)  # V-40: patient -> healers since the last scene end
    struggle: Struggle | None = None
    extended: Extended | None = None
    vote: Vote | None = None
    revising: Revising | None = None  # V-4: a challenged claim its actor may justify next
    made: dict[str, int] = Field(default_factory=dict)  # V-62: "player@act" -> components made mid-act
    groups: list[Group] = Field(default_factory=list)  # V-60: this act's groups
    blocks: list[Blocking] = Field(default_factory=list)  # V-39: blocks standing now
    round_seq: int = 0  # V-45: the action that started this round of turns
    spotlights: list[Spotlight] = Field(default_factory=list)
    allying: dict[str, str] = Field(default_factory=dict)  # V-43: ally component -> helped, this round
    forfeit: list[str] = Field(default_factory=list)  # V-43: allies that may do nothing in their next struggle
    records: list[Record] = Field(default_factory=list)
    rotations: int = 0
    extended_done: int = 0

    @property
    def scene(self) -> Scene | None:
        return self.scenes[-1] if self.scenes and not self.scenes[-1].ended else None
