"""Death of the Vele's panels: sheets with their dice, the bowl, the narrator's story dice, the
struggle (declared traits, the dice, the result, the effect, where the dice go), XP and levels."""
from __future__ import annotations

from typing import Any

import streamlit as st

from app.ui.games.generic import t


def _dice(sizes: list[int] | None) -> str:
    return " ".join(f"d{int(s)}" for s in (sizes or [])) or "none"


def sheets(view: dict[str, Any], events: list[Any] = ()) -> None:
    st.markdown(f"Act **{int(view.get('act') or 0)}**/{t(view.get('acts'))} · narrator **{t(view.get('narrator'))}**"
                + (f" · objective: {t(view.get('objective'))}" if view.get("objective") else ""))
    bowl = view.get("bowl") or {}
    st.markdown("The bowl: " + (", ".join(f"{int(n)}×d{t(k)}" for k, n in bowl.items()) or "empty"))
    for p in view.get("players") or []:
        narr = " (narrator: story dice " + _dice(p.get("story_dice")) + ")" if p.get("name") == view.get("narrator") else ""
        st.markdown(f"**{t(p.get('name'))}** · level {int(p.get('level', 1))} · XP {int(p.get('xp', 0))} "
                    f"(earned {int(p.get('xp_earned', 0))}) · fate {int(p.get('fate_scene', 0))}  \n"
                    f"character dice: {_dice(p.get('character_dice'))} · story dice: {_dice(p.get('story_dice'))}{narr}")
    names = {c.get("id"): c.get("name") for c in view.get("components") or []}
    for c in view.get("components") or []:
        if c.get("kind") != "pc" and not c.get("traits"):
            continue
        with st.container(border=True):
            out = "".join(word for flag, word in (("out", " · out"), ("stationary", " · a thing (terrain)"),
                                                  ("one_shot", " · one-shot"), ("used", " (spent)"),
                                                  ("temporary", " · temporary"), ("virtual", " · virtual"))
                          if c.get(flag))
            if c.get("unit"):  # V-45: integrated with, aiding, another component
                out += f" · integrated with {t(names.get(c['unit'], c['unit']))}"
            st.markdown(f"**{t(c.get('name'))}** ({t(c.get('kind'))}, {t(c.get('owner'))}){out}")
            st.markdown(", ".join(f"{t(tr.get('name'))} d{int(tr.get('size', 0))}" + (" ★" if tr.get("focus") else "")
                                  + ("" if tr.get("healthy", True) else f" ({t(tr.get('damage') or 'damaged')})")
                                  for tr in c.get("traits") or []))
            if c.get("aspects"):
                st.caption("Aspects: " + ", ".join(t(a) for a in c["aspects"]))
    zones(view)
    groups(view)
    spotlights(view)


def zones(view: dict[str, Any]) -> None:
    """V-44: the scene's map, when the table uses zones: each zone in its row with the components in it."""
    scenes = view.get("scenes") or []
    sc = scenes[-1] if scenes and not scenes[-1].get("ended") else {}
    if not sc.get("zones"):
        return
    names = {c.get("id"): c.get("name") for c in view.get("components") or []}
    where = sc.get("where") or {}
    st.caption("Map: " + " → ".join(
        f"{t(z)} ({', '.join(t(names.get(x, x)) for x, at in where.items() if at == z) or 'empty'})"
        for z in sc["zones"]))


def groups(view: dict[str, Any]) -> None:
    """V-60: this act's groups of story characters, their members and the group dice points left."""
    names = {c.get("id"): c.get("name") for c in view.get("components") or []}
    for g in view.get("groups") or []:
        members = ", ".join(t(names.get(x, x)) for x in g.get("members") or [])
        st.caption(f"Group {t(g.get('name'))} ({t(g.get('owner'))}): {members}; "
                   f"{int(g.get('points_left', 0))} group dice points left")


def spotlights(view: dict[str, Any]) -> None:
    """V-61: this act's spotlight cards; by the newer rule (L737) they lie in the middle of the table."""
    cards = [x for x in view.get("spotlights") or [] if isinstance(x, dict) and x.get("act") == view.get("act")]
    if not cards:
        return
    middle = (view.get("options") or {}).get("spotlight_cards", "taken_in_turns") == "middle"
    lines = []
    for x in cards:
        where = (f"achieved, narrated by {t(x.get('holder'))}" if x.get("done") and x.get("holder") else
                 "achieved" if x.get("done") else "in the middle of the table" if middle
                 else f"held by {t(x.get('holder'))}")
        whose = "group" if x.get("kind") == "group" else "PC"
        lines.append(f"- {t(x.get('maker'))}'s {whose}: {t(x.get('text'))} ({where})")
    st.markdown("Spotlight cards:\n" + "\n".join(lines))


