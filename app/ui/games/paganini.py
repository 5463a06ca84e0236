"""Paganini's panels: sheets (attributes, skills, wound track), the check (pool as HD/LD, the dice
with the kept one marked, the tier) and the combat order."""
from __future__ import annotations

from typing import Any

import streamlit as st

from app.ui.games.generic import dice_faces, t

TRACK = 25  # boxes on the damage track


def _track(wounds: int) -> str:
    w = max(0, min(TRACK, int(wounds)))
    return "■" * w + "□" * (TRACK - w)


def sheets(view: dict[str, Any], events: list[Any] = ()) -> None:
    adv = view.get("adventure") or {}
    if adv:
        st.markdown(f"**{t(adv.get('title'))}** · week {int(view.get('week') or 1)}")
        st.caption(t(adv.get("situation", "")))
    for c in view.get("characters") or []:
        with st.container(border=True):
            state = "" if c.get("conscious", True) else " · unconscious"
            state += " · dead" if c.get("dead") else ""
            who = "NPC" if c.get("npc") else t(c.get("seat"))
            st.markdown(f"**{t(c.get('name'))}** ({who}) · {t(c.get('concept'))}{state}")
            st.markdown(f"Wounds {int(c.get('wounds', 0))}/{TRACK} · {t(c.get('wound_level'))} "
                        f"({int(c.get('wound_penalty', 0)):+d})  \n`{_track(c.get('wounds', 0))}`")
            attrs = c.get("attributes") or {}
            if attrs:
                st.markdown("Attributes: " + ", ".join(f"{t(k)} {t(v.get('rung'))} ({int(v.get('level', 0)):+d})"
                                                       for k, v in attrs.items()))
            skills = c.get("skills") or {}
            if skills:
                st.markdown("Skills: " + ", ".join(f"{t(k)} {t(v.get('rung'))} ({int(v.get('level', 0)):+d}, "
                                                   f"{t(v.get('kind'))})" for k, v in skills.items()))
            weapons = c.get("weapons") or []
            if weapons:
                st.caption("Weapons: " + ", ".join(t(w.get("name")) for w in weapons)
                           + (f" · Armour: {t((c.get('armour') or {}).get('name'))}" if c.get("armour") else ""))


def check(view: dict[str, Any], events: list[Any] = ()) -> None:
    ch = view.get("check")
    if ch:
        with st.container(border=True):
            st.markdown(f"**Check**: {t(ch.get('intent'))}")
            st.caption(f"{t(ch.get('attribute'))}" + (f" + {t(ch.get('skill'))}" if ch.get("skill") else "")
                       + f" · difficulty {t(ch.get('difficulty'))} · stage {t(ch.get('stage'))}")
            for p in ch.get("pools") or []:
                faces = p.get("faces") or []
                kept = p.get("kept_index")
                marked = {int(kept)} if isinstance(kept, int) else set()
                st.markdown(f"{t(p.get('label'))}: pool **{t(p.get('dice'))}** · "
                            f"{dice_faces(faces, marked)} (kept in brackets)"
                            + (f" → **{t(p.get('tier'))}**" if p.get("tier") else ""))
            if ch.get("outcome"):
                st.markdown(f"Outcome: **{t(ch.get('outcome'))}**")
    combat = view.get("combat")
    if combat:
        names = {c.get("id"): c.get("name") for c in view.get("characters") or []}
        slots = combat.get("order") or []
        shown = [" & ".join(t(names.get(x, x)) for x in slot) for slot in slots]
        here = combat.get("slot")
        if isinstance(here, int) and 0 <= here < len(shown):
            shown[here] = f"**{shown[here]}**"
        with st.container(border=True):
            st.markdown(f"**Combat**, round {t(combat.get('round', ''))} · stage {t(combat.get('stage'))}  \n"
                        "Order: " + (" → ".join(shown) or "initiative not rolled yet"))
            at = combat.get("attack")
            if at:
                st.caption(f"{t(names.get(at.get('attacker'), at.get('attacker')))} attacks "
                           f"{t(names.get(at.get('target'), at.get('target')))} with {t(at.get('weapon'))}"
                           + (f" · hit, {int(at['boxes'])} boxes" if at.get("hit") and isinstance(at.get("boxes"), int) else ""))
