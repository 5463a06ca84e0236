"""Memory for any ruleset: the Facts a ruleset exposes (`ruleset.facts(state)`) in a Chroma index.

Why a second memory beside GameMemory: GameMemory reads Universalis's state (its components, its
scenes, its FactViews). A ruleset instead hands out plain `MemoryFact`s (FUBAR's Details,
Conditions and answers; Paganini's narrated outcomes; Vele's traits and struggles), so this class
diffs those against what is indexed and writes only the difference, every FLUSH_EVERY actions and
before every read. The log stays the truth: the index can be rebuilt from a replay at any time.
A Fact that leaves the state (a Condition cleared) is marked removed, never deleted, so the story
keeps its history. Embeddings come from our own function (never chromadb's default, which would
download a model); the contradiction check is the same judge Universalis uses.

    memory = GameFactMemory.attach(table, game_dir)   # indexes as the table plays
    memory.recall("the guard at the gate")             # ScoredFact list
    memory.check("The guard is alive").contradicts
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from chromadb.api.types import Documents, EmbeddingFunction

from .config import load_memory_settings
from .contradiction import ContradictionReport, HeuristicJudge, Judge, check_contradiction
from .embeddings import make_embedding_function
from .index import FactIndex, log_fingerprint
from .records import FactRecord
from .retrieval import SAME_SUBJECT_WEIGHTS, ScoredFact, hybrid_search

__all__ = ["FLUSH_EVERY", "GameFactMemory", "records_of"]

log = logging.getLogger(__name__)

FLUSH_EVERY = 20  # actions between two writes while a table plays (reads always flush first)


def records_of(ruleset: Any, state: Any, game_id: str) -> list[FactRecord]:
    """The state's Facts as the index stores them (the ruleset's MemoryFacts, adapted)."""
    out = []
    for f in ruleset.facts(state):
        out.append(FactRecord(id=str(f.id), text=str(f.text), kind=str(f.kind), game_id=game_id, scene=f.scene,
                              component_id=f.subject, component_name=f.subject, paid_by=f.by, seq=int(f.seq),
                              removed=bool(f.removed), place=f.place))
    return out


def _current_scene(ruleset: Any, state: Any) -> int | None:
    scenes = [f.scene for f in ruleset.facts(state) if f.scene is not None]
    return max(scenes) if scenes else None


class GameFactMemory:
    """One game's Facts (any ruleset) in a FactIndex, kept in step with the table."""

    def __init__(self, ruleset: Any, game_id: str, index: FactIndex, judge: Judge | None = None) -> None:
        self.ruleset = ruleset
        self.game_id = game_id
        self.index = index
        self.judge: Judge = judge or HeuristicJudge()
        self.state: Any = None
        self.fingerprint: str | None = None
        self._indexed: dict[str, FactRecord] = {}
        self._dirty = 0
        self.writes = 0  # how many Facts were written (added, reworded or marked removed): for tests and eval

    @classmethod
    def open(cls, ruleset: Any, game_id: str, game_dir: str | Path,
             embedding: EmbeddingFunction[Documents] | None = None, judge: Judge | None = None,
             dir_name: str = "index") -> "GameFactMemory":
        """The index of `game_id` under `game_dir` (created if missing), with the configured embedding
        function of ours (`[memory] embeddings`, MiniLM by default), never chromadb's default."""
        if embedding is None:
            settings = load_memory_settings()
            kwargs = {"model": settings.embedding_model} if settings.embeddings == "openai" and \
                settings.embedding_model else {}
            embedding = make_embedding_function(settings.embeddings, **kwargs)
        ef = embedding
        index = FactIndex(game_dir, game_id, embedding_function=ef, dir_name=dir_name)
        memory = cls(ruleset, game_id, index, judge)
        memory._indexed = {r.id: r for r in index.all_records(include_removed=True)}
        return memory

    @classmethod
    def attach(cls, table: Any, game_dir: str | Path | None = None, **kwargs: Any) -> "GameFactMemory":
        """Open the memory of a GameTable's game and index as it plays (the table's listener).

        Without `game_dir` the index lives beside the table's log; a table without a log needs one."""
        if game_dir is None:
            if table.log_path is None:
                raise ValueError("a table without a log file needs an explicit game_dir for its memory")
            game_dir = Path(table.log_path).parent
        game_id = str(table.header.get("game_id") or "game")
        memory = cls.open(table.ruleset, game_id, game_dir, **kwargs)
        memory.sync(table.state, _fingerprint(table))
        table.listeners.append(memory.on_action)
        table.memory = memory
        return memory

    # -- writing -----------------------------------------------------------------------------------
    def sync(self, state: Any, fingerprint: str | None = None) -> int:
        """Make the index hold exactly the state's Facts now; how many Facts were written."""
        self.state, self.fingerprint = state, fingerprint
        self._dirty = 1
        return self.flush()

    def on_action(self, table: Any) -> None:
        """Table listener: note the new state; write every FLUSH_EVERY actions (Chroma writes cost ms)."""
        self.state, self.fingerprint = table.state, _fingerprint(table)
        self._dirty += 1
        if self._dirty >= FLUSH_EVERY:
            self.flush()

    def flush(self) -> int:
        """Write the difference between the state's Facts and the index: new and reworded ones upserted,
        vanished ones marked removed (kept as history)."""
        if not self._dirty or self.state is None:
            return 0
        records = records_of(self.ruleset, self.state, self.game_id)
        current = {r.id for r in records}
        changed = [r for r in records if self._indexed.get(r.id) != r]
        gone = [FactRecord(**{**old.to_dict(), "removed": True}) for i, old in self._indexed.items()
                if i not in current and not old.removed]
        writes = changed + gone
        if writes:
            self.index.add(writes, fingerprint=self.fingerprint)
            for r in writes:
                self._indexed[r.id] = r
        elif self.fingerprint is not None:
            self.index.set_fingerprint(self.fingerprint)
        self._dirty = 0
        self.writes += len(writes)
        return len(writes)

    close = flush

    # -- reading -----------------------------------------------------------------------------------
    def recall(self, query: str, k: int = 8) -> list[FactRecord]:
        """The live Facts most like `query` (hybrid search: embeddings, words, names, recency)."""
        return [sf.record for sf in self.search(query, k)]

    def search(self, query: str, k: int = 8) -> list[ScoredFact]:
        self.flush()
        if not query.strip() or self.index.count() == 0:
            return []
        scene = _current_scene(self.ruleset, self.state) if self.state is not None else None
        return [sf for sf in hybrid_search(self.index, query, k, current_scene=scene) if not sf.record.removed]

    def check(self, statement: str, k: int = 8) -> ContradictionReport:
        """Which live Facts `statement` contradicts, among the k most related to it."""
        self.flush()
        if not statement.strip() or self.index.count() == 0:
            return ContradictionReport(False, [], 0)
        scene = _current_scene(self.ruleset, self.state) if self.state is not None else None
        found = hybrid_search(self.index, statement, k, current_scene=scene, weights=SAME_SUBJECT_WEIGHTS)
        return check_contradiction(statement, [sf.record for sf in found if not sf.record.removed], self.judge)


def _fingerprint(table: Any) -> str:
    """The log position reached: number of actions and a hash of the last line (the header if none)."""
    if table.records:
        return log_fingerprint(len(table.records), table.records[-1].to_json())
    return log_fingerprint(0, table.header)
