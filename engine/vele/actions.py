"""Vele's actions: one pydantic model each, a discriminated union for logs, forms and models."""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, TypeAdapter, model_serializer


class _A(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: str


class Bid(_A):
    """V-57: a secret d6 bid of the 6 XP each player gets per act."""
    type: Literal["bid"] = "bid"
    bid: int = Field(ge=1, le=6)


class RollDice(BaseModel):
    """The faces a chance decision asked for, keyed as `pending(...).dice` named them."""
    model_config = ConfigDict(extra="forbid")
    type: Literal["roll_dice"] = "roll_dice"
    faces: dict[str, list[int]]


class TraitIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80)
    size: int
    focus: bool = False


class AbilityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    trait: str
    effect: Literal["power_attack", "power_defense", "heal", "area", "selective_area", "block", "auto_block"]
    size: int  # Block is Block 6 and Auto-Block is Auto-Block 8 (V-24, L663-664)
    dice: list[int] = Field(default_factory=list)  # allocated dice (V-24, V-AMB-17)


class ComponentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80)
    kind: Literal["pc", "main", "normal", "minion"]
    traits: list[TraitIn]
    aspects: list[str] = Field(default_factory=list)
    ability: AbilityIn | None = None
    vele: bool = False  # a Vele or Verminite (V-7): untouchable by mechanics under vele_off_stage, unless a PC
    stationary: bool = False  # V-41: a stationary part of the geography (a bridge): attacks on its victims' turn
    one_shot: bool = False  # V-21: an expendable thing (a potion, an explosive) that works once


class Build(_A):
    """The act-start purchase (V-10, V-14-18, V-23): a PC and the act's story components, paid from
    fresh dice points (and XP, V-AMB-1); what is left stays as character and story dice."""
    type: Literal["build"] = "build"
    pc: ComponentIn
    story: list[ComponentIn]
    character_dice: list[int] = Field(default_factory=list)
    story_dice: list[int] = Field(default_factory=list)
    xp_spent: int = Field(0, ge=0)
    objective: str = ""
    spotlight: str = Field("", max_length=300)  # V-61: a spotlight card for your PC ("" makes none)


class AddGuideline(_A):
    """V-54, V-6 (L271, L849): a guideline (a shared fact or rule) is written down; during an act only the
    narrator adds them, during the act's setup (the purchase) any player may."""
    type: Literal["add_guideline"] = "add_guideline"
    text: str = Field(min_length=1, max_length=500)


class ExcludeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    component: str
    die: int


class FrameScene(_A):
    """V-52: the narrator states time, place and who is present, and may try to keep one component out."""
    type: Literal["frame_scene"] = "frame_scene"
    place: str = Field(min_length=1, max_length=200)
    text: str = Field("", max_length=2000)
    present: list[str]
    exclude: ExcludeIn | None = None
    # V-44 (L413-415), with the `zones` option: the scene's zones in a row (neighbours are next to each other) and
    # where components stand; a present component not placed starts in the first zone. None: no map
    zones: list[Annotated[str, Field(min_length=1, max_length=80)]] | None = Field(None, max_length=12)
    placed: dict[str, str] | None = None


class AnswerExclusion(_A):
    """V-52: the owner accepts (stays out, takes the die) or rolls one PC die against it (0 with none)."""
    type: Literal["answer_exclusion"] = "answer_exclusion"
    accept: bool
    die: int | None = None


class StartStruggle(_A):
    """V-25, V-26, V-33: on your turn, one of your components acts against another. V-39 (L479-481): a block
    (goal 'block', stating what it `prevents`) stands, on success, until your next turn; the blocked component
    first overcomes it (goal 'overcome', against the blocker) by exceeding the block's result, which is reused."""
    type: Literal["start_struggle"] = "start_struggle"
    actor: str
    target: str
    goal: Literal["attack", "control", "maneuver", "block", "overcome"]
    target_trait: str | None = None
    extended: bool = False
    head_to_head: bool = False  # two actors (a race, a contest): only for maneuvers (V-26, L338)
    hidden: bool = False  # V-31 (L690): failure yields uncertainty: the other side hides its roll; no wagering
    prevents: str = ""  # V-39 (L479): a block's stated aim: the component the target may not act against ('': any)
    text: str = Field("", max_length=1000)


