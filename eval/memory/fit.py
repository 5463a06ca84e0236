"""Fit the hybrid retrieval's channel weights to the probes, and measure them on games they never saw.

    python -m eval.memory.fit            # ~5 minutes: features, leave-one-game-out, the fit on all probes

The hybrid score is a weighted sum of per-channel scores (`ScoredFact.sources`), so its weights can
be learned instead of tuned by hand: coordinate ascent on mean recall@10 (Metzler and Croft's
method for a few ranking features; recall@10 is the target, and it is not smooth enough for
gradients). Each probe counts as one game, and every game is weighed the same.

The honest figure is leave-one-game-out: for each probe, weights are fitted on the others and
recall@10 is measured on it, so no game is scored with weights chosen on its own questions. The
defaults in `HybridWeights` are the fit on all probes; this script checks them by reproducing it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from agents.memory.index import FactIndex
from agents.memory.retrieval import DEFAULT_WEIGHTS, HybridWeights, hybrid_search, wording_key

from .probe import DATA, load_probe, log_fingerprint

#: Channels whose weight is fitted: every `sources` key but the e5 one, which needs the option installed.
FIXED = ("second",)
#: Every channel on (a tiny weight switches on the ones whose candidates or work depend on it), and
#: no merging of same-worded Facts: the ranking is redone per weight vector below.
EXTRACT_WEIGHTS = replace(DEFAULT_WEIGHTS, about=1e-6, profile=1e-6, second=0.0, distinct=False)
#: The hand-tuned weights the fit replaced (at 7152cbf), kept to compare against.
HAND_TUNED = {"about": 0.0, "alias": 0.2, "bearer": 0.1, "cause": 0.2, "dense": 0.3, "identity": 1.0, "lexical": 0.1,
              "name": 0.05, "named": 0.6, "order": 0.2, "origin": 0.2, "pair": 0.2, "place": 0.3, "profile": 0.0,
              "rest": 0.7, "scene": 0.05, "second": 0.15, "where": 0.2}
#: Multipliers and steps tried for each weight in a round of coordinate ascent.
MULTIPLIERS = (0.0, 0.5, 0.75, 1.33, 2.0)
STEPS = (0.05, 0.1)


@dataclass
class Question:
    """One probe question's candidates: their channel scores, and what recall needs of them."""

    features: np.ndarray  # candidates x channels
    seqs: np.ndarray  # ties go to the later Fact, as in hybrid_search
    wording: np.ndarray  # candidates with one wording share a number (HybridWeights.distinct)
    groups: list[list[int]]  # per relevant item, the candidates that answer it


def channels() -> list[str]:
    """The weight names that are channels (the keys of `ScoredFact.sources`), in a fixed order."""
    return sorted(CHANNELS)


CHANNELS = ("about", "alias", "bearer", "cause", "dense", "identity", "lexical", "name", "named", "order",
            "origin", "pair", "place", "profile", "rest", "scene", "second", "where")


def extract(index: FactIndex, queries: Sequence[Any]) -> list[Question]:
    """Every candidate of every question with its channel scores (one hybrid search each)."""
    keys = channels()
    out = []
    for q in queries:
        res = hybrid_search(index, q.text, 1_000_000, current_scene=q.scene, weights=EXTRACT_WEIGHTS)
        pos = {sf.record.id: i for i, sf in enumerate(res)}
        words: dict[str, int] = {}
        wording = [words.setdefault(wording_key(sf.record), len(words)) for sf in res]
        groups = [[pos[i] for i in ((r,) if isinstance(r, str) else r) if i in pos] for r in q.relevant]
        feats = np.array([[sf.sources.get(k, 0.0) for k in keys] for sf in res], dtype=np.float64)
        out.append(Question(feats.reshape(len(res), len(keys)), np.array([sf.record.seq for sf in res]),
                            np.array(wording, dtype=np.int64), groups))
    return out


def recall(q: Question, w: np.ndarray, k: int = 10) -> float:
    """recall@k of one question under weights `w`, ranked and de-duplicated as hybrid_search does."""
    if not q.groups:
        return 0.0
    top: set[int] = set()
    if len(q.seqs):
        seen: set[int] = set()
        for i in np.lexsort((-q.seqs, -(q.features @ w))):
            if q.wording[i] not in seen:
                seen.add(q.wording[i])
                top.add(int(i))
                if len(top) == k:
                    break
    return sum(any(i in top for i in g) for g in q.groups) / len(q.groups)


def game_recall(questions: Sequence[Question], w: np.ndarray, k: int = 10) -> float:
    return sum(recall(q, w, k) for q in questions) / len(questions)


