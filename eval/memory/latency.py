"""Query latency of the memory the AI seats use, next to brute force, at 1k, 10k and 100k Facts.

Why these figures (issue 26): a person at a table waits for the first AI move after a table opens,
after each new Fact, and on every decision. For each size this measures, with the default embedder
(MiniLM) and one BLAS thread:

- `first_query_s`: opening the index (a new Chroma client and the saved retrieval cache, as a table
  does when it is loaded) and its first hybrid query;
- `hybrid`: the median and p95 of a hybrid query (`hybrid_search`, the function the AI seats'
  `context_for_decision` calls), each question embedded afresh (the embedder's cache is emptied);
- `after_write`: a hybrid query right after each of 20 new Facts is written;
- `brute`: brute force measured in the same loop: embedding the question and exact dot products
  over every Fact's vector, then the top 10;
- `cpu`: the same figures in this process's CPU time. On a 2-core machine shared with other jobs the
  wall-clock p95 and maxima mostly measure the scheduler (brute force's own p95/median is reported
  beside them); the CPU figures say what each query costs with a core to itself.

The memory is the synthetic world probe (its 82 paraphrased questions are the queries) padded with
background Facts. Embedding 100k Facts with MiniLM takes about half an hour on this machine, so the
background Facts are built from 2,048 distinct sentences, each embedded for real once (and cached
on disk), and each Fact's vector is its sentence's vector with a little noise (cosine about 0.99):
every Fact has its own vector, and the work per query does not depend on the values. Timings on a
shared machine vary with its load; every ratio is taken against brute force in the same run.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from agents.memory import index as index_module
from agents.memory.index import FactIndex, _evict_client
from agents.memory.minilm import load_minilm
from agents.memory.records import FactRecord
from agents.memory.retrieval import hybrid_search
from eval.processes import free_port, stop

from .probe import PROBE_FILE, load_probe

_NAMES = ["Joss", "Wenna", "Piers", "Maud", "Tobin", "Elsbeth", "Garrick", "Nell", "Hal", "Orla", "Crispin", "Agnes",
          "Bram", "Sabine", "Tam", "Ivo", "Rosalind", "Silas", "Gwen", "Aldo", "Mirela", "Corin", "Fen", "Ysolde"]
_SURNAMES = ["Merrin", "Colt", "Harrow", "Dunne", "Wick", "Fallow", "Reed", "Tanner", "Moss", "Pike", "Gale", "Thorne",
             "Ashcombe", "Brack", "Quill", "Marsh"]
_VERBS = ["saw", "hid", "sold", "stole", "buried", "found", "lost", "burned", "mended", "carried", "painted", "cursed"]
_THINGS = ["a silver bell", "the ledger", "a drowned lantern", "a bolt of red cloth", "an eel trap", "a bone flute",
           "the reeve's seal", "a jar of tallow", "a heron feather", "a rusted key", "the ferry rope", "a map"]
_PLACES = ["by the north sluice", "at the candle market", "under the causeway", "in the reed beds",
           "behind the chapel", "at the Drowned Lamb", "on the salt pans", "near the gibbet hill"]
SENTENCES = 2048
NOISE = 0.1
AFTER_WRITES = 20
TARGETS = {"first_query_s": {1000: 0.5, 10_000: 2.0}, "hybrid_over_brute": 2.0, "p95_over_median": 2.0,
           "after_write_over_median": 2.0}
Say = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def padding_facts(n: int, game_id: str, start_seq: int, seed: int = 11) -> tuple[list[FactRecord], list[int]]:
    """n background Facts (~380 minor characters, 300 scenes) and, per Fact, which of SENTENCES it says."""
    rng = random.Random(seed)
    bases = []
    seen: set[str] = set()
    while len(bases) < SENTENCES:
        who = f"{rng.choice(_NAMES)} {rng.choice(_SURNAMES)}"
        text = f"{who} {rng.choice(_VERBS)} {rng.choice(_THINGS)} {rng.choice(_PLACES)}"
        if text not in seen:
            seen.add(text)
            bases.append((who, text))
    out, which = [], []
    for i in range(n):
        j = i % SENTENCES
        who, text = bases[j]
        out.append(FactRecord(f"pad{i}", f"{text} on day {i}.", "event", game_id, 1 + i % 300, f"pad-{who}", who,
                              "bot", start_seq + i))
        which.append(j)
    return out, which


def _blind_bases(count: int = SENTENCES) -> list[str]:
    """The first `count` background sentences' name-blind wordings ("someone sold a map ..."), each once."""
    records, _ = padding_facts(count, "pad", 0)
    return sorted({r.text.rsplit(" on day ", 1)[0].replace(r.component_name or "", "someone") for r in records})


