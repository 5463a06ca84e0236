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
from engine.universalis.addons import Addons  # noqa: E402

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


def header_addons(at: AppTest, home: Path) -> dict:
    code = at.query_params["table"]
    code = code[0] if isinstance(code, list) else code
    first = (home / code / "game.jsonl").read_text(encoding="utf-8").splitlines()[0]
    return json.loads(first)["config"].get("addons", {})  # no add-on changed: no key


def test_settings_set_on_the_page_go_into_the_log_header_exactly(home):
    """A Literal (the Plot Thread variant), an int with its bounds (Extended Complications' cost) and the
    face-card Gimmick's J/Q/K mapping (Cards as Coins), set under their checked add-ons."""
    at = fresh()
    at.checkbox(key="setup:addon:plot-thread").check().run()
    variant = at.selectbox(key="setup:addon:plot-thread:plot_threads")
    assert variant.options == ["holter", "bradley", "mazza"]  # checked means on: "off" is no choice
    variant.select("mazza").run()
    at.checkbox(key="setup:addon:extended-complications").check().run()
    cost = at.number_input(key="setup:addon:extended-complications:extend_cost")
    assert (cost.value, cost.min, cost.max) == (1, 0, 100)  # the core value and the field's bounds
    cost.set_value(3).run()
    at.checkbox(key="setup:addon:cards-as-coins").check().run()
    at.checkbox(key="setup:addon:cards-as-coins:face_card_gimmick:keep").check().run()
    faces = {f: at.selectbox(key=f"setup:addon:cards-as-coins:face_card_gimmick:{f}") for f in "JQK"}
    assert {f: w.value for f, w in faces.items()} == {"J": "right", "Q": "left", "K": "across"}  # the book's
    faces["J"].select("left").run()
    at.selectbox(key="setup:addon:cards-as-coins:face_card_gimmick:Q").select("right").run()
    at.button(key="do:start").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert header_addons(at, home) == {"plot_threads": "mazza", "allow_extended": True, "extend_cost": 3,
                                       "currency": "cards_bank",
                                       "face_card_gimmick": {"J": "left", "Q": "right", "K": "across"}}


def test_a_setting_that_refuses_a_combination_shows_its_rule(home):
    """Split Allocation with the face cards kept (UA-SETUP-7): a message naming the rule, no table."""
    at = fresh()
    at.checkbox(key="setup:addon:multiple-targets").check().run()
    at.selectbox(key="setup:addon:multiple-targets:multi_target_mode").select("split").run()
    at.checkbox(key="setup:addon:cards-as-coins").check().run()
    at.checkbox(key="setup:addon:cards-as-coins:face_card_gimmick:keep").check().run()
    at.button(key="do:start").click().run()
    assert not at.exception, at.exception
    errors = " ".join(e.value for e in at.error)
    assert "refuses Split Allocation" in errors and "UA\\-SETUP\\-7" in errors
    assert "table" not in at.query_params


def test_setting_labels_and_help_are_escaped_one_line(home):
    at = fresh()
    at.checkbox(key="setup:addon:multiple-targets").check().run()
    tie = at.selectbox(key="setup:addon:multiple-targets:split_tie")
    assert tie.label == "Split tie" and tie.value == "core"
    assert "\\(core\\)" in tie.help and "\n" not in tie.help  # Markdown punctuation escaped



def test_each_addon_checked_alone_starts_as_the_cli_sets_it(home):
    """Untouched, the settings under a checked add-on are what `--addon NAME` sets (one parser): the
    table's log header holds the CLI's add-ons, or the page shows the CLI's refusal with its rule."""
    from engine.core.errors import RuleViolation
    from engine.universalis.addon_registry import addons_from_args

    for a in REGISTRY:
        if a.social:
            continue
        at = fresh()
        names = [w.value for w in at.text_input if (w.key or "").startswith("setup:name")]
        at.checkbox(key=f"setup:addon:{a.key}").check().run()
        adopted = Addons(**a.adopt)
        for w in [*at.selectbox, *at.number_input, *at.checkbox]:
            field = (w.key or "").removeprefix(f"setup:addon:{a.key}:")
            if field in Addons.model_fields:  # each setting shows what checking the add-on set
                want = getattr(adopted, field)
                assert w.value == (list(want) if isinstance(want, tuple) else want), (a.key, field, w.value)
        at.button(key="do:start").click().run()
        assert not at.exception, (a.key, at.exception)
        try:
            want = addons_from_args([a.key], names or None).changed()
        except RuleViolation as exc:
            assert exc.rule.replace("-", "\\-") in " ".join(e.value for e in at.error), a.key
            continue
        assert header_addons(at, home) == want, a.key


def test_every_setting_the_page_shows_has_its_own_line_of_help():
    """FIELD_HELP names real fields, and every field the page gives a widget has a line of its own
    (not the add-on's summary, the fallback)."""
    from app.ui.addon_settings import _kind, _switch
    from engine.universalis.addon_registry import FIELD_HELP

    assert set(FIELD_HELP) <= set(Addons.model_fields)
    shown = {f for a in REGISTRY for f in a.fields if not _switch(a, f) and _kind(f)[0] != "other"}
    assert shown - set(FIELD_HELP) == set()
    assert all("\n" not in line for line in FIELD_HELP.values())


def test_a_word_range_a_list_and_a_word_or_number_setting(home):
    """The PC paragraph's (fewest, most), the Setting phase's extra phases and a newcomer's Coins as a number."""
    at = fresh()
    for key in ("player-character", "pc-endowment", "pc-paragraph", "setting-phase", "new-players"):
        at.checkbox(key=f"setup:addon:{key}").check().run()
    lo = at.number_input(key="setup:addon:pc-paragraph:pc_paragraph_words:lo")
    assert (lo.value, at.number_input(key="setup:addon:pc-paragraph:pc_paragraph_words:hi").value) == (100, 200)
    lo.set_value(50).run()
    at.multiselect(key="setup:addon:setting-phase:extra_prep_phases").select("characters").run()
    at.selectbox(key="setup:addon:new-players:new_player_wealth").select("a number").run()
    at.number_input(key="setup:addon:new-players:new_player_wealth:n").set_value(12).run()
    at.button(key="do:start").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    got = header_addons(at, home)
    assert (got["pc_paragraph_words"], got["extra_prep_phases"], got["new_player_wealth"]) == ([50, 200],
                                                                                             ["characters"], 12)
    assert got["player_characters"] and got["pc_endowment"] == 25 and got["new_player_admission"] == "gimmick"
