"""All-AI games end to end: seat players, run the Table until enough scenes have ended, count.

One function (`simulate_game`) so the console command, the app and the evaluation harness run
simulations the same way and report the same numbers.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from agents.table import Table

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]

# action type -> the family the issue counts ("every action family occurs")
FAMILIES: dict[str, str] = {
    "propose_tenet": "tenets", "pass_prep": "preparation", "bid": "bids",
    "establish_location": "framing", "set_time": "framing", "frame_mini_scene": "framing",
    "fade_mini_scene": "fade to black",
    "narrate_event": "events", "buy_fact": "events", "speak": "events", "dialog": "events",
    "answer_dialog": "events",
    "create_component": "new components", "introduce_component": "scene building",
    "exit_component": "scene building", "declare_absent": "scene building",
    "return_component": "scene building",
    "add_trait": "traits", "remove_trait": "traits", "restore_trait": "traits",
    "reduce_importance": "eliminations", "restore_importance": "eliminations",
    "take_over": "take overs",
    "challenge": "challenges", "concede_challenge": "challenges", "contest_challenge": "challenges",
    "withdraw_challenge": "challenges", "dispute_fact": "challenges", "fact_vote": "challenges",
    "challenge_bid": "challenges", "challenge_pass": "challenges",
    "call_fine": "fines", "fine_vote": "fines",
    "interrupt": "interrupts", "obstacle": "complications",
    "draw_trait": "drawn dice", "buy_die": "bought dice",
    "call_resolution": "complications", "answer_resolution": "complications", "roll": "complications",
    "cancel_bonus": "bonus coins", "end_narration": "bonus coins",
    "pass": "reactions", "end_turn": "turns", "end_scene": "scenes",
    # add-ons: Judgment settles disputes in place of Challenges; Open Scene Framing frames without bids
    "invoke_judgment": "challenges", "judge_ruling": "challenges", "overrule_vote": "challenges",
    "frame_scene": "framing", "switch_scene": "scenes", "close_scene": "scenes", "fork_scene": "scenes",
}

# families the issue requires in every batch of simulated games
REQUIRED_FAMILIES = ["tenets", "bids", "framing", "events", "new components", "traits", "take overs",
                     "challenges", "complications", "drawn dice", "bought dice", "eliminations", "fade to black"]


@dataclass
class SimResult:
    """One finished simulation: the table (state, log, events), the time it took, the count of actions."""

    table: Table
    seconds: float
    actions: int
    seed: int = 0

    def stats(self) -> dict[str, Any]:
        """Scenes, complications, challenges, counts per action type and family, fallbacks, coins."""
        t, s = self.table, self.table.state
        types = Counter(str(r.action.get("type")) for r in t.records)
        families: Counter[str] = Counter()
        for typ, n in types.items():
            families[FAMILIES.get(typ, typ)] += n
        kinds = Counter(e.kind for e in t.events)
        # the families measured by what happened, not only by what was tried
        families["complications started"] = kinds["complication"]
        families["eliminations done"] = kinds["eliminate"]
        fades = sum(1 for e in t.events if e.kind == "end_scene" and e.data.get("fade")) + kinds["fade_mini_scene"]
        families["fade to black"] = fades
        fallbacks = sum(1 for r in t.records if r.meta.get("fallback"))
        return {
            "seed": self.seed,
            "scenes": s.scenes_ended,
            "complications": kinds["complication"],
            "challenges": types["challenge"],
            "eliminations": kinds["eliminate"],
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "fallbacks": fallbacks,
            "types": dict(sorted(types.items())),
            "families": dict(sorted(families.items())),
            "coins": {p.name: p.wealth for p in s.players},
        }


def seat_names(seats: int) -> list[str]:
    if not 1 <= seats <= len(NAMES):
        raise ValueError(f"seats must be 1..{len(NAMES)}, not {seats}")
    return NAMES[:seats]


def simulate_game(seats: int = 4, scenes: int = 10, seed: int = 0, ai: str = "heuristic",
                  log_path: Path | str | None = None, progress: Callable[[Table], None] | None = None,
                  settings=None, max_steps: int = 200_000, every: int = 50, premise: str | None = None,
                  chat_model=None, addons=None) -> SimResult:
    """Run an all-AI game until `scenes` scenes have ended (or `max_steps` actions).

    `progress(table)` is called every `every` actions and once at the end. `ai` is
    "heuristic" (offline) or "llm" (the configured endpoint; `settings` are its LLMSettings; a
    `chat_model`, such as a GGUF loaded in this process, replaces the endpoint).
    Without a `premise` the seed picks a genre, so a batch of games tells different stories.
    """
    from agents.seating import SeatSpec, make_seats
    from engine.core.dice import SeededDice

    specs = [SeatSpec(n, ai) for n in seat_names(seats)]  # type: ignore[arg-type]
    if premise is None:
        from agents.narration import GENRES

        premise = list(GENRES.values())[seed % len(GENRES)]["genre"][0]
    table = Table.new(make_seats(specs, seed=seed, settings=settings, chat_model=chat_model), dice=SeededDice(seed),
                      log_path=log_path,
                      game_id=f"sim-{seed}", premise=premise, addons=addons)
    started = time.perf_counter()
    steps = 0
    while steps < max_steps and table.state.scenes_ended < scenes:
        res = table.step()
        if not res.acted:
            break
        steps += 1
        if progress is not None and steps % every == 0:
            progress(table)
    if progress is not None:
        progress(table)
    return SimResult(table, time.perf_counter() - started, len(table.records), seed)


def summarize(results: list[SimResult]) -> dict[str, Any]:
    """Totals over many games: how often each family occurred, fallbacks, mean coins, seconds per game."""
    n = len(results) or 1
    fam: Counter[str] = Counter()
    games_with: Counter[str] = Counter()
    coins: list[float] = []
    fallbacks = 0
    for r in results:
        st = r.stats()
        for k, v in st["families"].items():
            fam[k] += v
            games_with[k] += 1 if v else 0
        coins.append(sum(st["coins"].values()) / max(1, len(st["coins"])))
        fallbacks += st["fallbacks"]
    return {
        "games": len(results),
        "families": dict(sorted(fam.items())),
        "games_with": dict(sorted(games_with.items())),
        "fallbacks": fallbacks,
        "mean_coins_per_player": round(sum(coins) / n, 2),
        "seconds_per_game": round(sum(r.seconds for r in results) / n, 3),
        "mean_scenes": round(sum(r.table.state.scenes_ended for r in results) / n, 2),
        "missing": [f for f in REQUIRED_FAMILIES if not fam.get(f)],
    }


HIDDEN = {"reaction", "bid_placed", "turn", "narration_turn", "end_turn", "pass_prep", "resolution_agreed",
          "complication_end", "refresh"}


def transcript_lines(table: Table) -> list[str]:
    """The story as it was told, scene by scene, without the bookkeeping."""
    out: list[str] = []
    premise = table.premise
    if premise:
        out.append(f"Premise: {premise}")
    events = table.events
    for i, e in enumerate(events):
        if e.kind in HIDDEN:
            continue
        if e.kind == "interrupt" and any(x.kind == "obstacle" and x.text == e.text for x in events[i + 1:i + 4]):
            continue  # an Obstacle's interrupt repeats its words
        if e.kind == "prep_end":
            out.append("")
            continue
        if e.kind == "bids_revealed":
            number = e.data.get("scene") or ""
            out += ["", f"== Scene {number} ==".replace("  ", " "), f"   ({e.text})"]
            continue
        if e.kind in ("roll", "edge", "complication_result", "challenge_result", "fine"):
            out.append(f"   * {e.text}")
            continue
        price = f"  [{e.cost}]" if e.cost else ""
        who = f"{e.player}: " if e.player else ""
        out.append(f"{who}{e.text}{price}")
    return out
