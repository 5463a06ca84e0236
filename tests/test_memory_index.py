"""FactIndex against real Chroma, offline, in tmp dirs."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from agents.memory import FactIndex, FactRecord, log_fingerprint, make_embedding_function, open_index
from agents.memory import index as index_mod
from agents.memory.embeddings import OpenAICompatibleEmbeddingFunction, load_wordllama
from agents.memory.retrieval import hybrid_search
from fakeserver import fake_openai  # noqa: F401 - fixture

GAME = "test game #1"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session", autouse=True)
def wordllama() -> object:
    """Load WordLlama once for the session (the module caches it per process)."""
    return load_wordllama()


def fact(fid: str, text: str, *, kind: str = "trait", scene: int | None = 1, comp: str | None = None,
         seq: int = 1, removed: bool = False, game: str = GAME) -> FactRecord:
    name = {"marissa": "Marissa Tournou", "odo": "Odo Fenwick", "aldric": "Aldric Vane"}.get(comp or "")
    return FactRecord(fid, text, kind, game, scene, f"c-{comp}" if comp else None, name, "ana", seq, removed)


RECORDS = [
    fact("t1", "All true love affairs end tragically.", kind="tenet", scene=None, seq=1),
    fact("m1", "Marissa Tournou is a trained killer.", comp="marissa", scene=1, seq=2),
    fact("m2", "Marissa cannot swim.", comp="marissa", scene=2, seq=5),
    fact("o1", "Odo Fenwick is the ferryman of the Mere.", comp="odo", scene=2, seq=6),
    fact("o2", "Odo Fenwick is blind but knows every channel by sound.", comp="odo", scene=3, seq=8),
    fact("e1", "The Slytheran set the forest fire.", kind="event", scene=3, seq=9),
    fact("a1", "Aldric Vane is an exiled duke.", comp="aldric", scene=1, seq=3),
    fact("a2", "Aldric sold his ancestral sword to pay the Grey Hounds.", kind="event", comp="aldric", scene=4,
         seq=12),
    fact("d1", "The market smells of eel smoke.", kind="detail", scene=4, seq=13),
]


def source(records: list[FactRecord]):
    fp = log_fingerprint(len(records), records[-1].id)
    calls: list[int] = []

    def records_source() -> tuple[list[FactRecord], str]:
        calls.append(1)
        return records, fp

    return records_source, fp, calls


def ids(results) -> list[str]:
    return [r.id for r, _ in results]


def test_add_query_get_and_fingerprint(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    assert ix.count() == 0 and ix.fingerprint is None
    ix.add(RECORDS[:5])
    ix.add(RECORDS[5:], fingerprint="9:abc")
    assert ix.count() == len(RECORDS)
    assert ix.fingerprint == "9:abc" and not ix.is_stale("9:abc") and ix.is_stale("10:def")
    top = ix.query("who burned the woods", 3)
    assert top[0][0].id == "e1"
    assert top[0][1] >= top[1][1] >= top[2][1]
    got = ix.get(["m2", "nope", "t1"])
    assert [r.id for r in got] == ["m2", "t1"]
    assert got[0] == RECORDS[2] and got[1].scene is None and got[1].component_id is None
    ix.add([RECORDS[2]])  # upsert: no duplicate
    assert ix.count() == len(RECORDS)


def test_upsert_rejects_another_games_fact(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    with pytest.raises(ValueError, match="another game"):
        ix.add([fact("x", "Elsewhere.", game="other")])


def test_two_games_share_a_dir_without_mixing(tmp_path: Path) -> None:
    a = FactIndex(tmp_path, "game a")
    b = FactIndex(tmp_path, "game/b?")  # odd characters still give a legal collection name
    a.add([fact("a", "A fact.", game="game a")])
    b.add([fact("b1", "B one.", game="game/b?"), fact("b2", "B two.", game="game/b?")])
    assert (a.count(), b.count()) == (1, 2)
    assert a.name != b.name


def test_removal_marks_never_deletes(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add(RECORDS)
    assert ix.mark_removed("e1") is True
    assert ix.mark_removed("no-such-fact") is False
    assert ix.count() == len(RECORDS)  # still stored
    assert "e1" not in ids(ix.query("who burned the woods", 9))
    with_removed = dict((r.id, r) for r, _ in ix.query("who burned the woods", 9, include_removed=True))
    assert with_removed["e1"].removed is True
    assert ix.get(["e1"])[0].removed is True
    assert "e1" not in [sf.record.id for sf in hybrid_search(ix, "who burned the woods", 9)]
    assert ix.mark_removed("e1", removed=False)
    assert "e1" in ids(ix.query("who burned the woods", 9))


def test_filters(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add(RECORDS)
    assert set(ids(ix.query("anything at all", 20, kind="event"))) == {"e1", "a2"}
    assert set(ids(ix.query("anything at all", 20, kind=["event", "tenet"]))) == {"e1", "a2", "t1"}
    assert set(ids(ix.query("anything at all", 20, scene=[2, 3]))) == {"m2", "o1", "o2", "e1"}
    assert set(ids(ix.query("anything at all", 20, component_id="c-odo"))) == {"o1", "o2"}
    assert set(ids(ix.query("anything at all", 20, component_id="c-aldric", kind="event"))) == {"a2"}
    ix.mark_removed("o2")
    assert set(ids(ix.query("anything", 20, component_id="c-odo"))) == {"o1"}
    assert set(ids(ix.query("anything", 20, component_id="c-odo", include_removed=True))) == {"o1", "o2"}


def test_rebuild_from_records_matches_live_index(tmp_path: Path) -> None:
    live = FactIndex(tmp_path / "live", GAME)
    for rec in RECORDS:  # the way a game fills it: one paid Fact at a time
        live.add([rec])
    live.mark_removed("d1")
    final = [r if r.id != "d1" else FactRecord(**{**r.to_dict(), "removed": True}) for r in RECORDS]
    rebuilt = FactIndex(tmp_path / "rebuilt", GAME)
    rebuilt.rebuild(final, "9:x")
    questions = ["who burned the woods", "can the boatman see", "what did the duke sell", "smell of the market"]
    for q in questions:
        assert live.query(q, 5) == rebuilt.query(q, 5)
        assert [sf.record.id for sf in hybrid_search(live, q, 5)] == [sf.record.id for sf in hybrid_search(rebuilt, q, 5)]
    assert rebuilt.fingerprint == "9:x"
    rebuilt.rebuild(final[:3], "3:y")  # rebuilding replaces, never appends
    assert rebuilt.count() == 3 and rebuilt.fingerprint == "3:y"


def _corrupt(db: Path) -> None:
    with db.open("r+b") as fh:
        fh.seek(0)
        fh.write(b"this is not a sqlite database " * 400)


def test_corrupted_sqlite_is_moved_aside_and_rebuilt(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    records_source, fp, calls = source(RECORDS)
    ix = open_index(tmp_path, GAME, records_source=records_source)
    assert ix.count() == len(RECORDS)
    mem = tmp_path / "index"
    index_mod._evict_client(str(mem.resolve()))  # as in a fresh process
    _corrupt(mem / "chroma.sqlite3")
    with caplog.at_level(logging.WARNING, logger="agents.memory.index"):
        again = open_index(tmp_path, GAME, records_source=records_source)
    assert again.count() == len(RECORDS) and again.fingerprint == fp
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index", "index.lock"]  # replaced, no copies
    assert again.recoveries == [mem.resolve()]
    assert any("unusable" in r.message for r in caplog.records)
    assert again.query("who burned the woods", 1)[0][0].id == "e1"


def test_corrupted_index_without_source_opens_empty_and_stale(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add(RECORDS, fingerprint="9:a")
    mem = (tmp_path / "index").resolve()
    index_mod._evict_client(str(mem))
    _corrupt(mem / "chroma.sqlite3")
    again = FactIndex(tmp_path, GAME)  # must not raise
    assert again.count() == 0 and again.is_stale("9:a")
    again.rebuild(RECORDS, "9:a")
    assert again.count() == len(RECORDS)
    _corrupt(mem / "chroma.sqlite3")
    index_mod._evict_client(str(mem))
    FactIndex(tmp_path, GAME)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index", "index.lock"]  # broken twice: still one


def test_missing_directory_while_open_is_rebuilt(tmp_path: Path) -> None:
    import shutil

    records_source, fp, _ = source(RECORDS)
    ix = open_index(tmp_path, GAME, records_source=records_source)
    shutil.rmtree(tmp_path / "index")
    again = open_index(tmp_path, GAME, records_source=records_source)
    assert again.count() == len(RECORDS) and again.fingerprint == fp
    assert (tmp_path / "index" / "chroma.sqlite3").exists()


def test_chroma_failure_repairs_and_retries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Queries read the retrieval cache (derived.py), so a broken Chroma shows on a write: repaired, retried."""
    records_source, _, calls = source(RECORDS)
    ix = FactIndex(tmp_path, GAME, records_source=records_source)
    ix.rebuild(RECORDS, "x")
    broken = ix._collection

    def explode(*args, **kwargs):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(broken, "upsert", explode)
    ix.add([fact("n1", "The ferry runs at dawn.", scene=5, seq=20)])  # no exception reaches the caller
    assert calls and ix.recoveries and ix._collection is not broken
    assert ix.query("who burned the woods", 1)[0][0].id == "e1"
    assert {r.id for r in ix.all_records()} == {r.id for r in RECORDS} | {"n1"}
    assert ix._collection.count() == len(RECORDS) + 1  # Chroma and the cache agree again


