"""The Complication add-ons of the Universalis book (seed L2308-2440, core optional rule L1040).

Pure arithmetic for the variants: which faces succeed (d10, d6, cards), what each Pool earns,
how several Target Pools are matched against the Complication side (multi-target methods),
how an Extended Complication splits its Pools, how an own-pool-per-participant table declares
sides, and the Dice Only Added conversion. The engine hooks (engine/universalis/complications.py)
and tests call these, so one function holds each rule. Rule IDs are `UA-<short>-N`; every
refusal names the add-on that refused (see `AddonRefusal`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Literal, Mapping, Sequence, TypeVar

from engine.core.errors import RuleViolation
from engine.core.seats import seats_left_of

DieKind = Literal["d10", "d6", "cards"]
K = TypeVar("K", bound=Hashable)
MultiTargetMode = Literal["standard", "independent", "split", "individual", "all_or_none", "best_efforts"]

# cards are read as faces: Ace = 1 ... 10 = 10, Jack = 11, Queen = 12, King = 13 (§2.5a)
JACK, QUEEN, KING = 11, 12, 13
FACE_CARDS = (JACK, QUEEN, KING)
SIDES: dict[str, int] = {"d10": 10, "d6": 6, "cards": 13}
MULTI_TARGET_METHOD_COST = 1  # a Rules Gimmick (@23964, L2326)
EXTEND_COST = 1  # reading (§2.3): the book names no price; a Rules Gimmick's 1 Coin


def refuse(rule: str, addon: str, why: str) -> RuleViolation:
    """A refusal that says which add-on refused, in a player's words."""
    return RuleViolation(rule, f"the {addon} add-on: {why}")


# --- faces (UA-SIX-*, UA-CARDS-*) ------------------------------------------------------------------
def die_sides(die: DieKind) -> int:
    return SIDES[die]


def read_face(face: int, die: DieKind) -> int:
    """A typed or rolled face checked for the die in use (UA-SIX-3): a d10's 0 is 10, a d6 has no 0 or 7."""
    sides = SIDES[die]
    if die in ("d10", "cards") and face == 0:  # a 10 typed as on a d10
        return 10
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
        what = {"d10": "a d10", "d6": "a d6", "cards": "a card (Ace=1 ... King=13)"}[die]
        raise refuse("UA-SIX-3" if die == "d6" else "UA-CARDS-5" if die == "cards" else "U-COMP-7",
                     {"d6": "d6 pools", "cards": "cards", "d10": "dice"}[die], f"{what} cannot show {face!r}")
    return face


def is_success(face: int, die: DieKind = "d10") -> bool:
    """U-COMP-7 for d10 and cards (1-5, Ace = 1; face cards never); UA-SIX-1: odd faces on a d6 (L2408)."""
    if die == "d6":
        return face % 2 == 1
    return 1 <= face <= 5


@dataclass(frozen=True)
class PoolScore:
    """One Pool's roll read under the add-ons: Successes that decide the winner, and their sum."""

    successes: int  # counts toward who wins (a King's extra success included)
    success_sum: int  # sum of the success faces (for Edge dice and coins)
    queens: int = 0  # free coins, never successes (face-card gimmick)
    kings: int = 0


def score(faces: Sequence[int], die: DieKind = "d10", face_cards: bool = False) -> PoolScore:
    """Successes of one Pool. With cards and the face-card gimmick (§2.5a variant, L2052):
    each Jack cancels a Success, each King counts as an extra Success for deciding the winner
    only, each Queen is a free coin but no Success (UA-CARDS-4)."""
    succ = [f for f in faces if is_success(f, die)]
    n, total = len(succ), sum(succ)
    if die != "cards" or not face_cards:
        return PoolScore(n, total)
    jacks = sum(1 for f in faces if f == JACK)
    kings = sum(1 for f in faces if f == KING)
    queens = sum(1 for f in faces if f == QUEEN)
    return PoolScore(max(0, n - jacks) + kings, total, queens, kings)


