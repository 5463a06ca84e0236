"""`storytable play`: a terminal game, one or more people and AI players at one table.

A person sees the situation, whose decision is pending and the numbered legal actions with their
costs; picks one and types its words. A refused action prints the rule's message and changes
nothing. The log is written action by action (--out), so a game can stop at any time and go on
later with --load.

A saved game is never lost: --out refuses a file that is already there (unless --force), and a
damaged log given to --load is never written: its valid part is played, and when the game goes
on the damaged file is kept beside the new log under a new name, byte for byte.
"""
from __future__ import annotations

import argparse
import sys
import typing
from pathlib import Path
from typing import Any, Callable

HELP = "play a game in the terminal: people and AI players at one table"

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

# action fields that name a component, a Trait, a pool or a Fact: the prompt lists the choices
COMPONENT_FIELDS = {"component", "performer", "receiver", "location", "speaker", "listener", "about", "other",
                    "sub_of"}
HELP_TEXT = ("Type the number of an action, then answer its questions (Enter keeps the [default]).\n"
             "Commands: s = the situation again, t = last lines of the story, u = undo your last decision, "
             "q = quit (the game is saved in the log), x = end the session (the table closes; "
             "--load reopens it for the next one).")


class Quit(Exception):
    """The person asked to stop (q, or the input ended)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--humans", default="Ann", help="comma-separated names of the people at the table (default Ann)")
    p.add_argument("--seats", type=int, default=4, help="number of seats, people and AI together (default 4)")
    p.add_argument("--ai", choices=["heuristic", "llm", "local"], default="heuristic",
                   help="kind of the AI seats: heuristic (offline), llm (the configured endpoint), local (a GGUF "
                        "model file in this process, with --model-path)")
    p.add_argument("--model-path", metavar="FILE.gguf", help="the GGUF model file for --ai local")
    p.add_argument("--out", metavar="FILE", help="write the game log here as the game goes (default game.jsonl)")
    p.add_argument("--load", metavar="FILE", help="go on with a saved game (its log keeps being written)")
    p.add_argument("--force", action="store_true",
                   help="let --out overwrite a file that is already there (what it held is lost)")
    p.add_argument("--seed", type=int, default=None, help="seed for the dice and the AI players")
    p.add_argument("--premise", default="", help="the game's premise, e.g. 'noir in a drowned city'")
    p.add_argument("--addon", action="append", default=[], metavar="NAME[=VALUE]",
                   help="play a new game under a Universalis add-on (repeatable; `storytable addons` lists them)")
    p.add_argument("--scenes", type=int, default=0, help="stop after this many scenes have ended (0: no limit)")
    p.add_argument("--game", default="universalis", choices=["universalis", "fubar", "paganini", "vele"],
                   help="the game (default universalis); fubar, paganini and vele seat one person (--humans NAME)")
    p.add_argument("--role", choices=["player", "gm"], default="player",
                   help="--game fubar/paganini: the person's seat is a player's or the Game Master's")
    p.add_argument("--dice", choices=["virtual", "physical"], default="virtual",
                   help="--game fubar/paganini/vele: physical = roll real dice and type the faces in")


def _names(humans: list[str], seats: int) -> list[str]:
    from agents.simulation import NAMES

    out = list(humans)
    for n in NAMES:
        if len(out) >= seats:
            break
        if n not in out:
            out.append(n)
    return out


def make_table(args: argparse.Namespace):
    """A new table, or the loaded one with people and AI seated as asked."""
    from agents.seating import SeatSpec, make_seats
    from agents.table import Table
    from app.cli import UserError
    from engine.core.dice import SeededDice

    humans = [h.strip() for h in (args.humans or "").split(",") if h.strip()]
    from app.commands.simulate import ai_players
    ai, settings, chat_model = ai_players(args)
    seed = args.seed if args.seed is not None else 0
    force = bool(getattr(args, "force", False))
    if args.load and getattr(args, "addon", None):
        raise UserError("--addon sets up a new game; a saved game plays under the add-ons its log was started with")
    if args.load:
        path = Path(args.load)
        if not path.exists():
            raise UserError(f"no saved game at {path}")
        out = Path(args.out) if args.out else path
        same = out.resolve() == path.resolve()
        if not same and out.exists() and not force:
            raise UserError(f"{out} already exists and a saved game is never overwritten: leave out --out to go on "
                            f"in {path}, choose another --out, or add --force to overwrite {out}")

        def seats_factory(config: dict) -> list:
            names = config.get("players") or []
            unknown = [h for h in humans if h not in names]
            if unknown:
                raise UserError(f"{', '.join(unknown)} is not at this table; its players are {', '.join(names)}")
            specs = [SeatSpec(n, "human" if n in humans else ai) for n in names]  # type: ignore[arg-type]
            return make_seats(specs, seed=seed, settings=settings, chat_model=chat_model)

        dice = SeededDice(args.seed)
        table = Table.load_file(path, seats_factory=seats_factory, dice=dice, log_path=out, allow_partial=True)
        if not same:
            from agents.storage.logfile import create_log

            create_log(out, table.log_text(), overwrite=force)
        if table.damage is not None:
            err = table.damage
            where = (f"{path} itself is never changed: when the game goes on it is kept as "
                     f"{kept_name(path)} and the game continues in a new {path}" if same
                     else f"{path} is left as it is; the game goes on in {out}")
            print(f"warning: {path} is damaged at line {err.line} ({err.reason}). The {err.valid_records} actions "
                  f"before that line are loaded; {where}.", file=sys.stderr)
        return table
    if not humans:
        raise UserError("name at least one person with --humans (or use `storytable simulate` for an all-AI game)")
    if len(set(humans)) != len(humans):
        raise UserError("two people have the same name")
    if args.seats < len(humans) or not 2 <= args.seats <= 12:
        raise UserError(f"--seats must be 2..12 and at least the number of people ({len(humans)})")
    out = Path(args.out or "game.jsonl")
    refuse_existing(out, force)
    names = _names(humans, args.seats)
    addons = None
    if getattr(args, "addon", None):
        from engine.universalis.addon_registry import addons_from_args
        addons = addons_from_args(args.addon, names)
    specs = [SeatSpec(n, "human" if n in humans else ai) for n in names]  # type: ignore[arg-type]
    return Table.new(make_seats(specs, seed=seed, settings=settings, chat_model=chat_model), dice=SeededDice(args.seed),
                     log_path=out,
                     premise=args.premise, addons=addons)


def kept_name(path: Path) -> Path:
    from agents.storage.logfile import kept_name as name

    return name(path)


def refuse_existing(out: Path, force: bool) -> None:
    """A new game's log never replaces a file that is there, unless the person said --force."""
    from app.cli import UserError

    if out.exists() and not force:
        raise UserError(f"{out} already exists and a saved game is never overwritten: go on with it with "
                        f"`storytable play --load {out}`, choose another --out, or add --force to overwrite it")


