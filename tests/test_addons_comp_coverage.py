"""Every rule ID the Complication, PC, scene and plot add-ons enforce (UA-<short>-N, named in the
engine modules' code and docstrings) is named by a test in tests/test_addons_*.py, in its name or
docstring, so the add-on rules can be checked mechanically like the core ones (test_rules_coverage)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINE = HERE.parent / "engine" / "universalis"
MODULES = ["addon_complications.py", "addon_cards.py", "addon_pcs.py", "addon_scenes.py", "addon_hooks.py",
           "addon_challenges.py", "addon_actions.py", "addon_extended.py"]
ID = re.compile(r"UA-([A-Z0-9]+)-(\d+)")


def engine_ids() -> set[str]:
    out: set[str] = set()
    for name in MODULES:
        out |= {f"UA-{a}-{n}" for a, n in ID.findall((ENGINE / name).read_text(encoding="utf-8"))}
    return out - {"UA-SETUP-0"}


def named_ids() -> set[str]:
    seen: set[str] = set()
    for path in HERE.glob("test_addons_*.py"):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                words = node.name + " " + (ast.get_docstring(node) or "")
                seen |= {f"UA-{a}-{n}" for a, n in re.findall(r"UA[-_]([A-Z0-9]+)[-_](\d+)", words)}
    return seen


def test_every_addon_rule_id_in_the_engine_is_named_by_a_test():
    ids = engine_ids()
    assert len(ids) >= 40, sorted(ids)  # the modules really do name their rules
    missing = sorted(ids - named_ids())
    assert not missing, f"add-on rules no test names: {missing}"
