"""The console script never loses a saved game: `play` and `simulate` refuse to overwrite a log
(--force says so), and `play --load` of a damaged log goes on from its valid part without
writing to it (the damaged file is kept beside the new log, byte for byte)."""
from __future__ import annotations

import builtins
from pathlib import Path

import pytest

from app.cli import main
from engine.core.log import parse_log_bytes


def scripted(monkeypatch, *answers: str) -> None:
    """The person at the terminal types these lines, then the input ends."""
    it = iter(answers)

    def ask(prompt: str = "") -> str:
        if "(Enter = pass)" in prompt:
            return ""
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", ask)


def play(monkeypatch, *argv: str, answers: tuple[str, ...] = ("q",)) -> int:
    scripted(monkeypatch, *answers)
    return main(["play", "--humans", "Ann", "--seats", "3", "--seed", "2", *argv])


def test_play_refuses_to_overwrite_the_default_log(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert play(monkeypatch, answers=("1", "The sea remembers", "", "", "q")) == 0
    saved = (tmp_path / "game.jsonl").read_bytes()
    assert len(parse_log_bytes(saved).records) >= 1
    capsys.readouterr()
    assert play(monkeypatch) == 2
    err = capsys.readouterr().err
    assert "game.jsonl already exists" in err and "--load game.jsonl" in err
    assert "--out" in err and "--force" in err and "Traceback" not in err
    assert (tmp_path / "game.jsonl").read_bytes() == saved


def test_play_with_force_overwrites(tmp_path, monkeypatch):
    out = tmp_path / "g.jsonl"
    out.write_text("not a game\n")
    assert play(monkeypatch, "--out", str(out)) == 2
    assert out.read_text() == "not a game\n"
    assert play(monkeypatch, "--out", str(out), "--force") == 0
    assert parse_log_bytes(out.read_bytes()).error is None


def test_load_into_another_existing_out_is_refused_and_a_new_one_gets_the_whole_game(tmp_path, monkeypatch, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert play(monkeypatch, "--out", str(a), answers=("1", "The sea remembers", "", "", "q")) == 0
    original = a.read_bytes()
    b.write_text("keep me\n")
    assert play(monkeypatch, "--load", str(a), "--out", str(b)) == 2
    assert "b.jsonl already exists" in capsys.readouterr().err and b.read_text() == "keep me\n"
    b.unlink()
    assert play(monkeypatch, "--load", str(a), "--out", str(b), answers=("4", "q")) == 0
    assert a.read_bytes() == original  # the loaded game is not touched
    went_on = parse_log_bytes(b.read_bytes())
    assert went_on.error is None and len(went_on.records) > len(parse_log_bytes(original).records)
    assert b.read_bytes().startswith(original.split(b"\n", 1)[0])  # the same game: its header first


def _damaged_game(tmp_path: Path, monkeypatch) -> tuple[Path, bytes, int]:
    log = tmp_path / "game.jsonl"
    assert play(monkeypatch, "--out", str(log), answers=("1", "Snow ☃ falls on the café", "", "", "4", "q")) == 0
    data = log.read_bytes()
    at = data.index("☃".encode())
    cut = data[:at + 1]  # cut inside the snowman: a crash while writing that line
    log.write_bytes(cut)
    return log, cut, len(parse_log_bytes(cut).records)


def test_load_of_a_damaged_log_never_writes_it_and_keeps_it_when_the_game_goes_on(tmp_path, monkeypatch, capsys):
    log, cut, valid = _damaged_game(tmp_path, monkeypatch)
    capsys.readouterr()
    assert play(monkeypatch, "--load", str(log)) == 0  # opened and quit at once: nothing written
    err = capsys.readouterr().err
    assert "damaged at line" in err and f"The {valid} actions" in err and "game.damaged-1.jsonl" in err
    assert log.read_bytes() == cut and not (tmp_path / "game.damaged-1.jsonl").exists()

    assert play(monkeypatch, "--load", str(log), answers=("1", "The king is dead", "", "", "q")) == 0
    out = capsys.readouterr().out
    kept = tmp_path / "game.damaged-1.jsonl"
    assert kept.read_bytes() == cut and "kept as it was" in out
    went_on = parse_log_bytes(log.read_bytes())
    assert went_on.error is None and len(went_on.records) > valid


def test_load_of_a_damaged_log_into_a_new_out_leaves_it_alone(tmp_path, monkeypatch, capsys):
    log, cut, valid = _damaged_game(tmp_path, monkeypatch)
    new = tmp_path / "new.jsonl"
    assert play(monkeypatch, "--load", str(log), "--out", str(new), answers=("1", "The king is dead", "", "", "q")) == 0
    assert log.read_bytes() == cut and not (tmp_path / "game.damaged-1.jsonl").exists()
    assert len(parse_log_bytes(new.read_bytes()).records) > valid
    assert "is left as it is" in capsys.readouterr().err


def test_simulate_refuses_to_overwrite_its_out(tmp_path, capsys):
    out = tmp_path / "sim.jsonl"
    out.write_text("my notes\n")
    assert main(["simulate", "--seats", "2", "--scenes", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and "--force" in err and out.read_text() == "my notes\n"
    assert main(["simulate", "--seats", "2", "--scenes", "1", "--out", str(out), "--force"]) == 0
    assert parse_log_bytes(out.read_bytes()).error is None


def test_brainstorm_refuses_to_overwrite_its_out(tmp_path, capsys):
    out = tmp_path / "new.jsonl"
    out.write_text("my notes\n")
    assert main(["brainstorm", "--premise", "noir", "--out", str(out), "--keep-all"]) == 2
    assert "already exists" in capsys.readouterr().err and out.read_text() == "my notes\n"


@pytest.mark.parametrize("command", ["replay", "facts"])
def test_a_log_cut_inside_a_character_is_damaged_at_its_line_not_unreadable(tmp_path, monkeypatch, capsys, command):
    log, cut, valid = _damaged_game(tmp_path, monkeypatch)
    line = valid + 2
    capsys.readouterr()
    argv = [command, str(log)] + (["who?"] if command == "facts" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"line {line}" in err and "not text" not in err
    assert log.read_bytes() == cut


def test_facts_while_another_process_writes_the_index_is_one_clear_line(tmp_path, monkeypatch, capsys):
    """`storytable facts` beside a running server: the server holds the index; one line, exit 2."""
    import os
    import subprocess
    import sys

    log = tmp_path / "game.jsonl"
    assert play(monkeypatch, "--out", str(log), answers=("1", "The king is dead", "", "", "q")) == 0
    repo = Path(__file__).resolve().parents[1]
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from agents.storage import filelock; "
         "filelock.acquire(Path(sys.argv[1])); print('held', flush=True); sys.stdin.readline()",
         str(tmp_path / "index.lock")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=repo, env={**os.environ, "PYTHONPATH": str(repo)})
    try:
        assert holder.stdout.readline().strip() == "held"
        capsys.readouterr()
        assert main(["facts", str(log), "who is dead?"]) == 2
        err = capsys.readouterr().err
        assert f"process {holder.pid}" in err and "Traceback" not in err and str(tmp_path) not in err
        assert not (tmp_path / "index").exists()
    finally:
        holder.kill()
        holder.wait(timeout=30)
