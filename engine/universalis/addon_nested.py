"""Nested Complications (UA-NEST-1, book L2386-2400, digest §2.2): a Complication Originated while
another is still open.

Why a stack: the book lets the new Complication's Originator pick which of the two resolves first
and adds "Almost always it will be the new Complication being resolved first" (L2396). The engine
plays that: the open Complication is suspended (`GameState.suspended`, innermost last) with its
Pools, draw record and committed Components as they stand, the new one becomes `s.complication`
(so every rule that reads the open Complication reads the active one), and when the new one is over,
after its roll and the narration of its bonus coins, the one it interrupted is active again. Several
nested ones can feed one primary (each opened while the primary is active) or form a daisy chain
(each opened inside the last): depth is the stack's length. The new one's Originator may put the one
it interrupted first instead (`order_nested`, UA-NEST-3, addon_nested_order.py): the two swap places.
Why a stack and not the digest's tree: the book has every pair resolved in turn ("One of the
Complications must be resolved first", L2396), so Complications open "simultaneously" are open at
once and resolved one by one; a nested one's bonus coins reach what any waiting one holds
(`reachable`), so two nested ones open at once both feed the primary (tested).

Each Complication keeps its own Pools and its own draw record, so a Trait Drawn in one may be Drawn
again in another (L2398: "separate Complications for purposes of Drawing upon Traits"); dice drawn,
bought or rolled always go to the active one. A nested one starts only while the open one's Pools
are being built: not once its roll is agreed, and not during the narration of its bonus coins (those
are spent on what is tied to it, U-COMP-10). Components committed to a suspended Complication stay
committed (U-COMP-4) until it ends, and count as tied for the nested one's bonus coins, as does the
scene's location: the book's nested Complication "has the capability to impact the Dice Pools of the
other" (L2396), and its bonus coins may buy "a new Trait attached to the scene which can then be Drawn
upon" or "damage or even eliminate Components that could be useful to another Complication" (L2398-
2400); engine reading (`reachable`), the alternative being the core rule alone (only what is tied to
the nested one, U-COMP-10). With No New Traits in Complications the ban holds while any outer
Complication is open (the digest's reading, `freeze_scope="outermost"`); `freeze_scope="own"` lifts
it for the nested one's bonus narration.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.errors import RuleViolation
from engine.universalis.addon_complications import refuse
from engine.universalis.state import Complication, GameState, Window

if TYPE_CHECKING:
    from engine.universalis.rules import Ctx

NEST = "Nested Complications"


def on(s: GameState) -> bool:
    return s.config.addons.nested_complications


def may_nest(s: GameState) -> bool:
    """A new Complication may be Originated now, nested in the open one: its Pools are being built
    (no roll agreed or pending, no narration of its bonus coins)."""
    return (on(s) and s.complication is not None and s.narration is None and not s.roll_pending
            and s.consent is None)


def open_chain(s: GameState) -> list[Complication]:
    """Every open Complication, outermost first; the active one last."""
    return list(s.suspended) + ([s.complication] if s.complication is not None else [])


def obstacle_nests(s: GameState, w: Window) -> bool:
    """An Obstacle (U-COMP-1a) against an Event while a Complication is open starts a nested one: only
    in that one's Pools-building, and not when the Event, or a Take Over answering it (U-COMP-1b), has
    itself started a Complication (then that one is what opposes it, as in the core rule)."""
    before = w.before.complication if w.before is not None else None
    return (may_nest(s) and not w.statement.complication_started and before is not None
            and s.complication is not None and s.complication.id == before.id)


def next_id(s: GameState) -> int:
    """The new Complication's number: one past every number used. Each Complication gets the next
    number and is counted once resolved, so the numbers used are those resolved and those open
    (resolved+1 in a game without nesting, as before)."""
    if not on(s):
        return s.complications_resolved + 1
    return s.complications_resolved + len(open_chain(s)) + 1


def suspend(s: GameState) -> None:
    """Before a new Complication is made: with the add-on on, the open one waits under it (with it off
    the core rule stands: a second one is refused before it gets here, U-COMP-1)."""
    if on(s) and s.complication is not None:
        s.suspended.append(s.complication)
        s.complication = None


def started(c: "Ctx", comp: Complication) -> None:
    """Say so when the new Complication is nested (called once it is made)."""
    s = c.s
    if not s.suspended:
        return
    outer = s.suspended[-1]
    c.emit("complication_nested", f"It is nested in Complication {outer.id} (“{outer.source}”), whose Pools wait, "
           f"as they stand, until this one is resolved (Nested Complications, UA-NEST-1).", player=comp.originator,
           complication=comp.id, parent=outer.id, depth=len(s.suspended))


def resume(c: "Ctx", resume_player: str) -> bool:
    """After a nested Complication's narration: the one it interrupted is active again (UA-NEST-1).

    Returns True when it handled the turn: the player whose turn it was when the nested one was
    called takes it up again, or (a mini scene that ended with both open) the resumed one rolls as
    it stands. False: no Complication was suspended, or the mini scene closes as in the core rule.
    """
    s = c.s
    if not s.suspended:
        return False
    parent = s.suspended.pop()
    s.complication = parent
    c.emit("complication_resumed", f"Complication {parent.id} (“{parent.source}”) resumes: its Pools are open "
           "again (Nested Complications, UA-NEST-1).", player="", complication=parent.id)
    turn = s.turn
    if turn is None:
        return True
    if s.close_mini_after_complication and turn.mini_scene is not None:
        if parent.scene != turn.mini_scene:
            return False
        parent.turn_player_at_call = resume_player
        parent.called_by = parent.called_by or turn.player
        s.roll_pending = True
        c.emit("resolution", "The mini scene has ended with it open: its Pools roll as they stand.")
        return True
    turn.player = resume_player
    return True


def held(s: GameState, cid: str) -> Complication | None:
    """The suspended Complication `cid` is committed to, if any (U-COMP-4 holds until it ends)."""
    for x in reversed(s.suspended):
        if cid in x.targets or cid in x.committed:
            return x
    return None


def reachable(s: GameState, cid: str) -> bool:
    """What a nested Complication's bonus coins may change besides what is tied to it (U-COMP-10), by the
    engine's reading of L2398-2400: what is tied to a Complication it interrupted, and the scene's
    location ("a new Trait attached to the scene which can then be Drawn upon")."""
    if not s.suspended:
        return False
    sc = s.scene()
    return held(s, cid) is not None or (sc is not None and cid == sc.location)


def held_problem(s: GameState, cid: str, doing: str) -> RuleViolation | None:
    """U-COMP-4 for a suspended Complication: its committed Components stay committed until it ends."""
    x = held(s, cid) if s.suspended else None
    if x is None:
        return None
    return refuse("UA-NEST-1", NEST, f"{s.components[cid].label} is committed to Complication {x.id}, which waits "
                                     f"while a nested one is resolved; it stays committed until it ends (U-COMP-4): "
                                     f"no {doing}")


def freeze_open(s: GameState, own_scope: bool) -> bool:
    """No New Traits in Complications: whether a Complication's ban holds now. The active one's lifts
    once its dice are tallied (its narration); an outer one still open keeps it on, by the digest's
    reading (`freeze_scope="outermost"`), unless the table chose each one's own ban (`"own"`)."""
    if s.complication is None:
        return False
    return s.narration is None or (bool(s.suspended) and not own_scope)


