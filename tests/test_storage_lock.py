"""One writer per table across processes: a second server process opens the table read-only.

The writer here is a real second Python process holding the table's lock; it is killed with
SIGKILL to show that the lock goes with the process (nothing stale is left behind).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.seating import SeatSpec
from agents.storage import filelock
from agents.table import TableReadOnly
from app.ui import store
from engine.core.log import parse_log_bytes
from engine.universalis import actions as A
from engine.universalis import pending

REPO = Path(__file__).resolve().parents[1]
CODE = "LXCKED"

#: a second server: opens the table, says whether it writes, plays AI steps on "play", stops on EOF
SERVER = r"""
import sys
from app.ui import store
store._attach_memory = lambda live: None
live = store.open_table(sys.argv[1])
print("reader" if live.read_only else "writer", flush=True)
for line in sys.stdin:
    if line.strip() == "play":
        live = store.open_table(sys.argv[1])
        print(store.run_ai(live, max_steps=int(sys.argv[2])), flush=True)
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setattr(store, "_attach_memory", lambda live: None)
    store._REGISTRY.clear()
    yield tmp_path / "games"
    store._REGISTRY.clear()
    filelock.release(tmp_path / "games" / CODE / store.LOCK_NAME)


def start_server(home: Path, steps: int = 6) -> subprocess.Popen:
    env = {**os.environ, "STORYTABLE_HOME": str(home), "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, CODE, str(steps)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    return proc


def ask(proc: subprocess.Popen, line: str | None = None) -> str:
    if line is not None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    out = proc.stdout.readline().strip()
    assert out, proc.stderr.read() if proc.poll() is not None else "no answer"
    return out


def make_table(home: Path) -> Path:
    """A table made by an earlier server (its lock is let go, as when that server stopped)."""
    live = store.create(store.TableConfig([SeatSpec(n, "heuristic") for n in ("Ann", "Ben", "Cat")], seed=3),
                        code=CODE)
    store.run_ai(live, max_steps=5)
    store._REGISTRY.clear()
    filelock.release(home / CODE / store.LOCK_NAME)
    return home / CODE / "game.jsonl"


def test_a_second_process_opens_the_table_read_only_and_takes_over_when_the_writer_dies(home):
    log = make_table(home)
    server = start_server(home)
    try:
        assert ask(server) == "writer"
        live = store.open_table(CODE)  # this process is the second server
        assert live is not None and live.read_only
        assert f"process {server.pid}" in live.read_only and "read-only" in live.read_only
        before = log.read_bytes()
        player = pending(live.table.state).players[0]
        with pytest.raises(TableReadOnly) as refused:
            store.submit(live, A.Pass(player=player))
        assert "read-only" in str(refused.value)
        assert store.run_ai(live) == 0
        assert live.set_seat_kind("Ann", "human") == live.read_only
        store.undo_to_human(live)
        assert log.read_bytes() == before and len(live.table.records) == len(parse_log_bytes(before).records)

        assert int(ask(server, "play")) > 0  # the writer plays on; the viewer follows its moves
        followed = store.open_table(CODE)
        assert followed.read_only and len(followed.table.records) == len(parse_log_bytes(log.read_bytes()).records)
        assert len(followed.table.records) > len(parse_log_bytes(before).records)
    finally:
        server.kill()  # SIGKILL: no clean-up code runs in the writer
        server.wait(timeout=30)
    taken = store.open_table(CODE)
    assert taken is not None and taken.read_only is None  # the lock died with its process
    assert store.run_ai(taken, max_steps=5) > 0
    parsed = parse_log_bytes(log.read_bytes())
    assert parsed.error is None  # one writer at a time: no duplicate sequence numbers
    assert [r.seq for r in parsed.records] == list(range(1, len(parsed.records) + 1))


def test_while_this_process_writes_a_second_one_is_read_only(home):
    log = make_table(home)
    live = store.open_table(CODE)
    assert live.read_only is None
    server = start_server(home)
    try:
        assert ask(server) == "reader"
        assert ask(server, "play") == "0"  # the reader plays nothing
        before = log.read_bytes()
        store.run_ai(live, max_steps=5)
        assert len(log.read_bytes()) > len(before)
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    assert parse_log_bytes(log.read_bytes()).error is None


def test_a_read_only_table_never_rewrites_its_damaged_log(home):
    """A viewer of a damaged table may not go on from it: that is the writer's (the host's) job."""
    log = make_table(home)
    data = log.read_bytes()[:-7]
    log.write_bytes(data)
    server = start_server(home)
    try:
        assert ask(server) == "writer"
        live = store.open_table(CODE)
        assert live.read_only and store.awaits_continue(live)
        with pytest.raises(TableReadOnly):
            store.continue_damaged(live)
        assert log.read_bytes() == data and not (home / CODE / "game.damaged-1.jsonl").exists()
    finally:
        server.kill()
        server.wait(timeout=30)


def test_the_page_of_a_table_another_server_writes_says_read_only(home, monkeypatch):
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    log = make_table(home)
    before = log.read_bytes()
    server = start_server(home)
    try:
        assert ask(server) == "writer"
        at = AppTest.from_file(str(REPO / "app" / "streamlit_app.py"), default_timeout=60)
        at.query_params["table"] = CODE
        at.run()
        assert not at.exception, at.exception
        warnings = " ".join(w.value for w in at.warning)
        warnings = warnings.replace("\\", "")  # the page escapes what it shows
        assert "read-only" in warnings and f"process {server.pid}" in warnings
        assert log.read_bytes() == before  # the page ran; the AI seats did not play here
    finally:
        server.kill()
        server.wait(timeout=30)
