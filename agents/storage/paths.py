"""Paths as a person may see them: never the server's absolute directories.

Why: a message on a shared page must not tell strangers where the server keeps its files.
A path under the games folder ($STORYTABLE_HOME) is shown relative to it; anything else by its
file name. `scrub` does the same to any message text (an exception from a library may carry
a path), as the last line of defence before a message reaches a page.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

# an absolute path: a slash not preceded by a word character, a colon or a slash (so URLs,
# fractions and "and/or" are left alone), then at least two components
_ABSOLUTE = re.compile(r"(?<![\w.:/~-])/(?:[^\s/'\"`,;:()\[\]{}<>]+/)+[^\s/'\"`,;:()\[\]{}<>]*")


def games_home() -> Path:
    """Where games live: $STORYTABLE_HOME, else ./games (the same rule as app.ui.store.home)."""
    return Path(os.environ.get("STORYTABLE_HOME") or "games").resolve()


def shown_path(path: str | os.PathLike[str]) -> str:
    """`CODE/game.jsonl` for a path under the games folder, else just the file's name."""
    p = Path(path)
    try:
        return p.resolve().relative_to(games_home()).as_posix() or "."
    except (ValueError, OSError, RuntimeError):
        return p.name or str(p)


def scrub(text: str) -> str:
    """The message with every absolute path replaced as `shown_path` would show it."""
    roots = sorted({str(games_home()), os.path.realpath(str(games_home()))}, key=len, reverse=True)
    for root in roots:
        text = text.replace(root + os.sep, "").replace(root, ".")
    return _ABSOLUTE.sub(lambda m: [part for part in m.group(0).split("/") if part][-1], text)
