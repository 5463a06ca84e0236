"""Every rule ID of shared/rules/universalis.md is named by a test (name or docstring)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES = next((p for p in (HERE.parent.parent / "shared" / "rules" / "universalis.md",
                          Path("/work/shared/rules/universalis.md")) if p.exists()), None)
OWN = ["test_engine_*.py", "test_rules_*.py", "test_examples_*.py", "test_properties*.py", "test_cli_replay.py"]


def rule_ids() -> list[str]:
    text = RULES.read_text(encoding="utf-8")
    return sorted(set(re.findall(r"\*\*(U-[A-Z]+-\d+[a-z]?)\*\*", text)))


def named_ids() -> set[str]:
    seen: set[str] = set()
    for pattern in OWN:
        for path in HERE.glob(pattern):
            if path.name == Path(__file__).name:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                    words = node.name + " " + (ast.get_docstring(node) or "")
                    for m in re.findall(r"U[-_]([A-Z]+)[-_](\d+[a-z]?)", words):
                        seen.add(f"U-{m[0]}-{m[1]}")
    return seen


def test_every_rule_id_is_named_by_a_test():
    assert RULES is not None, "shared/rules/universalis.md not found"
    ids = rule_ids()
    assert len(ids) >= 60
    named = named_ids()  # once: the files are parsed afresh on every call
    missing = [r for r in ids if r not in named]
    assert not missing, f"rule IDs no test names: {missing}"
