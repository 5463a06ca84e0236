"""Recall of dense vs hybrid retrieval on paraphrased questions.

The probe file is generic: {"game_id", "facts": [FactRecord dicts], "queries":
[{"id", "text", "relevant": [fact id or [fact ids]], "scene"?: int}]}. An inner
list is a group of Facts saying the same thing (a Trait restated in events, a
deed done twice): any one of them counts as that item recalled.

The probes: the synthetic world (memory_probe.json: data; the generator that wrote
it once, eval/memory/probe_world.py, is in git history) and eleven played games
(memory_probe_game*.json, built from eval/data/probe_game*.jsonl and the questions
in eval/data/probes/game*.json by eval/memory/probe_data.py; all but the first
written blind, by someone who read no retrieval code). The blind retrieval set,
scored once and never fitted on, is eval/data/probes/blind.json (eval/memory/blind.py). Each is split in halves by query
position (the "tune" half: 1st, 3rd, 5th... query; the "held_out" half). The
weights are fitted leave-one-game-out over whole games (fit.py), and the newest
game is never fitted on (run.UNFITTED).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from agents.memory.e5 import make_second_embedding_function
from agents.memory.index import FactIndex, log_fingerprint
from agents.memory.records import FactRecord
from agents.memory.retrieval import DEFAULT_WEIGHTS, HybridWeights, ScoredFact, dense_search, hybrid_search

DATA = Path(__file__).resolve().parents[1] / "data"
PROBE_FILE = DATA / "memory_probe.json"
GAME_PROBE_FILE = DATA / "memory_probe_game.json"
GAME2_PROBE_FILE = DATA / "memory_probe_game2.json"  # written blind: see eval/data/probes/game2.json
GAME3_PROBE_FILE = DATA / "memory_probe_game3.json"  # written blind; untuned until probe 5 replaced it as held-out
GAME4_PROBE_FILE = DATA / "memory_probe_game4.json"  # written blind, measured once, then its tune half used
GAME5_PROBE_FILE = DATA / "memory_probe_game5.json"  # a western, written blind: first measured 0.800, then its tune half used
GAME6_PROBE_FILE = DATA / "memory_probe_game6.json"  # horror, written blind: first measured 0.820, then its tune half used
GAME7_PROBE_FILE = DATA / "memory_probe_game7.json"  # space opera, written blind: first measured 0.809, then used
GAME8_PROBE_FILE = DATA / "memory_probe_game8.json"  # noir, written blind; measured once untouched (0.864), then fitted on
GAME9_PROBE_FILE = DATA / "memory_probe_game9.json"  # western, written blind, measured once at the fitted weights (0.849), then fitted on
GAME10_PROBE_FILE = DATA / "memory_probe_game10.json"  # fantasy, written blind; measured once at the listwise fit (0.845), then fitted on
GAME11_PROBE_FILE = DATA / "memory_probe_game11.json"  # horror, written blind after the premise and narration fixes; not fitted on


@dataclass(frozen=True)
class ProbeQuery:
    id: str
    text: str
    relevant: tuple[tuple[str, ...], ...]  # items to recall; each a group of equivalent Fact ids
    scene: int | None = None
    tags: tuple[str, ...] = ()  # what kind of question (probes/game2.json's tags: referent, topic, rewording)


def load_probe(path: Path = PROBE_FILE) -> tuple[str, list[FactRecord], list[ProbeQuery]]:
    """(game_id, facts, queries); raises ValueError naming the first bad entry."""
    data = json.loads(Path(path).read_text())
    game_id = str(data.get("game_id") or "probe")
    facts = [FactRecord.from_dict(f, game_id=game_id) for f in data["facts"]]
    ids = {f.id for f in facts}
    queries = []
    for q in data["queries"]:
        groups = tuple((r,) if isinstance(r, str) else tuple(r) for r in q["relevant"])
        missing = [r for g in groups for r in g if r not in ids]
        if missing or not groups or not all(groups):
            raise ValueError(f"{path}: query {q.get('id')} needs unknown facts {missing or 'none'}")
        queries.append(ProbeQuery(str(q["id"]), q["text"], groups, q.get("scene"), tuple(q.get("tags") or ())))
    return game_id, facts, queries


def recall_at(results: Sequence[ScoredFact], relevant: Sequence[str | Sequence[str]], k: int) -> float:
    """Share of the relevant items with at least one of their Facts in the top k."""
    top = {sf.record.id for sf in results[:k]}
    groups = [(r,) if isinstance(r, str) else r for r in relevant]
    return sum(any(i in top for i in g) for g in groups) / len(groups)


def halves(queries: Sequence[ProbeQuery]) -> dict[str, list[ProbeQuery]]:
    """Tune on the 1st, 3rd, 5th... query; the others are held out."""
    return {"tune": list(queries[0::2]), "held_out": list(queries[1::2])}


def evaluate(index: FactIndex, queries: Sequence[ProbeQuery],
             searcher: Callable[[FactIndex, ProbeQuery], list[ScoredFact]]) -> dict[str, Any]:
    r5 = r10 = 0.0
    misses = []
    by_tag: dict[str, list[float]] = {}
    for q in queries:
        res = searcher(index, q)
        r5 += recall_at(res, q.relevant, 5)
        got = recall_at(res, q.relevant, 10)
        r10 += got
        if got < 1.0:
            misses.append(q.id)
        for tag in q.tags:
            by_tag.setdefault(tag, []).append(got)
    n = len(queries) or 1
    out: dict[str, Any] = {"recall@5": round(r5 / n, 4), "recall@10": round(r10 / n, 4), "misses@10": misses}
    if by_tag:
        out["recall@10_by_tag"] = {t: {"queries": len(v), "recall@10": round(sum(v) / len(v), 4)}
                                   for t, v in sorted(by_tag.items())}
    return out


def run_probe(path: Path = PROBE_FILE, weights: HybridWeights = DEFAULT_WEIGHTS,
              workdir: Path | None = None, embedding_function: Any = None, second: str = "none") -> dict[str, Any]:
    """Index the probe Facts in a throwaway Chroma dir and score both retrievers, overall and per half.

    The hybrid is asked exactly as GameMemory.recall asks (same function, the
    query's scene as the current scene); dense is plain Chroma nearest neighbours
    of the main embedder. `second` picks the second embedder as the `[memory]`
    setting does ("none", the default: the main embedder alone; "e5").
    """
    game_id, facts, queries = load_probe(path)
    searchers: dict[str, Callable[[FactIndex, ProbeQuery], list[ScoredFact]]] = {
        "dense": lambda ix, q: dense_search(ix, q.text, 10),
        "hybrid": lambda ix, q: hybrid_search(ix, q.text, 10, current_scene=q.scene, weights=weights),
    }
    with tempfile.TemporaryDirectory(prefix="memprobe-") as tmp:
        index = FactIndex(workdir or Path(tmp), game_id, embedding_function=embedding_function,
                          second_embedding_function=make_second_embedding_function(second))
        index.rebuild(facts, log_fingerprint(len(facts), facts[-1].id if facts else ""))
        second_ef = index.second_embedding_function
        out: dict[str, Any] = {"facts": len(facts), "queries": len(queries), "source": str(path.name),
                               "embedder": index.embedding_function.name(),
                               "second_embedder": second_ef.name() if second_ef is not None else None}
        for name, searcher in searchers.items():
            out[name] = evaluate(index, queries, searcher)
        out["halves"] = {
            half: {name: {m: v[m] for m in ("recall@5", "recall@10")}
                   for name, v in ((n, evaluate(index, qs, s)) for n, s in searchers.items())}
            for half, qs in halves(queries).items()
        }
    return out

