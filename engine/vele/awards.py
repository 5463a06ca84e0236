"""XP awards that hang on a table's claim and approval (V-48, V-49, V-AMB-20, V-EX-16), pure.

Why: hitting aspects and buying off objectives are claims the table approves (digest §3); what they
are worth, and when an objective earns nothing, is fixed arithmetic from L551-566.
"""
from __future__ import annotations

from typing import Literal, Sequence

from engine.core.errors import RuleViolation


def hit_aspect_xp(player: str, narrator: str, danger: bool) -> dict[str, int]:
    """V-48, V-AMB-20 (L563-564): hitting an aspect gives 1 XP to the player and 1 to the narrator; with
    danger or extreme difficulty 2 each, in total (not 1 + 2). A narrator hitting their own aspect gets
    the player's share only (no double award)."""
    n = 2 if danger else 1
    return {player: n} if player == narrator else {player: n, narrator: n}


Outcome = Literal["achieved", "failed", "ignored", "lost_without_pcs"]


def objective_bought_off(outcome: Outcome, pcs_involved: bool, approved: bool | None = None) -> bool:
    """V-49, V-EX-16 (L551): achieving an objective buys it off; failing it "may" (by the buy-off approval,
    V-2); ignoring it, or losing it through struggles that involve no PC, never does."""
    if outcome == "achieved":
        return True
    if outcome == "ignored" or outcome == "lost_without_pcs" or not pcs_involved:
        return False
    if approved is None:
        raise RuleViolation("V-49", "a failed objective is bought off only if the table approves")
    return approved


def objective_xp(players: Sequence[str], narrator: str, bought_off: bool) -> dict[str, int]:
    """V-48, V-49 (L551, L565): a bought-off objective is a group aspect: every player gets 10 XP, the
    narrator 3 more; nothing when it is not bought off."""
    if not bought_off:
        return {}
    out = {p: 10 for p in players}
    out[narrator] = out.get(narrator, 0) + 3
    return out
