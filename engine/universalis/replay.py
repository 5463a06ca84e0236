"""Loading a game is replaying its log: the same actions and dice give the same state."""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.errors import LogError, RuleViolation
from engine.core.log import LogRecord, ParsedLog, parse_log, parse_log_bytes
from engine.universalis.events import Event
from engine.universalis.rules import apply, new_game
from engine.universalis.state import GameState


@dataclass
class Replayed:
    """The state after the valid part of a log, and what went wrong after it, if anything."""

    state: GameState
    events: list[Event]
    records: list[LogRecord]
    header: dict
    error: LogError | None = None
    states: list[GameState] = field(default_factory=list)


# dice sources a header may name: faces drawn from a seed, or read off real d10s rolled at the
# table. A source whose faces someone picks ("chosen", "manual", "scripted"...) is refused.
DICE_KINDS = ("virtual", "seeded", "physical")


def check_settings(cfg: object) -> None:
    """Refuse a header whose settings no real table could have (U-ECO-1, U-PREP-1, U-COMP-7).

    `new_game` bounds the coins and the seats; here the header's own parts must agree with them:
    the seats it describes are the players, in order, and its dice source is one no player picks.
    """
    if not isinstance(cfg, dict):
        raise RuleViolation("U-PREP-1", "the header has no settings (config)")
    players = cfg.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RuleViolation("U-PREP-1", "the header's config has no list of player names")
    seats = cfg.get("seats")
    if seats is not None:
        names = [x.get("name") if isinstance(x, dict) else None for x in seats] if isinstance(seats, list) else None
        if names != players:
            raise RuleViolation("U-PREP-1", "the header's seats do not match its players "
                                            f"({len(seats) if isinstance(seats, list) else 0} seats, {len(players)} players)")
    dice = cfg.get("dice")
    if dice is not None:
        kind = dice.get("kind") if isinstance(dice, dict) else dice
        if kind not in DICE_KINDS:
            raise RuleViolation("U-COMP-7", f"the header's dice source {str(kind)[:30]!r} is not one the rules allow: "
                                            f"dice are {', '.join(DICE_KINDS)}, never faces a player chooses")


def game_from_header(header: dict) -> GameState:
    cfg = header.get("config") or {}
    try:
        check_settings(cfg)
        return new_game(cfg["players"], cfg.get("starting_coins", 25), cfg.get("refreshment", 5),
                        cfg.get("starting_player", 0), cfg.get("addons"))
    except (KeyError, TypeError) as exc:
        raise LogError(1, f"the header's config is incomplete ({exc})") from None
    except RuleViolation as exc:
        raise LogError(1, f"the header's settings are refused: {exc}") from None


def replay_records(header: dict, records: list[LogRecord], keep_states: bool = False) -> Replayed:
    """Fold the records over a new game; stop at the first refused one and report its line."""
    state = game_from_header(header)
    events: list[Event] = []
    states = [state] if keep_states else []
    for i, rec in enumerate(records):
        try:
            state, evs = apply(state, rec.action)
        except RuleViolation as exc:
            return Replayed(state, events, records[:i], header,
                            LogError(i + 2, f"action {rec.seq} is refused by the rules: {exc}", i), states)
        events.extend(evs)
        if keep_states:
            states.append(state)
    return Replayed(state, events, list(records), header, None, states)


def replay_text(text: str, keep_states: bool = False) -> Replayed:
    """Replay a log's text. Never raises for a damaged log: `error` says where it broke."""
    return replay_parsed(parse_log(text), keep_states)


def replay_bytes(data: bytes, keep_states: bool = False) -> Replayed:
    """Replay a log file's bytes; bytes cut inside a character stop it at their line, like any cut."""
    return replay_parsed(parse_log_bytes(data), keep_states)


def replay_parsed(parsed: ParsedLog, keep_states: bool = False) -> Replayed:
    """Replay a parsed log; only a log without a usable header raises LogError (nothing is valid)."""
    if not parsed.header:
        assert parsed.error is not None
        raise LogError(parsed.error.line, parsed.error.reason, 0)
    out = replay_records(parsed.header, parsed.records, keep_states)
    if out.error is None and parsed.error is not None:
        out.error = LogError(parsed.error.line, parsed.error.reason, len(parsed.records))
    return out
