"""Death of the Vele's numbers: dice conservation and the engine's speed over simulated games.

Every heuristic game is replayed state by state; at each state the table's dice points (pools,
sheets, the bowl, a struggle's stake, an exclusion's dice) must equal the points put in play, and
every invariant must hold (V-9). Then `apply` alone is timed over the logs.

Run: python -m eval.vele_check [--games G] [--seats N] [--area]. Prints JSON (--area: Area / Selective Area
uses and untold hidden rolls at zone tables, area_uses). The stable entry point for
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

AREA_KEYS = ("games", "seats", "actions", "area_bought", "selective_area_bought", "mass_struggles",
             "area_strikes_in_fights", "selective_area_uses", "hidden_rolls", "untold_hidden_rolls", "fallbacks")


def area_uses(games: int = 6, seats: int = 4) -> dict:
    """V-38, V-31 at zone tables (seeds 0..games-1): how often the heuristic seats buy Area / Selective Area
    (L667-668, one build an act) and use it (a mass struggle on a turn, or an Area strike in a fight, L453; a
    Selective Area use names its targets), and how many hidden rolls end untold (L690). Why: these abilities were
    bought but rarely used, which the conservation run (no zones) cannot show."""
    from agents.game_sim import simulate

    out = dict.fromkeys(AREA_KEYS, 0)
    out.update(games=games, seats=seats)
    for seed in range(games):
        t = simulate("vele", seats=seats, seed=seed, options={"zones": True}).table
        acts = [r.action for r in t.records]
        bought = [(a["player"], (c.get("ability") or {}).get("effect")) for a in acts if a["type"] == "build"
                  for c in a["story"]]
        sel = {p for p, e in bought if e == "selective_area"}
        mass = [a for a in acts if a["type"] == "start_mass_struggle"
                or a["type"] == "continue_fight" and a.get("area")]
        out["actions"] += len(acts)
        out["area_bought"] += sum(1 for _, e in bought if e == "area")
        out["selective_area_bought"] += sum(1 for _, e in bought if e == "selective_area")
        out["mass_struggles"] += len(mass)
        out["area_strikes_in_fights"] += sum(1 for a in mass if a["type"] == "continue_fight")
        out["selective_area_uses"] += sum(1 for a in mass if a["player"] in sel and a.get("targets"))
        out["hidden_rolls"] += sum(1 for r in t.state.records if r.hidden_from)
        out["untold_hidden_rolls"] += sum(1 for r in t.state.records if r.hidden_from and not r.told)
        out["fallbacks"] += sum(1 for r in t.records if r.meta.get("fallback"))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m eval.vele_check", description=__doc__)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--area", action="store_true", help="Area / Selective Area and hidden-roll figures at zone tables "
                                                       "(area_uses) instead of the conservation run")
    args = p.parse_args(argv)
    print(json.dumps(area_uses(args.games, args.seats) if args.area else check(args.games, args.seats), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
