"""Scale, initiative, melee and ranged attacks, the damage track and damage rolls
(P-8, P-13..P-20; book @10496-@22712). Pure: each function says how many dice a roll gets, or
what a result means; the rolls themselves arrive as faces.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Sequence

from engine.core.errors import RuleViolation
from engine.paganini.ladder import tier

# --- P-17 the damage track (@19152, @19380, reading P-AMB-1) ---------------------------------------
TRACK = 25
WOUND_LEVELS: tuple[str, ...] = ("Unhurt", "Wounded", "Scratched", "Battered", "Severely Wounded", "Near Death")


def wound_level(boxes: int) -> int:
    """0 unhurt, then 1..5: a level is reached once any of its five boxes is filled."""
    return math.ceil(max(0, min(TRACK, boxes)) / 5)


def wound_name(boxes: int) -> str:
    return WOUND_LEVELS[wound_level(boxes)]


def wound_penalty(boxes: int) -> int:
    """Dice (<= 0) on every roll of a wounded character: +1LD at 6 boxes ... +4LD at 21 (P-17)."""
    return -max(0, wound_level(boxes) - 1)


def take_boxes(wounds: int, boxes: int) -> tuple[int, int]:
    """The track after a hit, and the boxes beyond the 25th (reported to the GM, P-AMB-1)."""
    total = wounds + max(0, boxes)
    return min(TRACK, total), max(0, total - TRACK)


# --- P-8 scale (@10790) ------------------------------------------------------------------------------
ScaleRoll = Literal["contest", "to_hit", "damage"]


def scale_dice(own: int, other: int, kind: ScaleRoll) -> int:
    """The dice scale gives the roll of the side whose scale is `own`, facing `other`, by the
    digest's defaults (P-8): no cap, the difference of the two scales.

    contest: HD to the larger/stronger side; to_hit: size helps the smaller attacker (a larger
    target is easier to hit, @18805); damage: against a larger target LD, from a larger attacker HD.
    """
    d = own - other
    if kind == "contest":
        return d
    if kind == "to_hit":
        return -d
    if kind == "damage":
        return d
    raise RuleViolation("P-8", f"{kind!r} is not a roll scale applies to here")


# --- P-13 initiative (@16385) ------------------------------------------------------------------------
@dataclass(frozen=True)
class InitRoll:
    who: str
    roll: int
    extra: int | None = None  # the extra roll a Critical Success earns (@16446)


def initiative_slots(rolls: Sequence[InitRoll]) -> list[list[str]]:
    """Groups acting together, highest tier first: characters 'rolling the same level' (a tier,
    P-AMB-5) act simultaneously; a 20's extra roll is a second slot (at most one, P-AMB-7)."""
    entries: list[tuple[int, int, str]] = []
    for i, r in enumerate(rolls):
        entries.append((tier(r.roll), i, r.who))
        if r.roll == 20 and r.extra is not None:
            entries.append((tier(r.extra), i, r.who))
    by_tier: dict[int, list[str]] = {}
    for t, _, who in sorted(entries, key=lambda e: (-e[0], e[1])):
        by_tier.setdefault(t, []).append(who)
    return [by_tier[t] for t in sorted(by_tier, reverse=True)]


# --- P-15, P-16 melee (@18147) -----------------------------------------------------------------------
def defence_penalty(defences_made: int) -> int:
    """Each defence after the first in a round takes a cumulative +1LD (P-15)."""
    return -max(0, defences_made)


SHIELDS: dict[str, int] = {"none": 0, "target": 1, "kite": 2, "tower": 3}  # HD on defence (@18371)

MeleeMod = Literal["non_optimal_range", "vulnerable_direction"]
MELEE_MODS: dict[str, int] = {"non_optimal_range": -1, "vulnerable_direction": -1}

# --- P-20 ranged (@21171, @21841) --------------------------------------------------------------------
RANGES: dict[str, int] = {"short": 1, "medium": 0, "long": -1, "extra_long": -2}
RangedMod = Literal["target_moving", "target_dodging", "target_prone", "target_airborne", "attacker_running",
                    "attacker_braced", "telescopic_sights"]
RANGED_MODS: dict[str, int] = {"target_moving": -1, "target_dodging": -2, "target_prone": -2,
                               "target_airborne": -2, "attacker_running": -1, "attacker_braced": 1,
                               "telescopic_sights": 2}


def cover_dice(hard_pct: int, soft_pct: int, capped: bool = False) -> int:
    """+2LD per 10% of hard cover, +1LD per 10% of soft (@21884); no cap by default (P-AMB-13).
    With the cap option, more than 50% hard cover is Nearly Impossible at worst (-4 for cover)."""
    for pct in (hard_pct, soft_pct):
        if not 0 <= pct <= 100:
            raise RuleViolation("P-20", f"cover of {pct}% is not a share of the target")
    d = -2 * (hard_pct // 10) - (soft_pct // 10)
    return max(d, -4) if capped and hard_pct > 50 else d


# --- P-19 damage (@20159) ----------------------------------------------------------------------------
StrengthFactor = Literal["full", "half", "none"]


def strength_dice(fitness: int, factor: str, round_away: bool = False) -> int:
    """The attacker's strength dice: all, half (toward 0 by default, P-AMB-12) or none (@20190)."""
    if factor == "full":
        return fitness
    if factor == "none":
        return 0
    half = abs(fitness) / 2
    n = math.ceil(half) if round_away else math.floor(half)
    return n if fitness >= 0 else -n


def damage_boxes(roll: int) -> int:
    """'The rolled result minus one is the damage' (@20460): 0..19 boxes."""
    return roll - 1
