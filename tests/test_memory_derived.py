"""The retrieval cache (agents/memory/derived.py): updated with each write, saved with the index, refilled when behind.

Issue 26: opening a table must not rebuild what retrieval derives from the index, and a write must
not throw it away. These tests check that what the cache holds after any series of writes is what a
fresh build from the same Facts holds (same search results and scores), that a reopened index reads
it without asking Chroma for its Facts, and that a missing or stale cache is refilled from Chroma.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from agents.memory import FactIndex, FactRecord
from agents.memory.bm25 import BM25, LiveBM25, tokenize
from agents.memory.derived import DERIVED_NAME
from agents.memory.embeddings import WordLlamaEmbeddingFunction, load_wordllama
from agents.memory.index import _evict_client, collection_name
from agents.memory.retrieval import hybrid_search

GAME = "derived-game"
EMBEDDER = WordLlamaEmbeddingFunction()  # fast; these tests are about bookkeeping, not recall
QUESTIONS = ["Who is the ferryman?", "What did Tam Pike hide?", "Where was the fire?", "Who is the duke?",
             "What happened at the old mill?", "Who died?"]


@pytest.fixture(scope="session", autouse=True)
def wordllama() -> object:
    return load_wordllama()


def fact(fid: str, text: str, comp: str | None, name: str | None, scene: int, kind: str, seq: int,
         removed: bool = False, place: str | None = None, mentions: tuple[str, ...] = (),
         origin: str | None = None) -> FactRecord:
    return FactRecord(fid, text, kind, GAME, scene, comp, name, "ben", seq, removed, place=place, mentions=mentions,
                      origin=origin)


FACTS = [
    fact("a1", "Aldric Vane is an exiled duke.", "c-al", "Aldric Vane", 1, "trait", 1),
    fact("o1", "Odo Fenwick is the ferryman of the Mere.", "c-od", "Odo Fenwick", 1, "trait", 2),
    fact("m0", "The old mill", "c-mill", "The old mill", 1, "trait", 3),
    fact("m1", "The old mill is guarded at night.", "c-mill", "The old mill", 2, "detail", 4, place="The old mill"),
    fact("a2", "Aldric sold his sword to Odo Fenwick.", "c-al", "Aldric Vane", 2, "event", 5,
         place="The old mill", mentions=("c-al", "c-od")),
    fact("s1", "The Slytheran set the forest fire.", None, None, 3, "event", 6),
    fact("t1", "Tam Pike hid a rusted key under the old bridge.", "c-tp", "Tam Pike", 3, "event", 7),
    fact("t2", "Tam Pike is a thief.", "c-tp", "Tam Pike", 3, "trait", 8),
    fact("o2", "Odo Fenwick drowned in the Mere.", "c-od", "Odo Fenwick", 4, "event", 9, origin="elimination"),
]


def results(index: FactIndex) -> list[list[tuple[str, float]]]:
    return [[(sf.record.id, round(sf.score, 5)) for sf in hybrid_search(index, q, 5, current_scene=4)]
            for q in QUESTIONS]


def test_incremental_writes_leave_the_cache_as_a_fresh_build_would(tmp_path: Path) -> None:
    live = FactIndex(tmp_path / "live", GAME, embedding_function=EMBEDDER)
    for rec in FACTS:  # one Fact at a time, searching in between, as a table plays
        live.add([rec])
        hybrid_search(live, "Who is the ferryman?", 3)
    live.add([fact("x1", "A stray dog follows Tam Pike.", "c-tp", "Tam Pike", 4, "event", 10)])
    live.mark_removed("t2")
    live.forget(["x1"])  # an undo
    reworded = fact("t1", "Tam Pike hid a silver key under the old bridge.", "c-tp", "Tam Pike", 3, "event", 7)
    live.add([reworded])
    final = [reworded if r.id == "t1" else FactRecord(**{**r.to_dict(), "removed": True}) if r.id == "t2" else r
             for r in FACTS]
    fresh = FactIndex(tmp_path / "fresh", GAME, embedding_function=EMBEDDER)
    fresh.rebuild(final, "9:x")
    assert live.all_records() == fresh.all_records()
    assert results(live) == results(fresh)
    d_live, d_fresh = live.derived, fresh.derived
    assert d_live.first_trait == d_fresh.first_trait and d_live.place_of == d_fresh.place_of
    assert {k: set(v) for k, v in d_live.groups["about"].items()} == {k: set(v) for k, v in d_fresh.groups["about"].items()}
    assert "t2" not in d_live.traits and "x1" not in d_live.records


def test_a_reopened_index_reads_its_saved_cache_and_asks_chroma_for_no_facts(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    index = FactIndex(tmp_path, GAME, embedding_function=EMBEDDER)
    index.add(FACTS, fingerprint="9:a")
    before = results(index)
    _evict_client(str((tmp_path / "index").resolve()))
    del index
    calls = []
    import chromadb.api.models.Collection as collection_module

    real_get = collection_module.Collection.get

    def counting_get(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(kwargs)
        return real_get(self, *args, **kwargs)

    monkeypatch.setattr(collection_module.Collection, "get", counting_get)
    reopened = FactIndex(tmp_path, GAME, embedding_function=EMBEDDER)
    assert not reopened.refilled_cache and calls == []
    assert results(reopened) == before and calls == []


@pytest.mark.parametrize("damage", ["delete", "behind"])
def test_a_missing_or_stale_cache_is_refilled_from_chroma(tmp_path: Path, damage: str) -> None:
    index = FactIndex(tmp_path, GAME, embedding_function=EMBEDDER)
    index.add(FACTS[:5], fingerprint="5:a")
    expected_records = None
    if damage == "delete":
        expected_records = index.all_records()
        expected = results(index)
    _evict_client(str((tmp_path / "index").resolve()))
    del index
    if damage == "delete":
        (tmp_path / "index" / f"{collection_name(GAME)}.{DERIVED_NAME}").unlink()
    else:  # another writer (or a crash between the two writes) added Facts the cache never saw
        import chromadb

        client = chromadb.PersistentClient(path=str((tmp_path / "index").resolve()))
        col = client.get_collection(collection_name(GAME), embedding_function=None)
        rest = FACTS[5:]
        col.upsert(ids=[r.id for r in rest], documents=[r.text for r in rest],
                   metadatas=[r.to_metadata() for r in rest],
                   embeddings=np.asarray(EMBEDDER([r.text for r in rest]), dtype=np.float32))
        _evict_client(str((tmp_path / "index").resolve()))
    seen: list[tuple[int, int]] = []
    reopened = FactIndex(tmp_path, GAME, embedding_function=EMBEDDER, progress=lambda d, t: seen.append((d, t)))
    assert reopened.refilled_cache and seen and seen[-1][0] == seen[-1][1]
    if damage == "delete":
        assert reopened.all_records() == expected_records and results(reopened) == expected
    else:
        assert {r.id for r in reopened.all_records()} == {r.id for r in FACTS}
        assert hybrid_search(reopened, "Who drowned in the Mere?", 1)[0].record.id == "o2"


def test_live_bm25_scores_as_a_fresh_bm25_after_additions_and_removals() -> None:
    rng = random.Random(3)
    words = "duke ferry mere sword mill fire key bridge thief drowned silver riders river".split()
    docs = {i: [rng.choice(words) for _ in range(rng.randint(1, 8))] for i in range(40)}
    live = LiveBM25()
    for i, d in docs.items():
        live.add(i, d)
    for i in range(0, 40, 3):
        live.remove(i)
        del docs[i]
    live.add(5, ["riders", "riders", "sword"])
    docs[5] = ["riders", "riders", "sword"]
    order = sorted(docs)
    fresh = BM25([docs[i] for i in order])
    for q in (["duke", "mill"], ["riders"], ["sword", "key", "absent"]):
        want = {order[j]: s for j, s in fresh.scores(q).items()}
        assert live.scores(q) == pytest.approx(want)
        assert live.query_mass(q) == pytest.approx(fresh.query_mass(q))
        weights = {t: 1.0 / (n + 1) for n, t in enumerate(q)}  # the shared _Ranked.weighted_scores and top
        assert live.weighted_scores(weights) == pytest.approx(
            {order[j]: s for j, s in fresh.weighted_scores(weights).items()})
        assert [s for _, s in live.top(q, 3)] == pytest.approx([s for _, s in fresh.top(q, 3)])
    fresh_terms = BM25([tokenize("midsummer worshippers of the summer king")])
    bm = LiveBM25()
    bm.add(0, tokenize("midsummer worshippers of the summer king"))
    assert bm.expand(tokenize("summer worshipping")) == fresh_terms.expand(tokenize("summer worshipping"))


def test_a_reloaded_game_reads_its_cache_and_its_ai_seats_search_it(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: reloading a played game reads its retrieval cache (no refill, no rebuild), and the AI seats'
    retriever goes through `hybrid_search` on that index: the function eval/memory/latency.py times."""
    import agents.memory.retrieval as retrieval
    from agents.memory.config import MemorySettings
    from agents.memory.game import GameMemory
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice

    settings = MemorySettings(embeddings="wordllama")
    table = Table.new(heuristic_seats(["ana", "ben", "cleo"], seed=5), dice=SeededDice(5),
                      log_path=tmp_path / "game.jsonl")
    memory = GameMemory.attach(table, settings=settings)
    table.run(max_steps=150)
    memory.flush()
    revision = memory.index.derived.revision
    _evict_client(str((tmp_path / "index").resolve()))
    reloaded, rep = GameMemory.for_log(tmp_path / "game.jsonl", settings=settings)
    assert reloaded.status == "fresh" and not reloaded.index.refilled_cache
    assert reloaded.index.all_records() == memory.index.all_records() and revision > 1
    searched = []
    real = retrieval.hybrid_search
    monkeypatch.setattr(retrieval, "hybrid_search", lambda index, *args, **kwargs: (
        searched.append((index, kwargs.get("weights"))), real(index, *args, **kwargs))[1])
    facts = reloaded.retriever(rep.state, "ana", "a fight at the docks")
    # the weights the latency eval measures (its hybrid_search calls take the defaults)
    assert searched and searched[0] == (reloaded.index, retrieval.DEFAULT_WEIGHTS) and facts
    assert not retrieval.DEFAULT_WEIGHTS.phrases


