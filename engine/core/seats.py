"""Seat order. Seats are an ordered list; "left" and "clockwise" mean the next seat, wrapping."""
from __future__ import annotations

from typing import Iterable, Sequence


def seats_left_of(seats: Sequence[str], ref: str, include_self_last: bool = True) -> list[str]:
    """Seats ordered by closeness to the left of `ref`: ref+1, ref+2, ..., ref itself last."""
    i = seats.index(ref)
    order = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
    if include_self_last:
        order.append(ref)
    return order


def closest_left(seats: Sequence[str], ref: str, candidates: Iterable[str]) -> str:
    """The candidate sitting closest to the left of `ref` (ref itself counts last)."""
    wanted = set(candidates)
    for name in seats_left_of(seats, ref):
        if name in wanted:
            return name
    raise ValueError("no candidate")
