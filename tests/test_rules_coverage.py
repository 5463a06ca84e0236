"""Every rule ID of shared/rules/universalis.md is named by a test, and exercised by one.

Named: in a test's name or docstring (checked by reading the test files).
Exercised: a passing test saw the engine *refuse* an action under that rule ID (`Game.refused`
compares the refusal's rule and that nothing changed), or saw the *change* the rule makes
(`Game.effect`: a check that holds after the action and did not hold before it). The evidence is
collected by running the rules tests in a subprocess with `engine_helpers` loaded as a pytest
plugin, which writes each passing test's observed rule IDs to a file; a failing test counts for
nothing. Naming an ID in a docstring is therefore not enough to cover it.
"""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES = next((p for p in (HERE.parent.parent / "shared" / "rules" / "universalis.md",
                          Path("/work/shared/rules/universalis.md")) if p.exists()), None)
OWN = ["test_engine_*.py", "test_rules_*.py", "test_examples_*.py", "test_properties*.py", "test_cli_replay.py"]
# the files run for evidence: the fast rules tests (the property tests play hundreds of games)
EVIDENCE_FILES = ["test_engine_*.py", "test_rules_*.py", "test_examples_*.py"]


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


def exercised(tmp: Path) -> dict[str, list[str]]:
    """Rule ID -> passing tests that saw it refuse or take effect (run in a fresh pytest)."""
    out = tmp / "evidence.jsonl"
    files = sorted(str(p) for pat in EVIDENCE_FILES for p in HERE.glob(pat)
                   if p.name not in (Path(__file__).name, "test_engine_fuzz.py"))  # the fuzz asserts no rule
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent), str(HERE), os.environ.get("PYTHONPATH", "")]),
               STORYTABLE_RULE_EVIDENCE=str(out))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "engine_helpers", "-p", "no:randomly",
                          "-p", "no:cacheprovider", *files], cwd=HERE.parent, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.exists(), run.stdout[-2000:] + run.stderr[-2000:]
    by_rule: dict[str, list[str]] = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        for rule, how in rec["seen"]:
            by_rule.setdefault(rule, []).append(f"{rec['test']} ({how})")
    return by_rule


def test_every_rule_id_is_named_by_a_test():
    assert RULES is not None, "shared/rules/universalis.md not found"
    ids = rule_ids()
    assert len(ids) >= 60
    named = named_ids()  # once: the files are parsed afresh on every call
    missing = [r for r in ids if r not in named]
    assert not missing, f"rule IDs no test names: {missing}"


def test_every_rule_id_is_exercised_by_a_passing_test(tmp_path):
    """A refusal under the ID or a change the rule causes, seen by a test that passed."""
    assert RULES is not None, "shared/rules/universalis.md not found"
    by_rule = exercised(tmp_path)
    missing = [r for r in rule_ids() if r not in by_rule]
    assert not missing, f"rule IDs no passing test exercises (a refusal or an effect): {missing}"


def test_the_evidence_counts_only_passing_tests_and_real_checks(tmp_path):
    """The mechanism is honest: a failing test's observations are dropped, and an effect check that
    already held before the action is refused as testing nothing."""
    probe = tmp_path / "test_probe_evidence.py"
    probe.write_text(
        "from engine.universalis import actions as A\n"
        "from engine_helpers import framed\n"
        "def test_fails_after_a_refusal():\n"
        "    g = framed()\n"
        "    g.refused(A.EndTurn(player='Ben'), 'U-TURN-1')\n"
        "    assert False\n"
        "def test_a_check_that_always_holds():\n"
        "    g = framed()\n"
        "    g.effect('U-ACT-1', A.NarrateEvent(player='Ann', text='x'), lambda b, a: True)\n"
        "def test_passes_with_an_effect():\n"
        "    g = framed()\n"
        "    g.effect('U-ACT-1', A.NarrateEvent(player='Ann', text='Rain.'),\n"
        "             lambda b, a: len(a.facts) == len(b.facts) + 1 and a.facts[-1].text == 'Rain.')\n",
        encoding="utf-8")
    out = tmp_path / "ev.jsonl"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent), str(HERE)]), STORYTABLE_RULE_EVIDENCE=str(out))
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "engine_helpers", "-p", "no:randomly",
                    "-p", "no:cacheprovider", str(probe)], cwd=tmp_path, env=env, capture_output=True, text=True,
                   timeout=300)
    recs = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["test"].split("::")[-1] for r in recs] == ["test_passes_with_an_effect"]
    assert recs[0]["seen"] == [["U-ACT-1", "effect"]]


def test_the_readme_says_how_many_rule_ids_there_are():
    readme = (HERE.parent / "README.md").read_text(encoding="utf-8")
    said = re.search(r"each of its (\d+) rule IDs", readme)
    assert said, "the README's rule count line is missing"
    assert int(said.group(1)) == len(rule_ids())
