"""The table's sidebar: its code and links, who sits where, seats switching person/AI, files."""
from __future__ import annotations

import streamlit as st

from agents.personas import PERSONAS
from app.ui import files, reactions, store
from app.ui.setup import KINDS


def base_url() -> str:
    url = getattr(getattr(st, "context", None), "url", None)
    return str(url).split("?")[0] if url else ""


def seating(live: store.Live) -> str | None:
    """Which seat this browser plays: one claimed seat, or None for a shared screen (all people)."""
    humans = [s.name for s in live.config.seats if s.kind == "human"]
    current = st.query_params.get("seat")
    options = [""] + [s.name for s in live.config.seats]
    if current not in options:
        current = ""
    choice = st.selectbox("This browser plays", options, index=options.index(current), key="sb:seat",
                          format_func=lambda n: n or "every person's seat (shared screen)")
    if choice != current:
        if choice:
            st.query_params["seat"] = choice
        else:
            st.query_params.pop("seat", None)
        st.rerun()
    link = f"{base_url()}?table={live.code}"
    st.caption("Invite others with a seat link:")
    for name in humans:
        st.code(f"{link}&seat={name}", language=None)
    return choice or None


def switch_seats(live: store.Live) -> None:
    with st.expander("Seat settings", expanded=False):
        st.caption("Switch any seat between a person and an AI, between two decisions. A person chooses "
                   "when to be asked to react to others' statements; otherwise they stand (a Pass is logged).")
        for i, spec in enumerate(live.config.seats):
            key = f"sb:kind:{spec.name}"
            kinds = list(KINDS)

            def change(name: str = spec.name, k: str = key) -> None:
                old = next(s for s in live.config.seats if s.name == name)
                kind = st.session_state[k]
                persona = old.persona or (list(PERSONAS)[0] if kind != "human" else "")
                with live.lock:
                    note = live.set_seat_kind(name, kind, persona if kind != "human" else "", old.model)
                if note:
                    live.notes.append(note)

            st.selectbox(spec.name, kinds, index=kinds.index(spec.kind), format_func=KINDS.get, key=key,
                         on_change=change)
            if spec.kind == "human":
                reaction_setting(live, spec.name)


def reaction_setting(live: store.Live, name: str) -> None:
    """When this person is asked in reaction windows; saved with the table (table.json)."""
    key = f"sb:react:{name}"
    modes = list(reactions.MODES)

    def change() -> None:
        current = store.open_table(live.code) or live  # the registry's table, reloaded if it changed on disk
        with current.lock:
            current.set_reaction_mode(name, st.session_state[key])

    st.selectbox(f"{name}: reaction windows", modes, index=modes.index(live.config.reaction_mode(name)),
                 format_func=reactions.MODES.get, key=key, on_change=change,
                 help="It concerns you when it touches a component you control in the scene or created, may "
                      "contradict a Fact you paid for, or follows a Fine called against you. Windows you are not "
                      "asked about are passed for you and logged as 'auto-pass (setting)'.")


def count_line(live: store.Live) -> str:
    return f"dice: {live.config.dice} · seed {live.config.seed} · {len(live.table.records)} actions"


def panel(live: store.Live, open_code) -> tuple[str | None, "st.delta_generator.DeltaGenerator"]:
    """The sidebar; returns the seat this browser plays and the slot of the count line, which the
    caller fills again after the page ran (AI steps add actions after the sidebar is drawn)."""
    with st.sidebar:
        st.markdown(f"### Table `{live.code}`")
        count = st.empty()
        count.caption(count_line(live))
        mine = seating(live)
        switch_seats(live)
        files.save_export(live)
        if st.button("Undo my last decision", key="do:undo", use_container_width=True,
                     help="for a slip of the hand: replays the log without it"):
            store.undo_to_human(live)
            st.rerun()
        st.divider()
        files.load(open_code)
        tables = [c for c in store.list_tables() if c != live.code][:8]
        if tables:
            pick = st.selectbox("Other tables on this server", [""] + tables, key="sb:other",
                                format_func=lambda c: c or "—")
            if pick:
                open_code(pick)
    return mine, count
