"""Every add-on rule ID (engine/universalis/addon_ids.py) is named by a test and exercised by a passing one.

Same mechanism as tests/test_rules_coverage.py: the add-on tests run in a subprocess with
`engine_helpers` as a plugin; `Game.refused`/`Game.effect` (or an explicit `observed`) record which
IDs each passing test saw refuse or take effect. A failing test counts for nothing.
"""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from engine.universalis.addon_ids import CORE_CHAPTER_OPTIONS, RULE_IDS

HERE = Path(__file__).resolve().parent
FILES = ["test_addons_rules.py", "test_addons_setup.py",
         # addons-comp's rules tests (the heuristic and panel tests play whole games: not needed here)
         "test_addons_complications.py", "test_addons_pcs.py", "test_addons_scenes.py", "test_addons_cards.py",
         "test_addons_engine.py", "test_addons_judgment.py", "test_addons_open.py",
         "test_addons_alt.py", "test_addons_cards_play.py", "test_addons_cards_hand.py", "test_addons_extended.py",
         "test_addons_nested.py", "test_addons_split.py"]


def named() -> set[str]:
    seen: set[str] = set()
    for name in FILES + [p.name for p in HERE.glob("test_addons_*.py") if p.name not in FILES]:
        tree = ast.parse((HERE / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                words = node.name + " " + (ast.get_docstring(node) or "")
                for m in re.findall(r"UA[-_]([A-Za-z]+)[-_](\d+)", words):
                    seen.add(f"UA-{m[0].upper()}-{m[1]}")
    return seen


def test_every_addon_rule_id_is_named_by_a_test():
    missing = sorted(set(RULE_IDS) - named())
    assert not missing, f"add-on rule IDs no test names: {missing}"


def test_every_addon_rule_id_is_exercised_by_a_passing_test(tmp_path):
    out = tmp_path / "evidence.jsonl"
    files = [str(HERE / f) for f in FILES if (HERE / f).exists()]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent), str(HERE), os.environ.get("PYTHONPATH", "")]),
               STORYTABLE_RULE_EVIDENCE=str(out))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "engine_helpers", "-p", "no:randomly",
                          "-p", "no:cacheprovider", *files], cwd=HERE.parent, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.exists(), run.stdout[-2000:] + run.stderr[-2000:]
    seen: set[str] = set()
    for line in out.read_text(encoding="utf-8").splitlines():
        for rule, _how in json.loads(line)["seen"]:
            seen.add(rule)
    missing = sorted(r for r in RULE_IDS if r not in seen)
    assert not missing, f"add-on rule IDs no passing test exercises: {missing}"


def test_every_rule_id_has_a_book_line_in_the_addon_chapters():
    for rid, (what, line) in RULE_IDS.items():
        assert re.fullmatch(r"UA-[A-Z]+-\d+", rid) and what
        assert 1446 <= line <= 2505 or rid in CORE_CHAPTER_OPTIONS, rid
