"""Lines the real-model tier shows at the end of a pytest run, passed or not (see conftest.py).

Why: the figures of a real model (share made by the model, seconds) are the point of the tier;
pytest would show them only on failure.
"""
from __future__ import annotations

LINES: list[str] = []
