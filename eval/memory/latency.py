"""Query latency of the Chroma index vs exact brute-force numpy over the same vectors.

Why: Chroma (HNSW) earns its place only if it is faster than a plain matrix
product at the sizes a long campaign or a shared server reaches. Also reports
HNSW's recall against the exact top-10, and hybrid-search latency.

Both sides search the same WordLlama vectors: the comparison does not depend on
the embedder, and WordLlama embeds 100k Facts in seconds (MiniLM, the default,
would take about 20 minutes). What the default embedder adds to every query is
reported apart (`query_embed_ms`). So is the e5 channel (the optional second embedder):
embedding 100k Facts with e5 would take about 40 minutes, so its per-query cost
is its question's embedding plus `second_channel_ms`, one product and median
over n stored vectors (random ones: the cost does not depend on their values).
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from agents.memory.e5 import E5EmbeddingFunction, e5_available
from agents.memory.embeddings import MiniLMEmbeddingFunction, WordLlamaEmbeddingFunction
from agents.memory.index import FactIndex
from agents.memory.records import FactRecord
from agents.memory.retrieval import hybrid_search

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


def padding_facts(n: int, game_id: str, start_seq: int, seed: int = 11) -> list[FactRecord]:
    """n synthetic background Facts (distinct texts, ~60 minor components, 300 scenes)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        who = f"{rng.choice(_NAMES)} {rng.choice(_SURNAMES)}"
        text = f"{who} {rng.choice(_VERBS)} {rng.choice(_THINGS)} {rng.choice(_PLACES)} on day {i}."
        out.append(FactRecord(f"pad{i}", text, "event", game_id, 1 + i % 300, f"pad-{who}", who, "bot",
                              start_seq + i))
    return out


def _ms(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered) * 1000, 3),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3)}


def run_latency(sizes: Sequence[int], repeats: int = 3, k: int = 10, hybrid_queries: int = 20) -> dict[str, Any]:
    load_start = _load()
    game_id, probe_facts, queries = load_probe(PROBE_FILE)
    ef = WordLlamaEmbeddingFunction()
    biggest = max(sizes)
    pad = padding_facts(max(0, biggest - len(probe_facts)), game_id, probe_facts[-1].seq + 1)
    records = (probe_facts + pad)[:biggest]
    t0 = time.perf_counter()
    vectors = np.asarray(ef([r.text for r in records]), dtype=np.float32)
    embed_s = time.perf_counter() - t0
    qvecs = np.asarray(ef([q.text for q in queries]), dtype=np.float32)
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="memlat-") as tmp:
            index = FactIndex(Path(tmp), game_id, embedding_function=ef)
            t0 = time.perf_counter()
            index.add_embedded(records[:n], vectors[:n])
            load_s = time.perf_counter() - t0
            mat = vectors[:n]
            chroma_t, numpy_t, agree = [], [], []
            for _ in range(repeats):
                for qi, q in enumerate(queries):
                    t = time.perf_counter()
                    got = index.query(q.text, k, query_embedding=qvecs[qi])
                    chroma_t.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    sims = mat @ qvecs[qi]
                    top = np.argpartition(-sims, k)[:k]
                    top = top[np.argsort(-sims[top])]
                    numpy_t.append(time.perf_counter() - t)
                    # ties are common among near-duplicate Facts: a hit counts if it
                    # is as similar as the exact k-th neighbour
                    kth = float(sims[top[-1]])
                    agree.append(sum(s >= kth - 1e-4 for _, s in got) / k)
            hybrid_search(index, queries[0].text, k)  # build BM25/profiles once, timed apart
            t = time.perf_counter()
            hybrid_search(index, queries[1].text, k)
            hyb_t = []
            for q in queries[:hybrid_queries]:
                t = time.perf_counter()
                hybrid_search(index, q.text, k)
                hyb_t.append(time.perf_counter() - t)
            rng = np.random.default_rng(n)
            second = rng.standard_normal((n, 384)).astype(np.float32)
            second /= np.linalg.norm(second, axis=1, keepdims=True)
            second_t = []
            for qi in range(hybrid_queries):
                qv = second[qi % n]
                t = time.perf_counter()
                cos = second @ qv
                float(np.median(cos)), float(cos.max())
                second_t.append(time.perf_counter() - t)
            chroma, brute = _ms(chroma_t), _ms(numpy_t)
            rows.append({
                "facts": n, "load_s": round(load_s, 2), "chroma": chroma, "numpy_exact": brute,
                "ratio_chroma_over_numpy": round(chroma["median_ms"] / max(brute["median_ms"], 1e-6), 2),
                "hnsw_recall_vs_exact@10_tie_aware": round(float(np.mean(agree)), 4), "hybrid": _ms(hyb_t),
                "second_channel_ms": _ms(second_t),
            })
    return {"embedder": ef.name(), "embed_s_all": round(embed_s, 2),
            "query_embed_ms": query_embed_ms([q.text for q in queries[:hybrid_queries]]),
            "queries": len(queries), "repeats": repeats, "k": k, "sizes": rows,
            "load_average_1min": {"start": load_start, "end": _load()},
            "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS") or "default",
            "note": "chroma timing includes its Python client overhead; numpy is one matrix-vector product. "
                    "Timings on a shared machine vary with its load (recorded above); run with "
                    "OPENBLAS_NUM_THREADS=1 so numpy does not fight other processes for cores."}


def query_embed_ms(texts: Sequence[str]) -> dict[str, dict[str, float]]:
    """Per-query embedding time of each offline embedder (one text per call, as a query is embedded).

    MiniLM's cache is bypassed: these questions were embedded moments ago by the searches above.
    """
    from agents.memory.minilm import load_minilm

    minilm = load_minilm()
    embedders = {MiniLMEmbeddingFunction.name(): lambda text: minilm.embed([text], use_cache=False),
                 WordLlamaEmbeddingFunction.name(): lambda text: WordLlamaEmbeddingFunction()([text])}
    if e5_available():
        e5 = E5EmbeddingFunction()
        embedders[e5.name()] = lambda text: e5.embed_queries([text])
    out = {}
    for name, embed in embedders.items():
        embed("warm up: load the model")
        samples = []
        for text in texts:
            t = time.perf_counter()
            embed(text)
            samples.append(time.perf_counter() - t)
        out[name] = _ms(samples)
    return out


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None
