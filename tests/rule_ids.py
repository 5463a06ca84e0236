"""Shared by the rule-coverage tests of the GM-led and narrator rulesets (FUBAR, Paganini, the Vele).

Their digests number rules, test cases and readings without IDs; the tests call them
<P>-<n> (section 2), <P>-EX-<n> (section 5) and <P>-AMB-<n> (section 6), P being the game's letter.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOLD_ITEM = r"^(\d+)\. \*\*"  # "12. **Name** ..."


def digest(name: str) -> Path | None:
    """shared/rules/<name>.md beside the checkout (CI's clone) or in the workplace."""
    return next((p for p in (HERE.parent.parent / "shared" / "rules" / f"{name}.md",
                             Path(f"/work/shared/rules/{name}.md")) if p.exists()), None)


def digest_ids(path: Path, letter: str, rule_item: str = BOLD_ITEM) -> list[str]:
    """The IDs the digest's numbered items call for, section by section (`rule_item`: how section 2
    numbers its rules; cases and readings are always bold items)."""
    items = {"2": (f"{letter}-{{}}", rule_item), "5": (f"{letter}-EX-{{}}", BOLD_ITEM),
             "6": (f"{letter}-AMB-{{}}", BOLD_ITEM)}
    ids: list[str] = []
    for part in re.split(r"^## ", path.read_text(encoding="utf-8"), flags=re.M)[1:]:
        number = part.split(".", 1)[0].strip()
        body = part.split("\n", 1)[1] if "\n" in part else ""  # the heading line is "2. Mechanical rules"
        if number in items:
            fmt, pattern = items[number]
            ids += [fmt.format(n) for n in re.findall(pattern, body, flags=re.M)]
    return ids


def named_ids(letter: str, pattern: str, exclude: str) -> set[str]:
    """The IDs that test functions in files matching `pattern` name (function name or docstring)."""
    seen: set[str] = set()
    for path in HERE.glob(pattern):
        if path.name == exclude:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                words = node.name + " " + (ast.get_docstring(node) or "")
                for kind, n in re.findall(rf"\b{letter}[-_](?:(EX|AMB)[-_])?(\d+)", words):
                    seen.add(f"{letter}-{kind + '-' if kind else ''}{n}")
    return seen
