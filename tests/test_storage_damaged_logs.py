"""Nothing saved is ever lost: a damaged log is never rewritten or truncated.

A corpus of damaged files (a line cut in half, a cut inside a UTF-8 character, a bad line in
the middle, bytes that are not text, an empty file, binary junk) is opened as a table on the
server. In every case the original bytes stay on disk exactly as they were: after the load,
and after the host goes on from the valid part (then under a second name beside the new log).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.seating import SeatSpec, make_seats
from agents.table import Table
from app.ui import store
from engine.core.dice import SeededDice
from engine.core.log import parse_log_bytes
from engine.universalis import actions as A
from engine.universalis import pending

SNOW = "Snow ☃ falls on the café — always."
NAMES = ["Ann", "Ben", "Cat"]


def good_log(path: Path) -> bytes:
    """A real game's log: three Tenets (the third, on line 4, not ASCII), then heuristic play."""
    table = Table.new(make_seats([SeatSpec(n, "heuristic") for n in NAMES], seed=1), dice=SeededDice(1),
                      log_path=path, premise="un café à Zürich")
    for text in ["No one lies at sea.", "The king is dead.", SNOW]:
        table.submit(A.ProposeTenet(player=pending(table.state).players[0], text=text))
        while pending(table.state).kind == "reaction":
            for p in pending(table.state).players:
                table.submit(A.Pass(player=p))
    table.run(max_steps=30)
    return path.read_bytes()


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> bytes:
    return good_log(tmp_path_factory.mktemp("good") / "game.jsonl")


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def cut_line(data: bytes) -> bytes:
    return data[:-25]  # the last line cut in half (a crash while writing)


def cut_utf8(data: bytes) -> bytes:
    at = data.index("☃".encode())
    return data[:at + 1]  # one byte of a three-byte character


def cut_utf8_then_more(data: bytes) -> bytes:
    """A cut inside a character, then whole lines (a torn write in the middle of the file)."""
    at = data.index("☃".encode())
    rest = data[data.index(b"\n", at):]
    return data[:at + 1] + rest


def bad_middle(data: bytes) -> bytes:
    lines = _lines(data)
    lines[9] = b'{"seq": 9, "action": {"type": "pass"'  # line 10
    return b"\n".join(lines)


def not_utf8_middle(data: bytes) -> bytes:
    lines = _lines(data)
    lines[11] = lines[11][:30] + b"\xff\xfe" + lines[11][30:]  # line 12
    return b"\n".join(lines)


#: name -> (damage, the damaged line, valid actions before it); the valid counts follow from
#: the corpus: line 1 is the header, line n holds action n - 1.
DAMAGED = {
    "cut line": (cut_line, None, None),  # the last line: filled in from the log's length
    "cut inside a UTF-8 character": (cut_utf8, 8, 6),
    "cut inside a character, lines after": (cut_utf8_then_more, 8, 6),
    "bad line in the middle": (bad_middle, 10, 8),
    "bytes not UTF-8 in the middle": (not_utf8_middle, 12, 10),
}
UNREADABLE = {
    "empty file": b"",
    "binary junk": bytes(range(256)) * 8,
    "junk after a text start": b"\x89PNG\r\n\x1a\n" + bytes(range(200)),
    "a header cut in half": None,  # filled in from the good log
}


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setattr(store, "_attach_memory", lambda live: None)  # the Facts memory is not under test here
    store._REGISTRY.clear()
    yield tmp_path / "games"
    store._REGISTRY.clear()


def place(home: Path, code: str, data: bytes) -> Path:
    d = home / code
    d.mkdir(parents=True)
    (d / "game.jsonl").write_bytes(data)
    return d / "game.jsonl"


def files_in(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.is_file() and p.name != store.LOCK_NAME}


def expected(good: bytes, name: str) -> tuple[bytes, int, int]:
    damage, line, valid = DAMAGED[name]
    data = damage(good)
    if line is None:
        line = len(_lines(good.rstrip(b"\n")))
        valid = line - 2
    return data, line, valid


@pytest.mark.parametrize("name", list(DAMAGED))
def test_a_damaged_log_loads_its_valid_part_and_keeps_every_byte(home, good, name):
    data, line, valid = expected(good, name)
    log = place(home, "DAMAGE", data)
    live = store.open_table("DAMAGE")
    assert live is not None
    assert log.read_bytes() == data  # opening wrote nothing
    assert len(live.table.records) == valid and live.table.damage.line == line
    note = store.damage_note(live)
    assert f"line {line}" in note and f"{valid} actions" in note and "kept exactly as it is" in note
    assert store.awaits_continue(live)
    assert store.run_ai(live) == 0  # the AI does not go on by itself from a damaged log
    assert log.read_bytes() == data
    assert (store.open_table("DAMAGE") is live) and log.read_bytes() == data  # opening again: the same

    kept = store.continue_damaged(live)  # the host goes on from the valid part
    assert kept == log.with_name("game.damaged-1.jsonl")
    assert kept.read_bytes() == data  # byte for byte
    new = parse_log_bytes(log.read_bytes())
    assert new.error is None and len(new.records) == valid
    assert store.run_ai(live, max_steps=5) > 0
    assert kept.read_bytes() == data
    assert "byte for byte" in store.damage_note(live) and "game.damaged-1.jsonl" in store.damage_note(live)

    store._REGISTRY.clear()  # a server restart: the new log is whole, the kept file untouched
    again = store.open_table("DAMAGE")
    assert again is not None and again.table.damage is None
    assert len(again.table.records) == len(live.table.records) > valid
    assert kept.read_bytes() == data


