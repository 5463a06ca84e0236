"""The check an AI seat runs on its own words before it sends them: the table's Facts and the roll.

Why (issue 23, "Stories that hold together"): the loser of a Complication narrated that the
priest survives after the winner narrated his death; an eliminated component acted in a later
scene; a "crooked cop" turned "honest to a fault". Each of those is a statement the seat could
have checked before sending: against the engine's state (eliminated, removed), the roll it is
narrating (it won or it lost), and the established Facts about the components it names (the
offline contradiction judge). `presend_clash` returns why a statement must not be sent, in a
player's words, or None; the seat then says something else or nothing, and its "why" says so.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from agents.memory.contradiction import HeuristicJudge
from agents.memory.records import FactRecord
from engine.universalis.state import GameState

__all__ = ["fact_clash", "outcome_clash", "presend_clash", "related_facts"]

_JUDGE = HeuristicJudge()
_ROLE_FIELDS = ("performer", "receiver", "component", "speaker", "listener", "other")
# A victory told by the side that lost the roll, or a defeat of its own hero told by the winner.
_WIN = re.compile(r"\b(?:wins?|won|prevails?|prevailed|gets the better of|got the better of|beats|beat|defeats?|"
                  r"defeated|triumphs?|overpowers?|outwits?|bests?|comes out on top|has the upper hand)\b", re.I)
_ALIVE = re.compile(r"\b(?:alive|survives?|survived|lives on|still breathing|returns|walks again|wakes|rises)\b", re.I)


def _text(action: BaseModel) -> str:
    return str(getattr(action, "text", None) or getattr(action, "line", None) or "").strip()


def named(s: GameState, action: BaseModel, text: str) -> list[str]:
    """Ids of the components a statement is about: its role fields, then the labels its words name."""
    ids = [str(getattr(action, f)) for f in _ROLE_FIELDS if getattr(action, f, None)]
    low = text.lower()
    for c in s.components.values():
        if c.kind != "location" and c.id not in ids and c.label and \
                re.search(r"(?<!\w)" + re.escape(c.label.lower()) + r"(?!\w)", low):
            ids.append(c.id)
    return [i for i in ids if i in s.components]


def outcome_clash(s: GameState, action: BaseModel, player: str) -> str | None:
    """A narration that tells the roll the other way, or tells an eliminated component alive."""
    text = _text(action)
    if not text:
        return None
    nar = s.narration
    if nar is not None and 0 <= nar.current < len(nar.slots) and nar.slots[nar.current].player == player:
        slot = nar.slots[nar.current]
        comp = s.complication
        if not slot.won and _WIN.search(text) and comp is not None:
            # "X wins" from the losing side: only a clash when the winner named is on the losing side
            ours = {c.id for c in s.components.values() if s.controller(c.id) == player}
            first = named(s, action, text)[:1]
            if not first or first[0] in ours:
                return "it lost the roll, so its narration cannot tell its side winning"
    low = text.lower()
    for c in s.components.values():
        if c.eliminated and c.kind != "location" and c.label.lower() in low and _ALIVE.search(text):
            return f"{c.label} was eliminated: the story cannot have them alive again"
    return None


def related_facts(s: GameState, facts: list[Any], comps: list[str], text: str) -> list[FactRecord]:
    """The Facts a statement could contradict, read from the engine's state (an Observation's Facts
    may be a recalled subset): its components' live plain Traits, the live Tenets, and the latest
    Events about the same components. `facts` (the seat's view) adds any Tenet the state lacks."""
    out: list[FactRecord] = []
    for cid in comps:
        comp = s.components.get(cid)
        if comp is None:
            continue
        out += [FactRecord(t.id, t.text, "trait", "", None, cid, comp.label, None, 0)
                for t in comp.live_traits() if t.kind == "plain" and t.text != text]
    seen = {r.id for r in out}
    for t in s.tenets:
        tid, removed = str(getattr(t, "id", "")), bool(getattr(t, "removed", False))
        if not removed and tid not in seen:
            out.append(FactRecord(tid, t.text, "tenet", "", None, None, None, None, 0))
            seen.add(tid)
    out += [FactRecord(f.id, f.text, "tenet", "", None, None, None, None, 0) for f in facts
            if getattr(f, "kind", "") == "tenet" and f.id not in seen and not getattr(f, "removed", False)]
    out += [FactRecord(f.id, f.text, "event", "", None, None, None, None, 0) for f in s.facts[-12:]
            if f.kind == "event" and not f.removed and f.text != text and set(f.components) & set(comps)]
    return out


def fact_clash(s: GameState, facts: list[Any], action: BaseModel) -> str | None:
    """The first established Fact the statement contradicts, as words, or None."""
    text = _text(action)
    if not text or type(action).__name__ in ("ChallengeStatement", "Obstacle"):
        return None
    comps = named(s, action, text)
    if not comps:
        return None
    for rec in related_facts(s, facts, comps, text):
        verdict = _JUDGE.judge(text, rec)
        if verdict.contradicts:
            return f"it contradicts the Fact “{rec.text}” ({verdict.reason})"
    return None


def presend_clash(s: GameState, facts: list[Any], action: BaseModel, player: str) -> str | None:
    """Why this statement must not be sent (outcome, elimination, or a Fact), or None."""
    return outcome_clash(s, action, player) or fact_clash(s, facts, action)
