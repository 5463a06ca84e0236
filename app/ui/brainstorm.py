"""Brainstorm: AI seats propose Tenets for a premise (or scene frames for the game in play);
the person keeps or drops each, and kept Tenets start a new table."""
from __future__ import annotations

import streamlit as st

from app.errors import public
from app.ui import safe, store


def _proposer():
    try:
        from agents import brainstorm
    except Exception as exc:  # built by another helper; the page says so instead of failing
        st.info(safe.text(public(f"Brainstorming is not available in this installation yet ({exc}).")))
        return None
    return brainstorm


def page(live: store.Live | None, go_setup) -> None:
    st.subheader("Brainstorm")
    bs = _proposer()
    if bs is None:
        return
    tab_tenets, tab_frames = st.tabs(["Tenets for a new game", "Scene frames for this game"])
    with tab_tenets:
        premise = st.text_input("Premise", key="bs:premise", placeholder="e.g. witches in a drowned city")
        c1, c2, c3 = st.columns(3)
        count = int(c1.number_input("How many", 1, 12, 6, key="bs:count"))
        ai = c2.selectbox("AI", ["heuristic", "llm"], key="bs:ai",
                          format_func=lambda k: "offline" if k == "heuristic" else "language model")
        seed = int(c3.number_input("Seed", 0, 10**9, 0, key="bs:seed"))
        if st.button("Propose Tenets", key="do:bs:propose", type="primary"):
            try:
                st.session_state["bs:proposals"] = bs.propose_tenets(premise, count, ai=ai, seed=seed)
            except Exception as exc:
                st.error(safe.text(public(f"No proposals: {exc}")))
        props = st.session_state.get("bs:proposals") or []
        for i, p in enumerate(props):
            with st.container(border=True):
                st.checkbox(f"Keep: {safe.text(p.text)}", value=True, key=f"bs:keep:{i}")
                st.caption(f"{safe.text(p.kind.replace('_', ' '))} · proposed by {safe.text(p.by)} · {safe.text(p.why)}")
        if props:
            kept = [p for i, p in enumerate(props) if st.session_state.get(f"bs:keep:{i}", True)]
            st.caption(f"{len(kept)} kept, {len(props) - len(kept)} dropped")
            if st.button("Start a new table with the kept Tenets", key="do:bs:start", disabled=not kept):
                st.session_state["kept_tenets"] = kept
                st.session_state["setup:premise"] = premise
                go_setup()
    with tab_frames:
        if live is None:
            st.caption("Open a table to brainstorm scene frames for it.")
            return
        if st.button("Propose scene frames", key="do:bs:frames"):
            try:
                st.session_state["bs:frames"] = bs.propose_frames(live.table, 3, seed=len(live.table.records))
            except Exception as exc:
                st.error(safe.text(public(f"No proposals: {exc}")))
        for p in st.session_state.get("bs:frames") or []:
            st.markdown(f"- **{safe.text(p.text)}** <small>({safe.text(p.by)}: {safe.text(p.why)})</small>",
                        unsafe_allow_html=True)
