"""Shared pytest configuration: make the tests folder importable for helper modules."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """The real-model tier's figures, one line per model (tests/tier_report.py)."""
    from tier_report import LINES

    for line in LINES:
        terminalreporter.write_line(f"real-model tier: {line}")
