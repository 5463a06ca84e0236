"""`storytable play --game fubar|paganini|vele`: a person at the terminal, AI in the other seats.

Kept apart from play.py, whose loop is Universalis's Table: this one runs agents/game_loop.py's
GameTable and asks the ruleset for everything (who decides, the legal options, the dice). A
person picks an action by number and fills its fields, each offered with the offline AI's
suggestion as the default (Enter keeps it), or takes the whole suggestion with `a`. A refused
action prints the rule and its reason and changes nothing. The log is written action by action;
--load goes on with a saved game, and a damaged log is never written to.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Callable

from app.ui import game_actions as GA

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

HELP_TEXT = ("Type the number of an action, then answer its questions (Enter keeps the [default]); "
             "a = take the AI's suggestion as it is.\n"
             "Commands: s = the situation again, t = the last lines of the story, q = quit (the game is saved).")
NAMES = ["Gina", "Bob", "Cat", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kit"]


class Quit(Exception):
    """The person asked to stop (q, or the input ended)."""


def _ai(game: str, name: str, role: str, kind: str, seed: int, index: int, scenes: int):
    from app.ui.game_store import GameSeat, ai_player

    player, note = ai_player(game, GameSeat(name, role, kind), seed, index, scenes)
    return player, note


def make_table(args: argparse.Namespace, say: OutputFn = print):
    """A new table for --game with one person (the first name of --humans) in the role --role,
    or the saved game of --load with that person back in their seat."""
    from agents.game_loop import GameTable, replay_file
    from app.cli import UserError
    from engine.core.dice import SeededDice
    from engine.core.errors import LogError, RuleViolation
    from engine.core.ruleset import SeatSpec, get_ruleset

    game = args.game
    rs = get_ruleset(game)
    humans = [h.strip() for h in (args.humans or "").split(",") if h.strip()]
    if len(humans) != 1:
        raise UserError(f"--game {game} seats one person at the terminal: give one name with --humans")
    me = humans[0]
    role = getattr(args, "role", None) or "player"
    if role not in rs.roles:
        raise UserError(f"{game} has no {role!r} seat; its roles are {', '.join(rs.roles)}")
    kind = "llm" if args.ai == "llm" else "heuristic"
    if args.ai == "local":
        raise UserError(f"--ai local is for Universalis; --game {game} plays with --ai heuristic or llm")
    seed = args.seed if args.seed is not None else 0
    scenes = args.scenes or 4
    dice = SeededDice(seed)
    if args.load:
        path = Path(args.load)
        if not path.exists():
            raise UserError(f"no saved game at {path}")
        try:
            table = replay_file(path, keep_writing=True)
        except LogError as exc:
            raise UserError(f"{path.name} is damaged at line {exc.line} ({exc.reason}); the file is left as it "
                            "is. `storytable replay --partial` shows the valid part.") from None
        if table.ruleset.name != game:
            raise UserError(f"{path.name} is a game of {table.ruleset.name}, not {game}: use --game {table.ruleset.name}")
        if me not in table.seats:
            raise UserError(f"{me} is not at this table; its seats are {', '.join(table.seats)}")
        for i, name in enumerate(table.seats):
            if name != me:
                player, note = _ai(game, name, table.roles.get(name, "player"), kind, seed, i, scenes)
                table.set_seat(name, player)
                if note:
                    say(note)
        table.dice = dice
        return table
    if not 2 <= args.seats <= 12:
        raise UserError(f"--seats must be between 2 and 12, not {args.seats}")
    out = Path(args.out or f"{game}.jsonl")
    if out.exists() and not getattr(args, "force", False):
        raise UserError(f"{out} already exists and a saved game is never overwritten: go on with it with "
                        f"`storytable play --game {game} --load {out}`, or choose another --out")
    others = [n for n in NAMES if n != me][:args.seats - 1]
    gm_led = "gm" in rs.roles
    seats: list[tuple[SeatSpec, Any]] = [(SeatSpec(me, role), None)]
    for i, name in enumerate(others, start=1):
        r = "gm" if gm_led and role != "gm" and i == 1 else "player"
        player, note = _ai(game, name, r, kind, seed, i, scenes)
        if note:
            say(note)
        seats.append((SeatSpec(name, r), player))
    try:
        return GameTable.new(rs, seats, {}, dice=dice, log_path=out, premise=args.premise or "")
    except RuleViolation as exc:
        raise UserError(f"this table cannot be played: {exc}") from None
    except FileExistsError:
        raise UserError(f"{out} already exists: choose another --out") from None


# -- what a person sees --------------------------------------------------------------------------------
def situation(table, seat: str) -> list[str]:
    """The pending decision and the seat's own view, short."""
    rs = table.ruleset
    pend = rs.pending(table.state)
    view = rs.view(table.state, seat)
    out = [f"-- {seat}: {pend.kind.replace('_', ' ')}" + (f" ({pend.note})" if pend.note else "")]
    for key in ("conflict", "check", "struggle"):
        if view.get(key):
            out.append(f"   {key}: {json.dumps(view[key], ensure_ascii=False)[:400]}")
    return out


