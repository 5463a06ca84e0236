"""`storytable replay LOG`: replay a saved game and print its final state as JSON."""
from __future__ import annotations

import argparse
import json
import sys

HELP = "replay a saved game log and print the final state as JSON"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="a game log (JSON Lines) written by Storytable")
    p.add_argument("--partial", action="store_true",
                   help="if the log is damaged, print the state before the damage instead of failing")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.core.errors import LogError
    from engine.universalis.replay import replay_text
    from engine.universalis.views import summary

    path = Path(args.log)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise LogError(1, "the file is not text (not a Storytable game log)") from None
    from app.commands.game_run import header_ruleset, replay as replay_other
    if header_ruleset(text) not in (None, "universalis"):
        return replay_other(args, text)
    rep = replay_text(text)
    if rep.error is not None and not args.partial:
        raise LogError(rep.error.line, f"{rep.error.reason}; {rep.error.valid_records} actions before it are "
                       "valid (use --partial to see the state up to there)", rep.error.valid_records)
    out = summary(rep.state)
    if rep.error is not None:
        out["damaged"] = {"line": rep.error.line, "reason": rep.error.reason}
        print(f"warning: the log is damaged at line {rep.error.line}: {rep.error.reason}", file=sys.stderr)
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0
