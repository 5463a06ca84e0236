"""Every numbered rule of shared/rules/fubar.md is named by a test (name or docstring).

The digest numbers its rules without IDs; the tests use F-<n> for rule n of section 2,
F-EX-<n> for test case n of section 5 and F-AMB-<n> for reading n of section 6.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
DIGEST = next((p for p in (HERE.parent.parent / "shared" / "rules" / "fubar.md",
                           Path("/work/shared/rules/fubar.md")) if p.exists()), None)
OWN = ["test_fubar_*.py"]
SECTIONS = {"2": "F-{}", "5": "F-EX-{}", "6": "F-AMB-{}"}


def rule_ids() -> list[str]:
    """The IDs the digest's numbered items call for, section by section."""
    text = DIGEST.read_text(encoding="utf-8")
    ids: list[str] = []
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        number = part.split(".", 1)[0].strip()
        if number in SECTIONS:
            ids += [SECTIONS[number].format(n) for n in re.findall(r"^(\d+)\. \*\*", part, flags=re.M)]
    return ids


def named_ids() -> set[str]:
    seen: set[str] = set()
    for pattern in OWN:
        for path in HERE.glob(pattern):
            if path.name == Path(__file__).name:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                    words = node.name + " " + (ast.get_docstring(node) or "")
                    for kind, n in re.findall(r"\bF[-_](?:(EX|AMB)[-_])?(\d+)", words):
                        seen.add(f"F-{kind + '-' if kind else ''}{n}")
    return seen


def test_every_fubar_rule_case_and_reading_is_named_by_a_test():
    assert DIGEST is not None, "shared/rules/fubar.md not found"
    ids = rule_ids()
    assert len([i for i in ids if i.count("-") == 1]) == 26, "section 2 should number rules 1 to 26"
    assert len([i for i in ids if i.startswith("F-EX-")]) == 20
    assert len([i for i in ids if i.startswith("F-AMB-")]) == 15
    named = named_ids()
    missing = [r for r in ids if r not in named]
    assert not missing, f"FUBAR rule IDs no test names: {missing}"
