"""All-AI games of any registered ruleset other than Universalis, headless (agents/game_loop.py).

Seating per ruleset and role lives in HEURISTICS: the one place above the engine that names a
game, because each game brings its own AI seats.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from agents.game_loop import GameTable
from engine.core.dice import SeededDice
from engine.core.ruleset import SeatSpec, get_ruleset

NAMES = ["Gina", "Ann", "Bob", "Cat", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kit"]


def _fubar_seats(n: int, seed: int, scenes: int) -> list[tuple[SeatSpec, Any]]:
    from agents.fubar import heuristic_seat
    out = []
    for i, name in enumerate(NAMES[:n]):
        role = "gm" if i == 0 else "player"
        out.append((SeatSpec(name, role), heuristic_seat(name, role, seed=seed, seat_index=i, scenes=scenes)))
    return out


def _paganini_seats(n: int, seed: int, scenes: int) -> list[tuple[SeatSpec, Any]]:
    from agents.paganini import heuristic_seat
    out = []
    for i, name in enumerate(NAMES[:n]):
        role = "gm" if i == 0 else "player"
        out.append((SeatSpec(name, role), heuristic_seat(name, role, seed=seed, seat_index=i, scenes=scenes)))
    return out


def _vele_seats(n: int, seed: int, scenes: int) -> list[tuple[SeatSpec, Any]]:
    from agents.vele import heuristic_seat
    return [(SeatSpec(name, "player"), heuristic_seat(name, seed=seed, seat_index=i)) for i, name in enumerate(NAMES[:n])]


# game -> (seats, seed, scenes) -> [(SeatSpec, AI seat)]; the first seat of a GM-led game is the GM
HEURISTICS: dict[str, Callable[[int, int, int], list[tuple[SeatSpec, Any]]]] = {
    "fubar": _fubar_seats, "paganini": _paganini_seats, "vele": _vele_seats}


# games whose AI seats end the story by the game's own structure rather than a scene count
SELF_ENDING = {"vele"}


@dataclass
class GameSim:
    table: GameTable
    seconds: float
    steps: int
    seed: int

    def stats(self) -> dict[str, Any]:
        t = self.table
        kinds = Counter(getattr(e, "kind", "") for e in t.events)
        return {
            "game": t.ruleset.name, "version": t.ruleset.version, "seed": self.seed,
            "scenes": kinds["end_scene"], "actions": len(t.records), "seconds": round(self.seconds, 3),
            "over": t.ruleset.is_over(t.state),
            "fallbacks": sum(1 for r in t.records if r.meta.get("fallback")),
            "types": dict(sorted(Counter(str(r.action.get("type")) for r in t.records).items())),
        }


def simulate(game: str, seats: int = 4, scenes: int = 6, seed: int = 0, log_path: Path | str | None = None,
             premise: str | None = None, options: dict | None = None, max_steps: int = 20_000) -> GameSim:
    """Play `game` with heuristic seats until the game ends. The heuristic GM ends its scenario after
    `scenes` scenes; a stop two scenes later guards against a GM that never does."""
    if game not in HEURISTICS:
        raise ValueError(f"no AI seats for {game!r} yet")
    rs = get_ruleset(game)
    if premise is None:
        from agents.narration import GENRES
        premise = list(GENRES.values())[seed % len(GENRES)]["genre"][0]
    table = GameTable.new(rs, HEURISTICS[game](seats, seed, scenes), options or {}, dice=SeededDice(seed),
                          log_path=log_path, game_id=f"sim-{game}-{seed}", premise=premise)
    started = time.perf_counter()

    def stop(t: GameTable) -> bool:
        if game in SELF_ENDING:
            return False  # the story ends by its own rules (Vele: after its last act); max_steps guards
        return sum(1 for e in t.events if getattr(e, "kind", "") == "end_scene") >= scenes + 2 and \
            rs.pending(t.state).kind in ("frame_scene", "over")

    steps = table.run(stop, max_steps)
    return GameSim(table, time.perf_counter() - started, steps, seed)


def transcript(table: GameTable) -> list[str]:
    """The story as told, without the dice bookkeeping of every keep."""
    quiet = {"keep", "continue", "pass", "fact_proposed"}
    out = [f"Premise: {table.premise}"] if table.premise else []
    for e in table.events:
        if e.kind in quiet:
            continue
        if e.kind == "scene":
            out.append("")
        out.append(("   * " if e.kind in ("roll", "ruling", "outcome", "resolve") else "") + e.line())
    return out
