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
    from engine.universalis.replay import replay_bytes
    from engine.universalis.views import summary

    path = Path(args.log)
    data = path.read_bytes()
    from app.commands.game_run import header_ruleset, replay as replay_other
    text = data.decode("utf-8", errors="replace")  # only to read the header's ruleset here
    if header_ruleset(text) not in (None, "universalis"):
        return replay_other(args, text)
    rep = replay_bytes(data)  # a cut inside a character stops the log at its line
    if rep.error is not None and not args.partial:
        raise LogError(rep.error.line, f"{rep.error.reason}; {rep.error.valid_records} actions before it are "
                       "valid (use --partial to see the state up to there)", rep.error.valid_records)
    out = summary(rep.state)
    if rep.error is not None:
        out["damaged"] = {"line": rep.error.line, "reason": rep.error.reason}
        print(f"warning: the log is damaged at line {rep.error.line}: {rep.error.reason}", file=sys.stderr)
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0
