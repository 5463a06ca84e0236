"""Always on screen: every seat's wealth and stake, whose decision is pending, the scene, the Tenets."""
from __future__ import annotations

import streamlit as st

from app.ui import safe, store, words
from engine.universalis import pending
from engine.universalis.views import component_view

PENDING_WORDS = words.PENDING_WORDS


def seats(live: store.Live) -> None:
    s = live.table.state
    pend = pending(s)
    cols = st.columns(len(s.players))
    for col, p in zip(cols, s.players):
        seat = live.table.seats.get(p.name)
        who = "person" if seat is None or seat.is_human else f"AI · {seat.persona or 'heuristic'}"
        mark = " · to decide" if p.name in pend.players else ""
        with col.container(border=True):
            st.metric(f"{safe.text(p.name)}{mark}", f"{p.wealth} coins", help=f"{safe.text(p.name)}'s wealth")
            st.caption(f"stake {p.stake} · {safe.text(who)}")


def pending_line(live: store.Live) -> str:
    s = live.table.state
    pend = pending(s)
    what = PENDING_WORDS.get(pend.kind, pend.kind)
    if pend.kind == "roll":
        return f"Waiting for the {what}."
    names = ", ".join(safe.text(p) for p in pend.players)
    note = f" ({safe.text(pend.note)})" if pend.note and pend.kind != "reaction" else ""
    return f"Waiting for {names}: {what}.{note}"


def scene(live: store.Live) -> None:
    s = live.table.state
    sc = s.scene()
    if s.phase == "prep":
        st.markdown("**Preparation**: the players propose Tenets (the rules of this story) and may create "
                    "components before the first scene.")
    if sc is None:
        if s.phase == "bidding" and s.config.addons.open_scene_framing:  # UA-OPEN-1: no bidding
            st.markdown("**Between scenes**: no scene is active; the next framer frames one.")
        elif s.phase == "bidding":
            st.markdown("**Between scenes**: bidding for who frames the next one.")
        return
    loc = s.components[sc.location].label if sc.location else "not set yet"
    mini = "mini " if sc.mini else ""
    st.markdown(f"**{mini.capitalize()}Scene {sc.number}** framed by **{safe.text(sc.framer)}** · "
                f"at **{safe.text(loc)}** · time: {safe.text(sc.time)}")
    shown = ([sc.location] if sc.location else []) + [c for c in sc.present if c != sc.location]
    if not shown:
        st.caption("No components in the scene yet.")
    for cid in shown:
        v = component_view(s, cid)
        ctrl = safe.text(v["controller"] or "nobody")
        traits = "; ".join(("~~" + safe.text(t["text"]) + "~~") if t["removed"] else safe.text(t["text"])
                           for t in v["traits"])
        st.markdown(f"- **{safe.text(v['name'])}** ({safe.text(v['kind'])}) · Importance **{v['importance']}** "
                    f"· controlled by {ctrl}"
                    f"  \n  <small>Traits: {traits or '—'}</small>", unsafe_allow_html=True)


def tenets(live: store.Live) -> None:
    ts = [t for t in live.table.state.tenets if not t.removed]
    st.markdown("**Tenets**")
    if not ts:
        st.caption("No Tenets yet.")
    for t in ts:
        st.markdown(f"- {safe.text(t.text)} <small>({safe.text(t.kind)}, by {safe.text(t.by)})</small>",
                    unsafe_allow_html=True)
    if live.table.premise:
        st.caption(f"Premise: {safe.text(live.table.premise)}")
