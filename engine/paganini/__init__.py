"""Paganini (N. E. Banks, 2000), GM-led: d20 High/Low Dice, a nine-rung ladder, a 25-box wound track.

Rule IDs: P-<n> is rule n of shared/rules/paganini.md section 2, P-EX-<n> its test case n
(section 5) and P-AMB-<n> its reading n (section 6). The book (seed 003) wins where they
differ; places in it are @offsets.
"""
from engine.paganini.actions import ACTION_TYPES, Action, parse_action
from engine.paganini.decisions import legal_options, pending
from engine.paganini.options import PaganiniOptions
from engine.paganini.rules import apply, new_game
from engine.paganini.state import GameState

RULESET = "paganini"
VERSION = "1"

__all__ = ["ACTION_TYPES", "Action", "GameState", "PaganiniOptions", "RULESET", "VERSION", "apply",
           "legal_options", "new_game", "parse_action", "pending"]