# -- what a person sees ------------------------------------------------------------------------------
def situation(table, name: str) -> list[str]:
    """The scene, the cast with Traits and controllers, the coins, any open Complication."""
    from engine.universalis.components import importance
    from engine.universalis.decisions import pending

    s = table.state
    lines = []
    coins = ", ".join(f"{p.name} {p.wealth}" + (f" (+{p.stake} stake)" if p.stake else "") for p in s.players)
    lines.append(f"Coins: {coins}")
    if s.tenets:
        lines.append("Tenets: " + "; ".join(t.text for t in s.tenets if not t.removed))
    sc = s.scene()
    if sc is not None and s.phase == "scene":
        loc = s.components[sc.location].label if sc.location else "(no location yet)"
        lines.append(f"Scene {sc.number}, framed by {sc.framer}: {loc}, {sc.time}")
        for cid in sc.present:
            c = s.components[cid]
            traits = ", ".join(f"{t.text} [{t.id}]" for t in c.live_traits())
            lines.append(f"  {c.label} [{c.id}] - controlled by {s.controller(cid) or 'nobody'}, "
                         f"Importance {importance(s, cid)}: {traits}")
    if s.complication is not None:
        comp = s.complication
        from engine.universalis.addon_own_pools import side_label  # Own Pool per Participant (UA-OWN-1)
        sides = {p.key: side_label(s, comp, p) for p in comp.pools}
        pools = ", ".join(f"{'Complication' if p.key == 'C' else p.key} ({p.owner}"
                          f"{', ' + sides[p.key] if sides[p.key] else ''}) {p.size} dice" for p in comp.pools)
        lines.append(f"Complication: {comp.source} - pools: {pools}")
        if s.suspended:  # Nested Complications (UA-NEST-1): the ones it interrupted, waiting
            from engine.universalis.addon_nested import describe
            lines += [f"  {x}" for x in describe(s)]
    pend = pending(s)
    note = f" - {pend.note}" if pend.note else ""
    from app.ui.words import PENDING_WORDS

    lines.append(f"Waiting for {', '.join(pend.players)} ({PENDING_WORDS.get(pend.kind, pend.kind)}){note}")
    return lines


