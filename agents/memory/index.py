"""FactIndex: one Chroma collection of a game's Facts, a rebuildable cache of the log.

Why these rules:
- The game log is the truth; the index can always be rebuilt from FactRecords.
  A stored fingerprint of the log (event count + hash of the last event) tells
  callers whether the index is behind.
- Nothing is deleted: a removed Fact is flagged in metadata, so history stays
  queryable ("what did we used to believe?").
- Chroma allows only one PersistentClient per path per process, so clients
  are cached per resolved path.
- One writer per index across processes: a process opens a local index only while
  it holds `<index>.lock` (an flock the kernel drops when the process dies); another
  process gets a MemoryIndexError at once and goes on without retrieval. Two
  processes writing one Chroma directory corrupt it, and each then "repaired" the
  other's work: that made a thousand `index.broken-N` folders.
- A corrupted index must never stop a game: it is rebuilt from the log once, in
  place of the broken one (which is deleted: it is a cache of the log), with a
  warning in the log. Nothing accumulates beside it.
- Vectors of two embedders cannot be compared (other model, often another
  dimension): a collection built by another embedder than the configured one is
  dropped on open and rebuilt from the log, never mixed or queried.
- A second embedder (e5, see e5.py) gets a second collection beside the first,
  written with it and rebuilt with it, so hybrid retrieval can score every Fact
  by both; when the two disagree on which Facts they hold, the second is refilled.
- Every read is served from `derived.Derived`: the Facts, their vectors and what
  retrieval derives from them, updated with each write and saved beside the index,
  so opening a table reads one file and dense search is exact (see derived.py).
  Chroma stays the store they are refilled from when that file is missing or behind.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

import chromadb
import numpy as np
from chromadb.api import ClientAPI
from chromadb.api.shared_system_client import SharedSystemClient
from chromadb.api.types import Documents, EmbeddingFunction
from chromadb.config import Settings
from chromadb.errors import NotFoundError

from agents.storage import filelock
from agents.storage.paths import shown_path

from .derived import DERIVED_NAME, Derived
from .embeddings import EmbeddingError, MiniLMEmbeddingFunction
from .records import FactRecord

__all__ = [
    "FactIndex",
    "MemoryIndexError",
    "RecordsSource",
    "collection_name",
    "log_fingerprint",
]

log = logging.getLogger(__name__)

INDEX_DIR_NAME = "index"  # beside game.jsonl in the game directory
SQLITE_NAME = "chroma.sqlite3"
_META_FINGERPRINT = "fingerprint"
_META_EMBEDDER = "embedder"
_META_SCHEMA = "schema"
#: What a stored Fact's metadata holds; an index written with another layout is rebuilt from the log.
#: 2: `place`, `mentions` and `origin` were added.
RECORD_SCHEMA = 2
_PAGE = 5000
# HNSW graph quality. Chroma's defaults (ef 100/100, 16 neighbours) returned only 79% of the
# exact top-10 at 10k Facts in eval/memory (near-duplicate Facts are common in a long game);
# these gave 95% for ~10% more query time. Applies to collections created from now on.
HNSW_CONFIG = {"space": "cosine", "ef_construction": 200, "ef_search": 200, "max_neighbors": 32}

#: Returns the game's FactRecords and the fingerprint of the log they came from.
RecordsSource = Callable[[], tuple[Sequence[FactRecord], str]]
#: Called as progress(done, total) while a rebuild embeds and stores Facts.
Progress = Callable[[int, int], None]
PROGRESS_BATCH = 256
T = TypeVar("T")

_CLIENTS: dict[str, ClientAPI] = {}
_CLIENTS_LOCK = threading.RLock()


_DERIVED: dict[str, Derived] = {}


def _shared_derived(file: Path | None, server_key: str) -> Derived:
    """One retrieval cache per index per process, as Chroma allows one client per path: two FactIndex
    objects on one game see each other's writes. A cache whose file vanished is started afresh."""
    key = str(file) if file is not None else server_key
    with _CLIENTS_LOCK:
        derived = _DERIVED.get(key)
        if derived is None or (file is not None and derived.loaded and not file.exists()):
            derived = _DERIVED[key] = Derived(file)
        return derived


