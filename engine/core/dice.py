"""Dice sources. Randomness enters a game only through one of these, handed in from outside.

A source answers `roll(n, sides)` with n faces of a die of `sides` faces (default a d10: 1..10,
a printed 0 read as 10; FUBAR asks for d6, other games for d20). The engine
never calls a source itself: the table asks the source and gives the faces to the engine as an
action, so every roll is recorded in the log and a replay needs no source at all.
"""
from __future__ import annotations

import random
from typing import Callable, Protocol, Sequence


def normalize_face(face: int, sides: int = 10) -> int:
    """Read a d10's printed 0 as 10 and refuse impossible faces (a d6 has no 0)."""
    if face == 0 and sides == 10:
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
    """Faces given in advance, for tests and for replaying a book example.

    `sides` is the die the script is written for (a d10 by default, as before); asking it for
    another die size is refused rather than handing a d10's 8 to a d6 roll.
    """

    def __init__(self, faces: Sequence[int], sides: int = 10) -> None:
        self.sides = sides
        self._faces = [normalize_face(f, sides) for f in faces]

    def roll(self, n: int, sides: int = 10) -> list[int]:
        if sides != self.sides:
            raise ValueError(f"the script holds d{self.sides} faces, a d{sides} roll was asked for")
        if n > len(self._faces):
            raise ValueError(f"the script has {len(self._faces)} dice left, {n} were asked for")
        out, self._faces = self._faces[:n], self._faces[n:]
        return out


class TypedDice:
    """Physical dice: the faces a person read off the table, checked for the die asked for.

    `ask(n, sides)` is the front end's question ("type the 5 d6 you rolled"); its answers are
    validated here so a typo is refused before it reaches the log.
    """

    def __init__(self, ask: Callable[[int, int], Sequence[int]]) -> None:
        self._ask = ask

    def roll(self, n: int, sides: int = 10) -> list[int]:
        faces = list(self._ask(n, sides))
        if len(faces) != n:
            raise ValueError(f"{n} d{sides} were rolled, {len(faces)} faces were typed")
        return [normalize_face(int(f), sides) for f in faces]

    @property
    def remaining(self) -> int:
        return len(self._faces)
