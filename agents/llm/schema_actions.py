"""Per-decision answer schemas built from the engine's own action models.

Why: the engine's `Action` union is the one source of truth, but a model should see only the
action types legal now, and never the `player` field (the seat fills it in: a model cannot act
for someone else). Each offered type becomes one flat model (the engine's fields minus
`player`); several are offered as a union discriminated on `type` under `action`.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from engine.universalis.actions import ACTION_TYPES, parse_action

__all__ = ["NOT_FOR_PLAYERS", "choice_schema", "flat_action_model", "to_engine_action"]

NOT_FOR_PLAYERS = {"roll"}  # dice come from the table's dice source
# free-form objects (a Challenge's alternative action) have no place in a strict JSON schema
# (every object must list its properties): a model words its alternative and prices it instead
NOT_FOR_MODELS = {"instead", "new_option_instead"}


class _Lean(BaseModel):
    """A model whose JSON schema leaves out what costs tokens and tells a model nothing.

    Titles repeat the property names; the discriminator mapping repeats the `type` consts;
    `oneOf` becomes `anyOf` (same meaning for a discriminated union, and accepted by strict mode).
    """

    model_config = ConfigDict(extra="ignore")

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        return _lean(super().model_json_schema(*args, **kwargs))


def _lean(node: Any) -> Any:
    if isinstance(node, list):
        return [_lean(x) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "discriminator":
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _lean(sub) for name, sub in value.items()}
            continue
        out["anyOf" if key == "oneOf" else key] = _lean(value)
    return out


@lru_cache(maxsize=None)
def flat_action_model(action_type: str, require_type: bool = False) -> type[BaseModel]:
    """The engine's model for `action_type` without `player`; extra keys (a stray player) ignored.

    In a union `type` is required, so the schema tells the model it must say which action it
    means; alone it keeps its default, which forgives a model that leaves it out.
    """
    cls = ACTION_TYPES[action_type]
    fields: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        if name == "player" or name in NOT_FOR_MODELS:
            continue
        if name == "type" and require_type:
            fields[name] = (info.annotation, Field(description="which action"))
            continue
        fields[name] = (info.annotation, info)
    return create_model(  # type: ignore[call-overload, no-any-return]
        cls.__name__, __config__=ConfigDict(extra="ignore"), __doc__=cls.__doc__, **fields)


@lru_cache(maxsize=256)
def choice_schema(types: tuple[str, ...]) -> type[BaseModel]:
    """`Choice{action, why}` offering exactly `types` (in that order)."""
    offered = [t for t in types if t in ACTION_TYPES and t not in NOT_FOR_PLAYERS]
    if not offered:
        raise ValueError("no action type a player can choose")
    models = tuple(flat_action_model(t, len(offered) > 1) for t in offered)
    action: Any = models[0] if len(models) == 1 else Annotated[Union[models], Field(discriminator="type")]
    return create_model(  # type: ignore[call-overload, no-any-return]
        "Choice",
        __base__=_Lean,
        __doc__="Choose exactly one of the legal actions.",
        action=(action, Field(description="the action, with its `type`")),
        why=(str, Field(default="", description="one short sentence: why this action")),
    )


def to_engine_action(choice: BaseModel, player: str) -> BaseModel:
    """The engine action for a parsed Choice, acting as `player`."""
    data = choice.action.model_dump(mode="json")  # type: ignore[attr-defined]
    data["player"] = player
    return parse_action(data)