def _shown(values: Any) -> str:
    """Faces as numbers, or "hidden": a hidden roll (V-31) seen from another seat."""
    return "hidden" if isinstance(values, str) else " ".join(str(int(f)) for f in values or [])


def _side(side: dict[str, Any] | None, names: dict[str, str]) -> str:
    if not side:
        return "—"
    raw = side.get("stakes") or []
    stakes = "hidden" if isinstance(raw, str) else \
        ", ".join((f"{t(names.get(s['component'], s['component']))}'s " if s.get("component") else "")
                  + f"{t(s.get('trait'))} d{int(s.get('die') or 0)} ({t(s.get('source'))})" if isinstance(s, dict)
                  else t(s) for s in raw)
    faces, power = _shown(side.get("faces")), _shown(side.get("power_faces"))
    who = names.get(side.get("component"), side.get("component"))
    return (f"{t(who)} ({t(side.get('player'))}): {stakes or 'no traits declared yet'}"
            + (f" · rolled {faces}" if faces else "") + (f" · power {power}" if power else ""))


def struggle(view: dict[str, Any], events: list[Any] = ()) -> None:
    s = view.get("struggle")
    names = {c.get("id"): c.get("name") for c in view.get("components") or []}
    if s:
        with st.container(border=True):
            st.markdown(f"**Struggle** ({t(s.get('goal'))}, stage {t(s.get('stage'))}): {t(s.get('text'))}")
            st.markdown(f"- {_side(s.get('actor'), names)}\n- {_side(s.get('opponent'), names)}"
                        + "".join(f"\n- {_side(o, names)}" for o in s.get("others") or []))  # V-38: a mass struggle
            ext = view.get("extended")
            if ext:
                st.caption(f"Extended struggle: exchange {int(ext.get('exchanges', 0))}, failures "
                           + ", ".join(f"{t(names.get(k, k))} {int(v)}" for k, v in (ext.get("failures") or {}).items()))
    for b in view.get("blocks") or []:  # V-39: blocks standing until their player's next turn
        aim = t(names.get(b.get("prevents"), b.get("prevents"))) if b.get("prevents") else "any struggle"
        st.caption(f"Block: {t(names.get(b.get('blocker'), b.get('blocker')))} blocks "
                   f"{t(names.get(b.get('target'), b.get('target')))} from {aim}: "
                   f"{int(b.get('value', 0))} to beat, until {t(b.get('player'))}'s next turn")
    rev = view.get("revising")
    if rev:  # V-4: a claim the table turned down, which its actor may justify with revised fiction
        opposed = ", then ".join(str(int(n)) for n in rev.get("opposed") or [])
        st.caption(f"Turned down: {t(rev.get('text'))} ({t(rev.get('actor'))} may justify it; the table opposed "
                   f"{opposed} of {int(rev.get('voters', 0))})")
    flow = where_dice_went(events)
    if flow:
        st.markdown(f"Where the dice went: {flow}")
    done = view.get("struggles") or []
    if done:
        last = done[-1]
        res = f"{t(last.get('actor_result'))} vs {t(last.get('opponent_result'))}"  # or "hidden" (V-31)
        effect = last.get("effect", 0)  # "hidden": a hidden roll's effect is told in the story (V-31)
        told = (f"told in the story: {t(last['told'])}" if last.get("told") else "told in the story") \
            if isinstance(effect, str) else str(int(effect))  # the words its opponent's player told (V-31)
        st.caption(f"Last struggle: {t(last.get('text'))} → {t(last.get('winner'))} wins "
                   f"({res}), effect {told}" + (f", disabled {', '.join(t(d) for d in last['disabled'])}"
                                                if last.get("disabled") else ""))


def where_dice_went(events: list[Any]) -> str:
    """The last roll's dice flow as the rules reported it (V-27 steps 6-11): who got which dice
    and what went to the bowl."""
    for e in reversed(list(events)):
        data = getattr(e, "data", None) or {}
        if getattr(e, "kind", "") == "roll" and ("flow" in data or "to_bowl" in data):
            parts = [f"{t(who)} takes {_dice(dice)}" for who, dice in (data.get("flow") or {}).items() if dice]
            if data.get("to_bowl"):
                parts.append(f"the bowl gets {_dice(data['to_bowl'])}")
            return "; ".join(parts) or "nothing moves"
    return ""
