"""The real-model tier's lines (tests/tier_report.py) reach the end of the run's output with and
without pytest-xdist: `.ci/run` runs the tier with `-n 2`, where the lines are written in a worker
and the terminal summary is the controller's (before the fix nothing was printed there).

A tiny pytest run in a subprocess, with tier_report's hooks as its conftest and fake tests that
append lines as tests/test_real_model.py does (no model needed).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

FAKE_TESTS = '''
import pytest
from tier_report import LINES


def _unavailable():
    if not any(line.startswith("not run:") for line in LINES):
        LINES.append("not run: no model here")


@pytest.mark.parametrize("model", ["alpha", "beta", "gamma", "delta"])
def test_model(model):
    _unavailable()
    LINES.append(f"{model}: 3/4 decisions by the model")
    assert model != "delta"  # a failing test's line is printed too
'''


def _run(tmp_path: Path, *args: str) -> str:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # not the repo's addopts (-m 'not slow')
    (tmp_path / "conftest.py").write_text(
        "from tier_report import pytest_sessionfinish, pytest_terminal_summary, pytest_testnodedown  # noqa: F401\n")
    (tmp_path / "test_fake_tier.py").write_text(FAKE_TESTS)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_XDIST", "PYTEST_ADDOPTS", "PYTEST_CURRENT_TEST"))}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr  # the one failing fake test, nothing else
    return done.stdout


@pytest.mark.parametrize("args", [(), ("-n", "2")], ids=["no-xdist", "xdist-n2"])
def test_tier_lines_printed_once_each(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = _run(tmp_path, *args)
    for model in ("alpha", "beta", "gamma", "delta"):
        assert out.count(f"real-model tier: {model}: 3/4 decisions by the model") == 1, out
    # each worker writes its own "not run:" line; the summary shows the reason once
    assert out.count("real-model tier: not run: no model here") == 1, out
    assert "3 passed" in out and "1 failed" in out, out
