"""A Vele purchase in words: the seat's heuristic plans the numbers, the model writes the names.

Why: a whole `build` (a PC and four story components with traits, sizes, aspects and an ability) was
a ~600-token answer; SmolLM2 on a shared core missed the 22 s deadline on every one (0 of 4 builds,
eval/data/real_model_games.json). The heuristic's build already fits every purchase rule (V-10,
V-14-18, V-23, V-24), so the model is asked only for its words, in a flat schema shaped like that
plan (a fixed count of short strings per list), and the words are written into the plan. Sizes,
kinds, dice, costs and the ability stay the plan's: any answer the schema admits is a legal build
unless a name repeats (refused here, in a player's words) — the engine still judges it. A group of
story characters (V-60), the heuristic's first purchase each act, is asked the same way (its names).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from annotated_types import Len
from pydantic import BaseModel, Field, StringConstraints, create_model

from engine.vele import actions as A

from .schema_actions import _Lean

__all__ = ["BUILD_NOTE", "GROUP_NOTE", "WORDED", "Shape", "note_for", "plan_lines", "shape_of", "taken_names",
           "with_words", "words_schema"]

# every character is generated, slowly, on a CPU: SmolLM2 ran many strings to the cap (eval run 2)
NAME_CHARS = 32  # a component's name: "Mara Vell, the smuggler"
TRAIT_CHARS = 24  # a trait: "Sharp eyes", "Old sword"
ASPECT_CHARS = 40  # an aspect: "Owes the harbour guild"
WORDS_WHY = 80
#: said in the decision's rationale: the model wrote the words, not the numbers
BUILD_NOTE = "names, traits, aspects by the model; kinds, sizes, dice, costs, abilities from the heuristic's plan"
GROUP_NOTE = "names by the model; kinds, traits, sizes, aspects and the card's words from the heuristic's plan"

#: the purchases asked in words: the PC and the act's story components, and a group of story characters (V-60,
#: its leader's and members' names; their traits stay the plan's, as do the other story components')
WORDED = ("build", "make_group")

Shape = tuple[int, ...]  # a build: PC traits, PC aspects, main traits, main aspects, other components; a group: members


def shape_of(plan: A.Build | A.MakeGroup) -> Shape:
    if isinstance(plan, A.MakeGroup):
        return (len(plan.members),)
    pc, main, others = _parts(plan)
    return len(pc.traits), len(pc.aspects), len(main.traits), len(main.aspects), len(others)


def _parts(plan: A.Build) -> tuple[A.ComponentIn, A.ComponentIn, list[A.ComponentIn]]:
    main = next(c for c in plan.story if c.kind == "main")
    return plan.pc, main, [c for c in plan.story if c is not main]


def _strings(n: int, chars: int) -> Any:
    return Annotated[list[Annotated[str, StringConstraints(min_length=1, max_length=chars)]], Len(n, n)]


@lru_cache(maxsize=32)
def words_schema(shape: Shape) -> type[BaseModel]:
    """The answer: names, trait names and aspects, each list exactly as long as the plan's (a list of
    length 0 is left out)."""
    name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_CHARS)]
    why = (Annotated[str, StringConstraints(max_length=WORDS_WHY)], Field(default="", description="a few words"))
    if len(shape) == 1:
        group: dict[str, Any] = {"group_name": (name, Field(description="the group's name")),
                                 "leader_name": (name, Field(description="its leader's name"))}
        if shape[0]:
            group["member_names"] = (_strings(shape[0], NAME_CHARS), Field(description="its members' names"))
        return create_model(  # type: ignore[call-overload, no-any-return]
            "GroupWords", __base__=_Lean, __doc__="The words of your group: its name, its characters' names.",
            **group, why=why)
    pc_t, pc_a, main_t, main_a, others = shape
    fields: dict[str, Any] = {"pc_name": (name, Field(description="your PC's name"))}
    if pc_t:
        fields["pc_traits"] = (_strings(pc_t, TRAIT_CHARS), Field(description="your PC's traits, strongest first"))
    if pc_a:
        fields["pc_aspects"] = (_strings(pc_a, ASPECT_CHARS), Field(description="your PC's aspects"))
    fields["main_name"] = (name, Field(description="the main story component: the act's chief opponent"))
    if main_t:
        fields["main_traits"] = (_strings(main_t, TRAIT_CHARS), Field(description="its traits, strongest first"))
    if main_a:
        fields["main_aspects"] = (_strings(main_a, ASPECT_CHARS), Field(description="its aspects"))
    if others:
        fields["other_names"] = (_strings(others, NAME_CHARS), Field(description="the other story components' names"))
    fields["why"] = why
    return create_model(  # type: ignore[call-overload, no-any-return]
        "Words", __base__=_Lean, __doc__="The words of your purchase: names, traits, aspects.", **fields)


def note_for(plan: A.Build | A.MakeGroup) -> str:
    """What of the decision was the model's, for its rationale."""
    return GROUP_NOTE if isinstance(plan, A.MakeGroup) else BUILD_NOTE


