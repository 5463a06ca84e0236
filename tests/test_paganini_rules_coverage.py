"""Every numbered rule of shared/rules/paganini.md is named by a test (name or docstring).

The digest numbers its rules without IDs; the tests use P-<n> for rule n of section 2,
P-EX-<n> for test case n of section 5 and P-AMB-<n> for reading n of section 6.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from rule_ids import HERE, digest, digest_ids, named_ids

DIGEST = digest("paganini")


def test_every_paganini_rule_case_and_reading_is_named_by_a_test():
    assert DIGEST is not None, "shared/rules/paganini.md not found"
    ids = digest_ids(DIGEST, "P")
    assert len([i for i in ids if i.count("-") == 1]) == 20, "section 2 should number rules 1 to 20"
    assert len([i for i in ids if i.startswith("P-EX-")]) == 19
    assert len([i for i in ids if i.startswith("P-AMB-")]) == 16
    named = named_ids("P", "test_paganini_*.py", Path(__file__).name)
    missing = [r for r in ids if r not in named]
    assert not missing, f"Paganini rule IDs no test names: {missing}"


def test_every_rule_test_names_a_place_in_the_book():
    """Each test that names a rule of section 2 also cites the book (@offset), as the issue asks."""
    path = HERE / "test_paganini_rules.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and re.match(r"test_P_\d", node.name):
            assert re.search(r"@\d{3,5}", ast.get_docstring(node) or ""), node.name