def freeze_note(s: GameState, what: str) -> str:
    """The words of a ban that holds only because an outer Complication is still open."""
    if s.narration is None or not s.suspended:
        return what
    return (f"{what} (Complication {s.suspended[-1].id}, which the nested one interrupted, is still open: "
            "Nested Complications, UA-NEST-1)")


# the turn actions that, done to another player's Component, Originate a Complication (U-CTRL-2)
ORIGINATING = ("narrate_event", "add_trait", "remove_trait", "restore_trait", "reduce_importance",
               "restore_importance", "exit_component")


def option_note(s: GameState, kind: str, note: str) -> str:
    """A turn option's note while a nested Complication may start: what doing it to another's Component does."""
    if kind not in ORIGINATING or not may_nest(s):
        return note
    extra = "done to another player's Component it starts a nested Complication, resolved first (UA-NEST-1)"
    return f"{note}; {extra}" if note else extra


def describe(s: GameState) -> list[str]:
    """One line per suspended Complication, outermost first, for a player or a model to read."""
    return [f"Complication {x.id} by {x.originator} (“{x.source}”) waits, suspended, under the active one: "
            + ", ".join(f"pool {p.key} ({p.owner}) {p.dice} dice + {p.edge} edge" for p in x.pools)
            + (f"; drawn there: {', '.join(x.drawn)}" if x.drawn else "") for x in s.suspended]


__all__ = ["NEST", "on", "may_nest", "obstacle_nests", "open_chain", "next_id", "suspend", "started", "resume",
           "held", "reachable", "held_problem", "freeze_open", "freeze_note", "describe", "ORIGINATING",
           "option_note"]
