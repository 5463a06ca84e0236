"""An LLM seat at a FUBAR table in the app, against the strict fake OpenAI server (real HTTP on
127.0.0.1): the setup page offers the kind once an endpoint is configured, the LLM GM decides
(or falls back to the heuristic with its reason), the why is shown, and the key never is."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from fakeserver import FakeOpenAIServer, fake_openai  # noqa: E402,F401
from streamlit.testing.v1 import AppTest  # noqa: E402

from agents.storage import filelock  # noqa: E402
from app.ui import game_store  # noqa: E402

APP = str(Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py")
SECRET = "sk-test-SECRET-7373"


@pytest.fixture
def home(tmp_path, monkeypatch, fake_openai: FakeOpenAIServer):  # noqa: F811
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    monkeypatch.setenv("STORYTABLE_EMBEDDINGS", "wordllama")  # fast static embeddings of ours
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("STORYTABLE_MODEL", "fake-model")
    yield tmp_path / "games"
    for code in list(game_store._REGISTRY):
        filelock.release(Path(code) / game_store.LOCK_NAME)
    game_store._REGISTRY.clear()
    for mem in list(game_store._MEMORIES.values()):
        try:
            mem.flush()
        except Exception:
            pass
    game_store._MEMORIES.clear()


def test_llm_gm_at_a_fubar_table(home):
    assert game_store.llm_available()
    at = AppTest.from_file(APP, default_timeout=240).run()
    assert not at.exception, at.exception
    at.selectbox(key="setup:ruleset").set_value("fubar").run()
    assert "llm" in at.selectbox(key="gsetup:fubar:kind:1").options or \
        "AI (language model)" in at.selectbox(key="gsetup:fubar:kind:1").options
    at.selectbox(key="gsetup:fubar:kind:1").set_value("llm")
    at.button(key="do:start").click()
    at.run()
    assert not at.exception, at.exception
    for _ in range(3):
        forms = at.get("form_submit_button")
        if not forms:
            break
        forms[0].click()
        at.run()
        assert not at.exception, at.exception
    code = at.query_params["table"]
    code = code[0] if isinstance(code, list) else code
    recs = [json.loads(x) for x in (home / code / "game.jsonl").read_text().splitlines()[1:]]
    gm = [r for r in recs if r["action"].get("player") == "Gina"]
    assert gm and all(r["meta"]["decided_by"] in ("llm", "heuristic") for r in gm)
    assert any(r["meta"]["decided_by"] == "llm" and not r["meta"].get("fallback") for r in gm), \
        "the fake model's answers are applied as the LLM GM's"
    assert json.loads((home / code / "table.json").read_text())["seats"][1]["kind"] == "llm"
    page = " ".join([m.value for m in at.markdown] + [c.value for c in at.caption] +
                    [w.value for w in at.warning] + [i.value for i in at.info])
    assert SECRET not in page
    assert SECRET not in (home / code / "game.jsonl").read_text()