def test_open_index_rebuilds_only_when_stale(tmp_path: Path) -> None:
    records_source, fp, calls = source(RECORDS)
    open_index(tmp_path, GAME, records_source=records_source)
    n_calls = len(calls)
    ix = open_index(tmp_path, GAME, records_source=records_source)
    assert ix.count() == len(RECORDS) and len(calls) == n_calls + 1  # asked, found fresh
    more = RECORDS + [fact("n1", "A new fact.", scene=5, seq=20)]
    src2, fp2, _ = source(more)
    assert open_index(tmp_path, GAME, records_source=src2).count() == len(more)


def test_reopens_in_a_new_process_without_embedding_warnings(tmp_path: Path) -> None:
    FactIndex(tmp_path, GAME).add(RECORDS, fingerprint="9:p")
    index_mod.close_local(tmp_path)  # this process is done with it: the new one may write it
    code = (
        "import warnings; warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        f"    from agents.memory import FactIndex; ix = FactIndex({str(tmp_path)!r}, {GAME!r})\n"
        "    print(ix.count(), ix.fingerprint, ix.query('who burned the woods', 1)[0][0].id)\n"
        "bad = [str(w.message) for w in caught if 'mbedding' in str(w.message) or 'legacy' in str(w.message)]\n"
        "print('WARN', bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert f"{len(RECORDS)} 9:p e1" in out.stdout
    assert "WARN []" in out.stdout


def test_openai_compatible_embeddings_via_fake_server(tmp_path: Path, fake_openai) -> None:  # noqa: F811
    ef = make_embedding_function("openai", base_url=fake_openai.base_url, model="fake-embed", batch_size=4)
    assert isinstance(ef, OpenAICompatibleEmbeddingFunction)
    vecs = ef(["a", "b", "c", "d", "e"])  # two requests
    assert len(vecs) == 5 and abs(float((vecs[0] ** 2).sum()) - 1.0) < 1e-5
    config = ef.get_config()
    assert "api_key" not in config and config["base_url"] == fake_openai.base_url
    rebuilt = OpenAICompatibleEmbeddingFunction.build_from_config(config)
    assert (rebuilt(["a"])[0] == vecs[0]).all()
    ix = FactIndex(tmp_path, GAME, embedding_function=ef)
    ix.add(RECORDS)
    assert ix.query(RECORDS[3].text, 1)[0][0].id == RECORDS[3].id  # hash embeddings: exact text wins


def test_embedding_factory_rejects_unknown_kind() -> None:
    with pytest.raises(ValueError, match="unknown embedding kind"):
        make_embedding_function("bert")


# ------------------------------------------------------------------ one writer per index, across processes

#: a second process on the same index: opens it (rebuilding from RECORDS if it must), reports, waits
HOLDER = r"""
import sys
from agents.memory import open_index
from agents.memory.index import MemoryIndexError
from test_memory_index import GAME, RECORDS, source
records_source, fp, calls = source(RECORDS)
try:
    ix = open_index(sys.argv[1], GAME, records_source=records_source)
except MemoryIndexError as exc:
    print("refused", exc, flush=True)
else:
    print("writer", ix.count(), len(ix.recoveries), flush=True)
sys.stdin.readline()
"""


def _holder(game_dir: Path) -> subprocess.Popen:
    import os

    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{REPO / 'tests'}"}
    return subprocess.Popen([sys.executable, "-c", HOLDER, str(game_dir)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)


def _answer(proc: subprocess.Popen) -> str:
    line = proc.stdout.readline().strip()
    assert line, proc.stderr.read()[-2000:]
    return line


def test_a_second_process_cannot_open_an_index_another_one_writes(tmp_path: Path) -> None:
    other = _holder(tmp_path)
    try:
        assert _answer(other) == f"writer {len(RECORDS)} 0"
        with pytest.raises(index_mod.MemoryIndexError) as refused:
            FactIndex(tmp_path, GAME)
        message = str(refused.value)
        assert f"process {other.pid}" in message and "another Storytable process" in message
        assert str(tmp_path) not in message and "index" in message  # no server folders in the message
        assert sorted(p.name for p in tmp_path.iterdir()) == ["index", "index.lock"]
    finally:
        other.kill()  # SIGKILL: the lock goes with the process
        other.wait(timeout=60)
    ix = FactIndex(tmp_path, GAME)
    assert ix.count() == len(RECORDS) and ix.recoveries == []
    index_mod.close_local(tmp_path)


def test_two_processes_on_a_broken_index_rebuild_it_once_and_leave_no_copies(tmp_path: Path) -> None:
    records_source, _, _ = source(RECORDS)
    open_index(tmp_path, GAME, records_source=records_source)
    index_mod.close_local(tmp_path)  # this process steps back: two others now race for it
    _corrupt(tmp_path / "index" / "chroma.sqlite3")
    first, second = _holder(tmp_path), _holder(tmp_path)
    try:
        answers = sorted([_answer(first), _answer(second)])
    finally:
        for proc in (first, second):
            proc.kill()
            proc.wait(timeout=60)
    assert answers[0].startswith("refused") and "another Storytable process" in answers[0]
    assert answers[1] == f"writer {len(RECORDS)} 1"  # one writer, one rebuild
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index", "index.lock"]
    again = FactIndex(tmp_path, GAME)
    assert again.count() == len(RECORDS) and again.recoveries == []
    index_mod.close_local(tmp_path)


def test_a_broken_index_is_rebuilt_once_then_the_game_goes_on_without_it(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """No loop of rebuilds: after one, a failing index gives up its writes instead of rebuilding again.

    (Queries read the retrieval cache beside the index, so it is Chroma's writes that can break.)
    """
    records_source, _, calls = source(RECORDS)
    ix = FactIndex(tmp_path, GAME, records_source=records_source)
    ix.rebuild(RECORDS, "x")

    def explode(*args, **kwargs):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(chromadb_collection_type(ix), "upsert", explode)
    ix.add(RECORDS[:1])  # rebuilt once, still failing: no exception
    ix.add(RECORDS[:1])
    assert len(ix.recoveries) == 1 and len(calls) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index", "index.lock"]
    index_mod.close_local(tmp_path)


def chromadb_collection_type(ix: FactIndex) -> type:
    return type(ix._collection)
