"""Personas are data, not subclasses: numbers that shift a player's choices."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Persona:
    name: str
    description: str
    tenets: int = 1  # Tenets it wants to propose in preparation
    bid_eagerness: float = 0.25  # share of wealth it is willing to bid
    reserve: int = 5  # coins it keeps back on its own turn
    spend_per_turn: int = 3
    build: float = 0.5  # taste for new components and Traits
    conflict: float = 0.3  # taste for starting Complications
    takeover: float = 0.1
    challenge: float = 0.15
    interrupt: float = 0.1
    eliminate: float = 0.2
    cancel_share: float = 0.25  # share of its bonus a winner spends cancelling the losers'
    bonus_spend: float = 0.6  # share of its bonus coins it spends on the outcome (the rest it keeps)
    scene_events: int = 5  # Events after which, as framer, it ends its scene
    fade: float = 0.25  # chance it fades a scene to black
    max_traits: int = 6  # Traits it gives one component before it builds elsewhere
    prep_components: int = 0  # components (Story Elements) it creates in preparation
    absent: float = 0.05  # taste for declaring a rival's component absent from a scene
    careless: float = 0.05  # chance it brings back a component someone declared absent


PERSONAS: dict[str, Persona] = {p.name: p for p in [
    Persona("world-builder", "Builds places, peoples and their histories; rarely starts fights.",
            tenets=2, build=0.8, conflict=0.2, reserve=6, spend_per_turn=4, prep_components=1, scene_events=6,
            max_traits=7, fade=0.15),
    Persona("antagonist", "Brings threats and villains, starts Complications, kills off the weak.",
            tenets=1, bid_eagerness=0.3, conflict=0.6, takeover=0.25, eliminate=0.45, interrupt=0.2,
            cancel_share=0.4, reserve=4, absent=0.25, bonus_spend=0.7, fade=0.3, max_traits=5),
    Persona("dramatist", "Wants scenes with stakes: bids high, interrupts, frames confrontations.",
            tenets=1, bid_eagerness=0.4, conflict=0.45, interrupt=0.25, challenge=0.2, reserve=4,
            spend_per_turn=4, careless=0.3, scene_events=4, fade=0.4),
    Persona("guardian", "Keeps the story consistent: challenges contradictions, defends Facts.",
            tenets=2, challenge=0.45, conflict=0.25, build=0.5, reserve=7, absent=0.15, bonus_spend=0.5),
]}

DEFAULT_ROTATION = ["world-builder", "antagonist", "dramatist", "guardian"]


def persona(name: str | None, seat_index: int = 0) -> Persona:
    """The named persona, or the seat's turn in the default rotation."""
    if name and name in PERSONAS:
        return PERSONAS[name]
    return PERSONAS[DEFAULT_ROTATION[seat_index % len(DEFAULT_ROTATION)]]
