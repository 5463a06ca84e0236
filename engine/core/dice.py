"""Dice sources. Randomness enters a game only through one of these, handed in from outside.

A source answers `roll(n)` with n faces of a d10 (1..10, a printed 0 read as 10). The engine
never calls a source itself: the table asks the source and gives the faces to the engine as an
action, so every roll is recorded in the log and a replay needs no source at all.
"""
from __future__ import annotations

import random
from typing import Protocol, Sequence


def normalize_face(face: int, sides: int = 10) -> int:
    """Read a printed 0 as 10 and refuse impossible faces."""
    if face == 0:
        return sides
    if not 1 <= face <= sides:
        raise ValueError(f"a d{sides} cannot show {face}")
    return face


class DiceSource(Protocol):
    def roll(self, n: int, sides: int = 10) -> list[int]: ...


class SeededDice:
    """A reproducible source: the same seed gives the same faces."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, n: int, sides: int = 10) -> list[int]:
        return [self._rng.randint(1, sides) for _ in range(n)]


class ScriptedDice:
    """Faces given in advance, for tests and for replaying a book example."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = [normalize_face(f) for f in faces]

    def roll(self, n: int, sides: int = 10) -> list[int]:
        if n > len(self._faces):
            raise ValueError(f"the script has {len(self._faces)} dice left, {n} were asked for")
        out, self._faces = self._faces[:n], self._faces[n:]
        return out

    @property
    def remaining(self) -> int:
        return len(self._faces)
