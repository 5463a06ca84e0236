"""A deep copy of Vele's state made for `apply`, several times faster than copy.deepcopy.

Why: `apply` never mutates the state it is given (replays, undo and the app keep every state), so it
works on a copy; copy.deepcopy walks pydantic's internals generically and was most of an action's cost.
The state holds only pydantic models, lists, dicts and immutable scalars: those are copied by hand, and
frozen models (the options) are shared, as they cannot change.
"""
from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

_ATOMS = (int, str, bool, float, type(None))
# lists that only grow and whose handlers change nothing but their last element (rules.py: a scene is
# framed, then ended; a record gets its disabled traits): earlier elements are shared between states.
# tests/test_vele_copying.py checks over whole games that apply leaves its input untouched.
APPEND_ONLY = {"scenes", "records"}


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
        if v.model_config.get("frozen"):
            return v
        new = object.__new__(t)
        d = {}
        for k, x in v.__dict__.items():
            if type(x) in _ATOMS:
                d[k] = x
            elif k in APPEND_ONLY and type(x) is list and x:
                d[k] = x[:-1] + [state_copy(x[-1])]
            else:
                d[k] = state_copy(x)
        object.__setattr__(new, "__dict__", d)
        object.__setattr__(new, "__pydantic_fields_set__", set(v.__pydantic_fields_set__))
        extra, private = v.__pydantic_extra__, v.__pydantic_private__
        object.__setattr__(new, "__pydantic_extra__", None if extra is None else copy.deepcopy(extra))
        object.__setattr__(new, "__pydantic_private__", None if private is None else copy.deepcopy(private))
        return new
    return copy.deepcopy(v)