@pytest.mark.parametrize("name", list(DAMAGED))
def test_a_persons_action_on_a_damaged_log_keeps_it_aside_first(home, good, name):
    """Going on need not be a button: any first write keeps the damaged file before it writes."""
    data, _, valid = expected(good, name)
    log = place(home, "ACTS", data)
    live = store.open_table("ACTS")
    before = {k: v for k, v in files_in(home / "ACTS").items()}
    decider = pending(live.table.state).players[0]
    decision = live.table.seats[decider].player.decide(live.table.observe(decider))
    store.submit(live, decision.action)
    assert (home / "ACTS" / "game.damaged-1.jsonl").read_bytes() == before["game.jsonl"] == data
    new = parse_log_bytes(log.read_bytes())
    assert new.error is None and len(new.records) == valid + 1


@pytest.mark.parametrize("name", list(UNREADABLE))
def test_a_log_with_nothing_valid_is_left_alone_with_a_message(home, good, tmp_path, name):
    data = UNREADABLE[name] if UNREADABLE[name] is not None else good[:40]
    log = place(home, "BADHDR", data)
    assert store.open_table("BADHDR") is None
    why = store.why_not("BADHDR")
    assert "line 1" in why and "nothing was changed" in why and str(tmp_path) not in why
    assert "BADHDR/game.jsonl" in why
    assert files_in(home / "BADHDR") == {"game.jsonl": data}
    assert log.read_bytes() == data


def test_undo_on_a_damaged_log_keeps_it_aside_first(home, good):
    data, _, valid = expected(good, "bad line in the middle")
    log = place(home, "REWND", data)
    live = store.open_table("REWND")
    live.table.undo(2)
    assert (home / "REWND" / "game.damaged-1.jsonl").read_bytes() == data
    assert len(parse_log_bytes(log.read_bytes()).records) == valid - 2


def test_a_second_damage_is_kept_under_the_next_name(home, good):
    """Damaged twice (the new log cut too): both damaged files stay, numbered, none overwritten."""
    first = cut_line(good)
    log = place(home, "TWXCE", first)
    store.continue_damaged(store.open_table("TWXCE"))
    second = log.read_bytes()[:-10]
    log.write_bytes(second)
    store._REGISTRY.clear()
    store.continue_damaged(store.open_table("TWXCE"))
    assert (home / "TWXCE" / "game.damaged-1.jsonl").read_bytes() == first
    assert (home / "TWXCE" / "game.damaged-2.jsonl").read_bytes() == second


@pytest.mark.parametrize("name", list(DAMAGED))
def test_an_upload_cut_short_loads_its_valid_part(home, good, tmp_path, name):
    data, line, valid = expected(good, name)
    live = store.import_upload(data)
    assert len(live.table.records) == valid
    d = home / live.code
    assert (d / store.UPLOAD_KEPT).read_bytes() == data  # the uploaded bytes, as they came
    assert parse_log_bytes((d / "game.jsonl").read_bytes()).error is None
    note = " ".join(live.notes)
    assert f"line {line}" in note and f"{valid} actions" in note and str(tmp_path) not in note


@pytest.mark.parametrize("name", list(UNREADABLE))
def test_an_upload_with_nothing_valid_is_refused_and_writes_nothing(home, good, name):
    from engine.core.errors import LogError

    data = UNREADABLE[name] if UNREADABLE[name] is not None else good[:40]
    home.mkdir(parents=True, exist_ok=True)
    with pytest.raises(LogError) as exc:
        store.import_upload(data)
    assert exc.value.line == 1
    assert list(home.iterdir()) == []


def test_a_whole_upload_is_the_same_game(home, good):
    live = store.import_upload(good)
    assert live.table.damage is None and not (home / live.code / store.UPLOAD_KEPT).exists()
    assert live.table.log_text().encode() == good
    assert not live.notes


def test_load_file_never_writes_a_damaged_log(tmp_path, good):
    """Table.load_file (the terminal's --load) with allow_partial: nothing written until a write."""
    path = tmp_path / "game.jsonl"
    data = bad_middle(good)
    path.write_bytes(data)
    table = Table.load_file(path, allow_partial=True)
    assert path.read_bytes() == data and table.damage.line == 10
    kept = table.continue_log()
    assert kept is not None and kept.read_bytes() == data
    assert json.loads(path.read_text().splitlines()[0])["format"] == "storytable-log"


def test_a_whole_log_saved_without_its_last_newline_goes_on_without_gluing_two_lines(home, good):
    """An editor may drop the final newline: the log is whole, and the next record gets its own line."""
    log = place(home, "NXNL", good.rstrip(b"\n"))
    live = store.open_table("NXNL")
    assert live.table.damage is None and not store.awaits_continue(live)
    n = len(live.table.records)
    assert store.run_ai(live, max_steps=3) > 0
    parsed = parse_log_bytes(log.read_bytes())
    assert parsed.error is None and len(parsed.records) > n
    assert log.read_bytes().startswith(good)  # the bytes that were there stay, a newline added after them


def test_table_load_of_damaged_text_without_a_source_never_writes_to_its_log_path(tmp_path, good):
    path = tmp_path / "game.jsonl"
    data = cut_line(good)
    path.write_bytes(data)
    table = Table.load(data.decode("utf-8", "replace"), log_path=path, allow_partial=True,
                       seats_factory=lambda cfg: make_seats([SeatSpec(n, "heuristic") for n in NAMES], seed=1))
    assert path.read_bytes() == data
    assert table.run(max_steps=2).acted
    assert (tmp_path / "game.damaged-1.jsonl").read_bytes() == data
    assert parse_log_bytes(path.read_bytes()).error is None
