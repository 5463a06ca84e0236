"""The transcript as Markdown with a canon sheet (components, Traits, Tenets), and the downloads.

Everything a player or model wrote goes through safe.text, as on the page: a Markdown viewer
opening the export shows a Tenet `<img src=x onerror=...>` or `[a](javascript:...)` as those
characters, never as an image or a link. The log download is the log's own JSON with <, > and &
written as \\u escapes (the same values when loaded again).
"""
from __future__ import annotations

from agents.table import Table
from app.ui import safe
from engine.universalis.components import importance
from engine.universalis.facts import SECRET_TRAIT, hidden_from

T = safe.text


def markdown(table: Table, title: str = "", seats: list[str] | None = None) -> str:
    """`seats`: the seats of the browser exporting; another player's secret Enigma Trait shows as secret."""
    s = table.state
    seats = seats or []
    out = [f"# {T(title) if title else 'Storytable game ' + T(table.game_id)}", ""]
    if table.premise:
        out += [f"*Premise:* {T(table.premise)}", ""]
    out += ["## Transcript", ""]
    scene = None
    for e in table.transcript():
        if e.kind == "bids_revealed" and e.data.get("scene") != scene:
            scene = e.data.get("scene")
            out += ["", f"### Scene {T(scene)}", ""]
        who = f"**{T(e.player)}**: " if e.player else ""
        price = f" \\[{e.cost}\\]" if e.cost else ""
        out.append(f"- {who}{T(e.text)}{price}")
    out += ["", "## Canon sheet", "", "### Tenets", ""]
    tenets = [t for t in s.tenets if not t.removed]
    out += [f"- {T(t.text)} ({T(t.kind)}, by {T(t.by)})" for t in tenets] or ["- none"]
    out += ["", "### Components", ""]
    for c in s.components.values():
        status = " — eliminated" if c.eliminated else ""
        out.append(f"#### {T(c.label)} ({T(c.kind)}, Importance {importance(s, c.id)}){status}")
        for t in c.traits:
            words = SECRET_TRAIT if hidden_from(t, seats) else t.text
            text = f"~~{T(words)}~~" if t.removed else T(words)
            out.append(f"- {text} ({T(t.kind)}, by {T(t.by or '—')})")
        out.append("")
    out += ["### Wealth", ""]
    out += [f"- {T(p.name)}: {p.wealth} coins" for p in s.players]
    return "\n".join(out) + "\n"


def log_json(table: Table) -> str:
    """The game log as JSON Lines with <, > and & escaped (see safe.json_text)."""
    return safe.json_text(table.log_text())


def others_secrets(table: Table, seats: list[str]) -> int:
    """How many unrevealed Enigma Traits other players bought: the log holds their words (UA-ENIGMA-1)."""
    return sum(1 for c in table.state.components.values() for t in c.traits if hidden_from(t, seats))


def others_hands(live, seats: list[str]) -> list[str]:
    """At a Cards instead of Dice table, the person seats this browser does not hold: the log holds their
    hands (each card dealt is a Roll in it, UA-CDICE-1), which only their holders see (L2428). AI seats'
    hands do not withhold it: a browser holding every person's seat has no one at the table to hide from."""
    if live.table.state.config.addons.currency != "cards_hand":
        return []
    return [s.name for s in live.config.seats if s.kind == "human" and s.name not in seats]


def sealed_open(table: Table) -> bool:
    """A sealed decision is open (U-BID-1 bids, U-FACT-2 / U-FINE-1 votes, the secret call to roll): the log
    holds the answers given so far, which nobody may read until all are in."""
    from engine.universalis.decisions import pending
    return pending(table.state).secret


def downloads(live, seats: list[str] | None = None) -> None:
    """The sidebar's save and export buttons, for a browser holding `seats`. The log is the table's record
    and keeps every secret Enigma Trait's words and every hand of cards, so it is offered only when none of
    them is another player's secret; the table keeps it on the server meanwhile (games/<code>/game.jsonl)."""
    import streamlit as st

    seats = seats or []
    hands = others_hands(live, seats)
    if others_secrets(live.table, seats):
        st.caption("The log holds secret Enigma Traits of other players: it can be saved here once they are "
                   "revealed (the table keeps it on the server meanwhile).")
    elif sealed_open(live.table):
        st.caption("Sealed answers (bids or votes) are being given: the log can be saved once they are revealed.")
    elif hands:
        st.caption(f"The log holds every player's cards in hand ({safe.text(', '.join(hands))} among them): it can "
                   "be saved only from a browser holding every person's seat (the table keeps it on the server).")
    else:
        if live.table.state.config.addons.currency == "cards_hand":  # the deals are in it (UA-CDICE-1)
            st.caption("The saved log holds every seat's cards, the AI seats' too (a replay needs them).")
        st.download_button("Save the game (log)", log_json(live.table), file_name=f"storytable-{live.code}.jsonl",
                           mime="application/jsonl", key="save", width="stretch")
    st.download_button("Export transcript (Markdown)", markdown(live.table, seats=seats), key="export",
                       file_name=f"storytable-{live.code}.md", mime="text/markdown", width="stretch")
