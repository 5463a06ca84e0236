"""Per-decision answer schemas built from the engine's own action models.

Why: the engine's `Action` union is the one source of truth, but a model should see only the
action types legal now, and never the `player` field (the seat fills it in: a model cannot act
for someone else). Each offered type becomes one flat model (the engine's fields minus
`player`); several are offered as a union discriminated on `type` under `action`.

Fields that name something in the game (a component, a Trait, a Pool, a player, a Fact, a Tenet)
are offered as an enum of the ids that exist now, and coin counts are capped at what the player
can spend (`field_choices`). A server that enforces the schema with a grammar (llama.cpp) then
cannot let a small model invent an id; the engine still judges everything else.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated, Any, Iterable, Literal, Optional, Union, get_args, get_origin

from annotated_types import MaxLen, MinLen
from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.fields import FieldInfo

from engine.universalis.actions import ACTION_TYPES, parse_action
from engine.universalis.ledger import available
from engine.universalis.state import GameState

from .legal_now import MUST_WRITE, action_choices, fit_choice, normalise_choice

__all__ = ["Choices", "NOT_FOR_PLAYERS", "choice_schema", "field_choices", "flat_action_model", "to_engine_action"]

# (field name, allowed values) pairs: str values make an enum, one int the most a count may be (an enum
# of the counts up to it); MUST_WRITE makes a nullable text field required
Choices = tuple[tuple[str, tuple[Any, ...]], ...]
COMPONENT_FIELDS = ("component", "performer", "receiver", "speaker", "listener", "other", "sub_of", "about")
COIN_FIELDS = ("coins", "count", "dice", "times")  # paid one coin each
# Words a model writes, capped: "one or two vivid sentences" fit, and a grammar-held small model
# that rambles is made to close its string instead of running into the token limit.
TEXT_LIMITS = {"text": 300, "line": 300, "reason": 240, "alternative": 240, "new_option": 240, "role": 60,
               "new_role": 60, "proper_name": 60, "corollary": 120}
WHY_LIMIT = 100  # "one short sentence"; every character of it is generated, slowly, on a CPU

NOT_FOR_PLAYERS = {"roll"}  # dice come from the table's dice source
# free-form objects (a Challenge's alternative action) have no place in a strict JSON schema
# (every object must list its properties): a model words its alternative and prices it instead
NOT_FOR_MODELS = {"instead", "new_option_instead",
                  # a Sub Component's negation of a Master Trait and a relationship's reciprocal Trait:
                  # rare, and a small model fills them with noise the engine then refuses
                  "negates", "corollary"}


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
        if key == "$defs" and isinstance(value, dict):  # an action's fields speak for themselves
            out[key] = {name: {**_lean(sub), "properties": {
                f: {k: v for k, v in _lean(prop).items() if k != "description"}
                for f, prop in (sub.get("properties") or {}).items()}} if "properties" in sub else _lean(sub)
                for name, sub in value.items()}
            continue
        out["anyOf" if key == "oneOf" else key] = _lean(value)
    return out


def field_choices(s: GameState, me: str, fact_ids: Iterable[str] = ()) -> Choices:
    """What the id fields may name now, and the most coins `me` can pay, for `choice_schema`.

    Only values that exist are offered; whether a choice is legal stays the engine's call
    (an enum cannot say "a component you control in this scene").
    """
    live = [c for c in s.components.values() if not c.eliminated]
    comps = tuple(c.id for c in live)
    places = tuple(c.id for c in live if c.kind == "location")
    traits = tuple(t.id for c in live for t in c.traits)
    out: list[tuple[str, tuple[Any, ...]]] = []
    # a field with nothing to name gets () : an optional one must then be null (a small model
    # otherwise fills it with something, and the engine refuses the whole action)
    out += [(name, comps) for name in COMPONENT_FIELDS]
    if places:
        out.append(("location", places))
    if traits:
        out.append(("trait", traits))
    if s.complication is not None and s.complication.pools:
        out.append(("pool", tuple(p.key for p in s.complication.pools)))
    others = tuple(p.name for p in s.players if p.name != me)
    if others:
        out.append(("accused", others))
    out.append(("replaces", tuple(t.id for t in s.tenets if not t.removed)))
    out.append(("fact", tuple(dict.fromkeys(str(f) for f in fact_ids))))
    me_player = next((p for p in s.players if p.name == me), None)
    if me_player is not None:
        out.append(("amount", (me_player.wealth,)))  # a bid: up to the bidder's wealth (U-BID-1)
        spend = available(s, me)
        out += [(name, (spend,)) for name in COIN_FIELDS]
    out += action_choices(s, me)
    return tuple(out)


ENUM_LIMIT = 40  # ids offered as an enum at most; more would cost more prompt than they save
# a count is offered as an enum of its values, at most this many from its least: llama-cpp-python's
# grammar ignores `maximum` (issue 27: SmolLM2 wrote times 22 with at most 21 payable) but holds an enum
INT_CHOICES = 10
LEAVE_OUT = object()  # a field the schema does not show: the engine's default applies


def _narrowed(info: FieldInfo, allowed: tuple[Any, ...]) -> tuple[Any, FieldInfo] | object | None:
    """The field offering only `allowed`: an enum of ids, or a maximum for a count. None: unchanged.

    Nothing allowed: an optional field can only be null; a field with a default is left out
    (LEAVE_OUT); a required one stays as the engine defines it (the engine will refuse).
    """
    annotation = info.annotation
    optional = get_origin(annotation) is Union and type(None) in get_args(annotation)
    base = next((a for a in get_args(annotation) if a is not type(None)), annotation) if optional else annotation
    if allowed == MUST_WRITE and base is str:
        return Annotated[str, MinLen(1)], FieldInfo(description=info.description)
    if not allowed:
        if optional:
            return None, FieldInfo(default=None, description=info.description)
        return LEAVE_OUT if not info.is_required() else None
    if base is str and len(allowed) > ENUM_LIMIT:
        return None  # a long game's ids: the plain field costs fewer tokens; the engine judges
    if base is str and allowed and all(isinstance(v, str) for v in allowed):
        enum: Any = Literal[allowed]  # type: ignore[valid-type]
        return (Optional[enum] if optional else enum), info
    if get_origin(base) is Literal and all(isinstance(v, str) for v in allowed):
        kept = tuple(v for v in get_args(base) if v in allowed)  # the engine's own choices, narrowed
        return (Literal[kept], info) if kept and kept != get_args(base) else None  # type: ignore[valid-type]
    if base is int and len(allowed) == 1 and isinstance(allowed[0], int):
        low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), 0)
        high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), allowed[0])
        most = min(allowed[0], high, low + INT_CHOICES - 1)
        if most < low:
            return None  # cannot pay even the least: the engine will say so
        values = Literal[tuple(range(low, most + 1))]  # type: ignore[misc]
        return (Optional[values] if optional else values), FieldInfo(default=info.default, description=info.description)
    return None


def _capped(annotation: Any, limit: int) -> Any:
    """`str` (or `Optional[str]`) at most `limit` characters (and at least one, if it must be written)."""
    least = [m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, MinLen)]
    capped = Annotated[(str, *least, MaxLen(limit))]  # type: ignore[valid-type]
    return Optional[capped] if type(None) in get_args(annotation) else capped


@lru_cache(maxsize=512)
def flat_action_model(action_type: str, require_type: bool = False, choices: Choices = ()) -> type[BaseModel]:
    """The engine's model for `action_type` without `player`; extra keys (a stray player) ignored.

    In a union `type` is required, so the schema tells the model it must say which action it
    means; alone it keeps its default, which forgives a model that leaves it out. `choices`
    narrow id fields to enums and coin counts to what can be paid (see `field_choices`).
    """
    cls = ACTION_TYPES[action_type]
    narrow = dict(choices)
    fields: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        if name == "player" or name in NOT_FOR_MODELS:
            continue
        if name == "type" and require_type:
            fields[name] = (info.annotation, Field())
            continue
        key = f"{action_type}.{name}"  # an action's own list (legal_now) before the field's
        allowed = narrow[key] if key in narrow else narrow.get(name)
        narrowed = _narrowed(info, allowed) if allowed is not None else None
        if narrowed is LEAVE_OUT:
            continue
        annotation, field_info = narrowed if isinstance(narrowed, tuple) else (info.annotation, info)
        if name in TEXT_LIMITS and str in (annotation, *get_args(annotation)):
            annotation = _capped(annotation, TEXT_LIMITS[name])
        fields[name] = (annotation, field_info)
    return create_model(  # type: ignore[call-overload, no-any-return]
        cls.__name__, __config__=ConfigDict(extra="ignore"), __doc__=short_doc(cls.__doc__), **fields)


DOC_LIMIT = 240  # characters of an action's description shown to a model
_RULE_REFS = re.compile(r"\s*\((?:[^()]*\bU-[A-Z]+-[^()]*)\)")


def short_doc(doc: str | None) -> str | None:
    """An action's description for a model: its first sentence, without rule IDs.

    Why: each offered action's schema carries its description; the engine's docstrings (rule
    IDs, notes for developers) cost about 40 tokens each, and the prompt's rules text already
    says what a model needs (issue 23: at most 2,000 tokens a decision).
    """
    if not doc:
        return doc
    first = _RULE_REFS.sub("", " ".join(doc.strip().split("\n\n", 1)[0].split())).strip()
    if len(first) > DOC_LIMIT:  # whole sentences up to the limit
        cut = first.rfind(". ", 0, DOC_LIMIT)
        first = first[:cut + 1] if cut > 0 else first[:DOC_LIMIT]
    return first or None


@lru_cache(maxsize=256)
def choice_schema(types: tuple[str, ...], choices: Choices = ()) -> type[BaseModel]:
    """`Choice{action, why}` offering exactly `types` (in that order), id fields narrowed by `choices`."""
    offered = [t for t in types if t in ACTION_TYPES and t not in NOT_FOR_PLAYERS]
    if not offered:
        raise ValueError("no action type a player can choose")
    models = tuple(flat_action_model(t, len(offered) > 1, choices) for t in offered)
    action: Any = models[0] if len(models) == 1 else Annotated[Union[models], Field(discriminator="type")]
    return create_model(  # type: ignore[call-overload, no-any-return]
        "Choice",
        __base__=_Lean,
        __doc__="Choose exactly one of the legal actions.",
        action=(action, Field(description="the action, with its `type`")),
        why=(Annotated[str, MaxLen(WHY_LIMIT)], Field(default="", description="one short sentence: why this action")),
    )


def to_engine_action(choice: BaseModel, player: str, state: GameState | None = None) -> BaseModel:
    """The engine action for a parsed Choice, acting as `player`; with `state`, fields the schema
    could not tie to each other are read as the engine accepts them (legal_now.fit_choice)."""
    data = normalise_choice(choice.action.model_dump(mode="json"))  # type: ignore[attr-defined]
    if state is not None:
        data = fit_choice(data, state, player)
    data["player"] = player
    return parse_action(data)
