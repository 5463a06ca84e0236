"""FUBAR's panels: character sheets (Concept, Descriptors, Goal, Resolve, Conditions, gear), the
scene's Details, and the conflict (question, stakes, dice with the evens marked, the ladder's answer)."""
from __future__ import annotations

from typing import Any

import streamlit as st

from app.ui.games.generic import items, t


def _conditions(conds: list[dict[str, Any]] | None) -> str:
    return ", ".join(f"{t(c.get('name'))} ({t(c.get('tier', ''))})" for c in (conds or [])) or "none"


def sheets(view: dict[str, Any], events: list[Any] = ()) -> None:
    sc = view.get("scenario") or {}
    if sc:
        st.markdown(f"**Scenario {t(sc.get('number', ''))}: {t(sc.get('title', ''))}**")
        st.caption(t(sc.get("situation", "")))
    for c in view.get("characters") or []:
        with st.container(border=True):
            out = " (out of the story)" if c.get("out") else ""
            st.markdown(f"**{t(c.get('name'))}** · {t(c.get('seat'))}{out} · Resolve "
                        f"**{int(c.get('resolve', 0))}**/{int(c.get('cap', 0))}")
            st.markdown(f"Concept: {t(c.get('concept'))} ({items(c.get('concept_abilities'))})  \n"
                        f"Trademarks: {items(c.get('trademarks'))}  \n"
                        f"Flaws: {items(c.get('flaws'))}  \n"
                        f"Relationships: " + (", ".join(("+" if r.get("positive") else "−") + t(r.get("target"))
                                                        for r in c.get("relationships") or []) or "—") + "  \n"
                        f"Goal: {items(c.get('goals'))}  \n"
                        f"Conditions: {_conditions(c.get('conditions'))}  \n"
                        f"Gear: {items([a.get('name') if isinstance(a, dict) else a for a in c.get('assets') or []])}")
    opp = view.get("opposition") or []
    if opp:
        st.markdown("**Opposition**: " + "; ".join(
            f"{t(o.get('name'))}" + (" (defeated)" if o.get("defeated") else "")
            + (f", Resolve {int(o['resolve'])}" if isinstance(o.get("resolve"), int) else "")
            + (f" [{_conditions(o.get('conditions'))}]" if o.get("conditions") else "") for o in opp))
    details = view.get("details") or []
    if details:
        st.markdown("**Details**")
        st.markdown("\n".join(f"- {t(d.get('text'))} ({t(d.get('by'))})" for d in details[-8:]))


def conflict(view: dict[str, Any], events: list[Any] = ()) -> None:
    c = view.get("conflict")
    answers = view.get("answers") or []
    if not c:
        if answers:
            last = answers[-1]
            st.caption(f"Last answer: {t(last.get('question'))} → **{t(last.get('answer'))}**")
        return
    with st.container(border=True):
        st.markdown(f"**Conflict**: {t(c.get('question'))}")
        st.caption(f"{t(c.get('intent'))} · stage: {t(c.get('stage'))}")
        stakes = c.get("stakes") or {}
        if stakes:
            st.markdown(f"Stakes: character side **{t(stakes.get('pc_side'))}**, opposition "
                        f"**{t(stakes.get('opposition_side'))}**")
        mods = c.get("dice") or []
        if mods:
            st.markdown("Dice: " + ", ".join(f"{t(m.get('name'))} {int(m.get('dice', 0)):+d}" for m in mods))
        for r in c.get("rolls") or []:
            faces = r.get("faces") or []
            evens = r.get("evens") or [f % 2 == 0 for f in faces]
            shown = " ".join(f"**[{int(f)}]**" if ev else str(int(f)) for f, ev in zip(faces, evens))
            res = f" → **{t(r.get('result'))}**" if r.get("result") else ""
            st.markdown(f"{t(r.get('key'))}: {shown} ({sum(1 for e in evens if e)} even; evens in brackets){res}")
