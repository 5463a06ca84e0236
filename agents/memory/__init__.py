"""Fact memory: every paid Fact of a game, searchable, so AI players stay consistent.

The thin API the CLI and the agents call:

    memory = GameMemory.attach(table)                 # a played game: index beside game.jsonl
    memory.check("Marissa swims the Mere", table.state).summary()
    index = open_index(game_dir_or_url, game_id, records_source=...)
    search(index, "who burned the woods?", k=10)      -> list[ScoredFact]
    check_contradiction("Marissa can swim", index)    -> ContradictionReport
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chromadb.api.types import Documents, EmbeddingFunction

from .e5 import E5EmbeddingFunction, make_second_embedding_function
from .contradiction import ContradictionReport, HeuristicJudge, LLMJudge, Verdict, check_contradiction
from .embeddings import (
    EmbeddingError,
    MiniLMEmbeddingFunction,
    OpenAICompatibleEmbeddingFunction,
    WordLlamaEmbeddingFunction,
    make_embedding_function,
)
from .game import GameMemory, fingerprint_of, records_from_state
from .index import FactIndex, MemoryIndexError, RecordsSource, log_fingerprint
from .records import FACT_KINDS, FactRecord
from .retrieval import HybridWeights, ScoredFact, context_for_decision, dense_search, hybrid_search

__all__ = [
    "FACT_KINDS",
    "ContradictionReport",
    "E5EmbeddingFunction",
    "EmbeddingError",
    "FactIndex",
    "FactRecord",
    "GameMemory",
    "HeuristicJudge",
    "HybridWeights",
    "LLMJudge",
    "MemoryIndexError",
    "MiniLMEmbeddingFunction",
    "OpenAICompatibleEmbeddingFunction",
    "RecordsSource",
    "ScoredFact",
    "Verdict",
    "WordLlamaEmbeddingFunction",
    "check_contradiction",
    "context_for_decision",
    "dense_search",
    "fingerprint_of",
    "hybrid_search",
    "log_fingerprint",
    "make_embedding_function",
    "make_second_embedding_function",
    "open_index",
    "records_from_state",
    "search",
]


def open_index(
    location: str | Path,
    game_id: str,
    *,
    embedding: EmbeddingFunction[Documents] | None = None,
    records_source: RecordsSource | None = None,
    second_embedding: EmbeddingFunction[Documents] | None = None,
) -> FactIndex:
    """The game's index at `<game_dir>/index` (or on a Chroma server URL), fresh if it can be.

    With `records_source` (returns the log's FactRecords and fingerprint) a
    stale, missing or corrupted index is rebuilt here; without it, check
    `index.is_stale(fingerprint)` and call `index.rebuild(...)` yourself.
    """
    index = FactIndex(location, game_id, embedding_function=embedding, records_source=records_source,
                      second_embedding_function=second_embedding)
    if records_source is not None:
        index.ensure_fresh()
    return index


def search(index: FactIndex, query: str, k: int = 10, **options: Any) -> list[ScoredFact]:
    """Hybrid search (see `hybrid_search` for options: current_scene, include_removed, kinds, weights)."""
    return hybrid_search(index, query, k, **options)
