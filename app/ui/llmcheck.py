"""When a seat is set to a language model: is its endpoint ready? (shown under the seat).

Why a hook: the readiness check belongs to agents.llm (it knows the configuration, the endpoint
and its deadline). TODO(llm-endpoints): agents.llm.readiness is being built on that branch; until
it is merged this shows nothing but a caption saying the check is not there. Expected API: a
function `check(model: str = "") -> Readiness` whose result has `.ok` (bool) and `.message`
(a player's sentence); a plain string result is shown as it is.
"""
from __future__ import annotations

import functools
import time
from typing import Any

import streamlit as st

from app.ui import safe

CACHE_S = 30.0  # a check costs a request: once per model per half minute per server


@functools.lru_cache(maxsize=32)
def _cached(model: str, slot: int) -> tuple[bool | None, str]:
    try:
        from agents.llm import readiness  # type: ignore[attr-defined]
    except Exception:
        return None, ""
    fn: Any = getattr(readiness, "check", None) or getattr(readiness, "readiness", None)
    if fn is None:
        return None, ""
    try:
        res = fn(model) if model else fn()
    except Exception as exc:  # a check that fails says so; it never breaks the page
        return False, f"The endpoint check failed: {exc}"
    if isinstance(res, str):
        return None, res
    return bool(getattr(res, "ok", False)), str(getattr(res, "message", "") or res)


def result(model: str = "") -> tuple[bool | None, str]:
    """(ready?, sentence); (None, '') when this installation has no readiness check yet."""
    return _cached(model, int(time.monotonic() // CACHE_S))


def show(model: str = "") -> None:
    ok, text = result(model)
    if ok is None and not text:
        st.caption("The language model's endpoint is checked when the seat first decides "
                   "(this installation has no readiness check yet).")
    elif ok:
        st.caption(f"Endpoint ready: {safe.text(text)}")
    else:
        st.warning(safe.text(text or "The language model's endpoint is not ready; the seat will play "
                                     "with the offline heuristic."))
