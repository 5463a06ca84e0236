"""The LLM seat's out-of-turn decision (agents/game_loop.Interjector): one short "act now or pass".

Why a flat schema of its own: an interjection is asked while another seat decides, so it must be cheap
and hard to get wrong. The model picks `act` (pass, or one of the out-of-turn action types offered) and
may give `text` (a challenge's reason, a counter-struggle's words); the details a model cannot know
(which thing strikes back, which group member a connection goes to) come from the heuristic's own
proposal for the same seat, so only types the model can fill alone, or that the heuristic proposed,
are on the menu.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Literal

from annotated_types import MaxLen
from pydantic import BaseModel, Field, create_model

from .schema_actions import WHY_LIMIT, _Lean

PASS = "pass"
TEXT_LIMIT = 300  # the shortest text field an interjection fills (a challenge's reason)


@lru_cache(maxsize=64)
def interjection_schema(types: tuple[str, ...]) -> type[BaseModel]:
    """`Interjection{act, text, why}`: `act` is "pass" (listed first, the safe answer) or one of `types`."""
    return create_model(  # type: ignore[call-overload, no-any-return]
        "Interjection", __base__=_Lean, __doc__="Act now, out of turn, or pass.",
        act=(Literal[(PASS, *types)], Field(description="pass, or the out-of-turn action to take now")),  # type: ignore[misc]
        text=(Annotated[str, MaxLen(TEXT_LIMIT)], Field(default="", description="the reason or words, if any")),
        why=(Annotated[str, MaxLen(WHY_LIMIT)], Field(default="", description="one short sentence: why")))


def fillable(models: dict[str, type[BaseModel]], action_type: str) -> bool:
    """Whether the model alone can make this action: every required field but `type`/`player` is missing."""
    cls = models.get(action_type)
    return cls is not None and all(not f.is_required() for n, f in cls.model_fields.items()
                                   if n not in ("type", "player"))


def interjection_data(models: dict[str, type[BaseModel]], act: str, text: str, seat: str,
                      proposal: BaseModel | None, text_fields: tuple[str, ...]) -> dict[str, Any]:
    """The engine action's data for the model's `act`: the heuristic's proposal of that type (its details)
    or the bare type, the model's `text` in the action's first words field, acting as `seat`."""
    same = proposal is not None and getattr(proposal, "type", None) == act
    data: dict[str, Any] = proposal.model_dump(mode="json", exclude_none=True) if same else {"type": act}  # type: ignore[union-attr]
    field = next((n for n in text_fields if n in models[act].model_fields), None)
    if field is not None and text.strip():
        data[field] = text.strip()
    data["player"] = seat
    return data
