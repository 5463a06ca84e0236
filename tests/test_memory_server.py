"""A game's memory on a real Chroma server process (`chroma run`), as STORYTABLE_CHROMA_URL configures it.

Issue 26: the memory must keep up on a shared server too. The server is the installed chromadb's own
`chroma run`, started here on 127.0.0.1 and stopped after; the retrieval cache of a server index lives
beside the game (`cache_dir`), so reopening reads it and asks the server for no Facts. (The 10k-Fact
timings against a server live in eval/memory/latency.py.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from agents.memory import FactIndex, FactRecord
from agents.memory.config import ENV_CHROMA_URL, load_memory_settings
from agents.memory.embeddings import WordLlamaEmbeddingFunction, load_wordllama
from agents.memory.retrieval import hybrid_search
from eval.memory.latency import chroma_server

GAME = "server-game"
EMBEDDER = WordLlamaEmbeddingFunction()
FACTS = [
    FactRecord("o1", "Odo Fenwick is the ferryman of the Mere.", "trait", GAME, 1, "c-od", "Odo Fenwick", "ben", 1),
    FactRecord("t1", "Tam Pike hid a rusted key under the old bridge.", "event", GAME, 2, "c-tp", "Tam Pike", "ben",
               2),
    FactRecord("s1", "The Slytheran set the forest fire.", "event", GAME, 3, None, None, "ben", 3),
]


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    load_wordllama()
    with chroma_server(lambda message: None) as url:
        yield url


def test_server_index_writes_reads_and_reopens_from_its_cache(server_url: str, tmp_path: Path) -> None:
    url = load_memory_settings(env={ENV_CHROMA_URL: server_url}).chroma_url
    assert url == server_url
    index = FactIndex(url, GAME, embedding_function=EMBEDDER, cache_dir=tmp_path)
    index.add(FACTS, fingerprint="3:a")
    assert hybrid_search(index, "Who set the fire?", 1)[0].record.id == "s1"
    index.add([FactRecord("n1", "Tam Pike drowns in the Mere.", "event", GAME, 4, "c-tp", "Tam Pike", "ben", 4)])
    assert hybrid_search(index, "Who drowned?", 1)[0].record.id == "n1"  # the write is searchable at once
    reopened = FactIndex(url, GAME, embedding_function=EMBEDDER, cache_dir=tmp_path)
    assert not reopened.refilled_cache and reopened.count() == 4
    assert [sf.record.id for sf in hybrid_search(reopened, "What did Tam Pike hide?", 2)] == \
        [sf.record.id for sf in hybrid_search(index, "What did Tam Pike hide?", 2)]
    # another machine, without this game's cache: refilled from the server, nothing re-embedded
    elsewhere = FactIndex(url, GAME, embedding_function=EMBEDDER, cache_dir=tmp_path / "elsewhere")
    assert elsewhere.refilled_cache and {r.id for r in elsewhere.all_records()} == {"o1", "t1", "s1", "n1"}
    assert elsewhere.fingerprint == "3:a"