def test_an_unreadable_cache_file_is_kept_aside_and_refilled(tmp_path: Path) -> None:
    index = FactIndex(tmp_path, GAME, embedding_function=EMBEDDER)
    index.add(FACTS, fingerprint="9:a")
    expected = results(index)
    _evict_client(str((tmp_path / "index").resolve()))
    del index
    cache = tmp_path / "index" / f"{collection_name(GAME)}.{DERIVED_NAME}"
    for side in ("-wal", "-shm"):
        cache.with_name(cache.name + side).unlink(missing_ok=True)
    garbage = b"not a database at all " * 100
    cache.write_bytes(garbage)
    reopened = FactIndex(tmp_path, GAME, embedding_function=EMBEDDER)
    assert reopened.refilled_cache and results(reopened) == expected
    assert cache.with_name(f"{cache.name}.broken-1").read_bytes() == garbage  # its bytes kept
    _evict_client(str((tmp_path / "index").resolve()))
    assert not FactIndex(tmp_path, GAME, embedding_function=EMBEDDER).refilled_cache  # the new file serves


def _profiles(index: FactIndex) -> dict[str, tuple[str, ...]]:
    d = index.derived
    bm = d.profile_bm25
    return {d.profile_comps[doc]: terms for doc, terms in bm.docs.items()}


