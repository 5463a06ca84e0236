"""Playing all-heuristic games for the benchmarks, and timing `apply` alone on their logs.

Why a module: speed, scaling and economy all play the same seeded games the same way, and all
separate engine time (replaying the recorded actions through `apply`) from the time the players
and the table take.
"""
from __future__ import annotations

import sys
import time
import tracemalloc
from dataclasses import dataclass
from typing import Any, Callable

from engine.core.log import LogRecord
from engine.universalis import apply, parse_action
from engine.universalis.replay import game_from_header

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]


@dataclass
class Played:
    """One finished game: its table (state, records, events) and wall-clock seconds."""

    table: Any
    seconds: float
    seed: int
    complete: bool = True  # False: stopped by its time limit before `scenes` scenes ended


def play_game(seats: int, scenes: int, seed: int, max_steps: int = 200_000,
              max_seconds: float | None = None, addons: dict | None = None) -> Played:
    """An all-heuristic game of `seats` seats until `scenes` scenes have ended (single process).

    With `max_seconds` the game stops there and says it is incomplete (long games on a busy
    machine); its per-action figures still hold for the length it reached.
    """
    simulate_game = None
    if max_seconds is None:
        try:
            from agents.simulation import simulate_game
        except ImportError:  # the shared driver not there: drive the Table the same way
            simulate_game = None
    if simulate_game is not None:
        res = simulate_game(seats=seats, scenes=scenes, seed=seed, ai="heuristic", max_steps=max_steps, addons=addons)
        return Played(res.table, res.seconds, seed)
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice

    table = Table.new(heuristic_seats(NAMES[:seats], seed), dice=SeededDice(seed), game_id=f"sim-{seed}",
                      addons=addons)
    started = time.perf_counter()
    steps = 0
    complete = True
    while steps < max_steps and table.state.scenes_ended < scenes:
        if max_seconds is not None and steps % 20 == 0 and time.perf_counter() - started > max_seconds:
            complete = False
            break
        if not table.step().acted:
            break
        steps += 1
    return Played(table, time.perf_counter() - started, seed, complete)


def parsed_actions(records: list[LogRecord]) -> list[Any]:
    """The records' actions as engine models, parsed once (live play hands `apply` models, not JSON)."""
    return [parse_action(r.action) for r in records]


def time_apply(header: dict, actions: list[Any]) -> float:
    """Seconds `apply` alone takes to fold the game's actions over a new game."""
    state = game_from_header(header)
    started = time.perf_counter()
    for act in actions:
        state, _ = apply(state, act)
    return time.perf_counter() - started


def replay_memory(header: dict, actions: list[Any]) -> dict[str, int]:
    """tracemalloc peak while replaying a game, and what the final state and its events keep."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        state = game_from_header(header)
        events = []
        for act in actions:
            state, evs = apply(state, act)
            events.extend(evs)
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {"replay_peak_bytes": peak - base, "state_and_events_bytes": current - base,
            "state_json_bytes": len(state.model_dump_json())}


def game_memory_peak(seats: int, scenes: int, seed: int) -> int:
    """tracemalloc peak of one whole game with its players (tracemalloc slows it: never timed)."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        play_game(seats, scenes, seed)
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


class Progress:
    """One line per step on stderr, with the elapsed time, so a long run shows it is alive."""

    def __init__(self, enabled: bool = True, stream: Any = None) -> None:
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.started = time.perf_counter()

    def __call__(self, message: str) -> None:
        if self.enabled:
            print(f"[eval {time.perf_counter() - self.started:7.1f}s] {message}", file=self.stream, flush=True)


ProgressFn = Callable[[str], None]
