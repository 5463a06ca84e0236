"""Ruleset-agnostic core: seats, dice sources, the event log and rule errors.

Every ruleset (Universalis now; FUBAR, Death of the Vele and Paganini later) builds on these.
Nothing here does I/O except `log`, whose reading and writing functions take text, not paths.
"""
from engine.core.errors import RuleViolation, LogError
from engine.core.dice import DiceSource, SeededDice, ScriptedDice, normalize_face
from engine.core.seats import seats_left_of, closest_left

__all__ = [
    "RuleViolation", "LogError", "DiceSource", "SeededDice", "ScriptedDice",
    "normalize_face", "seats_left_of", "closest_left",
]
