"""Seating: turn a seat's description (name, person or AI, persona, model) into a Player.

One place decides which Player class sits behind a seat, so the console script, the app and
the evaluation harness all seat the same players the same way.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agents.base import Player
from agents.table import Seat

SeatKindName = Literal["human", "heuristic", "llm"]


@dataclass(frozen=True)
class SeatSpec:
    """A seat as a person sets it up: `kind` is human, heuristic (the offline AI) or llm."""

    name: str
    kind: SeatKindName = "heuristic"
    persona: str = ""
    model: str = ""


def make_player(spec: SeatSpec, seed: int = 0, seat_index: int = 0, settings=None,
                chat_model=None) -> Player | None:
    """The Player for a seat, or None for a person. `settings` are LLMSettings for llm seats;
    `chat_model` (a LangChain chat model, e.g. a GGUF loaded in this process) replaces the endpoint."""
    if spec.kind == "human":
        return None
    if spec.kind == "heuristic":
        from agents.heuristic import HeuristicPlayer

        return HeuristicPlayer(spec.name, spec.persona or None, seed=seed, seat_index=seat_index)
    if spec.kind == "llm":
        from agents.llm.config import load_settings
        from agents.llm.player import LLMPlayer  # built by the LLM player work

        cfg = settings if settings is not None else load_settings()
        if spec.model:
            cfg = cfg.model_copy(update={"model": spec.model})
        return LLMPlayer(spec.name, cfg, persona=spec.persona or None, seed=seed, seat_index=seat_index,
                         chat_model=chat_model)
    raise ValueError(f"unknown seat kind {spec.kind!r}: use human, heuristic or llm")


def make_seats(specs: list[SeatSpec], seed: int = 0, settings=None, chat_model=None) -> list[Seat]:
    """Seats for a new or loaded Table, in seating order; llm seats share `chat_model` if given."""
    seats = []
    for i, spec in enumerate(specs):
        player = make_player(spec, seed=seed, seat_index=i, settings=settings, chat_model=chat_model)
        persona = spec.persona or (getattr(getattr(player, "persona", None), "name", "") if player else "")
        seats.append(Seat(spec.name, player, persona, spec.model))
    return seats
