"""Storytable's table in the browser: `storytable app` (or `streamlit run app/streamlit_app.py`).

Pages: the table in play, its Facts, a brainstorm, and setting up a new table. The game lives in
its log on disk (see app/ui/store.py), so a link survives a refresh and a server restart, and
several browsers share one table. ?table=CODE lets anyone with the link watch; ?seat=TOKEN is the
secret that the browser holding a seat (or hosting the table) keeps in its address (app/ui/seats.py).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `streamlit run app/streamlit_app.py` from a checkout
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from app.ui import brainstorm, factsview, files, game_play, game_store, play, safe, seats, setup, sidebar, store  # noqa: E402

PAGES = ["Table", "Facts", "Brainstorm", "New table"]


def open_new(code: str) -> None:
    """A table this browser just made (set up or uploaded): it hosts it and holds its people's seats."""
    live = game_store.open_table(code) if game_store.is_game_table(code) else store.open_table(code)
    st.query_params.clear()
    st.query_params["table"] = code
    if live is not None:
        try:
            st.query_params["seat"] = seats.start(live)
        except seats.Refused:
            pass  # not a new table after all: open it to watch
    st.session_state["nav_next"] = "Table"
    st.rerun()


def go_setup() -> None:
    st.session_state["nav_next"] = "New table"
    st.rerun()


def main() -> None:
    st.set_page_config(page_title="Storytable", page_icon="🎲", layout="wide")
    code = str(st.query_params.get("table", "") or "")
    if code and game_store.is_game_table(code):
        game_main(code)
        return
    live = store.open_table(code) if code else None
    if "nav_next" in st.session_state:
        st.session_state["nav"] = st.session_state.pop("nav_next")
    elif "nav" not in st.session_state:
        st.session_state["nav"] = "Table" if live else "New table"
    with st.sidebar:
        st.title("Storytable")
        nav = st.radio("Page", PAGES, key="nav", label_visibility="collapsed")
    if code and live is None:
        st.error(safe.text(store.why_not(code)))  # never the server's folders
    mine, count = sidebar.panel(live, open_new) if live else ([], None)
    if live is None:
        with st.sidebar:
            files.load(open_new)
    if nav == "New table" or (nav == "Table" and live is None):
        setup.page(open_new)
    elif nav == "Brainstorm":
        brainstorm.page(live, go_setup)
    elif nav == "Facts":
        if live is None:
            st.info("Open or start a table to browse its Facts.")
        else:
            factsview.browser(live, mine)
    else:
        assert live is not None
        play.page(live, mine, sidebar.token())
    if live is not None and count is not None:
        count.caption(sidebar.count_line(live))  # after the AI steps the page ran


def game_main(code: str) -> None:
    """A FUBAR, Paganini or Vele table (app/ui/game_store.py): its own sidebar and play page."""
    live = game_store.open_table(code)
    if "nav_next" in st.session_state:
        st.session_state["nav"] = st.session_state.pop("nav_next")
    elif st.session_state.get("nav") not in ("Table", "New table"):
        st.session_state["nav"] = "Table"
    with st.sidebar:
        st.title("Storytable")
        nav = st.radio("Page", ["Table", "New table"], key="nav", label_visibility="collapsed")
    if live is None:
        st.error(safe.text(game_store.why_not(code)))
        setup.page(open_new)
        return
    mine = game_play.sidebar(live)
    if nav == "New table":
        setup.page(open_new)
    else:
        game_play.page(live, mine)


main()
