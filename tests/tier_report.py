"""Lines the real-model tier shows at the end of a pytest run, passed or not, and the pytest hooks
that print them (re-exported by conftest.py).

Why: the figures of a real model (share made by the model, seconds) are the point of the tier;
pytest would show them only on failure. Under pytest-xdist (`pytest -n 2`, as `.ci/run` runs the
tier) the lines are collected in a worker process while the terminal summary is the controller's,
so each worker hands its lines back through `config.workeroutput` (xdist's channel from worker to
controller) and the controller adds them to its own LINES before printing.
"""
from __future__ import annotations

import pytest

LINES: list[str] = []

WORKER_KEY = "storytable_tier_report_lines"


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On an xdist worker, hand this process's lines to the controller (no-op without xdist)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput[WORKER_KEY] = list(LINES)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: pytest without xdist does not know it
def pytest_testnodedown(node, error) -> None:  # type: ignore[no-untyped-def]
    """On the xdist controller, collect a finished worker's lines."""
    LINES.extend(getattr(node, "workeroutput", {}).get(WORKER_KEY, []))


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """The real-model tier's figures, one line per model; a line two workers both wrote (the same
    "not run:" reason) once."""
    for line in dict.fromkeys(LINES):
        terminalreporter.write_line(f"real-model tier: {line}")
