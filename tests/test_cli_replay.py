"""`storytable replay LOG`: the final state as JSON, and a damaged log refused with its line.

The logs are real games: heuristic players at `agents.table.Table` with seeded dice, written
to disk as they play. Most tests call `app.cli.main` in-process; one runs the installed
console script, as a user would.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agents.table import Table, heuristic_seats
from app.cli import main
from engine.core.dice import SeededDice
from engine.universalis.components import importance
from engine.universalis.replay import replay_text
from engine.universalis.views import summary

NAMES = ["Ann", "Ben", "Cat"]


def play(path: Path, steps: int = 400, stop=None) -> Table:
    t = Table.new(heuristic_seats(NAMES, seed=3), dice=SeededDice(11), log_path=path)
    t.run(stop=stop, max_steps=steps)
    return t


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tuple[Path, Table]:
    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    t = play(path)
    assert t.state.seq == 400 and t.state.scenes_ended >= 1 and t.state.complications_resolved >= 1, \
        "the seeded game should get past a scene end and a Complication"
    return path, t


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_replay_prints_the_final_state_as_json(game, capsys):
    path, t = game
    code, out, err = run_cli(capsys, path)
    assert code == 0, err
    data = json.loads(out)
    # exactly the state the table reached while playing, nothing lost on the way to disk
    assert data == json.loads(json.dumps(summary(t.state)))
    assert data["actions"] == 400
    players = {p["name"]: p for p in data["players"]}
    assert list(players) == NAMES
    for p in t.state.players:
        assert players[p.name]["wealth"] == p.wealth and players[p.name]["stake"] == p.stake
    # the Bank's totals in and out balance every player's coins (U-ECO-2)
    held = sum(p["wealth"] + p["stake"] for p in data["players"])
    assert held == 25 * len(NAMES) + data["bank"]["paid_out"] - data["bank"]["paid_in"]
    assert data["bank"]["paid_in"] > 0 and data["bank"]["paid_out"] > 0
    assert len(data["scenes"]) == len(t.state.scenes) and data["scenes"][0]["location"]
    assert data["scenes_ended"] == t.state.scenes_ended
    comps = {c["id"]: c for c in data["components"]}
    assert set(comps) == set(t.state.components)
    for cid, c in comps.items():
        assert c["importance"] == importance(t.state, cid)
        assert [x["text"] for x in c["traits"]] == [x.text for x in t.state.components[cid].traits]
    assert any(c["traits"] for c in comps.values())
    assert "complication" in data and data["complications_resolved"] >= 1


def test_replay_shows_an_open_complication(tmp_path, capsys):
    path = tmp_path / "open.jsonl"
    t = play(path, steps=2000, stop=lambda tb: tb.state.complication is not None)
    assert t.state.complication is not None
    code, out, err = run_cli(capsys, path)
    assert code == 0, err
    comp = json.loads(out)["complication"]
    assert comp["originator"] == t.state.complication.originator
    assert [p["pool"] for p in comp["pools"]][0] == "C" and len(comp["pools"]) >= 2
    assert comp["targets"]


def test_a_corrupted_line_is_refused_with_its_line_number_and_exit_2(game, tmp_path, capsys):
    path, _ = game
    lines = lines_of(path)
    lines[49] = '{"seq": 49, "action": {"type": "bid", "player"'  # line 50 of the file
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, bad)
    assert code == 2
    assert out == ""
    assert "line 50" in err and "not valid JSON" in err and "48 actions before it are valid" in err
    assert "--partial" in err and "Traceback" not in err


def test_partial_prints_the_state_before_the_damage(game, tmp_path, capsys):
    path, _ = game
    lines = lines_of(path)
    lines[49] = "garbage"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, bad, "--partial")
    assert code == 0
    data = json.loads(out)
    assert data["actions"] == 48
    assert data["damaged"]["line"] == 50
    assert "line 50" in err  # a warning, not silence
    good = replay_text("\n".join(lines[:49]) + "\n")
    assert good.error is None
    expected = json.loads(json.dumps(summary(good.state)))
    assert {k: v for k, v in data.items() if k != "damaged"} == expected


def test_a_truncated_log_keeps_its_valid_part(game, tmp_path, capsys):
    """A game cut off while writing its last line (a crash, a full disk)."""
    path, _ = game
    text = path.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: len(text) - 40], encoding="utf-8")
    n = len(lines_of(cut))
    code, out, err = run_cli(capsys, cut)
    assert code == 2 and out == ""
    assert f"line {n}" in err and "truncated" in err and "Traceback" not in err
    code, out, _ = run_cli(capsys, cut, "--partial")
    assert code == 0
    assert json.loads(out)["actions"] == n - 2  # the header and the cut line are not actions


def test_an_action_the_rules_refuse_names_its_line_and_rule(game, tmp_path, capsys):
    path, _ = game
    lines = lines_of(path)
    i = next(k for k, line in enumerate(lines) if '"type": "bid"' in line)
    rec = json.loads(lines[i])
    rec["action"]["amount"] = 999
    lines[i] = json.dumps(rec)
    bad = tmp_path / "cheat.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, bad)
    assert code == 2 and out == ""
    assert f"line {i + 1}" in err and "U-ECO-3" in err and "Traceback" not in err
    code, out, _ = run_cli(capsys, bad, "--partial")
    assert code == 0 and json.loads(out)["actions"] == i - 1


@pytest.mark.parametrize("content, words", [
    ("", "empty"),
    ("hello, world\n", "header is not valid JSON"),
    ('{"format": "something-else"}\n', "not a Storytable game log"),
    ('{"format": "storytable-log", "version": 1, "ruleset": "universalis", "config": {}}\n', "config"),
])
def test_not_a_game_log_is_refused_at_line_1(tmp_path, capsys, content, words):
    f = tmp_path / "x.jsonl"
    f.write_text(content, encoding="utf-8")
    code, out, err = run_cli(capsys, f)
    assert code == 2 and out == ""
    assert "line 1" in err and words in err and "Traceback" not in err


def test_missing_or_binary_file_is_a_message_not_a_traceback(tmp_path, capsys):
    code, out, err = run_cli(capsys, tmp_path / "nope.jsonl")
    assert code == 2 and "nope.jsonl" in err and "Traceback" not in err
    b = tmp_path / "b.jsonl"
    b.write_bytes(b"\xff\xfe\x00\x81binary")
    code, out, err = run_cli(capsys, b)
    assert code == 2 and "not text" in err and "Traceback" not in err


def console_script() -> list[str]:
    beside = Path(sys.executable).parent / "storytable"
    found = str(beside) if beside.exists() else shutil.which("storytable")
    assert found, "the storytable console script is not installed (pip install -e .)"
    return [found]


def test_the_installed_console_script(game, tmp_path):
    path, t = game
    ok = subprocess.run(console_script() + ["replay", str(path)], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == json.loads(json.dumps(summary(t.state)))
    lines = lines_of(path)
    lines[9] = "{oops"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    broken = subprocess.run(console_script() + ["replay", str(bad)], capture_output=True, text=True, timeout=120)
    assert broken.returncode == 2
    assert "line 10" in broken.stderr and "Traceback" not in broken.stderr and broken.stdout == ""
