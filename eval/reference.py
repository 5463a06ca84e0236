"""A minimal reference: the arithmetic of a recorded game with plain ints, and nothing else.

Why: the engine's speed means little alone. Replaying the same game's coin movements and dice
(pool sizes, successes, ties and Edge dice, bonus coins) with plain ints gives the floor any
implementation must pay; engine time over reference time is the engine's overhead (validation,
pydantic models, copies, events).

`extract_tape(header, records)` turns a recorded log into a flat list of operations (it uses the
engine once, untimed, to learn each action's ledger movements); `run_tape(tape, seats)` does the
arithmetic. Bonus coins are *not* taken from the engine: the reference computes them from the
dice faces (U-COMP-9), applies cancellations, and credits them when the Complication ends, so its
final coins agreeing with the engine's is a real cross-check.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.log import LogRecord
from engine.universalis.replay import game_from_header
from engine.universalis.rules import apply

# operation codes
COIN, START, POOL, ROLL, CANCEL, CREDIT, SCENE_END = range(7)
SUCCESS_MAX = 5  # a d10 face of 5 or less is a Success (U-COMP-7)


def _ledger(state) -> list[tuple[int, int]]:
    """Per seat: coins in other than bonus (start, refreshment, compensation, refunds) and coins paid."""
    return [(p.ledger.start + p.ledger.refreshments + p.ledger.compensation + p.ledger.refunds, p.ledger.paid)
            for p in state.players]


def extract_tape(header: dict, records: list[LogRecord]) -> tuple[list[str], list[tuple], Any]:
    """The operations of a recorded game, and its seats; also returns the engine's final state."""
    state = game_from_header(header)
    seats = list(state.seat_names)
    tape: list[tuple] = [(COIN, i, coins_in, paid) for i, (coins_in, paid) in enumerate(_ledger(state))]
    before = _ledger(state)
    for rec in records:
        state, events = apply(state, rec.action)
        act = rec.action
        kind = act.get("type")
        for e in events:
            if e.kind == "complication":
                tape.append((START, seats.index(e.player)))
            elif e.kind == "obstacle":
                tape.append((POOL, "C", int(e.data.get("dice", 0))))
        if kind == "draw_trait":
            tape.append((POOL, act["pool"], -1 if act.get("remove") else 1))
        elif kind == "buy_die":
            n = int(act.get("count", 1))
            tape.append((POOL, act["pool"], -n if act.get("remove") else n))
        elif kind == "roll":
            tape.append((ROLL, {k: tuple(10 if f == 0 else int(f) for f in v) for k, v in act["faces"].items()}))
        elif kind == "cancel_bonus":
            tape.append((CANCEL, act["pool"], int(act["coins"])))
        after = _ledger(state)
        for i, ((in0, paid0), (in1, paid1)) in enumerate(zip(before, after)):
            if in1 != in0 or paid1 != paid0:
                tape.append((COIN, i, in1 - in0, paid1 - paid0))
        before = after
        for e in events:
            if e.kind == "complication_end":
                tape.append((CREDIT,))
            elif e.kind == "end_scene":
                tape.append((SCENE_END,))
    return seats, tape, state


@dataclass
class RefResult:
    """What the reference computed: coins per seat, each roll's outcome, wealth after each scene."""

    coins: list[int]
    rolls: list[dict[str, Any]] = field(default_factory=list)
    scene_coins: list[list[int]] = field(default_factory=list)
    pool_mismatches: int = 0


def bonus_for(dice: int, faces: tuple[int, ...], won: bool) -> int:
    """U-COMP-9: a winner earns his Success faces plus his failed Edge faces; a loser 1 per die plus Edge faces."""
    if won:
        return sum(f for f in faces if f <= SUCCESS_MAX) + sum(f for f in faces[dice:] if f > SUCCESS_MAX)
    return len(faces) + sum(faces[dice:])


def run_tape(seats: list[str], tape: list[tuple], keep_rolls: bool = True) -> RefResult:
    """Do the arithmetic of one game: coin ledger, dice pools, rolls, ties, bonus coins."""
    n = len(seats)
    coins = [0] * n
    out = RefResult(coins)
    pools: dict[str, list[int]] = {}  # key -> [dice, edge]
    originator = 0
    slots: dict[str, int] = {}
    for op in tape:
        code = op[0]
        if code == COIN:
            coins[op[1]] += op[2] - op[3]
        elif code == POOL:
            pools.setdefault(op[1], [0, 0])[0] += op[2]
        elif code == START:
            originator = op[1]
            pools = {"C": [0, 0]}
            slots = {}
        elif code == ROLL:
            faces: dict[str, tuple[int, ...]] = op[1]
            succ = {}
            for k, fs in faces.items():
                pool = pools.setdefault(k, [0, 0])
                if len(fs) != pool[0] + pool[1]:
                    out.pool_mismatches += 1
                succ[k] = sum(1 for f in fs if f <= SUCCESS_MAX)
            targets = [k for k in faces if k != "C"]
            t_succ = sum(succ[k] for k in targets)
            c_succ = succ.get("C", 0)
            if t_succ == c_succ:  # a tie: Edge dice by the sum of Success faces (U-COMP-8)
                c_sum = sum(f for f in faces.get("C", ()) if f <= SUCCESS_MAX)
                t_sum = sum(f for k in targets for f in faces[k] if f <= SUCCESS_MAX)
                if c_sum >= t_sum:
                    pools["C"][1] += 1
                if t_sum >= c_sum and targets:
                    best = max(targets, key=lambda k: (succ[k], -((seats.index(k) - originator - 1) % n)))
                    pools[best][1] += 1
                continue
            c_won = c_succ > t_succ
            bonus = {}
            for k, fs in faces.items():
                won = (k == "C") == c_won
                bonus[k] = bonus_for(pools[k][0], fs, won)
            slots = dict(bonus)
            if keep_rolls:
                out.rolls.append({"winner": "C" if c_won else "T", "bonus": bonus,
                                  "dice": {k: len(fs) for k, fs in faces.items()}})
        elif code == CANCEL:
            slots[op[1]] -= op[2]
        elif code == CREDIT:
            for k, v in slots.items():
                coins[originator if k == "C" else seats.index(k)] += v
            slots = {}
            pools = {}
        elif code == SCENE_END:
            out.scene_coins.append(list(coins))
    return out