def _ask_field(f: GA.Field, default: Any, ask: InputFn) -> Any:
    shown = GA.as_input(f, default)
    if f.kind == "json":
        shown = json.dumps(default, ensure_ascii=False) if default is not None else ""
    hint = f" ({'/'.join('none' if c is None else str(c) for c in f.choices)})" if f.kind == "choice" else \
        " (y/n)" if f.kind == "bool" else " (JSON)" if f.kind == "json" else ""
    raw = ask(f"  {GA.label(f.name)}{hint} [{shown}]: ").strip()
    if raw.lower() == "q":
        raise Quit
    if not raw:
        return default if f.kind != "json" else (default if default is not None else "")
    if f.kind == "bool":
        if raw.lower() in ("y", "yes", "true", "1"):
            return True
        if raw.lower() in ("n", "no", "false", "0"):
            return False
        raise ValueError(f"{GA.label(f.name)}: answer y or n")
    if f.kind == "choice":
        for c in f.choices:
            if raw == ("none" if c is None else str(c)):
                return c
        raise ValueError(f"{GA.label(f.name)}: one of {', '.join('none' if c is None else str(c) for c in f.choices)}")
    if f.kind in ("int", "float"):
        try:
            return (int if f.kind == "int" else float)(raw)
        except ValueError:
            raise ValueError(f"{GA.label(f.name)}: a number") from None
    return raw


def person_turn(table, seat: str, ask: InputFn, say: OutputFn) -> None:
    """Ask `seat` until one action is accepted (or the person quits)."""
    sugg = GA.suggestion(table, seat) or {}
    for line in situation(table, seat):
        say(line)
    while True:
        types = GA.option_types(table, seat)
        costs = {o.type: o.cost for o in table.ruleset.legal_options(table.state, seat)}
        for i, t in enumerate(types, start=1):
            cost = costs.get(t, "0")
            say(f"  {i}. {t.replace('_', ' ')}" + (f" (cost {cost})" if cost not in ("", "0") else "")
                + ("  <- the AI would" if sugg.get("type") == t else ""))
        raw = ask(f"{seat}> ").strip().lower()
        if raw in ("q", "quit"):
            raise Quit
        if raw in ("h", "help", "?"):
            say(HELP_TEXT)
            continue
        if raw == "s":
            for line in situation(table, seat):
                say(line)
            continue
        if raw == "t":
            for e in table.events[-10:]:
                say("  " + e.line())
            continue
        try:
            if raw == "a":
                if not sugg:
                    say("The AI has no suggestion here; pick a number.")
                    continue
                type_ = str(sugg["type"])
                values = {k: v for k, v in sugg.items() if k not in GA.HIDDEN}
            else:
                if not raw.isdigit() or not 1 <= int(raw) <= len(types):
                    say(f"Type a number from 1 to {len(types)}, or h for help.")
                    continue
                type_ = types[int(raw) - 1]
                start = sugg if sugg.get("type") == type_ else {}
                cls = GA.action_classes(table.ruleset.name)[type_]
                values = {f.name: _ask_field(f, start.get(f.name, f.default), ask) for f in GA.fields(cls)}
            action = GA.build(table.ruleset, seat, type_, values)
            table.submit(action, {"decided_by": "human"})
            return
        except Quit:
            raise
        except ValueError as exc:
            say(f"Not sent: {exc}")
        except Exception as exc:
            from engine.core.errors import RuleViolation

            if not isinstance(exc, RuleViolation):
                raise
            say(f"Refused: {exc}")


def typed_roll(table, ask: InputFn, say: OutputFn) -> None:
    """Physical dice: the person rolls and types the faces the ruleset asks for."""
    pend = table.ruleset.pending(table.state)
    faces: dict[str, list[int]] = {}
    for d in pend.dice:
        while True:
            raw = ask(f"Roll {d.count} d{d.sides} for {d.key} and type the faces: ").strip()
            if raw.lower() == "q":
                raise Quit
            try:
                faces[d.key] = GA.parse_faces(raw, d.count, d.sides, f"{d.key}'s roll")
                break
            except ValueError as exc:
                say(f"Not a roll: {exc}")
    table.submit(table.ruleset.dice_action(table.state, faces), {"decided_by": "dice (typed)"})


def play_loop(table, ask: InputFn, say: OutputFn, physical: bool = False, max_steps: int = 20_000) -> int:
    """AI seats and dice decide until the person (or typed dice) is needed; ask; repeat."""
    rs = table.ruleset
    shown = len(table.events)
    steps = 0
    try:
        while steps < max_steps and not rs.is_over(table.state):
            pend = rs.pending(table.state)
            if pend.is_chance and physical:
                typed_roll(table, ask, say)
            elif pend.seats and not pend.is_chance and table.seats.get(pend.seats[0]) is None:
                if not table.interjection(pend):  # AI seats may act out of turn before the person answers
                    person_turn(table, pend.seats[0], ask, say)
            else:
                acted, _ = table.step()
                if not acted:
                    say("Nobody can act: the game waits here.")
                    break
            steps += 1
            for e in table.events[shown:]:
                say(e.line())
            shown = len(table.events)
        if rs.is_over(table.state):
            say("The game is over.")
    except (Quit, EOFError):
        say("")
    if table.log_path is not None:
        say(f"The game is saved in {table.log_path}; go on with: storytable play --game {rs.name} --load {table.log_path}")
    return 0


def run(args: argparse.Namespace) -> int:
    table = make_table(args)
    me = [n for n, p in table.seats.items() if p is None]
    print(f"{table.ruleset.name}: you play {', '.join(me)} ({', '.join(table.roles.get(n, 'player') for n in me)}); "
          f"AI: {', '.join(n for n in table.seats if n not in me)}. Type h for help.")
    return play_loop(table, input, lambda line: print(line, flush=True),
                     physical=getattr(args, "dice", "virtual") == "physical")
