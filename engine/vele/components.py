"""Components with special lives: one-shot, temporary and virtual (V-21, V-22; L187, L205, L249, L523),
pure.

Why: these components bend the usual rules (who pays, what may be wagered, whether damage lands) and
a table that forgets one of the bends breaks the dice economy.
"""
from __future__ import annotations

from typing import Literal, Sequence

from engine.core.errors import RuleViolation
from engine.vele.economy import POINTS

Special = Literal["one_shot", "temporary", "virtual"]
NORMAL_TRAITS = 4  # V-14


def one_shot_cost(trait_sizes: Sequence[int]) -> int:
    """V-21 (L205): a one-shot costs the same as a normal component: up to 4 traits, at least half of
    them bought (V-16), one die of each trait's size."""
    if not trait_sizes or len(trait_sizes) > NORMAL_TRAITS:
        raise RuleViolation("V-21", "a one-shot is built like a normal component: 1 to 4 traits")
    return sum(POINTS[d] for d in trait_sizes)


def use_one_shot(used: bool) -> None:
    """V-21 (L205): a one-shot "is only usable once"."""
    if used:
        raise RuleViolation("V-21", "a one-shot works once, and it has been used")


def one_shot_power(component_dice: Sequence[int], power: Sequence[int]) -> None:
    """V-21 (L205): the dice spent on a one-shot also power its abilities: its power dice come from them."""
    left = list(component_dice)
    for d in power:
        if d not in left:
            raise RuleViolation("V-21", f"a one-shot's power comes from its own dice; it has no d{d} left")
        left.remove(d)


def check_part_of(kind: Special | str, role: Literal["part", "absorb"]) -> None:
    """V-21 (L205): a one-shot can't be part of another component and can't absorb damage for it."""
    if kind == "one_shot":
        raise RuleViolation("V-21", "a one-shot cannot be part of another component" if role == "part"
                            else "a one-shot cannot absorb damage for another component")


def check_temporary_stakes(sources: Sequence[str]) -> None:
    """V-22 (L187): narrators make temporary components from bowl dice and "may only use bowl dice with
    them in struggles"."""
    if any(s != "bowl" for s in sources):
        raise RuleViolation("V-22", "a temporary component wagers bowl dice only")


def check_struggle_against(kind: Special | str) -> None:
    """V-22 (L249): a virtual component has no mechanics: no struggle is made against it."""
    if kind == "virtual":
        raise RuleViolation("V-22", "a virtual component has no mechanics: narrate it, or make it a temporary "
                                    "component to act against")


def thing_without_component(choice: Literal["temporary", "default_trait"]) -> dict:
    """V-22 (L523): for a thing with no component the narrator makes a temporary component to act
    against, or lets the thing defend with a d6 from the bowl as its default trait. Neither is a default."""
    if choice == "default_trait":
        return {"trait": 6, "source": "bowl"}
    return {"component": "temporary", "source": "bowl"}
