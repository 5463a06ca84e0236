"""The dice economy as pure arithmetic: points, recombining, top-up, levels, votes, bids.

Why separate: these rules are the part of Vele most often misread at a table (what a d12 costs,
whether a top-up counts the dice in hand), and each is a small function a test can pin to the
book's line with fixed numbers.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from engine.core.errors import RuleViolation

SIZES = (4, 6, 8, 10, 12)
POINTS = {4: 1, 6: 2, 8: 3, 10: 4, 12: 5}  # V-8, L332, L375
BY_POINTS = {v: k for k, v in POINTS.items()}


def points(dice: Iterable[int]) -> int:
    """Dice points of a multiset of dice (V-8)."""
    total = 0
    for d in dice:
        if d not in POINTS:
            raise RuleViolation("V-8", f"there is no d{d} in Death of the Vele (d4 to d12 only)")
        total += POINTS[d]
    return total


def smaller(size: int) -> int:
    """One die size down (the minion bargain, V-16)."""
    i = SIZES.index(size)
    return SIZES[i - 1] if i > 0 else size


def larger(size: int) -> int:
    i = SIZES.index(size)
    return SIZES[min(i + 1, len(SIZES) - 1)]


def check_upgrade(old: Sequence[int], new: Sequence[int]) -> None:
    """V-11: recombining dice keeps the point total exactly (L332; a d6 and a won d8 are 5 points:
    {d10, d4} or {d12}, never {d10, d6})."""
    if points(old) != points(new):
        raise RuleViolation("V-11", f"recombining must keep the dice points: {points(old)} points in, "
                                    f"{points(new)} points out")


def check_downgrade(old: Sequence[int], new: Sequence[int]) -> None:
    """V-12: a downgrade keeps the points and every new die is smaller than the largest die it replaces."""
    check_upgrade(old, new)
    if old and new and max(new) >= max(old):
        raise RuleViolation("V-12", "a downgrade makes dice all smaller than the ones given up")


def remove_dice(pool: list[int], dice: Sequence[int], rule: str, whose: str) -> list[int]:
    """`pool` without `dice` (a multiset); RuleViolation naming the missing die."""
    left = list(pool)
    for d in dice:
        if d not in left:
            raise RuleViolation(rule, f"{whose} has no d{d} to give")
        left.remove(d)
    return left


def top_up(original_allocated: int, allocated: int, character_dice: Sequence[int]) -> int:
    """V-13 (L590-592, L679): after a scene, take up to 10 points back toward the original allocated
    total; the character dice in hand count against the gap."""
    gap = original_allocated - (allocated + points(character_dice))
    return max(0, min(10, gap))


def level(xp_earned: int) -> int:
    """V-50: level = floor(XP earned / 100) + 1."""
    return max(0, xp_earned) // 100 + 1


def pc_trait_slots(lvl: int) -> int:
    """6 traits at level 1; every odd level from 3 adds one (V-50, §6.22)."""
    return 6 + sum(1 for n in range(2, lvl + 1) if n % 2 == 1)


def pc_aspects(lvl: int) -> int:
    """5 aspects at level 1; every even level adds one (V-14, V-50, §6.22)."""
    return 5 + sum(1 for n in range(2, lvl + 1) if n % 2 == 0)


def xp_dice(xp_before: int, xp_after: int) -> list[int]:
    """V-50: the dice earned while XP earned goes from before to after: +20 within a level gives a d4,
    +40 a d6, +60 a d8, +80 a d10 (L557-583)."""
    out = []
    for step, die in ((20, 4), (40, 6), (60, 8), (80, 10)):
        for hundred in range(xp_before // 100, xp_after // 100 + 1):
            mark = hundred * 100 + step
            if xp_before < mark <= xp_after:
                out.append(die)
    return sorted(out)


def levels_gained(xp_before: int, xp_after: int) -> list[dict]:
    """The level rewards between two XP-earned totals (V-50): every level replaces bought-off
    aspects, even levels add an aspect, odd levels add a PC trait slot."""
    out = []
    for lvl in range(level(xp_before) + 1, level(xp_after) + 1):
        out.append({"level": lvl, "replace_bought_off": True, "aspect": lvl % 2 == 0, "trait_slot": lvl % 2 == 1})
    return out


# --- adjudication (V-1, V-2, V-AMB-4) ------------------------------------------------------------
def challenge_succeeds(support: int, voters: int) -> bool:
    """V-1: a challenge needs a majority of the voters; a tie is no majority and is never rolled."""
    return support * 2 > voters


def approval(opposed: int, voters: int, tie_roll: int | None = None) -> bool | None:
    """V-2: the player goes on unless a majority opposes; an exact tie is decided by a d6 roll
    (V-AMB-4: 1-3 blocks, 4-6 passes). None means a tie waiting for its roll."""
    if opposed * 2 > voters:
        return False
    if opposed * 2 == voters and voters > 0:
        if tie_roll is None:
            return None
        if not 1 <= tie_roll <= 6:
            raise RuleViolation("V-AMB-4", "the approval tie roll is a d6")
        return tie_roll >= 4
    return True


# --- bids (V-57, V-EX-9) -------------------------------------------------------------------------
def bid_order(bids: dict[str, int], rolloff: dict[str, list[int]] | None = None) -> list[str] | None:
    """Highest bid first; tied bidders are ordered by their roll-off dice (each a list of rolls, compared
    in turn). None while a tie still has no roll deciding it."""
    rolloff = rolloff or {}
    for name, b in bids.items():
        if not 1 <= b <= 6:
            raise RuleViolation("V-57", f"{name}'s bid must be a d6 face, 1 to 6 (V-AMB-15)")
    groups: dict[int, list[str]] = {}
    for name, b in bids.items():
        groups.setdefault(b, []).append(name)
    order: list[str] = []
    for b in sorted(groups, reverse=True):
        names = groups[b]
        if len(names) > 1:
            if any(n not in rolloff for n in names):
                return None
            keys = {n: tuple(rolloff[n]) for n in names}
            if len(set(keys.values())) < len(names):
                return None
            names = sorted(names, key=lambda n: keys[n], reverse=True)
        order += names
    return order


def tied_bidders(bids: dict[str, int], rolloff: dict[str, list[int]]) -> list[str]:
    """Bidders whose order is not settled yet: equal bids and equal roll-offs so far."""
    out = []
    for name, b in bids.items():
        same = [n for n, x in bids.items() if x == b and tuple(rolloff.get(n, ())) == tuple(rolloff.get(name, ()))]
        if len(same) > 1:
            out.append(name)
    return out


def next_narrator(order: Sequence[str], current: str, volunteers: Iterable[str] = ()) -> str:
    """V-55 (L513): walk the initiative list after the current narrator, take the first volunteer;
    with none, the next in line."""
    if current not in order:
        return order[0]
    i = order.index(current)
    walk = [order[(i + k) % len(order)] for k in range(1, len(order))]
    vol = set(volunteers)
    return next((n for n in walk if n in vol), walk[0] if walk else current)


def multiset_eq(a: Iterable[int], b: Iterable[int]) -> bool:
    return Counter(a) == Counter(b)
