"""Every numbered rule of shared/rules/fubar.md is named by a test (name or docstring).

The digest numbers its rules without IDs; the tests use F-<n> for rule n of section 2,
F-EX-<n> for test case n of section 5 and F-AMB-<n> for reading n of section 6.
"""
from __future__ import annotations

from pathlib import Path

from rule_ids import digest, digest_ids, named_ids

DIGEST = digest("fubar")


def test_every_fubar_rule_case_and_reading_is_named_by_a_test():
    assert DIGEST is not None, "shared/rules/fubar.md not found"
    ids = digest_ids(DIGEST, "F")
    assert len([i for i in ids if i.count("-") == 1]) == 26, "section 2 should number rules 1 to 26"
    assert len([i for i in ids if i.startswith("F-EX-")]) == 20
    assert len([i for i in ids if i.startswith("F-AMB-")]) == 15
    named = named_ids("F", "test_fubar_*.py", Path(__file__).name)
    missing = [r for r in ids if r not in named]
    assert not missing, f"FUBAR rule IDs no test names: {missing}"
