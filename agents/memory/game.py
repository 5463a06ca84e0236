"""GameMemory: a played game's Facts in the index, kept in step with the table, and recalled for decisions.

Why a projection: the log is the truth. As the table applies actions the Facts
of the state are diffed against what was indexed (every FLUSH_EVERY actions and
before every read); new or reworded Facts are upserted, removed Traits are
marked (never deleted), and the log's fingerprint is stored so a later load
knows whether the index is current. A missing or corrupted index is rebuilt
from the replayed log; a stale one gets the difference.

    memory = GameMemory.attach(table)          # index in <dir of game.jsonl>/index
    memory.check("Marissa swims across", table.state).summary()
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chromadb.api.types import Documents, EmbeddingFunction

from .config import MemorySettings, load_memory_settings
from .contradiction import ContradictionReport, HeuristicJudge, Judge, LLMJudge, check_contradiction
from .e5 import make_second_embedding_function
from .embeddings import make_embedding_function
from .index import FactIndex, Progress, log_fingerprint
from .records import FactRecord
from .retrieval import (DEFAULT_WEIGHTS, PHRASE_WEIGHTS, SAME_SUBJECT_WEIGHTS, HybridWeights, ScoredFact,
                        context_for_decision, hybrid_search, traits_of_named)

__all__ = ["GameMemory", "fingerprint_of", "records_from_state", "replay_log", "stderr_progress"]

log = logging.getLogger(__name__)

#: Rebuilds with at least this many Facts show progress on stderr unless the caller passes its own.
LONG_REBUILD = 2000
#: Actions between two writes to the index while a table plays (reads always flush first).
FLUSH_EVERY = 20


def fingerprint_of(header: dict[str, Any], records: Sequence[Any]) -> str:
    """The log's fingerprint: number of actions and a hash of the last line (the header if none)."""
    if records:
        return log_fingerprint(len(records), records[-1].to_json())
    return log_fingerprint(0, header)


def records_from_state(state: Any, game_id: str) -> list[FactRecord]:
    """Every Fact of the state (removed ones included, flagged), with its component's elimination."""
    from engine.universalis.facts import facts_seen_by

    out = []
    for view in facts_seen_by(state):  # no seat: the shared memory never holds a secret (UA-ENIGMA-1)
        comp = state.components.get(view.component_id) if view.component_id else None
        rec = FactRecord.from_view(view, game_id)
        if comp is not None and comp.eliminated:
            rec = FactRecord(**{**rec.to_dict(), "eliminated": True})
        out.append(rec)
    return out


def replay_log(path: Path) -> Any:
    """The replayed game of a log file; a damaged or non-text file raises LogError naming the line."""
    from engine.universalis.replay import replay_bytes

    rep = replay_bytes(Path(path).read_bytes())
    if rep.error is not None:
        raise rep.error
    return rep


