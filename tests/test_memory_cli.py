"""`storytable reindex` and `storytable facts` (in-process and one real subprocess), and a real Chroma server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from agents.memory.config import MemorySettings
from agents.memory.embeddings import load_wordllama
from agents.memory.game import GameMemory, records_from_state
from agents.table import Table, heuristic_seats
from app.cli import main
from engine.core.dice import SeededDice

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module", autouse=True)
def wordllama() -> object:
    return load_wordllama()


@pytest.fixture(autouse=True)
def offline_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No model or server configured, whatever the developer's shell holds."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG", "STORYTABLE_CHROMA_URL"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A played game saved without any memory: the commands must build it from the log alone."""
    path = tmp_path_factory.mktemp("cli") / "game.jsonl"
    table = Table.new(heuristic_seats(["ana", "ben", "cleo"], seed=5), dice=SeededDice(5), log_path=path)
    table.run(max_steps=500)
    return path


def test_reindex_then_facts_show_scores_and_provenance(game_log: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["reindex", str(game_log)]) == 0
    out, err = capsys.readouterr()
    assert "rebuilt the memory of game" in out and str(game_log.parent / "index") in out
    assert "indexing facts:" in err  # progress
    assert main(["facts", str(game_log), "who ambushed whom in the station", "-k", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["results"]) == 3 and data["note"] is None  # the index reindex built is fresh
    row = data["results"][0]
    assert {"score", "id", "kind", "scene", "component", "paid_by", "event", "removed", "signals", "text"} <= set(row)
    assert row["paid_by"] in ("ana", "ben", "cleo") and row["event"] >= 1 and row["signals"]["dense"] != 0
    scores = [r["score"] for r in data["results"]]
    assert scores == sorted(scores, reverse=True)
    assert main(["facts", str(game_log), "the tenets of this world", "-k", "2"]) == 0
    text = capsys.readouterr().out
    assert "paid by" in text and "event" in text and text.count("\n  1. ") + text.count("\n  2. ") == 2


def test_facts_rebuilds_a_missing_index_by_itself(game_log: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture) -> None:
    log = tmp_path / "game.jsonl"
    log.write_bytes(game_log.read_bytes())
    assert main(["facts", str(log), "who is on the derelict freighter", "-k", "1"]) == 0
    assert "was rebuilt from the log" in capsys.readouterr().out
    assert (tmp_path / "index" / "chroma.sqlite3").exists()


def test_check_option_names_contradicted_facts(game_log: Path, capsys: pytest.CaptureFixture) -> None:
    memory, rep = GameMemory.for_log(game_log)
    trait = next(t for c in rep.state.components.values() for t in c.live_traits() if t.kind == "plain"
                 and len(t.text.split()) >= 3 and not t.text.lower().startswith(("no ", "not ", "never ")))
    comp = next(c for c in rep.state.components.values() if trait in c.traits)
    statement = f"{comp.label} is not {trait.text.lower()}"
    assert main(["facts", str(game_log), statement, "--check", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["contradicts"] and trait.id in {f["id"] for f in data["facts"]}
    assert all(f["reason"] for f in data["facts"])


@pytest.mark.parametrize("content, needle", [
    ('{"bad', "damaged at line 1"),
    ("\x00\x01binary", "line 1"),
])
def test_bad_log_is_a_clear_message_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                content: str, needle: str) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(content)
    for argv in (["reindex", str(log)], ["facts", str(log), "anything"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err
    assert not (tmp_path / "index").exists()


def test_user_mistakes_exit_2(game_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cases = [
        (["facts", str(tmp_path / "missing.jsonl"), "x"], "No such file"),
        (["reindex", str(tmp_path)], "is a directory"),
        (["facts", str(game_log), "   "], "query is empty"),
        (["facts", str(game_log), "x", "-k", "0"], "at least 1"),
        (["facts", str(game_log), "x", "--chroma-url", "db:8000"], "http://"),
    ]
    for argv, needle in cases:
        assert main(argv) == 2, argv
        assert needle in capsys.readouterr().err


def test_console_script_in_a_real_process(game_log: Path) -> None:
    from agents.memory.index import close_local

    close_local(game_log.parent)  # the tests above used the index in this process: done with it
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "app.cli", "facts", str(game_log), "a hidden lower deck", "-k", "2"],
                          capture_output=True, text=True, timeout=180, env=env, cwd=str(game_log.parent))
    assert proc.returncode == 0, proc.stderr
    assert "top 2 for 'a hidden lower deck'" in proc.stdout and "paid by" in proc.stdout
    assert "Traceback" not in proc.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_chroma_server_via_url(game_log: Path, tmp_path: Path) -> None:
    """STORYTABLE_CHROMA_URL/--chroma-url: the same memory on a real `chroma run` server (HttpClient)."""
    port = _free_port()
    chroma = Path(sys.executable).with_name("chroma")
    server = subprocess.Popen([str(chroma), "run", "--path", str(tmp_path / "server"), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1).read()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "chroma server did not start"
                time.sleep(0.2)
        settings = MemorySettings(chroma_url=url)
        memory, rep = GameMemory.for_log(game_log, settings=settings)
        assert memory.index.url == url and memory.index.path is None and memory.status == "rebuilt"
        assert memory.index.count() == len(records_from_state(rep.state, rep.header["game_id"]))
        local, _ = GameMemory.for_log(game_log)
        query = "who ambushed whom in the station"
        assert [sf.record.id for sf in memory.recall(query, 5)] == [sf.record.id for sf in local.recall(query, 5)]
        again, _ = GameMemory.for_log(game_log, settings=settings)
        assert again.status == "fresh"
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_a_rebuild_and_a_cache_refill_say_so_and_never_touch_the_log(game_log: Path, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture) -> None:
    """Issue 26: an index that must be rebuilt says so with progress; the game log (the truth) keeps its bytes."""
    from agents.memory.derived import DERIVED_NAME
    from agents.memory.index import _evict_client

    log = tmp_path / "game.jsonl"
    log.write_bytes(game_log.read_bytes())
    before, mtime = log.read_bytes(), log.stat().st_mtime_ns
    assert main(["reindex", str(log)]) == 0
    assert "indexing facts:" in capsys.readouterr().err
    _evict_client(str((tmp_path / "index").resolve()))  # the next command is a new process: it opens anew
    for cache in (tmp_path / "index").glob(f"*.{DERIVED_NAME}"):
        cache.unlink()  # the retrieval cache lost: refilled from the index, with progress
    assert main(["facts", str(log), "who is on the derelict freighter", "-k", "1"]) == 0
    err = capsys.readouterr().err
    assert "rebuilding the memory's retrieval cache:" in err and "facts" in err
    assert log.read_bytes() == before and log.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl", "index", "index.lock"]
