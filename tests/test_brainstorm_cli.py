"""`storytable brainstorm`: proposals shown, kept or dropped, kept Tenets start a new game log."""
from __future__ import annotations

import io
import re

import pytest

import app.commands.brainstorm as cmd
from app.cli import main
from engine.universalis.replay import replay_text


def test_keep_all_writes_a_new_game(tmp_path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "new.jsonl"
    code = main(["brainstorm", "--premise", "a haunted lighthouse", "--count", "4", "--keep-all",
                 "--out", str(out), "--players", "Ann,Bo,Cy"])
    assert code == 0
    text = capsys.readouterr().out
    assert "kept 4 of 4 Tenets" in text and "lighthouse" in text
    rep = replay_text(out.read_text())
    assert rep.error is None
    assert len(rep.state.tenets) == 4 and rep.state.phase == "prep"
    assert rep.header["config"]["premise"] == "a haunted lighthouse"
    assert [p.name for p in rep.state.players] == ["Ann", "Bo", "Cy"]


def test_person_drops_some(tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(cmd, "_interactive", lambda: True)
    monkeypatch.setattr("sys.stdin", io.StringIO("y\nn\n\nno\n"))
    out = tmp_path / "new.jsonl"
    assert main(["brainstorm", "--premise", "space smugglers", "--count", "4", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "kept 2 of 4 Tenets" in text and text.count("dropped") == 2
    rep = replay_text(out.read_text())
    shown = re.findall(r"\[\d+\] [a-z ]+ \(by [^)]+\): (.*)", text)
    assert [t.text for t in rep.state.tenets] == [shown[0], shown[2]]


def test_non_interactive_stdin_keeps_all(capsys: pytest.CaptureFixture, monkeypatch) -> None:
    monkeypatch.setattr(cmd, "_interactive", lambda: False)
    assert main(["brainstorm", "--premise", "noir", "--count", "3"]) == 0
    assert "kept 3 of 3 Tenets" in capsys.readouterr().out


def test_frames_from_a_saved_game(tmp_path, capsys: pytest.CaptureFixture) -> None:
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice

    log = tmp_path / "g.jsonl"
    table = Table.new(heuristic_seats(["Ann", "Bo"], seed=2), dice=SeededDice(2), log_path=log)
    table.run(stop=lambda t: t.state.scenes_ended >= 1, max_steps=3000)
    assert main(["brainstorm", "--from-game", str(log), "--count", "2", "--keep-all"]) == 0
    text = capsys.readouterr().out
    assert "kept 2 of 2 frames" in text and "scene frame" in text


@pytest.mark.parametrize("argv,message", [
    (["--from-game", "g.jsonl", "--out", "x.jsonl"], "cannot be used with --from-game"),
    (["--count", "0"], "--count must be between 1 and 30"),
    (["--from-game", "missing.jsonl"], "missing.jsonl"),
    (["--out", "x.jsonl", "--players", "Solo", "--keep-all"], "at least two"),
])
def test_user_errors_are_one_line(tmp_path, monkeypatch, capsys, argv, message) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["brainstorm", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_existing_game_is_never_overwritten(tmp_path, capsys) -> None:
    out = tmp_path / "saved.jsonl"
    out.write_text("precious\n")
    assert main(["brainstorm", "--premise", "noir", "--keep-all", "--out", str(out)]) == 2
    assert out.read_text() == "precious\n" and "already exists" in capsys.readouterr().err


def test_llm_without_endpoint_is_a_clear_error(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    assert main(["brainstorm", "--premise", "noir", "--ai", "llm", "--keep-all"]) == 2
    assert "OPENAI_BASE_URL" in capsys.readouterr().err


def test_frames_from_a_saved_game_use_its_premise(tmp_path, capsys: pytest.CaptureFixture) -> None:
    """The log's start record holds the premise: its places open the new frames (not a stock genre's)."""
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice

    log = tmp_path / "g.jsonl"
    premise = "A horror story on a fog-bound island where the lighthouse keeper's drowned family comes back to the house"
    table = Table.new(heuristic_seats(["Ann", "Bo"], seed=2), dice=SeededDice(2), log_path=log, premise=premise)
    table.run(stop=lambda t: t.state.scenes_ended >= 1, max_steps=3000)
    been = {c.label for c in table.state.components.values() if c.kind == "location"}
    fresh = [p for p in ("the fog-bound island", "the house") if p not in been]
    assert fresh, been
    assert main(["brainstorm", "--from-game", str(log), "--count", "3", "--keep-all"]) == 0
    text = capsys.readouterr().out
    assert f"arrives at {fresh[0]}" in text, text  # not a stock genre's place (nor a fantasy tavern)