class StartMassStruggle(_A):
    """V-38 (L433-435; Area 8 / Selective Area 10, L667-668): on your turn, a component with Area attacks
    everything else in its zone at once (Selective Area: the `targets` you pick there). The actor wagers and
    rolls once; each defender wagers, rolls and resolves separately. A new action, so logs without it replay
    as before."""
    type: Literal["start_mass_struggle"] = "start_mass_struggle"
    actor: str
    goal: Literal["attack", "control"] = "attack"
    targets: list[str] = Field(default_factory=list)
    text: str = Field("", max_length=1000)


class NarratorNo(_A):
    """V-3 (L169): the narrator just says 'no' to a struggle before any die is pushed: a challenge that
    succeeds at once, so the actor must do something else (its turn goes on)."""
    type: Literal["narrator_no"] = "narrator_no"
    reason: str = Field("", max_length=300)


class Challenge(_A):
    """V-1 (L163): any player but the actor challenges a struggle's claim before any die is pushed; if a
    majority of the voters (everyone but the actor, V-AMB-4) supports it, the actor must do something else.
    The challenger's own vote supports it."""
    type: Literal["challenge"] = "challenge"
    reason: str = Field("", max_length=300)


class Justify(_A):
    """V-4 (L267): right after the table's challenge turned your struggle's claim down, tell it again with revised
    fiction; the same voters (everyone but you) say whether they still oppose it. If no majority does, the
    struggle goes on as revised; if one does, revise again or do something else."""
    type: Literal["justify"] = "justify"
    text: str = Field(min_length=1, max_length=1000)


class TableTalk(_A):
    """V-5 (L625): out-of-character words to other players ("No Advice During Play"): during play only between
    players who are neither narrating nor acting; story and act creation allow full communication."""
    type: Literal["table_talk"] = "table_talk"
    to: list[str] = Field(min_length=1, max_length=12)
    text: str = Field(min_length=1, max_length=500)


class TellEffect(_A):
    """V-31 (L690): after a hidden roll, its opponent's player "tells you the effect so that you don't know whether
    you failed": a line of story, out of turn, once a roll; the number and the dice stay in that player's view."""
    type: Literal["tell_effect"] = "tell_effect"
    text: str = Field(min_length=1, max_length=300)


class ClaimAspect(_A):
    """V-48, V-AMB-20 (L563-564): on your turn, claim that an aspect of your component was hit (with danger
    or extreme difficulty: `danger`); approval (V-2) gives XP to you and to the narrator."""
    type: Literal["claim_aspect"] = "claim_aspect"
    component: str
    aspect: str = Field(min_length=1, max_length=300)
    danger: bool = False
    text: str = Field("", max_length=500)


class CastVote(_A):
    """V-1, V-2: a vote on the claim under vote: `oppose` opposes the claim (supports a challenge)."""
    type: Literal["cast_vote"] = "cast_vote"
    oppose: bool
    reason: str = Field("", max_length=300)


class BuyOffObjective(_A):
    """V-49, V-EX-16 (L551): the PCs fought for the story objective and failed; failing "may" also buy it
    off: the table approves (V-2) and then every player gets XP. Never for an objective ignored or lost
    through struggles without the PCs."""
    type: Literal["buy_off_objective"] = "buy_off_objective"
    text: str = Field("", max_length=500)


class ClaimSpotlight(_A):
    """V-61, V-48 (L566, L931, L736): a spotlight card's goal was achieved: its maker or the narrator holding it
    claims it between scenes while that holder narrates; on approval (V-2) the maker gets 5 XP, the narrator 3."""
    type: Literal["claim_spotlight"] = "claim_spotlight"
    maker: str
    kind: Literal["pc", "group"] = "pc"  # the maker's PC card, or their group's (V-60)
    text: str = Field("", max_length=500)


class MakeGroup(_A):
    """V-60, V-61 (L716-728): at act setup, a group of story characters: a leader and members (main, normal or
    minion components, no abilities) bought with the group's 5 dice sets (50 points) for member traits only;
    up to 4 aspects on a main member, 3 on a normal one; and the group's spotlight card, tied to a PC."""
    type: Literal["make_group"] = "make_group"
    name: str = Field(min_length=1, max_length=80)
    leader: ComponentIn
    members: list[ComponentIn] = Field(default_factory=list, max_length=8)
    spotlight: str = Field("", max_length=300)


