"""The blind retrieval set: questions over a game nobody fitted on, written before any search ran on it.

Why: the fitted probes' recall@10 flatters the weights fitted on them. This set
(eval/data/probes/blind.json over eval/data/probe_blind.jsonl, seed 1207) is
scored once per retriever change and reported beside the fitted figure; do
not tune on its per-question results.

    PYTHONPATH=. python -m eval.memory.blind     # dense vs hybrid recall@5/@10 and ms per query
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from agents.memory.index import FactIndex, log_fingerprint
from agents.memory.records import FactRecord
from agents.memory.retrieval import ScoredFact, dense_search, hybrid_search

from .probe import ProbeQuery, recall_at
from .probe_data import build

BLIND = "blind"
Searcher = Callable[[FactIndex, ProbeQuery], list[ScoredFact]]


def load_blind() -> tuple[str, list[FactRecord], list[ProbeQuery]]:
    """(game_id, facts, queries) of the blind set, built from its log."""
    data = build(BLIND)
    facts = [FactRecord.from_dict(f, game_id=data["game_id"]) for f in data["facts"]]
    queries = [ProbeQuery(q["id"], q["text"], tuple((r,) if isinstance(r, str) else tuple(r) for r in q["relevant"]),
                          q.get("scene")) for q in data["queries"]]
    return data["game_id"], facts, queries


DEFAULT_SEARCHERS: dict[str, Searcher] = {
    "dense": lambda ix, q: dense_search(ix, q.text, 10),
    "hybrid": lambda ix, q: hybrid_search(ix, q.text, 10, current_scene=q.scene),
}


def score_blind(searchers: dict[str, Searcher] | None = None, embedding_function: Any = None) -> dict[str, Any]:
    """recall@5, recall@10 and ms per query of each retriever on the blind set (one throwaway index)."""
    game_id, facts, queries = load_blind()
    out: dict[str, Any] = {"facts": len(facts), "queries": len(queries)}
    with tempfile.TemporaryDirectory(prefix="memblind-") as tmp:
        index = FactIndex(Path(tmp), game_id, embedding_function=embedding_function)
        index.rebuild(facts, log_fingerprint(len(facts), facts[-1].id))
        for name, search in (searchers or DEFAULT_SEARCHERS).items():
            r5 = r10 = 0.0
            started = time.perf_counter()
            for q in queries:
                res = search(index, q)
                r5 += recall_at(res, q.relevant, 5)
                r10 += recall_at(res, q.relevant, 10)
            ms = (time.perf_counter() - started) * 1000 / len(queries)
            out[name] = {"recall@5": round(r5 / len(queries), 4), "recall@10": round(r10 / len(queries), 4),
                         "ms_per_query": round(ms, 1)}
    return out


if __name__ == "__main__":
    print(json.dumps(score_blind(), indent=1))
