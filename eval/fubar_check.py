"""FUBAR's numbers: the ladder's outcome distribution against the exact odds (F-1..F-3), and the
engine's speed on simulated games (apply alone, replaying their logs, and whole games).

Run: python -m eval.fubar_check [--rolls N] [--games G]. Prints JSON. Not yet wired into
`storytable eval --game fubar` (issue 19 leaves that for the evaluation's owner).
"""
from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from engine.core.dice import SeededDice
from engine.fubar import dice as D


def ladder_check(rolls: int = 20000, seed: int = 1) -> dict:
    """Seeded d6 pools through redux_result for nets -3..+3: observed shares beside the exact ones."""
    dice = SeededDice(seed)
    out = {}
    for k in range(-3, 4):
        counts = Counter(D.redux_result(dice.roll(D.pool_size(k), 6), k) for _ in range(rolls))
        exact = [float(x) for x in D.result_odds(k)]
        seen = [counts[i] / rolls for i in range(6)]
        out[f"{k:+d}"] = {"success_exact": round(float(D.success_odds(k)), 4),
                          "success_seen": round(sum(seen[3:]), 4),
                          "max_step_gap": round(max(abs(a - b) for a, b in zip(seen, exact)), 4),
                          "seen": [round(x, 4) for x in seen], "exact": [round(x, 4) for x in exact]}
    return out


def speed_check(games: int = 10) -> dict:
    """Whole heuristic games (GM + 3 players, 6 scenes), then `apply` alone over their logs."""
    from agents.game_sim import simulate
    from engine.core.ruleset import replay_log_text

    started = time.perf_counter()
    sims = [simulate("fubar", seats=4, scenes=6, seed=s) for s in range(games)]
    whole = time.perf_counter() - started
    actions = sum(len(r.table.records) for r in sims)
    texts = [r.table.log_text() for r in sims]
    started = time.perf_counter()
    for text in texts:
        replay_log_text(text)
    engine = time.perf_counter() - started
    return {"games": games, "actions": actions, "games_over": sum(r.table.ruleset.is_over(r.table.state) for r in sims),
            "fallbacks": sum(r.stats()["fallbacks"] for r in sims),
            "seconds_per_game": round(whole / games, 3), "engine_actions_per_second": round(actions / engine),
            "table_actions_per_second": round(actions / whole)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m eval.fubar_check", description=__doc__)
    p.add_argument("--rolls", type=int, default=20000)
    p.add_argument("--games", type=int, default=10)
    args = p.parse_args(argv)
    print(json.dumps({"ladder": ladder_check(args.rolls), "speed": speed_check(args.games)}, indent=2))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
