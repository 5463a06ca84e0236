"""A Markdown report with PNG plots from a results dict, laid out the same way for every run.

Same headings, same tables, same plots in the same order: two reports side by side compare at
a glance (`--compare` gives the exact differences).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any


def fmt(x: Any, digits: int = 3) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        if x == 0:
            return "0"
        if abs(x) >= 1000:
            return f"{x:,.0f}"
        return f"{x:.{digits}g}"
    return str(x)


def table(rows: list[tuple[str, Any]]) -> list[str]:
    out = ["| figure | value |", "|---|---|"]
    out += [f"| {k} | {fmt(v)} |" for k, v in rows]
    return out + [""]


def write_report(res: dict[str, Any], out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    pngs = plots(res, out_dir)
    m = res.get("meta", {})
    lines = [f"# Storytable evaluation ({m.get('preset', {}).get('name', '?')})", "",
             f"Run {m.get('when')} on {m.get('cpus')} CPUs ({m.get('machine')}, Python {m.get('python')}), "
             f"load average at start {m.get('load_average_at_start')}; took {fmt(m.get('seconds'))} s. "
             "Speed figures are single process, one game after another, on a shared machine.", ""]
    lines += speed_section(res.get("speed", {}), pngs)
    lines += scaling_section(res.get("scaling", {}), pngs)
    lines += ai_section(res.get("ai", {}), pngs)
    lines += economy_section(res.get("economy", {}), pngs)
    lines += story_section(res.get("story", {}))
    lines += memory_section(res.get("memory", {}))
    path = out_dir / "README.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _error(part: dict[str, Any]) -> list[str]:
    return [f"**Failed:** {part['error']}", ""] if "error" in part else []


def speed_section(sp: dict[str, Any], pngs: dict[str, str]) -> list[str]:
    lines = [f"## Engine speed ({sp.get('seats')} seats, {sp.get('scenes')} scenes, {sp.get('games')} games)", ""]
    lines += _error(sp)
    if "games_per_s" not in sp:
        return lines
    mem = sp.get("memory", {})
    lines += table([
        ("complete games per second (players + engine)", sp["games_per_s"]),
        ("actions per second (players + engine)", sp["actions_per_s"]),
        ("engine alone: games per second", sp["engine_games_per_s"]),
        ("engine alone: actions per second", sp["engine_actions_per_s"]),
        ("reference arithmetic: games per second", sp["reference_games_per_s"]),
        ("engine time / reference time", sp["engine_over_reference"]),
        ("engine share of a game's time", sp["engine_share_of_game"]),
        ("actions per game", sp["actions_per_game"]),
        ("seconds per game: engine / players and table",
         f"{fmt(sp['engine_seconds_per_game'])} / {fmt(sp['players_and_table_seconds_per_game'])}"),
        ("tracemalloc peak, whole game with players (bytes)", mem.get("game_peak_bytes")),
        ("tracemalloc peak, replaying the log (bytes)", mem.get("replay_peak_bytes")),
        ("final state + events held (bytes)", mem.get("state_and_events_bytes")),
        ("final state as JSON (bytes)", mem.get("state_json_bytes")),
        ("log file (bytes)", sp.get("log_bytes_per_game")),
        ("failed games", sp.get("failed_games")),
    ])
    if sp.get("errors"):
        lines += ["Errors: " + "; ".join(sp["errors"]), ""]
    if "speed" in pngs:
        lines += [f"![speed]({pngs['speed']})", ""]
    return lines


def scaling_section(sc: dict[str, Any], pngs: dict[str, str]) -> list[str]:
    lines = ["## How cost grows", ""]
    lines += _error(sc)
    rows, seen = [], set()
    for r in sc.get("by_seats", []) + sc.get("by_scenes", []):
        if (r.get("seats"), r.get("scenes")) not in seen:  # the base size is in both series
            seen.add((r.get("seats"), r.get("scenes")))
            rows.append(r)
    if not rows:
        return lines
    lines += ["Sizes whose games hit the time budget show the scenes reached and count the stopped game in "
              "s/game; compare them by the per-action columns.", "",
              "| seats | scenes | games (stopped) | scenes reached | actions/game | s/game | whole ms/action | "
              "engine ms/action | engine actions/s | engine/reference | state JSON bytes | replay peak bytes | failed |",
              "|" + "---|" * 13]
    for r in rows:
        mem = r.get("memory", {})
        whole = 1000 * r["seconds_per_game"] / r["actions_per_game"] if r.get("actions_per_game") else None
        reached = r.get("scenes_reached_per_game", r["scenes"] if r.get("games") else None)
        lines.append(f"| {r['seats']} | {r['scenes']} | {r['games']} ({r.get('incomplete_games', 0)}) | {fmt(reached)} | "
                     f"{fmt(r.get('actions_per_game'))} | "
                     f"{fmt(r.get('seconds_per_game'))} | {fmt(whole)} | {fmt(r.get('engine_ms_per_action'))} | "
                     f"{fmt(r.get('engine_actions_per_s'))} | {fmt(r.get('engine_over_reference'))} | "
                     f"{fmt(mem.get('state_json_bytes'))} | {fmt(mem.get('replay_peak_bytes'))} | "
                     f"{r.get('failed_games')} |")
    lines.append("")
    errs = [e for r in rows for e in r.get("errors", [])]
    if errs:
        lines += ["Errors: " + "; ".join(errs[:5]), ""]
    if "scaling" in pngs:
        lines += [f"![scaling]({pngs['scaling']})", ""]
    return lines


def ai_section(ai: dict[str, Any], pngs: dict[str, str]) -> list[str]:
    lines = ["## AI decisions", ""]
    lines += _error(ai)
    if not ai.get("available"):
        return lines + [f"Not measured: {ai.get('reason', 'n/a')}", ""]
    lat = ai["latency_s"]
    lines += [f"Model: {ai['source']}. Memory: {ai['memory']}. {ai['scenes']} scenes, {ai['actions']} actions"
              + (f" (stopped by the {fmt(ai['budget_s'])} s budget)." if ai.get("stopped_by_budget") else "."), ""]
    lines += table([
        ("decisions by AI seats", ai["decisions"]),
        ("decisions that asked the model", ai["model_decisions"]),
        ("share of decisions made by the model", ai.get("model_share")),
        ("reactions passed without a model call", ai["skipped_reactions"]),
        ("legal on the first try (of model decisions)", ai["first_try_legal_rate"]),
        ("retries per model decision", ai["retries_per_model_decision"]),
        ("fallbacks to the heuristic", ai["fallbacks"]),
        ("tokens in / out per model decision",
         f"{fmt(ai['tokens_in_per_model_decision'])} / {fmt(ai['tokens_out_per_model_decision'])}"),
        ("tokens in / out per scene", f"{fmt(ai['tokens_in_per_scene'])} / {fmt(ai['tokens_out_per_scene'])}"),
        ("seconds: wall", lat["wall"]),
        ("seconds: engine (apply alone)", lat["engine"]),
        ("seconds: memory (retrieval + indexing)", lat["memory"]),
        ("seconds: model (waiting for the endpoint)", lat["model"]),
        ("seconds: players and table (the rest)", lat["players_and_table"]),
    ])
    if ai.get("model_share_by_kind"):
        lines += ["Made by the model, per decision kind: "
                  + ", ".join(f"{k} {v:.0%}" for k, v in ai["model_share_by_kind"].items()), ""]
    if ai.get("fallback_reasons"):
        lines += ["Fallback reasons: " + ", ".join(f"{k} ({v})" for k, v in ai["fallback_reasons"].items()), ""]
    if "ai" in pngs:
        lines += [f"![ai latency]({pngs['ai']})", ""]
    return lines


def story_section(st: dict[str, Any]) -> list[str]:
    """Issue 23: repeated sentence frames, distinct-2, coins per seat per scene, cross-seat use."""
    if not st:
        return []
    lines = [f"## Story ({st.get('seats')} seats, {st.get('scenes')} scenes, heuristic seats)", ""]
    lines += _error(st)
    for label, key in (("tuning seeds", "tuning"), ("held-out seeds", "held_out"), ("blind seeds", "blind")):
        g = st.get(key) or {}
        if not g:
            continue
        curve = ", ".join(f"{x:.0f}" for x in g.get("coins_per_seat_after_scene", []))
        lines += [f"### {label} ({g['games']} games)", ""]
        lines += table([
            ("largest frame share, all seat lines (target <= 0.03)", g["top_frame_share"]),
            ("largest frame share, seats' own words (target <= 0.03)", g["own_words_top_frame_share"]),
            ("worst game, seats' own words", g["worst_own_words_top_frame_share"]),
            ("frames over 3% per game, all seat lines", g["frames_over_limit"]),
            ("distinct-2 of the narration", g["distinct_2"]),
            ("mean coins per seat after each scene", curve),
            ("coins per seat at the end, by seed (sane range 25-40)",
             ", ".join(f"{k}: {v:.1f}" for k, v in (g.get("coins_per_seat_at_end_by_seed") or {}).items()) or "-"),
            ("Complications per game", g["complications_per_game"]),
            ("statements where an eliminated component acts", g["eliminated_acting"]),
            ("statements contradicting an earlier Fact (offline judge)", g.get("contradicting_statements", "-")),
            ("other seats' lines naming seat Ann's components", g["stand_in_used_by_others"]),
        ])
    return lines


def economy_section(ec: dict[str, Any], pngs: dict[str, str]) -> list[str]:
    lines = [f"## Economy ({ec.get('games')} seeded games of {ec.get('seats')} seats, {ec.get('scenes')} scenes)", ""]
    lines += _error(ec)
    if "bonus_per_die" not in ec:
        return lines
    if ec.get("stopped_by_budget"):
        lines += [f"**Stopped by the time budget** ({fmt(ec.get('budget_s'))} s): {ec['games']} of "
                  f"{ec['games_requested']} games were played. Nothing is extrapolated.", ""]
    b = ec["bonus_per_die"]
    cps = ec["coins_per_seat_per_scene"]
    lines += table([
        ("bonus coins per die, winners (rulebook ~1.5)", b["winner"]),
        ("bonus coins per die, losers (rulebook 1)", b["loser"]),
        ("dice rolled by winners / losers", f"{fmt(b['winner_dice'])} / {fmt(b['loser_dice'])}"),
        ("coins paid per seat per scene", cps["paid"]),
        ("refreshment per seat per scene", cps["refresh"]),
        ("bonus coins earned per seat per scene", cps["bonus"]),
        ("compensation per seat per scene", cps["compensation"]),
        ("coins per seat at the end", ec["final_coins_per_seat"]),
        ("complications per scene", ec["complications_per_scene"]),
        ("complications resolved per scene", ec["complications_resolved_per_scene"]),
        ("share won by the Complication", ec["complication_wins_rate"]),
        ("ties (Edge dice) per resolution", ec["ties_per_resolution"]),
        ("challenges per game", ec["challenges_per_game"]),
        ("reference arithmetic disagreeing with the engine (games)", ec["reference_disagreements"]),
        ("failed games", ec["failed_games"]),
    ])
    lines += ["Challenge outcomes per game: " + ", ".join(f"{k} {fmt(v)}" for k, v in ec["challenge_outcomes"].items()),
              ""]
    if ec.get("errors"):
        lines += ["Errors: " + "; ".join(ec["errors"]), ""]
    if "economy" in pngs:
        lines += [f"![economy]({pngs['economy']})", ""]
    return lines


def memory_section(mem: dict[str, Any]) -> list[str]:
    lines = ["## Memory (eval/memory)", ""]
    lines += _error(mem)
    if "retrieval" not in mem:
        return lines
    rows: list[tuple[str, Any]] = []
    for key, r in mem.items():  # the probes, in the order eval/memory/run.py ran them
        if not key.startswith("retrieval") or not r:
            continue
        label = r.get("label", key)  # older results carry no label
        embedder = r.get("embedder", "?") + (f" + {r['second_embedder']}" if r.get("second_embedder") else "")
        rows += [(f"{label}: facts / queries ({embedder})", f"{r.get('facts')} / {r.get('queries')}"),
                 (f"{label}: dense / hybrid recall@10",
                  f"{fmt(r.get('dense', {}).get('recall@10'))} / {fmt(r.get('hybrid', {}).get('recall@10'))}")]
    lat = mem.get("latency", {})
    for where, sizes in (("", lat.get("sizes", [])), (" (chroma server)", lat.get("server", []))):
        for row in sizes:
            if "hybrid" in row and "brute" in row:
                rows.append((f"query ms at {row['facts']:,} facts{where}: hybrid median / p95 / brute force",
                             f"{fmt(row['hybrid']['median_ms'])} / {fmt(row['hybrid']['p95_ms'])} / "
                             f"{fmt(row['brute']['median_ms'])}"))
                rows.append((f"first query s at {row['facts']:,} facts{where}", fmt(row["first_query_s"])))
            elif "chroma" in row:  # results from before issue 26
                rows.append((f"query ms at {row['facts']:,} facts: chroma / numpy exact",
                             f"{fmt(row['chroma']['median_ms'])} / {fmt(row['numpy_exact']['median_ms'])}"))
    p = mem.get("contradiction", {}).get("pairs", {})
    rows.append(("contradiction precision / recall", f"{fmt(p.get('precision'))} / {fmt(p.get('recall'))}"))
    return lines + table(rows)


def plots(res: dict[str, Any], out_dir: Path) -> dict[str, str]:
    """PNG files, named the same in every run; returns name -> file name."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made: dict[str, str] = {}
    sp = res.get("speed", {})
    if "games_per_s" in sp:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        names = ["game\n(players+engine)", "engine\nalone", "reference\narithmetic"]
        vals = [sp["actions_per_s"], sp["engine_actions_per_s"], sp["reference_actions_per_s"]]
        a1.bar(names, vals, color=["#888", "#2a7", "#27a"])
        a1.set_yscale("log")
        a1.set_ylabel("actions per second (log)")
        a1.set_title(f"speed, {sp['seats']} seats x {sp['scenes']} scenes")
        eng, rest = sp["engine_seconds_per_game"], sp["players_and_table_seconds_per_game"]
        a2.bar(["per game"], [eng], label="engine (apply)", color="#2a7")
        a2.bar(["per game"], [rest], bottom=[eng], label="players and table", color="#bbb")
        a2.set_ylabel("seconds")
        a2.legend()
        a2.set_title("where a game's time goes")
        fig.tight_layout()
        made["speed"] = _save(fig, out_dir, "speed.png")
    sc = res.get("scaling", {})
    if sc.get("by_seats") or sc.get("by_scenes"):
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        for ax, key, xkey, label in ((axes[0], "by_seats", "seats", "seats"), (axes[1], "by_scenes", "scenes", "scenes")):
            rows = [r for r in sc.get(key, []) if "engine_ms_per_action" in r]
            if not rows:
                continue
            xs = [r[xkey] for r in rows]
            ax.plot(xs, [r["engine_ms_per_action"] for r in rows], "o-", label="engine ms/action", color="#2a7")
            ax.plot(xs, [1000 * r["seconds_per_game"] / r["actions_per_game"] for r in rows], "s--",
                    label="whole game ms/action", color="#888")
            ax.set_xlabel(label)
            ax.set_ylabel("ms per action")
            ax.set_title(f"cost per action vs {label}")
            ax.legend()
        fig.tight_layout()
        made["scaling"] = _save(fig, out_dir, "scaling.png")
    ai = res.get("ai", {})
    if ai.get("available") and "latency_s" in ai:
        lat = ai["latency_s"]
        fig, ax = plt.subplots(figsize=(6, 4))
        parts = ["engine", "memory", "model", "players_and_table"]
        bottom = 0.0
        for part, color in zip(parts, ["#2a7", "#a72", "#27a", "#bbb"]):
            ax.bar(["AI game"], [lat[part]], bottom=[bottom], label=part, color=color)
            bottom += lat[part]
        ax.set_ylabel("seconds")
        ax.set_title(f"AI game time split ({ai['decisions']} decisions)")
        ax.legend()
        fig.tight_layout()
        made["ai"] = _save(fig, out_dir, "ai_latency.png")
    ec = res.get("economy", {})
    if "bonus_per_die" in ec:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        curve = ec["mean_coins_per_seat_after_scene"]
        a1.plot(range(1, len(curve) + 1), curve, "o-", color="#27a")
        a1.set_xlabel("scene")
        a1.set_ylabel("mean coins per seat")
        a1.set_title("coins per seat after each scene")
        b = ec["bonus_per_die"]
        a2.bar(["winner", "loser"], [b["winner"] or 0, b["loser"] or 0], color=["#2a7", "#a72"], label="measured")
        a2.plot(["winner", "loser"], [b["expected_winner"], b["expected_loser"]], "k_", markersize=40,
                mew=3, label="rulebook")
        a2.set_ylabel("bonus coins per die")
        a2.set_title(f"bonus per die ({ec['games']} games)")
        a2.legend()
        fig.tight_layout()
        made["economy"] = _save(fig, out_dir, "economy.png")
    plt.close("all")
    return made


def _save(fig: Any, out_dir: Path, name: str) -> str:
    fig.savefig(out_dir / name, dpi=90)
    return name
