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

Face cards kept (UA-CARDS-4, the book's example Gimmick, L2052): 52-card decks. In a Pool each Jack cancels
a Success, each King is a Success for deciding the winner but earns no coin, each Queen is a free coin and
no Success (complications.py through addon_hooks.successes and bonus_for). A card spent face up from Wealth
(any coin discarded: a price, a bid, a Fine, a coin paid to another player; bought dice excepted: those are
turned over in their Pool; a session's Wealth reset, UA-COIN-2, is no spend) is turned over: the game
waits for its face, dealt like a die face by the table's card source (Roll keys "spent:<player>"). A Jack
makes the player to the right pay the coin, a Queen the player to the left, a King the player across (the
table's `face_card_gimmick` may change who): that player discards his top Wealth card to the spender, who
draws a card for it from his Bank; the spender's face card stays discarded. Readings (the book is silent):
- the neighbour's card pays the coin whatever it shows: it is not turned over for the Gimmick, so a spend
  ends in one step (alternative: it is turned over too and passed on by its own face, round the table);
- a neighbour with no Wealth card (a bid on the table is not Wealth) cannot pay: the spender's face card
  stays his spent coin (alternative: the Bank forgives the coin and the spender draws one anyway).

Nested and Extended Complications (UA-NEST-1, UA-EXT-1..4): a suspended Complication's Pools keep their cards
face down until it resumes and is rolled; an extended one's cards go to its stages (whose first: `_count`),
each stage's discarded once it is rolled. Known approximation (as with Independent Target's waiting Pools): at
a tie every card of a player's in the open Complication's Pools is discarded and as many drawn, the cards of
stages or matches still to come included; the counts stay exact, the split between Bank and discards does not.

Mazza's Wealth stack with face cards kept (UA-CDICE-5, Quirk #1 L2432): 52-card decks, the Trait Deck's too;
the faces matter only where they are revealed, in a Pool, where a Jack, Queen or King never succeeds and a
failed Edge face card counts 10 (as with a hand, addon_cards_hand.py); a coin spent from the stack is played
face up and its face changes nothing, so the counts still follow it.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis.addon_cards import ADDON_COINS, ADDON_DICE, card_face, card_name, draw, face_card_payer, suit_deck
from engine.universalis.addon_complications import FACE_CARDS
from engine.universalis.ledger import coins, pay, pay_player
from engine.universalis.state import CardDeck, GameState

DECK = len(suit_deck(False))  # 40: Ace to 10 in four suits, face cards removed (L2046)
SPENT = "spent:"  # the Roll key of a player's spent cards turned over (UA-CARDS-4): "spent:<player>"
FACES = "Cards as Coins with face cards kept"
STACK_FACES = "Cards instead of Dice (Mazza's Wealth stack) with face cards kept"


def face_gimmick(s: GameState) -> bool:
    """UA-CARDS-4: Cards as Coins keeps its face cards (the table adopted a face-card Gimmick, L2052)."""
    return s.config.addons.currency == "cards_bank" and s.config.addons.face_card_gimmick is not None


def faces_kept(s: GameState) -> bool:
    """52-card decks: Cards as Coins' face-card Gimmick (UA-CARDS-4), or Mazza's Wealth stack with face cards
    kept (UA-CDICE-5, Quirk #1 L2432: J, Q, K are read, and never succeed)."""
    return face_gimmick(s) or (stack(s) and s.config.addons.cards_with_face_cards)


def deck_size(s: GameState) -> int:
    """40 cards, or 52 with face cards kept (UA-CARDS-4, UA-CDICE-5)."""
    return len(suit_deck(faces_kept(s)))


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
        s.extra.cards[p.name] = CardDeck(bank=deck_size(s) - p.wealth, held=p.wealth)


def pool_cards(s: GameState) -> dict[str, int]:
    """How many cards of each player's deck lie in the open Complications' Pools, before the roll:
    each die is a card of the player who added it; dice no record names (Edge, Obstacle) are the
    Pool owner's. Once the roll is over (the narration), the Pools it revealed are discarded. A
    Complication suspended under a nested one (UA-NEST-1) keeps its Pools' cards face down until it
    resumes and is rolled (its Pools wait "as they stand", L2396)."""
    from engine.universalis.addon_independent import finished_pools
    out: dict[str, int] = {}
    for held in s.suspended:  # never rolled since it was suspended: only its finished matches are out
        _count(s, held, finished_pools(s, held), out)
    comp = s.complication
    if comp is None:
        return out
    # after a roll the Pools it revealed are discarded; under Independent Target or Individual Pools
    # (UA-MT-3, UA-MT-5) a Pool whose match is still to come keeps its cards face down
    shown = set(comp.rolls[-1].faces) if s.narration is not None and comp.rolls else set()
    _count(s, comp, shown | finished_pools(s, comp), out)
    return out


def _count(s: GameState, comp, shown: set[str], out: dict[str, int]) -> None:
    """Add to `out` the cards of each player in `comp`'s Pools not yet revealed (not in `shown`).

    Extended Complications (UA-EXT-1..4): a Pool's cards are divided into its sub-pools once it is
    extended; the stages rolled (and the one just rolled, once narrated) are out. Whose cards roll in
    which stage the book does not say (L2418 divides dice); engine reading: a Pool's cards go to its
    stages the Pool owner's first, then the other players' in seating order, the Trait Deck's last (with
    Mazza's stack); alternative: in the order they were added."""
    from engine.universalis.addon_extended import staged
    shared = stack(s)  # Mazza: Trait and Edge dice are the Trait Deck's, no player's
    ext = comp.extension if staged(comp) else None
    for pool in comp.pools:
        if pool.key in shown and ext is None:
            continue
        added: dict[str, int] = {}
        for ch in comp.changes:
            if ch.pool == pool.key and not (shared and ch.how == "draw"):
                added[ch.by] = added.get(ch.by, 0) + ch.delta
        dice = ext.whole.get(pool.key, 0) if ext is not None else pool.dice
        rest = dice - sum(ch.delta for ch in comp.changes if ch.pool == pool.key)  # Obstacle dice
        edge = 0 if shared or pool.key in shown else pool.edge  # an Edge card stays in its stage's sub-pool
        added[pool.owner] = added.get(pool.owner, 0) + rest + edge
        for who, n in added.items():
            if n < 0:  # a die taken off by someone who added none: it was the owner's card
                added[pool.owner] = added.get(pool.owner, 0) + n
        if ext is not None:  # the stages already rolled: the owner's cards first, then by seat
            done = sum(st.get(pool.key, 0) for st in ext.stages[:ext.stage])
            done += ext.stages[ext.stage].get(pool.key, 0) if pool.key in shown else 0
            for who in [pool.owner] + [n for n in s.seat_names if n != pool.owner]:
                take = min(done, max(0, added.get(who, 0)))
                if take:
                    added[who] -= take
                    done -= take
        for who, n in added.items():
            out[who] = out.get(who, 0) + max(0, n)


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
    size = deck_size(s)
    # UA-CARDS-4: cards spent face up are turned over; a session's Wealth reset (UA-COIN-2) spends nothing
    turn_over = face_gimmick(s) and not is_reveal(c.a) and getattr(c.a, "type", "") != "start_session"
    orig = c.orig.complication
    rerolled = (s.complication is not None and orig is not None and s.complication.id == orig.id
                and len(s.complication.rolls) > len(orig.rolls) and s.narration is None)
    for p in s.players:
        d = s.extra.cards.get(p.name)
        d = CardDeck(bank=size) if d is None else d.model_copy()  # a newcomer brings his deck (UA-NEW-1)
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
            if turn_over:
                d.revealing += -dh - into_pool
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
                       f"Bank (a deck of {size} cards).", player=p.name, lost=lost, rule="UA-CARDS-1")
        s.extra.cards[p.name] = d


def check_roll(s: GameState, faces: dict[str, list[int]]) -> None:
    """UA-CARDS-5: the revealed cards are Ace (1) to 10, and a deck holds four of each: no face shows
    more often than four times the decks that can have cards in the Pools (their players', the Pools'
    owners', and with Mazza's stack the shared Trait Deck)."""
    if revealing(s):  # spent cards turned over, not a Pool's (UA-CARDS-4: turn_over reads them)
        return
    comp = s.complication
    owners = {p.owner for p in comp.pools if p.size} if comp is not None else set()
    decks = len({n for n, k in pool_cards(s).items() if k > 0} | owners) + (1 if stack(s) else 0) or 1
    high = 13 if faces_kept(s) else 10
    seen: dict[int, int] = {}
    for got in faces.values():
        for f in got:
            v = card_face(f)
            if not 1 <= v <= high:
                raise RuleViolation("UA-CARDS-5", f"{FACES if face_gimmick(s) else STACK_FACES}: a card is Ace (1) to "
                                                  f"King (13), not {f}" if high == 13
                                    else f"{ADDON_COINS}: a card without face cards is Ace (1) to 10, not {f}")
            seen[v] = seen.get(v, 0) + 1
    for v, n in seen.items():
        if n > 4 * decks:
            raise RuleViolation("UA-CARDS-5", f"{ADDON_COINS}: {n} cards of {v} revealed, but the {decks} deck"
                                              f"{'s' if decks > 1 else ''} in these Pools hold {4 * decks}")


def deal(s: GameState, pick) -> dict[str, list[int]]:
    """The table's card source: each Pool's cards revealed, dealt without replacement from a 40-card deck
    (one per Pool owner: the engine does not follow which deck each card came from, only how many);
    `pick(k)` is a chance draw of 1..k (the table's dice source). With face cards kept (UA-CARDS-4): 52-card
    decks, and spent cards waiting to be turned over come first ("spent:<player>", from his own deck)."""
    from engine.universalis.complications import roll_request

    faces = faces_kept(s)
    due = revealing(s)
    if due:
        return {key: draw(suit_deck(True), n, pick) for key, n in due.items()}
    want = roll_request(s)
    decks: dict[str, list[int]] = {}
    out: dict[str, list[int]] = {}
    comp = s.complication
    assert comp is not None
    for key, n in want.items():
        out[key] = draw(decks.setdefault(comp.pool(key).owner, suit_deck(faces)), n, pick)
    return out


# --- face cards spent (UA-CARDS-4) ---------------------------------------------------------------------
def revealing(s: GameState) -> dict[str, int]:
    """The spent cards waiting to be turned over, by Roll key "spent:<player>" (seating order)."""
    return {SPENT + n: d.revealing for n, d in s.extra.cards.items() if d.revealing}


def is_reveal(a) -> bool:
    """The action turns spent cards over (a Roll of "spent:" keys), not a Pool's roll."""
    faces = getattr(a, "faces", None)
    return getattr(a, "type", "") == "roll" and bool(faces) and all(str(k).startswith(SPENT) for k in faces)


def turn_over(c) -> None:
    """UA-CARDS-4 (L2052): the spent cards are turned over; each Jack, Queen or King makes the player the
    table's Gimmick names pay the spender's coin: his top Wealth card discarded, the spender drawing one for
    it (module docstring: who pays when he has none, and why his card is not turned over in turn)."""
    from engine.universalis.addon_complications import read_face
    s, a = c.s, c.a
    due = revealing(s)
    if set(a.faces) != set(due):
        raise RuleViolation("UA-CARDS-4", f"{FACES}: turn over the spent cards first: "
                            + ", ".join(f"{k} {n}" for k, n in due.items()))
    gimmick = s.config.addons.face_card_gimmick
    said: list[str] = []
    paid: list[dict] = []
    for key, n in due.items():
        name = key[len(SPENT):]
        got = [read_face(f, "cards") for f in a.faces[key]]
        if len(got) != n:
            raise RuleViolation("UA-CARDS-4", f"{FACES}: {name} turns over {n} spent "
                                              f"{'card' if n == 1 else 'cards'}, {len(got)} were given")
        if any(got.count(v) > 4 for v in got):
            raise RuleViolation("UA-CARDS-5", f"{FACES}: {name}'s deck holds four of each card")
        d = s.extra.cards[name].model_copy()
        d.revealing = 0
        s.extra.cards[name] = d
        said.append(f"{name} {' '.join(card_name(x) for x in got)}")
        for card in got:
            if card not in FACE_CARDS:
                continue
            payer = face_card_payer(card, name, s.seat_names, gimmick)
            if payer != name and s.player(payer).wealth >= 1:
                pay_player(s, payer, name, 1, stake_first=False)
                paid.append({"card": card_name(card), "spender": name, "payer": payer})
                said.append(f"{card_name(card)}: {payer} pays {name}'s coin")
            else:
                paid.append({"card": card_name(card), "spender": name, "payer": None})
                said.append(f"{card_name(card)}: {payer} has no coin to pay it, so {name}'s coin stays spent")
    c.emit("cards_spent", "Spent cards turned over: " + "; ".join(said) + ".", player="", paid=paid,
           rule="UA-CARDS-4")


def while_revealing(kind: str):
    """While spent cards wait to be turned over, the game waits for them (a Roll from the card source)."""
    if kind == "roll":
        return turn_over

    def refuse(c) -> None:
        raise RuleViolation("UA-CARDS-4", f"{FACES}: not now: the spent cards are turned over first ("
                            + ", ".join(f"{k[len(SPENT):]} {n}" for k, n in revealing(c.s).items())
                            + "): a face card may make another player pay the coin")
    return refuse


def pending_reveal(s: GameState):
    """The chance decision while spent cards wait to be turned over (decisions.pending)."""
    from engine.universalis.decisions import Pending

    due = revealing(s)
    return Pending("roll", ("dice",), dice=dict(due),
                   note="spent cards are turned over: " + ", ".join(f"{k[len(SPENT):]} {n}" for k, n in due.items()))