def _base_vectors(say: Say, blind: bool = False, count: int = SENTENCES) -> np.ndarray:
    """MiniLM vectors of the first `count` background sentences (or their name-blind wordings), cached on disk."""
    if blind:
        texts = [t + "." for t in _blind_bases(count)]
    else:
        records, which = padding_facts(count, "pad", 0)
        texts = [r.text.rsplit(" on day ", 1)[0] + "." for r in records]
    key = hashlib.sha1("\n".join(texts).encode()).hexdigest()[:12]
    cache = Path(tempfile.gettempdir()) / "storytable-eval" / f"padding-minilm-{key}.npy"
    if cache.exists():
        return np.load(cache)
    say(f"embedding {len(texts)} background sentences with MiniLM (once; cached in {cache.parent.name}/)")
    model = load_minilm()
    vecs = np.concatenate([model.embed(texts[i:i + 256], use_cache=False) for i in range(0, len(texts), 256)])
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, vecs)
    return vecs


def blind_vectors(n: int, say: Say = _stderr) -> Callable[[str], np.ndarray | None]:
    """The vector of a background Fact's name-blind wording, built as its vector is (see the module doc)."""
    count = min(n, SENTENCES)
    bases = {t: i for i, t in enumerate(_blind_bases(count))}
    vecs = _base_vectors(say, blind=True, count=count)

    def vector(wording: str) -> np.ndarray | None:
        base, sep, day = wording.rpartition(" on day ")
        if not sep or base not in bases or not day.rstrip(".").isdigit():
            return None
        rng = np.random.default_rng(int(day.rstrip(".")))
        vec = vecs[bases[base]] + rng.standard_normal(vecs.shape[1]).astype(np.float32) * (NOISE / np.sqrt(vecs.shape[1]))
        return (vec / np.linalg.norm(vec)).astype(np.float32)
    return vector


def build_test_memory(n: int, say: Say = _stderr) -> tuple[str, list[FactRecord], np.ndarray, list[Any]]:
    """(game id, n Facts, their vectors, the questions): the probe world's Facts first, then background."""
    game_id, probe_facts, queries = load_probe(PROBE_FILE)
    model = load_minilm()
    probe_vecs = model.embed([r.text for r in probe_facts], use_cache=False)
    pad, which = padding_facts(max(0, n - len(probe_facts)), game_id, probe_facts[-1].seq + 1)
    base = _base_vectors(say, count=max(1, min(len(pad), SENTENCES)))
    rng = np.random.default_rng(n)
    pad_vecs = base[which] + rng.standard_normal((len(pad), base.shape[1])).astype(np.float32) * (
        NOISE / np.sqrt(base.shape[1]))
    pad_vecs /= np.linalg.norm(pad_vecs, axis=1, keepdims=True)
    records = (probe_facts + pad)[:n]
    vectors = np.concatenate([probe_vecs, pad_vecs.astype(np.float32)])[:n]
    return game_id, records, vectors, queries


def _ms(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered) * 1000, 2),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
            "max_ms": round(ordered[-1] * 1000, 2)}


def _brute(matrix: np.ndarray, text: str, k: int = 10) -> list[int]:
    """Brute force: embed the question, one exact product with every Fact's vector, the top k."""
    vec = load_minilm().embed([text], use_cache=False)[0]
    sims = matrix @ vec
    top = np.argpartition(-sims, k)[:k]
    return top[np.argsort(-sims[top])].tolist()


