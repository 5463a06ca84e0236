"""The Facts browser: every Fact bought, searchable (through the game memory when it is there)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from app.errors import public
from app.ui import safe, store
from engine.universalis.facts import facts_seen_by


def _memory_search(live: store.Live, query: str, k: int) -> list | None:
    mem = getattr(live.table, "memory", None)
    if mem is None or not hasattr(mem, "recall"):
        return None
    try:
        return list(mem.recall(query, k=k, include_removed=True))
    except Exception as exc:  # the memory failing must not hide the Facts
        st.caption(safe.text(public(f"The memory search failed ({exc}); showing plain text matches.")))
        return None


def browser(live: store.Live, mine: list[str] | None = None) -> None:
    """`mine`: the seats this browser holds; another player's secret Enigma Trait shows as secret."""
    s = live.table.state
    facts = facts_seen_by(s, mine or [])
    st.subheader("Facts")
    c1, c2, c3 = st.columns([3, 1, 1])
    query = c1.text_input("Search the Facts", key="facts:q", placeholder="e.g. the dockmaster's debt")
    kinds = sorted({f.kind for f in facts})
    kind = c2.selectbox("Kind", ["all"] + kinds, key="facts:kind")
    removed = c3.checkbox("Show removed", key="facts:removed")
    shown = [f for f in facts if (removed or not f.removed) and (kind == "all" or f.kind == kind)]
    if query.strip():
        hits = _memory_search(live, query.strip(), 20)
        if hits is not None:
            st.caption("Ranked by meaning (the game's Fact memory).")
            by_id = {f.id: f for f in facts}
            ids = [getattr(getattr(h, "record", h), "id", None) for h in hits]
            ranked = [by_id[i] for i in ids if i in by_id]
            shown = [f for f in ranked if f in shown] or shown
        else:
            words = query.lower().split()
            shown = [f for f in shown if all(w in f"{f.text} {f.component_name or ''} {f.by}".lower() for w in words)]
            if getattr(live.table, "memory", None) is None:
                st.caption("Plain text search (the Fact memory is not attached to this table).")
    st.caption(f"{len(shown)} of {len(facts)} Facts")
    # one type per column (the scene is a number or empty, never a number or ''): Arrow refuses mixed
    # columns and logs a type error for every rerun
    rows = pd.DataFrame({"kind": [safe.plain(f.kind) for f in shown], "fact": [safe.plain(f.text) for f in shown],
                         "component": [safe.plain(f.component_name or "") for f in shown],
                         "by": [safe.plain(f.by) for f in shown],
                         "scene": pd.array([f.scene for f in shown], dtype="Int64"),
                         "removed": [bool(f.removed) for f in shown]})
    if len(rows):
        st.dataframe(rows, width="stretch", hide_index=True)