class Connect(_A):
    """V-60, V-AMB-18 (L726-727): at act setup, after your purchase, once for each other player's group, add to
    one of its characters a trait (paid with the group's dice) and/or an aspect connected to your PC, and get a
    d4 story die from the bowl for each."""
    type: Literal["connect"] = "connect"
    member: str
    trait: TraitIn | None = None
    aspect: str = Field("", max_length=200)


class SetMode(_A):
    """V-45 (L421-427, L683-686): on your turn (or, narrating, between rounds) announce a component's mode:
    integrated with (aiding) another of your components present (`unit`), or autonomous (''); it may not
    contradict what already happened this round. Attaching or detaching (`attach`) takes the turn (one
    struggle's time) unless you spend 1 XP of fate (`fate`)."""
    type: Literal["set_mode"] = "set_mode"
    component: str
    unit: str = ""
    attach: bool = False
    fate: bool = False
    text: str = Field("", max_length=300)


class Move(_A):
    """V-44 (L415): on your turn, with a map of zones, a component of yours moves to a neighbouring zone: one zone
    before its struggle, free; or one more zone as its struggle (`as_struggle`), which takes the turn."""
    type: Literal["move"] = "move"
    component: str
    to: str
    as_struggle: bool = False
    text: str = Field("", max_length=300)


class MakeComponent(_A):
    """V-62, V-21 (L213, L221, L205): on your turn, make "just what you need": a normal component (a one-shot if
    `one_shot`), present at once, paid from your story dice with a die of each trait's size (V-15). Once an act
    it is free; again in the act it needs a capability and a technique trait of yours in the scene
    (`supported_by`), or the table votes on challenging it (V-1)."""
    type: Literal["make_component"] = "make_component"
    component: ComponentIn
    paid: list[int]
    supported_by: list[str] = Field(default_factory=list, max_length=4)


class MakeTemporary(_A):
    """V-22 (L187, L249, L523): the narrator makes a component for the scene from bowl dice: a temporary component
    (traits, 1 to 4, rated by bowl dice the bowl holds; none given: a bowl d6 as its default trait) that wagers
    bowl dice only, or (`virtual`, no traits) a virtual one, fiction with no mechanics that nothing struggles
    with. Either is gone when the scene ends."""
    type: Literal["make_temporary"] = "make_temporary"
    name: str = Field(min_length=1, max_length=80)
    traits: list[TraitIn] = Field(default_factory=list, max_length=4)
    virtual: bool = False
    text: str = Field("", max_length=500)


class CounterStruggle(_A):
    """V-41 (L441): a component failed a struggle against a thing that is not a person (a stationary part of the
    geography: a wall, a bridge); the thing's player asks for a counter-struggle, and with the table's approval
    (V-2) the thing "attacks" the component that failed. Between that struggle and the scene's next one."""
    type: Literal["counter_struggle"] = "counter_struggle"
    thing: str
    text: str = Field("", max_length=1000)


class Heal(_A):
    """V-40 (L669): on your turn, a healing or repair trait with Heal/Repair N mends `count` damaged traits of
    a component present (smallest first), paying `count` dice points from your pool; the wounded traits
    oppose it together."""
    type: Literal["heal"] = "heal"
    healer: str
    trait: str
    patient: str
    count: int = Field(ge=1, le=5)
    paid: list[int]


class StateDifficulty(_A):
    """V-27 step 4: a difficulty stated before traits are chosen (0: none)."""
    type: Literal["state_difficulty"] = "state_difficulty"
    value: int = Field(ge=0, le=10)
    reason: str = Field("", max_length=300)


class StakeIn(BaseModel):
    # one die pushed on one trait (V-27 step 3); `member`: in a unit's own struggle, the component attached with it
    # whose trait this is (V-45, L683: attached to it), '' for the struggling component's own trait
    model_config = ConfigDict(extra="forbid")
    trait: str
    die: int
    source: Literal["own", "bowl"] = "own"
    member: str = ""

    @model_serializer(mode="wrap")
    def _leave_out_no_member(self, handler: SerializerFunctionWrapHandler) -> dict:
        """A stake on the component's own trait is written as before `member` existed, so logs of games without a
        unit pooling keep their bytes."""
        out = handler(self)
        if not self.member:
            out.pop("member", None)
        return out