def measure(location: str | Path, game_id: str, records: Sequence[FactRecord], vectors: np.ndarray,
            queries: Sequence[Any], *, cache_dir: Path | None = None, say: Say = _stderr,
            repeats: int = 1) -> dict[str, Any]:
    """Build the memory at `location` (a game directory or a Chroma server URL), then time it."""
    n = len(records)
    load_at_start = _load()
    model = load_minilm()
    index = FactIndex(location, game_id, cache_dir=cache_dir)
    wordings = blind_vectors(n, say)
    t0 = time.perf_counter()
    step = 5000
    for start in range(0, n, step):
        index.add_embedded(records[start:start + step], vectors[start:start + step], wordings)
        say(f"  building the {n:,}-Fact memory: {min(n, start + step):,}/{n:,} facts")
    index.set_fingerprint(f"{n}:built")
    build_s = time.perf_counter() - t0
    del index
    if not str(location).startswith("http"):
        _evict_client(str((Path(location) / "index").resolve()))  # a table opened anew: a new Chroma client
    index_module._DERIVED.clear()  # ... and its retrieval cache read from its file
    model.clear_cache()
    t0, cpu0 = time.perf_counter(), time.process_time()
    index = FactIndex(location, game_id, cache_dir=cache_dir)
    open_s = time.perf_counter() - t0
    hybrid_search(index, queries[0].text, 10)
    first_s = time.perf_counter() - t0
    first_cpu_s = time.process_time() - cpu0  # what the wait would be on an idle core (this process's CPU time)
    hybrid_t, brute_t = [], []
    hybrid_c, brute_c = [], []  # the same queries' CPU time: what they cost with a core to themselves
    for rep in range(repeats):
        for i, q in enumerate(queries):
            model.clear_cache()
            order = (0, 1) if (i + rep) % 2 else (1, 0)
            for side in order:
                t, c = time.perf_counter(), time.process_time()
                if side == 0:
                    hybrid_search(index, q.text, 10)
                    hybrid_t.append(time.perf_counter() - t)
                    hybrid_c.append(time.process_time() - c)
                else:
                    _brute(vectors, q.text)
                    brute_t.append(time.perf_counter() - t)
                    brute_c.append(time.process_time() - c)
    after, after_c = [], []
    for j in range(AFTER_WRITES):
        rec = FactRecord(f"new{j}", f"Wenna Reed finds a letter from the reeve hidden in the chapel, note {j}.",
                         "event", game_id, 301, "pad-Wenna Reed", "Wenna Reed", "bot", records[-1].seq + 1 + j)
        index.add([rec])
        model.clear_cache()
        t, c = time.perf_counter(), time.process_time()
        hybrid_search(index, queries[j % len(queries)].text, 10)
        after.append(time.perf_counter() - t)
        after_c.append(time.process_time() - c)
    hybrid, brute, after_ms = _ms(hybrid_t), _ms(brute_t), _ms(after)
    cpu = {"hybrid": _ms(hybrid_c), "brute": _ms(brute_c), "after_write": _ms(after_c)}
    cpu.update({"hybrid_over_brute": round(cpu["hybrid"]["median_ms"] / cpu["brute"]["median_ms"], 2),
                "p95_over_median": round(cpu["hybrid"]["p95_ms"] / cpu["hybrid"]["median_ms"], 2),
                "after_write_over_median": round(cpu["after_write"]["max_ms"] / cpu["hybrid"]["median_ms"], 2)})
    row = {"facts": n, "build_s": round(build_s, 1), "open_s": round(open_s, 3), "first_query_s": round(first_s, 3),
           "first_query_cpu_s": round(first_cpu_s, 3),
           "hybrid": hybrid, "brute": brute, "after_write": after_ms,
           "brute_p95_over_median": round(brute["p95_ms"] / brute["median_ms"], 2),  # the machine's own jitter
           "hybrid_over_brute": round(hybrid["median_ms"] / brute["median_ms"], 2),
           "p95_over_median": round(hybrid["p95_ms"] / hybrid["median_ms"], 2),
           "after_write_over_median": round(after_ms["max_ms"] / hybrid["median_ms"], 2),
           "cpu": cpu,  # process CPU time of the same queries: the ratios with the machine's load taken out
           "refilled_cache": index.refilled_cache,
           "load_average_1min": {"start": load_at_start, "end": _load()}}
    row["targets"] = _targets(row)
    say(f"  {n:,} facts (load average {load_at_start} -> {row['load_average_1min']['end']}): "
        f"first query {first_s:.2f} s ({first_cpu_s:.2f} s CPU); hybrid median {hybrid['median_ms']:.1f} ms "
        f"(p95 {hybrid['p95_ms']:.1f}); brute force {brute['median_ms']:.1f} ms; "
        f"slowest after a write {after_ms['max_ms']:.1f} ms; in CPU time hybrid {cpu['hybrid']['median_ms']:.1f} ms "
        f"(p95 {cpu['hybrid']['p95_ms']:.1f}), brute force {cpu['brute']['median_ms']:.1f} ms, slowest after a write "
        f"{cpu['after_write']['max_ms']:.1f} ms")
    return row


