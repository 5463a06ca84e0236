"""`storytable eval --game fubar|paganini|vele`: each game's engine speed and its own check, in one shape.

Why one module: each game's check lives beside its game (eval/fubar_check.py: the ladder against the
exact odds of rule 3; eval/paganini.py: check tiers against the exact keep-highest / keep-lowest d20
odds; eval/vele_check.py: dice conservation over random games); the command needs one call, one
verdict and a few lines for the terminal from each.

    res = run_game_check("fubar", quick=True)
    print("\n".join(summary_lines(res))); res["ok"]
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

GAMES = ("fubar", "paganini", "vele")
# (quick, full) sizes: FUBAR rolls per net and games; Paganini games; Vele games
SIZES = {"fubar": ((3000, 3), (20000, 10)), "paganini": ((3, None), (20, None)), "vele": ((2, None), (10, None))}


def run_game_check(game: str, quick: bool = False, seed: int = 0, size: int | None = None) -> dict[str, Any]:
    """The game's figures with `ok`: whether its check holds. `size` overrides the games played."""
    if game not in GAMES:
        raise ValueError(f"no evaluation for {game!r}; known: {', '.join(GAMES)}")
    first, second = SIZES[game][0 if quick else 1]
    if game == "fubar":
        from eval.fubar_check import ladder_check, speed_check

        ladder = ladder_check(first, seed=seed + 1)
        speed = speed_check(size or second)
        return {"game": game, "ladder": ladder, "speed": speed,
                "ok": all(row["within"] for row in ladder.values()) and speed["games_over"] == speed["games"]}
    if game == "paganini":
        from eval.fubar_check import CHI2_CRITICAL_001
        from eval.paganini import run

        res = run(games=size or first, seed=seed)
        for row in res["tiers_by_pool"]:
            row["within"] = row["chi2"] < CHI2_CRITICAL_001[row["df"]]
        res["ok"] = bool(res["tiers_by_pool"]) and all(r["within"] for r in res["tiers_by_pool"])
        return res
    from eval.vele_check import check

    res = check(games=size or first)
    res["game"] = game
    res["ok"] = bool(res["conserved"])
    return res


def summary_lines(res: dict[str, Any]) -> list[str]:
    """A few lines for the terminal: speed, the check row by row, the verdict."""
    game, out = res["game"], []
    if game == "fubar":
        sp = res["speed"]
        out.append(f"FUBAR speed ({sp['games']} games GM + 3 players, {sp['actions']} actions): "
                   f"{sp['seconds_per_game']} s per game, table {sp['table_actions_per_second']} actions/s, "
                   f"engine alone {sp['engine_actions_per_second']} actions/s; {sp['games_over']} scenarios ended, "
                   f"{sp['fallbacks']} AI fallbacks")
        out.append("Outcome ladder against the exact odds (rule 3), seeded rolls per net bonus:")
        out.append(f"  {'net':>4} {'rolls':>6} {'Yes seen':>9} {'exact':>7} {'max step gap':>13} {'chi2':>6}  verdict")
        for net, row in res["ladder"].items():
            out.append(f"  {net:>4} {row['rolls']:>6} {row['success_seen']:>9.4f} {row['success_exact']:>7.4f} "
                       f"{row['max_step_gap']:>13.4f} {row['chi2']:>6.1f}  {'ok' if row['within'] else 'OFF'}")
    elif game == "paganini":
        out.append(f"Paganini speed ({res['games']} adventures, {res['actions']} actions, {res['ended']} ended): "
                   f"{res['actions_per_s_whole']} actions/s whole, {res['actions_per_s_apply']} actions/s engine alone")
        out.append(f"Check tiers against the exact keep-highest / keep-lowest d20 odds ({res['rolls']} rolls):")
        if not res["tiers_by_pool"]:
            out.append("  too few rolls in any one pool to judge (30 needed): play more games (--games)")
        for row in res["tiers_by_pool"]:
            out.append(f"  n={row['n']:+d}: {row['rolls']:5d} rolls, TVD {row['tvd']:.3f}, chi2 {row['chi2']:.1f} "
                       f"(df {row['df']})  {'ok' if row['within'] else 'OFF'}")
    else:
        out.append(f"Vele speed ({res['games']} games, {res['actions']} actions): {res['seconds_per_game']} s per game, "
                   f"table {res['table_actions_per_second']} actions/s, engine alone "
                   f"{res['engine_actions_per_second']} actions/s; {res['games_over']} stories ended")
        out.append(f"Dice conservation over {res['states_checked']} states: "
                   + ("every die accounted for" if res["conserved"] else f"{len(res['conservation_breaks'])} breaks, "
                      f"first: {res['conservation_breaks'][0]}"))
    out.append(f"{game} check: {'holds' if res['ok'] else 'FAILS'}")
    return out


def write_figure(res: dict[str, Any], out_dir: Path) -> Path | None:
    """The game's distribution figure (PNG) in `out_dir`; None for a game without one (Vele)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{res['game']}_check.png"
    if res["game"] == "fubar":
        from eval.fubar_check import figure
        figure(res["ladder"], path)
    elif res["game"] == "paganini":
        from eval.paganini import figure as pfigure
        pfigure(res, path)
    else:
        return None
    return path
