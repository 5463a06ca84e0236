"""The economy of seeded all-heuristic games: coins, Complications, Challenges, bonus coins per die.

The rulebook expects a winning Pool to earn about 1.5 coins per die (half the d10 faces are
Successes, worth 3 on average) and a losing Pool 1 per die. Winners are measured as they came
out of the roll, so a winner's dice are biased towards Successes: the measured figure is
expected to sit somewhat above 1.5. The figures come from the engine's events; the reference's
arithmetic is run on every game too and any disagreement is counted.

Economy figures are not speed figures, so the games may be spread over worker processes.
"""
from __future__ import annotations

import time
from collections import Counter
from typing import Any

from eval.games import ProgressFn, play_game
from engine.universalis.ledger import conservation_problems
from eval.reference import extract_tape, run_tape

EXPECTED_WINNER_PER_DIE = 1.5
EXPECTED_LOSER_PER_DIE = 1.0
CHALLENGE_KINDS = ("challenge", "challenge_conceded", "challenge_withdrawn", "challenge_dropped",
                   "challenge_result", "statement_withdrawn", "statement_changed", "fact_disputed")


def game_figures(args: tuple) -> dict[str, Any]:
    """One game's economy (a top-level function so worker processes can run it); a fourth item is
    the add-ons (a dict of Addons fields) the game plays under."""
    seats, scenes, seed = args[:3]
    addons = args[3] if len(args) > 3 else None
    try:
        played = play_game(seats, scenes, seed, addons=addons)
    except Exception as exc:  # noqa: BLE001 - counted and reported, the run goes on
        return {"seed": seed, "error": f"{type(exc).__name__}: {exc}"[:300]}
    t = played.table
    s = t.state
    n_scenes = max(1, s.scenes_ended)
    kinds = Counter(e.kind for e in t.events)
    challenge = {k: kinds[k] for k in CHALLENGE_KINDS}
    challenge["statement_stood"] = sum(1 for e in t.events if e.kind == "challenge_result" and e.data.get("winner") == 0)
    win = {"bonus": 0, "dice": 0, "pools": 0}
    lose = {"bonus": 0, "dice": 0, "pools": 0}
    last_roll: dict[str, list[int]] = {}
    c_wins = t_wins = ties = 0
    for e in t.events:
        if e.kind == "roll":
            last_roll = e.data.get("faces", {})
        elif e.kind == "edge":
            ties += 1
        elif e.kind == "complication_result":
            winner = e.data.get("winner")
            c_wins += winner == "C"
            t_wins += winner == "T"
            for key, coins in e.data.get("bonus", {}).items():
                side = win if (key == "C") == (winner == "C") else lose
                side["bonus"] += coins
                side["dice"] += len(last_roll.get(key, ()))
                side["pools"] += 1
    names, tape, final = extract_tape(t.header, t.records)
    ref = run_tape(names, tape)
    engine_bonus = [e.data.get("bonus") for e in t.events if e.kind == "complication_result"]
    agrees = ref.coins == [p.wealth + p.stake for p in final.players] and \
        [r["bonus"] for r in ref.rolls] == engine_bonus
    ledgers = [p.ledger for p in s.players]
    per_seat_scene = len(s.players) * n_scenes
    return {
        "seed": seed, "scenes": s.scenes_ended, "actions": len(t.records), "seconds": played.seconds,
        "complications": kinds["complication"], "resolved": kinds["complication_result"],
        "c_wins": c_wins, "t_wins": t_wins, "ties": ties, "challenge": challenge,
        "winner": win, "loser": lose,
        "paid_per_seat_scene": sum(lg.paid for lg in ledgers) / per_seat_scene,
        "refresh_per_seat_scene": sum(lg.refreshments for lg in ledgers) / per_seat_scene,
        "bonus_per_seat_scene": sum(lg.bonus for lg in ledgers) / per_seat_scene,
        "compensation_per_seat_scene": sum(lg.compensation for lg in ledgers) / per_seat_scene,
        "mean_coins_after_scene": [sum(row) / len(row) for row in ref.scene_coins],
        "final_coins_per_seat": sum(p.wealth + p.stake for p in s.players) / len(s.players),
        "reference_agrees": agrees, "pool_mismatches": ref.pool_mismatches,
        "coin_problems": conservation_problems(s)[:3],  # U-ECO-2, Endowments and Plot Pools included
    }


