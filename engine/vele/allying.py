"""Allies joining a struggle (V-43, L445): the called component's player answers with dice or declines.

Why a module: the ally's limits (one helped component a round, no allying back in a defence, the
forfeit of its next struggle) are tactics.Allies; this handler puts them and the ally's dice into the
struggle in play. Registered on rules.HANDLERS when engine.vele.rules is imported.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele import economy as E
from engine.vele.components import check_temporary_stakes
from engine.vele.rules import Ctx, after_wager, handles, need_phase, player_of, pool_of, take_from_bowl
from engine.vele.state import Stake
from engine.vele.tactics import Allies


@handles(A.JoinAlly)
def join_ally(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "struggle")
    k = s.struggle
    if k is None or k.stage != "ally":
        raise RuleViolation("V-43", "allies join when a side calls for them, before the roll")
    side = k.actor if k.actor.called else k.opponent
    cid = side.called[0]
    ally = s.components[cid]
    if a.component != cid:
        raise RuleViolation("V-43", f"{ally.name} answers the call now")
    if a.player != player_of(s, ally):
        raise RuleViolation("V-43", f"{player_of(s, ally)} decides whether {ally.name} allies")
    side.called.pop(0)
    helped = s.components[side.component]
    if a.decline:
        c.emit("ally_declines", f"{ally.name} does not ally {helped.name}", a.player)
    else:
        book = Allies(helping=dict(s.allying), forfeit=frozenset(s.forfeit))
        book.check_act(cid)
        book = book.join(cid, side.component, defending=side is k.opponent)
        if not a.stakes:
            raise RuleViolation("V-27", "an ally pushes at least one die on one of its traits")
        if len({x.trait for x in a.stakes}) != len(a.stakes):
            raise RuleViolation("V-27", "one die per trait used")
        if any(x.member for x in a.stakes):
            raise RuleViolation("V-45", f"an ally pushes its own traits: {ally.name}'s unit pools its members' traits "
                                        "only in the unit's own struggle")
        if ally.temporary:  # V-22 (L187)
            check_temporary_stakes([x.source for x in a.stakes])
        pool_name = pool_of(s, ally)
        p = s.players[a.player]
        own = list(getattr(p, pool_name))
        bowl_dice: list[int] = []
        for st in a.stakes:
            tr = ally.trait(st.trait)
            if tr is None or not tr.healthy:
                raise RuleViolation("V-27", f"{ally.name} has no healthy trait {st.trait!r}")
            if st.die > tr.size:
                raise RuleViolation("V-27", f"a d{st.die} is larger than the d{tr.size} trait {st.trait}")
            if st.source == "own":
                own = E.remove_dice(own, [st.die], "V-27", f"your {pool_name} pool")
            else:
                bowl_dice.append(st.die)
        sizes = [ally.trait(st.trait).size for st in a.stakes]  # type: ignore[union-attr]
        if 4 in sizes and max(sizes) > 4:
            raise RuleViolation("V-19", "with an applicable d4 trait, higher traits cannot be used")
        take_from_bowl(s, bowl_dice, "V-9")
        setattr(p, pool_name, own)
        side.stakes += [Stake(trait=x.trait, die=x.die, source=x.source, component=cid, player=a.player)
                        for x in a.stakes]
        side.allies.append(cid)
        s.allying = dict(book.helping)
        s.forfeit = sorted(book.forfeit)
        c.emit("ally", f"{ally.name} allies {helped.name}, pushing "
               + ", ".join(f"d{x.die} on {x.trait}" + (" (bowl)" if x.source == "bowl" else "") for x in a.stakes)
               + "; it will do nothing in its next struggle", a.player)
    if not side.called:
        after_wager(k, side)
