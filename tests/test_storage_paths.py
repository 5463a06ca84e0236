"""Messages never show the server's absolute paths: a file under the games folder is shown
relative to it ($STORYTABLE_HOME), anything else by its name. Checked on the messages
themselves and on the page (AppTest), with the games folder under pytest's tmp directory."""
from __future__ import annotations

from pathlib import Path

import pytest

from agents.seating import SeatSpec
from agents.storage.paths import scrub, shown_path
from app.errors import public
from app.ui import store

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

APP = str(Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py")


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    store._REGISTRY.clear()
    yield tmp_path / "games"
    store._REGISTRY.clear()


def test_paths_are_shown_relative_to_the_games_folder_or_by_name(home, tmp_path):
    assert shown_path(home / "ABCD" / "game.jsonl") == "ABCD/game.jsonl"
    assert shown_path(tmp_path / "elsewhere" / "storytable.toml") == "storytable.toml"
    text = (f"cannot read {home}/ABCD/index/chroma.sqlite3 nor {tmp_path}/conf/storytable.toml: "
            f"see http://127.0.0.1:8000/v1/models, 1/2 and/or {home}")
    shown = scrub(text)
    assert str(tmp_path) not in shown
    assert "ABCD/index/chroma.sqlite3" in shown and " storytable.toml:" in shown
    assert "http://127.0.0.1:8000/v1/models" in shown and "1/2 and/or" in shown
    assert public(OSError(2, "No such file", str(tmp_path / "x" / "y.jsonl"))) == "[Errno 2] No such file: 'y.jsonl'"


def test_store_messages_hold_no_server_paths(home, tmp_path, monkeypatch):
    # an AI seat whose model configuration is broken sits as the heuristic; the note names the file only
    bad = tmp_path / "conf" / "storytable.toml"
    bad.parent.mkdir()
    bad.write_text("[llm\nmodel = ")
    monkeypatch.setenv("STORYTABLE_CONFIG", str(bad))
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")

    def refuse(cls, table, game_dir=None, **kw):  # the memory fails with a path in its message
        raise OSError(f"cannot open {Path(game_dir) / 'index' / 'chroma.sqlite3'}")

    import agents.memory.game as game_mod
    monkeypatch.setattr(game_mod.GameMemory, "attach", classmethod(refuse))
    config = store.TableConfig([SeatSpec("Ann", "llm"), SeatSpec("Ben", "heuristic")], seed=1)
    code = store.new_code()
    live = store.create(config, code=code)
    notes = " ".join(live.notes)
    assert "storytable.toml" in notes and "index" in notes  # the notes are there ...
    assert str(tmp_path) not in notes  # ... without the server's folders
    assert str(tmp_path) not in store.read_only_reason(code)
    (home / "NXLXG").mkdir()
    (home / "NXLXG" / "game.jsonl").write_bytes(b"\x00\x01")
    assert store.open_table("NXLXG") is None
    assert str(tmp_path) not in store.why_not("NXLXG") and "NXLXG/game.jsonl" in store.why_not("NXLXG")


def _page_text(at: AppTest) -> str:
    parts = [e.value for kind in ("error", "warning", "info", "caption", "markdown") for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


def test_the_page_for_a_missing_or_unreadable_table_shows_no_server_path(home, tmp_path):
    for code, content in (("ZZZZZZ", None), ("JXNKJX", b"\x89PNG\r\n\x1a\n junk")):
        if content is not None:
            (home / code).mkdir(parents=True)
            (home / code / "game.jsonl").write_bytes(content)
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["table"] = code
        at.run()
        assert not at.exception, at.exception
        text = _page_text(at)
        assert code in text and str(tmp_path) not in text and str(home) not in text
        if content is not None:
            assert "cannot be read" in text and (home / code / "game.jsonl").read_bytes() == content


def test_the_page_of_a_damaged_table_says_so_and_the_host_goes_on_from_it(home, tmp_path, monkeypatch):
    monkeypatch.setattr(store, "_attach_memory", lambda live: None)
    live = store.create(store.TableConfig([SeatSpec(n, "heuristic") for n in ("Ann", "Ben", "Cat")], seed=2))
    store.run_ai(live, max_steps=12)
    log = home / live.code / "game.jsonl"
    damaged = log.read_bytes()[:-9]
    log.write_bytes(damaged)
    store._REGISTRY.clear()
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["table"] = live.code
    at.run()
    assert not at.exception, at.exception
    text = _page_text(at)
    assert "damaged at line 13" in text and "11 actions" in text and str(tmp_path) not in text
    assert log.read_bytes() == damaged  # the page ran, the AI did not write
    at.button(key="do:continue-damaged").click().run()
    assert not at.exception, at.exception
    kept = home / live.code / "game.damaged-1.jsonl"
    assert kept.read_bytes() == damaged
    assert "byte for byte" in _page_text(at)
    from engine.core.log import parse_log_bytes
    assert parse_log_bytes(log.read_bytes()).error is None  # a new, whole log with the valid part
    at.button(key="do:ai").click().run()  # an all-AI table plays on when asked
    assert not at.exception, at.exception
    assert len(parse_log_bytes(log.read_bytes()).records) > 11 and kept.read_bytes() == damaged


def test_only_the_host_goes_on_from_a_damaged_log(home, tmp_path, monkeypatch):
    """A watcher of a hosted table sees the damage note but not the button that replaces the log."""
    from app.ui import seats

    monkeypatch.setattr(store, "_attach_memory", lambda live: None)
    live = store.create(store.TableConfig([SeatSpec(n, "heuristic") for n in ("Ann", "Ben", "Cat")], seed=2))
    host_token = seats.start(live)
    store.run_ai(live, max_steps=12)
    log = home / live.code / "game.jsonl"
    damaged = log.read_bytes()[:-9]
    log.write_bytes(damaged)
    store._REGISTRY.clear()
    watcher = AppTest.from_file(APP, default_timeout=60)
    watcher.query_params["table"] = live.code
    watcher.run()
    assert not watcher.exception, watcher.exception
    assert "damaged at line 13" in _page_text(watcher)
    assert not [b for b in watcher.button if b.key == "do:continue-damaged"]
    host = AppTest.from_file(APP, default_timeout=60)
    host.query_params["table"] = live.code
    host.query_params["seat"] = host_token
    host.run()
    assert [b for b in host.button if b.key == "do:continue-damaged"]
    assert log.read_bytes() == damaged


def test_every_new_table_code_is_a_valid_code(home, monkeypatch):
    """A code from token_urlsafe may start with "-" (one in 64), which valid_code refuses: such a
    table could never be opened again. new_code draws until the code is valid."""
    import secrets

    drawn = iter(["-startsWithDash_", "also-fine-code_1"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(drawn))
    code = store.new_code()
    assert code == "also-fine-code_1" and store.valid_code(code)
    monkeypatch.undo()
    assert all(store.valid_code(store.new_code()) for _ in range(2000))
