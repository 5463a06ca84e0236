"""Paganini actions: flat pydantic models, one per decision; `Action` is their union on `type`.

The same schema is what an LLM GM or player must produce. The GM's judgement calls (which
roll, the difficulty, situational dice, whether scale applies, Quickness or Focus for
initiative, what a tier means in the story) arrive as fields of the GM's actions (digest
section 3); the engine turns them into dice and refuses what the rules forbid.
"""
from __future__ import annotations

import typing
from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.paganini.combat import MeleeMod, RangedMod
from engine.paganini.state import Armour, Weapon

Difficulty = Literal["nearly_impossible", "very_hard", "hard", "above_average", "average", "below_average", "easy",
                     "very_easy", "nearly_automatic"]


class _A(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    player: str = Field(description="the acting seat's name")


class SkillIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    kind: Literal["general", "experience", "special"]
    level: int = Field(ge=-4, le=4, description="-4 Terrible .. 0 Average .. +4 Superb")


class ModIn(BaseModel):
    """Situational dice the GM rules onto a roll: +1..+4 HD or -1..-4 LD (P-4, P-16)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    dice: int = Field(ge=-4, le=4)


class SheetIn(BaseModel):
    """A character sheet as written: attributes (-4..4), skills with types, equipment."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    concept: str = ""
    description: str = Field("", description="the few paragraphs that define the character (@22900)")
    attributes: dict[str, int]
    skills: list[SkillIn] = Field(default_factory=list)
    weapons: list[Weapon] = Field(default_factory=list)
    armour: Armour = Field(default_factory=Armour)
    shield: Literal["none", "target", "kite", "tower"] = "none"
    scale: dict[str, int] = Field(default_factory=dict, description="'size' and per-ability scales; 0 = human")


# --- set-up -------------------------------------------------------------------------------------------
class PrepareAdventure(_A):
    """The GM's adventure: its situation and places; whether it is time-consuming (P-11)."""

    type: Literal["prepare_adventure"] = "prepare_adventure"
    title: str = Field(min_length=1)
    situation: str = Field(min_length=1)
    places: list[str] = Field(default_factory=list)
    time_consuming: bool = False
    designated_skill: Optional[str] = Field(None, description="the skill a time-consuming adventure's designated "
                                                              "points must go to (@14378)")


class AddOpponent(_A):
    """The GM adds an NPC with its sheet (validated like any character unless the table waives it)."""

    type: Literal["add_opponent"] = "add_opponent"
    sheet: SheetIn


class CreateCharacter(_A):
    type: Literal["create_character"] = "create_character"
    sheet: SheetIn


# --- scenes ---------------------------------------------------------------------------------------------
class FrameScene(_A):
    type: Literal["frame_scene"] = "frame_scene"
    place: str = Field(min_length=1)
    text: str = Field(min_length=1)
    present: list[str] = Field(default_factory=list, description="ids of the NPCs in the scene")


class ContinueScene(_A):
    type: Literal["continue_scene"] = "continue_scene"
    text: str = ""


class EndScene(_A):
    type: Literal["end_scene"] = "end_scene"
    text: str = ""


class PassTurn(_A):
    type: Literal["pass_turn"] = "pass_turn"
    text: str = ""


# --- checks ---------------------------------------------------------------------------------------------
class Attempt(_A):
    """A player (or the GM for an NPC in combat) tries something whose outcome is not obvious (@4317)."""

    type: Literal["attempt"] = "attempt"
    intent: str = Field(min_length=1)
    attribute: str
    skill: Optional[str] = None
    skill_kind: Optional[Literal["general", "experience", "special"]] = Field(
        None, description="the type proposed for a skill not on the sheet (the GM decides)")
    against: Optional[str] = Field(None, description="a character id who opposes it")
    actor: Optional[str] = Field(None, description="in combat: the character acting (default: the seat's)")


class CallCheck(_A):
    """The GM rules on an attempt: whether to roll, the difficulty, situational dice, the opposing
    traits, the skill's type if unlisted, and scale (P-3, P-4, P-6, P-7, P-8)."""

    type: Literal["call_check"] = "call_check"
    roll: bool = Field(True, description="false: the outcome is obvious, no roll (@4317)")
    refuse: bool = Field(False, description="the action cannot be attempted at all")
    difficulty: Difficulty = "average"
    mods: list[ModIn] = Field(default_factory=list)
    skill_kind: Optional[Literal["general", "experience", "special"]] = None
    opposed_attribute: Optional[str] = None
    opposed_skill: Optional[str] = None
    opposed_skill_kind: Optional[Literal["general", "experience", "special"]] = Field(
        None, description="the type of an opposing skill not on the opponent's sheet")
    scale_ability: Optional[str] = Field(None, description="which scale counts ('size' or an ability); "
                                                           "none: scale left out of this roll")
    scale_to: Literal["larger", "smaller"] = Field("larger", description="HD to the larger side, or LD to the "
                                                                         "smaller (never both, @11567)")
    rounds: int = Field(1, ge=1, le=10, description="in combat: a long action kept up over this many rounds "
                                                    "before it is rolled (@17100)")
    reason: str = ""


class PassiveCheck(_A):
    """The GM calls for a roll nobody chose to make, e.g. Alertness to notice a trap (@10312)."""

    type: Literal["passive_check"] = "passive_check"
    who: list[str] = Field(min_length=1)
    intent: str = Field(min_length=1)
    attribute: str
    skill: Optional[str] = None
    skill_kind: Literal["general", "experience", "special"] = "general"
    difficulty: Difficulty = "average"
    mods: list[ModIn] = Field(default_factory=list)


class RollDice(BaseModel):
    """The faces rolled for each pool the game asked for, by key."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["roll_dice"] = "roll_dice"
    faces: dict[str, list[int]]


class Narrate(_A):
    """What a result means in the story, told by the seat the game asks (P-5; section 3)."""

    type: Literal["narrate"] = "narrate"
    text: str = Field(min_length=1)


# --- combat ---------------------------------------------------------------------------------------------
class StartCombat(_A):
    type: Literal["start_combat"] = "start_combat"
    combatants: list[str] = Field(min_length=2)
    text: str = ""


class Initiative(_A):
    """The GM's call for this round's initiative: Quickness or Focus, each combatant's combat or
    awareness skill, and modifiers such as surprise or an unwieldy weapon (P-13)."""

    type: Literal["initiative"] = "initiative"
    attribute: Literal["Quickness", "Focus"]
    skills: dict[str, str] = Field(default_factory=dict)
    mods: dict[str, int] = Field(default_factory=dict)


class AttackAction(_A):
    """A melee or ranged attack by `actor` on `target` (P-14, P-16, P-20)."""

    type: Literal["attack"] = "attack"
    actor: str
    target: str
    weapon: str
    skill: Optional[str] = None
    skill_kind: Literal["general", "experience", "special"] = Field(
        "experience", description="the type of a weapon skill not on the sheet (the GM's call, @7600)")
    attribute: Optional[str] = None
    damage_type: Optional[Literal["cutting", "piercing", "blunt", "energy"]] = None
    melee_mods: list[MeleeMod] = Field(default_factory=list)
    range: Optional[Literal["short", "medium", "long", "extra_long"]] = None
    ranged_mods: list[RangedMod] = Field(default_factory=list)
    hard_cover: int = Field(0, ge=0, le=100, description="percent of the target behind hard cover")
    soft_cover: int = Field(0, ge=0, le=100)
    situation: int = Field(0, ge=-4, le=4, description="footing, hills, bad light: +-1..4 (@18470)")
    manoeuvre: int = Field(0, ge=-4, le=4, description="the difficulty of the manoeuvre described")
    scale_on: Literal["attacker", "defender"] = Field("attacker", description="which roll takes the to-hit "
                                                                             "scale dice (never both)")
    intent: str = ""


class Defend(_A):
    """The defender's answer to a melee attack: the skill and attribute rolled (P-14, P-15, P-16)."""

    type: Literal["defend"] = "defend"
    skill: Optional[str] = None
    attribute: str = "Coordination"
    weapon: Optional[str] = Field(None, description="a weapon parried with adds its Quality (@19039)")
    dodge: bool = Field(False, description="a movement-based defence (heavy armour: +1LD)")
    situation: int = Field(0, ge=-4, le=4)


class Hold(_A):
    """A combatant's turn spent doing nothing the dice decide."""

    type: Literal["hold"] = "hold"
    actor: str
    text: str = ""


class NextRound(_A):
    type: Literal["next_round"] = "next_round"


class EndCombat(_A):
    type: Literal["end_combat"] = "end_combat"
    text: str = ""


# --- time, advancement, the GM's word -------------------------------------------------------------------
class EndDay(_A):
    """A game day of adventuring passes: adventure points (P-11, @12775, @14121)."""

    type: Literal["end_day"] = "end_day"
    withhold: list[str] = Field(default_factory=list, description="characters whose learning the GM stops "
                                                                   "(e.g. penned up in a dungeon, @14833)")


class EndWeek(_A):
    """A game week passes: the weekly 2 AP, or 5 for an intensive week (P-11, @13235, @13542)."""

    type: Literal["end_week"] = "end_week"
    withhold: list[str] = Field(default_factory=list)


class RecordTraining(_A):
    """The GM confirms a character trained with a skill during the adventure (@12842)."""

    type: Literal["record_training"] = "record_training"
    character: str
    skill: str


class StudyIntensively(_A):
    type: Literal["study_intensively"] = "study_intensively"
    reason: str = Field(min_length=1, description="the in-game reason (@13597)")


class RaiseSkill(_A):
    """Spend AP from named lots to raise one skill one rung (P-11, P-12)."""

    type: Literal["raise_skill"] = "raise_skill"
    skill: str
    kind: Optional[Literal["general", "experience", "special"]] = Field(None, description="for a new skill")
    lots: list[int] = Field(min_length=1)
    teacher: bool = False
    instruction: str = Field("", description="how a Special skill is learned (a teacher, books, ...)")


class Heal(_A):
    """The GM's word on recovery (the book has no healing rule): boxes cleared, waking up."""

    type: Literal["heal"] = "heal"
    character: str
    boxes: int = Field(0, ge=0, le=25)
    wake: bool = False
    reason: str = Field(min_length=1)


class AlterCharacter(_A):
    """A major change to a character's construction - aging, a lost limb, magic, growing up - the only
    way attributes or scale change after creation (P-11, @12100; @12471)."""

    type: Literal["alter_character"] = "alter_character"
    character: str
    attributes: dict[str, int] = Field(default_factory=dict, description="new levels of the attributes changed")
    scale: dict[str, int] = Field(default_factory=dict, description="new scales ('size' or an ability)")
    reason: str = Field(min_length=1)


class EndAdventure(_A):
    type: Literal["end_adventure"] = "end_adventure"
    text: str = ""


Action = Annotated[
    Union[
        PrepareAdventure, AddOpponent, CreateCharacter, FrameScene, ContinueScene, EndScene, PassTurn, Attempt,
        CallCheck, PassiveCheck, RollDice, Narrate, StartCombat, Initiative, AttackAction, Defend, Hold,
        NextRound, EndCombat, EndDay, EndWeek, RecordTraining, StudyIntensively, RaiseSkill, Heal, AlterCharacter,
        EndAdventure,
    ],
    Field(discriminator="type"),
]

ACTION_ADAPTER: TypeAdapter = TypeAdapter(Action)
ACTION_TYPES: dict[str, type[BaseModel]] = {
    cls.model_fields["type"].default: cls for cls in typing.get_args(typing.get_args(Action)[0])}


def parse_action(data: dict) -> BaseModel:
    return ACTION_ADAPTER.validate_python(data)
