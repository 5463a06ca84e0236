"""Every numbered rule, test case and reading of shared/rules/vele.md is named by a test, or is listed
in NOT_YET with the reason it is not enforced by engine/vele yet (issue 21's open work).

IDs: V-<n> for rule n of section 2, V-EX-<n> for test case n of section 5, V-AMB-<n> for reading n of
section 6. The list keeps itself honest: an ID both named by a test and listed as missing fails too.
"""
from __future__ import annotations

from pathlib import Path

from rule_ids import digest, digest_ids, named_ids

DIGEST = digest("vele")

# not enforced yet, each with why (empty: every item has a test)
NOT_YET: dict[str, str] = {}


def test_every_vele_rule_case_and_reading_is_named_by_a_test_or_listed_as_not_yet():
    assert DIGEST is not None, "shared/rules/vele.md not found"
    ids = digest_ids(DIGEST, "V", rule_item=r"^(\d+)\. ")
    assert len([i for i in ids if i.count("-") == 1]) == 63, "section 2 should number rules 1 to 63"
    assert len([i for i in ids if i.startswith("V-EX-")]) == 22
    assert len([i for i in ids if i.startswith("V-AMB-")]) == 22
    named = named_ids("V", "test_vele_*.py", Path(__file__).name)
    missing = [r for r in ids if r not in named and r not in NOT_YET]
    assert not missing, f"Vele rule IDs no test names: {missing}"
    stale = [r for r in NOT_YET if r in named]
    assert not stale, f"listed as not yet built but named by a test (take them off NOT_YET): {stale}"
    unknown = [r for r in NOT_YET if r not in ids]
    assert not unknown, f"NOT_YET lists IDs the digest does not have: {unknown}"
