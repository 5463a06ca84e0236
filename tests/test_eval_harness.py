"""`storytable eval --quick` end to end, its report, and `--compare` flagging a regression."""
from __future__ import annotations

import copy
import json

import pytest

from app.cli import main
from eval.compare import compare, direction, flatten

pytestmark = pytest.mark.slow  # a whole quick eval run: CI runs it with -m slow


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("eval")
    rc = main(["eval", "--quick", "--out", str(out / "results.json"), "--report", str(out / "report")])
    assert rc == 0
    return out, json.loads((out / "results.json").read_text())


def test_quick_run_has_every_figure(quick_run):
    _, res = quick_run
    sp = res["speed"]
    assert sp["games"] >= 1 and sp["failed_games"] == 0
    for key in ("games_per_s", "actions_per_s", "engine_actions_per_s", "engine_games_per_s",
                "reference_games_per_s", "engine_over_reference", "engine_seconds_per_game"):
        assert sp[key] > 0, key
    assert sp["reference_games_per_s"] > sp["engine_games_per_s"] > sp["games_per_s"]
    assert sp["memory"]["replay_peak_bytes"] > 0 and sp["memory"]["state_json_bytes"] > 0
    assert sp["memory"]["game_peak_bytes"] > 0
    assert [r["seats"] for r in res["scaling"]["by_seats"]] == [4, 6, 8]
    assert [r["scenes"] for r in res["scaling"]["by_scenes"]] == [1, 2, 3]
    ec = res["economy"]
    assert ec["games"] + ec["failed_games"] == 4
    assert ec["reference_disagreements"] == 0 and ec["pool_mismatches"] == 0
    assert ec["bonus_per_die"]["loser"] is not None and ec["bonus_per_die"]["loser"] >= 1
    assert ec["complications_per_scene"] >= 0 and "challenge_outcomes" in ec
    ai = res["ai"]
    assert "error" not in ai
    if ai["available"]:  # the LLM player exists: measured against the fake server (no model configured here)
        assert ai["decisions"] > 0 and ai["latency_s"]["model"] > 0
        assert set(ai["latency_s"]) >= {"engine", "memory", "model"}
    assert "retrieval" in res["memory"], res["memory"]
    row = res["memory"]["latency"]["sizes"][0]  # issue 26: the AI seats' hybrid query next to brute force
    assert row["facts"] == 1000 and row["hybrid"]["median_ms"] > 0 and row["brute"]["median_ms"] > 0
    assert row["first_query_s"] > 0 and len(row["targets"]) == 4
    assert res["meta"]["speed_is_single_process"] is True


def test_report_and_plots_exist(quick_run):
    out, _ = quick_run
    text = (out / "report" / "README.md").read_text()
    for heading in ("## Engine speed", "## How cost grows", "## AI decisions", "## Economy", "## Memory"):
        assert heading in text
    for png in ("speed.png", "scaling.png", "economy.png"):
        data = (out / "report" / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", png
        assert f"]({png})" in text


def test_compare_flags_a_slower_engine(quick_run, tmp_path, capsys):
    out, res = quick_run
    worse = copy.deepcopy(res)
    worse["speed"]["engine_actions_per_s"] /= 2
    worse["speed"]["engine_seconds_per_game"] *= 2
    (tmp_path / "new.json").write_text(json.dumps(worse))
    capsys.readouterr()
    rc = main(["eval", "--compare", str(out / "results.json"), str(tmp_path / "new.json")])
    text = capsys.readouterr().out
    assert rc == 1
    flagged = [line for line in text.splitlines() if line.endswith("WORSE")]
    assert any(line.startswith("speed.engine_actions_per_s ") and "-50.0%" in line for line in flagged)
    assert any(line.startswith("speed.engine_seconds_per_game ") for line in flagged)
    assert main(["eval", "--compare", str(out / "results.json"), str(out / "results.json")]) == 0
    assert "WORSE" not in capsys.readouterr().out


def test_compare_directions_and_bad_file(tmp_path, capsys):
    assert direction("speed.games_per_s") == 1
    assert direction("scaling.by_seats.6x10.engine_ms_per_action") == -1
    assert direction("ai.first_try_legal_rate") == 1
    assert direction("economy.complications_per_scene") == 0
    old = {"speed": {"games_per_s": 10.0}, "economy": {"complications_per_scene": 1.0}, "scaling": {
        "by_seats": [{"seats": 6, "scenes": 10, "engine_ms_per_action": 1.0}]}}
    new = {"speed": {"games_per_s": 12.0}, "economy": {"complications_per_scene": 2.0}, "scaling": {
        "by_seats": [{"seats": 6, "scenes": 10, "engine_ms_per_action": 1.5}]}}
    assert "scaling.by_seats.6x10.engine_ms_per_action" in flatten(old)
    verdicts = {r.path: r.verdict for r in compare(old, new) if r.verdict}
    assert verdicts == {"speed.games_per_s": "better", "economy.complications_per_scene": "changed",
                        "scaling.by_seats.6x10.engine_ms_per_action": "worse"}
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["eval", "--compare", str(bad), str(bad)]) == 2
    assert "not a results JSON file" in capsys.readouterr().err
