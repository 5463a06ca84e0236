"""The setup page runs the real readiness check (agents.llm.readiness) when a seat is set to LLM (issue 24).

Against the strict fake endpoint on 127.0.0.1: a working endpoint reads "ready", a wrong model
name reads as the endpoint's own one-line reason; the key never reaches the page.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from fakeserver import FakeOpenAIServer
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py")
KEY = "sk-proj-secret-key-0123456789"


@pytest.fixture(params=["llama-cpp-python"])
def endpoint(request, tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    monkeypatch.delenv("STORYTABLE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)  # no storytable.toml here: the environment alone configures the seat
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    server = FakeOpenAIServer(profile=request.param).start()
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    from app.ui import llmcheck
    llmcheck._cached.cache_clear()
    yield server
    server.stop()
    llmcheck._cached.cache_clear()


def _texts(at: AppTest) -> str:
    """What the page shows, with the one escape's backslashes taken out."""
    return " ".join(str(e.value) for e in [*at.caption, *at.warning, *at.error, *at.markdown]).replace("\\", "")


def test_a_seat_set_to_llm_reads_ready_on_a_working_endpoint(endpoint, monkeypatch) -> None:
    monkeypatch.setenv("STORYTABLE_MODEL", "fake-model")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.selectbox(key="setup:kind:1").set_value("llm").run()
    assert not at.exception, at.exception
    text = _texts(at)
    assert "Endpoint ready" in text and KEY not in text
    assert endpoint.violations == []


@pytest.mark.parametrize("endpoint", ["openai"], indirect=True)  # OpenAI checks the model's name
def test_a_wrong_model_name_is_said_in_one_line_without_the_key(endpoint, monkeypatch) -> None:
    monkeypatch.setenv("STORYTABLE_MODEL", "no-such-model")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.selectbox(key="setup:kind:1").set_value("llm").run()
    assert not at.exception, at.exception
    warnings = [str(w.value).replace("\\", "") for w in at.warning]
    assert any("no-such-model" in w for w in warnings), warnings
    assert KEY not in _texts(at) and "Endpoint ready" not in _texts(at)


def test_the_page_names_each_seat_playing_without_its_model() -> None:
    """play.model_trouble reads each LLM seat's status: only seats that lost their model are named."""
    from types import SimpleNamespace

    from agents.llm.player import SeatStatus
    from agents.table import Seat
    from app.ui.play import model_trouble

    bo = SimpleNamespace(status=SeatStatus(False, "Bo is playing without its model: the endpoint refuses", 3))
    cy = SimpleNamespace(status=SeatStatus(True, "", 0))
    seats = {"Ann": Seat("Ann", None), "Bo": Seat("Bo", bo), "Cy": Seat("Cy", cy)}  # type: ignore[arg-type]
    live = SimpleNamespace(table=SimpleNamespace(seats=seats))
    assert model_trouble(live) == ["Bo is playing without its model: the endpoint refuses"]  # type: ignore[arg-type]
    bo.status = SeatStatus(True, "Bo is playing with its model again", 0)
    assert model_trouble(live) == []  # type: ignore[arg-type]
