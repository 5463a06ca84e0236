"""eval/paganini.py: the tier distribution against the exact odds catches a wrong die kept."""
from __future__ import annotations

import random

from engine.paganini.ladder import kept, pool_size, tier
from eval.paganini import run, tier_table


def _rolls(n: int, count: int, keep_wrong: bool = False) -> list[dict]:
    rng = random.Random(7)
    out = []
    for _ in range(count):
        faces = [rng.randint(1, 20) for _ in range(pool_size(n))]
        k = min(faces) if keep_wrong else kept(faces, n)
        out.append({"n": n, "kept": k, "tier": tier(k)})
    return out


def test_correct_pools_sit_near_the_exact_odds_and_a_wrong_keep_does_not():
    """P-2 (@8263) as a statistic: keeping the lowest of a 2 HD pool is far from the keep-highest odds."""
    good = tier_table(_rolls(2, 4000))[0]
    bad = tier_table(_rolls(2, 4000, keep_wrong=True))[0]
    assert good["tvd"] < 0.05 and bad["tvd"] > 0.4
    assert abs(sum(good["exact"]) - 1) < 1e-3


def test_a_small_run_reports_speed_and_tiers():
    res = run(games=2, seed=3)
    assert res["ended"] == 2 and res["actions"] > 0 and res["actions_per_s_apply"] > 0
    assert res["rolls"] > 0
