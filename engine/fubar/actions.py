"""FUBAR actions: flat pydantic models, one per decision; `Action` is their union on `type`.

The same schema is what an LLM player or GM must produce. Judgement calls the book leaves to
the GM or the group (stakes, which Descriptors apply, believability, Conditions' tiers) arrive as
fields of the GM's actions (digest section 3): the engine applies them, it does not guess them.
"""
from __future__ import annotations

import typing
from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _A(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    player: str = Field(description="the acting seat's name")


class RelationshipIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    target: str = Field(min_length=1)
    positive: bool


class ModIn(BaseModel):
    """A die the GM rules onto the roll: +1 bonus or -1 penalty per source (F-4)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: Literal["descriptor", "condition", "opposing_descriptor", "opposing_condition", "unfamiliar",
                    "applicability", "concept", "circumstance", "gear", "helper", "power"]
    name: str = ""
    dice: int = Field(ge=-3, le=3)


class ConditionIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    target: str = Field(description="a player's seat or an opposition id")
    name: str = Field(min_length=1)
    tier: Optional[Literal["minor", "moderate", "major"]] = Field(
        None, description="empty: the engine's default tier from the Resolve effect (F-19)")
    positive: bool = False
    scope: Literal["physical", "mental", "social", "resources", "other"] = "other"


# --- set-up ---------------------------------------------------------------------------------------
class PrepareScenario(_A):
    """The GM prepares a scenario: a situation and its places (the opposition comes separately)."""

    type: Literal["prepare_scenario"] = "prepare_scenario"
    title: str = Field(min_length=1)
    situation: str = Field(min_length=1)
    places: list[str] = Field(default_factory=list)


class AddOpposition(_A):
    """The GM adds an opposing character or obstacle (F-14, F-16, F-20, F-21)."""

    type: Literal["add_opposition"] = "add_opposition"
    name: str = Field(min_length=1)
    kind: Literal["character", "obstacle"] = "character"
    strength: Literal["weak", "average", "challenging", "strong", "overwhelming"] = "average"
    resolve: int = Field(0, ge=0, le=12, description="0 standard, 2 lieutenant, 5 recurring villain, up to 8")
    trademarks: list[str] = Field(default_factory=list)
    flaws: list[str] = Field(default_factory=list)
    scale: int = 0
    armour: Literal["none", "light", "medium", "heavy"] = "none"
    partial_armour: bool = False
    weapon_rating: int = Field(0, ge=0, le=8)


class CreateCharacter(_A):
    """A player makes a character: Concept, 4 Trademarks, 2 Flaws, 2 Relationships, a Goal (F-10)."""

    type: Literal["create_character"] = "create_character"
    name: str = Field(min_length=1)
    concept: str = Field(min_length=1)
    concept_abilities: list[str] = Field(default_factory=list)
    trademarks: list[str]
    flaws: list[str]
    relationships: list[RelationshipIn]
    goal: str = Field(min_length=1)
    powers: list[str] = Field(default_factory=list, description="Trademarks or Concept abilities that are "
                                                                  "supernatural powers (F-23)")
    super_descriptor: Optional[str] = Field(None, description="the one 'super' Trademark: 2D (F-23 option, L215)")
    broad_power: bool = Field(False, description="pay the broad-power cost: Resolve cap 4 (F-23)")
    armour: Literal["none", "light", "medium", "heavy"] = "none"
    partial_armour: bool = Field(False, description="partial armour: rating -2 (F-21)")
    shield: bool = False
    weapon_rating: int = Field(0, ge=0, le=8)
    scale: int = Field(0, description="scale level, with the scale option (F-18)")


# --- the GM between and around conflicts ----------------------------------------------------------
class FrameScene(_A):
    """The GM frames a scene at a place; a downtime scene makes rest plausible (F-8)."""

    type: Literal["frame_scene"] = "frame_scene"
    place: str = Field(min_length=1)
    text: str = ""
    downtime: bool = False
    present: list[str] = Field(default_factory=list, description="opposition ids in the scene")


class ContinueScene(_A):
    """The GM hands the spotlight back to the players for another round."""

    type: Literal["continue_scene"] = "continue_scene"
    text: str = ""


class EndScene(_A):
    type: Literal["end_scene"] = "end_scene"
    text: str = ""


class EndSession(_A):
    """Close a session; the next starts with +2 Resolve, later if this one ends on a cliffhanger (F-8)."""

    type: Literal["end_session"] = "end_session"
    cliffhanger: bool = False


class EndScenario(_A):
    """Close the scenario: Resolve resets to the cap, each character gains a Relationship (F-8, F-12)."""

    type: Literal["end_scenario"] = "end_scenario"
    final: bool = Field(False, description="the game ends after this scenario")
    text: str = ""


class AddDetail(_A):
    type: Literal["add_detail"] = "add_detail"
    text: str = Field(min_length=1)


class ApplyCondition(_A):
    type: Literal["apply_condition"] = "apply_condition"
    condition: ConditionIn


class ClearCondition(_A):
    """Treatment, time or a Descriptor bought with it ends a Condition (F-19)."""

    type: Literal["clear_condition"] = "clear_condition"
    target: str
    condition_id: str


class AwardResolve(_A):
    """A GM-judged Resolve gain: a pivotal Flaw, genre play (option), Goal progress (F-8)."""

    type: Literal["award_resolve"] = "award_resolve"
    seat: str
    reason: Literal["flaw", "genre", "goal_progress"]
    text: str = ""


class GoalSetback(_A):
    """A Goal setback outside a conflict: -1 (F-7, F-11)."""

    type: Literal["goal_setback"] = "goal_setback"
    seat: str
    text: str = ""


class GoalResolved(_A):
    """The GM rules a Goal accomplished or failed outside a conflict (F-11)."""

    type: Literal["goal_resolved"] = "goal_resolved"
    seat: str
    goal: str
    success: bool


class RechargePowers(_A):
    """Prayers, rituals or time restore a character's powers: magic points back to 3 a power, and
    powers an unreliable roll disabled work again (F-23, L223-226)."""

    type: Literal["recharge_powers"] = "recharge_powers"
    seat: str
    text: str = ""


class LevelUp(_A):
    """Level option: the Resolve cap rises by 1 (F-12)."""

    type: Literal["level_up"] = "level_up"
    seat: str


class LoseAsset(_A):
    """Invested gear or a supporting character is taken away (+1) or lost for good (refund) (F-22, F-8)."""

    type: Literal["lose_asset"] = "lose_asset"
    seat: str
    name: str
    permanent: bool = False


# --- a player's turn ------------------------------------------------------------------------------
class OtherIn(BaseModel):
    """Another character in the same conflict seeking a different outcome (F-25, L640)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: str
    question: str = Field(min_length=1)
    descriptors: list[str] = Field(default_factory=list)


class Attempt(_A):
    """Ask a yes/no question the dice answer (F-13): claim Descriptors, name the opposition."""

    type: Literal["attempt"] = "attempt"
    question: str = Field(min_length=1, description="a closed yes/no question")
    intent: str = ""
    descriptors: list[str] = Field(default_factory=list, description="own Descriptors claimed as +1D each")
    use_concept: bool = Field(False, description="claim the Concept as apt (+1D)")
    against: Optional[str] = Field(None, description="an opposition id or another player's seat")
    aligned: list[str] = Field(default_factory=list, description="seats rolling alongside on the same question")
    others: list[OtherIn] = Field(default_factory=list, description="seats rolling in the same conflict for "
                                                                    "their own outcomes")
    helpers: list[str] = Field(default_factory=list, description="seats joining this roll with their Descriptors")
    helper_descriptors: list[str] = Field(default_factory=list)
    asset: Optional[str] = Field(None, description="invested gear or a supporting character aiding")
    risky: bool = Field(False, description="ask the GM for the aggressive, high-risk approach (F-14)")
    goal: Optional[str] = None
    goal_step: Optional[Literal["milestone", "final"]] = None
    power: Optional[str] = None
    power_cost: bool = Field(False, description="an extremely powerful use of a power: 1 Resolve (F-7, L128)")


class NarrateFact(_A):
    """Spend 1 Resolve on a plausible fact or coincidence; the GM judges it (F-7)."""

    type: Literal["narrate_fact"] = "narrate_fact"
    text: str = Field(min_length=1)
    descriptor: str = ""


class Downtime(_A):
    """Rest in a downtime scene: +1 Resolve once a session, and a Condition eases (F-8)."""

    type: Literal["downtime"] = "downtime"
    text: str = ""
    condition_id: Optional[str] = None


class AddGoal(_A):
    type: Literal["add_goal"] = "add_goal"
    goal: str = Field(min_length=1)


class ReplaceGoal(_A):
    """An irrelevant Goal is replaced free; abandoning one between sessions costs 1 (F-11, F-7)."""

    type: Literal["replace_goal"] = "replace_goal"
    old: str
    new: str = Field(min_length=1)
    reason: Literal["irrelevant", "reword", "abandon"]


class InvestAsset(_A):
    """Invest 1 or 2 Trademarks in gear or a supporting character (F-22)."""

    type: Literal["invest_asset"] = "invest_asset"
    name: str = Field(min_length=1)
    concept: str = Field(min_length=1)
    invest: list[str] = Field(default_factory=list, description="own Trademarks given up (empty: group asset)")
    trademarks: list[str] = Field(default_factory=list)
    flaws: list[str] = Field(default_factory=list)


class RenameDescriptor(_A):
    """At a session's end, rename a Descriptor; it keeps its type. A Relationship may be rewritten
    (F-12, L378)."""

    type: Literal["rename_descriptor"] = "rename_descriptor"
    kind: Literal["trademark", "flaw", "relationship", "concept"]
    old: str
    new: str = Field(min_length=1)
    positive: Optional[bool] = Field(None, description="a rewritten Relationship's sign")


class PassTurn(_A):
    type: Literal["pass_turn"] = "pass_turn"
    text: str = ""


# --- a conflict ----------------------------------------------------------------------------------
class RuleConflict(_A):
    """The GM's ruling on an attempt: stakes per side, strength, the dice sources (F-4, F-13, F-16)."""

    type: Literal["rule_conflict"] = "rule_conflict"
    pc_stakes: Literal["low", "high"] = "low"
    opposition_stakes: Literal["low", "high"] = "low"
    strength: Optional[Literal["weak", "average", "challenging", "strong", "overwhelming"]] = None
    mods: list[ModIn] = Field(default_factory=list)
    disallow: list[str] = Field(default_factory=list, description="claimed Descriptors that do not apply")
    concept_applies: bool = True
    risky: bool = Field(False, description="agree to the risky approach asked for")
    combat: bool = False
    exchange: Literal["melee", "mutual_ranged", "one_sided"] = "melee"
    cramped: bool = False
    sprays: bool = False
    pc_range_disadvantage: bool = Field(False, description="the PC's weapon is at a range disadvantage: -2 (F-20)")
    opposition_range_disadvantage: bool = False
    pc_auto_fire: bool = Field(False, description="the PC empties an automatic weapon: +1 rating (F-20)")
    opposition_auto_fire: bool = False
    level_bump: bool = Field(False, description="level option: the foe is lesser, a free step up (F-12, L382)")
    asset_covers: bool = Field(False, description="the aiding asset's Concept has the expertise the PC lacks "
                                                   "(F-22): no Unfamiliarity penalty")
    no_roll: Optional[bool] = Field(None, description="True: grant a Yes without rolling")
    reason: str = ""


class RollDice(_A):
    """The faces a dice source rolled for each pool asked for."""

    type: Literal["roll_dice"] = "roll_dice"
    player: str = "dice"
    faces: dict[str, list[int]]


class Reroll(_A):
    """Pay 1 Resolve to reroll any of the dice just rolled, of one's own pool or, in a PC-vs-PC
    conflict, the roller's (F-7, F-17, F-AMB-5)."""

    type: Literal["reroll"] = "reroll"
    key: str
    indices: list[int] = Field(min_length=1)


class KeepRoll(_A):
    type: Literal["keep_roll"] = "keep_roll"
    soak: bool = Field(True, description="spend armour soak instead of Resolve if it comes to that (F-21)")


class Concede(_A):
    """A losing character concedes on negotiated terms; +1 if high stakes for him (F-15)."""

    type: Literal["concede"] = "concede"
    terms: str = Field(min_length=1)


class NarrateOutcome(_A):
    """Narrate the answer, with its 'and'/'but' Conditions and Details (F-5, F-19)."""

    type: Literal["narrate_outcome"] = "narrate_outcome"
    text: str = Field(min_length=1)
    conditions: list[ConditionIn] = Field(default_factory=list)
    details: list[str] = Field(default_factory=list)


class JudgeFact(_A):
    type: Literal["judge_fact"] = "judge_fact"
    believable: bool
    reason: str = ""


# --- after a fall, a Goal, a scenario ------------------------------------------------------------------
class EscapeTrade(_A):
    """Below 0: trade a Trademark for a permanent Flaw and stay, at full Resolve (F-6)."""

    type: Literal["escape_trade"] = "escape_trade"
    trademark: str
    flaw: str = Field(min_length=1)


class WriteOut(_A):
    type: Literal["write_out"] = "write_out"
    text: str = Field(min_length=1)


class Advance(_A):
    """After a Goal's end: a Trademark (or a Flaw removed, 3 Concept abilities, +2 magic) on success;
    a Flaw (or a Trademark removed) on failure; and a new Goal (F-11, F-12)."""

    type: Literal["advance"] = "advance"
    kind: Literal["trademark", "remove_flaw", "concept", "magic", "flaw", "remove_trademark"]
    text: str = ""
    abilities: list[str] = Field(default_factory=list)
    new_goal: str = Field(min_length=1)


class AddRelationship(_A):
    type: Literal["add_relationship"] = "add_relationship"
    target: str = Field(min_length=1)
    positive: bool


Action = Annotated[
    Union[
        PrepareScenario, AddOpposition, CreateCharacter, FrameScene, ContinueScene, EndScene, EndSession,
        EndScenario, AddDetail, ApplyCondition, ClearCondition, AwardResolve, GoalSetback, GoalResolved,
        LevelUp, RechargePowers, LoseAsset, Attempt, NarrateFact, Downtime, AddGoal, ReplaceGoal, InvestAsset, RenameDescriptor,
        PassTurn,
        RuleConflict, RollDice, Reroll, KeepRoll, Concede, NarrateOutcome, JudgeFact, EscapeTrade,
        WriteOut, Advance, AddRelationship,
    ],
    Field(discriminator="type"),
]

ACTION_ADAPTER: TypeAdapter = TypeAdapter(Action)
ACTION_TYPES: dict[str, type[BaseModel]] = {
    cls.model_fields["type"].default: cls for cls in typing.get_args(typing.get_args(Action)[0])}


def parse_action(data: dict) -> BaseModel:
    return ACTION_ADAPTER.validate_python(data)
