"""Undo tells the table's listeners: the fact memory and the app drop what the undone decision made.

The Table's action listeners hear of every applied action; after an undo its rewind listeners
hear the replayed state and how many log records were kept, so nobody keeps a Fact (or a wealth
line) the log no longer holds.
"""
from __future__ import annotations

from pathlib import Path

from agents.memory.game import GameMemory, fingerprint_of
from agents.table import Seat, Table
from engine.universalis import actions as A
from engine.universalis import pending
from engine.universalis.replay import replay_records

PEOPLE = ("Ann", "Ben", "Cat")
KEYS = "The lighthouse keeper hoards brass keys."


def _passes(table: Table) -> None:
    while pending(table.state).kind == "reaction":
        for p in pending(table.state).players:
            table.submit(A.Pass(player=p), {"decided_by": "human"})


def _live_ids(memory: GameMemory, query: str) -> list[str]:
    return [sf.record.id for sf in memory.recall(query, 10)]  # no state handed in: what the listener kept


def test_undo_tells_the_rewind_listeners_the_state_and_records_kept(tmp_path: Path) -> None:
    table = Table.new([Seat(n, None) for n in PEOPLE], log_path=tmp_path / "game.jsonl")
    heard: list[tuple[int, int]] = []
    table.rewind_listeners.append(lambda state, kept: heard.append((len(state.tenets), kept)))
    table.submit(A.ProposeTenet(player="Ann", text="Ghosts cannot cross running water."), {"decided_by": "human"})
    _passes(table)
    n = len(table.records)
    table.submit(A.ProposeTenet(player="Ben", text=KEYS), {"decided_by": "human"})
    table.undo()
    assert heard == [(1, n)] and len(table.records) == n
    table.undo(0)  # nothing undone: nobody is told
    assert heard == [(1, n)]


def test_undo_of_a_bought_fact_leaves_the_listener_driven_memory(tmp_path: Path) -> None:
    table = Table.new([Seat(n, None) for n in PEOPLE], log_path=tmp_path / "game.jsonl")
    memory = GameMemory.attach(table)
    table.submit(A.ProposeTenet(player="Ann", text="Ghosts cannot cross running water."), {"decided_by": "human"})
    _passes(table)
    table.submit(A.ProposeTenet(player="Ben", text=KEYS), {"decided_by": "human"})
    bought = table.state.tenets[-1].id
    assert bought in _live_ids(memory, "brass keys")  # indexed (the read flushed it)
    table.undo()
    assert bought not in _live_ids(memory, "brass keys")
    assert bought not in {r.id for r in memory.index.all_records(include_removed=True)}
    assert memory.index.fingerprint == fingerprint_of(table.header, table.records)  # the disk index is current
    # the next Fact may take the same id with other words: the memory holds the new words
    table.submit(A.ProposeTenet(player="Ben", text="The tide never turns on a Sunday."), {"decided_by": "human"})
    assert table.state.tenets[-1].id == bought
    got = {sf.record.id: sf.record.text for sf in memory.recall("tide Sunday", 10)}
    assert got.get(bought) == "The tide never turns on a Sunday."


def test_app_undo_brings_history_and_memory_along(tmp_path: Path, monkeypatch) -> None:
    from agents.seating import SeatSpec
    from app.ui import store

    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    lv = store.create(store.TableConfig([SeatSpec(n, "human") for n in PEOPLE]))
    t = lv.table
    memory = t.memory  # type: ignore[attr-defined]
    store.submit(lv, A.ProposeTenet(player="Ann", text="Ghosts cannot cross running water."))
    for p in pending(t.state).players:
        store.submit(lv, A.Pass(player=p))
    lv.wealth_history()  # the sidebar's chart: from here on it grows with every action
    n = len(t.records)
    store.submit(lv, A.ProposeTenet(player="Ben", text=KEYS))
    bought = t.state.tenets[-1].id
    assert len(lv.history) == len(t.records) + 1 and lv.history[-1]["Ben"] == lv.history[-2]["Ben"] - 1
    assert bought in _live_ids(memory, "brass keys")
    store.undo_to_human(lv)
    assert len(t.records) == n
    rep = replay_records(t.header, t.records, keep_states=True)
    assert lv.history == [{p.name: p.wealth for p in st.players} for st in rep.states]  # no recount needed
    assert bought not in _live_ids(memory, "brass keys")
    assert memory.index.fingerprint == fingerprint_of(t.header, t.records)
