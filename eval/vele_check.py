"""Death of the Vele's numbers: dice conservation and the engine's speed over simulated games.

Every heuristic game is replayed state by state; at each state the table's dice points (pools,
sheets, the bowl, a struggle's stake, an exclusion's dice) must equal the points put in play, and
every invariant must hold (V-9). Then `apply` alone is timed over the logs.

Run: python -m eval.vele_check [--games G] [--seats N]. Prints JSON. The stable entry point for
`storytable eval --game vele` is `run(games=10, seats=4) -> dict` (`check` is the same function); the
keys of its dict are listed in RESULT_KEYS and do not change.
"""
from __future__ import annotations

import argparse
import json
import time


RESULT_KEYS = ("games", "seats", "actions", "states_checked", "conservation_breaks", "conserved", "games_over",
               "narrator_rotations", "extended_struggles", "votes", "fallbacks", "seconds_per_game",
               "engine_actions_per_second", "table_actions_per_second")


def check(games: int = 10, seats: int = 4) -> dict:
    from agents.game_sim import simulate
    from engine.core.ruleset import replay_log_text
    from engine.vele.rules import dice_in_play

    started = time.perf_counter()
    sims = [simulate("vele", seats=seats, seed=s) for s in range(games)]
    whole = time.perf_counter() - started
    texts = [r.table.log_text() for r in sims]
    actions = sum(len(r.table.records) for r in sims)
    states, broken = 0, []
    for seed, text in enumerate(texts):
        rep = replay_log_text(text, keep_states=True)
        for i, s in enumerate(rep.states):
            states += 1
            if dice_in_play(s) != s.total_points:
                broken.append({"seed": seed, "action": i, "held": dice_in_play(s), "in_play": s.total_points})
            for bad in rep.ruleset.invariants(s):
                broken.append({"seed": seed, "action": i, "invariant": bad})
    started = time.perf_counter()
    for text in texts:
        replay_log_text(text)
    engine = time.perf_counter() - started
    return {"games": games, "seats": seats, "actions": actions, "states_checked": states,
            "conservation_breaks": broken[:20], "conserved": not broken,
            "games_over": sum(r.table.ruleset.is_over(r.table.state) for r in sims),
            "narrator_rotations": [r.table.state.rotations for r in sims],
            "extended_struggles": [r.table.state.extended_done for r in sims],
            "votes": sum(1 for r in sims for x in r.table.records if x.action.get("type") == "cast_vote"),
            "fallbacks": sum(r.stats()["fallbacks"] for r in sims),
            "seconds_per_game": round(whole / games, 3), "engine_actions_per_second": round(actions / engine),
            "table_actions_per_second": round(actions / whole)}


run = check  # the name `storytable eval --game vele` calls


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m eval.vele_check", description=__doc__)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seats", type=int, default=4)
    args = p.parse_args(argv)
    print(json.dumps(check(args.games, args.seats), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
