"""`simulate --game G` and `replay` for rulesets other than Universalis, via agents/game_loop.py.

Kept apart from simulate.py and replay.py so those stay as they are for Universalis; they
hand over here when the game (or a log's header) names another ruleset.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def game_names() -> list[str]:
    from engine.core.ruleset import names
    return names()


def simulate(args: argparse.Namespace) -> int:
    from agents.game_sim import HEURISTICS, simulate as run_sim, transcript
    from app.cli import UserError

    if args.game not in HEURISTICS:
        raise UserError(f"--game {args.game} has no AI seats yet; known: universalis, {', '.join(sorted(HEURISTICS))}")
    if not 2 <= args.seats <= 12:
        raise UserError(f"--seats must be between 2 and 12, not {args.seats}")
    if args.scenes < 1:
        raise UserError(f"--scenes must be at least 1, not {args.scenes}")
    if args.out and Path(args.out).exists():
        raise UserError(f"{Path(args.out).name} already exists: choose another --out (a saved game is never overwritten)")
    seats_made, memory_dir = None, None
    if getattr(args, "ai", "heuristic") != "heuristic":
        from agents.game_sim import llm_seats
        from app.commands.simulate import ai_players

        _, settings, chat_model = ai_players(args)  # a UserError in one line when no model can be had
        seats_made = llm_seats(args.game, args.seats, args.seed, args.scenes, settings, chat_model)
        # the AI seats recall Facts from a memory beside the log (none without --out: nowhere to keep it)
        memory_dir = Path(args.out).resolve().parent if args.out else None
    result = run_sim(args.game, seats=args.seats, scenes=args.scenes, seed=args.seed, log_path=args.out,
                     premise=args.premise, max_steps=args.max_steps, seats_made=seats_made, memory_dir=memory_dir)
    share = None
    if seats_made is not None:
        from agents.llm.player import model_share_line

        share = model_share_line(p for _, p in seats_made)
    if args.transcript:
        print("\n".join(transcript(result.table)))
        print()
    st = result.stats()
    print(f"Game: {st['game']} {st['version']}   Scenes: {st['scenes']}   Scenario over: {'yes' if st['over'] else 'no'}")
    print(f"Actions: {st['actions']} in {st['seconds']:.1f}s   AI fallbacks: {st['fallbacks']}")
    if share:
        print(share)
    summary = result.table.ruleset.summary(result.table.state)
    answers = summary.get("answers") or []
    if answers:
        yes = sum(1 for a in answers if a["answer"].startswith("Yes"))
        foes = summary.get("opposition") or []
        print(f"Conflicts: {len(answers)} ({yes} Yes, {len(answers) - yes} No or impasse)   "
              f"Rerolls: {st['types'].get('reroll', 0)}   Opposition defeated: "
              f"{sum(1 for o in foes if o['defeated'])}/{len(foes)}")
    chars = summary.get("characters") or []
    if chars and all("wounds" in c for c in chars):
        print("Wounds: " + ", ".join(f"{c['name']} {c['wounds']}/25" + ("" if c.get("conscious", True) else
                                                                         " (unconscious)") for c in chars))
    if args.out:
        print(f"Game log: {args.out}")
    return 0


def replay(args: argparse.Namespace, text: str) -> int:
    """Replay any registered ruleset's log and print its summary as JSON."""
    from engine.core.errors import LogError
    from engine.core.ruleset import replay_log_text

    rep = replay_log_text(text)
    if rep.error is not None and not args.partial:
        raise LogError(rep.error.line, f"{rep.error.reason}; {rep.error.valid_records} actions before it are "
                       "valid (use --partial to see the state up to there)", rep.error.valid_records)
    out = rep.ruleset.summary(rep.state)
    if rep.error is not None:
        out["damaged"] = {"line": rep.error.line, "reason": rep.error.reason}
        print(f"warning: the log is damaged at line {rep.error.line}: {rep.error.reason}", file=sys.stderr)
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


def header_ruleset(text: str) -> str | None:
    """The ruleset a log's first line names, or None (no header, or a Universalis log of old)."""
    first = text.split("\n", 1)[0]
    try:
        head = json.loads(first)
    except json.JSONDecodeError:
        return None
    return head.get("ruleset") if isinstance(head, dict) and isinstance(head.get("ruleset"), str) else None