def _clean(text: str) -> str:
    """A model's words as one line (a name is shown in lists and event lines); nothing else is changed."""
    return " ".join(str(text).split())


def taken_names(view: dict[str, Any]) -> list[str]:
    """The names of the components already at the table (a new one must differ)."""
    return [str(c.get("name")) for c in view.get("components") or [] if isinstance(c, dict) and c.get("name")]


def _renamed(comp: A.ComponentIn, name: str, traits: list[str] | None, aspects: list[str] | None) -> A.ComponentIn:
    """`comp` with new words; each trait keeps its size and focus, the ability follows its trait by position."""
    names = [_clean(t) for t in traits] if traits is not None else [t.name for t in comp.traits]
    if any(not t for t in names):
        raise ValueError(f"{name or comp.kind}: a trait has no name")
    seen = [t.casefold() for t in names]
    twice = next((names[i] for i, t in enumerate(seen) if seen.index(t) != i), None)
    if twice is not None:
        raise ValueError(f"two traits of {name} are both called {twice!r}: every trait needs its own name (V-14)")
    by_old = {t.name: new for t, new in zip(comp.traits, names)}
    ability = comp.ability.model_copy(update={"trait": by_old[comp.ability.trait]}) if comp.ability else None
    new_aspects = [_clean(a) for a in aspects] if aspects is not None else list(comp.aspects)
    if any(not a for a in new_aspects):
        raise ValueError(f"{name}: an aspect is empty")
    return comp.model_copy(update={
        "name": name, "aspects": new_aspects, "ability": ability,
        "traits": [t.model_copy(update={"name": n}) for t, n in zip(comp.traits, names)]})


def _names(names: list[str], planned: list[str], taken: list[str]) -> None:
    """ValueError in a player's words unless there is a name for each `planned` one, each its own and new at
    the table. (The rules allow a repeated name; it confuses the table, so the model may not bring one in.
    A repeat the plan itself made, two bands "Guards of the pier", stays allowed.)"""
    if len(names) != len(planned) or any(not n for n in names):
        raise ValueError("every component needs a name")
    seen, was = [n.casefold() for n in names], [n.casefold() for n in planned]
    twice = next((names[i] for i, n in enumerate(seen) if seen.index(n) != i and was[seen.index(n)] != was[i]), None)
    if twice is not None:
        raise ValueError(f"two of your components are both called {twice!r}: give each its own name")
    used = {t.casefold() for t in taken}
    clash = next((n for n, p in zip(names, was) if n.casefold() in used and n.casefold() != p), None)
    if clash is not None:
        raise ValueError(f"{clash!r} is already at the table: give your component a name of its own")


