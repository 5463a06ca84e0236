"""`storytable reindex LOG`: rebuild a game's fact memory from its log (the log is the truth)."""
from __future__ import annotations

import argparse

HELP = "rebuild a game's fact memory (vector index) from its log"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="a game log (JSON Lines) written by Storytable; the index goes beside it")
    add_memory_options(p)


def add_memory_options(p: argparse.ArgumentParser) -> None:
    """Options shared with `storytable facts`."""
    p.add_argument("--chroma-url", default=None,
                   help="use a Chroma server (http://host:port) instead of the index beside the log "
                        "(default: $STORYTABLE_CHROMA_URL or [memory] chroma_url in storytable.toml)")
    p.add_argument("--index-dir", default=None,
                   help="name of the index directory beside the log (default: index)")


def open_memory(args: argparse.Namespace, rebuild: bool = False):
    """Replay the log and open its memory; configuration and index problems become UserError."""
    import sys
    from pathlib import Path

    from agents.memory.config import MemoryConfigError, load_memory_settings
    from agents.memory.embeddings import EmbeddingError
    from agents.memory.game import GameMemory, stderr_progress
    from agents.memory.index import MemoryIndexError
    from app.cli import UserError

    path = Path(args.log)
    if path.is_dir():
        raise UserError(f"{path} is a directory: give the game log file (usually {path / 'game.jsonl'})")
    try:
        settings = load_memory_settings(chroma_url=args.chroma_url, index_dir=args.index_dir)
        return GameMemory.for_log(path, settings=settings, rebuild=rebuild,
                                  progress=stderr_progress("indexing facts") if sys.stderr.isatty() or rebuild
                                  else None)
    except (MemoryConfigError, EmbeddingError, MemoryIndexError) as exc:
        raise UserError(str(exc)) from None


def where(memory) -> str:
    index = memory.index
    return index.url if index.url else str(index.path)


def run(args: argparse.Namespace) -> int:
    import time

    started = time.perf_counter()
    memory, rep = open_memory(args, rebuild=True)
    records = memory.index.all_records(include_removed=True)
    removed = sum(r.removed for r in records)
    eliminated = sum(r.eliminated for r in records)
    print(f"rebuilt the memory of game {memory.game_id}: {len(records)} facts from {len(rep.records)} actions "
          f"({removed} removed, {eliminated} of eliminated components) in {where(memory)} "
          f"[{time.perf_counter() - started:.1f} s]")
    for moved in memory.index.recoveries:
        print(f"the old index was unreadable; it was moved to {moved}")
    return 0
