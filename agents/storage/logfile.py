"""A game log on disk: read as bytes, new logs never overwrite one, a damaged log kept byte for byte.

Why: a log is the only copy of a game. A file we could not fully read is never rewritten or
truncated; to go on from its valid part, the damaged file first gets a second name
(`game.damaged-1.jsonl`, a hard link: the very same bytes, nothing copied) and only then does
a new log with the valid part take the usual name, atomically. So at every instant the usual
name holds a whole log, and the damaged bytes stay on disk.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path


def kept_name(path: Path) -> Path:
    """The first free `<stem>.damaged-<n><suffix>` beside `path`."""
    n = 1
    while True:
        candidate = path.with_name(f"{path.stem}.damaged-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def keep_aside_and_replace(path: Path, text: str) -> Path:
    """Give the damaged log at `path` a second name, then put `text` (a whole log) at `path`.

    Returns where the damaged bytes are kept. Raises OSError (and changes nothing at `path`)
    if they cannot be kept.
    """
    kept = kept_name(path)
    try:
        os.link(path, kept)  # the same file under a second name: byte for byte by construction
    except OSError:
        shutil.copyfile(path, kept)  # a file system without hard links
        if kept.read_bytes() != path.read_bytes():
            kept.unlink()
            raise OSError(f"could not keep a copy of {path.name} beside it") from None
    _write_atomically(path, text)
    return kept


def create_log(path: Path, text: str, overwrite: bool = False) -> None:
    """Write a new log at `path`; FileExistsError if one is there, unless `overwrite`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if overwrite:
        _write_atomically(path, text)
        return
    with open(path, "x", encoding="utf-8") as fh:  # exclusive: never clobbers a file made meanwhile
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
