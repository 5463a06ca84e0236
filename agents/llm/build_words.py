"""A Vele purchase in words: the seat's heuristic plans the numbers, the model writes the names.

Why: a whole `build` (a PC and four story components with traits, sizes, aspects and an ability) was
a ~600-token answer; SmolLM2 on a shared core missed the 22 s deadline on every one (0 of 4 builds,
eval/data/real_model_games.json). The heuristic's build already fits every purchase rule (V-10,
V-14-18, V-23, V-24), so the model is asked only for its words, in a flat schema shaped like that
plan (a fixed count of short strings per list), and the words are written into the plan. Sizes,
kinds, dice, costs and the ability stay the plan's: any answer the schema admits is a legal build
unless a name repeats (refused here, in a player's words) — the engine still judges it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from annotated_types import Len
from pydantic import BaseModel, Field, StringConstraints, create_model

from engine.vele import actions as A

from .schema_actions import _Lean

__all__ = ["BUILD_NOTE", "Shape", "plan_lines", "shape_of", "taken_names", "with_words", "words_schema"]

NAME_CHARS = 40  # a component's name: "Mara Vell, the smuggler"
TRAIT_CHARS = 24  # a trait: "Sharp eyes", "Old sword"
ASPECT_CHARS = 48  # an aspect: "Owes the harbour guild"
WORDS_WHY = 80
#: said in the decision's rationale: the model wrote the words, not the numbers
BUILD_NOTE = "words by the model; kinds, sizes, dice, costs and the ability from the heuristic's plan"

Shape = tuple[int, int, int, int, int]  # PC traits, PC aspects, main traits, main aspects, other components


def shape_of(plan: A.Build) -> Shape:
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
    pc_t, pc_a, main_t, main_a, others = shape
    name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_CHARS)]
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
    fields["why"] = (Annotated[str, StringConstraints(max_length=WORDS_WHY)], Field(default="", description="a few words"))
    return create_model(  # type: ignore[call-overload, no-any-return]
        "Words", __base__=_Lean, __doc__="The words of your purchase: names, traits, aspects.", **fields)


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


def with_words(plan: A.Build, words: BaseModel, taken: list[str]) -> A.Build:
    """The plan with the model's words; ValueError in a player's words for an empty or repeated name.
    The result is validated again as a Build (the engine's own limits on lengths apply)."""
    pc, main, others = _parts(plan)
    w = words.model_dump()
    names = [_clean(w["pc_name"]), _clean(w["main_name"]), *(_clean(n) for n in w.get("other_names") or [])]
    if len(names) != 2 + len(others) or any(not n for n in names):
        raise ValueError("every component needs a name")
    seen = [n.casefold() for n in names]
    twice = next((names[i] for i, n in enumerate(seen) if seen.index(n) != i), None)
    if twice is not None:
        raise ValueError(f"two of your components are both called {twice!r}: give each its own name")
    used = {t.casefold() for t in taken}
    clash = next((n for n in names if n.casefold() in used), None)
    if clash is not None:
        raise ValueError(f"{clash!r} is already at the table: give your component a name of its own")
    new_pc = _renamed(pc, names[0], w.get("pc_traits"), w.get("pc_aspects"))
    new_main = _renamed(main, names[1], w.get("main_traits"), w.get("main_aspects"))
    new_others = iter(_renamed(c, n, None, None) for c, n in zip(others, names[2:]))
    story = [new_main if c is main else next(new_others) for c in plan.story]
    spotlight = plan.spotlight
    if spotlight.startswith(pc.name):  # the heuristic's card names its PC: name the model's
        spotlight = (names[0] + spotlight[len(pc.name):])[:300]
    return A.Build.model_validate({**plan.model_dump(), "pc": new_pc.model_dump(),
                                   "story": [c.model_dump() for c in story], "spotlight": spotlight})


def _dice(comp: A.ComponentIn) -> str:
    traits = ", ".join(f"d{t.size}" + (" (focus)" if t.focus else "") for t in comp.traits)
    out = f"{len(comp.traits)} traits ({traits})"
    if comp.aspects:
        out += f", {len(comp.aspects)} aspect{'s' if len(comp.aspects) > 1 else ''}"
    if comp.ability is not None:
        i = next(i for i, t in enumerate(comp.traits) if t.name == comp.ability.trait)
        out += f"; its trait no. {i + 1} has {comp.ability.effect.replace('_', ' ')} {comp.ability.size}"
    return out


def plan_lines(plan: A.Build) -> str:
    """What the model names, in the order of the answer's fields, without the plan's names (a small
    model copies what it is shown)."""
    pc, main, others = _parts(plan)
    lines = [f"- pc_name, pc_traits, pc_aspects: your PC, {_dice(pc)}",
             f"- main_name, main_traits, main_aspects: the act's chief opponent, {_dice(main)}"]
    if others:
        kinds = "; ".join(("a place or thing that strikes whoever crosses it" if c.stationary else
                           "a band of people") + f" ({', '.join(t.name.lower() for t in c.traits)})" for c in others)
        lines.append(f"- other_names: {len(others)} more story components, in order: {kinds}")
    return "\n".join(lines)
