"""`storytable simulate`: an all-AI game, with progress on stderr, a summary and a transcript."""
from __future__ import annotations

import argparse
import sys
import time

HELP = "play an all-AI game (heuristic players offline, or LLM players on the configured endpoint)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from app.commands.game_run import game_names
    p.add_argument("--game", choices=game_names(), default="universalis",
                   help="which game to play (default universalis)")
    p.add_argument("--seats", type=int, default=4, help="number of AI players (default 4)")
    p.add_argument("--scenes", type=int, default=10, help="stop after this many scenes have ended (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed for the dice and the players (default 0)")
    p.add_argument("--out", metavar="FILE", help="write the game log (JSON Lines) here as the game goes")
    p.add_argument("--force", action="store_true",
                   help="let --out overwrite a file that is already there (what it held is lost)")
    p.add_argument("--transcript", action="store_true", help="print the story as it was told")
    p.add_argument("--ai", choices=["heuristic", "llm", "local"], default="heuristic",
                   help="heuristic: offline players (default); llm: the OpenAI-compatible endpoint configured by "
                        "OPENAI_API_KEY / OPENAI_BASE_URL or storytable.toml; local: a GGUF model file loaded in "
                        "this process (--model-path; needs the local-model extra)")
    p.add_argument("--model-path", metavar="FILE.gguf", help="the GGUF model file for --ai local")
    p.add_argument("--premise", help="the game's premise (default: a genre picked by the seed)")
    p.add_argument("--addon", action="append", default=[], metavar="NAME[=VALUE]",
                   help="play under a Universalis add-on (repeatable; `storytable addons` lists them)")
    p.add_argument("--max-steps", type=int, default=200_000, help=argparse.SUPPRESS)


def ai_players(args: argparse.Namespace):
    """(seat kind, LLM settings, chat model) for --ai; a UserError in one line when they cannot be had.

    `--ai local` seats LLM players on one model loaded in this process, shared by every AI seat.
    """
    from app.cli import UserError

    model_path = getattr(args, "model_path", None)
    if args.ai != "local":
        if model_path:
            raise UserError("--model-path goes with --ai local")
        return args.ai, (llm_settings() if args.ai == "llm" else None), None
    if not model_path:
        raise UserError("--ai local needs --model-path FILE.gguf (a model file in llama.cpp's GGUF format)")
    from agents.llm.config import ConfigError
    from agents.llm.local import load_local_model, local_settings

    try:
        chat = load_local_model(model_path)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    return "llm", local_settings(chat), chat


def llm_settings():
    """The configured LLM settings, or a UserError saying how to configure them."""
    from agents.llm.config import is_configured, load_settings
    from app.cli import UserError

    settings = load_settings()
    if not is_configured(settings):
        raise UserError("--ai llm needs a model endpoint: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL "
                        "(a local server such as Ollama), or an [llm] table in storytable.toml; "
                        "--ai heuristic plays offline")
    return settings


class Progress:
    """One self-overwriting line on stderr: scenes, actions, time."""

    def __init__(self, scenes: int, stream=None) -> None:
        self.scenes = scenes
        self.stream = stream or sys.stderr
        self.started = time.perf_counter()
        self.tty = getattr(self.stream, "isatty", lambda: False)()
        self._last = -1.0

    def __call__(self, table) -> None:
        now = time.perf_counter()
        if not self.tty and now - self._last < 2.0 and table.state.scenes_ended < self.scenes:
            return  # a log file gets a line every two seconds, a terminal every update
        self._last = now
        s = table.state
        line = (f"scene {min(s.scenes_ended + 1, self.scenes)}/{self.scenes} - {len(table.records)} actions - "
                f"{now - self.started:.1f}s")
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    from agents.simulation import simulate_game, transcript_lines
    from app.cli import UserError

    if getattr(args, "game", "universalis") != "universalis":
        from app.commands.game_run import simulate as simulate_other
        return simulate_other(args)

    if not 2 <= args.seats <= 12:
        raise UserError(f"--seats must be between 2 and 12, not {args.seats}")
    if args.scenes < 1:
        raise UserError(f"--scenes must be at least 1, not {args.scenes}")
    if args.out:
        from pathlib import Path

        if Path(args.out).exists() and not getattr(args, "force", False):
            raise UserError(f"{args.out} already exists and a saved game is never overwritten: choose another "
                            "--out, or add --force to overwrite it")
    addons = None
    if getattr(args, "addon", None):
        from engine.universalis.addon_registry import addons_from_args
        addons = addons_from_args(args.addon, [f"x{i}" for i in range(args.seats)])
    ai, settings, chat_model = ai_players(args)
    progress = Progress(args.scenes)
    result = simulate_game(seats=args.seats, scenes=args.scenes, seed=args.seed, ai=ai, log_path=args.out,
                           progress=progress, settings=settings, max_steps=args.max_steps, premise=args.premise,
                           chat_model=chat_model, addons=addons)
    progress.done()
    share = None
    if args.ai == "llm":
        from agents.llm.player import model_share_line

        share = model_share_line(seat.player for seat in result.table.seats.values())
    if args.transcript:
        print("\n".join(transcript_lines(result.table)))
        if share:
            print(share)
        print()
    st = result.stats()
    fam = st["families"]
    print(f"Scenes: {st['scenes']}   Complications: {st['complications']}   Challenges: {st['challenges']}   "
          f"Eliminations: {st['eliminations']}   Fades to black: {fam.get('fade to black', 0)}")
    print(f"Actions: {st['actions']} in {st['seconds']:.1f}s   AI fallbacks: {st['fallbacks']}")
    if share:
        print(share)
    print("Coins: " + ", ".join(f"{n} {c}" for n, c in st["coins"].items()))
    if args.out:
        print(f"Game log: {args.out}")
    if st["scenes"] < args.scenes:
        print(f"note: stopped after {st['actions']} actions with {st['scenes']} scenes ended", file=sys.stderr)
    return 0
