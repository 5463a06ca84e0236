"""Recall of dense vs hybrid retrieval on paraphrased questions.

The probe file is generic: {"game_id", "facts": [FactRecord dicts], "queries":
[{"id", "text", "relevant": [fact ids], "scene"?: int}]}, so a probe built from
a real played game drops in without code changes.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from agents.memory.index import FactIndex, log_fingerprint
from agents.memory.records import FactRecord
from agents.memory.retrieval import DEFAULT_WEIGHTS, HybridWeights, ScoredFact, dense_search, hybrid_search

DATA = Path(__file__).resolve().parents[1] / "data"
PROBE_FILE = DATA / "memory_probe.json"


@dataclass(frozen=True)
class ProbeQuery:
    id: str
    text: str
    relevant: tuple[str, ...]
    scene: int | None = None


def load_probe(path: Path = PROBE_FILE) -> tuple[str, list[FactRecord], list[ProbeQuery]]:
    """(game_id, facts, queries); raises ValueError naming the first bad entry."""
    data = json.loads(Path(path).read_text())
    game_id = str(data.get("game_id") or "probe")
    facts = [FactRecord.from_dict(f, game_id=game_id) for f in data["facts"]]
    ids = {f.id for f in facts}
    queries = []
    for q in data["queries"]:
        missing = [r for r in q["relevant"] if r not in ids]
        if missing:
            raise ValueError(f"{path}: query {q.get('id')} needs unknown facts {missing}")
        queries.append(ProbeQuery(str(q["id"]), q["text"], tuple(q["relevant"]), q.get("scene")))
    return game_id, facts, queries


def recall_at(results: Sequence[ScoredFact], relevant: Sequence[str], k: int) -> float:
    top = {sf.record.id for sf in results[:k]}
    return sum(r in top for r in relevant) / len(relevant)


def evaluate(index: FactIndex, queries: Sequence[ProbeQuery],
             searcher: Callable[[FactIndex, ProbeQuery], list[ScoredFact]]) -> dict[str, Any]:
    r5 = r10 = 0.0
    misses = []
    for q in queries:
        res = searcher(index, q)
        r5 += recall_at(res, q.relevant, 5)
        got = recall_at(res, q.relevant, 10)
        r10 += got
        if got < 1.0:
            misses.append(q.id)
    n = len(queries) or 1
    return {"recall@5": round(r5 / n, 4), "recall@10": round(r10 / n, 4), "misses@10": misses}


def run_probe(path: Path = PROBE_FILE, weights: HybridWeights = DEFAULT_WEIGHTS,
              workdir: Path | None = None) -> dict[str, Any]:
    """Index the probe Facts in a throwaway Chroma dir and score both retrievers."""
    game_id, facts, queries = load_probe(path)
    with tempfile.TemporaryDirectory(prefix="memprobe-") as tmp:
        index = FactIndex(workdir or Path(tmp), game_id)
        index.rebuild(facts, log_fingerprint(len(facts), facts[-1].id if facts else ""))
        dense = evaluate(index, queries, lambda ix, q: dense_search(ix, q.text, 10))
        hybrid = evaluate(index, queries, lambda ix, q: hybrid_search(
            ix, q.text, 10, current_scene=q.scene, weights=weights))
        # Weights were tuned on this probe: also report the halves separately, so
        # a gap between them shows over-fitting.
        halves = {
            name: evaluate(index, [q for i, q in enumerate(queries) if i % 2 == parity],
                           lambda ix, q: hybrid_search(ix, q.text, 10, current_scene=q.scene, weights=weights))
            for name, parity in (("odd_queries", 0), ("even_queries", 1))
        }
    return {"facts": len(facts), "queries": len(queries), "source": str(path.name), "dense": dense,
            "hybrid": hybrid, "hybrid_halves": {k: {m: v[m] for m in ("recall@5", "recall@10")}
                                                  for k, v in halves.items()}}
