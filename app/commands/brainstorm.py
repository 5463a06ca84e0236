"""`storytable brainstorm`: AI seats propose Tenets (or scene frames); a person keeps or drops each.

Kept Tenets can start a new game log (`--out`): they are proposed and paid in the ordinary
preparation turns, and preparation stays open for the players to go on.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "AI seats propose Tenets for a premise (or scene frames for a saved game); keep or drop each"
DEFAULT_PLAYERS = "Ann,Ben,Cleo,Dev"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--premise", default=None, help="a genre or premise, e.g. 'noir in a drowned city'")
    p.add_argument("--count", type=int, default=None, help="how many proposals (default 6 Tenets, 3 frames)")
    p.add_argument("--ai", choices=["heuristic", "llm"], default="heuristic",
                   help="who proposes: the offline heuristic (default) or the configured LLM endpoint")
    p.add_argument("--from-game", metavar="LOG", default=None,
                   help="propose scene frames for this saved game's current situation instead of Tenets")
    p.add_argument("--out", metavar="NEW_GAME.jsonl", default=None,
                   help="start a new game log whose preparation proposes the kept Tenets")
    p.add_argument("--keep-all", action="store_true", help="keep every proposal without asking")
    p.add_argument("--players", default=DEFAULT_PLAYERS, help=f"players of the new game (default {DEFAULT_PLAYERS})")
    p.add_argument("--seed", type=int, default=0, help="varies the offline proposals")


def _interactive() -> bool:
    return sys.stdin.isatty()


def _ask(question: str) -> str | None:
    """One answer from the person; None at end of input."""
    print(question, end="", flush=True)
    line = sys.stdin.readline()
    return None if line == "" else line.strip().lower()


def _settings(ai: str):
    if ai != "llm":
        return None
    from agents.llm.config import is_configured, load_settings
    from app.cli import UserError

    cfg = load_settings()
    if not is_configured(cfg):
        raise UserError("--ai llm needs an endpoint: set OPENAI_API_KEY or OPENAI_BASE_URL (or [llm] base_url "
                        "in storytable.toml)")
    return cfg


def _choose(proposals: list, keep_all: bool) -> list:
    """Show each proposal; keep it unless the person says n. Non-interactive input keeps all."""
    ask = not keep_all and _interactive()
    kept = []
    for i, prop in enumerate(proposals, 1):
        label = prop.kind.replace("_", " ")
        print(f"[{i}] {label} (by {prop.by}): {prop.text}")
        if prop.why:
            print(f"    why: {prop.why}")
        answer = _ask("    keep? [Y/n] ") if ask else "y"
        if answer is None:  # end of input: keep what is left
            ask, answer = False, "y"
        if answer in ("", "y", "yes"):
            kept.append(prop)
        else:
            print("    dropped")
    return kept


def run(args: argparse.Namespace) -> int:
    from agents.brainstorm import propose_frames, propose_tenets
    from app.cli import UserError

    if args.count is not None and not 1 <= args.count <= 30:
        raise UserError("--count must be between 1 and 30")
    if args.from_game and args.out:
        raise UserError("--out starts a new game from kept Tenets; it cannot be used with --from-game")
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        raise UserError(f"{out} already exists: choose a new file (a saved game is never overwritten)")
    settings = _settings(args.ai)
    if args.from_game:
        state, saved_premise = _load_state(Path(args.from_game))
        proposals = propose_frames(state, args.count or 3, ai=args.ai, seed=args.seed, settings=settings,
                                   premise=saved_premise)
        print(f"Scene frames for the next scene of {args.from_game}:")
        kept = _choose(proposals, args.keep_all)
        print(f"kept {len(kept)} of {len(proposals)} frames")
        return 0
    premise = args.premise
    if premise is None and _interactive() and not args.keep_all:
        premise = _ask("Genre or premise: ") or ""
    premise = premise or ""
    proposals = propose_tenets(premise, args.count or 6, ai=args.ai, seed=args.seed, settings=settings)
    print(f"Tenets proposed for: {premise or '(no premise)'}")
    kept = _choose(proposals, args.keep_all)
    print(f"kept {len(kept)} of {len(proposals)} Tenets")
    if out is not None:
        _start_game(out, kept, premise, args.players)
    return 0


def _load_state(path: Path):
    """The saved game's state and the premise its start record holds ("" when it has none)."""
    from engine.universalis.replay import replay_bytes

    rep = replay_bytes(path.read_bytes())
    if rep.error is not None:
        raise rep.error
    return rep.state, str((rep.header.get("config") or {}).get("premise", "") or "")


def _start_game(out: Path, kept: list, premise: str, players: str) -> None:
    from agents.brainstorm import seed_tenets
    from agents.table import Seat, Table
    from app.cli import UserError

    names = [n.strip() for n in players.split(",") if n.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        raise UserError("--players needs at least two different names, separated by commas")
    try:
        table = Table.new([Seat(n, None) for n in names], log_path=out, premise=premise)
    except ValueError as exc:  # e.g. a reserved name
        raise UserError(str(exc)) from None
    ids = seed_tenets(table, kept)
    print(f"wrote {out}: a new game for {', '.join(names)} with {len(ids)} Tenets; "
          "preparation is still open for more Tenets or passes")
