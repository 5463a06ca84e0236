"""A deep copy of Vele's state made for `apply`, several times faster than copy.deepcopy.

Why: `apply` never mutates the state it is given (replays, undo and the app keep every state), so it
works on a copy; copy.deepcopy walks pydantic's internals generically and was most of an action's cost.
The state holds only pydantic models, lists, dicts and immutable scalars: those are copied by hand, and
frozen models (the options) are shared, as they cannot change.
"""
from __future__ import annotations

import copy
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel

_ATOMS = (int, str, bool, float, type(None))
# lists that only grow and whose handlers change nothing but their last element (rules.py: a scene is
# framed, then ended; a record gets its disabled traits): earlier elements are shared between states.
# tests/test_vele_copying.py checks over whole games that apply leaves its input untouched.
APPEND_ONLY = {"scenes", "records"}
# per model class: the fields whose annotation may hold something mutable (a list, a dict, a model), the only
# ones copied; a field typed int, str, bool, a Literal of those or Optional of those holds an immutable value
# (pydantic validated it), so the new model shares it. Why: a component has 21 fields and 4 mutable ones, and
# checking every value's type was most of the copy (tests/test_vele_copying.py compares with copy.deepcopy).
_MUTABLE: dict[type, tuple[str, ...] | None] = {}


def _immutable(annotation: Any) -> bool:
    if annotation in _ATOMS:
        return True
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return all(type(x) in _ATOMS for x in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return all(_immutable(a) for a in typing.get_args(annotation))
    return False


def _plan(cls: type[BaseModel]) -> tuple[str, ...] | None:
    """The fields to copy of a model class; None for a frozen class (its models are shared)."""
    if cls in _MUTABLE:
        return _MUTABLE[cls]
    plan = None if cls.model_config.get("frozen") else \
        tuple(n for n, f in cls.model_fields.items() if not _immutable(f.annotation))
    _MUTABLE[cls] = plan
    return plan


_setattr = object.__setattr__
_new = object.__new__


def _model(v: BaseModel, t: type) -> BaseModel:
    plan = _MUTABLE[t] if t in _MUTABLE else _plan(t)
    if plan is None:
        return v
    new = _new(t)
    d = v.__dict__.copy()
    for k in plan:
        x = d[k]
        tx = type(x)
        if tx in _ATOMS:
            continue
        if tx is list:
            if not x or type(x[0]) in _ATOMS:
                d[k] = x[:]
            elif k in APPEND_ONLY:
                d[k] = x[:-1] + [state_copy(x[-1])]
            elif isinstance(x[0], BaseModel):  # list[Model] (traits, stakes): straight to the model copy
                d[k] = [_model(y, type(y)) for y in x]
            else:
                d[k] = [state_copy(y) for y in x]
        elif tx is dict:
            d[k] = {j: y if type(y) in _ATOMS else state_copy(y) for j, y in x.items()}
        else:
            d[k] = state_copy(x)
    _setattr(new, "__dict__", d)
    _setattr(new, "__pydantic_fields_set__", set(v.__pydantic_fields_set__))
    extra, private = v.__pydantic_extra__, v.__pydantic_private__
    _setattr(new, "__pydantic_extra__", extra if extra is None else copy.deepcopy(extra))
    _setattr(new, "__pydantic_private__", private if private is None else copy.deepcopy(private))
    return new


def state_copy(v: Any) -> Any:
    """An independent copy of `v` equal to copy.deepcopy(v)."""
    t = type(v)
    if t in _ATOMS:
        return v
    if t is list:
        # the state's lists are typed list[int], list[str] or list[Model]: one look at the first item
        if not v or type(v[0]) in _ATOMS:
            return v[:]
        return [state_copy(x) for x in v]
    if t is dict:
        return {k: x if type(x) in _ATOMS else state_copy(x) for k, x in v.items()}
    if isinstance(v, BaseModel):
        return _model(v, t)
    return copy.deepcopy(v)
