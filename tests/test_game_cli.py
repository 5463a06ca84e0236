"""`storytable simulate --game X --ai heuristic|llm` and `storytable eval --game X`, small sizes, in process.

The LLM runs talk to the strict fake server (real HTTP on 127.0.0.1), whose default answer is the
first legal shape of the requested schema: many such moves are refused by the rules, so these runs
exercise the retries and the fallbacks as much as the accepted answers; the game must still end.
"""
from __future__ import annotations

import json

import pytest
from fakeserver import FakeOpenAIServer, fake_openai  # noqa: F401

from app.cli import main
from eval.fubar_check import CHI2_CRITICAL_001, chi_square


def llm_env(monkeypatch: pytest.MonkeyPatch, server: FakeOpenAIServer, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)  # no storytable.toml here
    monkeypatch.delenv("STORYTABLE_CONFIG", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-7777777")
    monkeypatch.setenv("STORYTABLE_MODEL", "fake-model")
    monkeypatch.setenv("STORYTABLE_EMBEDDINGS", "wordllama")  # our fastest offline embedder


@pytest.mark.parametrize("game", ["fubar", "paganini", "vele"])
def test_simulate_with_llm_seats_plays_and_replays(fake_openai: FakeOpenAIServer, monkeypatch,  # noqa: F811
                                                  tmp_path, capsys, game: str) -> None:
    llm_env(monkeypatch, fake_openai, tmp_path)
    out = tmp_path / "game.jsonl"
    code = main(["simulate", "--game", game, "--ai", "llm", "--seats", "3", "--scenes", "1", "--seed", "4",
                 "--out", str(out), "--max-steps", "60"])
    text = capsys.readouterr().out
    assert code == 0
    assert "Decisions made by the model:" in text
    records = [json.loads(x) for x in out.read_text().splitlines()[1:]]
    by = {r.get("meta", {}).get("decided_by") for r in records}
    assert "llm" in by  # some first-legal-shape answers are accepted as the model's
    fell = [r["meta"] for r in records if r.get("meta", {}).get("fallback")]
    assert all(m["rationale"].startswith("the heuristic decided") or m["decided_by"] == "llm" for m in fell)
    assert (tmp_path / "index").is_dir()  # the seats' memory lives beside the log
    assert fake_openai.violations == []
    # the log replays to the same summary
    assert main(["replay", str(out)]) == 0


def test_simulate_llm_without_endpoint_is_one_line(monkeypatch, tmp_path, capsys) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--game", "fubar", "--ai", "llm"]) == 2
    err = capsys.readouterr().err
    assert "OPENAI_BASE_URL" in err and "Traceback" not in err


@pytest.mark.parametrize("game,expect", [("fubar", "Outcome ladder against the exact odds"),
                                         ("paganini", "exact keep-highest / keep-lowest d20 odds"),
                                         ("vele", "Dice conservation over")])
def test_eval_game_prints_speed_and_its_check(tmp_path, capsys, game: str, expect: str) -> None:
    out = tmp_path / "res.json"
    size = ["--games", "1"] if game == "vele" else []  # Vele's check replays every state: one story suffices
    code = main(["eval", "--game", game, "--quick", *size, "--out", str(out), "--report", str(tmp_path / "r")])
    text = capsys.readouterr().out
    assert code == 0, text
    assert expect in text and "speed" in text and f"{game} check: holds" in text
    res = json.loads(out.read_text())
    assert res["ok"] is True and res["game"] == game
    if game != "vele":
        assert (tmp_path / "r" / f"{game}_check.png").stat().st_size > 1000
    # an existing results file is never overwritten
    assert main(["eval", "--game", game, "--quick", "--out", str(out)]) == 2


def test_the_ladder_check_flags_a_biased_die() -> None:
    """F-3: the chi-square against the exact odds stays under p=0.001 for fair counts and not for a skewed die."""
    from engine.fubar import dice as D

    exact = [float(x) for x in D.result_odds(0)]
    fair = [round(3000 * p) for p in exact]
    skewed = fair[:]
    skewed[5] += 150  # "Yes, and" five points too often
    skewed[0] -= min(skewed[0], 150)
    assert chi_square(fair, exact)[0] < CHI2_CRITICAL_001[5] < chi_square(skewed, exact)[0]
