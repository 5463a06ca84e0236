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


# game -> the package whose `heuristic_seat(name, role, seed=, seat_index=, scenes=)` seats its AI
SEAT_PACKAGES: dict[str, str] = {"fubar": "agents.fubar", "paganini": "agents.paganini", "vele": "agents.vele"}
# games with a Game Master: the first seat of a table is the GM
GM_GAMES = {"fubar", "paganini"}


def heuristic_seat(game: str, name: str, role: str, seed: int = 0, seat_index: int = 0, scenes: int = 6) -> Any:
    """The heuristic AI of `game` for one seat and role (also the LLM seat's safety net)."""
    import importlib

    if game not in SEAT_PACKAGES:
        raise ValueError(f"no AI seats for {game!r} yet")
    return importlib.import_module(SEAT_PACKAGES[game]).heuristic_seat(name, role, seed=seed, seat_index=seat_index,
                                                                       scenes=scenes)


def seat_specs(game: str, n: int) -> list[SeatSpec]:
    return [SeatSpec(name, "gm" if game in GM_GAMES and i == 0 else "player") for i, name in enumerate(NAMES[:n])]


def _heuristic_seats(game: str) -> Callable[[int, int, int], list[tuple[SeatSpec, Any]]]:
    def seats(n: int, seed: int, scenes: int) -> list[tuple[SeatSpec, Any]]:
        return [(spec, heuristic_seat(game, spec.name, spec.role, seed, i, scenes))
                for i, spec in enumerate(seat_specs(game, n))]
    return seats


# game -> (seats, seed, scenes) -> [(SeatSpec, AI seat)]; the first seat of a GM-led game is the GM
HEURISTICS: dict[str, Callable[[int, int, int], list[tuple[SeatSpec, Any]]]] = {
    game: _heuristic_seats(game) for game in SEAT_PACKAGES}


def llm_seats(game: str, n: int, seed: int, scenes: int, settings: Any = None, chat_model: Any = None,
              memory: Any = None) -> list[tuple[SeatSpec, Any]]:
    """Every seat an LLM seat (agents/llm/game_player.py) with that game's heuristic as its safety net."""
    from agents.llm.game_player import game_llm_player

    return [(spec, game_llm_player(game, spec.name, spec.role, settings, memory, chat_model=chat_model, seed=seed,
                                   seat_index=i, scenes=scenes)) for i, spec in enumerate(seat_specs(game, n))]


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
             premise: str | None = None, options: dict | None = None, max_steps: int = 20_000,
             seats_made: list[tuple[SeatSpec, Any]] | None = None, memory_dir: Path | str | None = None,
             memory_embedding: Any = None) -> GameSim:
    """Play `game` with heuristic seats until the game ends. The heuristic GM ends its scenario after
    `scenes` scenes; a stop two scenes later guards against a GM that never does.

    `seats_made`: the seats to play with (LLM seats, say) instead of the heuristic ones. `memory_dir`:
    index the game's Facts there as it plays (agents/memory/ruleset_memory.py); LLM seats made with
    `memory=None` are given it; `memory_embedding` overrides the configured embedding function."""
    if game not in HEURISTICS:
        raise ValueError(f"no AI seats for {game!r} yet")
    rs = get_ruleset(game)
    if premise is None:
        from agents.narration import GENRES
        premise = list(GENRES.values())[seed % len(GENRES)]["genre"][0]
    made = seats_made if seats_made is not None else HEURISTICS[game](seats, seed, scenes)
    table = GameTable.new(rs, made, options or {}, dice=SeededDice(seed),
                          log_path=log_path, game_id=f"sim-{game}-{seed}", premise=premise)
    if memory_dir is not None:
        from agents.memory.ruleset_memory import GameFactMemory

        memory = GameFactMemory.attach(table, memory_dir, embedding=memory_embedding)
        for _, player in made:
            if getattr(player, "kind", "") == "llm" and getattr(player, "memory", "absent") is None:
                player.memory = memory
    started = time.perf_counter()

    def stop(t: GameTable) -> bool:
        if game in SELF_ENDING:
            return False  # the story ends by its own rules (Vele: after its last act); max_steps guards
        return sum(1 for e in t.events if getattr(e, "kind", "") == "end_scene") >= scenes + 2 and \
            rs.pending(t.state).kind in ("frame_scene", "over")

    steps = table.run(stop, max_steps)
    if table.memory is not None:
        table.memory.flush()
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