def stderr_progress(label: str = "rebuilding memory index") -> Progress:
    """A progress callback that rewrites one stderr line: `label: 512/2000 facts`."""

    def show(done: int, total: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\r{label}: {done}/{total} facts", end=end, file=sys.stderr, flush=True)

    return show


def _say(message: str) -> None:
    """A rebuild says so where a person running the table sees it (stderr), and in the log."""
    log.warning("%s", message)
    print(f"memory: {message}", file=sys.stderr, flush=True)


def _views_by_id(state: Any) -> dict[str, Any]:
    from engine.universalis.facts import facts_seen_by

    return {f.id: f for f in facts_seen_by(state)}


def scene_components(state: Any) -> set[str]:
    """Ids of the components on the table in the scene being played (present + location)."""
    sc = state.scene()
    if sc is None:
        return set()
    here = set(sc.present)
    if sc.location:
        here.add(sc.location)
    return here


class GameMemory:
    """One game's memory: the index, the live sync from the table, retrieval and the contradiction check."""

    def __init__(self, index: FactIndex, game_id: str, *, settings: MemorySettings | None = None,
                 judge: Judge | None = None) -> None:
        self.index = index
        self.game_id = game_id
        self.settings = settings or MemorySettings()
        self.token_budget = self.settings.token_budget
        # the weights every search of this game uses (the AI seats' decisions and `recall`): the defaults,
        # with the question's phrases embedded only when the settings ask for it
        self.weights = PHRASE_WEIGHTS if self.settings.link_phrases else DEFAULT_WEIGHTS
        self._judge = judge
        self._indexed: dict[str, FactRecord] = {}
        self._state: Any = None
        self._fingerprint: str | None = None
        self._dirty = 0  # actions applied since the index was last written
        self.table: Any = None
        self.status = "new"  # after opening: fresh | rebuilt | updated
        self.last: list[ScoredFact] = []  # what the last retrieval returned, with scores
        index.records_source = self._records_source  # corruption mid-game refills from the live state

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, game_dir: str | Path, game_id: str, state: Any, fingerprint: str, *,
             settings: MemorySettings | None = None, embedding: EmbeddingFunction[Documents] | None = None,
             judge: Judge | None = None, progress: Progress | None = None, rebuild: bool = False) -> "GameMemory":
        """The memory of a game whose log (replayed to `state`) lives in `game_dir`; fresh on return.

        `rebuild` drops whatever the index holds and refills it from the state (`storytable reindex`).
        """
        settings = settings or load_memory_settings()
        if embedding is None:
            kwargs = {"model": settings.embedding_model} if settings.embeddings == "openai" and \
                settings.embedding_model else {}
            embedding = make_embedding_function(settings.embeddings, **kwargs)
        location: str | Path = settings.chroma_url or Path(game_dir)
        # a server index keeps its retrieval cache beside the game (a local one inside its directory)
        cache_dir = Path(game_dir) / settings.index_dir if settings.chroma_url else None
        index = FactIndex(location, game_id, embedding_function=embedding, dir_name=settings.index_dir,
                          second_embedding_function=make_second_embedding_function(settings.second_embeddings),
                          cache_dir=cache_dir, progress=progress or stderr_progress("rebuilding the memory's "
                                                                                    "retrieval cache"))
        memory = cls(index, game_id, settings=settings, judge=judge)
        if rebuild:
            memory.rebuild(state, fingerprint, progress=progress)
        else:
            memory.ensure_fresh(state, fingerprint, progress=progress)
        return memory

    @classmethod
    def for_log(cls, log_path: str | Path, **kwargs: Any) -> tuple["GameMemory", Any]:
        """Replay a game log and open its memory beside it. A damaged log raises LogError."""
        path = Path(log_path)
        rep = replay_log(path)
        game_id = str(rep.header.get("game_id") or path.parent.name)
        memory = cls.open(path.parent, game_id, rep.state, fingerprint_of(rep.header, rep.records), **kwargs)
        return memory, rep

    @classmethod
    def attach(cls, table: Any, game_dir: str | Path | None = None, **kwargs: Any) -> "GameMemory":
        """Open the table's memory, index as it plays (listener) and fill its Observations (retriever).

        The memory is also left on `table.memory`, so players and front ends can call
        `check()` on a statement or `flush()` when the game stops.
        """
        if game_dir is None:
            if table.log_path is None:
                raise ValueError("a table without a log file needs an explicit game_dir for its memory")
            game_dir = Path(table.log_path).parent
        fingerprint = fingerprint_of(table.header, table.records)
        memory = cls.open(game_dir, table.game_id, table.state, fingerprint, **kwargs)
        memory.table = table
        table.listeners.append(memory.on_action)
        table.rewind_listeners.append(memory.on_rewind)
        table.retriever = memory.retriever
        table.memory = memory
        return memory

    # ------------------------------------------------------------------ syncing

    def _records_source(self) -> tuple[list[FactRecord], str]:
        if self._state is None:
            raise RuntimeError("memory has no game state to rebuild from yet")
        records = records_from_state(self._state, self.game_id)
        self._indexed = {r.id: r for r in records}
        # without a known log position the stored fingerprint stays empty: the next load re-checks
        return records, self._fingerprint or ""

    def ensure_fresh(self, state: Any, fingerprint: str, progress: Progress | None = None) -> str:
        """Make the index hold exactly the state's Facts; returns "fresh", "rebuilt" or "updated".

        Fingerprint and count agree: nothing to do. No fingerprint or an empty index
        (missing, or quarantined after corruption): rebuild everything. Otherwise
        (the game went on without its memory, or its last writes were not flushed)
        compare contents and write only the difference.
        """
        self._state, self._fingerprint, self._dirty = state, fingerprint, 0
        records = records_from_state(state, self.game_id)
        stored = self.index.fingerprint
        count = self.index.count()
        if stored == fingerprint and count == len(records):
            self._indexed = {r.id: r for r in records}
            self.status = "fresh"
        elif stored is None or count == 0:
            if records:
                _say(f"memory index of this game is missing or empty: rebuilding it from the game log "
                     f"({len(records)} facts)")
            self.rebuild(state, fingerprint, progress=progress)
        else:
            log.info("memory index for %s is behind the log (%s, %d facts for %d); updating",
                     self.game_id, stored, count, len(records))
            self._indexed = {r.id: r for r in self.index.all_records(include_removed=True)}
            self._apply(records, progress)
            self.index.set_fingerprint(fingerprint)
            self.status = "updated"
        return self.status

    def rebuild(self, state: Any, fingerprint: str, progress: Progress | None = None) -> int:
        """Drop the index and refill it from the state's Facts; returns how many were indexed."""
        self._state, self._fingerprint, self._dirty = state, fingerprint, 0
        records = records_from_state(state, self.game_id)
        if progress is None and len(records) >= LONG_REBUILD:
            progress = stderr_progress()
        self.index.rebuild(records, fingerprint, progress=progress)
        self._indexed = {r.id: r for r in records}
        self.status = "rebuilt"
        return len(records)

    def _apply(self, records: list[FactRecord], progress: Progress | None = None) -> int:
        """Write the difference between what is indexed and `records`; how many Facts changed."""
        changed = [r for r in records if self._indexed.get(r.id) != r]
        current = {r.id for r in records}
        gone = [i for i in self._indexed if i not in current]  # only after an undo: the log lost them
        if gone:
            self.index.forget(gone)
        if changed:
            self.index.add(changed, progress=progress)
        self._indexed = {r.id: r for r in records}
        return len(changed) + len(gone)

    def _observe_state(self, state: Any) -> None:
        """Note a state handed in by a caller (after an undo or a reload) so the next flush indexes it."""
        if state is None or state is self._state:
            return
        self._state = state
        table = self.table
        same_table = table is not None and table.state is state
        self._fingerprint = fingerprint_of(table.header, table.records) if same_table else None
        self._dirty += 1

    def flush(self) -> int:
        """Index what the actions since the last flush made true; store the log fingerprint reached."""
        if not self._dirty or self._state is None:
            return 0
        n = self._apply(records_from_state(self._state, self.game_id))
        if self._fingerprint is not None:
            self.index.set_fingerprint(self._fingerprint)
        self._dirty = 0
        return n

    close = flush

    def on_action(self, record: Any, events: Any) -> None:
        """Table listener: note the new state; write to the index every FLUSH_EVERY actions or before a read.

        Why batched: each Chroma write costs milliseconds (sqlite commits), while a
        game takes hundreds of actions and most create no Fact. Anything unflushed
        at a crash is found by the next load's check and indexed then.
        """
        table = self.table
        if table is None:
            return
        self._state = table.state
        self._fingerprint = fingerprint_of(table.header, table.records)
        self._dirty += 1
        if self._dirty >= FLUSH_EVERY:
            self.flush()

    def on_rewind(self, state: Any, kept: int) -> None:
        """Table rewind listener (undo): the log lost its last actions; forget their Facts now.

        Written at once rather than batched: an undo is rare, and the index on disk then
        matches the rewritten log (its fingerprint included).
        """
        table = self.table
        self._state = state
        same_log = table is not None and len(table.records) == kept
        self._fingerprint = fingerprint_of(table.header, table.records) if same_log else None
        self._dirty += 1
        try:
            self.flush()
        except Exception as exc:  # the undo stands; the next read flushes again
            log.warning("memory of %s could not follow the undo yet: %s", self.game_id, exc)

    # ------------------------------------------------------------------ reading

    def recall(self, query: str, k: int = 10, *, state: Any = None, include_removed: bool = False,
               kinds: Sequence[str] | None = None, weights: HybridWeights | None = None) -> list[ScoredFact]:
        """Hybrid search in this game's Facts, recency relative to the scene in play."""
        self._observe_state(state)
        self.flush()
        state = self._state
        scene = state.current_scene if state is not None else None
        return hybrid_search(self.index, query, k, current_scene=scene, include_removed=include_removed,
                             kinds=kinds, weights=weights or self.weights)

    def situation_query(self, state: Any, situation: str) -> str:
        """The words to search with: what just happened plus the names of who and where is on the table."""
        names = [state.components[c].label for c in sorted(scene_components(state)) if c in state.components]
        return " ".join([situation.strip()] + names).strip()

    def retriever(self, state: Any, player: str, situation: str) -> list[Any]:
        """Table hook: Tenets and the scene's Traits (exact, from the state), then recalled Facts within budget."""
        self._observe_state(state)
        self.flush()
        views = _views_by_id(state)
        here = scene_components(state)
        live = [v for v in views.values() if not v.removed]
        exact_views = sorted((v for v in live if v.kind == "tenet" or (v.kind == "trait" and v.component_id in here)),
                             key=lambda v: (v.seq, v.id))
        exact = [FactRecord.from_view(v, self.game_id) for v in exact_views]
        query = self.situation_query(state, situation)
        if query:
            chosen = context_for_decision(self.index, query, exact, self.token_budget,
                                          current_scene=state.current_scene, weights=self.weights)
        else:
            chosen = [ScoredFact(r, float("inf"), {"exact": 1.0}) for r in exact]
        chosen = [sf for sf in chosen if sf.record.id in views]  # the state is the truth for text and removal
        if query:  # a recalled Fact scored at or below zero is less like the situation than unrelated text
            chosen = [sf for sf in chosen if sf.score > 0]
        else:  # nothing has happened yet to search with: the latest Facts fill the budget
            from .retrieval import estimate_tokens

            used = sum(estimate_tokens(sf.record.text) for sf in chosen)
            seen = {sf.record.id for sf in chosen}
            for v in sorted(live, key=lambda v: (-v.seq, v.id)):
                cost = estimate_tokens(v.text)
                if v.id in seen or used + cost > self.token_budget:
                    continue
                used += cost
                chosen.append(ScoredFact(FactRecord.from_view(v, self.game_id), 0.0, {"recent": 1.0}))
        self.last = chosen
        return [views[sf.record.id] for sf in chosen]

    # ------------------------------------------------------------ contradiction

    @property
    def judge(self) -> Judge:
        """The configured judge, built on first use: an LLM judge if a chat model is configured."""
        if self._judge is None:
            self._judge = _make_judge(self.settings.judge)
        return self._judge

    def check(self, statement: str, state: Any = None, k: int = 8) -> ContradictionReport:
        """Which live Facts a proposed statement contradicts: Tenets, the k Facts closest to it, its subjects' Traits."""
        self._observe_state(state)
        self.flush()
        state = self._state
        candidates: list[FactRecord] = []
        if state is not None:
            views = _views_by_id(state)
            candidates = [FactRecord.from_view(v, self.game_id) for v in views.values()
                          if v.kind == "tenet" and not v.removed]
        seen = {c.id for c in candidates}
        for sf in self.recall(statement, k, state=state, weights=SAME_SUBJECT_WEIGHTS):
            if sf.record.id not in seen:
                seen.add(sf.record.id)
                candidates.append(sf.record)
        candidates += [t for t in traits_of_named(self.index, statement) if t.id not in seen]
        return check_contradiction(statement, candidates, self.judge)


def _make_judge(mode: str) -> Judge:
    """heuristic: offline. llm: the configured chat model (error if none). auto: llm if configured."""
    if mode == "heuristic" or (mode == "auto" and not _model_maybe_configured()):
        return HeuristicJudge()
    from agents.llm.config import ConfigError, is_configured, load_settings

    try:
        settings = load_settings()
    except ConfigError as exc:
        if mode == "llm":
            raise
        log.warning("LLM settings unusable (%s); contradiction checks use the offline judge", exc)
        return HeuristicJudge()
    if not is_configured(settings):
        if mode == "llm":
            raise ConfigError("[memory] judge = 'llm' but no chat model is configured (OPENAI_API_KEY or base_url)")
        return HeuristicJudge()
    from agents.llm.decider import make_chat_model

    return LLMJudge(make_chat_model(settings), method=settings.structured_method)


def _model_maybe_configured() -> bool:
    """Cheap pre-check before importing the LLM stack (seconds of imports): any key, URL or config file."""
    import os

    if any(os.environ.get(v, "").strip() for v in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG")):
        return True
    return (Path.cwd() / "storytable.toml").is_file()
