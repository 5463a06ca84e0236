"""Save (download the log), load (upload; a bad file changes nothing), export Markdown."""
from __future__ import annotations

import streamlit as st

from app.ui import export, store
from engine.core.errors import LogError


def save_export(live: store.Live) -> None:
    st.download_button("Save the game (log)", live.table.log_text(), file_name=f"storytable-{live.code}.jsonl",
                       mime="application/jsonl", key="save", use_container_width=True)
    st.download_button("Export transcript (Markdown)", export.markdown(live.table), key="export",
                       file_name=f"storytable-{live.code}.md", mime="text/markdown", use_container_width=True)


def load(open_code) -> None:
    """Upload a saved log: it becomes a new table; a bad file gets a message and nothing changes."""
    up = st.file_uploader("Load a saved game (.jsonl)", type=["jsonl", "json", "txt", "log"], key="upload")
    if up is None:
        return
    if st.button("Open this game", key="do:load"):
        try:
            live = store.import_log(store.decode_upload(up.getvalue()))
        except LogError as exc:
            st.error(f"This file cannot be loaded: {exc.reason} (line {exc.line}). Nothing was changed.")
            return
        except Exception as exc:  # never a traceback for a bad file
            st.error(f"This file cannot be loaded: {exc}. Nothing was changed.")
            return
        open_code(live.code)
