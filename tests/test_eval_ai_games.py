"""eval/ai_games.py and what it shares with eval/decisions.py: LLM seats of FUBAR, Paganini and Vele
measured per decision, out-of-turn asks included, refusals counted by their F-/P-/V- rule ids. The real
model plays them in tests/test_real_model_games.py; here the fake endpoint does, so this runs anywhere."""
from __future__ import annotations

import pytest

from agents.llm.fake import tool_call
from app.cli import main
from eval.decisions import DecisionLog, refusal_key
from tests.test_game_llm_player_interject import _beaten_again, table_with


@pytest.mark.parametrize(("text", "rule"), [("x (F-12)", "F-12"), ("x (F-TURN)", "F-TURN"), ("x (P-SCENE)", "P-SCENE"),
                                            ("x (V-45)", "V-45"), ("x (V-AMB-14)", "V-AMB-14"), ("x (U-COMP-1a)", "U-COMP-1a"),
                                            ("x (UA-DUR-1)", "UA-DUR-1"), ("x (GAME)", "GAME"), ("x (F 12)", "other")])
def test_refusals_are_counted_by_every_game_s_rule_ids(text: str, rule: str) -> None:
    assert refusal_key(text) == rule


def test_an_out_of_turn_ask_is_a_row_with_its_cost() -> None:
    """V-1 (L163): the model challenges out of turn; the row says so, with the tokens the seat's stats counted."""
    table, llm, _ = table_with(_beaten_again(), "Ben", [tool_call(
        "Interjection", {"act": "challenge", "text": "he is down already", "why": "unfair"}, tokens=(321, 12))])
    log = DecisionLog()
    log.watch(llm)
    assert table.interjection(table.ruleset.pending(table.state)) is True
    assert table.interjection(table.ruleset.pending(table.state)) is False  # the same moment: no second row
    [row] = log.as_dicts()
    assert row["kind"] == "interject" and row["by_model"] and row["first_try"] and row["attempts"] == 1
    assert (row["tokens_in"], row["tokens_out"]) == (321, 12)
    assert log.summary()["per_kind"]["interject"]["model_share"] == 1.0


def test_a_passed_out_of_turn_ask_keeps_its_reason() -> None:
    table, llm, _ = table_with(_beaten_again(), "Ben", [TimeoutError("slow"), TimeoutError("slow")])
    log = DecisionLog()
    log.watch(llm)
    assert table.interjection(table.ruleset.pending(table.state)) is False
    [row] = log.as_dicts()
    assert row["kind"] == "interject" and not row["by_model"] and row["fallback"] == llm.last_pass_reason != ""


@pytest.mark.parametrize("game", ["fubar", "vele"])
def test_llm_seats_of_a_game_are_measured_against_an_endpoint(game: str) -> None:
    from agents.llm.config import LLMSettings
    from eval.ai import fake_server
    from eval.ai_games import play_game_seats

    with fake_server(120) as server:
        cfg = LLMSettings(base_url=server.base_url, api_key="fake-key", model="fake-model", timeout_s=5.0)
        out = play_game_seats(game, cfg, "fake", seats=4, llm=2, seed=1, budget_s=60, max_asked=8)
    m = out["model"]
    assert out["llm_seats"] == (["Gina (gm)", "Ann"] if game == "fubar" else ["Gina", "Ann"])
    assert m["asked"] >= 8 and m["by_model"] >= 1 and len(out["rows"]) == m["decisions"]
    assert {r["seat"] for r in out["rows"]} <= {"Gina", "Ann"}
    prefix = game[0].upper() + "-"
    assert all(k.startswith(prefix) or k in ("other", "pre-send check") for k in m["engine_refusals_by_rule"]), m


def test_eval_game_local_model_names_the_registry_models(capsys) -> None:
    assert main(["eval", "--game", "vele", "--local-model", "my.gguf"]) == 2
    assert "smollm2" in capsys.readouterr().err
