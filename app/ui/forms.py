"""One input form per legal action, built from the action's pydantic model.

Why generic: the engine's action models are the one source of truth for what words and numbers
each action carries; building the inputs from them keeps the app in step with the rules. Ids are
picked from lists (see `choices`), words are typed, and the engine checks the result.
"""
from __future__ import annotations

import typing
from typing import Any, Callable

import streamlit as st
from pydantic import BaseModel

from app.ui import choices as C
from app.ui import safe, words
from engine.universalis import actions as A
from engine.universalis.decisions import Option
from engine.universalis.state import GameState

LABELS, BOOL_WORDS, FIELD_LABELS = words.LABELS, words.BOOL_WORDS, words.FIELD_LABELS
LONG_TEXT = {"text", "line", "reason", "alternative", "new_option"}


def label(opt: Option) -> str:
    """The option as a button or menu line (Markdown: the engine's note may quote a player)."""
    cost = "free" if opt.cost == "0" else f"cost {safe.text(opt.cost)}"
    return f"{LABELS.get(opt.type, opt.type)} · {cost}" + (f" · {safe.text(opt.note)}" if opt.note else "")


def menu_label(opt: Option) -> str:
    """The same words for a menu, which shows text as it is."""
    cost = "free" if opt.cost == "0" else f"cost {opt.cost}"
    return safe.plain(f"{LABELS.get(opt.type, opt.type)} · {cost}" + (f" · {opt.note}" if opt.note else ""))


def fields(model: type[BaseModel]) -> dict[str, Any]:
    return {k: f for k, f in model.model_fields.items() if k not in ("player", "type")}


def _literal(annotation: Any) -> list[str] | None:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return list(args)
    for a in args:
        if typing.get_origin(a) is typing.Literal:
            return list(typing.get_args(a))
    return None


def _is(annotation: Any, kind: type) -> bool:
    return annotation is kind or kind in typing.get_args(annotation)


def _select(key: str, name: str, opts: list[tuple[str, str]], optional: bool) -> str | None:
    values = ([""] if optional else []) + [v for v, _ in opts]
    names = {v: safe.plain(t) for v, t in opts} | {"": "—"}
    if not values:
        st.caption(f"{name}: nothing to choose from now")
        return None
    v = st.selectbox(name, values, format_func=lambda x: names.get(x, x), key=key)
    return v or None


def inputs(s: GameState, opt: Option, player: str, prefix: str, did: str = "") -> dict[str, Any]:
    """Draw the inputs for one action type; return the action as a dict (not yet checked).
    Keys end with the decision's id: a new decision gets empty inputs (the form clears)."""
    model = A.ACTION_TYPES[opt.type]
    data: dict[str, Any] = {"type": opt.type, "player": player}
    end = f"@{did}" if did else ""
    if opt.type == "draw_trait":  # one pick names both the Trait and its component
        pick = _select(f"{prefix}:pick{end}", "Trait in the scene", C.drawable(s), False)
        if pick:
            data["trait"], data["component"] = pick.split("@", 1)
    if opt.type == "allocate_successes":  # Split Allocation (UA-MT-4): one count per Target Pool, in Pool order
        data["counts"] = [int(st.number_input(f"against {safe.text(label)}", min_value=0, step=1, key=f"{prefix}:{k}{end}"))
                          for k, label in C.split_targets(s)]
        return data
    for name, f in fields(model).items():
        if opt.type == "draw_trait" and name in ("trait", "component"):
            continue
        key = f"{prefix}:{name}{end}"
        human = words.field_label(opt.type, name)
        optional = not f.is_required()
        lit = _literal(f.annotation)
        picks = C.for_field(s, opt.type, name, player)
        if lit:
            data[name] = st.selectbox(human, lit, index=lit.index(f.default) if f.default in lit else 0, key=key)
        elif picks is not None:
            v = _select(key, human, picks, optional)
            if v is not None:
                data[name] = int(v) if name in ("option", "return_to_scene") else v
        elif _is(f.annotation, bool):
            data[name] = st.checkbox(human, value=bool(f.default), key=key, help=f.description)
        elif _is(f.annotation, int):
            lo = next((m.ge for m in f.metadata if hasattr(m, "ge")), 0)
            hi = next((m.le for m in f.metadata if hasattr(m, "le")), None)
            if opt.type == "bid":
                hi = s.player(player).wealth
            default = f.default if isinstance(f.default, int) else lo
            data[name] = int(st.number_input(human, min_value=lo, max_value=hi, value=max(lo, default), step=1, key=key))
        else:
            if name in LONG_TEXT:
                v = st.text_area(human, key=key, help=f.description, height=68)
            else:
                v = st.text_input(human, key=key, help=f.description)
            if v.strip():
                data[name] = v.strip()
    return data


def is_quick(opt: Option) -> bool:
    """Actions with nothing to fill in are a single button; so is ending the scene (the framer's
    plain "End the scene"; fading to black is a second button)."""
    return opt.type == "end_scene" or not fields(A.ACTION_TYPES[opt.type])


def available(s: GameState, opt: Option, player: str) -> bool:
    """Is there something concrete to pick for every choice this action needs? (No Take Over
    when no component in the scene can be taken over, no Draw when no Trait can be drawn on.)"""
    if opt.type == "draw_trait":
        return bool(C.drawable(s))
    for name, f in fields(A.ACTION_TYPES[opt.type]).items():
        if not f.is_required() or _literal(f.annotation):
            continue
        picks = C.for_field(s, opt.type, name, player)
        if picks is not None and not picks:
            return False
    return True


def vote_field(opt: Option) -> str | None:
    """Actions whose only input is a yes/no are two buttons."""
    f = fields(A.ACTION_TYPES[opt.type])
    names = [k for k in f if k != "line"]
    return names[0] if len(names) == 1 and names[0] in BOOL_WORDS else None


def clear(prefix: str) -> None:
    for k in [k for k in st.session_state if isinstance(k, str) and k.startswith(prefix)]:
        del st.session_state[k]


def action_form(s: GameState, opt: Option, player: str, do: Callable[[dict], bool], did: str = "",
                on_click: Callable[..., None] | None = None) -> None:
    """Inputs plus the button that sends the action; `do` returns True when it was accepted.
    `on_click` runs before the next run with the id of the decision the button was drawn for."""
    prefix = f"f:{player}:{opt.type}"
    data = inputs(s, opt, player, prefix, did)
    end = f"@{did}" if did else ""
    if st.button(LABELS.get(opt.type, opt.type), key=f"do:{player}:{opt.type}{end}", type="primary",
                 on_click=on_click, args=(did,) if on_click else None):
        if do(data):
            clear(prefix)
            st.rerun()
