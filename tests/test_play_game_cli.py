"""`storytable play --game fubar|paganini|vele`: a person at the terminal, scripted stdin, real engines."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.commands.play_game import make_table, play_loop
from app.errors import UserError

ROOT = Path(__file__).resolve().parents[1]


def _args(tmp_path, **kw):
    base = dict(game="fubar", humans="Ann", seats=4, ai="heuristic", out=str(tmp_path / "g.jsonl"), load=None,
                seed=3, premise="a western in a railroad town", scenes=2, role="player", dice="virtual", force=False)
    base.update(kw)
    return argparse.Namespace(**base)


def _script(*answers):
    it = iter(answers)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return ask, asked


def _human(path: Path, who: str = "Ann") -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [json.loads(x)["action"] for x in lines if json.loads(x)["meta"].get("decided_by") == "human"
            and json.loads(x)["action"].get("player") == who]


@pytest.mark.parametrize("game,role", [("fubar", "player"), ("fubar", "gm"), ("paganini", "player"),
                                       ("paganini", "gm"), ("vele", "player")])
def test_person_plays_by_taking_suggestions(tmp_path, game, role):
    """`a` takes the offline AI's suggestion for the person's seat; the log records each as the
    person's decision, in the person's role; q ends and the game is saved."""
    table = make_table(_args(tmp_path, game=game, role=role))
    assert table.roles["Ann"] == role and table.seats["Ann"] is None
    out: list[str] = []
    ask, _ = _script(*(["a"] * 8), "q")
    play_loop(table, ask, out.append)
    mine = _human(tmp_path / "g.jsonl")
    assert len(mine) == 8
    assert any("The game is saved in" in line for line in out)
    from engine.core.ruleset import replay_log_text
    rep = replay_log_text((tmp_path / "g.jsonl").read_text(encoding="utf-8"))
    assert rep.error is None and rep.applied == len(table.records)


def test_fields_typed_by_the_person_and_refusals(tmp_path):
    """FUBAR: the person types a character's name (Enter keeps the rest); a bad menu number and a
    bad yes/no answer get a message in words and change nothing."""
    table = make_table(_args(tmp_path))
    out: list[str] = []
    n_fields = 20
    ask, asked = _script("9", "1", "Vera Kade", *([""] * n_fields), "q")
    play_loop(table, ask, out.append)
    assert any("Type a number from 1 to" in line for line in out)
    mine = _human(tmp_path / "g.jsonl")
    assert mine and mine[0]["type"] == "create_character" and mine[0]["name"] == "Vera Kade"


def test_bad_yes_no_is_not_sent(tmp_path):
    table = make_table(_args(tmp_path, game="vele"))
    out: list[str] = []
    n = len(table.records)
    ask, _ = _script("h", "1", "many", "q")  # bid: not a number
    play_loop(table, ask, out.append)
    assert any("Commands:" in line for line in out)
    assert any("Not sent: bid: a number" in line for line in out)
    assert not _human(tmp_path / "g.jsonl")
    assert len(table.records) == n


def test_physical_dice_typed_in(tmp_path):
    """--dice physical: the person types the faces the ruleset asks for; a wrong count is asked
    again; the roll is logged as typed."""
    table = make_table(_args(tmp_path, game="paganini", role="gm"))
    ask, asked = _script(*(["a"] * 12), "q")
    out: list[str] = []

    def answer(prompt: str) -> str:
        if prompt.startswith("Roll "):
            count = int(prompt.split()[1])
            sides = int(prompt.split()[2][1:])
            answer.rolls += 1
            if answer.rolls == 1:
                return " ".join(["21"] * count)  # no d20 shows 21
            return " ".join(str(1 + (i * 7) % sides) for i in range(count))
        return ask(prompt)
    answer.rolls = 0
    play_loop(table, answer, out.append, physical=True)
    recs = [json.loads(x) for x in (tmp_path / "g.jsonl").read_text().splitlines()[1:]]
    typed = [r for r in recs if r["meta"].get("decided_by") == "dice (typed)"]
    assert typed, "a roll was typed in"
    assert all(r["meta"].get("decided_by") != "dice" for r in recs)
    assert any("Not a roll: " in line and "21 is not a face of a d20" in line for line in out)
    for faces in typed[0]["action"]["faces"].values():  # exactly what was typed
        assert faces == [1 + (i * 7) % 20 for i in range(len(faces))]


def test_load_goes_on_and_refuses_damage(tmp_path):
    """--load goes on with a saved game; a damaged log is refused in one line and left as it is."""
    path = tmp_path / "g.jsonl"
    table = make_table(_args(tmp_path))
    ask, _ = _script("a", "q")
    play_loop(table, ask, lambda s: None)
    n = len(table.records)
    again = make_table(_args(tmp_path, load=str(path)))
    assert len(again.records) == n and again.seats["Ann"] is None and again.seats["Gina"] is not None
    with open(path, "ab") as fh:
        fh.write(b"{broken\n")
    before = path.read_bytes()
    with pytest.raises(UserError, match="damaged at line"):
        make_table(_args(tmp_path, load=str(path)))
    assert path.read_bytes() == before
    with pytest.raises(UserError, match="not paganini"):
        make_table(_args(tmp_path, game="paganini", load=str(_fresh_fubar(tmp_path))))


def _fresh_fubar(tmp_path) -> Path:
    p = tmp_path / "f2.jsonl"
    make_table(_args(tmp_path, out=str(p)))
    return p


def test_cli_errors_are_one_line(tmp_path):
    """Bad input from the command line: one line, no traceback, nothing overwritten."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    existing = tmp_path / "kept.jsonl"
    existing.write_text("precious\n")
    cases = [
        (["--game", "vele", "--role", "gm"], "vele has no 'gm' seat"),
        (["--game", "fubar", "--out", str(existing)], "already exists"),
        (["--game", "fubar", "--humans", "Ann,Bob"], "one person"),
        (["--game", "paganini", "--load", str(tmp_path / "none.jsonl")], "no saved game"),
    ]
    for argv, words in cases:
        res = subprocess.run([sys.executable, "-m", "app.cli", "play", *argv], cwd=tmp_path, env=env,
                             capture_output=True, text=True, input="", timeout=120)
        assert res.returncode != 0, argv
        assert words in res.stderr, (argv, res.stderr)
        assert "Traceback" not in res.stderr
    assert existing.read_text() == "precious\n"


def test_llm_seats_without_an_endpoint_play_offline(tmp_path, monkeypatch):
    """--ai llm with no endpoint configured: each AI seat says in one line that it plays with the
    offline heuristic, and the game plays."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)  # no storytable.toml here
    said: list[str] = []
    table = make_table(_args(tmp_path, game="vele", ai="llm"), say=said.append)
    assert len(said) == 3 and all("plays with the offline heuristic" in s for s in said)
    assert all("/" not in s.split("(", 1)[0] for s in said)
    ask, _ = _script("a", "q")
    play_loop(table, ask, lambda s: None)
    assert _human(tmp_path / "g.jsonl")
