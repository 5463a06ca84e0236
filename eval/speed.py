"""Engine speed, the reference beside it, memory per game, and how cost grows with seats and scenes.

Everything here runs in this one process, one game after another: the figures are
single-process speed on whatever else the machine is doing (the report says when and where).
"""
from __future__ import annotations

import time
from typing import Any

from eval.games import ProgressFn, game_memory_peak, parsed_actions, play_game, replay_memory, time_apply
from eval.reference import extract_tape, run_tape

MIN_REFERENCE_S = 0.02  # repeat the reference until it has run this long, for a stable clock reading


def time_reference(seats: list[str], tape: list[tuple]) -> float:
    """Seconds the reference takes for one game (mean over enough repeats)."""
    reps, total = 0, 0.0
    while total < MIN_REFERENCE_S:
        started = time.perf_counter()
        run_tape(seats, tape, keep_rolls=False)
        total += time.perf_counter() - started
        reps += 1
    return total / reps


_warm = False


def warm_up() -> None:
    """One short untimed game first: imports and first-call caches must not count as engine speed."""
    global _warm
    if not _warm:
        try:
            play_game(2, 1, 0)
        except Exception:  # noqa: BLE001 - the timed games will show the problem
            pass
        _warm = True


def measure(seats: int, scenes: int, games: int, seed0: int = 0, progress: ProgressFn | None = None,
            memory_game: bool = False, budget_s: float | None = None) -> dict[str, Any]:
    """Play `games` seeded games; time them whole, `apply` alone, and the reference alone.

    `budget_s` bounds the playing time of this size: no new game starts after it, and a game
    still running when it runs out stops there, marked incomplete (its scenes are reported).
    """
    rows: list[dict[str, Any]] = []
    errors: list[str] = []
    mem: dict[str, Any] = {}
    warm_up()
    incomplete = 0
    spent = 0.0
    for i in range(games):
        seed = seed0 + i
        left = None if budget_s is None else budget_s - spent
        if left is not None and left <= 0:
            break
        try:
            played = play_game(seats, scenes, seed, max_seconds=left)
            spent += played.seconds
            incomplete += not played.complete
        except Exception as exc:  # noqa: BLE001 - a crashing game is a finding, not the end of the run
            errors.append(f"seed {seed}: {type(exc).__name__}: {exc}"[:300])
            if progress:
                progress(f"speed {seats} seats x {scenes} scenes: game {i + 1}/{games} FAILED ({type(exc).__name__})")
            continue
        t = played.table
        actions = parsed_actions(t.records)
        engine_s = time_apply(t.header, actions)
        names, tape, state = extract_tape(t.header, t.records)
        ref_s = time_reference(names, tape)
        rows.append({"seed": seed, "actions": len(actions), "scenes": state.scenes_ended, "game_s": played.seconds,
                     "engine_s": engine_s, "reference_s": ref_s, "tape_ops": len(tape),
                     "log_bytes": len(t.log_text().encode())})
        if not mem:
            mem = replay_memory(t.header, actions)
        if progress:
            progress(f"speed {seats} seats x {scenes} scenes: game {i + 1}/{games}, {len(actions)} actions, "
                     f"{state.scenes_ended} scenes, {played.seconds:.2f} s (apply alone {engine_s:.2f} s)"
                     + ("" if played.complete else " - STOPPED by the time budget"))
    if memory_game and rows:
        mem["game_peak_bytes"] = game_memory_peak(seats, scenes, seed0)
    out = summarize(seats, scenes, rows, errors, mem)
    out.update({"games_requested": games, "incomplete_games": incomplete, "budget_s": budget_s,
                "scenes_reached_per_game": sum(r["scenes"] for r in rows) / len(rows) if rows else 0})
    return out


def summarize(seats: int, scenes: int, rows: list[dict[str, Any]], errors: list[str],
              mem: dict[str, Any]) -> dict[str, Any]:
    n = len(rows)
    out: dict[str, Any] = {"seats": seats, "scenes": scenes, "games": n, "failed_games": len(errors),
                           "errors": errors[:5]}
    if not n:
        return out
    game_s = sum(r["game_s"] for r in rows)
    engine_s = sum(r["engine_s"] for r in rows)
    ref_s = sum(r["reference_s"] for r in rows)
    actions = sum(r["actions"] for r in rows)
    out.update({
        "actions_per_game": actions / n,
        "seconds_per_game": game_s / n,
        "games_per_s": n / game_s,
        "actions_per_s": actions / game_s,
        "engine_seconds_per_game": engine_s / n,
        "engine_games_per_s": n / engine_s,
        "engine_actions_per_s": actions / engine_s,
        "engine_ms_per_action": 1000 * engine_s / actions,
        "players_and_table_seconds_per_game": (game_s - engine_s) / n,
        "engine_share_of_game": engine_s / game_s,
        "reference_seconds_per_game": ref_s / n,
        "reference_games_per_s": n / ref_s,
        "reference_actions_per_s": actions / ref_s,
        "engine_over_reference": engine_s / ref_s,
        "reference_ops_per_game": sum(r["tape_ops"] for r in rows) / n,
        "log_bytes_per_game": sum(r["log_bytes"] for r in rows) / n,
        "memory": mem,
    })
    return out


def scaling(seat_counts: tuple[int, ...], scene_counts: tuple[int, ...], base_seats: int, base_scenes: int,
            games: dict[tuple[int, int], int], base: dict[str, Any] | None, progress: ProgressFn | None,
            budget_s: float | None = None) -> dict:
    """The same figures at several seat counts (base scenes) and scene counts (base seats)."""
    done: dict[tuple[int, int], dict[str, Any]] = {}
    if base is not None:
        done[(base_seats, base_scenes)] = base
    for seats in seat_counts:
        key = (seats, base_scenes)
        if key not in done:
            done[key] = measure(seats, base_scenes, games.get(key, 1), progress=progress, budget_s=budget_s)
    for scenes in scene_counts:
        key = (base_seats, scenes)
        if key not in done:
            done[key] = measure(base_seats, scenes, games.get(key, 1), progress=progress, budget_s=budget_s)
    return {"by_seats": [done[(s, base_scenes)] for s in seat_counts],
            "by_scenes": [done[(base_seats, n)] for n in scene_counts]}