def _group_words(plan: A.MakeGroup, w: dict[str, Any], taken: list[str]) -> A.MakeGroup:
    name = _clean(w["group_name"])
    names = [_clean(w["leader_name"]), *(_clean(n) for n in w.get("member_names") or [])]
    _names([name, *names], [plan.name, plan.leader.name, *(m.name for m in plan.members)], taken)
    spotlight = plan.spotlight
    if spotlight.startswith(plan.name):  # the heuristic's card names its group: name the model's
        spotlight = (name + spotlight[len(plan.name):])[:300]
    return A.MakeGroup.model_validate({
        **plan.model_dump(), "name": name, "spotlight": spotlight,
        "leader": _renamed(plan.leader, names[0], None, None).model_dump(),
        "members": [_renamed(c, n, None, None).model_dump() for c, n in zip(plan.members, names[1:])]})


def with_words(plan: A.Build | A.MakeGroup, words: BaseModel, taken: list[str]) -> A.Build | A.MakeGroup:
    """The plan with the model's words; ValueError in a player's words for an empty or repeated name.
    The result is validated again as the engine's action (its own limits on lengths apply)."""
    w = words.model_dump()
    if isinstance(plan, A.MakeGroup):
        return _group_words(plan, w, taken)
    pc, main, others = _parts(plan)
    names = [_clean(w["pc_name"]), _clean(w["main_name"]), *(_clean(n) for n in w.get("other_names") or [])]
    _names(names, [pc.name, main.name, *(c.name for c in others)], taken)
    new_pc = _renamed(pc, names[0], w.get("pc_traits"), w.get("pc_aspects"))
    new_main = _renamed(main, names[1], w.get("main_traits"), w.get("main_aspects"))
    new_others = iter(_renamed(c, n, None, None) for c, n in zip(others, names[2:]))
    story = [new_main if c is main else next(new_others) for c in plan.story]
    spotlight = plan.spotlight
    if spotlight.startswith(pc.name):  # the heuristic's card names its PC: name the model's
        spotlight = (names[0] + spotlight[len(pc.name):])[:300]
    return A.Build.model_validate({**plan.model_dump(), "pc": new_pc.model_dump(),
                                   "story": [c.model_dump() for c in story], "spotlight": spotlight})


def _slots(comp: A.ComponentIn) -> str:
    """How many words a component takes, in words only: SmolLM2 shown "d8 (focus)" wrote it into trait names."""
    out = f"{len(comp.traits)} traits (the first its best)"
    if comp.aspects:
        out += f", {len(comp.aspects)} aspect{'s' if len(comp.aspects) > 1 else ''}"
    if comp.ability is not None:
        i = next(i for i, t in enumerate(comp.traits) if t.name == comp.ability.trait)
        out += f"; trait no. {i + 1} gives it {comp.ability.effect.replace('_', ' ')}"
    return out


def plan_lines(plan: A.Build | A.MakeGroup) -> str:
    """What the model names, in the order of the answer's fields, without the plan's names (a small
    model copies what it is shown)."""
    if isinstance(plan, A.MakeGroup):
        lines = ["- group_name: a group of story characters who work together this act",
                 f"- leader_name: its leader ({', '.join(t.name.lower() for t in plan.leader.traits)})"]
        if plan.members:
            lines.append(f"- member_names: its {len(plan.members)} members, in order: "
                         + "; ".join(", ".join(t.name.lower() for t in c.traits) for c in plan.members))
        return "\n".join(lines)
    pc, main, others = _parts(plan)
    lines = [f"- pc_name, pc_traits, pc_aspects: your PC (a new character of the story, not you), {_slots(pc)}",
             f"- main_name, main_traits, main_aspects: the act's chief opponent, {_slots(main)}"]
    if others:
        kinds = "; ".join(("a place or thing that strikes whoever crosses it" if c.stationary else
                           "a band of people") + f" ({', '.join(t.name.lower() for t in c.traits)})" for c in others)
        lines.append(f"- other_names: {len(others)} more story components, in order: {kinds}")
    return "\n".join(lines)
