"""The setup page's add-ons (issue 22): grouped as the book groups them, refused combinations in one
line naming the add-on, and the chosen add-ons recorded in the new table's log header."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app.ui import store  # noqa: E402
from engine.universalis.addon_registry import GROUPS, REGISTRY  # noqa: E402

APP = str(Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py")


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    return tmp_path / "games"


def fresh() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def test_setup_lists_every_addon_grouped_with_its_line(home):
    at = fresh()
    boxes = {w.key: w for w in at.checkbox if (w.key or "").startswith("setup:addon:")}
    assert set(boxes) == {f"setup:addon:{a.key}" for a in REGISTRY}
    text = " ".join(m.value for m in at.markdown)
    for g in GROUPS:
        assert f"{g} add-ons" in text
    captions = " ".join(c.value for c in at.caption)
    assert "lowering its Importance costs double" in captions
    assert boxes["setup:addon:free-dialog"].disabled


def test_a_refused_combination_is_one_line_naming_the_addon(home):
    at = fresh()
    at.checkbox(key="setup:addon:royalty").check().run()
    at.button(key="do:start").click().run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "Royalty refuses" in errors and "Greater Control" in errors
    assert not list(home.glob("*/game.jsonl")) if home.exists() else True


def test_the_chosen_addons_go_into_the_log_header(home):
    at = fresh()
    at.checkbox(key="setup:addon:durable").check().run()
    at.checkbox(key="setup:addon:protagonist-refresh").check().run()
    at.button(key="do:start").click().run()
    assert not at.exception, at.exception
    code = at.query_params["table"]
    code = code[0] if isinstance(code, list) else code
    header = json.loads((home / code / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["config"]["addons"] == {"durable_cost": 5, "protagonist_refresh": 7}
    lv = store.open_table(code)
    assert lv is not None and lv.table.state.config.addons.durable_cost == 5
