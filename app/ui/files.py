"""Save (download the log), load (upload; a bad file changes nothing, a file cut short loads its
valid part), export Markdown, and what the page says about the log on disk (damaged, read-only)."""
from __future__ import annotations

import os

import streamlit as st

from agents.storage.paths import scrub
from app.ui import safe, store
from engine.core.errors import LogError


def load(open_code) -> None:
    """Upload a saved log: it becomes a new table. A file cut short loads its valid part (the page
    says where it broke); a file with nothing valid gets a message and nothing changes."""
    up = st.file_uploader("Load a saved game (.jsonl)", type=["jsonl", "json", "txt", "log"], key="upload")
    if up is None:
        return
    if st.button("Open this game", key="do:load"):
        try:
            from app.ui import game_store

            data = up.getvalue()
            if game_store.upload_ruleset(data):  # FUBAR, Paganini, Vele: their own store
                live = game_store.import_upload(data)
            else:
                live = store.import_upload(data)
        except LogError as exc:
            st.error(safe.text(scrub(f"This file cannot be loaded: {exc.reason} (line {exc.line}). Nothing was changed.")))
            return
        except Exception as exc:  # never a traceback for a bad file
            st.error(safe.text(scrub(f"This file cannot be loaded: {exc}. Nothing was changed.")))
            return
        open_code(live.code)


def storage_notice(live: store.Live, host: bool) -> None:
    """Say when the table is read-only here, or its log was damaged; let the host (only) go on from
    a damaged log's valid part (the damaged file is kept beside the new log)."""
    if live.read_only:
        st.warning(safe.text(live.read_only))
        _follow(live)
    note = store.damage_note(live)
    if note is None:
        return
    if not store.awaits_continue(live):
        st.info(safe.text(note))
        return
    st.warning(safe.text(note))
    if not host:
        st.caption("The host can go on from here.")
        return
    if not live.read_only and st.button(f"Go on from action {len(live.table.records)}", key="do:continue-damaged",
                                        type="primary"):
        try:
            store.continue_damaged(live)
        except OSError as exc:
            st.error(safe.text(scrub(f"Could not keep the damaged log aside ({exc.strerror or exc}); nothing was changed.")))
            return
        st.rerun()


def _follow(live: store.Live) -> None:
    """A read-only page looks every few seconds for the writer's moves, or for its end (then this
    server takes the table over and the page becomes playable)."""
    if os.environ.get("STORYTABLE_APP_POLL", "1") == "0":
        return
    seen = live.size

    @st.fragment(run_every=2.5)
    def follow() -> None:
        current = store.open_table(live.code)
        if current is not None and (current.size != seen or current.read_only is None):
            st.rerun(scope="app")

    follow()
