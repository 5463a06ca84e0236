"""The transcript as it grows, with each AI decision's why: rationale, Facts retrieved, cost."""
from __future__ import annotations

import streamlit as st

from app.ui import safe, store
from engine.universalis.facts import facts_seen_by

SHOWN = 150


def why(meta: dict, cost: int, fact_text: dict[str, str]) -> str:
    """One line saying how an AI decision was made (Markdown; everything the model wrote escaped)."""
    parts = [safe.text(meta.get("decided_by", "ai"))]
    if meta.get("rationale"):
        parts.append(f"why: {safe.text(meta['rationale'])}")
    facts = meta.get("facts") or []
    if facts:
        parts.append("Facts: " + "; ".join(safe.text(fact_text.get(str(f), str(f))) for f in facts[:5]))
    parts.append(f"cost {cost}")
    if meta.get("fallback"):
        parts.append(f"fell back: {safe.text(meta['fallback'])}")
    if meta.get("latency_s"):
        parts.append(f"{safe.text(meta['latency_s'])} s")
    return " · ".join(parts)


SEALED = frozenset({"bid", "fact_vote", "fine_vote", "answer_resolution"})
"""Answers given in secret (U-BID-1 sealed bids, U-FACT-2 and U-FINE-1 votes, the call to roll; V-57 bids):
their why states the amount or the vote ("bids 3 of 27")."""


def private_why(table, action: dict, decided_by: str, mine: list[str]) -> bool:
    """Would an AI decision's why tell a browser holding `mine` what it may not see? A sealed answer's (it
    states the bid or the vote), another player's Enigma buy (its why may name the secret Trait,
    UA-ENIGMA-1), a model's decision for a player holding an unrevealed Enigma Trait (the model reads its own
    secret and may name it in any later why), and at a Cards instead of Dice table a model's decision for a
    seat not held here: the model reads its own hand and may name its cards (UA-CDICE-1)."""
    player = action.get("player")
    if player in mine:
        return False
    if action.get("type") in SEALED:
        return True
    if action.get("type") == "add_trait" and action.get("enigma"):
        return True
    if decided_by != "llm":
        return False
    s = table.state
    keeps_secret = any(t.secret and t.by == player for c in s.components.values() for t in c.traits)
    return keeps_secret or s.config.addons.currency == "cards_hand"


def transcript(live: store.Live, height: int = 420, mine: list[str] | None = None) -> None:
    """`mine`: the seats this browser holds; others' secret Enigma Traits stay hidden, even in an AI's why."""
    t = live.table
    meta_by_seq = {r.seq: ({"decided_by": r.meta.get("decided_by")}
                           if private_why(t, r.action, str(r.meta.get("decided_by")), mine or []) else r.meta)
                   for r in t.records}
    fact_text = {f.id: f.text for f in facts_seen_by(t.state, mine or [])}
    events = t.transcript()
    st.markdown(f"**Transcript** <small>({len(events)} entries, newest first)</small>", unsafe_allow_html=True)
    box = st.container(height=height)
    cost_by_seq: dict[int, int] = {}
    for e in t.events:
        cost_by_seq[e.seq] = cost_by_seq.get(e.seq, 0) + e.cost
    groups: list[list[str]] = []
    last_seq = None
    for e in events[-SHOWN:]:
        who = f"**{safe.text(e.player)}**: " if e.player else ""
        price = f" <small>[{e.cost}]</small>" if e.cost else ""
        lines = [f"{who}{safe.text(e.text)}{price}"]
        meta = meta_by_seq.get(e.seq, {})
        if meta.get("decided_by") not in (None, "human", "dice", "dice (typed)") and e.seq != last_seq:
            lines.append("↳ " + why(meta, cost_by_seq.get(e.seq, 0), fact_text))
        last_seq = e.seq
        groups.append(lines)
    for lines in reversed(groups):
        box.markdown(lines[0], unsafe_allow_html=True)
        if len(lines) > 1:
            box.caption(lines[1])
    if len(events) > SHOWN:
        box.caption(f"… {len(events) - SHOWN} earlier entries (export the transcript to read them all)")
