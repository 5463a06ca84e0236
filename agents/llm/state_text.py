"""The game as a player may see it, written as compact text for a prompt.

Why: a model needs ids (components, Traits, Facts) to name in its action, the coins that
bound what it can pay, and the scene it is in; it does not need the whole state. Text is
bounded (components, Traits and Facts are capped) so prompts stay cheap in long games.
"""
from __future__ import annotations

from typing import Any, Iterable

from engine.universalis.components import importance
from engine.universalis.ledger import available
from engine.universalis.state import GameState

MAX_COMPONENTS = 24
MAX_TRAITS = 8
MAX_FACTS = 30
MAX_TENETS = 12


def describe_state(s: GameState, me: str | None) -> str:
    """Players and coins, Tenets, the scene, components with ids and Traits, any Complication."""
    lines: list[str] = []
    coins = []
    for p in s.players:
        mark = " (you)" if p.name == me else ""
        coins.append(f"{p.name}{mark}: {p.wealth} coins" + (f", {p.stake} staked" if p.stake else ""))
    lines.append("Players: " + "; ".join(coins))
    if me is not None and me in s.seat_names:
        lines.append(f"You may spend now: {available(s, me)} coins.")
    tenets = [t for t in s.tenets if not t.removed]
    if tenets:
        shown = tenets[:MAX_TENETS]
        more = f" (+{len(tenets) - len(shown)} more)" if len(tenets) > len(shown) else ""
        lines.append("Tenets: " + " | ".join(f"[{t.id}] {t.text}" for t in shown) + more)
    sc = s.scene()
    if sc is not None:
        loc = s.components[sc.location].label if sc.location and sc.location in s.components else "not set yet"
        lines.append(f"Scene {sc.number}{' (mini scene)' if sc.mini else ''}, framed by {sc.framer}; "
                     f"location: {loc}; time: {sc.time}.")
        if s.turn is not None:
            lines.append(f"Turn: {s.turn.player}" + (" (framing the scene)" if s.turn.framing else ""))
    lines.append("Components (id: name, kind, Importance, controller in this scene; Traits with ids):")
    comps = [c for c in s.components.values() if not c.eliminated]
    here = set(sc.present) | ({sc.location} if sc and sc.location else set()) if sc else set()
    comps.sort(key=lambda c: (c.id not in here, -importance(s, c.id), c.id))
    for c in comps[:MAX_COMPONENTS]:
        where = "in scene" if c.id in here else "off scene"
        ctrl = s.controller(c.id) if c.id in here else None
        traits = [f"{t.id} “{t.text}”" for t in c.live_traits()][:MAX_TRAITS]
        extra = " master" if c.is_master else ""
        lines.append(f"- {c.id}: {c.label}, {c.kind}{extra}, Importance {importance(s, c.id)}, {where}"
                     + (f", controlled by {ctrl}" if ctrl else "") + (f"; Traits: {', '.join(traits)}" if traits else ""))
    if len(comps) > MAX_COMPONENTS:
        lines.append(f"  (+{len(comps) - MAX_COMPONENTS} more components off scene)")
    comp = s.complication
    if comp is not None:
        pools = ", ".join(f"pool {p.key} ({p.owner}): {p.dice} dice + {p.edge} edge" for p in comp.pools)
        lines.append(f"Complication {comp.id} started by {comp.originator}: “{comp.source}”. {pools}.")
        if comp.drawn:
            lines.append("Traits already drawn (trait@component): " + ", ".join(comp.drawn))
    if s.window is not None:
        st = s.window.statement
        lines.append(f"Open statement by {st.actor} ({st.kind}, cost {st.cost}): “{st.text}”"
                     + (f" touching {', '.join(st.components)}" if st.components else ""))
    if s.challenge is not None:
        ch = s.challenge
        opts = "; ".join(f"option {i}: “{o.text}” ({ch.totals[i] if i < len(ch.totals) else 0} coins bid)"
                         for i, o in enumerate(ch.options))
        lines.append(f"Challenge by {ch.challenger} against {ch.challenged}: {ch.reason}. "
                     + (f"Fact cited: {ch.fact_id}. " if ch.fact_id else "") + opts)
    if s.fine is not None:
        lines.append(f"Fine called by {s.fine.accuser} against {s.fine.accused}: {s.fine.reason}")
    if s.narration is not None and s.narration.slots:
        slot = s.narration.slots[s.narration.current]
        lines.append(f"Narration after the roll: {slot.player} {'won' if slot.won else 'lost'} with pool "
                     f"{slot.pool} and has {slot.coins} bonus coins to spend.")
    if s.dialog is not None:
        lines.append(f"Dialog offered: {s.dialog.speaker} to {s.dialog.listener}: “{s.dialog.line}”")
    return "\n".join(lines)


def describe_facts(facts: Iterable[Any], limit: int = MAX_FACTS) -> str:
    """Relevant Facts with ids, newest last, so a Challenge can cite one (U-FACT-2).

    Tenets are left out: the state text already lists them.
    """
    items = [f for f in facts if getattr(f, "kind", "") != "tenet"][-limit:]
    if not items:
        return "(none yet)"
    out = []
    for f in items:
        about = f" about {f.component_name}" if getattr(f, "component_name", None) else ""
        out.append(f"- [{f.id}] {f.kind}{about}: {f.text}")
    return "\n".join(out)


def describe_recent(events: Iterable[Any], limit: int = 10) -> str:
    quiet = {"reaction", "bid_placed", "turn", "narration_turn"}
    lines = [e.line() for e in events if e.kind not in quiet and e.text][-limit:]
    return "\n".join(f"- {x}" for x in lines) or "(nothing yet)"
