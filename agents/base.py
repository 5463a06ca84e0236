"""The Player interface: a player sees an Observation and returns a Decision.

AI players are just players: they see what a player may see and their actions go through the
same rules as a person's. A human seat is a Player whose decision comes from a front end.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from engine.universalis.decisions import Option, Pending
from engine.universalis.events import Event
from engine.universalis.facts import FactView
from engine.universalis.state import GameState


@dataclass
class Observation:
    """What one player may see when asked to decide.

    `state` is the seat's view (views.seat_state): the other players' sealed bids, secret Enigma Traits
    and cards in hand hidden; `facts` are the Facts judged relevant
    (exact ones from the state first, then retrieved ones); `check` asks the engine whether a
    concrete action would be accepted now, returning the refusal message or None.
    """

    player: str
    state: GameState
    pending: Pending
    options: list[Option]
    recent: list[Event] = field(default_factory=list)
    premise: str = ""
    check: Any = None
    facts_fn: Any = None  # computed on first use: most decisions need no Facts
    turn_actions: int = 0  # actions this player already took in the current turn
    _facts: list[FactView] | None = None

    @property
    def facts(self) -> list[FactView]:
        if self._facts is None:
            self._facts = list(self.facts_fn()) if self.facts_fn is not None else []
        return self._facts


@dataclass
class Decision:
    """An action with the record of how it was chosen, written to the log beside it."""

    action: BaseModel
    kind: str = "heuristic"  # human | heuristic | llm
    rationale: str = ""
    facts_used: list[str] = field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0
    retries: int = 0
    fallback: str | None = None

    def meta(self) -> dict[str, Any]:
        out: dict[str, Any] = {"decided_by": self.kind}
        if self.rationale:
            out["rationale"] = self.rationale
        if self.facts_used:
            out["facts"] = self.facts_used
        if self.kind == "llm" or self.fallback:
            out.update(tokens_in=self.tokens_in, tokens_out=self.tokens_out,
                       latency_s=round(self.latency_s, 4), retries=self.retries, fallback=self.fallback)
        return out


class Player(Protocol):
    kind: str

    def decide(self, obs: Observation) -> Decision: ...