class MemoryIndexError(RuntimeError):
    """The index could not be opened or repaired; the message says where (never the server's
    folders: see agents.storage.paths) and why."""


def lock_path(index_dir: Path) -> Path:
    """The lock file of a local index: beside its directory, which a rebuild replaces."""
    return index_dir.with_name(f"{index_dir.name}.lock")


def close_local(location: str | Path, dir_name: str = INDEX_DIR_NAME) -> None:
    """Forget this process's client of a local index and let go of its lock (another process may
    then open it). Only for a process that will not touch the index again."""
    path = (Path(location) / dir_name).resolve()
    _evict_client(str(path))
    filelock.release(lock_path(path))


def log_fingerprint(n_events: int, last_event: Any) -> str:
    """`<n>:<sha256 prefix of the last event>`; last_event may be str, bytes or JSON-able."""
    if isinstance(last_event, bytes):
        raw = last_event
    elif isinstance(last_event, str):
        raw = last_event.encode()
    else:
        raw = json.dumps(last_event, sort_keys=True, default=str).encode()
    return f"{int(n_events)}:{hashlib.sha256(raw).hexdigest()[:16]}"


def collection_name(game_id: str) -> str:
    """A Chroma-legal collection name (3-512 chars of [A-Za-z0-9._-]) unique per game id."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", game_id).strip("-._")[:40] or "game"
    return f"facts-{slug}-{hashlib.sha1(game_id.encode()).hexdigest()[:8]}"


def _reraise_if_fatal(exc: BaseException) -> None:
    """Rust panics from Chroma arrive as BaseException; only these must propagate.

    So does EmbeddingError: a missing model or unreachable embedding server is not
    a broken index, and moving the index aside would not cure it.
    """
    if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit, EmbeddingError)):
        raise exc


#: Config keys that say where an embedder runs, not which vectors it makes.
_PLACE_KEYS = frozenset({"base_url", "api_key_env_var"})


def embedder_identity(name: str | None, config: dict[str, Any] | None) -> tuple[str | None, dict[str, Any] | None]:
    """What must match for two collections' vectors to be comparable: the embedder's name and model settings."""
    if config is None:
        return name, None
    return name, {k: v for k, v in config.items() if k not in _PLACE_KEYS}


def _settings() -> Settings:
    return Settings(anonymized_telemetry=False)


def _evict_client(key: str) -> None:
    """Forget a cached client and Chroma's shared system for that path (they may hold a broken DB)."""
    with _CLIENTS_LOCK:
        for cached in [k for k in _DERIVED if Path(k).parent == Path(key)]:  # memory-speed: its retrieval caches too
            del _DERIVED[cached]
        client = _CLIENTS.pop(key, None)
        if client is not None:
            try:
                client.close()  # type: ignore[attr-defined]
            except BaseException as exc:  # noqa: BLE001
                _reraise_if_fatal(exc)
        system = SharedSystemClient._identifier_to_system.pop(key, None)
        SharedSystemClient._identifier_to_refcount.pop(key, None)
        if system is not None:
            try:
                system.stop()
            except BaseException as exc:  # noqa: BLE001 - a half-started system may not stop cleanly
                _reraise_if_fatal(exc)


def _persistent_client(path: Path) -> ClientAPI:
    key = str(path)
    with _CLIENTS_LOCK:
        cached = _CLIENTS.get(key)
        if cached is not None and not (path / SQLITE_NAME).exists():
            log.warning("memory index at %s vanished while open; starting a new one", path)
            _evict_client(key)
            cached = None
        if cached is None:
            path.mkdir(parents=True, exist_ok=True)
            try:
                cached = chromadb.PersistentClient(path=key, settings=_settings())
            except BaseException as exc:  # noqa: BLE001
                _reraise_if_fatal(exc)
                _evict_client(key)  # Chroma keeps the failed system under this path otherwise
                raise
            _CLIENTS[key] = cached
        return cached