class Wager(_A):
    """V-27 steps 3 and 5: one die per trait used, power dice from the ability's allocated dice, and
    optionally the unwagered average bowl d6."""
    type: Literal["wager"] = "wager"
    stakes: list[StakeIn]
    power: list[int] = Field(default_factory=list)
    average: bool = False
    allies: list[str] = Field(default_factory=list)  # V-43: components called to ally this side
    # V-24 (L663-664): the actor uses its Block 6 / Auto-Block 8 on a trait it pushes, paying one allocated die of
    # that size to the bowl: on success a block also stands with the result (Auto-Block: on a failure too, with a
    # reroll). None (left out of the log) when unused, so older logs replay as they were written.
    block: Literal["block", "auto_block"] | None = None


class JoinAlly(_A):
    """V-43 (L445): a component called as an ally joins the side, pushing one die per trait it uses (from its
    player's pool or the bowl), or declines. An ally may not already ally a different component, may not ally
    in the defence of a component allying it, and does nothing during its next struggle."""
    type: Literal["join_ally"] = "join_ally"
    component: str
    stakes: list[StakeIn] = Field(default_factory=list)
    decline: bool = False


class SpendFate(_A):
    """V-46 (L529-537): after the roll, 1 XP for +2 with an aspect (+1 without); a scene aspect's free tag
    pays instead of XP. `skip` passes."""
    type: Literal["spend_fate"] = "spend_fate"
    aspect: str = Field("", max_length=300)
    skip: bool = False


class TakeDamage(_A):
    """V-35: the defender names the traits that absorb the effect, in order."""
    type: Literal["take_damage"] = "take_damage"
    traits: list[str]
    scene_only: bool = False
    allies: dict[str, list[str]] = Field(default_factory=dict)  # V-35: each ally's traits lost in the rounds
    # V-45 (L427): after the first trait (the attacked component's), traits of components integrated with it, in order
    unit: dict[str, list[str]] | None = None  # None, not {}: logs of games without it keep their bytes


class ContinueFight(_A):
    """V-32: go on with the extended struggle (attack back) or surrender. `area` (V-38, L433, L453): a component
    with Area strikes with it, at the fight's other side and the rest of its zone at once (Selective Area: the
    `targets` picked there, the other side among them). New fields, so logs without them replay as before."""
    type: Literal["continue_fight"] = "continue_fight"
    surrender: bool = False
    target_trait: str | None = None
    area: bool = False
    targets: list[str] = Field(default_factory=list)
    text: str = Field("", max_length=1000)


class PassTurn(_A):
    type: Literal["pass_turn"] = "pass_turn"


class Recombine(_A):
    """V-11, V-12: recombine dice of one pool at equal points."""
    type: Literal["recombine"] = "recombine"
    pool: Literal["character", "story"]
    give: list[int]
    take: list[int]
    upgrade: bool = True


class NextRound(_A):
    type: Literal["next_round"] = "next_round"


class EndScene(_A):
    type: Literal["end_scene"] = "end_scene"
    text: str = Field("", max_length=1000)


class PassNarration(_A):
    """V-55: the narrator passes the role on along the initiative list."""
    type: Literal["pass_narration"] = "pass_narration"


class EndAct(_A):
    """V-56: ending the act is the narrator's call; the objective may be claimed (V-49)."""
    type: Literal["end_act"] = "end_act"
    objective_achieved: bool = False
    text: str = Field("", max_length=1000)


Action = Annotated[Union[Bid, RollDice, Build, AddGuideline, FrameScene, AnswerExclusion, StartStruggle,
                         StartMassStruggle, NarratorNo,
                         Challenge, Justify, TableTalk, TellEffect, ClaimAspect, CastVote, BuyOffObjective, ClaimSpotlight,
                         CounterStruggle, SetMode, Move, MakeComponent, MakeTemporary, MakeGroup, Connect, Heal,
                         StateDifficulty, Wager, JoinAlly, SpendFate, TakeDamage, ContinueFight, PassTurn, Recombine,
                         NextRound, EndScene, PassNarration, EndAct],
                   Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter = TypeAdapter(Action)


def parse_action(data: dict) -> BaseModel:
    return ACTION_ADAPTER.validate_python(data)