def mean_recall(games: dict[str, list[Question]], w: np.ndarray) -> float:
    """Mean over games of each game's recall@10: a game with many questions counts as one."""
    return sum(game_recall(qs, w) for qs in games.values()) / len(games)


def coordinate_ascent(games: dict[str, list[Question]], start: np.ndarray, keys: Sequence[str],
                      rounds: int = 6) -> tuple[np.ndarray, float]:
    """Change one weight at a time to whichever tried value raises mean recall@10; stop when none does."""
    w = start.copy()
    best = mean_recall(games, w)
    for _ in range(rounds):
        improved = False
        for j, key in enumerate(keys):
            if key in FIXED:
                continue
            tried = sorted({round(w[j] * m, 4) for m in MULTIPLIERS} | {round(w[j] + s, 4) for s in STEPS})
            for v in tried:
                if v == w[j] or v < 0:
                    continue
                trial = w.copy()
                trial[j] = v
                score = mean_recall(games, trial)
                if score > best + 1e-4:
                    best, w, improved = score, trial, True
        if not improved:
            break
    return w, best


def flat_start(keys: Sequence[str]) -> np.ndarray:
    """Every fitted channel at 0.1: the fit owes nothing to earlier hand tuning."""
    return np.array([0.0 if k in FIXED else 0.1 for k in keys])


def vector_of(weights: HybridWeights, keys: Sequence[str]) -> np.ndarray:
    return np.array([getattr(weights, k) for k in keys])


def weights_from(vector: np.ndarray, keys: Sequence[str], base: HybridWeights = DEFAULT_WEIGHTS) -> HybridWeights:
    return replace(base, **{k: round(float(v), 3) for k, v in zip(keys, vector) if k not in FIXED})


def load_games(probes: Sequence[tuple[str, Path]], embedding_function: Any = None,
               progress: Callable[[str], None] = lambda s: None) -> dict[str, list[Question]]:
    """Index each probe in a throwaway Chroma dir and extract its questions' candidates."""
    games = {}
    with tempfile.TemporaryDirectory(prefix="memfit-") as tmp:
        for key, path in probes:
            game_id, facts, queries = load_probe(path)
            index = FactIndex(Path(tmp) / key, game_id, embedding_function=embedding_function)
            index.rebuild(facts, log_fingerprint(len(facts), facts[-1].id if facts else ""))
            games[key] = extract(index, queries)
            progress(f"{key}: {len(facts)} Facts, {len(queries)} questions")
    return games


def leave_one_game_out(games: dict[str, list[Question]], keys: Sequence[str],
                       progress: Callable[[str], None] = lambda s: None) -> dict[str, dict[str, float]]:
    """Per game: recall@10 with the hand-tuned weights, the defaults (fitted on all games, this one
    included), and weights fitted on the other games only (the honest figure)."""
    setups = {"hand_tuned": np.array([HAND_TUNED[k] for k in keys]),
              "defaults": vector_of(DEFAULT_WEIGHTS, keys)}
    out = {}
    for held in games:
        w, _ = coordinate_ascent({g: qs for g, qs in games.items() if g != held}, flat_start(keys), keys)
        out[held] = {name: round(game_recall(games[held], v), 3) for name, v in setups.items()}
        out[held]["fitted_without_it"] = round(game_recall(games[held], w), 3)
        progress(f"{held}: " + ", ".join(f"{k} {v:.3f}" for k, v in out[held].items()))
    return out


def main(argv: list[str] | None = None) -> int:
    from .run import PROBES

    parser = argparse.ArgumentParser(prog="python -m eval.memory.fit", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA / "memory_fit.json")
    args = parser.parse_args(argv)
    started = time.perf_counter()

    def say(s: str) -> None:
        print(f"[{time.perf_counter() - started:6.0f} s] {s}", file=sys.stderr, flush=True)

    keys = channels()
    games = load_games([(key, path) for key, path, _ in PROBES], progress=say)
    logo = leave_one_game_out(games, keys, progress=say)
    w, train = coordinate_ascent(games, flat_start(keys), keys)
    fitted = weights_from(w, keys)
    defaults = vector_of(DEFAULT_WEIGHTS, keys)
    played = [g for g in games if g != "retrieval"]
    res = {
        "channels": keys,
        "fitted_on_all": {k: getattr(fitted, k) for k in keys},
        "defaults": {k: getattr(DEFAULT_WEIGHTS, k) for k in keys},
        "defaults_are_the_fit": bool(np.allclose(vector_of(fitted, keys), defaults)),
        "leave_one_game_out": logo,
        "played_games_mean": {name: round(float(np.mean([logo[g][name] for g in played])), 3)
                              for name in ("hand_tuned", "defaults", "fitted_without_it")},
        "seconds": round(time.perf_counter() - started, 1),
    }
    args.out.write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
