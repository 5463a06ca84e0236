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


def d4_alone(sizes: Sequence[int], average: bool, allies: bool) -> bool:
    """V-19 (L627, "Experience for Below-average performance"): "if you have a d4 trait that applies to a
    struggle, you may take 1 XP if you use it by itself in the struggle (no borrowed d6, either)": the side
    pushed one die on one d4 trait, with no average d6 and no ally's traits. Power dice are not traits and do not
    count (this table's reading of "by itself"; the book names only the borrowed d6). The XP is taken win or lose."""
    return list(sizes) == [4] and not average and not allies


def non_attack_win(goal: str, winner_kind: str, hidden: bool) -> bool:
    """V-48 (L562): "Succeed in a struggle that is not an attack with a story component: 1 XP". The winner
    succeeded, whichever side it sat on: a story component that holds off a PC's maneuver, or wins a head-to-head
    race, succeeded in that struggle as much as one that acts. An attack or control attack is an attack (its
    XP is per trait disabled, L561). A hidden roll's winner is never told, so it earns nothing (V-31, L690)."""
    return winner_kind != "pc" and goal not in ("attack", "control") and not hidden


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