def run_economy(games: int, seats: int = 4, scenes: int = 10, jobs: int = 1, budget_s: float | None = None,
                progress: ProgressFn | None = None, seed0: int = 0, addons: dict | None = None) -> dict[str, Any]:
    """Play up to `games` seeded games (stopping early, and saying so, when `budget_s` runs out),
    under `addons` when given (the reference model knows only the core rules: see `reference_agrees`)."""
    started = time.perf_counter()
    tasks = [(seats, scenes, seed0 + i) + ((addons,) if addons else ()) for i in range(games)]
    results: list[dict[str, Any]] = []
    every = max(1, games // 20)

    def take(res: dict[str, Any]) -> bool:
        results.append(res)
        if progress and (len(results) % every == 0 or len(results) == games):
            progress(f"economy: {len(results)}/{games} games ({time.perf_counter() - started:.0f} s)")
        return budget_s is not None and time.perf_counter() - started > budget_s

    stopped = False
    if jobs > 1:
        import multiprocessing as mp
        with mp.get_context("spawn").Pool(jobs) as pool:
            for res in pool.imap_unordered(game_figures, tasks):
                if take(res):
                    stopped = True
                    pool.terminate()
                    break
    else:
        for task in tasks:
            if take(game_figures(task)):
                stopped = True
                break
    out = summarize(results, seats, scenes)
    out.update({"addons": addons or {}, "games_requested": games, "stopped_by_budget": stopped and len(results) < games,
                "budget_s": budget_s, "jobs": jobs, "wall_seconds": time.perf_counter() - started})
    return out


def summarize(results: list[dict[str, Any]], seats: int, scenes: int) -> dict[str, Any]:
    ok = [r for r in results if "error" not in r]
    errors = [f"seed {r['seed']}: {r['error']}" for r in results if "error" in r]
    out: dict[str, Any] = {"seats": seats, "scenes": scenes, "games": len(ok), "failed_games": len(errors),
                           "errors": errors[:5]}
    if not ok:
        return out
    n = len(ok)
    total_scenes = sum(r["scenes"] for r in ok) or 1
    win = {k: sum(r["winner"][k] for r in ok) for k in ("bonus", "dice", "pools")}
    lose = {k: sum(r["loser"][k] for r in ok) for k in ("bonus", "dice", "pools")}
    ch = Counter()
    for r in ok:
        ch.update(r["challenge"])
    resolved = sum(r["resolved"] for r in ok) or 1
    longest = max(len(r["mean_coins_after_scene"]) for r in ok)
    curve = []
    for i in range(longest):
        vals = [r["mean_coins_after_scene"][i] for r in ok if len(r["mean_coins_after_scene"]) > i]
        curve.append(sum(vals) / len(vals))
    out.update({
        "scenes_per_game": total_scenes / n,
        "actions_per_game": sum(r["actions"] for r in ok) / n,
        "coins_per_seat_per_scene": {
            k: sum(r[f"{k}_per_seat_scene"] * r["scenes"] for r in ok) / total_scenes
            for k in ("paid", "refresh", "bonus", "compensation")},
        "mean_coins_per_seat_after_scene": curve,
        "final_coins_per_seat": sum(r["final_coins_per_seat"] for r in ok) / n,
        "complications_per_scene": sum(r["complications"] for r in ok) / total_scenes,
        "complications_resolved_per_scene": sum(r["resolved"] for r in ok) / total_scenes,
        "complication_wins_rate": sum(r["c_wins"] for r in ok) / resolved,
        "ties_per_resolution": sum(r["ties"] for r in ok) / resolved,
        "challenges_per_game": ch["challenge"] / n,
        "challenge_outcomes": {k: v / n for k, v in sorted(ch.items())},
        "bonus_per_die": {
            "winner": win["bonus"] / win["dice"] if win["dice"] else None,
            "loser": lose["bonus"] / lose["dice"] if lose["dice"] else None,
            "expected_winner": EXPECTED_WINNER_PER_DIE, "expected_loser": EXPECTED_LOSER_PER_DIE,
            "winner_dice": win["dice"], "loser_dice": lose["dice"],
            "winner_pools": win["pools"], "loser_pools": lose["pools"],
        },
        "reference_disagreements": sum(1 for r in ok if not r["reference_agrees"]),
        "pool_mismatches": sum(r["pool_mismatches"] for r in ok),
        "games_with_unaccounted_coins": sum(1 for r in ok if r["coin_problems"]),
    })
    return out
