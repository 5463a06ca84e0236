"""Using Cards as Coins (Jonathan Nichol, book L2040-2052) played through `apply`.

Why a reconciliation and not a card per coin: every coin movement already goes through the ledger
(engine/universalis/ledger.py), and a face-down card's face matters only when it is revealed in a
Pool. So each player's deck is kept as counts: its Bank, its discards, the cards of his in a Pool and
the cards he holds as Wealth (his coins, stake included). After every action the counts follow the
coins (UA-CARDS-1/2/3):
- coins gained are cards drawn from his own Bank; an empty Bank takes the discards reshuffled; when
  both are empty the deck has no card left and the coins stay with the Bank (a deck of 40 cards holds
  at most 40 coins: the add-on's own limit, L2046);
- coins spent are his top Wealth cards discarded beside his Bank;
- a die added to a Pool in the same action as a coin left his Wealth is that card (a bought die,
  L2050); any other die added to a Pool (a Trait's, an Edge die, the Endowment's) is a card from the
  Bank of the player who added it (the Pool's owner for Edge and Obstacle dice);
- at the roll the Pool's cards are revealed: their faces come from outside like dice (the table's
  card source deals them; people at a real table type them); Ace to 5 succeed, valued as on a d10; a
  deck holds four of each card (UA-CARDS-5); on a tie every Pool's cards are discarded and as many
  new ones dealt from the same Banks; after the roll the Pools are discarded, and kept bonus coins are
  drawn from the Bank (L2050).
Engine readings where the book is silent: the discards' faces are not tracked (a revealed card is
dealt again only after a reshuffle, which the counts follow, but faces are dealt from the four of each
card); coins between players are one player's discard and the other's draw (each keeps his own deck);
pools other than Wealth (the Endowment, Plot Pools, the setting pool) stay counted coins.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis.addon_cards import ADDON_COINS, ADDON_DICE, card_face, draw, suit_deck
from engine.universalis.ledger import coins, pay
from engine.universalis.state import CardDeck, GameState

DECK = len(suit_deck(False))  # 40: Ace to 10 in four suits, face cards removed (L2046)


def on(s: GameState) -> bool:
    """Cards as Coins, or Mazza's variant of Cards instead of Dice (UA-CDICE-4, L2440): a face-down Wealth
    stack spent from the top, earned onto the bottom: the same counts, but a Trait's or an Edge die is
    the top card of the shared Trait Deck, not of one's own deck (L2428)."""
    return s.config.addons.currency in ("cards_bank", "cards_stack")


def stack(s: GameState) -> bool:
    return s.config.addons.currency == "cards_stack"


def new_decks(s: GameState) -> None:
    """At setup: each player's shuffled deck, his starting Wealth drawn from it (L2046)."""
    for p in s.players:
        s.extra.cards[p.name] = CardDeck(bank=DECK - p.wealth, held=p.wealth)


def pool_cards(s: GameState) -> dict[str, int]:
    """How many cards of each player's deck lie in the open Complication's Pools, before the roll:
    each die is a card of the player who added it; dice no record names (Edge, Obstacle) are the
    Pool owner's. Once the roll is over (the narration), the Pools it revealed are discarded."""
    comp = s.complication
    out: dict[str, int] = {}
    if comp is None:
        return out
    # after a roll the Pools it revealed are discarded; under Independent Target or Individual Pools
    # (UA-MT-3, UA-MT-5) a Pool whose match is still to come keeps its cards face down
    from engine.universalis.addon_independent import finished_pools
    shown = set(comp.rolls[-1].faces) if s.narration is not None and comp.rolls else set()
    shown |= finished_pools(s, comp)
    shared = stack(s)  # Mazza: Trait and Edge dice are the Trait Deck's, no player's
    for pool in comp.pools:
        if pool.key in shown:
            continue
        added: dict[str, int] = {}
        for ch in comp.changes:
            if ch.pool == pool.key and not (shared and ch.how == "draw"):
                added[ch.by] = added.get(ch.by, 0) + ch.delta
        rest = pool.dice - sum(ch.delta for ch in comp.changes if ch.pool == pool.key)  # Obstacle dice
        added[pool.owner] = added.get(pool.owner, 0) + rest + (0 if shared else pool.edge)
        for who, n in added.items():
            if n < 0:  # a die taken off by someone who added none: it was the owner's card
                added[pool.owner] = added.get(pool.owner, 0) + n
        for who, n in added.items():
            out[who] = out.get(who, 0) + max(0, n)
    return out


def _draw(d: CardDeck, n: int) -> int:
    """Draw up to n cards from the Bank, reshuffling the discards into a new Bank when it runs out (L2048)."""
    if d.bank < n and d.discards:
        d.bank, d.discards, d.reshuffles = d.bank + d.discards, 0, d.reshuffles + 1
    got = min(n, d.bank)
    d.bank -= got
    return got


