"""Advancement points and the skill cost table (P-11, P-12; book @12775-@15680).

AP are kept as lots that remember where they came from, because an adventure's points may only
go to skills used or trained in that adventure (@12842) and a time-consuming adventure's
designated point only to the skill the GM named (@14378, reading P-AMB-15).
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict

from engine.core.errors import RuleViolation
from engine.paganini.ladder import BOTTOM, TOP, rung_name

LotSource = Literal["adventure_day", "heavy_day", "week", "intensive"]
WEEKLY_AP = 2      # @13235
INTENSIVE_AP = 5   # @13542, replacing the weekly 2 (P-AMB-11)


class Lot(BaseModel):
    """AP from one grant: how many are left, where they came from, what they may buy."""

    model_config = ConfigDict(extra="forbid")
    id: int
    amount: int
    source: LotSource
    adventure: Optional[str] = None
    designated: Optional[str] = None   # the GM-designated skill of a time-consuming adventure's point
    day: int = 0


def step_cost(level: int) -> int:
    """P-12 (@14948): raising a skill one rung from `level` costs 2, 4, 8 ... 256: 2^(level + 5)."""
    if not BOTTOM <= level < TOP:
        raise RuleViolation("P-12", f"a skill at {rung_name(level) if BOTTOM <= level <= TOP else level} "
                                    "cannot be raised further: Superb is the top of the ladder")
    return 2 ** (level + 5)


def raise_cost(level: int, kind: str, teacher: bool) -> int:
    """P-12: a Special skill costs double without a teacher present (@15680)."""
    return step_cost(level) * (2 if kind == "special" and not teacher else 1)


def cost_between(start: int, end: int, kind: str = "general", teacher: bool = True) -> int:
    return sum(raise_cost(v, kind, teacher) for v in range(start, end))


def may_buy(lot: Lot, skill: str, used: set[str]) -> str | None:
    """Why `lot` cannot go to `skill` (None when it can). `used` is what the character used or
    trained in the lot's adventure (@12842)."""
    if lot.designated is not None:
        return None if lot.designated == skill else \
            f"this point is designated by the GM for {lot.designated} (@14378)"
    if lot.source in ("adventure_day", "heavy_day") and skill not in used:
        return (f"adventure points go only to skills used or trained during that adventure (@12842); "
                f"{skill} was not")
    return None
