"""FUBAR's numbers: the ladder's outcome distribution against the exact odds (F-1..F-3), and the
engine's speed on simulated games (apply alone, replaying their logs, and whole games).

Run: python -m eval.fubar_check [--rolls N] [--games G]. Prints JSON. `storytable eval --game fubar`
runs the same checks and prints them as a table (app/commands/eval_run.py).
"""
from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from engine.core.dice import SeededDice
from engine.fubar import dice as D

# chi-square critical values at p = 0.001 by degrees of freedom: a seeded run beyond them is a dice bug
CHI2_CRITICAL_001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124,
                     9: 27.877, 10: 29.588}


def chi_square(counts: list[int], exact: list[float]) -> tuple[float, int]:
    """Pearson's statistic of observed counts against exact shares, and its degrees of freedom."""
    total = sum(counts)
    cells = [(c, total * p) for c, p in zip(counts, exact) if p > 0]
    return sum((c - e) ** 2 / e for c, e in cells), len(cells) - 1


def ladder_check(rolls: int = 20000, seed: int = 1) -> dict:
    """Seeded d6 pools through redux_result for nets -3..+3: observed shares beside the exact ones."""
    dice = SeededDice(seed)
    out = {}
    for k in range(-3, 4):
        counts = Counter(D.redux_result(dice.roll(D.pool_size(k), 6), k) for _ in range(rolls))
        exact = [float(x) for x in D.result_odds(k)]
        seen = [counts[i] / rolls for i in range(6)]
        chi2, df = chi_square([counts[i] for i in range(6)], exact)
        out[f"{k:+d}"] = {"rolls": rolls, "chi2": round(chi2, 2), "df": df,
                          "within": chi2 < CHI2_CRITICAL_001[df],
                          "success_exact": round(float(D.success_odds(k)), 4),
                          "success_seen": round(sum(seen[3:]), 4),
                          "max_step_gap": round(max(abs(a - b) for a, b in zip(seen, exact)), 4),
                          "seen": [round(x, 4) for x in seen], "exact": [round(x, 4) for x in exact]}
    return out


def figure(ladder: dict, path) -> None:
    """Observed against exact ladder shares, one panel per net bonus (PNG), like the economy figure."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nets = list(ladder)
    fig, axes = plt.subplots(1, len(nets), figsize=(2.4 * len(nets), 2.8), sharey=True)
    for ax, net in zip(axes, nets):
        row = ladder[net]
        xs = range(len(D.LADDER))
        ax.bar([x - 0.2 for x in xs], row["exact"], width=0.4, label="exact", color="#999999")
        ax.bar([x + 0.2 for x in xs], row["seen"], width=0.4, label="seen", color="#3366aa")
        ax.set_title(f"net {net}", fontsize=9)
        ax.set_xticks(list(xs), [x.replace(", ", ",\n") for x in D.LADDER], fontsize=6)
    axes[0].set_ylabel("share of rolls")
    axes[0].legend(fontsize=7)
    fig.suptitle("FUBAR ladder: seeded rolls against the exact odds (rule 3)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


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
