"""Which retrieval signals earn their cost on games the weights never saw.

    python -m eval.memory.ablation            # ~15 minutes on 2 busy cores: every variant below

For each variant (a signal switched off where it is computed, so its candidates go too, or only its
weight held at 0), the weights are refitted without it (fit.py's listwise fit) and measured two ways:
leave-one-game-out over the probes the fit may use (each game scored with weights fitted on the
others), and on the blind probe(s) in `run.UNFITTED` with weights fitted on every fitted probe. A
signal whose removal costs neither figure is not worth its time per query (issue 26): it is dropped.
The blind probe only reports; nothing here is chosen on it.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from .fit import EXTRACT_WEIGHTS, channels, fit_listwise, game_recall, load_games, weights_from, vector_of
from .probe import DATA

#: Variants computed at extraction: the switch that turns the signal off where it is computed.
EXTRACTIONS: dict[str, dict[str, Any]] = {
    "all": {"phrases": True},
    # no phrase of the question reaches a Trait: about, named, bearer's links
    "no_linking": {"phrases": True, "link_threshold": 2.0},
    "no_place_names": {"phrases": True, "place_threshold": 2.0},  # no phrase names a place by its name's meaning
    "no_blind": {"phrases": True, "blind": 0.0},  # the rest of the question is compared with the Facts as worded only
    # no phrase of the question is embedded at all (no linking to Traits, no place named by meaning): what a
    # query then embeds is the question and, when it says a name, its rest (issue 26's 2x of brute force).
    # The default since issue 26 (HybridWeights.phrases).
    "no_phrases": {"phrases": False},
}
#: Variants that only hold channel weights at 0 (their candidates stay), on the "all" extraction.
ZEROED: dict[str, tuple[str, ...]] = {
    "no_profile": ("profile",),
    "no_alias": ("alias",),
    "no_lexical": ("lexical",),
    "no_rest": ("rest",),
    "no_named": ("named",),
    "no_about": ("about",),
}


def evaluate(games: dict[str, list[Any]], blind: dict[str, list[Any]], zero: tuple[str, ...] = ()) -> dict[str, Any]:
    """LOGO recall@10 per fitted game, and blind recall@10 with weights fitted on all fitted games."""
    keys = channels()
    mask = np.array([k not in zero for k in keys], dtype=float)
    logo = {}
    for held in games:
        w = fit_listwise({g: qs for g, qs in games.items() if g != held}, keys) * mask
        logo[held] = round(game_recall(games[held], vector_of(weights_from(w, keys), keys) * mask), 4)
    w_all = vector_of(weights_from(fit_listwise(games, keys) * mask, keys), keys) * mask
    played = [g for g in logo if g != "retrieval"]
    return {"logo": logo, "logo_played_mean": round(float(np.mean([logo[g] for g in played])), 4),
            "blind": {g: round(game_recall(qs, w_all), 4) for g, qs in blind.items()},
            "weights": {k: round(float(v), 3) for k, v in zip(keys, w_all)}}


def main(argv: list[str] | None = None) -> int:
    from .run import PROBES, UNFITTED

    parser = argparse.ArgumentParser(prog="python -m eval.memory.ablation", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA / "memory_ablation.json")
    parser.add_argument("--cache", type=Path, default=None, help="directory to keep extracted features in")
    parser.add_argument("--only", nargs="*", default=None, help="extraction variants to run")
    args = parser.parse_args(argv)
    started = time.perf_counter()

    def say(s: str) -> None:
        print(f"[{time.perf_counter() - started:6.0f} s] {s}", file=sys.stderr, flush=True)

    import eval.memory.fit as fit

    res: dict[str, Any] = {}
    for name, override in EXTRACTIONS.items():
        if args.only and name not in args.only:
            continue
        cached = args.cache / f"{name}.pkl" if args.cache else None
        if cached is not None and cached.exists():
            all_games = pickle.loads(cached.read_bytes())
        else:
            fit.EXTRACT_WEIGHTS = replace(EXTRACT_WEIGHTS, **override)
            all_games = load_games([(key, path) for key, path, _ in PROBES], progress=say)
            fit.EXTRACT_WEIGHTS = EXTRACT_WEIGHTS
            if cached is not None:
                cached.parent.mkdir(parents=True, exist_ok=True)
                cached.write_bytes(pickle.dumps(all_games))
        games = {g: qs for g, qs in all_games.items() if g not in UNFITTED}
        blind = {g: qs for g, qs in all_games.items() if g in UNFITTED}
        res[name] = evaluate(games, blind)
        say(f"{name}: LOGO {res[name]['logo_played_mean']}, blind {res[name]['blind']}")
        if name == "all":
            for zname, zero in ZEROED.items():
                res[zname] = evaluate(games, blind, zero)
                say(f"{zname}: LOGO {res[zname]['logo_played_mean']}, blind {res[zname]['blind']}")
    args.out.write_text(json.dumps(res, indent=1) + "\n")
    print(json.dumps({k: {"logo": v["logo_played_mean"], "blind": v["blind"]} for k, v in res.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
