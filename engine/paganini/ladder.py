"""Paganini's dice: the rating ladder, High and Low Dice, the base die, difficulty and the success
chart (shared/rules/paganini.md rules 1-5; book @8263, @8485, @8983, @9297, @9536).

Pure arithmetic over faces handed in: nothing here rolls. `P-<n>` is rule n of the digest's
section 2; the book's place is `@offset` in seed 003.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from engine.core.errors import RuleViolation

# P-1 (@8485): each rung's signed dice, HD positive and LD negative
LADDER: dict[int, str] = {4: "Superb", 3: "Great", 2: "Good", 1: "Above Avg.", 0: "Average", -1: "Below Avg.",
                          -2: "Mediocre", -3: "Poor", -4: "Terrible"}
TOP, BOTTOM = 4, -4

# P-4 (@9297): difficulty rungs and their dice
DIFFICULTY: dict[str, int] = {"nearly_impossible": -4, "very_hard": -3, "hard": -2, "above_average": -1,
                              "average": 0, "below_average": 1, "easy": 2, "very_easy": 3, "nearly_automatic": 4}
DIFFICULTY_NAMES: dict[str, str] = {"nearly_impossible": "Nearly Impossible", "very_hard": "Very Hard",
                                    "hard": "Hard", "above_average": "Above Avg.", "average": "Average",
                                    "below_average": "Below Avg.", "easy": "Easy", "very_easy": "Very Easy",
                                    "nearly_automatic": "Nearly Automatic"}

# P-5 (@9536): tier index 0..7, from the roll kept
TIERS: tuple[str, ...] = ("Critical Failure", "Great Failure", "Normal Failure", "Marginal Failure",
                          "Marginal Success", "Normal Success", "Great Success", "Critical Success")
MARGINAL_SUCCESS = 4


def rung_name(v: int) -> str:
    """'Good' for 2; a value off the ladder is refused (P-1)."""
    if v not in LADDER:
        raise RuleViolation("P-1", f"{v} is not a rung of the ladder (Terrible -4 to Superb +4)")
    return LADDER[v]


def rung_of(name: str) -> int:
    """The value of a rung named in words ('Above Avg.', 'above average', 'Good')."""
    key = name.strip().lower().replace("average", "avg.").replace("avg..", "avg.")
    for v, n in LADDER.items():
        if n.lower() == key or n.lower().rstrip(".") == key.rstrip("."):
            return v
    raise RuleViolation("P-1", f"{name!r} is not a rung of the ladder")


def dice_label(n: int) -> str:
    """How the book writes a net pool: '2 HD', '0 D', '3 LD'."""
    return f"{n} HD" if n > 0 else f"{-n} LD" if n < 0 else "0 D"


def pool_size(n: int) -> int:
    """P-2/P-3: the net signed total n plus the base die: |n| + 1 d20 (no cap, @8983)."""
    return abs(n) + 1


def kept_index(faces: Sequence[int], n: int) -> int:
    """Which die is kept: the highest for HD, the lowest for LD, the base die alone at 0 (P-2, @8263)."""
    if len(faces) != pool_size(n):
        raise RuleViolation("P-2", f"a {dice_label(n)} pool rolls {pool_size(n)} d20, not {len(faces)}")
    for f in faces:
        if not isinstance(f, int) or not 1 <= f <= 20:
            raise RuleViolation("P-2", f"a d20 cannot show {f!r}")
    if n > 0:
        return max(range(len(faces)), key=lambda i: (faces[i], -i))
    if n < 0:
        return min(range(len(faces)), key=lambda i: (faces[i], i))
    return 0


def kept(faces: Sequence[int], n: int) -> int:
    return faces[kept_index(faces, n)]


def tier(roll: int) -> int:
    """P-5: the success chart's tier of a kept roll, 0 (1, Critical Failure) .. 7 (20, Critical Success)."""
    if not 1 <= roll <= 20:
        raise RuleViolation("P-5", f"a d20 cannot show {roll}")
    if roll == 20:
        return 7
    if roll == 1:
        return 0
    return (roll + 1) // 3  # 2-4 -> 1, 5-7 -> 2, 8-10 -> 3, 11-13 -> 4, 14-16 -> 5, 17-19 -> 6


def tier_name(t: int) -> str:
    return TIERS[t]


def succeeds(roll: int) -> bool:
    """P-5: 11 or more succeeds (Marginal Success and up)."""
    return tier(roll) >= MARGINAL_SUCCESS


def keep_odds(n: int) -> list[Fraction]:
    """The exact chance of each kept face 1..20 for a net pool n (index 0 is face 1)."""
    k = pool_size(n)
    out = []
    for x in range(1, 21):
        if n >= 0:  # the maximum of k dice (k = 1 at n = 0)
            p = Fraction(x, 20) ** k - Fraction(x - 1, 20) ** k
        else:       # the minimum of k dice
            p = Fraction(21 - x, 20) ** k - Fraction(20 - x, 20) ** k
        out.append(p)
    return out


def tier_odds(n: int) -> list[Fraction]:
    """The exact chance of each tier 0..7 for a net pool n: what `eval` compares rolled tiers with."""
    out = [Fraction(0)] * len(TIERS)
    for face, p in enumerate(keep_odds(n), start=1):
        out[tier(face)] += p
    return out
