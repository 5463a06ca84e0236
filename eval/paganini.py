"""Paganini: engine speed and the tier distribution of its checks against the exact odds.

    python -m eval.paganini --games 20 --seed 0 --out paganini.json

Every settled roll of seeded all-heuristic adventures (checks, attacks, defences, damage, Fitness
and initiative rolls) is grouped by its net pool n; the observed tiers of each group are set
beside the exact keep-highest / keep-lowest d20 odds (engine/paganini/ladder.tier_odds), with the
total variation distance and a chi-square statistic per group. A dice bug (the wrong die kept,
a pool one die short) shows up as a large distance on the groups with many rolls.
Speed: actions per second of whole games (AI seats included), and of `apply` alone (replaying the
recorded actions).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from engine.paganini.ladder import TIERS, tier_odds


def tier_table(rolls: list[dict[str, Any]], min_rolls: int = 30) -> list[dict[str, Any]]:
    """Per net pool n with at least `min_rolls` rolls: observed and exact tier shares, TVD, chi-square."""
    by_n: dict[int, Counter] = defaultdict(Counter)
    for r in rolls:
        by_n[int(r["n"])][int(r["tier"])] += 1
    out = []
    for n in sorted(by_n):
        counts = by_n[n]
        total = sum(counts.values())
        if total < min_rolls:
            continue
        exact = [float(p) for p in tier_odds(n)]
        seen = [counts[t] / total for t in range(len(TIERS))]
        chi2 = sum((counts[t] - total * exact[t]) ** 2 / (total * exact[t]) for t in range(len(TIERS)) if exact[t] > 0)
        out.append({"n": n, "rolls": total, "observed": [round(x, 4) for x in seen],
                    "exact": [round(x, 4) for x in exact], "tvd": round(0.5 * sum(abs(a - b) for a, b in
                                                                                   zip(seen, exact)), 4),
                    "chi2": round(chi2, 2), "df": len(TIERS) - 1})
    return out


def figure(res: dict[str, Any], path: Path) -> None:
    """Observed against exact tier shares, one panel per net pool (PNG), like the economy figure."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = res["tiers_by_pool"]
    if not rows:
        return
    fig, axes = plt.subplots(1, len(rows), figsize=(2.4 * len(rows), 2.8), sharey=True, squeeze=False)
    for ax, row in zip(axes[0], rows):
        xs = range(len(TIERS))
        ax.bar([x - 0.2 for x in xs], row["exact"], width=0.4, label="exact", color="#999999")
        ax.bar([x + 0.2 for x in xs], row["observed"], width=0.4, label="seen", color="#aa5533")
        ax.set_title(f"n={row['n']:+d} ({row['rolls']} rolls)", fontsize=9)
        ax.set_xticks(list(xs), ["".join(w[0] for w in t.split()) for t in TIERS], fontsize=6)
    axes[0][0].set_ylabel("share of rolls")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Paganini tiers: seeded checks against the exact keep-highest / keep-lowest d20 odds", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def run(games: int = 20, seed: int = 0, seats: int = 4, scenes: int = 4) -> dict[str, Any]:
    from agents.game_sim import simulate
    from engine.core.ruleset import get_ruleset

    rs = get_ruleset("paganini")
    rolls: list[dict[str, Any]] = []
    actions, whole, apply_s, over = 0, 0.0, 0.0, 0
    for g in range(games):
        r = simulate("paganini", seats=seats, scenes=scenes, seed=seed + g)
        whole += r.seconds
        actions += len(r.table.records)
        over += r.stats()["over"]
        rolls += r.table.state.checks
        state = rs.game_from_header(r.table.header)
        started = time.perf_counter()
        for rec in r.table.records:
            state, _ = rs.apply(state, rec.action)
        apply_s += time.perf_counter() - started
    table = tier_table(rolls)
    return {
        "game": "paganini", "games": games, "seed": seed, "seats": seats, "scenes": scenes, "ended": over,
        "actions": actions, "actions_per_s_whole": round(actions / whole, 1) if whole else None,
        "actions_per_s_apply": round(actions / apply_s, 1) if apply_s else None,
        "rolls": len(rolls), "tiers_by_pool": table,
        "max_tvd": max((row["tvd"] for row in table), default=None),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m eval.paganini", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None, help="write the figures as JSON here (never overwrites)")
    args = p.parse_args(argv)
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    res = run(args.games, args.seed)
    print(f"{res['games']} adventures, {res['ended']} ended; {res['actions']} actions: "
          f"{res['actions_per_s_whole']}/s whole, {res['actions_per_s_apply']}/s apply alone")
    print(f"{res['rolls']} rolls; by net pool (rolls, TVD from the exact odds):")
    for row in res["tiers_by_pool"]:
        print(f"  n={row['n']:+d}: {row['rolls']:5d} rolls, TVD {row['tvd']:.3f}, chi2 {row['chi2']:.1f} "
              f"(df {row['df']})")
    if args.out is not None:
        try:
            with open(args.out, "x", encoding="utf-8") as fh:
                json.dump(res, fh, indent=2)
        except FileExistsError:
            print(f"{args.out.name} already exists: choose another --out", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
