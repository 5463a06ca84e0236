"""The add-ons on the command line (issue 22): `storytable addons`, `--addon` on simulate/play/eval."""
from __future__ import annotations

import json

from app.cli import main
from engine.universalis.addon_registry import GROUPS, REGISTRY


def test_storytable_addons_lists_them_grouped(capsys):
    assert main(["addons"]) == 0
    out = capsys.readouterr().out
    for g in GROUPS:
        assert f"{g} add-ons" in out
    for a in REGISTRY:
        assert a.key in out and f"L{a.line}" in out
    assert out.index("Game Preparation add-ons") < out.index("Intersession add-ons")


def test_simulate_with_addons_records_them_and_refuses_bad_ones(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main(["simulate", "--seats", "3", "--scenes", "1", "--addon", "durable", "--addon", "protagonist-refresh=8",
                 "--out", str(log)]) == 0
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["config"]["addons"] == {"durable_cost": 5, "protagonist_refresh": 8}
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    assert main(["simulate", "--seats", "3", "--scenes", "1", "--addon", "royalty"]) == 2
    err = capsys.readouterr().err
    assert "Royalty refuses" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_play_refuses_addons_on_a_loaded_game(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main(["simulate", "--seats", "3", "--scenes", "1", "--out", str(log)]) == 0
    capsys.readouterr()
    assert main(["play", "--load", str(log), "--addon", "durable"]) == 2
    assert "the add-ons its log was started with" in capsys.readouterr().err


def test_eval_economy_runs_under_the_addons(tmp_path, capsys):
    out = tmp_path / "res.json"
    assert main(["eval", "--quick", "--only", "economy", "--games", "2", "--addon", "extra-refresh",
                 "--addon", "protagonist-refresh", "--addon", "player-character", "--addon", "pc-endowment",
                 "--out", str(out)]) == 0
    res = json.loads(out.read_text(encoding="utf-8"))
    ec = res["economy"]
    assert ec["addons"] == {"first_scene_coins": "refresh", "protagonist_refresh": 7, "player_characters": True,
                            "pc_endowment": 25}
    assert ec["games"] == 2 and ec["failed_games"] == 0
    assert ec["games_with_unaccounted_coins"] == 0  # U-ECO-2 over every coin, the Endowments' included
