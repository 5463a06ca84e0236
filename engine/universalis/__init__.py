"""Universalis, the flagship ruleset: state, actions, `apply`, and the pending decisions."""
from engine.universalis.actions import ACTION_TYPES, Action, parse_action
from engine.universalis.decisions import Option, Pending, legal_options, pending
from engine.universalis.events import Event
from engine.universalis.rules import apply, new_game
from engine.universalis.state import GameState

RULESET = "universalis"

__all__ = ["ACTION_TYPES", "Action", "Event", "GameState", "Option", "Pending", "RULESET", "apply",
           "legal_options", "new_game", "parse_action", "pending"]
