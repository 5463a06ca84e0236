"""A person's action in any ruleset, as fields to fill: shared by the browser forms and `play --game`.

Why from the action models: every ruleset's action union is pydantic, the same schema the LLM
player must produce, so the fields a person fills are the ones the rules validate; nothing here
knows a game's rules. Simple fields (a choice among a Literal's values, yes/no, a number, a line
of words) get their own input; lists, tables and nested sheets are edited as JSON, filled in with
the offline AI's suggestion for the same seat so a person starts from a valid answer and changes
what they want.
"""
from __future__ import annotations

import importlib
import json
import types
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.core.errors import RuleViolation

HIDDEN = {"type", "player"}  # set by the table, never by the person


@dataclass(frozen=True)
class Field:
    """One input of an action form."""

    name: str
    kind: str  # choice | bool | int | float | optint | optfloat (blank is None) | text | json
    default: Any = None
    choices: tuple[Any, ...] = ()
    required: bool = False
    optional: bool = False  # None is a valid value


def action_classes(ruleset_name: str) -> dict[str, type[BaseModel]]:
    """Each action type's model, from the ruleset's `Action` union (engine/<name>/actions.py)."""
    mod = importlib.import_module(f"engine.{ruleset_name}.actions")
    union = getattr(mod, "Action")
    args = typing.get_args(union)
    inner = args[0] if args and typing.get_origin(union) is typing.Annotated else union
    out: dict[str, type[BaseModel]] = {}
    for cls in typing.get_args(inner):
        f = cls.model_fields.get("type")
        if f is not None and isinstance(f.default, str):
            out[f.default] = cls
    return out


def _kind(annotation: Any) -> tuple[str, tuple[Any, ...], bool]:
    """(kind, choices, None allowed) for a field's annotation."""
    origin = typing.get_origin(annotation)
    optional = False
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(args) < len(typing.get_args(annotation))
        if len(args) == 1:
            annotation, origin = args[0], typing.get_origin(args[0])
        else:
            return "json", (), optional
    if origin is typing.Annotated:
        return _kind(typing.get_args(annotation)[0])
    if origin is typing.Literal:
        return "choice", tuple(typing.get_args(annotation)), optional
    if annotation is bool:
        return "bool", (), optional
    if annotation is int:
        return "int", (), optional
    if annotation is float:
        return "float", (), optional
    if annotation is str:
        return "text", (), optional
    return "json", (), optional


def fields(cls: type[BaseModel]) -> list[Field]:
    """The inputs of one action type, in the model's order."""
    out = []
    for name, info in cls.model_fields.items():
        if name in HIDDEN:
            continue
        kind, choices, optional = _kind(info.annotation)
        if optional and kind == "choice":
            choices = (None,) + choices  # "none of them" is an answer too
        elif optional and kind in ("int", "float"):
            kind = "opt" + kind  # blank is None
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        if isinstance(default, BaseModel):
            default = default.model_dump(mode="json")
        elif isinstance(default, (list, dict)):
            default = json.loads(json.dumps(default, default=lambda o: o.model_dump(mode="json")))
        out.append(Field(name, kind, default, choices, info.is_required(), optional))
    return out


def parse_value(field: Field, raw: Any) -> Any:
    """A form's raw value as the action wants it; ValueError says which field and why."""
    if field.kind == "json":
        if isinstance(raw, str):
            if not raw.strip():
                if field.optional:
                    return None
                raise ValueError(f"{label(field.name)}: fill it in (JSON)")
            try:
                return json.loads(raw)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{label(field.name)}: not valid JSON ({exc.msg}, column {exc.colno})") from None
        return raw
    if field.kind == "text" and field.optional and isinstance(raw, str) and not raw.strip():
        return None
    if field.kind in ("optint", "optfloat"):
        if raw is None or not str(raw).strip():
            return None
        try:
            return (int if field.kind == "optint" else float)(str(raw).strip())
        except ValueError:
            raise ValueError(f"{label(field.name)}: a number, or blank for none") from None
    return raw


def build(ruleset, seat: str, type_: str, values: dict[str, Any]) -> BaseModel:
    """The action a person filled in, validated by the ruleset; RuleViolation("FORM", ...) names
    the field that is wrong, in words."""
    cls = action_classes(ruleset.name).get(type_)
    if cls is None:
        raise RuleViolation("FORM", f"{type_!r} is not an action of {ruleset.name}")
    data: dict[str, Any] = {"type": type_}
    if "player" in cls.model_fields:
        data["player"] = seat
    for f in fields(cls):
        if f.name in values:
            data[f.name] = parse_value(f, values[f.name])
            if f.required and not f.optional and data[f.name] in (None, ""):
                raise RuleViolation("FORM", f"{label(f.name)}: fill it in")
    try:
        return ruleset.parse_action(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()) if x != type_) or "the action"
        raise RuleViolation("FORM", f"{where}: {first.get('msg', 'not valid')}") from None


def label(name: str) -> str:
    return name.replace("_", " ")


def as_input(field: Field, value: Any) -> Any:
    """A value (the default or a suggestion's) as its input shows it."""
    if field.kind == "json":
        return "" if value is None else json.dumps(value, ensure_ascii=False, indent=1)
    if field.kind in ("text", "optint", "optfloat"):
        return "" if value is None else str(value)
    return value


def suggestion(table, seat: str) -> dict[str, Any] | None:
    """What the offline AI would do in `seat` now (its action's fields), or None if it cannot say.
    A fresh heuristic per call: it reads only what the seat may see (the observation)."""
    try:
        mod = importlib.import_module(f"agents.{table.ruleset.name}")
        role = table.roles.get(seat, "player")
        index = list(table.seats).index(seat)
        ai = mod.heuristic_seat(seat, role, seed=len(table.records), seat_index=index)
        decision = ai.decide(table.observe(seat))
        act = decision.action
        return act.model_dump(mode="json") if isinstance(act, BaseModel) else dict(act)
    except Exception:  # a suggestion is a convenience; the form works without one
        return None


def option_types(table, seat: str) -> list[str]:
    """The action types `seat` may take now, in the ruleset's order (legal_options)."""
    seen: list[str] = []
    for o in table.ruleset.legal_options(table.state, seat):
        if o.type not in seen:
            seen.append(o.type)
    return seen


def parse_faces(text: str, count: int, sides: int, what: str = "the roll") -> list[int]:
    """Typed faces of real dice ("3 5 6", commas allowed); ValueError says what is wrong.
    A d10's 0 reads as 10, as the dice are printed."""
    try:
        got = [int(x) for x in str(text).replace(",", " ").split()]
    except ValueError:
        raise ValueError(f"{what}: type numbers only, separated by spaces") from None
    if sides == 10:
        got = [10 if f == 0 else f for f in got]
    if len(got) != count:
        raise ValueError(f"{what} needs {count} d{sides} {'face' if count == 1 else 'faces'}, {len(got)} typed")
    bad = [f for f in got if not 1 <= f <= sides]
    if bad:
        raise ValueError(f"{what}: {bad[0]} is not a face of a d{sides} (1 to {sides})")
    return got