def pool_coins(faces: Sequence[int], normal: int, won: bool, die: DieKind = "d10",
               face_cards: bool = False) -> int:
    """U-COMP-9 under the add-ons: a winner earns the sum of its Success faces plus each failed
    Edge face; a loser 1 per die rolled plus each Edge face. On a d6 a failed Edge die (2, 4, 6)
    adds its face (UA-SIX-2, derived). With the face-card gimmick a King earns nothing, a Queen
    gives 1 free coin and no die-coin, and Jacks only cancel (UA-CARDS-4)."""
    edge = list(faces[normal:])
    if not (die == "cards" and face_cards):
        if won:
            return sum(f for f in faces if is_success(f, die)) + sum(f for f in edge if not is_success(f, die))
        return len(faces) + sum(edge)
    plain = [f for f in faces if f not in FACE_CARDS]
    plain_edge = [f for f in edge if f not in FACE_CARDS]
    queens = sum(1 for f in faces if f == QUEEN)
    if won:
        return sum(f for f in plain if is_success(f, die)) + sum(f for f in plain_edge if not is_success(f, die)) + queens
    return len(plain) + sum(plain_edge) + queens


# --- multiple Targets (UA-MT-*) ---------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """How one Target Pool fares: won, lost or tied (a tie is settled by the core Edge die, U-COMP-8)."""

    pool: str
    result: Literal["won", "lost", "tie"]
    against: int  # the Complication Successes it was compared with
    compared: tuple[str, ...] = ()  # the Target Pools whose Successes were compared (the Edge die goes to one)
    successes: int = 0  # their Successes


def compared_pools(mode: MultiTargetMode, t_successes: Mapping[str, int],
                   rank: Mapping[str, int] | None = None) -> list[str]:
    """The Target Pools whose Successes meet the Complication side (§2.1): all of them (Standard, the
    core rule), or only the worst (All or None, UA-MT-6, L2372) or the best (Best Efforts, UA-MT-7,
    L2380); among equal ones, the lowest `rank` (the engine passes nearness to the Originator's left)."""
    keys = list(t_successes)
    if mode not in ("all_or_none", "best_efforts") or len(keys) < 2:
        return keys
    sign = 1 if mode == "all_or_none" else -1
    order = rank or {}
    return [min(keys, key=lambda k: (sign * t_successes[k], order.get(k, 0)))]


def verdicts(mode: MultiTargetMode, c_successes: int, t_successes: Mapping[str, int],
             allocation: Mapping[str, int] | None = None, rank: Mapping[str, int] | None = None) -> list[Verdict]:
    """The result of every Target Pool under a multi-target method (§2.1, L2328-2384); the roll
    (complications.py) and Split Allocation (addon_split.py) judge every match through it.

    standard (UA-MT-2): all Target Pools sum against the Complication side; all share it.
    all_or_none (UA-MT-6): only the worst Target Pool is compared; all share its result.
    best_efforts (UA-MT-7): only the best Target Pool is compared; all share its result
    (`rank` breaks equal Successes: see `compared_pools`).
    independent / individual (UA-MT-3, UA-MT-5): each Target Pool against its own roll of the
    Complication side; pass `allocation` = that roll's Successes per Target Pool.
    split (UA-MT-4): the Originator's `allocation` of the Complication's Successes per Target Pool;
    each Pool wins if its Successes are more than assigned, loses if fewer, ties if equal.
    """
    keys = list(t_successes)
    if not keys:
        raise refuse("UA-MT-1", "Multiple Targets", "there is no Target Pool to resolve")
    if mode in ("standard", "all_or_none", "best_efforts"):
        compared = compared_pools(mode, t_successes, rank)
        total = sum(t_successes[k] for k in compared)
        res = "won" if total > c_successes else "lost" if total < c_successes else "tie"
        return [Verdict(k, res, c_successes, tuple(compared), total) for k in keys]  # type: ignore[arg-type]
    rule = {"split": "UA-MT-4", "individual": "UA-MT-5"}.get(mode, "UA-MT-3")
    if allocation is None:
        raise refuse(rule, "Multiple Targets",
                     f"the {mode.replace('_', ' ')} method needs the Complication's Successes against each Target Pool")
    missing = [k for k in keys if k not in allocation]
    if missing:
        raise refuse(rule, "Multiple Targets",
                     f"no Complication Successes were set against {missing[0]}'s Pool")
    if mode == "split":
        check_allocation(c_successes, allocation)
    out = []
    for k in keys:
        a, t = allocation[k], t_successes[k]
        out.append(Verdict(k, "won" if t > a else "lost" if t < a else "tie", a, (k,), t))
    return out