def component_list(table) -> list[str]:
    s = table.state
    return [f"    {c.id}: {c.label} ({c.kind}{', eliminated' if c.eliminated else ''})" for c in s.components.values()]


# -- asking for one action ----------------------------------------------------------------------------
def _field_hint(name: str, ann: Any) -> tuple[str, list[str] | None]:
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is typing.Literal:
        return "one of " + "/".join(map(str, args)), [str(a) for a in args]
    inner = [a for a in args if a is not type(None)]
    if inner and typing.get_origin(inner[0]) is typing.Literal:
        vals = typing.get_args(inner[0])
        return "one of " + "/".join(map(str, vals)) + ", or empty", [str(a) for a in vals]
    if ann is bool:
        return "y/n", None
    if origin is list and args == (int,):  # Split Allocation's counts (UA-MT-4)
        return "numbers separated by spaces", None
    if ann is int or int in args:
        return "a number", None
    return "words" if name in ("text", "line", "reason", "role", "alternative", "new_option") else "", None


def _component(table, raw: str) -> str | None:
    """A component typed by its id or by its name (any case); None if none matches."""
    comps = table.state.components
    if raw in comps:
        return raw
    by_name = [c.id for c in comps.values() if c.label.lower() == raw.lower()]
    return by_name[0] if len(by_name) == 1 else None


def ask_action(table, name: str, type_name: str, ask: InputFn, say: OutputFn) -> dict | None:
    """Ask for the fields of one action type in the book's words; None if the person types q at
    a field (back to the menu). Where a location is asked, a new place's name creates it."""
    from app.ui.words import field_label
    from engine.universalis.actions import ACTION_TYPES

    model = ACTION_TYPES[type_name]
    data: dict[str, Any] = {"type": type_name, "player": name}
    shown_components = False
    new_place = False
    for field, info in model.model_fields.items():
        if field in ("type", "player"):
            continue
        if type_name == "establish_location" and (
                (field in ("new_role", "return_to_scene") and ("location" in data or new_place))
                or (field == "proper_name" and "location" in data)):
            continue  # the location was named (or a new place typed): no other place to ask for
        if field in COMPONENT_FIELDS and not shown_components and table.state.components:
            say("  components:")
            for line in component_list(table):
                say(line)
            shown_components = True
        hint, choices = _field_hint(field, info.annotation)
        if field in COMPONENT_FIELDS:
            hint = "its name from the list" + (", or a new place" if field == "location" else "")
        required = info.is_required()
        default = None if required else info.get_default(call_default_factory=True)
        desc = f" - {info.description}" if info.description else ""
        label = "the location" if field == "location" else field_label(type_name, field)
        while True:
            shown = "" if default in (None, "") else f" [{default}]"
            raw = ask(f"  {label} ({hint}{desc}){shown}: " if hint or desc else f"  {label}{shown}: ").strip()
            if raw == "q":
                return None
            if raw == "":
                if required:
                    say(f"  {label}: needed.")
                    continue
                break
            try:
                value: Any = raw
                if field in COMPONENT_FIELDS:
                    found = _component(table, raw)
                    if found is None and type_name == "establish_location" and field == "location":
                        data["new_role"] = raw  # a new place: establishing it creates it (U-FRAME-1)
                        new_place = True
                        break
                    if found is None:
                        say(f"  there is no component {raw!r}; type a name from the list")
                        continue
                    value = found
                elif info.annotation is bool or (hint == "y/n"):
                    value = raw.lower() in ("y", "yes", "true", "1")
                elif hint.startswith("a number"):
                    value = int(raw)
                elif hint.startswith("numbers"):
                    value = [int(x) for x in raw.replace(",", " ").split()]
                if choices and str(value) not in choices:
                    say(f"  choose one of {', '.join(choices)}")
                    continue
            except ValueError:
                say("  that is not a number")
                continue
            data[field] = value
            break
    return data


