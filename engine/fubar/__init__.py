"""FUBAR (Adrian Price's hack of FU), GM-led: state, actions, `apply`, pending decisions.

Rule IDs: F-<n> is rule n of shared/rules/fubar.md section 2, F-EX-<n> its test case n
(section 5) and F-AMB-<n> its reading n (section 6). The book (seed 004) wins where they differ.
"""
from engine.fubar.actions import ACTION_TYPES, Action, parse_action
from engine.fubar.decisions import legal_options, pending
from engine.fubar.options import FubarOptions
from engine.fubar.rules import apply, new_game
from engine.fubar.state import GameState

RULESET = "fubar"
VERSION = "1"

__all__ = ["ACTION_TYPES", "Action", "FubarOptions", "GameState", "RULESET", "VERSION", "apply",
           "legal_options", "new_game", "parse_action", "pending"]
