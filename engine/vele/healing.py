"""Healing and repair (V-40, L159, L455, L485, L669), pure.

Why its own module: the book's healing rule is spread over the main text and the Heal/Repair ability
of the Additional Rules; the digest follows the revised rule (a Heal/Repair N ability is needed unless
the table turns on `heal_without_ability`), and these functions hold that reading in one place.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from engine.core.errors import RuleViolation
from engine.vele.economy import POINTS


def heal_capacity(heal_size: int | None, trait_size: int, heal_without_ability: bool = False) -> int:
    """V-40 (L669): Heal N heals up to the points of dN traits ("Heal 6 can heal up to 2 traits"). Without
    the ability, a healing trait heals only under the table option, then up to its own points."""
    if heal_size is None:
        if not heal_without_ability:
            raise RuleViolation("V-40", "healing needs a healing or repair trait with the Heal/Repair ability")
        return POINTS[trait_size]
    if heal_size > trait_size:
        raise RuleViolation("V-24", f"Heal {heal_size} is larger than its trait d{trait_size}")
    return POINTS[heal_size]


def heal_plan(wounded: Mapping[str, int], count: int, capacity: int, paid: Sequence[int]) -> list[str]:
    """V-40 (L669): heal `count` traits, smallest first; the cost is the number of traits healed, in dice
    points paid by the healer(s) and/or the patient. `wounded` maps a damaged (X or S) trait to its size.
    Returns the traits that a won healing struggle re-enables."""
    if count < 1:
        raise RuleViolation("V-40", "heal at least one trait")
    if count > capacity:
        raise RuleViolation("V-40", f"this healing can mend up to {capacity} traits")
    if count > len(wounded):
        raise RuleViolation("V-40", f"only {len(wounded)} traits are wounded")
    if sum(POINTS[d] for d in paid) != count:
        raise RuleViolation("V-40", f"healing {count} traits costs {count} dice points, paid by healer or patient")
    return mend_order(wounded, count)


def mend_order(wounded: Mapping[str, int], count: int) -> list[str]:
    """V-40 (L669): "heals smaller traits, first" (ties by name, so a replay mends the same ones)."""
    return sorted(wounded, key=lambda t: (wounded[t], t))[:count]


def heal_opposition(wounded: Mapping[str, int]) -> list[int]:
    """V-40 (L669): healing is opposed by all of the wounded traits together, even those it cannot heal:
    one die per wounded trait, the opposing roll's highest face counts (V-27)."""
    return sorted(wounded.values())


@dataclass(frozen=True)
class HealAttempts:
    """One healing attempt per patient after each conflict or sleep; a later healer on the same damage
    joins the first attempt as an ally instead of making a second one."""

    healers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # patient -> healers of this period

    def attempt(self, patient: str, healer: str) -> tuple["HealAttempts", str]:
        """Returns the new record and 'healer' (a new attempt) or 'ally' (joins the first attempt)."""
        prior = self.healers.get(patient, ())
        if healer in prior:
            raise RuleViolation("V-40", "a healing attempt is made once after each conflict or sleep")
        role = "ally" if prior else "healer"
        return replace(self, healers={**self.healers, patient: (*prior, healer)}), role

    def rest(self) -> "HealAttempts":
        """A conflict ends or the patients sleep: a new attempt is possible."""
        return HealAttempts()
