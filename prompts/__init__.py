"""Prompt templates as files, one per decision kind (DESIGN.md: prompts/).

Why files: the words a model sees are easier to read, review and tune as text than inside
code. A template uses `$name` placeholders (string.Template), so JSON braces need no escaping.
A file may hold its own system part above a line `=== user ===`; otherwise `system.md` is used.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from string import Template
from typing import Any, Mapping

__all__ = ["PROMPT_DIR", "available_prompts", "load", "render"]

PROMPT_DIR = Path(__file__).resolve().parent
SEPARATOR = "=== user ==="


@lru_cache(maxsize=None)
def load(name: str) -> str:
    """The raw text of `prompts/<name>.md`; FileNotFoundError names the missing file."""
    path = PROMPT_DIR / f"{name}.md"
    if not path.is_file():
        raise FileNotFoundError(f"no prompt file {path.name} in {PROMPT_DIR}")
    return path.read_text(encoding="utf-8")


def available_prompts() -> list[str]:
    return sorted(p.stem for p in PROMPT_DIR.glob("*.md"))


def render(name: str, values: Mapping[str, Any]) -> tuple[str, str]:
    """(system, user) texts of prompt `name` with `values` filled in; unknown `$x` stay as they are."""
    text = load(name)
    if SEPARATOR in text:
        system, user = text.split(SEPARATOR, 1)
    else:
        system, user = load("system"), text
    data = {k: str(v) for k, v in values.items()}
    return Template(system.strip()).safe_substitute(data), Template(user.strip()).safe_substitute(data)