def check_allocation(c_successes: int, allocation: Mapping[str, int]) -> None:
    """UA-MT-4: the Originator assigns the Successes he rolled, no more, none negative (L2352)."""
    if any(v < 0 for v in allocation.values()):
        raise refuse("UA-MT-4", "Split Allocation", "a Target Pool cannot be assigned fewer than 0 Successes")
    if sum(allocation.values()) > c_successes:
        raise refuse("UA-MT-4", "Split Allocation", f"{sum(allocation.values())} Successes were assigned but the "
                                                   f"Complication side rolled only {c_successes}")


def split_c_coins(assigned_faces: Mapping[str, Sequence[int]], verdict: Mapping[str, str], die: DieKind = "d10",
                  normal: Mapping[str, int] | None = None) -> int:
    """UA-MT-4 (suggested, the book is silent): the allocating Pool earns, match by match by U-COMP-9, the sum
    of the dice it assigned against each Pool it beat, and 1 per assigned die against each Pool that beat it;
    a rerolled match's faces after its `normal` dice are Edge dice (a failed one adds its face). Split
    Allocation's narration (addon_split.narrate) pays through it."""
    total = 0
    for k, faces in assigned_faces.items():
        if verdict[k] in ("won", "lost"):
            total += pool_coins(faces, len(faces) if normal is None else normal[k], verdict[k] == "lost", die)
    return total


def resolution_order(pool_dice: Mapping[str, int], owners: Mapping[str, str], seats: Sequence[str],
                     originator: str) -> list[str]:
    """UA-MT-3 / UA-MT-5: if the players disagree on the order, the Pool with the most dice first,
    then the one closest to the Originator's left (L2342)."""
    order = seats_left_of(list(seats), originator)
    return sorted(pool_dice, key=lambda k: (-pool_dice[k], order.index(owners[k])))


def narration_order(coins: Mapping[K, int], won: Mapping[K, bool], owners: Mapping[K, str],
                    seats: Sequence[str], originator: str) -> list[K]:
    """UA-MT-2 (L2332), U-COMP-11: winning Pools by coins (most first), then losing Pools by coins;
    equal coins clockwise from the Originator. Keys are whatever names a narration (the engine: its
    slot numbers, since a Split Allocation's Complication Pool can narrate twice)."""
    order = seats_left_of(list(seats), originator)
    return sorted(coins, key=lambda k: (not won[k], -coins[k], order.index(owners[k])))


def edge_pool(successes: Mapping[str, int], owners: Mapping[str, str], seats: Sequence[str], originator: str,
              ahead: str | None = None) -> str:
    """UA-MT-2 tie (U-COMP-8): the Edge die of a side goes to its Pool with the most Successes, then
    the one closest to the Originator's left; `ahead` (the Complication Pool, on its own side) comes
    before every seat."""
    order = seats_left_of(list(seats), originator)
    return min(successes, key=lambda k: (-successes[k], -1 if k == ahead else order.index(owners[k])))


# --- Extended Complications (UA-EXT-*) ------------------------------------------------------------
def split_evenly(dice: int, parts: int) -> list[int]:
    """UA-EXT-2: a side's dice divided as evenly as possible into `parts` sub-pools, smallest first (L2418)."""
    if parts < 2:
        raise refuse("UA-EXT-2", "Extended Complications", "an Extended Complication has at least 2 stages")
    if parts > dice:
        raise refuse("UA-EXT-2", "Extended Complications",
                     f"{dice} dice cannot be divided into {parts} sub-pools of at least one die")
    base, extra = divmod(dice, parts)
    return [base] * (parts - extra) + [base + 1] * extra


def extended_stages(c_dice: int, t_dice: int, parts: int) -> list[tuple[int, int]]:
    """UA-EXT-3: stages rolled smallest sub-pools first on both sides, paired in ascending size
    (the pairing of the rest is inferred, §2.3): 7 against 10 in 3 gives 2v3, 2v3, 3v4."""
    return list(zip(split_evenly(c_dice, parts), split_evenly(t_dice, parts)))


# --- Dice Only Added (UA-ADD-*) ---------------------------------------------------------------------
def only_added(pool: str, delta: int, opposing: str) -> tuple[str, int]:
    """UA-ADD-1 (L2312): a die that would be subtracted from a Pool is added to the opposing Pool."""
    if delta >= 0:
        return pool, delta
    return opposing, -delta