def _http_client(url: str) -> ClientAPI:
    with _CLIENTS_LOCK:
        if url not in _CLIENTS:
            parsed = urlparse(url if "://" in url else f"http://{url}")
            if not parsed.hostname:
                raise MemoryIndexError(f"bad Chroma server URL {url!r}: expected http://host:port")
            ssl = parsed.scheme == "https"
            _CLIENTS[url] = chromadb.HttpClient(
                host=parsed.hostname, port=parsed.port or (443 if ssl else 8000), ssl=ssl, settings=_settings()
            )
        return _CLIENTS[url]


def sqlite_problem(db_file: Path) -> str | None:
    """Why the Chroma sqlite file is unusable, or None if it looks fine (or does not exist yet).

    Checked with the stdlib before Chroma opens it, because Chroma's Rust core
    panics (with a Rust backtrace on stderr) on a malformed database.
    """
    if not db_file.exists():
        return None
    try:
        con = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True)
        try:
            rows = con.execute("PRAGMA quick_check").fetchall()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    if rows != [("ok",)]:
        return "; ".join(str(r[0]) for r in rows)[:300]
    return None


class FactIndex:
    """The Facts of one game in one Chroma collection (cosine space).

    `location` is a game directory (the index lives in `<game_dir>/<dir_name>`, `index`
    by default) or an `http(s)://host:port` URL of a Chroma server shared by many tables.
    `records_source`, when given, lets the index repair itself after corruption.
    """

    def __init__(
        self,
        location: str | Path,
        game_id: str,
        embedding_function: EmbeddingFunction[Documents] | None = None,
        records_source: RecordsSource | None = None,
        dir_name: str = INDEX_DIR_NAME,
        second_embedding_function: EmbeddingFunction[Documents] | None = None,
        cache_dir: str | Path | None = None,
        progress: Progress | None = None,
    ) -> None:
        """`cache_dir`: where a server index keeps its retrieval cache (a local index keeps it inside
        its directory); without one, a server index rebuilds the cache from the server on each open.
        `progress` is told how a refill of that cache goes."""
        self.game_id = game_id
        self.embedding_function = embedding_function or MiniLMEmbeddingFunction()
        self.second_embedding_function = second_embedding_function
        self.records_source = records_source
        loc = str(location)
        self.url: str | None = loc if loc.startswith(("http://", "https://")) else None
        self.path: Path | None = None if self.url else (Path(loc) / dir_name).resolve()
        self.name = collection_name(game_id)
        self.second_name = f"{self.name}.second"
        self.recoveries: list[Path] = []  # the index directories rebuilt after they broke (at most once)
        self.replaced_embedder: str | None = None  # set when a collection of another embedder was dropped
        self._collection: Any = None
        self._second: Any = None  # the second embedder's collection, when there is one
        self._recovering = False
        self._recovered = False
        self.revision = 0  # bumped on every write, so derived caches (BM25) know to refresh
        if self.path is not None and filelock.acquire(lock_path(self.path)) is None:
            raise MemoryIndexError(
                f"the Facts index {shown_path(self.path)} is in use by another Storytable process "
                f"({filelock.holder(lock_path(self.path))}); one process writes an index at a time, so this one "
                "goes on without it until that process stops")
        if self.path is not None:
            derived_file: Path | None = self.path / f"{self.name}.{DERIVED_NAME}"  # a directory may hold many games
        else:
            derived_file = Path(cache_dir).resolve() / f"{self.name}.{DERIVED_NAME}" if cache_dir else None
        self.derived = _shared_derived(derived_file, f"{self.url}|{self.name}")
        self.refilled_cache = False  # True when opening had to rebuild the retrieval cache
        self._progress = progress
        self._open()
        self._load_derived(progress)

    # ------------------------------------------------------- the retrieval cache

    def _embedder_id(self) -> str:
        ef = self.embedding_function
        try:
            config: dict[str, Any] | None = ef.get_config()
        except Exception:  # noqa: BLE001 - a legacy embedding function without a config
            config = None
        return json.dumps(embedder_identity(ef.name(), config), sort_keys=True, default=str)

    def _chroma_count(self) -> int:
        return int(self._guard(lambda: self._collection.count(), 0))

    def _load_derived(self, progress: Progress | None = None) -> None:
        """Read the saved retrieval cache; refill it from Chroma when it does not mirror the collection."""
        ident = self._embedder_id()
        derived = self.derived
        if derived.loaded and derived.embedder == ident and derived.count() == self._chroma_count():
            return  # filled while opening (a rebuild)
        derived.load()
        count = self._chroma_count()
        if derived.embedder == ident and derived.count() == count == derived.mirrored_count \
                and derived.fingerprint == self.fingerprint:
            derived.embed_wordings(self.embed)  # any a crash left unembedded
            return
        self.refill_derived(progress, reason="missing" if not derived.records else "behind its index")

    def refill_derived(self, progress: Progress | None = None, reason: str = "asked") -> None:
        """Rebuild the retrieval cache from the Chroma collection: its stored vectors, and the Facts'
        name-blind wordings embedded again (derived.py)."""
        total = self._chroma_count()
        if total:
            log.warning("memory: the retrieval cache of %s is %s; rebuilding it from the index (%d facts)",
                        self.game_id, reason, total)
            self.refilled_cache = True
        self.derived.reset(self._embedder_id())
        for offset in range(0, total, _PAGE):
            got = self._guard(lambda offset=offset: self._collection.get(
                limit=_PAGE, offset=offset, include=["documents", "metadatas", "embeddings"]),
                {"ids": [], "documents": [], "metadatas": [], "embeddings": []})
            recs = [FactRecord.from_metadata(i, d, m)
                    for i, d, m in zip(got["ids"], got["documents"], got["metadatas"])]
            if recs:
                self.derived.upsert(recs, np.asarray(got["embeddings"], dtype=np.float32))
                self.derived.embed_wordings(self.embed)
            if progress is not None:
                progress(min(total, offset + _PAGE), total)
        self.derived.set_mirror(self.fingerprint)

    # ------------------------------------------------------------------ opening

    def _open(self) -> None:
        """Open (or create) the collection; a broken local index is moved aside and rebuilt."""
        try:
            self._collection = self._open_collection()
        except BaseException as exc:  # noqa: BLE001 - any open failure is a broken index
            _reraise_if_fatal(exc)
            if self.path is None:
                raise MemoryIndexError(f"cannot open memory collection on {self.url}: {exc}") from exc
            self._recover(f"{type(exc).__name__}: {exc}")
            return
        if self.replaced_embedder is not None and self.records_source is not None:
            self._self_heal()  # without a source the empty index reads as missing: callers rebuild it
        else:
            self._sync_second()

    def _recover(self, reason: str) -> None:
        """Replace the broken directory by a fresh index refilled from the log (once; no loops)."""
        if self._recovering or self._recovered:
            raise MemoryIndexError(f"the Facts index {shown_path(self.path or '')} failed again after being rebuilt: "
                                   f"{reason[:200]}")
        self._recovering = True
        self._recovered = True
        try:
            self._quarantine(reason)
            try:
                self._collection = self._open_collection()
            except BaseException as exc:  # noqa: BLE001
                _reraise_if_fatal(exc)
                raise MemoryIndexError(f"cannot create a Facts index {shown_path(self.path or '')}: {exc}") from exc
            self._self_heal()
        finally:
            self._recovering = False

    def _open_collection(self) -> Any:
        if self.path is not None:
            problem = sqlite_problem(self.path / SQLITE_NAME)
            if problem:
                raise sqlite3.DatabaseError(f"corrupted index database: {problem}")
            client = _persistent_client(self.path)
        else:
            client = _http_client(self.url or "")
        collection = self._get_or_create(client, self.name, self.embedding_function, main=True)
        second = self.second_embedding_function
        self._second = None if second is None else self._get_or_create(client, self.second_name, second, main=False)
        return collection

    def _get_or_create(self, client: ClientAPI, name: str, ef: EmbeddingFunction[Documents], main: bool) -> Any:
        self._drop_if_other_embedder(client, name, ef, main)
        collection = client.get_or_create_collection(
            name,
            embedding_function=ef,  # never Chroma's default: it downloads a model
            configuration={"hnsw": dict(HNSW_CONFIG)},
            metadata={_META_EMBEDDER: ef.name(), "game_id": self.game_id, _META_SCHEMA: RECORD_SCHEMA},
        )
        collection.count()  # probe: a broken segment fails here, not mid-game
        return collection

    def _drop_if_other_embedder(self, client: ClientAPI, name: str, ef: EmbeddingFunction[Documents],
                                main: bool) -> None:
        """Delete one of this game's collections if another embedder, or an older record layout, wrote it.

        The caller refills it from the log (the main one) or from the main one (the second).
        """
        try:
            existing = client.get_collection(name, embedding_function=None)
        except NotFoundError:
            return
        persisted = (existing.configuration_json or {}).get("embedding_function") or {}
        stored = embedder_identity(persisted.get("name") or (existing.metadata or {}).get(_META_EMBEDDER),
                                   persisted.get("config"))
        try:
            config: dict[str, Any] | None = ef.get_config()
        except Exception:  # noqa: BLE001 - a legacy embedding function without a config: compare names
            config = None
        wanted = embedder_identity(ef.name(), config)
        schema = (existing.metadata or {}).get(_META_SCHEMA)
        same_embedder = stored[0] == wanted[0] and (stored[1] is None or wanted[1] is None or stored[1] == wanted[1])
        if same_embedder and schema == RECORD_SCHEMA:
            return
        if same_embedder:
            log.warning("memory index for %s was written by an older Storytable (record layout %s, now %s); "
                        "rebuilding it", self.game_id, schema or 1, RECORD_SCHEMA)
        else:
            log.warning("memory index for %s in %s was built by %s %s; rebuilding it with %s %s",
                        self.game_id, self.url or self.path, stored[0], stored[1] or "", wanted[0], wanted[1])
            if main:
                self.replaced_embedder = str(stored[0])
        client.delete_collection(name)
        self._touch()

    def _quarantine(self, reason: str) -> None:
        """Drop the broken directory (a cache of the log) and forget every handle on it."""
        assert self.path is not None
        _evict_client(str(self.path))
        self._collection = None
        self._second = None
        self._touch()
        doomed = self.path.with_name(f"{self.path.name}.replacing-{os.getpid()}")
        if self.path.exists():
            shutil.rmtree(doomed, ignore_errors=True)
            os.replace(self.path, doomed)  # the usual name is free at once, even if deleting is slow
        for left in self.path.parent.glob(f"{self.path.name}.replacing-*"):  # ours, or a crashed writer's
            shutil.rmtree(left, ignore_errors=True)
        self.recoveries.append(self.path)
        log.warning("memory index at %s was unusable (%s); rebuilding it from the log in its place",
                    self.path, reason[:200])

    def _self_heal(self) -> None:
        """After a quarantine or an embedder change: refill from the log if we can, else leave it visibly stale."""
        self.derived.reset(self._embedder_id())  # memory-speed: the cache mirrors the emptied collection
        if self.records_source is None:
            log.warning("memory index for %s is empty until rebuilt from the game log", self.game_id)
            return
        records, fingerprint = self.records_source()
        self.rebuild(records, fingerprint)

    def _guard(self, op: Callable[[], T], fallback: T) -> T:
        """Run a Chroma operation; on failure of a local index, repair once and retry."""
        try:
            return op()
        except BaseException as exc:  # noqa: BLE001
            _reraise_if_fatal(exc)
            if self.path is None:
                raise MemoryIndexError(f"memory server {self.url} failed: {type(exc).__name__}: {exc}") from exc
            try:
                self._recover(f"{type(exc).__name__}: {exc}")
            except MemoryIndexError as again:  # rebuilt once already: the game goes on without it
                log.warning("%s", again)
                return fallback
        try:
            return op()
        except BaseException as exc:  # noqa: BLE001
            _reraise_if_fatal(exc)
            log.warning("memory index at %s still failing after repair: %s", self.path, exc)
            return fallback

    # --------------------------------------------------------------- freshness

    @property
    def fingerprint(self) -> str | None:
        """The log fingerprint the index was last synced to (None: never, or lost)."""
        meta = self._guard(lambda: self._collection.metadata or {}, {})
        value = meta.get(_META_FINGERPRINT)
        return str(value) if value else None

    def is_stale(self, fingerprint: str) -> bool:
        return self.fingerprint != fingerprint

    def set_fingerprint(self, fingerprint: str) -> None:
        def op() -> None:
            meta = dict(self._collection.metadata or {})
            meta[_META_FINGERPRINT] = fingerprint
            self._collection.modify(metadata=meta)
        self._guard(op, None)
        self.derived.set_mirror(fingerprint)

    # ------------------------------------------------------------------ writing

    def add(self, records: Iterable[FactRecord], fingerprint: str | None = None,
            progress: Progress | None = None) -> int:
        """Insert or update Facts (upsert by id); optionally record the log fingerprint reached."""
        recs = [r for r in records]
        foreign = [r.id for r in recs if r.game_id != self.game_id]
        if foreign:
            raise ValueError(f"facts {foreign[:3]} belong to another game than {self.game_id!r}")
        if recs:
            batch = self._max_batch()
            if progress is not None:
                batch = min(batch, PROGRESS_BATCH)  # small steps so the count moves
            for start in range(0, len(recs), batch):
                chunk = recs[start:start + batch]
                vectors = self.embed([r.text for r in chunk])  # once, for Chroma and the cache alike
                self._guard(lambda chunk=chunk, vectors=vectors: self._collection.upsert(
                    ids=[r.id for r in chunk], documents=[r.text for r in chunk],
                    metadatas=[r.to_metadata() for r in chunk], embeddings=vectors), None)
                self.derived.upsert(chunk, vectors)
                self.derived.embed_wordings(self.embed)
                self._second_upsert(chunk)
                if progress is not None:
                    progress(start + len(chunk), len(recs))
            self._touch()
        if fingerprint is not None:
            self.set_fingerprint(fingerprint)
        return len(recs)

    upsert = add

    def add_embedded(self, records: Sequence[FactRecord], embeddings: np.ndarray,
                     wordings: Callable[[str], np.ndarray | None] | None = None) -> None:
        """Upsert with precomputed vectors (bulk loads and benchmarks skip re-embedding).

        `wordings`: vectors of name-blind wordings already at hand (derived.py); others are embedded.
        """
        batch = self._max_batch()
        for start in range(0, len(records), batch):
            chunk = records[start:start + batch]
            self._collection.upsert(
                ids=[r.id for r in chunk], documents=[r.text for r in chunk],
                metadatas=[r.to_metadata() for r in chunk], embeddings=embeddings[start:start + batch])
            self.derived.upsert(chunk, embeddings[start:start + batch])
            self.derived.embed_wordings(self.embed, wordings)
            self._second_upsert(chunk)
        self._touch()

    def _second_upsert(self, records: Sequence[FactRecord]) -> None:
        """Write the same Facts into the second embedder's collection (it embeds them itself)."""
        if self._second is None or not records:
            return
        self._guard(lambda: self._second.upsert(
            ids=[r.id for r in records], documents=[r.text for r in records],
            metadatas=[r.to_metadata() for r in records]) if self._second is not None else None, None)

    def _sync_second(self) -> None:
        """Refill the second collection when it holds another number of Facts than the main one.

        That happens to an index written before the second embedder was installed, or
        when a crash fell between the two writes of one Fact.
        """
        if self._second is None:
            return
        if not self.derived.loaded:
            self._load_derived(self._progress)
        main, second = self._chroma_count(), int(self._guard(lambda: self._second.count(), 0))
        if main == second:
            return
        log.info("memory index for %s: the second embedder holds %d of %d facts; refilling it",
                 self.game_id, second, main)
        assert self.second_embedding_function is not None
        ef = self.second_embedding_function

        def reopen() -> Any:
            client = _persistent_client(self.path) if self.path is not None else _http_client(self.url or "")
            try:
                client.delete_collection(self.second_name)
            except NotFoundError:
                pass
            return self._get_or_create(client, self.second_name, ef, main=False)
        self._second = self._guard(reopen, None)
        records = self.all_records(include_removed=True)
        for start in range(0, len(records), PROGRESS_BATCH):
            self._second_upsert(records[start:start + PROGRESS_BATCH])
        self._touch()

    def mark_removed(self, fact_id: str, removed: bool = True) -> bool:
        """Flag a Fact as removed (or restored). Never deletes. False if the id is unknown."""
        found = self.get([fact_id])
        if not found:
            return False
        meta = found[0].to_metadata() | {"removed": bool(removed)}
        self._guard(lambda: self._collection.update(ids=[fact_id], metadatas=[meta]), None)
        self.derived.upsert([FactRecord(**{**found[0].to_dict(), "removed": bool(removed)})])
        self.derived.embed_wordings(self.embed)
        if self._second is not None:
            self._guard(lambda: self._second.update(ids=[fact_id], metadatas=[meta]) if self._second else None, None)
        self._touch()
        return True

    def forget(self, ids: Sequence[str]) -> None:
        """Drop Facts the log no longer holds (an undone action). Removed Facts are marked instead."""
        if ids:
            self._guard(lambda: self._collection.delete(ids=list(ids)), None)
            self.derived.forget(ids)
            if self._second is not None:
                self._guard(lambda: self._second.delete(ids=list(ids)) if self._second else None, None)
            self._touch()

    def rebuild(self, records: Iterable[FactRecord], fingerprint: str, progress: Progress | None = None) -> None:
        """Drop the collection and refill it from records: the log is the truth."""
        recs = list(records)
        if self.path is not None:
            client = _persistent_client(self.path)
        else:
            client = _http_client(self.url or "")
        for name in (self.name, self.second_name):
            try:
                client.delete_collection(name)
            except BaseException as exc:  # noqa: BLE001 - absent collection is fine
                _reraise_if_fatal(exc)
        self._touch()
        self._collection = self._open_collection()
        self.derived.reset(self._embedder_id())
        self.add(recs, fingerprint=fingerprint, progress=progress)

    def ensure_fresh(self, records_source: RecordsSource | None = None) -> bool:
        """Rebuild when the stored fingerprint differs from the log's. True if it rebuilt."""
        source = records_source or self.records_source
        if source is None:
            raise ValueError("ensure_fresh needs a records_source")
        records, fingerprint = source()
        if not self.is_stale(fingerprint):
            return False
        log.info("memory index for %s is stale; rebuilding %d facts", self.game_id, len(records))
        self.rebuild(records, fingerprint)
        return True

    # ------------------------------------------------------------------ reading

    def count(self) -> int:
        return self.derived.count()

    def get(self, ids: Sequence[str]) -> list[FactRecord]:
        return self.derived.get(ids)

    def all_records(self, include_removed: bool = True) -> list[FactRecord]:
        """Every Fact, in log order."""
        return self.derived.all_records(include_removed)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.embedding_function(list(texts)), dtype=np.float32)

    def embed_with_rest(self, text: str, drop: Sequence[tuple[int, int]], rest: str) -> np.ndarray:
        """Vectors of a question and of its `rest` (the question without the `drop` character spans).

        From one pass when the embedder can (MiniLM pools the rest from the question's pass), else
        both embedded.
        """
        one_pass = getattr(self.embedding_function, "embed_with_rest", None)
        if one_pass is not None:
            return np.asarray(one_pass(text, drop), dtype=np.float32)
        return self.embed([text, rest])

    def query(
        self,
        text: str,
        k: int = 10,
        *,
        kind: str | Sequence[str] | None = None,
        scene: int | Sequence[int] | None = None,
        component_id: str | Sequence[str] | None = None,
        include_removed: bool = False,
        query_embedding: np.ndarray | None = None,
    ) -> list[tuple[FactRecord, float]]:
        """Dense search: (record, cosine similarity), best first, after metadata filters.

        Exact: one product of the question's vector with every Fact's (the retrieval cache),
        which is faster than Chroma's HNSW up to 100k Facts here and misses nothing.
        """
        if int(k) <= 0 or not text.strip() and query_embedding is None:
            return []
        vec = query_embedding if query_embedding is not None else self.embed([text])[0]
        return self.derived.nearest(vec, int(k), include_removed=include_removed,
                                    allowed=_allowed(kind, scene, component_id))

    def query_vectors(self, vectors: np.ndarray, k: int, *, kind: str | Sequence[str] | None = None,
                      include_removed: bool = False) -> tuple[list[list[tuple[FactRecord, float]]], np.ndarray]:
        """Dense search for several question vectors at once, and every row's cosine with each.

        Why: hybrid retrieval searches with the question and with its rest, and the cosines score
        the candidates a search did not return (see `row_of`) without fetching their vectors.
        Results as `query`'s, one list per vector.
        """
        sims = self.derived.similarities(vectors)
        allowed = _allowed(kind, None, None)
        return [self.derived.nearest(v, int(k), include_removed=include_removed, allowed=allowed, sims=s)
                for v, s in zip(np.atleast_2d(vectors), sims)], sims

    def row_of(self, fact_id: str) -> int | None:
        """The Fact's column in `query_vectors`' cosines (None if it is not held)."""
        return self.derived.rows.get(fact_id)

    def removed_count(self) -> int:
        """How many Facts are flagged removed."""
        return self.derived.removed_count()

    def embeddings_for(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by id (so hybrid retrieval can score candidates dense search did not return)."""
        return self.derived.vectors_for(ids)

    @property
    def has_second(self) -> bool:
        """Whether Facts are also embedded by a second embedder (see e5.py)."""
        return self._second is not None

    def embed_second_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Question vectors of the second embedder (e5 embeds questions and passages differently)."""
        ef = self.second_embedding_function
        if ef is None:
            raise ValueError("this index has no second embedder")
        queries = getattr(ef, "embed_queries", None)
        return np.asarray(queries(list(texts)) if queries else ef(list(texts)), dtype=np.float32)

    def second_embeddings_for(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The second embedder's stored vectors by id (empty without one)."""
        if not ids or self._second is None:
            return {}
        got = self._guard(lambda: self._second.get(ids=list(ids), include=["embeddings"]) if self._second else
                          {"ids": [], "embeddings": []}, {"ids": [], "embeddings": []})
        embs = got.get("embeddings")
        if embs is None:
            return {}
        return {i: np.asarray(e, dtype=np.float32) for i, e in zip(got["ids"], embs)}

    def _touch(self) -> None:
        self.revision += 1

    def _max_batch(self) -> int:
        try:
            client = _persistent_client(self.path) if self.path is not None else _http_client(self.url or "")
            return max(1, min(int(client.get_max_batch_size()), 5000))
        except BaseException as exc:  # noqa: BLE001
            _reraise_if_fatal(exc)
            return 1000


def _allowed(kind: str | Sequence[str] | None, scene: int | Sequence[int] | None,
             component_id: str | Sequence[str] | None) -> Callable[[FactRecord], bool] | None:
    """A metadata filter for dense search (None when nothing is filtered)."""
    if kind is None and scene is None and component_id is None:
        return None

    def one_of(value: Any) -> set[Any] | None:
        return None if value is None else {value} if isinstance(value, (str, int)) else set(value)
    kinds, scenes, comps = one_of(kind), one_of(scene), one_of(component_id)

    def allowed(r: FactRecord) -> bool:
        return ((kinds is None or r.kind in kinds) and (scenes is None or r.scene in scenes)
                and (comps is None or r.component_id in comps))
    return allowed


def build_where(
    *,
    kind: str | Sequence[str] | None = None,
    scene: int | Sequence[int] | None = None,
    component_id: str | Sequence[str] | None = None,
    include_removed: bool = False,
) -> dict[str, Any] | None:
    """A Chroma `where` filter; lists become `$in`, several clauses an `$and`."""
    clauses: list[dict[str, Any]] = []
    for key, value in (("kind", kind), ("scene", scene), ("component_id", component_id)):
        if value is None:
            continue
        if isinstance(value, (str, int)):
            clauses.append({key: value})
        else:
            values = list(value)
            clauses.append({key: {"$in": values}} if len(values) != 1 else {key: values[0]})
    if not include_removed:
        clauses.append({"removed": False})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}
