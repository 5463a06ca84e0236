"""Losing Challenge Bids (UA-LOSEBID-1, L2026-2032) and Using Challenge Bids (UA-USEBID-1, L2034-2038)
in play: the two hooks rules.py calls when a Challenge is conceded during its bidding or lost by the
challenged player. Both return at once when their add-on is off, so the core Challenge is unchanged.
Returned coins go through `ledger.refund`: the Bank gives back part of what it was paid (U-ECO-2).
"""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis.addon_complications import refuse
from engine.universalis.addon_scenes import LOSEBID, concede_refund, reuse_bid
from engine.universalis.ledger import coins, refund


def concedes_in_bidding(c) -> bool:
    """True when this action is a concession the Losing Challenge Bids add-on handles."""
    s = c.s
    return (isinstance(c.a, A.ConcedeChallenge) and s.config.addons.challenge_concede_refund
            and s.challenge is not None and s.challenge.stage == "bidding" and s.fine is None)


def concede_in_bidding(c) -> None:
    """UA-LOSEBID-1: during the bidding, the challenger or the challenged player concedes; his side
    loses and his own bids on it come back from the Bank (supporters' too if the table says so)."""
    from engine.universalis.rules import challenge_outcome, effective_totals  # rules imports us lazily
    s, a = c.s, c.a
    ch = s.challenge
    if a.player not in (ch.challenger, ch.challenged):
        raise refuse("UA-LOSEBID-1", LOSEBID, f"only {ch.challenger} or {ch.challenged}, the two parties, may concede")
    mine = 0 if a.player == ch.challenged else 1
    back = concede_refund(ch.bids, a.player, mine, s.config.addons.concede_refund_supporters)
    if mine == 0:
        totals = effective_totals(ch)
        winner = max(range(1, len(totals)), key=lambda i: (totals[i], -i))
    else:
        winner = 0
    c.emit("challenge_conceded", f"concedes the Challenge and recovers {coins(back[a.player])} of his bids.",
           refunded=back)
    challenge_outcome(c, winner)
    for player, amount in back.items():
        refund(c.s, player, amount, to_stake=0)


def reuse_losers_bid(c, ch, actor: str, cost: int) -> None:
    """UA-USEBID-1: the challenged player lost: what he bid for his own statement pays for the change
    that replaced it (`cost` coins); any surplus stays with the Bank."""
    if not c.s.config.addons.challenge_loser_bid_reuse or cost <= 0:
        return
    own = sum(n for p, opt, n in ch.bids if p == actor and opt == 0)
    used, _lost, _owed = reuse_bid(own, cost)
    if used:
        refund(c.s, actor, used, to_stake=0)
        c.emit("challenge_bid_reused", f"pays {coins(used)} of the change with his Challenge bid.", player=actor,
               reused=used)
