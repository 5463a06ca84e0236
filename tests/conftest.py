"""Shared pytest configuration: make the tests folder importable for helper modules; the browser
tests' Streamlit server."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from browser_helpers import AppServer, need_browser, streamlit_app  # noqa: E402 (needs the path above)
# the real-model tier's figures at the end of a run, with or without xdist (hooks, hence "unused")
from tier_report import pytest_sessionfinish, pytest_terminal_summary, pytest_testnodedown  # noqa: E402,F401


# -- the browser tests' server (tests/browser_helpers.py) ---------------------------------------------

@pytest.fixture(scope="session")
def streamlit_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One `streamlit run` for every browser test this test process runs (each test makes its own
    tables): under -n 2 each worker that gets a browser test starts one, once."""
    need_browser()
    pytest.importorskip("playwright.sync_api")
    with streamlit_app(tmp_path_factory.mktemp("streamlit")) as server:
        yield server


@pytest.fixture
def app_server(streamlit_server: AppServer, monkeypatch: pytest.MonkeyPatch) -> AppServer:
    """The browser tests' server, with this test process's STORYTABLE_HOME on its games (a table a test
    builds itself, for the server to play, goes where the server looks)."""
    monkeypatch.setenv("STORYTABLE_HOME", str(streamlit_server.home))
    return streamlit_server