def human_turn(table, name: str, ask: InputFn, say: OutputFn) -> bool:
    """One decision by a person. Returns True when an action was applied."""
    from pydantic import ValidationError

    from app.ui.words import action_label
    from engine.core.errors import RuleViolation
    from engine.universalis.decisions import legal_options

    from engine.universalis import actions as A
    from engine.universalis.decisions import pending

    opts = legal_options(table.state, name)
    pend = pending(table.state)
    reaction = pend.kind == "reaction"
    if reaction:
        # reaction windows come after every paid statement: one compact line, Enter lets it stand
        menu = ", ".join(f"{i} {action_label(o.type).lower()}" for i, o in enumerate(opts, 1) if o.type != "pass")
        say(f"{pend.note}  -- {name}, react? ({menu}; s shows the table)")
    else:
        say("")
        for line in situation(table, name):
            say(line)
        say(f"{name}, your choice:")
        for i, o in enumerate(opts, 1):
            note = f" - {o.note}" if o.note else ""
            say(f"  {i}. {action_label(o.type)} (cost {o.cost}){note}")
    raw = ask(f"{name}> " if not reaction else f"{name} (Enter = pass)> ").strip().lower()
    if raw in ("q", "quit", "exit"):
        raise Quit()
    if raw == "" and reaction:
        table.submit(A.Pass(player=name), {"decided_by": "human"})
        return True
    if raw in ("h", "help", "?"):
        say(HELP_TEXT)
        return False
    if raw in ("s", ""):
        if reaction:
            for line in situation(table, name):
                say(line)
            for i, o in enumerate(opts, 1):
                say(f"  {i}. {action_label(o.type)} (cost {o.cost})")
        return False
    if raw in ("x", "end session"):
        why = table.check(A.EndSession(player=name))
        if why is not None:
            say(f"  refused: {why}")
            return False
        for e in table.submit(A.EndSession(player=name), {"decided_by": "human"}):
            say("  " + e.line())
        raise Quit()
    if raw == "t":
        for e in table.transcript()[-15:]:
            say("  " + e.line())
        return False
    if raw == "u":
        before = len(table.records)
        table.undo_to_human()
        say(f"  undone {before - len(table.records)} actions" if len(table.records) < before else "  nothing to undo")
        return False
    if not raw.isdigit() or not 1 <= int(raw) <= len(opts):
        say(f"  type a number from 1 to {len(opts)}, or h for help")
        return False
    data = ask_action(table, name, opts[int(raw) - 1].type, ask, say)
    if data is None:
        return False
    try:
        events = table.submit(data, {"decided_by": "human"})
    except RuleViolation as exc:
        say(f"  refused: {exc}")
        return False
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        say(f"  refused: {problems}")
        return False
    for e in events:
        if e.kind not in ("reaction", "bid_placed"):
            say("  " + e.line())
    return True


def play_loop(table, ask: InputFn, say: OutputFn, scenes: int = 0, max_ai_steps: int = 100_000) -> int:
    """Run AI seats and the dice until a person is needed, ask that person, repeat. Ends on q or EOF."""
    shown = len(table.events)
    try:
        while True:
            if scenes and table.state.scenes_ended >= scenes:
                say(f"{scenes} scenes have ended.")
                break
            stop = (lambda t: t.state.scenes_ended >= scenes) if scenes else None
            res = table.run(stop=stop, max_steps=max_ai_steps)
            for e in table.events[shown:]:
                if e.kind not in ("reaction", "bid_placed", "turn"):
                    say(e.line())
            shown = len(table.events)
            if res.acted and not res.waiting_for:
                if scenes and table.state.scenes_ended >= scenes:
                    continue
                say("the AI players ran for a long time without needing you; stopping here.")
                break
            if not res.waiting_for:
                if scenes and table.state.scenes_ended >= scenes:
                    continue
                break
            name = res.waiting_for[0]
            human_turn(table, name, ask, say)
            shown = len(table.events)
    except (Quit, EOFError):
        say("")
    if getattr(table, "kept", None) is not None:
        say(f"The damaged log is kept as it was in {table.kept}.")
    if table.log_path is not None:
        say(f"The game is saved in {table.log_path}; go on with: storytable play --load {table.log_path}")
    return 0


def run(args: argparse.Namespace) -> int:
    if getattr(args, "game", "universalis") != "universalis":
        from app.commands import play_game

        return play_game.run(args)
    table = make_table(args)
    humans = [s.name for s in table.seats.values() if s.is_human]
    ais = [s.name for s in table.seats.values() if not s.is_human]
    print(f"At the table: people {', '.join(humans) or 'none'}; AI {', '.join(ais) or 'none'}. Type h for help.")

    def ask(prompt: str) -> str:
        line = input(prompt)
        return line

    return play_loop(table, ask, lambda line: print(line, flush=True), scenes=args.scenes)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(argparse.Namespace()))