def reconcile(c) -> None:
    """After every action: each deck's counts follow the coins and the Pools (see the module's docstring)."""
    s = c.s
    if not on(s):
        return
    desired = pool_cards(s)
    hand = ADDON_DICE if stack(s) else ADDON_COINS
    orig = c.orig.complication
    rerolled = (s.complication is not None and orig is not None and s.complication.id == orig.id
                and len(s.complication.rolls) > len(orig.rolls) and s.narration is None)
    for p in s.players:
        d = s.extra.cards.get(p.name)
        d = CardDeck(bank=DECK) if d is None else d.model_copy()  # a newcomer brings his deck (UA-NEW-1)
        if rerolled and d.pool:  # a tie: every Pool's cards are discarded and dealt again (U-COMP-8)
            d.discards += d.pool
            want = d.pool
            d.pool = 0
            d.pool += _draw(d, want)
        held = p.wealth + p.stake
        dh = held - d.held
        dp = desired.get(p.name, 0) - d.pool
        if dp < 0:  # dice taken off, or the Pools discarded after the roll
            d.pool += dp
            d.discards -= dp
            dp = 0
        if dh < 0:  # coins spent: into the Pool when dice were bought with them, else discarded
            into_pool = min(-dh, dp)
            d.pool += into_pool
            d.discards += -dh - into_pool
            d.held = held
            dp -= into_pool
        if dp > 0:  # a Trait's die, an Edge die, the Endowment's: from his Bank
            got = _draw(d, dp)
            if got < dp and getattr(c.a, "type", "") != "roll":
                raise RuleViolation("UA-CARDS-3", f"{hand}: {p.name}'s deck has no card left for a die "
                                                  f"({d.held} are his Wealth, {d.pool} in Pools)")
            if got < dp:  # an Edge die owed at a tie with every card of his out: his top Wealth card (engine choice)
                short = min(dp - got, p.wealth + p.stake)
                s.extra.cards[p.name] = d
                pay(s, p.name, short, "an Edge die's card", rule="UA-CARDS-3", use_bonus=False)
                d.held -= short
                held -= short
                got += short
            d.pool += got
        if held > d.held:  # coins gained: drawn face down from his Bank
            want = held - d.held
            got = _draw(d, want)
            d.held += got
            if got < want:
                lost = want - got
                s.extra.cards[p.name] = d
                pay(s, p.name, lost, "coins with no card left to draw", rule="UA-CARDS-1", use_bonus=False)
                d.held = p.wealth + p.stake
                c.emit("cards_short", f"{p.name}'s deck has no card left to draw: {coins(lost)} stay with the "
                       f"Bank (a deck of {DECK} cards).", player=p.name, lost=lost, rule="UA-CARDS-1")
        s.extra.cards[p.name] = d


def check_roll(s: GameState, faces: dict[str, list[int]]) -> None:
    """UA-CARDS-5: the revealed cards are Ace (1) to 10, and a deck holds four of each: no face shows
    more often than four times the decks that can have cards in the Pools (their players', the Pools'
    owners', and with Mazza's stack the shared Trait Deck)."""
    comp = s.complication
    owners = {p.owner for p in comp.pools if p.size} if comp is not None else set()
    decks = len({n for n, k in pool_cards(s).items() if k > 0} | owners) + (1 if stack(s) else 0) or 1
    seen: dict[int, int] = {}
    for got in faces.values():
        for f in got:
            v = card_face(f)
            if not 1 <= v <= 10:
                raise RuleViolation("UA-CARDS-5", f"{ADDON_COINS}: a card without face cards is Ace (1) to 10, not {f}")
            seen[v] = seen.get(v, 0) + 1
    for v, n in seen.items():
        if n > 4 * decks:
            raise RuleViolation("UA-CARDS-5", f"{ADDON_COINS}: {n} cards of {v} revealed, but the {decks} deck"
                                              f"{'s' if decks > 1 else ''} in these Pools hold {4 * decks}")


def deal(s: GameState, pick) -> dict[str, list[int]]:
    """The table's card source: each Pool's cards revealed, dealt without replacement from a 40-card deck
    (one per Pool owner: the engine does not follow which deck each card came from, only how many);
    `pick(k)` is a chance draw of 1..k (the table's dice source)."""
    from engine.universalis.complications import roll_request

    want = roll_request(s)
    decks: dict[str, list[int]] = {}
    out: dict[str, list[int]] = {}
    comp = s.complication
    assert comp is not None
    for key, n in want.items():
        out[key] = draw(decks.setdefault(comp.pool(key).owner, suit_deck(False)), n, pick)
    return out
