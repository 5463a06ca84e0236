"""Nested Complications: which one resolves first (UA-NEST-3, book L2396).

Why an action of its own: the book gives the choice to "the player Originating the new Complication"
and adds "Almost always it will be the new Complication being resolved first" (L2396). The engine
starts every nested one first (addon_nested, a stack); `order_nested` lets its Originator put the
interrupted one first instead (`first="interrupted"`), or back (`first="new"`). A Complication can
become nested by a refused Dialog (whose Originator is the one who opened it) or a Take Over during
an Event (U-COMP-1b), so the choice is not a field on the action that started it but its own free
move. Engine reading (the book does not say when the choice is made): while both are still building
their Pools, neither rolled, nothing waiting to be answered; changing one's mind is allowed then.
The two swap places on the stack: the one put first is active (dice drawn and bought go to it), the
other waits as it stands and resumes when the first is over.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.addon_complications import refuse
from engine.universalis.addon_nested import NEST, on, open_chain
from engine.universalis.rules import Ctx, blocking, handles
from engine.universalis.state import GameState

FIRST_WORDS = {"new": "the new Complication", "interrupted": "the Complication it interrupted"}


def order_problem(s: GameState, player: str, first: str) -> RuleViolation | None:
    """Why `player` may not put `first` first now, or None (UA-NEST-3)."""
    if not on(s):
        return refuse("UA-NEST-3", NEST, "this table plays one Complication at a time (U-COMP-1): "
                                         "there is no nested one to order")
    chain = open_chain(s)
    if len(chain) < 2:
        return refuse("UA-NEST-3", NEST, "no nested Complication is open")
    newest = max(chain, key=lambda x: x.id)
    if newest.id not in (chain[-1].id, chain[-2].id):
        return refuse("UA-NEST-3", NEST, f"Complication {newest.id} has a nested one of its own open")
    if player != newest.originator:
        return refuse("UA-NEST-3", NEST, f"{newest.originator} Originated the new Complication "
                                         f"({newest.id}): the choice of which resolves first is his")
    b = blocking(s)
    if b:
        return RuleViolation(b[0], f"not now: {b[1]}")
    if s.narration is not None or chain[-1].rolls or chain[-2].rolls:
        return refuse("UA-NEST-3", NEST, "the dice have been rolled; the order is chosen while the Pools are built")
    active_is_new = chain[-1].id == newest.id
    if (first == "new") == active_is_new:
        return refuse("UA-NEST-3", NEST, f"{FIRST_WORDS[first]} already resolves first")
    return None


@handles(A.OrderNested)
def order_nested(c: Ctx) -> None:
    """UA-NEST-3: the two Complications on top of the stack swap places."""
    s, a = c.s, c.a
    assert isinstance(a, A.OrderNested)
    problem = order_problem(s, a.player, a.first)
    if problem is not None:
        raise problem
    assert s.complication is not None
    waiting = s.suspended.pop()
    s.suspended.append(s.complication)
    s.complication = waiting
    c.emit("order_nested", f"Complication {waiting.id} (“{waiting.source}”) resolves first; Complication "
           f"{s.suspended[-1].id} waits with its Pools as they stand (Nested Complications, UA-NEST-3).",
           complication=waiting.id, waiting=s.suspended[-1].id, first=a.first)


__all__ = ["order_problem", "order_nested", "FIRST_WORDS"]
