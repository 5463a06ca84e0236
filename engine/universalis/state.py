"""The state of a Universalis game: pydantic models, folded from the log by `rules.apply`.

Records that never change once made (Traits, Facts, Tenets) are frozen and shared between
successive states, so copying a state on every action stays cheap in a long game.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from engine.universalis.addons import CORE, Addons, Job


class Frozen(BaseModel):
    """An immutable record: a deep copy of a state shares it instead of copying it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict | None = None) -> "Frozen":  # noqa: D105
        return self


class Mutable(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


Phase = Literal["prep", "bidding", "scene"]
ComponentKind = Literal["character", "location", "prop"]
TraitKind = Literal["role", "name", "plain", "relationship", "corollary", "possession",
                    "owned", "master", "sub", "negates"]
FactKind = Literal["trait", "event", "detail", "time", "absence", "dialog", "tenet"]
TenetKind = Literal["story", "social", "gimmick", "world"]


class Config(Frozen):
    """Set before preparation (U-ECO-1)."""

    players: tuple[str, ...]
    starting_coins: int = 25
    refreshment: int = 5
    starting_player: int = 0
    addons: Addons = CORE  # the add-ons in play (engine/universalis/addons.py); CORE = none


class Ledger(Mutable):
    """Where each player's coins came from and went (U-ECO-2).

    `paid` is every coin he paid, to the Bank or to players; `paid_players` is the part of it that
    went to other players (framing into the future, U-FRAME-3), who count it as `compensation`.
    `refunds` are coins the Bank gave back of what he paid it for a statement a Challenge made
    cheaper (U-CHAL-4): never more than that statement paid the Bank.
    """

    start: int = 0
    refreshments: int = 0
    bonus: int = 0
    compensation: int = 0
    refunds: int = 0
    paid: int = 0
    paid_players: int = 0


class Player(Mutable):
    name: str
    wealth: int
    stake: int = 0
    ledger: Ledger = Field(default_factory=Ledger)

    @property
    def spendable(self) -> int:
        return self.wealth + self.stake


class Trait(Frozen):
    """One Trait occurrence: one die, one point of Importance (U-COMP-0)."""

    id: str
    text: str
    kind: TraitKind = "plain"
    removed: bool = False
    other: Optional[str] = None  # the related, owned, owning or master component
    corollary_of: Optional[str] = None  # trait id on the other component
    negates: Optional[str] = None  # a master trait id this sub trait negates (U-TRAIT-4)
    by: str = ""
    seq: int = 0
    scene: Optional[int] = None
    origin: Optional[str] = None  # "outcome": bought with a roll's bonus coins (U-COMP-10), as Fact.origin
    secret: bool = False  # an Enigma Trait not yet revealed (UA-ENIGMA-1): only its buyer sees it


class Component(Mutable):
    id: str
    kind: ComponentKind
    traits: list[Trait] = Field(default_factory=list)
    is_master: bool = False
    masters: list[str] = Field(default_factory=list)
    owner: Optional[str] = None  # possession: the owning component (U-TRAIT-3)
    reduced: int = 0  # Importance levels paid down (U-ELIM-1, U-ELIM-4)
    eliminated: bool = False
    eliminated_scene: Optional[int] = None
    created_by: str = ""

    @property
    def label(self) -> str:
        names = [t.text for t in self.traits if t.kind == "name" and not t.removed]
        if names:
            return names[0]
        roles = [t.text for t in self.traits if t.kind in ("role", "sub") and not t.removed]
        return roles[0] if roles else (self.traits[0].text if self.traits else self.id)

    @property
    def mention(self) -> str:
        """The label as it reads mid-sentence: a name or a place as it is, a bare role as "the sheriff"."""
        label = self.label
        if self.kind == "location" or any(t.kind == "name" and not t.removed for t in self.traits):
            return label
        first = label.split(" ", 1)[0]
        if len(first) > 1 and first.isupper() or label.lower().startswith(("the ", "a ", "an ")):
            return label  # an acronym, or a label with its own article
        return f"the {label[:1].lower()}{label[1:]}"

    def live_traits(self) -> list[Trait]:
        return [t for t in self.traits if not t.removed]


class Fact(Frozen):
    """A paid-for piece of scene information: an Event, a detail, a paid Time, an absence."""

    id: str
    kind: FactKind
    text: str
    by: str
    scene: Optional[int]
    seq: int
    components: tuple[str, ...] = ()
    removed: bool = False
    # what the rules were doing when it was bought: "outcome" (the narration a roll's bonus
    # coins pay for, U-COMP-10), "elimination" (it took a component out of the story, U-ELIM-1)
    origin: Optional[str] = None


class Tenet(Frozen):
    id: str
    kind: TenetKind
    text: str
    by: str
    seq: int
    replaces: Optional[str] = None
    removed: bool = False


class Scene(Mutable):
    number: int
    framer: str
    location: Optional[str] = None
    time: str = "straight after the last scene"
    time_kind: str = "after"
    present: list[str] = Field(default_factory=list)
    control: dict[str, str] = Field(default_factory=dict)
    absent: list[str] = Field(default_factory=list)
    mini: bool = False
    faded: bool = False
    fade_requested: bool = False
    ended: bool = False
    past: bool = False
    seen: list[str] = Field(default_factory=list)  # every component Introduced in it (UA-PREF-1)
    positive: dict[str, int] = Field(default_factory=dict)  # non-negative Traits per character (UA-ONE-1)


class Pool(Mutable):
    key: str  # "C" for the Complication Pool, else the Target player's name
    owner: str
    dice: int = 0
    edge: int = 0
    side: Optional[Literal["C", "T"]] = None  # declared side (Own Pool per Participant, UA-OWN-1)

    @property
    def size(self) -> int:
        return self.dice + self.edge


class DieChange(Frozen):
    pool: str
    delta: int
    by: str
    how: Literal["draw", "buy"]
    why: str
    trait: Optional[str] = None
    component: Optional[str] = None


class RollRecord(Frozen):
    faces: dict[str, tuple[int, ...]]  # pool key -> normal dice then edge dice
    edge: dict[str, int]
    successes: dict[str, int]


class SplitMatch(Mutable):
    """Split Allocation (UA-MT-4, addon_split.py): one faced Pool (a Target Pool; mirrored, a Complication
    Pool) against the Successes assigned to it from the allocating Pool (SplitRoll.one)."""

    assigned: list[int]  # the allocating Pool's Success faces set against this Pool
    c_edge: int = 0  # the allocating Pool's Edge dice in this match (U-COMP-8)
    t_won: Optional[bool] = None  # did the faced Pool win? None: tied, to be rolled again
    c_faces: list[int] = Field(default_factory=list)  # the allocating Pool's dice of the deciding roll
    t_faces: list[int] = Field(default_factory=list)
    # several Complication Pools allocated (Own Pool per Participant, L2352 "from any player"): the Pool
    # each die of `assigned` and `c_faces` came from, and the one that holds `c_edge`; empty: all `one`'s
    assigned_from: list[str] = Field(default_factory=list)
    c_from: list[str] = Field(default_factory=list)
    edge_to: str = ""


class SplitRoll(Mutable):
    """Split Allocation (UA-MT-4): the one roll of every Pool, then a match per faced Pool once allocated.
    `one` is the Pool whose Successes are allocated against the `faced` Pools: the Complication Pool
    against the Target Pools, or in the mirrored form (L2356) one Target Pool against several Complication
    Pools (Own Pool per Participant); `faced` empty means every Pool but "C" (the form before it was kept)."""

    faces: dict[str, list[int]]
    matches: dict[str, SplitMatch] = Field(default_factory=dict)
    one: str = "C"
    faced: list[str] = Field(default_factory=list)
    allocating: list[str] = Field(default_factory=list)  # several Complication Pools allocated; empty: [one]


class Extension(Mutable):
    """An Extended Complication (UA-EXT-1, L2416): who paid, who declined, and the stages: each one
    the dice of every Pool in that stage's sub-pools (engine/universalis/addon_extended.py)."""

    by: Optional[str] = None
    passed: list[str] = Field(default_factory=list)
    whole: dict[str, int] = Field(default_factory=dict)  # each Pool's dice before the split
    stages: list[dict[str, int]] = Field(default_factory=list)  # stage -> Pool key -> its dice in that stage
    stage: int = 0


class Complication(Mutable):
    id: int
    originator: str
    source: str  # words of what started it
    source_fact: Optional[str] = None
    targets: list[str] = Field(default_factory=list)
    pools: list[Pool] = Field(default_factory=list)
    drawn: list[str] = Field(default_factory=list)  # "trait_id@component_id"
    committed: list[str] = Field(default_factory=list)
    changes: list[DieChange] = Field(default_factory=list)
    rolls: list[RollRecord] = Field(default_factory=list)
    scene: int = 0
    called_by: Optional[str] = None
    turn_player_at_call: Optional[str] = None
    winner_side: Optional[Literal["C", "T"]] = None
    matched: list[str] = Field(default_factory=list)  # Independent Target Pools already played (UA-MT-3)
    split: Optional[SplitRoll] = None  # Split Allocation (UA-MT-4): the roll and its allocation
    extension: Optional[Extension] = None  # Extended Complications (UA-EXT-1)

    def pool(self, key: str) -> Pool:
        for p in self.pools:
            if p.key == key:
                return p
        raise KeyError(key)


class Consent(Mutable):
    """A call for resolution: every other player agrees or declines (U-COMP-6)."""

    caller: str
    answers: dict[str, bool] = Field(default_factory=dict)


class NarrationSlot(Mutable):
    pool: str
    player: str
    coins: int
    won: bool
    done: bool = False
    tenet_used: bool = False  # one Tenet action per narration part, as per turn (U-PREP-2)


class Narration(Mutable):
    """The bonus-coin narration sequence after a roll (U-COMP-10, U-COMP-11)."""

    slots: list[NarrationSlot] = Field(default_factory=list)
    current: int = 0
    resume_player: str = ""


class Statement(Mutable):
    """The last paid statement, open to reactions."""

    actor: str
    kind: str
    text: str
    cost: int
    fact_id: Optional[str] = None
    components: list[str] = Field(default_factory=list)
    is_event: bool = False
    complication_started: bool = False
    # the action that made it (without `player`): what a Challenge's winning alternative redoes
    # with other words or another count, or replaces (U-CHAL-4)
    action: Optional[dict] = None


class Window(Mutable):
    """A reaction window after a paid statement (U-TURN-3, U-CHAL-1, U-CTRL-3, U-COMP-1a)."""

    statement: Statement
    answers: dict[str, dict] = Field(default_factory=dict)
    allow_interrupt: bool = True
    allow_challenge: bool = True
    allow_fine: bool = True
    # a window after something that was never a paid statement before issue 17 (a die drawn or
    # bought, a Fade to Black, an own-turn Take Over): if the game goes on without the answers
    # (logs written before these windows opened), the others are taken to have let it stand
    lapses: bool = False
    before: Optional["GameState"] = Field(default=None, exclude=True)  # for withdrawal (U-CHAL-4)
    # coins Fines took since the statement, (player, coins): they stand if it is withdrawn (U-FINE-1)
    fines: list[tuple[str, int]] = Field(default_factory=list, exclude=True)

    def __deepcopy__(self, memo: dict | None = None) -> "Window":
        # `before` is never mutated once stored: share it instead of copying a whole game.
        clone = Window.model_construct(
            statement=self.statement.model_copy(deep=True),
            answers={k: dict(v) for k, v in self.answers.items()},
            allow_interrupt=self.allow_interrupt, allow_challenge=self.allow_challenge,
            allow_fine=self.allow_fine, lapses=self.lapses, before=self.before, fines=list(self.fines))
        return clone


class ChallengeOption(Frozen):
    """One side of a Challenge. Its effect, should it win (U-CHAL-4): nothing at all (`withdraw`),
    another action in place of the statement (`instead`), or else the statement redone with these
    words and, where it buys a count (Trait occurrences, coins against Importance, dice), `cost` of it."""

    text: str
    cost: int
    withdraw: bool = False
    opened_by: str = ""
    instead: Optional[dict] = None


class Challenge(Mutable):
    challenger: str
    challenged: str
    statement: Statement
    reason: str
    fact_id: Optional[str] = None
    fact_applies: Optional[bool] = None
    stage: Literal["negotiation", "fact_vote", "bidding"] = "negotiation"
    options: list[ChallengeOption] = Field(default_factory=list)
    totals: list[int] = Field(default_factory=list)
    order: list[str] = Field(default_factory=list)
    next_index: int = 0
    passes_in_row: int = 0
    bids: list[tuple[str, int, int]] = Field(default_factory=list)  # (player, option, coins)
    votes: dict[str, bool] = Field(default_factory=dict)
    before: Optional["GameState"] = Field(default=None, exclude=True)
    # coins Fines took since the statement, (player, coins), kept like the bids on withdrawal (U-FINE-1)
    fines: list[tuple[str, int]] = Field(default_factory=list, exclude=True)

    def __deepcopy__(self, memo: dict | None = None) -> "Challenge":
        data = {k: getattr(self, k) for k in type(self).model_fields if k != "before"}
        import copy as _copy
        clone = Challenge.model_construct(**_copy.deepcopy(data, memo), before=self.before)
        return clone


class Fine(Mutable):
    accuser: str
    accused: str
    reason: str
    votes: dict[str, bool] = Field(default_factory=dict)


class DialogOffer(Mutable):
    speaker: str
    listener: str
    initiator: str
    other: str
    line: str


class Turn(Mutable):
    player: str
    framing: bool = False
    tenet_used: bool = False
    mini_scene: Optional[int] = None
    positive: dict[str, int] = Field(default_factory=dict)  # non-negative Traits per character (UA-ONE-1)


class JudgmentCase(Mutable):
    """An invoked Judgment (UA-JUDGE-*): the disputed statement as a Challenge without bids (what the
    Judge's ruling against it does is what a won Challenge does, U-CHAL-4), its Judges so far, the
    ruling and the overrule votes. stage: ruling (the Judge decides), overrule (the others vote),
    draw (a new Judge is drawn at random by the table's dice)."""

    case: Challenge
    judges: list[str] = Field(default_factory=list)
    stage: Literal["ruling", "overrule", "draw"] = "ruling"
    stands: Optional[bool] = None
    ruling: str = ""
    votes: dict[str, bool] = Field(default_factory=dict)
    candidates: list[str] = Field(default_factory=list)  # who may be drawn as the new Judge

    @property
    def judge(self) -> str:
        return self.judges[-1]


class CardDeck(Mutable):
    """Cards as Coins (UA-CARDS-1..3): one player's deck as counts: his Bank, his discards, his cards in
    Pools and the cards he holds as Wealth (his coins, stake included); 40 in all (52 with face cards kept)."""

    bank: int
    discards: int = 0
    pool: int = 0
    held: int = 0
    reshuffles: int = 0
    revealing: int = 0  # UA-CARDS-4: his spent cards waiting to be turned over (face cards kept)


class HandState(Mutable):
    """Cards instead of Dice (UA-CDICE-1..3): one player's hand (its faces known to him), his face-up
    discards, the cards he played face down into Pools (by Pool), and the cards owed to him, not yet dealt;
    his deck is the rest of his 40 cards."""

    hand: list[int] = Field(default_factory=list)
    discards: list[int] = Field(default_factory=list)
    played: dict[str, list[int]] = Field(default_factory=dict)
    owed: int = 0
    reshuffles: int = 0
    # kept bonus cards from the shared Trait Deck (UA-CDICE-6): those owed, and the faces of the Trait Deck's
    # cards he holds in hand or has played (they go back to the Trait Deck's discards, not his)
    trait_owed: int = 0
    trait_cards: list[int] = Field(default_factory=list)


class AltStart(Mutable):
    """Alternate Reality (UA-ALT-1): the latest scene as it stood when its framing ended (its location,
    time, Components and their Controllers, the world's Components and Facts): what its mirror starts from."""

    scene: int
    location: Optional[str] = None
    time: str = ""
    time_kind: str = "after"
    present: list[str] = Field(default_factory=list)
    control: dict[str, str] = Field(default_factory=dict)
    components: dict[str, Component] = Field(default_factory=dict)
    facts: list[Fact] = Field(default_factory=list)


class AltBranch(Mutable):
    """Alternate Reality (L2008): the records of a branch no longer played: its Components as they were
    when it was left, and the Facts bought in its last scene; `keeper` split it off."""

    label: str
    keeper: Optional[str] = None
    scenes: list[int] = Field(default_factory=list)
    components: dict[str, Component] = Field(default_factory=dict)
    facts: list[Fact] = Field(default_factory=list)


class AddonState(Mutable):
    """What the add-ons keep between actions (issue 22); untouched in a core game."""

    session: int = 1
    session_open: bool = True
    seed_presented: bool = False
    jobs: list[Job] = Field(default_factory=list)
    between_pools: dict[str, int] = Field(default_factory=dict)  # Create Components Between Sessions
    between_made: list[str] = Field(default_factory=list)  # components made between sessions, not yet shown
    newcomer_rule_used: bool = False  # Introduce New Players: a one-time Coin level was used (UA-NEW-2)
    setting_phase: bool = False  # the Setting Creation Phase is on (UA-SETTING-1)
    setting_done: bool = False
    setting_pools: dict[str, int] = Field(default_factory=dict)
    # Judgment (UA-JUDGE-2): who spent coins, latest last; the Judge of the turn in play; the open case
    spenders: list[str] = Field(default_factory=list)
    turn_player: Optional[str] = None
    turn_judge: Optional[str] = None
    judgment: Optional[JudgmentCase] = None
    # Alternate Reality (UA-ALT-*): the number line (each main scene's predecessor, the mirrors), the
    # branch played and who keeps it, the world before the latest scene, the records of other branches
    alt_before: dict[str, Optional[int]] = Field(default_factory=dict)
    alt_mirrors: list[int] = Field(default_factory=list)
    alt_last: Optional[int] = None
    alt_branch: str = "A"
    alt_keeper: Optional[str] = None
    alt_start: Optional[AltStart] = None
    alt_records: list[AltBranch] = Field(default_factory=list)
    cards: dict[str, CardDeck] = Field(default_factory=dict)  # Cards as Coins: each player's deck (UA-CARDS-1)
    hands: dict[str, HandState] = Field(default_factory=dict)  # Cards instead of Dice: hands (UA-CDICE-1)


class PlotPoolState(Mutable):
    """A Plot Pool (UA-PLOT-1): Coins the Bank set aside for one plot."""

    name: str
    coins: int
    by: str
    spent: dict[str, int] = Field(default_factory=dict)  # "scene:player" (or "scene:*") -> coins spent


class PlotThreadState(Mutable):
    """A Plot Thread (UA-THREAD-*): the Component, who made it, what it ties, its Weight."""

    component: str
    creator: str
    tied: list[str] = Field(default_factory=list)
    scene_created: Optional[int] = None
    weight: int = 0
    resolved: bool = False


class PcPlotState(Mutable):
    """Player Characters, Endowments and Plot Pools (addon_actions.py); empty under the core rules."""

    pcs: dict[str, str] = Field(default_factory=dict)  # component id -> its owner (UA-PC-1)
    welcome: dict[str, int] = Field(default_factory=dict)  # PC id -> scene its owner agreed it may enter (UA-PC-3)
    endowments: dict[str, int] = Field(default_factory=dict)  # player -> PC Endowment coins (UA-ENDOW-1)
    plot_pools: list[PlotPoolState] = Field(default_factory=list)  # UA-PLOT-1
    threads: list[PlotThreadState] = Field(default_factory=list)  # UA-THREAD-1
    protected: list[str] = Field(default_factory=list)  # Components bought Plot Protection (UA-PROT-3)
    drivers: dict[str, str] = Field(default_factory=dict)  # player -> his PC's Story Driver (UA-DRIVER-3)
    driver_since: dict[str, int] = Field(default_factory=dict)  # player -> session his Driver was set in
    driver_scenes: list[str] = Field(default_factory=list)  # "player:scene" whose Driver coin was drawn
    # the Bank's coins set aside for Endowments, Plot Pools, setting and between-sessions pools, and how many
    # were spent or returned since: those pools hold the difference (ledger.conservation_problems, U-ECO-2)
    set_aside: int = 0
    set_aside_spent: int = 0


class GameState(Mutable):
    """Everything the rules need. `rules.apply` returns a new one; the old one never changes."""

    config: Config
    players: list[Player]
    phase: Phase = "prep"
    seq: int = 0
    prep_index: int = 0
    prep_passes: int = 0
    bids: dict[str, int] = Field(default_factory=dict)
    last_framer: Optional[str] = None
    tenets: list[Tenet] = Field(default_factory=list)
    components: dict[str, Component] = Field(default_factory=dict)
    facts: list[Fact] = Field(default_factory=list)
    scenes: list[Scene] = Field(default_factory=list)
    current_scene: Optional[int] = None  # the main scene
    turn: Optional[Turn] = None
    window: Optional[Window] = None
    challenge: Optional[Challenge] = None
    fine: Optional[Fine] = None
    complication: Optional[Complication] = None  # the active one (the innermost, with Nested Complications)
    # Nested Complications (UA-NEST-1): the outer ones, their Pools open but waiting, innermost last
    suspended: list[Complication] = Field(default_factory=list)
    consent: Optional[Consent] = None
    roll_pending: bool = False
    narration: Optional[Narration] = None
    dialog: Optional[DialogOffer] = None
    close_mini_after_complication: bool = False
    complications_resolved: int = 0
    scenes_ended: int = 0
    bank_in: int = 0  # coins paid to the Bank
    bank_out: int = 0  # coins the Bank paid: Refreshment and bonus coins (U-ECO-1, U-COMP-9)
    bank_refunds: int = 0  # coins the Bank paid back of what a repriced statement paid it (U-CHAL-4)
    counters: dict[str, int] = Field(default_factory=dict)
    addon: PcPlotState = Field(default_factory=PcPlotState)  # the add-ons' own records
    extra: AddonState = Field(default_factory=AddonState)

    # -- lookups -------------------------------------------------------------------------
    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def seat_names(self) -> list[str]:
        return [p.name for p in self.players]

    def scene(self, number: int | None = None) -> Scene | None:
        """The scene in play: the mini scene when one is open, else the main scene."""
        if number is None:
            if self.turn is not None and self.turn.mini_scene is not None:
                number = self.turn.mini_scene
            else:
                number = self.current_scene
        if number is None:
            return None
        return self.scenes[number - 1]

    def controller_any(self, player: str) -> bool:
        sc = self.scene()
        return sc is not None and player in sc.control.values()

    def controller(self, component_id: str) -> str | None:
        sc = self.scene()
        if sc is None:
            return None
        return sc.control.get(component_id)


Window.model_rebuild()
Challenge.model_rebuild()
JudgmentCase.model_rebuild()
AddonState.model_rebuild()
GameState.model_rebuild()
