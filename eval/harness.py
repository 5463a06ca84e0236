"""`storytable eval`: run every benchmark and evaluation, return one dict of figures.

Two presets: quick (CI-sized, well under a minute of game play) and full (the documented run:
`storytable eval --out eval/data/results_full.json --report eval/reports/full`). Each part
is timed and a part that fails is recorded as an error instead of ending the run.
"""
from __future__ import annotations

import datetime as dt
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from eval.games import Progress, ProgressFn

PARTS = ("speed", "scaling", "ai", "memory", "economy", "story")
#: Parts run only when named in --only: `memory-latency` is the memory part's latency figures alone
#: (1k, 10k, 100k Facts and 10k on a Chroma server; quick: 1k), without its recall comparisons.
EXTRA_PARTS = ("memory-latency",)


@dataclass
class Preset:
    name: str
    seats: int = 4
    scenes: int = 10
    speed_games: int = 10
    seat_counts: tuple[int, ...] = (4, 6, 8)
    scene_counts: tuple[int, ...] = (10, 30, 100)
    scaling_games: dict[str, int] = field(default_factory=dict)  # "seats x scenes" -> games
    scaling_budget_s: float | None = None  # playing time per size; a longer game stops, marked incomplete
    economy_games: int = 1000
    economy_budget_s: float | None = None
    jobs: int = 1
    ai_scenes: int = 2
    ai_budget_s: float = 300.0
    memory_quick: bool = False
    memory_probes: tuple[str, ...] | None = None  # eval/memory/run.py's probe keys; None: all of them
    memory_game_peak: bool = True
    local_model: str | None = None  # a registry model key (smollm2, gemma3) or a GGUF file: the ai part plays it
    ai_seats: int = 0  # 0: `seats`
    ai_max_asked: int | None = None  # stop the ai game after this many decisions that call the model
    story_seeds: tuple[int, ...] | None = None  # None: eval/story.py's tuning, held-out and blind seeds
    story_scenes: int = 10
    addons: dict | None = None  # Universalis add-ons the economy games play under (storytable eval --addon)


QUICK = Preset("quick", scenes=2, speed_games=2, seat_counts=(4, 6, 8), scene_counts=(1, 2, 3),
               economy_games=4, ai_scenes=1, ai_budget_s=6.0, memory_quick=True,
               memory_probes=("retrieval", "retrieval_game"), story_seeds=(11,), story_scenes=3)  # every probe: python -m eval.memory.run --quick
FULL = Preset("full", scaling_games={"6x10": 5, "8x10": 5, "4x30": 3, "4x100": 1}, ai_budget_s=120.0,
              scaling_budget_s=300.0)


def games_for(preset: Preset) -> dict[tuple[int, int], int]:
    out = {}
    for key, n in preset.scaling_games.items():
        seats, scenes = key.split("x")
        out[(int(seats), int(scenes))] = n
    return out


def run_all(preset: Preset, parts: tuple[str, ...] = PARTS, progress: ProgressFn | None = None,
            after_part: Callable[[dict[str, Any]], None] | None = None,
            earlier: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every part in order; `after_part(results)` after each (the CLI saves partial results there).

    `earlier`: results of a previous run whose other parts are kept (`--merge`); its meta is kept
    under meta.earlier so both runs' conditions stay on record.
    """
    progress = progress or Progress(False)
    started = time.perf_counter()
    res: dict[str, Any] = {k: v for k, v in (earlier or {}).items() if k != "meta"}
    res["meta"] = meta(preset, parts)
    if earlier and "meta" in earlier:
        res["meta"]["earlier"] = earlier["meta"]
    timings: dict[str, float] = {}

    def part(name: str, fn) -> None:
        if name not in parts:
            return
        progress(f"{name}: starting")
        t0 = time.perf_counter()
        try:
            res[name] = fn()
        except Exception as exc:  # noqa: BLE001 - one broken part must not hide the others' figures
            res[name] = {"error": f"{type(exc).__name__}: {exc}"[:500]}
            progress(f"{name}: FAILED {type(exc).__name__}: {exc}")
        timings[name] = time.perf_counter() - t0
        progress(f"{name}: done in {timings[name]:.1f} s")
        res["meta"]["part_seconds"] = timings
        if after_part is not None:
            after_part(res)

    from eval import economy, speed

    part("speed", lambda: speed.measure(preset.seats, preset.scenes, preset.speed_games, progress=progress,
                                        memory_game=preset.memory_game_peak))
    part("scaling", lambda: speed.scaling(preset.seat_counts, preset.scene_counts, preset.seats, preset.scenes,
                                          games_for(preset), res.get("speed") if "error" not in
                                          res.get("speed", {"error": 1}) else None, progress,
                                          preset.scaling_budget_s))
    part("ai", lambda: _ai(preset, progress))
    part("memory", lambda: _memory(preset))
    part("memory-latency", lambda: _memory_latency(preset))
    part("economy", lambda: economy.run_economy(preset.economy_games, preset.seats, preset.scenes, jobs=preset.jobs,
                                                budget_s=preset.economy_budget_s, progress=progress,
                                                addons=preset.addons))
    part("story", lambda: _story(preset))
    res["meta"]["part_seconds"] = timings
    res["meta"]["seconds"] = time.perf_counter() - started
    return res


def _ai(preset: Preset, progress: ProgressFn) -> dict[str, Any]:
    import logging

    from eval.ai import run_ai, run_local
    for name in ("httpx", "httpx2", "openai", "chromadb"):
        logging.getLogger(name).setLevel(logging.WARNING)
    seats = preset.ai_seats or preset.seats
    if preset.local_model:
        from eval.local_server import Unavailable
        try:
            return run_local(preset.local_model, seats=seats, scenes=preset.ai_scenes, seed=0,
                             budget_s=preset.ai_budget_s, max_asked=preset.ai_max_asked, progress=progress)
        except Unavailable as exc:
            return {"available": False, "reason": str(exc)}
    return run_ai(seats, preset.ai_scenes, seed=0, budget_s=preset.ai_budget_s, progress=progress)


def _story(preset: Preset) -> dict[str, Any]:
    from eval.story import ALL_SEEDS, run_story
    return run_story(preset.story_seeds or ALL_SEEDS, preset.seats, preset.story_scenes)


def _memory(preset: Preset) -> dict[str, Any]:
    from eval.memory.run import run
    return run(quick=preset.memory_quick, only=preset.memory_probes)


def _memory_latency(preset: Preset) -> dict[str, Any]:
    from eval.memory.run import FULL_SIZES, QUICK_SIZES, SERVER_SIZES, latency_targets
    from eval.memory.latency import run_latency
    latency = run_latency(QUICK_SIZES if preset.memory_quick else FULL_SIZES,
                          () if preset.memory_quick else SERVER_SIZES)
    return {"latency": latency, "targets": latency_targets(latency)}


def meta(preset: Preset, parts: tuple[str, ...]) -> dict[str, Any]:
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {
        "preset": asdict(preset), "parts": list(parts),
        "when": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
        "load_average_at_start": load,
        "speed_is_single_process": True,
    }
