"""FUBAR's dice: the five-die "Beat the Odds Redux" ladder, the d10 "Buckets of Dice" appendix,
the exact odds and the scale shift. Pure functions of faces handed in (F-1, F-2, F-3, F-18, F-24).
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

BASE_DICE = 5
REDUX_DIE = 6   # the book never names the die; a d6 as in FU (F-AMB-1)
BUCKETS_DIE = 10
BUCKETS_BASE = 3

LADDER = ("No, and", "No", "No, but", "Yes, but", "Yes", "Yes, and")
NO_AND, NO, NO_BUT, YES_BUT, YES, YES_AND = range(6)


def is_yes(index: int) -> bool:
    """A result of 3 or more evens is a success (F-1)."""
    return index >= YES_BUT


def ladder_name(index: int) -> str:
    return LADDER[max(0, min(5, index))]


def pool_size(net: int) -> int:
    """Dice rolled for a net of bonus (+) and penalty (-) dice: 5 + |net| (F-2)."""
    return BASE_DICE + abs(net)


def evens(faces: list[int]) -> int:
    return sum(1 for f in faces if f % 2 == 0)


def redux_result(faces: list[int], net: int) -> int:
    """The ladder index of a Redux roll (F-2): keep the 5 best (net >= 0) or the 5 worst.

    Keeping the 5 best of 5+k dice keeps min(E, 5) evens; keeping the 5 worst discards the
    evens first, so max(0, E - k) remain.
    """
    if len(faces) != pool_size(net):
        raise ValueError(f"a net of {net:+d} dice rolls {pool_size(net)} dice, not {len(faces)}")
    e = evens(faces)
    return min(e, BASE_DICE) if net >= 0 else max(0, e - abs(net))


def kept_dice(faces: list[int], net: int) -> list[int]:
    """The indices of the five dice kept, for showing the roll with the evens marked (F-2)."""
    best_first = sorted(range(len(faces)), key=lambda i: (faces[i] % 2, i))  # evens first
    order = best_first if net >= 0 else list(reversed(best_first))
    return sorted(order[:BASE_DICE])


def success_odds(net: int) -> Fraction:
    """The exact chance of at least a Yes-but with `net` bonus/penalty dice (F-3)."""
    n = pool_size(net)
    need = 3 + (abs(net) if net < 0 else 0)  # E evens needed among n dice
    return sum((Fraction(comb(n, e), 2 ** n) for e in range(need, n + 1)), Fraction(0))


def result_odds(net: int) -> list[Fraction]:
    """The exact chance of each ladder step with `net` dice (F-1..F-3), for the evaluation."""
    n = pool_size(net)
    out = [Fraction(0)] * 6
    for e in range(n + 1):
        idx = min(e, BASE_DICE) if net >= 0 else max(0, e - abs(net))
        out[idx] += Fraction(comb(n, e), 2 ** n)
    return out


def scale_shift(index: int, pc_scale: int, opposition_scale: int) -> int:
    """Each level of scale difference moves the result one step toward the larger party; the
    ends of the ladder stop it (F-18, F-AMB-12)."""
    return max(NO_AND, min(YES_AND, index + (pc_scale - opposition_scale)))


def buckets_result(player: list[int], gm: list[int], extra_and: bool = False) -> tuple[int | None, int]:
    """The appendix's d10 pools (F-24, F-AMB-7): (ladder index or None for an impasse, successes).

    Highest dice are compared pair by pair; a tie discards both. The winner's successes are its
    remaining dice strictly above the loser's highest remaining die; when the loser runs out after
    ties, every remaining winner's die counts. Player wins: 1 Yes-but, 2 Yes, 3+ Yes-and; the GM
    wins: No-but, No, No-and. With `extra_and` each success past 3 is one more "and" (the index
    stays at the ladder's end; the count says how many "and"s).
    """
    a, b = sorted(player, reverse=True), sorted(gm, reverse=True)
    while a and b and a[0] == b[0]:
        a.pop(0)
        b.pop(0)
    if not a and not b:
        return None, 0
    if not b or (a and a[0] > b[0]):
        top = b[0] if b else 0
        wins = sum(1 for f in a if f > top)
        return (YES_BUT + min(wins, 3) - 1), wins if extra_and else min(wins, 3)
    top = a[0] if a else 0
    wins = sum(1 for f in b if f > top)
    return (NO_BUT - min(wins, 3) + 1), wins if extra_and else min(wins, 3)
