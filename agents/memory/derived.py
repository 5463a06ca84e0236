"""What retrieval derives from a game's Facts, kept in step with every write and saved beside the index.

Why: opening a table used to rebuild BM25, component profiles and Trait vectors from Chroma (9 s at
1k Facts, a minute at 10k), and every new Fact threw them all away and rebuilt them. Here each write
updates them in place, and they are saved with the Facts' vectors in one sqlite file
(`<collection>.derived.sqlite3` in the index directory, one per game; for a Chroma server, in the
game's directory), so opening
a table reads one file. Dense search is an exact product over those vectors: at every size measured
it is faster than Chroma's HNSW, and it never misses a neighbour.

The file is a cache of the Chroma collection, itself a cache of the game log: it records the
collection's fingerprint, Fact count and embedder, and when they differ from the collection's it is
refilled from the collection (no re-embedding), with progress. Nothing here touches the log.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .bm25 import LiveBM25, tokenize
from .records import FactRecord

__all__ = ["DERIVED_NAME", "Derived"]

log = logging.getLogger(__name__)

DERIVED_NAME = "derived.sqlite3"
#: The layout of the file; another one is refilled from the collection.
SCHEMA = 3
_FIELDS = [f.name for f in dataclasses.fields(FactRecord)]


def _pack(rec: FactRecord) -> str:
    """A record as a JSON array in field order: loading 10k of them is several times faster than dicts."""
    return json.dumps([list(v) if isinstance(v, tuple) else v for v in (getattr(rec, f) for f in _FIELDS)])


def _unpack(text: str) -> FactRecord:
    return FactRecord(*json.loads(text))
PROFILE_CHARS = 4000
_GROUPS = ("about", "at", "by_scene", "by_origin", "comp")


def _origin_key(rec: FactRecord) -> str:
    """"outcome:trait" for a Trait bought as an outcome; a Fact's plain origin otherwise."""
    return f"{rec.origin}:trait" if rec.kind == "trait" else (rec.origin or "")


def searchable(rec: FactRecord) -> str:
    """Lexical text of a Fact: its words plus the name of its component."""
    return f"{rec.text} {rec.component_name or ''}"


