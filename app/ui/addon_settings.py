"""The settings of one checked add-on on the setup page, as widgets typed from its `Addons` fields (issue 22).

Why its own module: the widget for a field is read off the option model (a Literal is a selectbox, an int a
number box with the field's own bounds, a bool a checkbox, the face-card Gimmick three selectboxes), so a new
add-on field gets a widget without touching the page. The values go back as the CLI's own `field=VALUE`
items (`addon_registry.addons_from_args`): one parser for names and values, one place that refuses.
"""
from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal, Union

import streamlit as st

from app.ui import safe
from engine.universalis.addon_registry import SHARED, AddonInfo, field_help
from engine.universalis.addons import CORE, FACE_PAYERS, FACE_SPEND, Addons

_FACE_NAMES = {"J": "Jack", "Q": "Queen", "K": "King"}


def _label(name: str) -> str:
    return safe.text(name.replace("_", " ").capitalize())


def _bounds(name: str) -> tuple[int | None, int | None]:
    """The field's own bounds (pydantic keeps `Field(ge=, le=)` as Ge/Le metadata)."""
    lo = hi = None
    for m in Addons.model_fields[name].metadata:
        lo = int(m.ge) if getattr(m, "ge", None) is not None else lo
        hi = int(m.le) if getattr(m, "le", None) is not None else hi
    return lo, hi


def _kind(name: str) -> tuple[str, tuple[Any, ...]]:
    """What widget a field takes: ("literal", choices), ("int", ()), ("opt_int", ()), ("bool", ()),
    ("multi", choices) for a tuple of Literals, ("range", ()) for a (fewest, most) pair, ("lit_or_int",
    choices) for a word or a number, ("faces", ()), or ("other", ()) for one the page leaves to the CLI
    (Metagame Jobs, the Seed Element: a record each)."""
    if name == "face_card_gimmick":
        return "faces", ()
    ann = Addons.model_fields[name].annotation
    args = typing.get_args(ann)
    union = typing.get_origin(ann) in (Union, types.UnionType)
    optional = union and type(None) in args
    if union and not optional and len(args) == 2 and typing.get_origin(args[0]) is Literal and args[1] is int:
        return "lit_or_int", typing.get_args(args[0])
    inner = [t for t in args if t is not type(None)] if optional else [ann]
    if len(inner) != 1:
        return "other", ()
    t = inner[0]
    if typing.get_origin(t) is Literal and not optional:
        return "literal", typing.get_args(t)
    if t is bool and not optional:
        return "bool", ()
    if t is int:
        return ("opt_int" if optional else "int"), ()
    targs = typing.get_args(t)
    if typing.get_origin(t) is tuple and len(targs) == 2 and targs[1] is Ellipsis \
            and typing.get_origin(targs[0]) is Literal:
        return "multi", typing.get_args(targs[0])
    if typing.get_origin(t) is tuple and targs == (int, int) and optional:
        return "range", ()
    return "other", ()


def _switch(a: AddonInfo, name: str) -> bool:
    """The field that turns the add-on on (checking the box sets it to a yes or a word): no widget of its own."""
    return name == a.fields[0] and name != a.value_field and isinstance(a.adopt.get(name), (bool, str))


def _start(a: AddonInfo, name: str) -> Any:
    """A widget's first value: what adopting the add-on sets, else the core rule."""
    return a.adopt.get(name, getattr(CORE, name))


def _faces(a: AddonInfo, key: str, help_: str) -> dict[str, str] | None:
    keep = st.checkbox("Keep face cards (a Gimmick: who pays when a J, Q or K is spent)", key=f"{key}:keep",
                       help=help_)
    if not keep:
        return None
    cols = st.columns(3)
    return {f: cols[i].selectbox(safe.text(f"{_FACE_NAMES[f]} ({f}): paid by the player"), FACE_PAYERS,
                                 index=FACE_PAYERS.index(FACE_SPEND[f]), key=f"{key}:{f}", help=help_)
            for i, f in enumerate(FACE_SPEND)}


def _range(name: str, key: str, start: tuple[int, int] | None, help_: str) -> tuple[int, int] | None:
    """A (fewest, most) pair as two number boxes; empty means the field's core value (None)."""
    lo_col, hi_col = st.columns(2)
    lo = lo_col.number_input(_label(f"{name} fewest"), min_value=1, value=start[0] if start else None, step=1,
                             key=f"{key}:lo", help=help_)
    hi = hi_col.number_input(_label(f"{name} most"), min_value=1, value=start[1] if start else None, step=1,
                             key=f"{key}:hi", help=help_)
    return None if lo is None or hi is None else (int(lo), int(hi))  # check_addons refuses fewest > most


def _word_or_number(name: str, key: str, words: tuple[str, ...], start: Any, help_: str) -> Any:
    """A setting that is one of some words or any number (newcomers' Coins): a selectbox, and a number box
    when "a number" is chosen."""
    number = "a number"
    pick = st.selectbox(_label(name), (*words, number), index=words.index(start) if start in words else len(words),
                        key=key, help=help_, format_func=lambda c: str(c).replace("_", " "))
    if pick != number:
        return pick
    got = st.number_input(_label(f"{name} (coins)"), min_value=0, value=start if isinstance(start, int) else 25,
                          step=1, key=f"{key}:n", help=help_)
    return int(got)


def settings(a: AddonInfo, key: str) -> list[str]:
    """The widgets for a checked add-on's settings; returns them as `field=VALUE` items for
    `addons_from_args` (only those that differ from what checking the add-on already sets)."""
    items: list[str] = []
    left: list[str] = []
    for name in a.fields:
        kind, choices = _kind(name)
        if _switch(a, name):
            continue
        shared = SHARED.get(a.key)
        if shared and shared[0] == name:  # two add-ons share the field: this one's values only
            choices = shared[1]
        elif name in a.adopt and kind == "literal":  # checked means on: the core value is not a choice
            choices = tuple(c for c in choices if c != getattr(CORE, name))
        start, help_ = _start(a, name), safe.text(field_help(a, name))
        wkey = f"{key}:{name}"
        if kind == "faces":
            value: Any = _faces(a, wkey, help_)
        elif kind == "literal":
            if len(choices) < 2:
                continue
            value = st.selectbox(_label(name), choices, index=choices.index(start) if start in choices else 0,
                                 key=wkey, help=help_, format_func=lambda c: str(c).replace("_", " "))
        elif kind == "bool":
            value = st.checkbox(_label(name), value=bool(start), key=wkey, help=help_)
        elif kind in ("int", "opt_int"):
            kind = "int" if start is not None else kind  # the add-on's own number: checked means it is set
            lo, hi = _bounds(name)
            got = st.number_input(_label(name), min_value=lo, max_value=hi, value=start, step=1, key=wkey,
                                  help=help_, placeholder="none (empty)" if kind == "opt_int" else None)
            value = None if got is None else int(got)
        elif kind == "multi":
            value = tuple(st.multiselect(_label(name), choices, default=list(start), key=wkey, help=help_))
        elif kind == "range":
            value = _range(name, wkey, start, help_)
        elif kind == "lit_or_int":
            value = _word_or_number(name, wkey, choices, start, help_)
        else:
            left.append(name)
            continue
        if value != start:
            items.append(f"{name}={json.dumps(value)}")
    if left:
        st.caption(safe.text("Set on the command line (storytable --addon FIELD=VALUE): " + ", ".join(left)))
    return items