def _targets(row: dict[str, Any]) -> dict[str, bool]:
    out = {f"hybrid within {TARGETS['hybrid_over_brute']}x brute force": row["hybrid_over_brute"]
           <= TARGETS["hybrid_over_brute"],
           f"p95 within {TARGETS['p95_over_median']}x median": row["p95_over_median"] <= TARGETS["p95_over_median"],
           f"after a write within {TARGETS['after_write_over_median']}x median": row["after_write_over_median"]
           <= TARGETS["after_write_over_median"]}
    limit = TARGETS["first_query_s"].get(row["facts"])
    if limit is not None:
        out[f"first query at most {limit} s"] = row["first_query_s"] <= limit
    return out


@contextmanager
def chroma_server(say: Say = _stderr) -> Iterator[str]:
    """A real Chroma server process (the installed chromadb's `chroma run`) on 127.0.0.1; killed after."""
    exe = Path(sys.executable).with_name("chroma")
    if not exe.exists():
        found = shutil.which("chroma")
        if found is None:
            raise RuntimeError("the chroma command of the installed chromadb is missing")
        exe = Path(found)
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="memlat-server-"))
    proc = subprocess.Popen([str(exe), "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        import chromadb

        deadline = time.monotonic() + 60
        while True:
            try:
                chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
                break
            except Exception:  # noqa: BLE001 - not up yet
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"chroma server did not start (exit code {proc.poll()})") from None
                time.sleep(0.3)
        say(f"  chroma server running on {url} (pid {proc.pid})")
        yield url
    finally:
        stop(proc, grace_s=15)
        shutil.rmtree(data, ignore_errors=True)


def run_latency(sizes: Sequence[int] = (1000, 10_000, 100_000), server_sizes: Sequence[int] = (10_000,),
                repeats: int = 1, say: Say = _stderr) -> dict[str, Any]:
    """Every size embedded (a local Chroma directory), and `server_sizes` on a Chroma server process."""
    from threadpoolctl import threadpool_limits

    load_start = _load()
    rows, server_rows = [], []
    with threadpool_limits(1):
        for n in sizes:
            say(f"memory latency at {n:,} facts (embedded Chroma)")
            game_id, records, vectors, queries = build_test_memory(n, say)
            with tempfile.TemporaryDirectory(prefix="memlat-") as tmp:
                rows.append(measure(Path(tmp), game_id, records, vectors, queries, say=say, repeats=repeats))
        for n in server_sizes:
            say(f"memory latency at {n:,} facts (Chroma server)")
            game_id, records, vectors, queries = build_test_memory(n, say)
            with chroma_server(say) as url, tempfile.TemporaryDirectory(prefix="memlat-cache-") as tmp:
                server_rows.append(measure(url, game_id, records, vectors, queries, cache_dir=Path(tmp), say=say,
                                           repeats=repeats))
    return {"embedder": "storytable_minilm", "blas_threads": 1, "queries": len(queries), "repeats": repeats,
            "k": 10, "sizes": rows, "server": server_rows,
            "load_average_1min": {"start": load_start, "end": _load()}, "note": __doc__.split("\n\n")[-1].strip()}


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None