class Derived:
    """A game's Facts, their vectors and every structure hybrid retrieval reads, updated per write.

    Groups (of live Facts only, in the order they were written, which is log order in play):
    `about[c]` the Facts about component c, `at[place]` the Facts bought at a place (its name in
    lowercase), `by_scene[n]`, `by_origin[key]`, `comp[c]` the Facts filed under c. `traits` maps
    each live Trait of a component to it. Other views (names, places, first Traits, Trait vectors)
    are recomputed from these, at most once per write, when first read.
    """

    def __init__(self, file: Path | None = None) -> None:
        self.file = file
        self.loaded = False
        self.revision = 0
        self._reset_memory()

    # ------------------------------------------------------------------ state

    def _reset_memory(self) -> None:
        self.records: dict[str, FactRecord] = {}
        self.rows: dict[str, int] = {}
        self.row_ids: list[str | None] = []  # row -> the Fact it holds
        self.vectors = np.zeros((0, 0), dtype=np.float32)
        self.present = np.zeros(0, dtype=bool)  # the row holds a Fact
        self.live = np.zeros(0, dtype=bool)  # ... that is not removed
        self._free: list[int] = []
        self.bm25 = LiveBM25()
        self.groups: dict[str, dict[Any, dict[str, None]]] = {g: {} for g in _GROUPS}
        self.traits: dict[str, str] = {}  # live Trait id -> its component
        self.comp_name: dict[str, str] = {}
        self.name_vecs: dict[str, np.ndarray] = {}
        # name-blind wordings ("someone heals someone") of the live Facts and their vectors, embedded when
        # written, so a query compares with them without embedding any (see retrieval._blend_blind)
        self.wording: dict[str, str] = {}
        self.wording_vecs: dict[str, np.ndarray] = {}
        self._pending: set[str] = set()  # live Facts whose wording changed and is not yet embedded
        # lexical profiles: a component's name and the first PROFILE_CHARS of its Facts, one document each
        self._profile_bm25 = LiveBM25()
        self._profile_doc: dict[str, int] = {}
        self.profile_comps: list[str] = []  # document -> component
        self._profile_dirty: set[str] = set()
        # components whose profile is full (PROFILE_CHARS read) -> the log position of the last Fact read
        # into it: a later Fact, written or changed, leaves that profile as it is
        self._profile_full: dict[str, int] = {}
        self._name_terms: dict[str, frozenset[str]] = {}
        self.fingerprint: str | None = None
        self.mirrored_count: int | None = None
        self.embedder: str | None = None
        self._views: dict[str, Any] = {}
        self._views_at = -1

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def count(self, include_removed: bool = True) -> int:
        return len(self.records) if include_removed else int(self.live.sum())

    def removed_count(self) -> int:
        return len(self.records) - int(self.live.sum())

    # ------------------------------------------------------------------ writing

    def reset(self, embedder: str | None = None) -> None:
        """Forget everything (a rebuild refills it), in memory and on disk."""
        self._reset_memory()
        self.embedder = embedder
        self.loaded = True
        self.revision += 1
        self._write(lambda con: (con.execute("DELETE FROM facts"), con.execute("DELETE FROM names"),
                                 con.execute("DELETE FROM wordings"), con.execute("DELETE FROM meta")))
        self._save_meta()

    def upsert(self, records: Sequence[FactRecord], vectors: np.ndarray | None = None) -> None:
        """Insert or replace Facts; `vectors` (one row each) may be None for Facts already held (a flag changed)."""
        if not records:
            return
        names_before = set(self.names.values())
        if vectors is not None:
            vectors = np.asarray(vectors, dtype=np.float32)
            if self.vectors.shape[1] == 0 and not self.records:
                self.vectors = np.zeros((0, vectors.shape[1]), dtype=np.float32)
        rows_out = []
        for i, rec in enumerate(records):
            old = self.records.get(rec.id)
            if vectors is None:
                if old is None:
                    raise ValueError(f"fact {rec.id!r} is new and needs its vector")
                vec = self.vectors[self.rows[rec.id]]
            else:
                vec = vectors[i]
            if old is not None:
                self._unlink(old)
                row = self.rows[rec.id]
            else:
                row = self._new_row()
                self.rows[rec.id] = row
                self.row_ids[row] = rec.id
            self.vectors[row] = vec
            self.present[row] = True
            self.live[row] = not rec.removed
            self.records[rec.id] = rec
            self._link(rec, row)
            rows_out.append((rec.id, _pack(rec), " ".join(self.bm25.doc_terms(row)),
                             np.ascontiguousarray(vec, dtype=np.float32).tobytes()))
        self.revision += 1
        self._reword([r.id for r in records], names_before)
        self._write(lambda con: con.executemany(
            "INSERT OR REPLACE INTO facts(id, record, tokens, vec) VALUES (?, ?, ?, ?)", rows_out))

    def _reword(self, ids: Sequence[str], names_before: set[str]) -> None:
        """Note the name-blind wording of these Facts, and of older ones that say a name just introduced."""
        affected = set(ids)
        names_now = set(self.names.values())
        new_names = names_now - names_before
        for name in new_names:
            terms = tokenize(name)
            if not terms or not all(t in self.bm25.postings for t in terms):
                continue
            rows = set.intersection(*(set(self.bm25.postings[t]) for t in terms))
            affected.update(self.row_ids[r] for r in rows if self.row_ids[r] is not None)  # type: ignore[misc]
        for fid in affected:
            rec = self.records.get(fid)
            if rec is None or rec.removed:
                self.wording.pop(fid, None)
                continue
            wording = self.name_blind(rec.text)
            if self.wording.get(fid) != wording or wording not in self.wording_vecs:
                self.wording[fid] = wording
                if wording not in self.wording_vecs:
                    self._pending.add(fid)

    def name_blind(self, text: str) -> str:
        """The words with every component's name replaced by "someone": "someone heals someone"."""
        said = self.names_said
        if said is None:
            return text
        return " ".join(said.sub(" someone ", text).split()) or text

    def embed_wordings(self, embed: Callable[[list[str]], np.ndarray],
                       known: Callable[[str], np.ndarray | None] | None = None) -> None:
        """Embed what the writes since the last call need: new wordings (`known` may have their vectors
        at hand) and new component names; save them. Done on writes, so the next query embeds none."""
        todo = sorted({self.wording[f] for f in self._pending if f in self.wording} - set(self.wording_vecs))
        if known is not None:
            found = {w: v for w, v in ((w, known(w)) for w in todo) if v is not None}
            self.wording_vecs.update(found)
            todo = [w for w in todo if w not in found]
        if todo:
            self.wording_vecs.update(zip(todo, embed(todo)))
        rows = [(f, self.wording[f], np.ascontiguousarray(self.wording_vecs[self.wording[f]], dtype=np.float32).tobytes())
                for f in self._pending if f in self.wording]
        self._pending.clear()
        if rows:
            self._write(lambda con: con.executemany(
                "INSERT OR REPLACE INTO wordings(id, wording, vec) VALUES (?, ?, ?)", rows))
        names = sorted(set(self.names.values()) - set(self.name_vecs))
        if names:
            self.add_name_vectors(dict(zip(names, embed(names))))

    def wording_vector(self, fid: str) -> np.ndarray | None:
        wording = self.wording.get(fid)
        return None if wording is None else self.wording_vecs.get(wording)

    def forget(self, ids: Iterable[str]) -> None:
        """Drop Facts entirely (the log lost them: an undo)."""
        gone = [i for i in ids if i in self.records]
        for fid in gone:
            rec = self.records.pop(fid)
            self._unlink(rec)
            row = self.rows.pop(fid)
            self.row_ids[row] = None
            self.present[row] = self.live[row] = False
            self.vectors[row] = 0.0
            self._free.append(row)
        if gone:
            self.revision += 1
            for fid in gone:
                self.wording.pop(fid, None)
            self._write(lambda con: (con.executemany("DELETE FROM facts WHERE id = ?", [(i,) for i in gone]),
                                     con.executemany("DELETE FROM wordings WHERE id = ?", [(i,) for i in gone])))

    def set_mirror(self, fingerprint: str | None) -> None:
        """Record which log fingerprint the collection (and so this) reached (checked on the next open)."""
        self.fingerprint = fingerprint
        self._save_meta()

    def add_name_vectors(self, vecs: dict[str, np.ndarray]) -> None:
        self.name_vecs.update(vecs)
        rows = [(n, np.ascontiguousarray(v, dtype=np.float32).tobytes()) for n, v in vecs.items()]
        self._write(lambda con: con.executemany("INSERT OR REPLACE INTO names(name, vec) VALUES (?, ?)", rows))

    def _new_row(self) -> int:
        if self._free:
            return self._free.pop()
        n = len(self.row_ids)
        self.row_ids.append(None)
        if n >= len(self.present):
            cap = max(64, 2 * len(self.present))
            grown = np.zeros((cap, max(1, self.vectors.shape[1])), dtype=np.float32)
            grown[:len(self.vectors)] = self.vectors
            self.vectors = grown
            self.present = np.concatenate([self.present, np.zeros(cap - len(self.present), dtype=bool)])
            self.live = np.concatenate([self.live, np.zeros(cap - len(self.live), dtype=bool)])
        return n

    def _keys(self, rec: FactRecord) -> list[tuple[str, Any]]:
        """The groups a live Fact belongs to."""
        keys: list[tuple[str, Any]] = [("about", c) for c in rec.about]
        if rec.scene is not None:
            keys.append(("by_scene", rec.scene))
        if rec.place:
            keys.append(("at", rec.place.lower()))
        if rec.origin:
            keys += [("by_origin", k) for k in dict.fromkeys((rec.origin, _origin_key(rec)))]
        if rec.component_id:
            keys.append(("comp", rec.component_id))
        return keys

    def _link(self, rec: FactRecord, row: int, tokens: Sequence[str] | None = None) -> None:
        self.bm25.add(row, tokens if tokens is not None else tokenize(searchable(rec)))
        if rec.removed:
            return
        for group, key in self._keys(rec):
            self.groups[group].setdefault(key, {})[rec.id] = None
        if rec.component_id:
            self._touch_profile(rec)
            if rec.component_name:
                self.comp_name[rec.component_id] = rec.component_name
            if rec.kind == "trait":
                self.traits[rec.id] = rec.component_id

    def _touch_profile(self, rec: FactRecord) -> None:
        """Mark the profile of the Fact's component for re-reading, unless the Fact lies past its end."""
        comp = rec.component_id or ""
        last = self._profile_full.get(comp)
        if last is None or rec.seq <= last:
            self._profile_dirty.add(comp)
            self._profile_full.pop(comp, None)

    def _unlink(self, rec: FactRecord) -> None:
        self.bm25.remove(self.rows[rec.id])
        if rec.removed:
            return
        for group, key in self._keys(rec):
            members = self.groups[group].get(key)
            if members is not None:
                members.pop(rec.id, None)
                if not members:
                    del self.groups[group][key]
        self.traits.pop(rec.id, None)
        if rec.component_id:
            self._touch_profile(rec)
        if rec.component_id and rec.component_id not in self.groups["comp"]:
            self.comp_name.pop(rec.component_id, None)

    # ------------------------------------------------------------------ reading

    def get(self, ids: Sequence[str]) -> list[FactRecord]:
        return [self.records[i] for i in ids if i in self.records]

    def all_records(self, include_removed: bool = True) -> list[FactRecord]:
        out = sorted(self.records.values(), key=lambda r: (r.seq, r.id))
        return out if include_removed else [r for r in out if not r.removed]

    def vectors_for(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        return {i: self.vectors[self.rows[i]] for i in ids if i in self.rows}

    def similarities(self, qvecs: np.ndarray) -> np.ndarray:
        """Cosine of each question vector (rows of `qvecs`) with every row's vector (questions x rows)."""
        n = len(self.row_ids)
        q = np.atleast_2d(np.asarray(qvecs, dtype=np.float32))
        if n == 0 or self.dim == 0:
            return np.zeros((len(q), n), dtype=np.float32)
        # one matrix-vector product per question: with two or three questions a matrix product is slower
        # here (OpenBLAS packs every Fact's vector first: 20 ms against 2 x 4.6 ms at 100k Facts)
        return np.stack([self.vectors[:n] @ v for v in q])

    def nearest(self, qvec: np.ndarray, k: int, *, include_removed: bool = False,
                allowed: Callable[[FactRecord], bool] | None = None,
                sims: np.ndarray | None = None) -> list[tuple[FactRecord, float]]:
        """Exact cosine nearest Facts (vectors are unit length), best first.

        `sims`: this vector's row of `similarities`, when the caller already has it.
        """
        n = len(self.row_ids)
        if k <= 0 or not self.records:
            return []
        if sims is None:
            sims = self.similarities(qvec)[0]
        mask = (self.present if include_removed else self.live)[:n]
        if allowed is not None:
            mask = mask.copy()
            for fid, row in self.rows.items():
                if mask[row] and not allowed(self.records[fid]):
                    mask[row] = False
        count = int(np.count_nonzero(mask))
        if not count:
            return []
        order = -sims if count == n else np.where(mask, -sims, np.inf)
        k = min(int(k), count)
        top = np.argpartition(order, k - 1)[:k] if k < n else np.arange(n)
        top = top[np.argsort(order[top], kind="stable")][:k]
        return [(self.records[self.row_ids[int(t)]], float(sims[t])) for t in top]  # type: ignore[index]

    def view(self, name: str, build: Callable[[], Any]) -> Any:
        """A value computed from the current Facts, kept until the next write."""
        if self._views_at != self.revision:
            self._views, self._views_at = {}, self.revision
        if name not in self._views:
            self._views[name] = build()
        return self._views[name]

    # views hybrid retrieval reads (each recomputed at most once per write, from the groups above)

    @property
    def names(self) -> dict[str, str]:
        """Component id -> name, for components with live Facts filed under them."""
        return self.view("names", lambda: {c: n for c, n in self.comp_name.items() if c in self.groups["comp"]})

    @property
    def name_tokens(self) -> dict[str, set[str]]:
        """Component id -> the words of its name; each distinct name is tokenized once per process, so a
        write does not re-read hundreds of names (that made the query after each write 3x slower at 10k)."""
        names = self.names
        memo = self._name_terms

        def terms(name: str) -> set[str]:
            got = memo.get(name)
            if got is None:
                got = memo[name] = frozenset(tokenize(name))
            return set(got)
        return self.view("name_tokens", lambda: {c: terms(names.get(c, "")) for c in self.groups["comp"]})

    @property
    def place_of(self) -> dict[str, str]:
        at = self.groups["at"]
        return self.view("place_of", lambda: {c: n.lower() for c, n in self.names.items() if n.lower() in at})

    @property
    def first_trait(self) -> dict[str, str]:
        """Component -> its first live Trait that is not its bare name (log order)."""
        def build() -> dict[str, str]:
            out: dict[str, tuple[int, str]] = {}
            for fid, comp in self.traits.items():
                rec = self.records[fid]
                if rec.text.strip().lower() == (rec.component_name or "").strip().lower():
                    continue
                if comp not in out or (rec.seq, fid) < out[comp]:
                    out[comp] = (rec.seq, fid)
            return {c: fid for c, (_, fid) in out.items()}
        return self.view("first_trait", build)

    @property
    def trait_list(self) -> list[tuple[str, str]]:
        """(Trait id, component id) of every live Trait, in log order."""
        return self.view("trait_list", lambda: sorted(self.traits.items(),
                                                      key=lambda tc: (self.records[tc[0]].seq, tc[0])))

    @property
    def trait_vectors(self) -> np.ndarray:
        traits = self.trait_list
        return self.view("trait_vectors", lambda: self.vectors[[self.rows[t] for t, _ in traits]] if traits
                         else np.zeros((0, max(1, self.dim)), dtype=np.float32))

    @property
    def names_said(self) -> re.Pattern[str] | None:
        def build() -> re.Pattern[str] | None:
            spoken = sorted({n.strip() for n in self.names.values() if n.strip()}, key=len, reverse=True)
            return re.compile("|".join(rf"\b{re.escape(n)}\b" for n in spoken), re.IGNORECASE) if spoken else None
        return self.view("names_said", build)

    @property
    def profile_bm25(self) -> LiveBM25:
        """BM25 over the components' lexical profiles (document i is `profile_comps[i]`), brought up to date.

        Only the components a write touched are re-read: a component's profile is its name and the
        first PROFILE_CHARS characters of its live Facts, in log order.
        """
        for comp in self._profile_dirty:
            ids = self.groups["comp"].get(comp)
            doc = self._profile_doc.get(comp)
            if doc is None:
                doc = self._profile_doc[comp] = len(self.profile_comps)
                self.profile_comps.append(comp)
            if not ids:
                self._profile_bm25.remove(doc)
                continue
            parts, size = [self.comp_name.get(comp, "")], 0
            for fid in sorted(ids, key=lambda i: self.records[i].seq):
                parts.append(self.records[fid].text)
                size += len(parts[-1]) + 1
                if size >= PROFILE_CHARS:
                    self._profile_full[comp] = self.records[fid].seq
                    break
            self._profile_bm25.add(doc, tokenize(" ".join(parts)[:PROFILE_CHARS]))
        self._profile_dirty.clear()
        return self._profile_bm25

    def members(self, group: str, key: Any, limit: int) -> list[str]:
        """Up to `limit` Facts of a group, earliest first."""
        got = self.groups[group].get(key)
        if not got:
            return []
        ids = list(got)
        if len(ids) > limit:
            ids = sorted(ids, key=lambda i: self.records[i].seq)[:limit]
        return ids

    # ------------------------------------------------------------------ the file

    def _connect(self) -> sqlite3.Connection | None:
        if self.file is None:
            return None
        self.file.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(str(self.file), timeout=30)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
        con.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
        con.execute("CREATE TABLE IF NOT EXISTS facts(id TEXT PRIMARY KEY, record TEXT NOT NULL, "
                    "tokens TEXT NOT NULL, vec BLOB NOT NULL)")
        con.execute("CREATE TABLE IF NOT EXISTS names(name TEXT PRIMARY KEY, vec BLOB NOT NULL)")
        con.execute("CREATE TABLE IF NOT EXISTS wordings(id TEXT PRIMARY KEY, wording TEXT NOT NULL, vec BLOB NOT NULL)")
        return con

    def _write(self, op: Callable[[sqlite3.Connection], Any]) -> None:
        """One transaction on the file, the meta data with it; a failure only costs a refill on the next open."""
        self.mirrored_count = len(self.records)
        try:
            con = self._connect()
        except sqlite3.Error as exc:
            log.warning("memory: cannot write the retrieval cache %s: %s", self.file, exc)
            return
        if con is None:
            return
        meta = {"schema": SCHEMA, "fingerprint": self.fingerprint, "count": self.mirrored_count,
                "embedder": self.embedder}
        try:
            with con:
                op(con)
                con.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                [(k, json.dumps(v)) for k, v in meta.items()])
        except sqlite3.Error as exc:
            log.warning("memory: cannot write the retrieval cache %s: %s", self.file, exc)
        finally:
            con.close()

    def _save_meta(self) -> None:
        self._write(lambda con: None)

    def _move_aside(self) -> str:
        """Keep an unreadable file's bytes as `<name>.broken-<n>` (never overwritten) so a new one can start."""
        assert self.file is not None
        n = 1
        while self.file.with_name(f"{self.file.name}.broken-{n}").exists():
            n += 1
        target = self.file.with_name(f"{self.file.name}.broken-{n}")
        try:
            self.file.rename(target)
            for suffix in ("-wal", "-shm"):
                side = self.file.with_name(self.file.name + suffix)
                if side.exists():
                    side.rename(target.with_name(target.name + suffix))
        except OSError as exc:
            return f"nowhere ({exc})"
        return target.name

    def load(self) -> bool:
        """Read the file into memory; False (and empty) when there is none or it cannot be read."""
        self._reset_memory()
        self.loaded = True
        self.revision += 1
        if self.file is None or not self.file.exists():
            return False
        try:
            con = self._connect()
            assert con is not None
            try:
                meta = {k: json.loads(v) for k, v in con.execute("SELECT key, value FROM meta")}
                if meta.get("schema") != SCHEMA:
                    return False
                rows = con.execute("SELECT id, record, tokens, vec FROM facts").fetchall()
                names = con.execute("SELECT name, vec FROM names").fetchall()
                wordings = con.execute("SELECT id, wording, vec FROM wordings").fetchall()
            finally:
                con.close()
        except (sqlite3.Error, ValueError) as exc:
            aside = self._move_aside()
            log.warning("memory: the retrieval cache %s cannot be read (%s); moved it to %s and refilling it",
                        self.file.name, exc, aside)
            self._reset_memory()
            return False
        recs = sorted(((_unpack(record), tokens, vec) for _, record, tokens, vec in rows),
                      key=lambda t: (t[0].seq, t[0].id))
        n = len(recs)
        if n:
            self.vectors = np.frombuffer(b"".join(v for _, _, v in recs), dtype=np.float32).reshape(n, -1).copy()
            self.present = np.ones(n, dtype=bool)
            self.live = np.array([not rec.removed for rec, _, _ in recs], dtype=bool)
            self.row_ids = [rec.id for rec, _, _ in recs]
            self.rows = {fid: row for row, fid in enumerate(self.row_ids)}
            self.records = {rec.id: rec for rec, _, _ in recs}
            for row, (rec, tokens, _) in enumerate(recs):
                self._link(rec, row, tokens.split())
        self.name_vecs = {name: np.frombuffer(v, dtype=np.float32) for name, v in names}
        for fid, wording, vec in wordings:
            if fid in self.records:
                self.wording[fid] = wording
                if wording not in self.wording_vecs:
                    self.wording_vecs[wording] = np.frombuffer(vec, dtype=np.float32)
        # a Fact whose wording was not saved (a crash between two writes) is reworded now
        self._pending = {f for f, r in self.records.items() if not r.removed and f not in self.wording}
        if self._pending:
            self._reword(list(self._pending), set(self.names.values()))
        self.fingerprint, self.mirrored_count = meta.get("fingerprint"), meta.get("count")
        self.embedder = meta.get("embedder")
        self.revision += 1
        return True
