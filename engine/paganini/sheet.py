"""Traits on a character sheet: skill types and untrained use (P-7), and character creation's
budgets (P-9 attributes, P-10 skills; book @23683-@24720), checked on a finished sheet.

Why a finished sheet and not a list of steps: a person types the sheet they want, and an AI
drafts one; the engine then finds whether *some* split into free and traded levels fits the
book's budgets and caps, and when none does it says by how much the sheet overspends.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Mapping

from engine.core.errors import RuleViolation
from engine.paganini.ladder import BOTTOM, TOP, rung_name

SkillKind = Literal["general", "experience", "special"]
KINDS: tuple[str, ...] = ("general", "experience", "special")
ATTRIBUTES: tuple[str, ...] = ("Fitness", "Coordination", "Quickness", "Intellect", "Focus", "Wits")  # @5691
FREE_ATTRIBUTE_LEVELS = 3   # @23743
TRADE_CAP = 2               # @23906, @24504: at most two traded levels per trait (reading P-AMB-3)


def untrained_level(kind: str) -> int | None:
    """P-7: an unlisted skill's level: General Average (@6508), Experience Terrible (@6784), Special
    not at all (@6966, None)."""
    if kind == "general":
        return 0
    if kind == "experience":
        return BOTTOM
    if kind == "special":
        return None
    raise RuleViolation("P-7", f"{kind!r} is not a skill type (general, experience or special)")


def creation_default(kind: str) -> int:
    """P-10 (@24024): General skills start at Average, Experience and Special at Terrible."""
    return 0 if kind == "general" else BOTTOM


def free_skill_levels(n_skills: int, extra: int = 0) -> int:
    """P-10 (@24141): half the number of skills taken, rounded up (a setting may add more)."""
    return math.ceil(n_skills / 2) + extra


@dataclass(frozen=True)
class Budget:
    """What a sheet spends: levels raised, lowered, and the free levels it needs beyond its budget."""

    raised: int
    lowered: int
    free_needed: int
    free_budget: int

    @property
    def over(self) -> int:
        return max(0, self.free_needed - self.free_budget)


def _in_ladder(rule: str, what: str, v: int) -> None:
    if not isinstance(v, int) or not BOTTOM <= v <= TOP:
        raise RuleViolation(rule, f"{what} at {v} is off the ladder: every trait lies between Terrible and Superb")


def check_attributes(attrs: Mapping[str, int], free: int = FREE_ATTRIBUTE_LEVELS,
                     names: tuple[str, ...] = ATTRIBUTES) -> Budget:
    """P-9: all start Average; `free` free levels; more by lowering another attribute an equal
    amount; at most two traded levels per attribute (P-AMB-3). Lowered levels are used only to
    raise others (the book knows lowering only as a trade)."""
    missing = [n for n in names if n not in attrs]
    if missing:
        raise RuleViolation("P-9", f"the sheet lacks the attribute{'s' if len(missing) > 1 else ''} "
                                   f"{', '.join(missing)}")
    for n, v in attrs.items():
        _in_ladder("P-9", n, v)
    raised = {n: v for n, v in attrs.items() if v > 0}
    lowered = sum(-v for v in attrs.values() if v < 0)
    total = sum(raised.values())
    # free levels needed: what trades cannot cover, and each attribute's levels beyond two traded
    need = max(total - lowered, sum(max(0, v - TRADE_CAP) for v in raised.values()))
    if total < lowered:
        raise RuleViolation("P-9", f"{lowered} attribute levels are lowered but only {total} raised: a level "
                                   "is lowered only to raise another attribute an equal amount (@23824)")
    if need > total - lowered:
        worst = max(raised, key=lambda n: raised[n])
        raise RuleViolation("P-9", f"{worst} is raised {raised[worst]} levels: no more than two of them may come "
                                   f"from lowering other attributes (@23906), and the {lowered} levels lowered "
                                   f"leave only {total - lowered} free level(s) for the rest")
    b = Budget(total, lowered, need, free)
    if b.over:
        raise RuleViolation("P-9", f"the attributes spend {need} free levels, {b.over} more than the {free} a "
                                   f"starting character has (@23743)")
    return b


def check_skills(skills: Mapping[str, tuple[str, int]], extra_free: int = 0) -> Budget:
    """P-10: defaults at creation (@24024); ceil(skills / 2) free levels, two per Special rung
    (@24249); more by lowering General skills, two General levels per Special rung (@24411); at
    most two traded rungs per skill (@24504, P-AMB-3). Finds a split of each skill's raise into
    free and traded rungs; refuses with the overspend when none exists (test case 6)."""
    if not skills:
        return Budget(0, 0, 0, free_skill_levels(0, extra_free))
    lowered = 0
    units: list[tuple[str, int, int]] = []  # (name, rungs raised, cost per rung)
    for name, (kind, v) in skills.items():
        if kind not in KINDS:
            raise RuleViolation("P-7", f"{name}: {kind!r} is not a skill type (general, experience or special)")
        _in_ladder("P-10", name, v)
        base = creation_default(kind)
        if v < base:
            if kind != "general":
                raise RuleViolation("P-10", f"{name} is a {kind} skill: it starts at Terrible and cannot go lower")
            lowered += base - v
        elif v > base:
            units.append((name, v - base, 2 if kind == "special" else 1))
    budget = free_skill_levels(len(skills), extra_free)
    cost = sum(r * c for _, r, c in units)
    if cost < lowered:
        raise RuleViolation("P-10", f"General skills are lowered {lowered} levels but only {cost} are spent raising "
                                    "others: a General skill is lowered only to raise another skill (@24316)")
    # the free levels spent are cost - lowered; some split f_i in [max(0, r_i - 2), r_i] must give exactly that
    want = cost - lowered
    reachable = {0}
    for _, r, c in units:
        reachable = {x + c * f for x in reachable for f in range(max(0, r - TRADE_CAP), r + 1)}
    least = sum(c * max(0, r - TRADE_CAP) for _, r, c in units)
    if want not in reachable:
        if want < least:
            worst = max(units, key=lambda u: u[1])
            raise RuleViolation("P-10", f"{worst[0]} is raised {worst[1]} rungs: no more than two may come from "
                                        f"lowering General skills (@24504), so more free levels are needed than "
                                        f"the {lowered} lowered levels leave")
        raise RuleViolation("P-10", "the lowered General levels cannot pay for the raises exactly: a Special rung "
                                    "takes two General levels (@24411)")
    b = Budget(cost, lowered, want, budget)
    if b.over:
        raise RuleViolation("P-10", f"the skills spend {want} free levels but {len(skills)} skills give "
                                    f"{budget} (half the skills, rounded up, @24141): over budget by {b.over}")
    return b


def describe(v: int) -> str:
    return rung_name(v)
