"""Reaction windows a person is not asked about: the per-seat setting and what "concerns me" means.

Why: after every paid statement every other player may react, so a person at a table of AIs
would click "Pass (let it stand)" hundreds of times a scene. A seat's setting says when to ask:
only when the statement concerns the person (default), always, or never. When the table does
not ask, it answers Pass for the person and records it as the person's decision with the
rationale AUTO_RATIONALE, so the log says what happened and undo can skip over it.
No Streamlit here: the store runs the auto-passes under the table's lock.
"""
from __future__ import annotations

from typing import Any

from agents.base import Decision
from agents.table import StepResult, Table
from engine.universalis import actions as A
from engine.universalis import pending
from engine.universalis.facts import all_facts
from engine.universalis.state import GameState

MODES = {
    "concerns": "ask me only when it concerns me",
    "always": "always ask",
    "never": "never ask (let everything stand)",
}
DEFAULT = "concerns"
AUTO_RATIONALE = "auto-pass (setting)"
# answers and sub-decisions that happen inside one reaction window (they follow its statement in the log)
WINDOW_ACTIONS = {"pass", "challenge", "call_fine", "take_over", "interrupt", "obstacle", "fine_vote", "fact_vote",
                  "concede_challenge", "contest_challenge", "dispute_fact", "challenge_bid", "challenge_pass",
                  "withdraw_challenge", "invoke_judgment", "judge_ruling", "overrule_vote"}


def is_auto(meta: dict[str, Any]) -> bool:
    """Was this logged decision a Pass the table made for a person because of the setting?"""
    return meta.get("decided_by") == "human" and meta.get("rationale") == AUTO_RATIONALE


def concern(table: Table, name: str) -> str:
    """Why the pending decision concerns `name` ('' if it does not). Anything but a reaction
    window always concerns the person asked (a Challenge to answer, a Fine to vote on...)."""
    s = table.state
    if pending(s).kind != "reaction" or s.window is None:
        return "it is not a reaction window"
    st = s.window.statement
    why = _touches(s, name, st.components)
    if why:
        return why
    accused = _accused_in_window(table, name)
    if accused:
        return accused
    return _contradicts(s, name, st.text, st.fact_id, table.game_id)


def _touches(s: GameState, name: str, components: list[str]) -> str:
    sc = s.scene()
    control = sc.control if sc is not None else {}
    for cid in components:
        comp = s.components.get(cid)
        if comp is None:
            continue
        if control.get(cid) == name:
            return f"it touches {comp.label}, which you control in this scene"
        if comp.created_by == name:
            return f"it touches {comp.label}, which you created"
    return ""


def _accused_in_window(table: Table, name: str) -> str:
    """A Fine called against `name` since the statement (the window then asks everyone again)."""
    for rec in reversed(table.records[-200:]):
        act = rec.action
        if act.get("type") not in WINDOW_ACTIONS:
            break
        if act.get("type") == "call_fine" and act.get("accused") == name:
            return f"{act.get('player')} called for a Fine against you in this window"
    return ""


def _contradicts(s: GameState, name: str, text: str, fact_id: str | None, game_id: str) -> str:
    """The offline judge over the Facts this seat paid for (all of them: a retriever could miss one)."""
    own = [f for f in all_facts(s) if f.by == name and not f.removed and f.id != fact_id]
    if not own or not text.strip():
        return ""
    try:
        from agents.memory.contradiction import HeuristicJudge
        from agents.memory.records import FactRecord
    except Exception:  # without the memory package nothing is judged: the setting then asks on touch only
        return ""
    judge = HeuristicJudge()
    for f in own:
        verdict = judge.judge(text, FactRecord.from_view(f, game_id))
        if verdict.contradicts:
            return f"it may contradict your {f.kind} “{f.text}” ({verdict.reason})"
    return ""


def wants_asking(table: Table, name: str, mode: str) -> bool:
    """In the reaction window pending now, does `name`'s setting say to ask him?"""
    if mode == "always":
        return True
    if mode == "never":
        return False
    return bool(concern(table, name))


def due(table: Table, modes: dict[str, str]) -> list[str]:
    """People waited for in a reaction window whom their setting says not to ask."""
    pend = pending(table.state)
    if pend.kind != "reaction":
        return []
    out = []
    for name in pend.players:
        seat = table.seats.get(name)
        if seat is not None and seat.is_human and not wants_asking(table, name, modes.get(name, DEFAULT)):
            out.append(name)
    return out


def auto_pass(table: Table, modes: dict[str, str]) -> list[StepResult]:
    """Answer Pass for each person the setting does not ask; one StepResult per Pass."""
    out = []
    for name in due(table, modes):
        if pending(table.state).kind != "reaction" or name not in pending(table.state).players:
            break  # the window closed under us (the last answer resolved it)
        action = A.Pass(player=name)
        events = table.submit(action, {"decided_by": "human", "rationale": AUTO_RATIONALE})
        out.append(StepResult(True, events=events, player=name,
                              decision=Decision(action=action, kind="human", rationale=AUTO_RATIONALE)))
    return out
