"""What any game shows without panels of its own: its view as data (st.json shows text as text)."""
from __future__ import annotations

from typing import Any

import streamlit as st

from app.ui import safe


def t(value: Any) -> str:
    """Escaped words for Markdown (anything a player or a model wrote)."""
    return safe.text(value)


def items(values: list[Any] | None) -> str:
    return ", ".join(t(v) for v in (values or [])) or "—"


def dice_faces(faces: list[int], marked: set[int] | None = None, mark: str = "**") -> str:
    """Faces as text; the ones at `marked` indices are bold (numbers only: nothing to escape)."""
    marked = marked or set()
    return " ".join(f"{mark}[{int(f)}]{mark}" if i in marked else f"{int(f)}" for i, f in enumerate(faces))


def sheets(view: dict[str, Any], events: list[Any] = ()) -> None:
    with st.expander("The table as data", expanded=False):
        st.json(view, expanded=False)


def dice(view: dict[str, Any], events: list[Any] = ()) -> None:
    return None
