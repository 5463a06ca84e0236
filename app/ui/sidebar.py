"""The table's sidebar: its code and link, the seats this browser holds, seat settings, files.

Why no list of tables: a table's code is its watch link, so the page never shows other codes.
Why seats here and rules in app/ui/seats.py: the sidebar only offers what the browser's token
allows; seats.py checks it again when anything is applied.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from agents.personas import PERSONAS
from app.ui import export, files, llmcheck, reactions, safe, seats, store
from app.ui.setup import KINDS

if TYPE_CHECKING:
    from app.ui import game_store

NOTE = "sb:note"  # a refusal or a note from a callback, shown once on the next run


def base_url() -> str:
    url = getattr(getattr(st, "context", None), "url", None)
    return str(url).split("?")[0] if url else ""


def token() -> str:
    """This browser's secret for the table (from its URL), '' when it holds nothing."""
    return str(st.query_params.get("seat", "") or "")


def say(text: str) -> None:
    """Keep a message for the next run (callbacks run before the page is drawn)."""
    st.session_state[NOTE] = text


def seating(live: store.Live) -> list[str]:
    """Which seats this browser holds; offers the free ones; the watch link to invite others."""
    tok = token()
    mine = seats.held(live, tok)
    host = seats.is_host(live, tok)
    if mine:
        st.markdown("This browser plays **" + ", ".join(safe.text(n) for n in mine) + "**"
                    + (" and is the host." if host else "."))
        st.caption("Keep this page's address to yourself: it holds your seat. A refresh keeps it.")
    else:
        st.markdown("You are **watching** this table" + (" as its host." if host else " (read-only)."))
    free_seats_and_link(live, tok, "sb")
    return mine


def free_seats_and_link(live: store.Live | game_store.GameLive, tok: str, key: str) -> None:
    """A button to take each free seat, and the table's link to invite others (every game's table).

    `live`: a Universalis or another game's table (app/ui/seats.py serves both); `key` keeps the
    buttons' keys apart per page."""
    for name in seats.free_seats(live):
        if st.button(f"Take {safe.text(name)}'s seat", key=f"{key}:take:{name}", width="stretch"):
            try:
                st.query_params["seat"] = seats.take(live, tok, name)
            except seats.Refused as exc:
                st.error(safe.text(exc))
            else:
                st.rerun()
    st.caption("Invite others with the table's link: they watch, and can take a free seat.")
    st.code(f"{base_url()}?table={live.code}", language=None)


def switch_seats(live: store.Live, mine: list[str]) -> None:
    tok = token()
    host = seats.is_host(live, tok)
    with st.expander("Seat settings", expanded=False):
        st.caption("A seat's holder switches it between a person and an AI, between two decisions; the host "
                   "switches and frees seats nobody holds. A person chooses when to be asked to react to "
                   "others' statements; otherwise they stand (a Pass is logged).")
        for spec in live.config.seats:
            key = f"sb:kind:{spec.name}"
            kinds = list(KINDS)
            why = seats.may_switch(live, tok, spec.name)

            def change(name: str = spec.name, k: str = key) -> None:
                old = next(s for s in live.config.seats if s.name == name)
                kind = st.session_state[k]
                persona = old.persona or (list(PERSONAS)[0] if kind != "human" else "")
                try:
                    note = seats.switch(live, token(), name, kind, persona if kind != "human" else "", old.model)
                except seats.Refused as exc:
                    say(str(exc))
                    st.session_state[k] = old.kind
                    return
                if note:
                    live.notes.append(note)

            st.selectbox(safe.text(spec.name), kinds, index=kinds.index(spec.kind), format_func=KINDS.get, key=key,
                         on_change=change, disabled=bool(why), help=why or None)
            if spec.kind == "llm":
                llmcheck.show(spec.model)
            if spec.kind == "human" and spec.name in mine:
                reaction_setting(live, spec.name)
            holder = seats.holder_of(live, spec.name)
            if host and holder and spec.name not in mine:
                if st.button(f"Free {safe.text(spec.name)}'s seat", key=f"sb:free:{spec.name}",
                             help="The person holding it loses it; anyone with the table's link may take it."):
                    try:
                        seats.free(live, tok, spec.name)
                    except seats.Refused as exc:
                        st.error(safe.text(exc))
                    else:
                        st.rerun()
        if mine and st.button("Leave my seats", key="sb:leave", help="Frees them for someone else to take"):
            for name in mine:
                seats.free(live, tok, name)
            st.rerun()


def reaction_setting(live: store.Live, name: str) -> None:
    """When this person is asked in reaction windows; saved with the table (table.json)."""
    key = f"sb:react:{name}"
    modes = list(reactions.MODES)

    def change() -> None:
        current = store.open_table(live.code) or live  # the registry's table, reloaded if it changed on disk
        try:
            seats.set_reaction(current, token(), name, st.session_state[key])
        except seats.Refused as exc:
            say(str(exc))

    st.selectbox(f"{safe.text(name)}: reaction windows", modes, index=modes.index(live.config.reaction_mode(name)),
                 format_func=reactions.MODES.get, key=key, on_change=change,
                 help="It concerns you when it touches a component you control in the scene or created, may "
                      "contradict a Fact you paid for, or follows a Fine called against you. Windows you are not "
                      "asked about are passed for you and logged as 'auto-pass (setting)'.")


def count_line(live: store.Live) -> str:
    return f"dice: {live.config.dice} · seed {live.config.seed} · {len(live.table.records)} actions"


def panel(live: store.Live, open_code) -> tuple[list[str], "st.delta_generator.DeltaGenerator"]:
    """The sidebar; returns the seats this browser holds and the slot of the count line, which the
    caller fills again after the page ran (AI steps add actions after the sidebar is drawn)."""
    with st.sidebar:
        st.markdown("### Table")
        count = st.empty()
        count.caption(count_line(live))
        note = st.session_state.pop(NOTE, "")
        if note:
            st.warning(safe.text(note))
        mine = seating(live)
        switch_seats(live, mine)
        export.downloads(live, mine)
        if mine and st.button("Undo my last decision", key="do:undo", width="stretch",
                              help="for a slip of the hand: replays the log without it"):
            try:
                say(seats.undo(live, token()))
            except seats.Refused as exc:
                say(str(exc))
            st.rerun()
        st.divider()
        files.load(open_code)
    return mine, count
