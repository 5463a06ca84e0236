"""LLM seats of FUBAR, Paganini and Death of the Vele against a real model, with per-decision figures.

Why a sibling of eval/ai.py: that module plays Universalis on agents/table.py; the other rulesets
play on agents/game_loop.GameTable with agents/llm/game_player.GameLLMPlayer seats. The figures are
the same DecisionLog's (eval/decisions.py: share made by the model, first try legal, seconds, tokens,
fallback reasons, engine refusals by rule), out-of-turn interjections included, so a real server's
verdict on our requests for these games is read the same way as for Universalis.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from eval.games import ProgressFn

__all__ = ["GAMES", "play_game_seats", "run_local_game"]

GAMES = ("fubar", "paganini", "vele")


def mixed_seats(game: str, seats: int, llm: int, seed: int, scenes: int, settings: Any,
                chat_model: Any = None) -> list[tuple[Any, Any]]:
    """`seats` seats of `game`, the first `llm` of them LLM seats (in a GM-led game the GM is the first
    seat, so an LLM seat), the rest that game's heuristic."""
    from agents.game_sim import heuristic_seat, seat_specs
    from agents.llm.game_player import game_llm_player

    out = []
    for i, spec in enumerate(seat_specs(game, seats)):
        if i < llm:
            player = game_llm_player(game, spec.name, spec.role, settings, chat_model=chat_model, seed=seed,
                                     seat_index=i, scenes=scenes)
        else:
            player = heuristic_seat(game, spec.name, spec.role, seed, i, scenes)
        out.append((spec, player))
    return out


def play_game_seats(game: str, settings: Any, source: str, *, seats: int = 4, llm: int = 2, scenes: int = 2,
                    seed: int = 0, budget_s: float = 120.0, max_asked: int | None = None,
                    progress: ProgressFn | None = None, chat_model: Any = None) -> dict[str, Any]:
    """One game of `game` with `llm` LLM seats against `settings`' endpoint, until the game ends, `max_asked`
    decisions called (or would have called) the model, or `budget_s` runs out."""
    from agents.game_loop import GameTable
    from engine.core.dice import SeededDice
    from engine.core.ruleset import get_ruleset, replay_log_text
    from eval.decisions import DecisionLog

    rs = get_ruleset(game)
    made = mixed_seats(game, seats, llm, seed, scenes, settings, chat_model)
    decisions = DecisionLog()
    for _, player in made:
        if getattr(player, "kind", "") == "llm":
            decisions.watch(player)
    with tempfile.TemporaryDirectory(prefix="storytable-eval-") as tmp:
        table = GameTable.new(rs, made, {}, dice=SeededDice(seed), log_path=Path(tmp) / "game.jsonl",
                              game_id=f"eval-{game}-{seed}", premise="A heist in a floating city")
        started = last = time.perf_counter()
        stopped = False
        while not rs.is_over(table.state):
            if time.perf_counter() - started > budget_s or (max_asked and len(decisions.asked()) >= max_asked):
                stopped = True
                break
            acted, _ = table.step()
            if not acted:
                break
            if progress and time.perf_counter() - last > 10:
                last = time.perf_counter()
                progress(f"{game}: {len(table.records)} actions, {len(decisions.asked())} model decisions")
        wall = time.perf_counter() - started
        text = table.log_text()
    started = time.perf_counter()
    replay_log_text(text)
    engine_s = time.perf_counter() - started
    records = table.records
    by: dict[str, int] = {}
    for r in records:
        key = str(r.meta.get("decided_by"))
        by[key] = by.get(key, 0) + 1
    return {
        "available": True, "game": game, "source": source, "seats": seats,
        "llm_seats": [spec.name + (f" ({spec.role})" if spec.role != "player" else "")
                      for spec, p in made if getattr(p, "kind", "") == "llm"],
        "actions": len(records), "over": rs.is_over(table.state), "stopped_by_budget": stopped, "budget_s": budget_s,
        "decided_by": by, "out_of_turn": sum(1 for r in records if r.meta.get("out_of_turn")),
        "fallbacks_in_log": sum(1 for r in records if r.meta.get("fallback")),
        "latency_s": {"wall": round(wall, 2), "engine": round(engine_s, 3)},
        "model": decisions.summary(),
        "rows": decisions.as_dicts(),  # every decision: kind, by the model or why not, the engine's refusals
    }


def run_local_game(model: str, game: str, *, seats: int = 4, llm: int = 2, scenes: int = 2, seed: int = 0,
                   budget_s: float = 120.0, max_asked: int | None = None, progress: ProgressFn | None = None,
                   server_log: Path | None = None) -> dict[str, Any]:
    """`play_game_seats` against registry model `model` (smollm2, gemma3) served by llama-cpp-python's server
    on 127.0.0.1, as eval.ai.run_local does for Universalis. Raises eval.local_server.Unavailable (one line)."""
    from agents.llm.config import LLMSettings
    from eval.local_server import MODELS, serve

    log_path = server_log or Path(tempfile.gettempdir()) / f"storytable-{model}-{game}-server.log"
    with serve(model, log_path) as url:
        out = play_game_seats(game, LLMSettings(base_url=url, model=model),
                              f"{MODELS[model].label} via llama-cpp-python's server", seats=seats, llm=llm,
                              scenes=scenes, seed=seed, budget_s=budget_s, max_asked=max_asked, progress=progress)
    out["real_model"] = model
    try:
        out["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    return out
