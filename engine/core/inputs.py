"""Reading what a ruleset is handed (seats, table options, actions) into its models, or refusing.

Why one module: FUBAR and Paganini each wrote the same seat-name checks, the same reading of a
pydantic error into a player's words and the same handler registry; only the rule named differs.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence, TypeVar

from pydantic import BaseModel, ValidationError

from engine.core.errors import RuleViolation

M = TypeVar("M", bound=BaseModel)


def seat_names(seats: Sequence[tuple[str, str]], rule: str) -> tuple[list[str], list[str]]:
    """The seats' names (trimmed) and roles; refused under `rule` unless the names are distinct,
    not empty, and not "dice" (the seat that answers chance decisions in a log)."""
    names = [str(n).strip() for n, _ in seats]
    roles = [r for _, r in seats]
    if len(set(names)) != len(names) or any(not n for n in names):
        raise RuleViolation(rule, "every seat needs a distinct, non-empty name")
    if "dice" in names:
        raise RuleViolation(rule, "'dice' is reserved by the engine; choose another name")
    return names, roles


def table_options(model: type[M], options: M | dict | None, rule: str) -> M:
    """The table's options as `model`; a bad one is refused under `rule`, naming the option."""
    if isinstance(options, model):
        return options
    try:
        return model.model_validate(options or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise RuleViolation(rule, f"bad table option {'.'.join(map(str, first['loc']))}: {first['msg']}") from None


def action_from(parse: Callable[[dict], BaseModel], action: BaseModel | dict, rule: str) -> BaseModel:
    """An action given as a dict (a log line, a form, a model's answer) read by `parse`; a malformed
    one is refused under `rule`, saying which field is wrong."""
    if not isinstance(action, dict):
        return action
    try:
        return parse(action)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        raise RuleViolation(rule, f"the action is malformed: {where}: {first.get('msg')}") from None


def registrar(handlers: dict[str, Callable[[Any], None]]) -> Callable[..., Callable]:
    """A `handles(*action types)` decorator that files the function under each action's `type`."""
    def handles(*types: type[BaseModel]) -> Callable:
        def deco(fn: Callable) -> Callable:
            for t in types:
                handlers[t.model_fields["type"].default] = fn
            return fn
        return deco
    return handles
