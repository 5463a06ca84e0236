"""When a seat is set to a language model: is its endpoint ready? (shown under the seat).

Why a hook: the readiness check belongs to agents.llm (it knows the configuration, the endpoint
and its deadline): `agents.llm.readiness.check(settings, timeout_s) -> Readiness` with `.ready`
and `.message`, built on the llm-endpoints branch. Until that branch is merged into this one the
module is absent and the page says the check is not there (TODO: nothing to change here once it
is merged, if the API stays as it is).
"""
from __future__ import annotations

import functools
import re
import time

import streamlit as st

from app.ui import safe

CACHE_S = 30.0  # a check costs a request or two: once per model per half minute per server
TIMEOUT_S = 8.0  # the setup page waits this long at most


@functools.lru_cache(maxsize=32)
def _cached(model: str, slot: int) -> tuple[bool | None, str]:
    try:
        from agents.llm import readiness  # type: ignore[attr-defined]
        from agents.llm.config import load_settings
    except Exception:  # not in this installation yet
        return None, ""
    try:
        settings = load_settings()
        if model:
            settings = settings.model_copy(update={"model": model})
        res = readiness.check(settings, timeout_s=TIMEOUT_S)
    except Exception as exc:  # a bad configuration says so in one line; it never breaks the page
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return False, f"The language model is not set up: {_no_paths(first)}"
    return bool(getattr(res, "ready", False)), _no_paths(str(getattr(res, "message", "") or ""))


def _no_paths(text: str) -> str:
    """A server's absolute paths are nobody's business at the table: keep the file's name only."""
    return re.sub(r"(?<![\w.])/(?:[^\s/:]+/)+([^\s/:]+)", r"\1", text)


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
