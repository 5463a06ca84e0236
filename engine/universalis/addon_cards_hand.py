"""Using Cards Instead of Dice (Jonathan Nichol, book L2424-2434) played through `apply`.

Why its own module: here a coin is a card in hand whose face its owner knows, so faces must be known
when cards are drawn, not only when a Pool is revealed (Cards as Coins, addon_cards_play.py). Each
player's deck (40 cards, face cards removed) and hand, and the shared Trait Deck, follow the coins after
every action (UA-CDICE-1..3):
- coins gained are cards owed from one's own deck; the game waits for them to be dealt: the faces come
  from outside like dice (the table's card source deals them without replacement from what is left of
  the deck; people at a real table type the cards they drew); a deck is reshuffled from its discards
  only when it runs out, and when deck and discards are both empty the coins stay with the Bank;
  kept bonus coins are drawn the same way (the digest's reading, L2428);
- spending a coin plays a card of the owner's choice face up to his discards: the engine plays the
  highest card in hand, as the book advises (L2430 "play the higher cards for traits and such but
  save the lower cards for complications");
- a bought die is a card chosen from the hand, played face down: the engine plays the best die in
  hand, the highest success (5, then 4...), else the lowest card (engine choice for the choice);
- every other die (a Trait's, an Edge die, the Endowment's) is the top card of the shared Trait Deck,
  revealed at the roll (L2428 "draw the top card from the Trait Deck");
- at the roll the Pools show their played cards and the Trait Deck's (dealt from its 40 cards at each
  roll: the engine does not follow which the deck used since its last shuffle); Ace to 5 succeed; on a tie
  every Pool's cards are discarded and as many dealt again from the Trait Deck; after the roll the
  played cards go to their owners' discards.
Face cards kept (Quirk #1, L2432; UA-CDICE-5): 52-card decks, the Trait Deck's too; a Jack, Queen or King
never succeeds (Ace to 5 of 13 do), and where a card's value counts (a failed Edge card's bonus, U-COMP-9)
a face card counts 10, as high as a d10 shows (engine reading: the book reads cards "exactly as a number
rolled on a d10", L2050, and a d10 shows nothing above 10). Kept bonus cards from the Trait Deck (UA-CDICE-6, the
digest's alternative reading): owed as "trait:<player>", dealt from the Trait Deck's cards no hand holds,
tracked in the hand as `trait_cards` and discarded back to the Trait Deck. Mazza's Wealth stack is played in
addon_cards_play.py.
Nested Complications (UA-NEST-1): the cards played into a Complication suspended under a nested one wait under
its number ("#<id>:<Pool key>", `park`), since the nested one's Pools bear the same names; they are its Pools'
cards again when it resumes. Extended Complications (UA-EXT-2/4): once extended, a Pool's chosen cards go to
its earliest stages (`stage_cards`), those of later stages waiting as "@<stage>:<Pool key>" until their stage.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis.addon_cards import ADDON_DICE, card_face, card_name, draw, suit_deck
from engine.universalis.ledger import coins, pay
from engine.universalis.state import GameState, HandState

DEAL = "deal:"  # the Roll key of the cards a player draws: "deal:<player>"
TRAIT = "trait:"  # ... and of the kept bonus cards he draws from the Trait Deck (UA-CDICE-6): "trait:<player>"
BANK_DECK = "Cards instead of Dice, bonus cards from the Trait Deck"
FACES = "Cards instead of Dice with face cards kept"


def on(s: GameState) -> bool:
    return s.config.addons.currency == "cards_hand"


def face_cards(s: GameState) -> bool:
    """UA-CDICE-5 (Quirk #1, L2432): the decks keep their Jacks, Queens and Kings (52 cards; Ace to 5 of 13
    succeed, about 38%)."""
    return s.config.addons.cards_with_face_cards


def top(s: GameState) -> int:
    """The highest card in the decks: 10, or King (13) with face cards kept."""
    return 13 if face_cards(s) else 10


def new_hands(s: GameState) -> None:
    """At setup each player shuffles his deck and draws his starting Wealth into his hand (L2428)."""
    for p in s.players:
        s.extra.hands[p.name] = HandState(owed=min(p.wealth, len(suit_deck(face_cards(s)))))


def owed(s: GameState) -> dict[str, int]:
    """The cards each player is owed, from his deck and the Trait Deck together."""
    return {n: h.owed + h.trait_owed for n, h in s.extra.hands.items() if h.owed or h.trait_owed}


def owed_keys(s: GameState) -> dict[str, int]:
    """The cards owed by Roll key: "deal:<player>" from his own deck, "trait:<player>" from the Trait Deck."""
    out: dict[str, int] = {}
    for n, h in s.extra.hands.items():  # seating order: the order the card source deals in
        if h.owed:
            out[DEAL + n] = h.owed
        if h.trait_owed:
            out[TRAIT + n] = h.trait_owed
    return out


def bank_deck(s: GameState) -> bool:
    """UA-CDICE-6 (the digest's alternative reading, L2428/L2432 "Drawing from the Bank Deck"): kept bonus
    cards are drawn from the shared Trait Deck into the hand, not from one's own deck."""
    return s.config.addons.bonus_cards_from == "bank_deck"


def out_of_deck(h: HandState) -> dict[int, int]:
    """Faces of this deck that are not in it now: the hand, the discards, the cards played in Pools, less the
    Trait Deck's cards among them."""
    seen: dict[int, int] = {}
    for f in h.hand + h.discards + [x for cards in h.played.values() for x in cards]:
        seen[f] = seen.get(f, 0) + 1
    for f in h.trait_cards:
        seen[f] -= 1
    return seen


def discard(h: HandState, card: int) -> None:
    """A card leaves the hand or a Pool face up: a Trait Deck card back to the Trait Deck's discards
    (UA-CDICE-6, L2428 "Be sure to discard cards into their appropriate discard pile"), else to his own.
    Of two cards of one face, the Trait Deck's goes first (engine choice: the faces are the same)."""
    if card in h.trait_cards:
        h.trait_cards.remove(card)
    else:
        h.discards.append(card)


def trait_left(s: GameState) -> list[int]:
    """The Trait Deck's faces not held in any hand (what a kept bonus card is drawn from)."""
    left = suit_deck(face_cards(s))
    for h in s.extra.hands.values():
        for f in h.trait_cards:
            if f in left:
                left.remove(f)
    return left


def left_in_deck(h: HandState, high: int = 10) -> list[int]:
    """The faces still in the deck of cards Ace to `high` (what a deal draws from, in no particular order)."""
    seen = out_of_deck(h)
    out: list[int] = []
    for v in range(1, high + 1):
        out += [v] * max(0, 4 - seen.get(v, 0))
    return out


def best_die(hand: list[int]) -> int:
    succ = [c for c in hand if c <= 5]
    return max(succ) if succ else min(hand)


def pool_dice_bought(c, player: str) -> dict[str, int]:
    """Dice `player` bought this action, by Pool (a new Complication's Obstacle dice included)."""
    s, o = c.s, c.orig
    comp, old = s.complication, o.complication
    out: dict[str, int] = {}
    if comp is None or s.narration is not None:
        return out
    start = len(old.changes) if old is not None and old.id == comp.id else 0
    for ch in comp.changes[start:]:
        if ch.by == player and ch.how == "buy" and ch.delta > 0:
            out[ch.pool] = out.get(ch.pool, 0) + ch.delta
    if (old is None or old.id != comp.id) and comp.originator == player:  # Obstacle dice (U-COMP-1a)
        extra = comp.pool("C").dice - sum(ch.delta for ch in comp.changes if ch.pool == "C")
        if extra > 0:
            out["C"] = out.get("C", 0) + extra
    return out


def copy_hand(h: HandState) -> HandState:
    """A copy to change (the state before the action shares the old one): its lists copied, no deepcopy."""
    return h.model_copy(update={"hand": list(h.hand), "discards": list(h.discards), "trait_cards": list(h.trait_cards),
                                "played": {k: list(v) for k, v in h.played.items()}})


def revealed_pools(s: GameState, rolled: bool) -> set[str] | None:
    """The Pools whose played cards go to the discards now: every Pool once the Complication is over (None);
    after a roll that ended in a narration or a tie, the Pools that roll revealed. Under Independent Target or
    Individual Pools (UA-MT-3, UA-MT-5) a Target Pool whose match is still to come keeps its chosen cards face
    down for its own match; the Complication side's cards were revealed, and its next match is a reroll: cards
    dealt from the Trait Deck, as at a tie (engine reading)."""
    comp = s.complication
    if comp is None:
        return None
    if not rolled or not comp.rolls:
        return set()
    return set(comp.rolls[-1].faces)


def kept_bonus(c, player: str) -> int:
    """The bonus coins `player` kept as Wealth in this action (his narration ended, U-COMP-11)."""
    a = c.a
    if getattr(a, "type", "") != "end_narration" or getattr(a, "player", "") != player:
        return 0
    before = next((p for p in c.orig.players if p.name == player), None)
    return c.s.player(player).ledger.bonus - (before.ledger.bonus if before is not None else 0)


WAITING = "#"  # the played cards of a Complication suspended under a nested one: "#<id>:<Pool key>" (UA-NEST-1)


def park(s: GameState, old, new) -> None:
    """UA-NEST-1 (L2396): the cards played into a Complication suspended under a nested one wait face down
    under its number, so the nested one's Pools (named C and by player as well) never take them; when it
    resumes they are its Pools' cards again."""
    gone = old is not None and (new is None or new.id != old.id) and any(x.id == old.id for x in s.suspended)
    back = new is not None and (old is None or old.id != new.id)
    if not (gone or back):
        return
    tag = f"{WAITING}{new.id}:" if back else ""
    for name, h in list(s.extra.hands.items()):
        moves = {k: f"{WAITING}{old.id}:{k}" for k in h.played if gone and not k.startswith(WAITING)}
        moves.update({k: k[len(tag):] for k in h.played if back and k.startswith(tag)})
        if moves:
            h = copy_hand(h)
            h.played = {moves.get(k, k): v for k, v in h.played.items()}
            s.extra.hands[name] = h


STAGED = "@"  # the played cards of a later stage of an Extended Complication: "@<stage>:<Pool key>" (UA-EXT-4)


def _rename(s: GameState, moves) -> None:
    """Rename played-card keys in every hand (`moves(key)` gives the new key or None), copying what changes."""
    for name, h in list(s.extra.hands.items()):
        new = {k: moves(k) for k in h.played}
        if any(v is not None for v in new.values()):
            h = copy_hand(h)
            h.played = {(new[k] or k): v for k, v in h.played.items()}
            s.extra.hands[name] = h


def stage_cards(s: GameState, old, new) -> None:
    """UA-EXT-2/4 (L2418-2420): once a Complication is extended, each Pool's chosen cards go to its stages, the
    earliest first, the hands in seating order (engine reading: the book divides dice, not whose cards;
    alternative: the latest first), those of later stages waiting as "@<stage>:<key>"; each comes out when its
    stage is rolled next."""
    from engine.universalis.addon_extended import staged
    if new is None or not staged(new):
        return
    if old is None or old.id != new.id:  # the extension happens on the open Complication, never on another
        return
    ext = new.extension
    was = old.extension if staged(old) else None
    if was is not None:
        if ext.stage > was.stage:
            tag = f"{STAGED}{ext.stage}:"
            _rename(s, lambda k: k[len(tag):] if k.startswith(tag) else None)
        return
    for key in ext.whole:
        room = [st.get(key, 0) for st in ext.stages]
        stage = 0
        for name in list(s.extra.hands):
            h = s.extra.hands[name]
            cards = h.played.get(key, [])
            if not cards:
                continue
            h = copy_hand(h)
            keep: list[int] = []
            for card in cards:
                while stage < len(room) and room[stage] == 0:
                    stage += 1
                if stage >= len(room):  # more cards than dice: cannot happen (trim_played), kept in the first
                    keep.append(card)
                    continue
                room[stage] -= 1
                if stage == 0:
                    keep.append(card)
                else:
                    h.played.setdefault(f"{STAGED}{stage}:{key}", []).append(card)
            h.played[key] = keep
            if not keep:
                del h.played[key]
            s.extra.hands[name] = h


def reconcile(c) -> None:
    """After every action: hands follow the coins; played cards follow the Pools (module docstring)."""
    s = c.s
    if not on(s):
        return
    comp = s.complication
    orig = c.orig.complication
    if s.suspended or c.orig.suspended:
        park(s, orig, comp)
    stage_cards(s, orig, comp)
    rerolled = (comp is not None and orig is not None and comp.id == orig.id and s.narration is None
                and len(comp.rolls) > len(orig.rolls))
    over = comp is None or s.narration is not None
    shown = revealed_pools(s, over or rerolled)
    high = top(s)
    for p in s.players:
        h = s.extra.hands.get(p.name)
        held = p.wealth + p.stake
        spent = [k for k in h.played if (shown is None and not k.startswith(WAITING)) or (shown is not None and k in shown)
                 ] if h is not None else []
        if h is not None and held == len(h.hand) + h.owed + h.trait_owed and not spent:
            continue  # nothing moved for him: his hand stays as it is (shared with the state before)
        h = HandState() if h is None else copy_hand(h)  # a newcomer brings his deck
        for key in spent:  # the roll is over or ties: the revealed Pools' played cards are discarded
            for card in h.played.pop(key):
                discard(h, card)
        have = len(h.hand) + h.owed + h.trait_owed
        if held < have:
            n = have - held
            k = min(n, h.owed)
            h.owed -= k
            n -= k
            k = min(n, h.trait_owed)
            h.trait_owed -= k
            n -= k
            for pool, dice in pool_dice_bought(c, p.name).items():  # bought dice: chosen cards, face down
                for _ in range(min(dice, n)):
                    card = best_die(h.hand)
                    h.hand.remove(card)
                    h.played.setdefault(pool, []).append(card)
                    n -= 1
            for _ in range(n):  # coins spent: the highest cards, face up to the discards
                card = max(h.hand)
                h.hand.remove(card)
                discard(h, card)
        elif held > have:
            # UA-CDICE-6: kept bonus from the Trait Deck, as far as it has cards no hand holds (the rest from his
            # own deck: engine choice for a Trait Deck all out in hands)
            kept = kept_bonus(c, p.name) if bank_deck(s) else 0
            k = min(held - have, kept, max(0, len(trait_left(s)) - sum(x.trait_owed for x in s.extra.hands.values())))
            h.trait_owed += k
            h.owed += held - have - k
        left = left_in_deck(h, high)
        if h.owed > len(left) and h.discards:  # the deck runs out: its last cards drawn, the discards reshuffled
            h.hand = sorted(h.hand + left)
            h.owed -= len(left)
            h.discards = []
            h.reshuffles += 1
        room = len(left_in_deck(h, high))
        if h.owed > room:
            lost = h.owed - room
            h.owed = room
            s.extra.hands[p.name] = h
            pay(s, p.name, lost, "coins with no card left to draw", rule="UA-CDICE-1", use_bonus=False)
            c.emit("cards_short", f"{p.name}'s deck has no card left to draw: {coins(lost)} stay with the Bank.",
                   player=p.name, lost=lost, rule="UA-CDICE-1")
        s.extra.hands[p.name] = h
    if comp is not None and not over:
        trim_played(s, comp)


def trim_played(s: GameState, comp) -> None:
    """A die taken off a Pool takes a played card with it when the Pool holds no other: the Pool never
    shows more played cards than it has dice (the card goes to its owner's discards)."""
    for pool in comp.pools:
        over = sum(len(h.played.get(pool.key, [])) for h in s.extra.hands.values()) - pool.size
        for name in reversed(list(s.extra.hands)):
            if over <= 0:
                break
            h = s.extra.hands[name]
            cards = h.played.get(pool.key, [])
            if not cards:
                continue
            h = copy_hand(h)
            while over > 0 and h.played[pool.key]:
                discard(h, h.played[pool.key].pop())
                over -= 1
            if not h.played[pool.key]:
                del h.played[pool.key]
            s.extra.hands[name] = h


def deal(c) -> None:
    """UA-CDICE-1: the cards owed are dealt (a Roll from the table's card source, keys "deal:<player>"):
    each from what is left of the player's own deck; UA-CDICE-6: kept bonus cards (keys "trait:<player>")
    from the Trait Deck's cards no hand holds. A Roll may deal some of the players owed and leave the others
    waiting: at a table with real cards each player draws and types his own hand, which no one else sees
    (app/ui/decide.py); the card source deals everyone at once."""
    s, a = c.s, c.a
    due = owed_keys(s)
    if not a.faces or not set(a.faces) <= set(due):
        raise RuleViolation("UA-CDICE-1", f"{ADDON_DICE}: cards are owed to {', '.join(sorted(owed(s)))}: deal "
                                          f"{', '.join(f'{k} {n}' for k, n in due.items())}")
    drawn: dict[str, int] = {}
    from_trait: dict[str, int] = {}
    for key in (k for k in due if k in a.faces):
        trait = key.startswith(TRAIT)
        name = key[len(TRAIT if trait else DEAL):]
        n = due[key]
        got = [card_face(f) for f in a.faces[key]]
        rule, addon = ("UA-CDICE-6", BANK_DECK) if trait else ("UA-CDICE-1", ADDON_DICE)
        if len(got) != n:
            raise RuleViolation(rule, f"{addon}: {name} draws {n} cards, {len(got)} were given")
        h = copy_hand(s.extra.hands[name])
        s.extra.hands[name] = h
        left = trait_left(s) if trait else left_in_deck(h, top(s))
        for f in got:
            if f not in left:
                where = "the Trait Deck has" if trait else f"{name}'s deck has"
                raise RuleViolation(rule, f"{addon}: {where} no {f} left to draw")
            left.remove(f)
            if trait:
                h.trait_cards.append(f)
        h.hand = sorted(h.hand + got)
        if trait:
            h.trait_owed = 0
            from_trait[name] = n
        else:
            h.owed = 0
            drawn[name] = n
    extra = {"from_trait": from_trait} if from_trait else {}
    both = {**drawn, **{n: drawn.get(n, 0) + k for n, k in from_trait.items()}}
    c.emit("cards_drawn", "Cards drawn: " + ", ".join(f"{n} {v}" for n, v in sorted(both.items())) + ".",
           player="", drawn=drawn, rule="UA-CDICE-1", **extra)


def while_owed(kind: str):
    """While cards are owed, the game waits for the deal (a Roll from the card source); nothing else."""
    if kind == "roll":
        return deal

    def refuse(c) -> None:
        raise RuleViolation("UA-CDICE-1", f"{ADDON_DICE}: not now: cards are being drawn ("
                                          + ", ".join(f"{n} {k}" for n, k in sorted(owed(c.s).items())) + ")")
    return refuse


def pending_deal(s: GameState):
    """The chance decision while cards are owed (decisions.pending)."""
    from engine.universalis.decisions import Pending

    due = owed(s)
    return Pending("roll", ("dice",), dice=dict(sorted(owed_keys(s).items())),
                   note="cards are drawn: " + ", ".join(f"{n} {k}" for n, k in sorted(due.items())))


def played_in(s: GameState, pool: str) -> list[int]:
    return [x for h in s.extra.hands.values() for x in h.played.get(pool, [])]


def check_roll(s: GameState, faces: dict[str, list[int]]) -> None:
    """UA-CDICE-2/3: each Pool shows the cards played into it from hands, the rest being Trait Deck cards
    (Ace to 10)."""
    for key, got in faces.items():
        shown = [card_face(f) for f in got]
        for card in played_in(s, key):
            if card not in shown:
                raise RuleViolation("UA-CDICE-2", f"{ADDON_DICE}: the Pool {key} holds a {card} played from a hand; "
                                                  "the revealed cards must show it")
            shown.remove(card)
        if any(not 1 <= f <= top(s) for f in shown):
            if face_cards(s):
                raise RuleViolation("UA-CDICE-5", f"{FACES}: a Trait Deck card is Ace (1) to King (13)")
            raise RuleViolation("UA-CDICE-3", f"{ADDON_DICE}: a Trait Deck card is Ace (1) to 10")


def roll_faces(s: GameState, pick) -> dict[str, list[int]]:
    """The table's card source at a roll: each Pool's played cards, then Trait Deck cards dealt without
    replacement from a 40-card deck (52 with face cards kept); `pick(k)` is a chance draw of 1..k."""
    from engine.universalis.complications import roll_request

    deck = trait_left(s)  # the Trait Deck less its cards held in hands (UA-CDICE-6)
    out: dict[str, list[int]] = {}
    for key, n in roll_request(s).items():
        mine = played_in(s, key)[:n]
        out[key] = mine + draw(deck, n - len(mine), pick, lambda: suit_deck(face_cards(s)))
    return out


def deal_faces(s: GameState, pick) -> dict[str, list[int]]:
    """The table's card source for the cards owed: drawn without replacement from each player's deck."""
    out: dict[str, list[int]] = {}
    trait = trait_left(s)
    for key, n in owed_keys(s).items():
        if key.startswith(TRAIT):
            out[key] = draw(trait, n, pick)
        else:
            out[key] = draw(left_in_deck(s.extra.hands[key[len(DEAL):]], top(s)), n, pick)
    return out


def hand_line(s: GameState, name: str) -> str:
    h = s.extra.hands.get(name)
    if h is None:
        return ""
    return " ".join(card_name(x) for x in sorted(h.hand)) or "(empty)"
