"""Universalis actions: flat pydantic models, one per thing a player can do.

`Action` is a discriminated union on `type`. The same schema is what an LLM player must
produce, so every model is flat (strings, ints, bools, optional ids) and carries the words it
pays for. Every action names the acting `player`.
"""
from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_serializer


class _A(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    player: str = Field(description="the acting player's name")
    # add-on fields (issue 22) left out of the dump while at their default, so an action written
    # before the add-ons existed, or without them, is logged byte for byte as it always was
    _quiet: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _drop_quiet(self, handler):  # type: ignore[no-untyped-def]
        data = handler(self)
        for name in self._quiet:
            if isinstance(data, dict) and name in data and getattr(self, name) == type(self).model_fields[name].default:
                del data[name]
        return data


# --- preparation and bids --------------------------------------------------------------
class ProposeTenet(_A):
    """Pay 1 coin to propose a Tenet, or to modify one (`replaces`) (U-PREP-1..3, U-ACT-7)."""

    type: Literal["propose_tenet"] = "propose_tenet"
    text: str = Field(min_length=1)
    kind: Literal["story", "social", "gimmick", "world"] = "story"
    replaces: Optional[str] = Field(default=None, description="id of the Tenet modified")


class PassPrep(_A):
    """Pass during preparation (U-PREP-1)."""

    type: Literal["pass_prep"] = "pass_prep"


class Bid(_A):
    """A secret scene bid, 0 up to the bidder's wealth (U-BID-1)."""

    type: Literal["bid"] = "bid"
    amount: int = Field(ge=0)


# --- framing and scene building ------------------------------------------------------------
class EstablishLocation(_A):
    """Establish or change the scene's location for 1 coin (U-FRAME-1, U-FRAME-5, U-ACT-3).

    Name an existing location (`location`), or create one (`new_role`, optionally
    `proper_name` for 1 more), or cut back to an earlier scene not faded (`return_to_scene`).
    """

    type: Literal["establish_location"] = "establish_location"
    location: Optional[str] = None
    new_role: Optional[str] = None
    proper_name: Optional[str] = None
    return_to_scene: Optional[int] = None
    text: str = ""


class SetTime(_A):
    """Set the scene's time while framing (U-FRAME-2, U-FRAME-3)."""

    type: Literal["set_time"] = "set_time"
    when: Literal["after", "concurrent", "past", "future", "explicit"] = "after"
    text: str = ""


class FrameMiniScene(_A):
    """Start a mini scene elsewhere or elsewhen on one's turn (U-TURN-4)."""

    type: Literal["frame_mini_scene"] = "frame_mini_scene"
    text: str = ""


class FadeMiniScene(_A):
    """Pay 1 coin so the open mini scene fades to black when it ends (U-TURN-4)."""

    type: Literal["fade_mini_scene"] = "fade_mini_scene"


class CreateComponent(_A):
    """Create a component by buying its Role, 1 coin; a proper name is 1 more (U-ACT-4, U-TRAIT-1).

    `sub_of` makes the Role also the link to a Master Component (U-ACT-6).
    """

    type: Literal["create_component"] = "create_component"
    kind: Literal["character", "location", "prop"] = "character"
    role: str = Field(min_length=1)
    proper_name: Optional[str] = None
    introduce: bool = False
    sub_of: Optional[str] = None
    durable: bool = Field(default=False, description="Durable Components add-on: buy the 'Durable' Trait too (UA-DUR-1)")
    _quiet: ClassVar[tuple[str, ...]] = ("durable",)


class IntroduceComponent(_A):
    """Bring an existing component into the scene, 1 coin (U-ACT-3)."""

    type: Literal["introduce_component"] = "introduce_component"
    component: str
    text: str = ""


class ExitComponent(_A):
    """Take a component one controls out of the scene, 1 coin (U-ACT-3)."""

    type: Literal["exit_component"] = "exit_component"
    component: str
    text: str = ""


class DeclareAbsent(_A):
    """State that a component is explicitly absent from the scene, 1 coin (U-ACT-3)."""

    type: Literal["declare_absent"] = "declare_absent"
    component: str
    text: str = ""


class NarrateEvent(_A):
    """Narrate an Event for 1 coin: one effect, one performer, one receiver (U-ACT-1)."""

    type: Literal["narrate_event"] = "narrate_event"
    text: str = Field(min_length=1)
    performer: Optional[str] = None
    receiver: Optional[str] = None


class BuyFact(_A):
    """Buy any other detail of the scene as a Fact, 1 coin (U-ACT-2)."""

    type: Literal["buy_fact"] = "buy_fact"
    text: str = Field(min_length=1)
    about: Optional[str] = None
    kind: Literal["detail", "dialog"] = "detail"


class AddTrait(_A):
    """Add a Trait, 1 coin per occurrence (U-ACT-5, U-ACT-6, U-TRAIT-1..4)."""

    type: Literal["add_trait"] = "add_trait"
    component: str
    text: str = Field(min_length=1)
    kind: Literal["plain", "name", "relationship", "possession", "master", "sub", "negates"] = "plain"
    times: int = Field(default=1, ge=1, le=20)
    other: Optional[str] = Field(default=None, description="related, owned, or master component")
    corollary: Optional[str] = Field(default=None, description="reciprocal Trait for `other`")
    negates: Optional[str] = Field(default=None, description="Master Trait id negated")
    negative: bool = Field(default=False, description="a drawback (Only 1 Trait per Turn counts the others)")
    enigma: bool = Field(default=False, description="Enigma Traits add-on: bought in secret for 2 (UA-ENIGMA-1)")
    _quiet: ClassVar[tuple[str, ...]] = ("negative", "enigma")


class RemoveTrait(_A):
    """Remove (cross off) one Trait occurrence, 1 coin (U-ACT-5, U-TRAIT-3)."""

    type: Literal["remove_trait"] = "remove_trait"
    trait: str
    text: str = ""


class RestoreTrait(_A):
    """Restore a removed Trait occurrence, 1 coin (U-ACT-5)."""

    type: Literal["restore_trait"] = "restore_trait"
    trait: str
    text: str = ""


class ReduceImportance(_A):
    """Pay coins against a component's Importance; at 0 it is eliminated (U-ELIM-1, U-ELIM-4)."""

    type: Literal["reduce_importance"] = "reduce_importance"
    component: str
    coins: int = Field(default=1, ge=1)
    text: str = ""


class RestoreImportance(_A):
    """Undo one level of reduced Importance, 1 coin (U-ELIM-4)."""

    type: Literal["restore_importance"] = "restore_importance"
    component: str
    text: str = ""


class ReturnComponent(_A):
    """Bring an eliminated component back by paying its current Importance (U-ELIM-3)."""

    type: Literal["return_component"] = "return_component"
    component: str
    text: str = ""


class Dialog(_A):
    """Start Dialog with another controller's character: 1 coin, an Event (U-ACT-8)."""

    type: Literal["dialog"] = "dialog"
    speaker: str
    listener: str
    line: str = Field(min_length=1)


class AnswerDialog(_A):
    """Accept the Dialog with a reply, or refuse it, which makes a Complication (U-ACT-8).

    The one replying may buy what his character says as Facts, 1 coin each (`facts`, lines 481, 501).
    """

    type: Literal["answer_dialog"] = "answer_dialog"
    accept: bool = True
    line: str = ""
    facts: list[str] = Field(default_factory=list, description="things said bought as Facts, 1 coin each")


class Speak(_A):
    """Free dialog for a character one controls; colour, not a Fact (U-FACT-1)."""

    type: Literal["speak"] = "speak"
    component: str
    line: str = Field(min_length=1)


class EndTurn(_A):
    """End one's turn; play passes clockwise (U-TURN-1)."""

    type: Literal["end_turn"] = "end_turn"


class EndScene(_A):
    """The framer ends the scene on his turn; `fade` costs 1 (U-TURN-5, U-FRAME-5)."""

    type: Literal["end_scene"] = "end_scene"
    fade: bool = False
    text: str = ""


# --- at any time ---------------------------------------------------------------------------
class TakeOver(_A):
    """Take control of a component in the scene for 1 coin (U-CTRL-3)."""

    type: Literal["take_over"] = "take_over"
    component: str
    royalty: bool = Field(default=False, description="Royalty add-on: pay 1 more to the Control Trait's player")
    _quiet: ClassVar[tuple[str, ...]] = ("royalty",)


class CallFine(_A):
    """Call for a Fine against a player, free (U-FINE-1)."""

    type: Literal["call_fine"] = "call_fine"
    accused: str
    reason: str = Field(min_length=1)


class FineVote(_A):
    type: Literal["fine_vote"] = "fine_vote"
    fine: bool


# --- reaction window -----------------------------------------------------------------------
class Pass(_A):
    """Let the last statement stand without reacting."""

    type: Literal["pass"] = "pass"


class Interrupt(_A):
    """Interrupt for 1 coin; the turn passes to the interrupter (U-TURN-2, U-TURN-3)."""

    type: Literal["interrupt"] = "interrupt"
    text: str = ""


class Obstacle(_A):
    """Interrupt and buy dice into a new Complication against the Event (U-COMP-1a)."""

    type: Literal["obstacle"] = "obstacle"
    dice: int = Field(default=1, ge=1)
    text: str = Field(min_length=1)


class _Dispute(_A):
    """A dispute of the last statement: why, and the disputer's version should it win."""

    type: str  # each dispute's own literal (declared here first, so it stays first in the schema)
    reason: str = Field(min_length=1)
    alternative: str = ""
    alternative_cost: int = Field(default=0, ge=0)
    withdraw: bool = True
    fact: Optional[str] = None
    instead: Optional[dict] = Field(default=None, description="an action done in place of the statement")


class ChallengeStatement(_Dispute):
    """Challenge the last statement (U-CHAL-1). Should the challenger's version win, it replaces
    the statement (U-CHAL-4): `withdraw` means nothing happens instead; `instead` is another action
    the acting player is taken to have done (an Event, a Trait, a component...: an action's fields
    without `player`), at its own cost; otherwise the statement is redone in the words of
    `alternative` for `alternative_cost` (a Trait bought that many times, that many coins against
    an Importance or dice; an Event's or Fact's scope priced at that, line 970). `fact` names an
    established Fact it contradicts (U-FACT-2)."""

    type: Literal["challenge"] = "challenge"


class FrameScene(_A):
    """Open Scene Framing add-on (L1970): on one's turn, pay 1 and frame a new scene; the scene in play
    stays active (UA-OPEN-1). With no scene active, the player whose turn it is to frame frames."""

    type: Literal["frame_scene"] = "frame_scene"


class SwitchScene(_A):
    """Open Scene Framing add-on (L1974): on one's turn, pay 1 to go on in another active scene (UA-OPEN-2)."""

    type: Literal["switch_scene"] = "switch_scene"
    scene: int = Field(ge=1, description="the number of an active scene")


class CloseScene(_A):
    """Open Scene Framing add-on (L1974): a scene's framer closes it on his turn, paying 1 to Fade to Black
    (UA-OPEN-3); `scene` defaults to the scene in play."""

    type: Literal["close_scene"] = "close_scene"
    scene: Optional[int] = Field(default=None, ge=1)
    text: str = ""


class ForkScene(_A):
    """Alternate Reality add-on (L2002): at the end of a scene, before the bids, split off a mirror of it
    placed just before it on the number line: 1 coin per fork back to the first scene (UA-ALT-1)."""

    type: Literal["fork_scene"] = "fork_scene"


class InvokeJudgment(_Dispute):
    """Judgment add-on (L1980): insist on a disagreement about the last statement (its legality, or
    how a Gimmick or Fact reads or applies); the Judge decides (UA-JUDGE-1). Free. Should the Judge
    rule against it, the statement is replaced as a Challenge would replace it (U-CHAL-4):
    `withdraw` = nothing happens; `instead` = another action; else it is redone in the words of
    `alternative` for `alternative_cost`. `fact` names an established Fact it goes against."""

    type: Literal["invoke_judgment"] = "invoke_judgment"


class JudgeRuling(_A):
    """The Judge decides the question: the statement stands, or the disputing player's version
    replaces it (UA-JUDGE-2). `text`: the Judge's reasons, in his words."""

    type: Literal["judge_ruling"] = "judge_ruling"
    stands: bool = True
    text: str = ""


class OverruleVote(_A):
    """A vote, before the next coin is spent, on overruling the Judge (UA-JUDGE-3): only a unanimous
    vote of the other players overrules."""

    type: Literal["overrule_vote"] = "overrule_vote"
    overrule: bool


class ConcedeChallenge(_A):
    """The challenged player accepts the challenger's alternative (U-CHAL-1)."""

    type: Literal["concede_challenge"] = "concede_challenge"


class ContestChallenge(_A):
    """The challenged player refuses; bidding starts (U-CHAL-2)."""

    type: Literal["contest_challenge"] = "contest_challenge"


class WithdrawChallenge(_A):
    """The challenger lets the statement stand (U-CHAL-1)."""

    type: Literal["withdraw_challenge"] = "withdraw_challenge"


class DisputeFact(_A):
    """Dispute that the named Fact applies; everyone votes (U-FACT-2)."""

    type: Literal["dispute_fact"] = "dispute_fact"


class FactVote(_A):
    type: Literal["fact_vote"] = "fact_vote"
    applies: bool


class ChallengeBid(_A):
    """Bid coins for an option of the Challenge, or open a new one (U-CHAL-2, U-CHAL-3)."""

    type: Literal["challenge_bid"] = "challenge_bid"
    option: int = Field(default=0, ge=0, description="0: as stated; 1: challenger's; 2+: others")
    coins: int = Field(ge=1)
    new_option: Optional[str] = None
    new_option_cost: int = Field(default=0, ge=0)
    new_option_instead: Optional[dict] = Field(default=None, description="the new option's action, as `instead`")


class ChallengePass(_A):
    type: Literal["challenge_pass"] = "challenge_pass"


# --- complications -------------------------------------------------------------------------
class DrawTrait(_A):
    """Draw on a Trait, free: one die added to, or removed from, a Pool (U-COMP-3)."""

    type: Literal["draw_trait"] = "draw_trait"
    trait: str
    component: str
    pool: str = Field(description='"C" for the Complication Pool, else a Target player (Individual Pools, '
                                  'UA-MT-5: "C:<player>" for the Complication Pool facing that player)')
    remove: bool = False
    text: str = ""


class BuyDie(_A):
    """Buy dice, 1 coin each, added to or removed from a Pool (U-COMP-5)."""

    type: Literal["buy_die"] = "buy_die"
    pool: str
    count: int = Field(default=1, ge=1)
    remove: bool = False
    text: str = ""


class CallResolution(_A):
    """Ask every other player to agree to roll (U-COMP-6)."""

    type: Literal["call_resolution"] = "call_resolution"


class AnswerResolution(_A):
    type: Literal["answer_resolution"] = "answer_resolution"
    agree: bool


class Roll(_A):
    """The faces rolled for each Pool, handed in from a dice source (U-COMP-7).

    For every Pool, its normal dice first, then its Edge dice. 0 reads as 10.
    """

    type: Literal["roll"] = "roll"
    player: str = "dice"
    faces: dict[str, list[int]]


class CancelBonus(_A):
    """A winner spends his bonus coins one-for-one to cancel a loser's (U-COMP-10)."""

    type: Literal["cancel_bonus"] = "cancel_bonus"
    pool: str
    coins: int = Field(ge=1)


class EndNarration(_A):
    """End one's part of the narration after a roll; unspent bonus coins are kept (U-COMP-10)."""

    type: Literal["end_narration"] = "end_narration"


# --- add-ons (engine/universalis/addon_actions.py; refused unless the table plays the add-on) ---------
class AdoptCharacter(_A):
    """Player Character (UA-PC-1, L2098): 5 Coins permanently Take Over one character."""

    type: Literal["adopt_character"] = "adopt_character"
    component: str = Field(description="the character that becomes your Player Character")


class AgreeIntroduction(_A):
    """Player Character (UA-PC-3, L2104): the owner agrees that another player may Introduce his PC into
    the scene in play (free, at any time); the next Introduction of it there uses the agreement."""

    type: Literal["agree_introduction"] = "agree_introduction"
    component: str = Field(description="your Player Character")


class EndowTrait(_A):
    """PC Endowment Pool (UA-ENDOW-1, L2114): a Trait for your PC paid from its Endowment."""

    type: Literal["endow_trait"] = "endow_trait"
    text: str = Field(min_length=1, description="the Trait")
    times: int = Field(default=1, ge=1, le=20)


class EndowDice(_A):
    """PC Endowment Pool (UA-ENDOW-1): dice in a Complication your PC is involved in, paid from its Endowment."""

    type: Literal["endow_dice"] = "endow_dice"
    pool: str
    count: int = Field(default=1, ge=1, le=50)
    text: str = ""


class DeclarePool(_A):
    """Own Pool per Participant (UA-OWN-1, L1040): before the roll, declare your Pool for a side."""

    type: Literal["declare_pool"] = "declare_pool"
    side: Literal["C", "T"] = Field(description="C: the Complication's side; T: the Targets' side")
    text: str = Field(default="", max_length=300, description="why this side makes sense")


class OrderNested(_A):
    """Nested Complications (UA-NEST-3, L2396): the new Complication's Originator picks which resolves
    first; the new one does unless he puts the one it interrupted first."""

    type: Literal["order_nested"] = "order_nested"
    first: Literal["new", "interrupted"] = Field(description="new: the nested Complication resolves first (the "
                                                             "book's usual way); interrupted: the one it interrupted")


class AllocateSuccesses(_A):
    """Split Allocation (UA-MT-4, L2352): after the roll the Originator assigns the Complication's Successes."""

    type: Literal["allocate_successes"] = "allocate_successes"
    counts: list[int] = Field(max_length=20, description="one count per Target Pool, in the order the table "
                              "lists them: how many Complication Successes it faces; every Success once")


class ExtendComplication(_A):
    """Extended Complications (UA-EXT-1, L2416): after the Pools are built and before the roll, pay to
    roll the Complication in stages: each side's dice split as evenly as possible into `stages` sub-pools."""

    type: Literal["extend_complication"] = "extend_complication"
    stages: int = Field(ge=2, le=50, description="how many sub-pools (stages) each side is divided into")
    text: str = Field(default="", max_length=300, description="why the struggle should trade back and forth")


class DeclineExtend(_A):
    """Extended Complications (UA-EXT-1): let the Complication roll whole (your answer to the offer)."""

    type: Literal["decline_extend"] = "decline_extend"


class CreatePlotThread(_A):
    """Plot Thread (UA-THREAD-1, L2286): a Component that is an unresolved conflict, with its name; Holter's
    variant names the Components tied to it, 1 coin each."""

    type: Literal["create_plot_thread"] = "create_plot_thread"
    name: str = Field(min_length=1, max_length=200, description="names the conflict")
    tied: list[str] = Field(default_factory=list, max_length=20, description="component ids tied to it")


class ResolvePlotThread(_A):
    """Plot Thread (UA-THREAD-3, L2290): declare the conflict resolved and take its Weight in coins."""

    type: Literal["resolve_plot_thread"] = "resolve_plot_thread"
    thread: str = Field(description="the Plot Thread's component id")
    text: str = Field(min_length=1, description="how it was resolved")


class ProtectComponent(_A):
    """PC Plot Protection option (UA-PROT-3, L2132): buy protection for an important Component that is no PC."""

    type: Literal["protect_component"] = "protect_component"
    component: str


class SetDriver(_A):
    """PC Story Drivers (UA-DRIVER-3, L2150-2160): write or rewrite your PC's Story Driver (not a Fact)."""

    type: Literal["set_driver"] = "set_driver"
    text: str = Field(min_length=1, max_length=2000)


class DriverScene(_A):
    """PC Story Drivers (UA-DRIVER-1, L2162): this scene addressed your PC's Driver: 1 coin to its Endowment."""

    type: Literal["driver_scene"] = "driver_scene"
    text: str = Field(min_length=1, description="how the scene touched the Driver")


class ResolveDriver(_A):
    """PC Story Drivers (UA-DRIVER-2, L2164): the Driver is resolved: its sessions' worth of coins."""

    type: Literal["resolve_driver"] = "resolve_driver"
    text: str = Field(min_length=1, description="how it was resolved")


class CreatePlotPool(_A):
    """Plot Pools (UA-PLOT-1, L2274): a plot gets 10-50 Coins from the Bank."""

    type: Literal["create_plot_pool"] = "create_plot_pool"
    name: str = Field(min_length=1, description="the plot")
    coins: int = Field(ge=0, le=1000)


class PlotPoolFact(_A):
    """Plot Pools (UA-PLOT-2): a Fact that develops the plot, paid with 1 of its Coins."""

    type: Literal["plot_pool_fact"] = "plot_pool_fact"
    plot: str = Field(min_length=1)
    text: str = Field(min_length=1)


# --- add-on actions (issue 22; engine/universalis/addon_rules.py) ---------------------------------------
class ProposeTenets(_A):
    """Multiple Tenets add-on: several Tenets on one basic idea, 1 coin each (UA-TENET-1, L1940)."""

    type: Literal["propose_tenets"] = "propose_tenets"
    texts: list[str] = Field(min_length=1, max_length=20)
    idea: Optional[str] = Field(default=None, description="the basic idea they share")
    kind: Literal["story", "social", "gimmick", "world"] = "story"


class PresentSeed(_A):
    """Seed Element add-on: the bringer presents the pre-made Component as the first Tenet (UA-SEED-1)."""

    type: Literal["present_seed"] = "present_seed"


class CedeControl(_A):
    """Friendly Control add-on: hand Control of a component to another player, free (UA-FRIEND-1)."""

    type: Literal["cede_control"] = "cede_control"
    component: str
    to: str


class RevealTrait(_A):
    """Enigma Traits add-on: reveal one's secret Trait; from now on it is a Fact (UA-ENIGMA-3)."""

    type: Literal["reveal_trait"] = "reveal_trait"
    trait: str


class StartJob(_A):
    """Metagame Jobs add-on: a 1-coin Rules Gimmick giving a player a paid job (UA-JOB-2)."""

    type: Literal["start_job"] = "start_job"
    holder: str
    title: str = Field(min_length=1, max_length=120)
    coins: int = Field(default=1, ge=0, le=100)
    schedule: str = Field(default="scene", min_length=1, max_length=120)


class EndJob(_A):
    """Metagame Jobs add-on: a 1-coin Rules Gimmick ending a job (UA-JOB-3)."""

    type: Literal["end_job"] = "end_job"
    title: str = Field(min_length=1, max_length=120)


class JobItem(_A):
    """Metagame Jobs add-on: another player records an item a per-item job produced; the Bank pays (UA-JOB-4)."""

    type: Literal["job_item"] = "job_item"
    title: str = Field(min_length=1, max_length=120)
    text: str = ""


class AdoptAddon(_A):
    """Adopt (or drop) an add-on after play has begun: a Rules Gimmick, 1 coin, open to Challenge (UA-GIM-1)."""

    type: Literal["adopt_addon"] = "adopt_addon"
    addon: str = Field(min_length=1, max_length=60, description="an add-on key from `storytable addons`")
    value: Optional[str] = Field(default=None, max_length=200, description="NAME=VALUE's value, if any")
    drop: bool = Field(default=False, description="end the add-on: its fields go back to the core rules")


class EndSession(_A):
    """Close the table at the end of a session (UA-SESS-1)."""

    type: Literal["end_session"] = "end_session"
    text: str = ""


class StartSession(_A):
    """Reopen the table for the next session with the players present (UA-SESS-2)."""

    type: Literal["start_session"] = "start_session"
    present: list[str] = Field(default_factory=list, description="who is here; empty = everyone")
    new_players: list[str] = Field(default_factory=list, max_length=10,
                                   description="people joining the story (Introduce New Players add-on)")


Action = Annotated[
    Union[
        ProposeTenet, PassPrep, Bid, EstablishLocation, SetTime, FrameMiniScene, FadeMiniScene,
        CreateComponent, IntroduceComponent, ExitComponent, DeclareAbsent, NarrateEvent, BuyFact,
        AddTrait, RemoveTrait, RestoreTrait, ReduceImportance, RestoreImportance, ReturnComponent,
        Dialog, AnswerDialog, Speak, EndTurn, EndScene, TakeOver, CallFine, FineVote, Pass,
        Interrupt, Obstacle, ChallengeStatement, ConcedeChallenge, ContestChallenge,
        WithdrawChallenge, DisputeFact, FactVote, ChallengeBid, ChallengePass, DrawTrait, BuyDie,
        CallResolution, AnswerResolution, Roll, CancelBonus, EndNarration,
        AdoptCharacter, AgreeIntroduction, EndowTrait, EndowDice, DeclarePool, OrderNested, AllocateSuccesses,
        ExtendComplication, DeclineExtend, CreatePlotPool, PlotPoolFact, ProtectComponent, SetDriver,
        DriverScene, ResolveDriver, CreatePlotThread, ResolvePlotThread,
        ProposeTenets, PresentSeed, CedeControl, RevealTrait, StartJob, EndJob, JobItem, EndSession, StartSession,
        AdoptAddon, InvokeJudgment, JudgeRuling, OverruleVote, FrameScene, SwitchScene, CloseScene,
        ForkScene,
    ],
    Field(discriminator="type"),
]

ACTION_ADAPTER: TypeAdapter = TypeAdapter(Action)

def _collect() -> dict[str, type[BaseModel]]:
    import typing
    union = typing.get_args(Action)[0]
    return {cls.model_fields["type"].default: cls for cls in typing.get_args(union)}


ACTION_TYPES: dict[str, type[BaseModel]] = _collect()


def parse_action(data: dict) -> BaseModel:
    """Validate a dict (from a log, a form or a model) into an action."""
    return ACTION_ADAPTER.validate_python(data)