def test_a_full_profile_skips_later_facts_and_rereads_when_an_earlier_one_changes(tmp_path: Path) -> None:
    """Issue 26: a write re-reads a component's lexical profile only when the Fact can be in it (the profile is
    the first PROFILE_CHARS of its Facts): what the cache holds stays what a fresh build from the same Facts holds."""
    from agents.memory.derived import PROFILE_CHARS

    long = "The reeve counted barrels of eel oil and salted herring at the north sluice warehouse. "
    n_full = PROFILE_CHARS // len(long) + 3
    recs = [fact(f"r{i}", f"{long}Ledger page {i}.", "c-rv", "Reeve Harrow", 1, "event", i + 1) for i in range(n_full)]
    live = FactIndex(tmp_path / "live", GAME, embedding_function=EMBEDDER)
    live.add(recs)
    _profiles(live)  # read once: now full
    assert "c-rv" in live.derived._profile_full
    later = fact("late", "Reeve Harrow burned the smuggler's boat.", "c-rv", "Reeve Harrow", 2, "event", 500)
    live.add([later])
    assert "c-rv" not in live.derived._profile_dirty  # past the profile's end: nothing to re-read
    live.mark_removed("r0")  # an early Fact leaves the profile: it must be re-read
    assert "c-rv" in live.derived._profile_dirty
    fresh = FactIndex(tmp_path / "fresh", GAME, embedding_function=EMBEDDER)
    fresh.rebuild([FactRecord(**{**r.to_dict(), "removed": True}) if r.id == "r0" else r for r in recs] + [later],
                  "1:x")
    assert _profiles(live) == _profiles(fresh)
    assert "burned" not in " ".join(_profiles(live)["c-rv"])  # the late Fact is past the first PROFILE_CHARS
    assert [(sf.record.id, round(sf.score, 5)) for sf in hybrid_search(live, "Who counted the herring?", 5)] == \
        [(sf.record.id, round(sf.score, 5)) for sf in hybrid_search(fresh, "Who counted the herring?", 5)]


def test_without_phrases_a_query_embeds_the_question_and_its_rest_only(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: with `phrases` off (the default the AI seats use), the embedder sees one call per query: the
    question, and its rest when it says a name; the scores equal separate embeddings of the two."""
    from dataclasses import replace

    from agents.memory.retrieval import DEFAULT_WEIGHTS

    index = FactIndex(tmp_path / "q", GAME, embedding_function=EMBEDDER)
    index.add(FACTS)
    calls: list[list[str]] = []
    real = index.embed
    monkeypatch.setattr(index, "embed", lambda texts: (calls.append(list(texts)), real(texts))[1])
    lean = replace(DEFAULT_WEIGHTS, phrases=False)
    got = hybrid_search(index, "What did Tam Pike hide under the bridge?", 5, weights=lean)
    assert calls == [["What did Tam Pike hide under the bridge?", "What did hide under the bridge ?"]]  # `_without` as before
    assert got[0].record.id == "t1" and got[0].sources["rest"] > 0
    calls.clear()
    hybrid_search(index, "Who set the forest fire?", 5, weights=lean)
    assert calls == [["Who set the forest fire?"]]
    calls.clear()
    hybrid_search(index, "Who set the forest fire?", 5, weights=replace(DEFAULT_WEIGHTS, phrases=True))
    assert len(calls) > 1 and any(len(c) > 1 for c in calls)  # with phrases: the question's phrases too
