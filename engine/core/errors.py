"""The one error type a ruleset raises when it refuses an action, and the log's error."""
from __future__ import annotations


class RuleViolation(Exception):
    """An action the rules refuse. Nothing in the game changes when it is raised.

    `rule` is the rule ID from shared/rules (e.g. "U-ECO-3"); `reason` is said in a player's
    words, so a front end can show `str(err)` as is.
    """

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{reason} ({rule})")


class LogError(Exception):
    """A saved game log that cannot be read past a given line.

    `line` is 1-based; `valid_records` is how many records before the damage were readable,
    so a caller can still load the game up to that point.
    """

    def __init__(self, line: int, reason: str, valid_records: int = 0) -> None:
        self.line = line
        self.reason = reason
        self.valid_records = valid_records
        super().__init__(f"line {line}: {reason}")
