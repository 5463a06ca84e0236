"""Complications (pools, drawn Traits, dice faces, Edge, bonus coins), Challenges and Fines."""
from __future__ import annotations

import streamlit as st

from app.ui import safe, store
from engine.universalis.addon_extended import in_play_line
from engine.universalis.addon_individual import pool_label
from engine.universalis.addon_own_pools import side_label
from engine.universalis.addon_split import state_line
from engine.universalis.complications import is_success
from engine.universalis.rules import effective_totals


def dice_html(faces: list[int] | tuple[int, ...], edge: int = 0) -> str:
    """Faces as little dice; successes (1-5) dark, Edge dice (the last `edge`) outlined in gold."""
    out = []
    n = len(faces)
    for i, f in enumerate(faces):
        ok = is_success(f)
        is_edge = i >= n - edge
        style = ("background:#2e7d32;color:white;" if ok else "background:#eee;color:#333;") + \
            ("border:2px solid #c9a000;" if is_edge else "border:1px solid #999;")
        out.append(f'<span class="die" title="{"success" if ok else "no success"}{" (Edge)" if is_edge else ""}" '
                   f'style="display:inline-block;min-width:1.6em;text-align:center;margin:1px;padding:2px 4px;'
                   f'border-radius:5px;font-weight:bold;{style}">{f}</span>')
    return "".join(out) or "<i>no dice</i>"


def complication(live: store.Live) -> None:
    s = live.table.state
    comp = s.complication
    if comp is None:
        return
    with st.container(border=True):
        targets = ", ".join(safe.text(s.components[t].label) for t in comp.targets)
        nested = " (nested)" if s.suspended else ""
        st.markdown(f"**Complication {comp.id}**{nested} started by **{safe.text(comp.originator)}**: "
                    f"{safe.text(comp.source)}  \n"
                    f"<small>Targets: {targets or '—'}</small>", unsafe_allow_html=True)
        cols = st.columns(max(1, len(comp.pools)))
        for col, p in zip(cols, comp.pools):
            name = pool_label(p.key, safe.text)  # "Complication Pool facing B" under Individual (UA-MT-5)
            side = side_label(s, comp, p)  # Own Pool per Participant (UA-OWN-1): its side
            name += f" · {side}" if side else ""
            col.metric(name, f"{p.dice} dice", f"+{p.edge} Edge" if p.edge else None, delta_color="off")
        stages = in_play_line(s)  # Extended Complications (UA-EXT-1): the Pools above are this stage's
        if stages:
            st.caption(safe.text(stages))
        if comp.changes:
            lines = []
            for ch in comp.changes:
                sign = "+1" if ch.delta > 0 else str(ch.delta)
                pool = safe.text(ch.pool)
                by = safe.text(ch.by)
                if ch.how == "draw":
                    what = safe.text(s.components[ch.component].label) if ch.component in s.components else ""
                    lines.append(f"{by} drew on {what}'s “{safe.text(ch.why)}”: {sign} die to {pool}")
                else:
                    lines.append(f"{by} bought {abs(ch.delta)} {'die' if abs(ch.delta) == 1 else 'dice'} "
                                 f"{'off' if ch.delta < 0 else 'for'} {pool}: {safe.text(ch.why)}")
            with st.expander(f"Dice drawn and bought ({len(comp.changes)})", expanded=False):
                st.markdown("\n".join(f"- {x}" for x in lines))
        if s.consent is not None:
            yes = sum(1 for v in s.consent.answers.values() if v)
            st.caption(f"{safe.text(s.consent.caller)} called for resolution; {yes} agreed so far.")
        for i, r in enumerate(comp.rolls, 1):
            parts = []
            for key, faces in r.faces.items():
                name = ("Complication" if key == "C" else pool_label(key, safe.text) if key.startswith("C:")
                        else safe.text(key))  # "C:B": the Complication Pool facing B (UA-MT-5)
                parts.append(f"{name}: {dice_html(faces, r.edge.get(key, 0))} → {r.successes.get(key, 0)} successes")
            st.markdown(f"Roll {i}: " + " &nbsp; ".join(parts), unsafe_allow_html=True)
        if comp.split is not None:  # Split Allocation (UA-MT-4): the Successes to allocate, or each match
            st.caption(safe.text(state_line(s, comp)))
    suspended(live)
    narration(live)


def suspended_lines(s) -> list[str]:
    """Nested Complications (UA-NEST-1): one escaped line per Complication waiting under the open one,
    outermost first."""
    out = []
    for x in s.suspended:
        pools = ", ".join(f"{pool_label(p.key, safe.text)} {p.dice}" + (f"+{p.edge} Edge" if p.edge else "")
                          for p in x.pools)
        out.append(f"Waiting under it (Nested Complications): Complication {x.id} by {safe.text(x.originator)}: "
                   f"{safe.text(x.source)} · Pools: {pools}. It resumes once the one above is resolved.")
    return out


def suspended(live: store.Live) -> None:
    for line in suspended_lines(live.table.state):
        st.caption(line)


def narration(live: store.Live) -> None:
    n = live.table.state.narration
    if n is None:
        return
    rows = []
    for i, sl in enumerate(n.slots):
        now = " ← narrating" if i == n.current and not sl.done else ""
        rows.append(f"- {safe.text(sl.player)} ({'won' if sl.won else 'lost'}): {sl.coins} bonus coins"
                    f"{' · done' if sl.done else ''}{now}")
    st.markdown("**Bonus coins** (spent on narration, kept as wealth, or spent to cancel a loser's):\n" + "\n".join(rows))


def challenge(live: store.Live) -> None:
    ch = live.table.state.challenge
    if ch is None:
        return
    with st.container(border=True):
        st.markdown(f"**Challenge**: {safe.text(ch.challenger)} challenges {safe.text(ch.challenged)}'s "
                    f"“{safe.text(ch.statement.text)}” — {safe.text(ch.reason)}")
        eff = effective_totals(ch) if ch.totals else []
        for i, o in enumerate(ch.options):
            raw = ch.totals[i] if i < len(ch.totals) else 0
            shown = f"{raw}"
            if eff and i < len(eff) and eff[i] != raw:
                shown = f"{raw} × 2 = **{eff[i]}** (bid in defence of a Fact counts double)"
            st.markdown(f"- option {i}: {safe.text(o.text)} (cost {o.cost}) · bid: {shown}")
        if ch.fact_id:
            st.caption(f"The statement contradicts a Fact; it applies: "
                       f"{'undecided' if ch.fact_applies is None else ch.fact_applies}.")
        if ch.bids:
            st.caption("Bids: " + "; ".join(f"{safe.text(p)} {c} on option {o}" for p, o, c in ch.bids))
        if ch.stage == "bidding" and ch.order:
            st.caption(f"Next to bid: {safe.text(ch.order[ch.next_index])}")


def fine(live: store.Live) -> None:
    f = live.table.state.fine
    if f is None:
        return
    st.warning(f"**Fine**: {safe.text(f.accuser)} calls for a Fine against {safe.text(f.accused)}: "
               f"{safe.text(f.reason)}. "
               f"Votes in: {len(f.votes)} of {len(live.table.state.players)} (secret until all are in).")
