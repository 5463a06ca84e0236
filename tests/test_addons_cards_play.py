"""Using Cards as Coins (book L2040-2052) played through `apply`: each player's 40-card deck is his Bank,
coins are cards, a bought die is a Wealth card, the revealed cards are the Pool's faces; exact coins."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import new_game

from engine_helpers import P3, framed, observed

CARDS = {"currency": "cards_bank"}


def seen(*rules: str) -> None:
    for rule in rules:
        observed(rule, "effect")


def total(d) -> int:
    return d.bank + d.discards + d.pool + d.held


def test_UA_CARDS_1_a_deck_of_40_holds_at_most_40_coins_and_reshuffles_its_discards_L2046():
    """UA-CARDS-1 (L2046 "whenever the rules call for the player to gain Coins, draw ... When the Bank is
    empty reshuffle the discards"): everyone starts with 40 of 40 cards. Ann spends 2 framing (discards 2).
    At the scene's end Refresh 5: Ann's empty Bank takes her 2 discards reshuffled, she draws 2 and 3 coins
    stay with the Bank; Ben and Cat have no card to draw: 5 stay. All hold 40; coins are conserved."""
    with pytest.raises(RuleViolation) as e:
        new_game(P3, starting_coins=41, addons=CARDS)
    assert e.value.rule == "UA-SETUP-7" and "40 cards" in str(e.value)
    g = framed(P3, {"Ann": 1}, starting_coins=40, addons=CARDS)
    ann = g.s.extra.cards["Ann"]
    assert (ann.bank, ann.discards, ann.held) == (0, 2, 38)
    g.act(A.EndScene(player="Ann"))
    assert (g.wealth("Ann"), g.wealth("Ben"), g.wealth("Cat")) == (40, 40, 40)
    ann = g.s.extra.cards["Ann"]
    assert (ann.bank, ann.discards, ann.held, ann.reshuffles) == (0, 0, 40, 1)
    assert [e.data["lost"] for e in g.events if e.kind == "cards_short"] == [3, 5, 5]
    g.check()
    seen("UA-CARDS-1")


def test_UA_CARDS_2_UA_CARDS_3_bought_dice_are_wealth_cards_and_the_revealed_cards_decide_L2050():
    """UA-CARDS-2 (L2048 "spend the top card from your Wealth by discarding it"): Ben's Event discards 1
    card (Bank 15, discards 1, Wealth 24). UA-CARDS-3 (L2050 "when Coins are spent to add dice to a pool
    take the cards from the Wealth pile"): 5 dice bought are 5 Wealth cards in the Pool (Wealth 19,
    Pool 5). UA-CARDS-5: five Aces from one deck are refused; revealed 1 2 3 4 6 the Complication wins
    with 4 Successes worth 10; the Pool is discarded (discards 6) and the 10 kept are drawn from the
    Bank (Bank 5, Wealth 29)."""
    g = framed(P3, {"Ann": 1}, addons=CARDS)
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    ben = g.s.extra.cards["Ben"]
    assert (ben.bank, ben.discards, ben.pool, ben.held) == (15, 1, 0, 24)
    g.act(A.BuyDie(player="Ben", pool="C", count=5))
    ben = g.s.extra.cards["Ben"]
    assert (ben.bank, ben.discards, ben.pool, ben.held) == (15, 1, 5, 19)
    g.call_and_agree("Ben")
    g.refused(A.Roll(faces={"C": [1, 1, 1, 1, 1], "Ann": []}), "UA-CARDS-5", "hold 4")
    g.refused(A.Roll(faces={"C": [1, 2, 3, 4, 11], "Ann": []}), "UA-CARDS-5", "not 11")
    g.roll(C=[1, 2, 3, 4, 6], Ann=[])
    assert g.last("complication_result").data["bonus"]["C"] == 10
    ben = g.s.extra.cards["Ben"]
    assert (ben.discards, ben.pool) == (6, 0)
    g.act(A.EndNarration(player="Ben"))
    ben = g.s.extra.cards["Ben"]
    assert (ben.bank, ben.discards, ben.pool, ben.held) == (5, 6, 0, 29) and g.spendable("Ben") == 29
    assert all(total(d) == 40 for d in g.s.extra.cards.values())
    g.check()
    seen("UA-CARDS-2", "UA-CARDS-3", "UA-CARDS-5")


def test_UA_CARDS_3_a_traits_die_is_a_card_from_the_bank_and_the_panel_shows_the_decks(tmp_path):
    """UA-CARDS-3 (L2050 "When Traits are called on to add dice, take the cards from the Bank"): Ben draws
    on Ann's Hero's Trait for her Pool: a card leaves his Bank (15 -> 14) for the Pool, his Wealth (24) unchanged. The panel shows each
    deck; heuristic seats play Cards as Coins with every deck at 40 cards and a byte-identical replay."""
    from app.ui.addon_panels import panel_lines
    from engine.universalis.addons import Addons
    from engine_helpers import replayed_game
    g = framed(P3, {"Ann": 1}, addons=CARDS)
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    before = g.s.extra.cards["Ben"]
    g.act(A.DrawTrait(player="Ben", pool="Ann", component=hero, trait=g.s.components[hero].traits[0].id))
    after = g.s.extra.cards["Ben"]
    assert (after.bank, after.pool, after.held) == (before.bank - 1, 1, before.held) == (14, 1, 24)
    assert "Ben 24 cards (Bank 14, discards 1)" in "\n".join(panel_lines(g.s, ["Ben"]))
    def decks(s) -> None:
        for p in s.players:
            d = s.extra.cards[p.name]
            assert total(d) == 40 and d.held == p.wealth + p.stake, (p.name, d)
    t = replayed_game(Addons(currency="cards_bank"), 7, tmp_path / "g.jsonl", steps=250, check=decks)
    assert t.state.complications_resolved >= 1
    seen("UA-CARDS-3")


def test_UA_CDICE_4_mazzas_stack_spends_from_wealth_and_traits_draw_from_the_trait_deck_L2440():
    """UA-CDICE-4 (L2440 "keep each player's Wealth in a face down stack ... When ever a 'Coin' is spent draw
    the top card off of the Wealth stack"): Ben's Event and 2 bought dice come off his stack (Wealth 24 ->
    22, Pool 2); a Trait's die is the shared Trait Deck's top card (L2428): Ben's own deck is untouched."""
    g = framed(P3, {"Ann": 1}, addons={"currency": "cards_stack"})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    ben = g.s.extra.cards["Ben"]
    assert (ben.bank, ben.discards, ben.pool, ben.held) == (15, 1, 2, 22)
    g.act(A.DrawTrait(player="Ben", pool="Ann", component=hero, trait=g.s.components[hero].traits[0].id))
    assert g.s.extra.cards["Ben"] == ben and g.s.complication.pool("Ann").size == 1
    g.check()
    seen("UA-CDICE-4")


def test_UA_CARDS_3_UA_MT_3_a_pool_waiting_for_its_match_keeps_its_cards_and_a_played_one_is_discarded_L2050():
    """UA-CARDS-3 (L2050: the Pool's cards are discarded once it is resolved) with Independent Target
    Pools (UA-MT-3, L2338): D (Wealth 25) pays 1 for his Event and buys 5 dice: C 2, A 1, B 2 (Bank 15,
    discards 1, Pool 5, Wealth 19). B's match first (most dice): C's and B's four cards are revealed and
    discarded (discards 5) while A's card stays face down (Pool 1). D keeps C's 3 bonus coins: 3 cards
    from his Bank; C's second match is a reroll: 2 new cards from his Bank (Bank 10, Pool 3, Wealth 22).
    After A's match everything is discarded (discards 8) and 3 more kept (Bank 7, Wealth 25). Before the
    fix B's two cards were counted again in A's match, drawn a second time from D's Bank."""
    from test_addons_engine import knight_and_monk
    g = knight_and_monk({**CARDS, "multi_target_mode": "independent"}, {"C": 2, "A": 1, "B": 2})

    def d() -> tuple[int, int, int, int]:
        x = g.s.extra.cards["D"]
        assert total(x) == 40
        return (x.bank, x.discards, x.pool, x.held)
    assert d() == (15, 1, 5, 19) and g.pend.dice == {"C": 2, "B": 2}
    g.roll(C=[1, 2], B=[9, 9])
    assert g.last("complication_result").data["bonus"] == {"C": 3, "B": 2} and d() == (15, 5, 1, 19)
    g.narrate_out()
    assert g.pend.dice == {"C": 2, "A": 1} and d() == (10, 5, 3, 22)
    g.roll(C=[1, 2], A=[9])
    g.narrate_out()
    assert g.s.complication is None and d() == (7, 8, 0, 25) and g.wealth("D") == 25
    g.check()
    seen("UA-CARDS-3", "UA-MT-3")


# --- face cards kept (UA-CARDS-4, L2052) ----------------------------------------------------------------
FACES = {"currency": "cards_bank", "face_card_gimmick": {}}  # {} = the book's example: J right, Q left, K across


def turn_over(g, **spent: list[int]) -> list:
    """The card source turns over the spent cards (Roll keys "spent:<player>"), then reactions pass."""
    return g.act(A.Roll(faces={f"spent:{k}": v for k, v in spent.items()}))


def framed_faces(**kw):
    """Scene 1 framed by Ann (bid 1) at a new location and its first Event narrated: her two spent cards,
    a 7 and an 8, turned over (Ann 23)."""
    from engine_helpers import to_scene
    g = to_scene(P3, {"Ann": 1}, addons={**FACES, **kw.pop("addons", {})}, **kw)
    g.act(A.EstablishLocation(player="Ann", new_role="Tavern"))
    turn_over(g, Ann=[7])
    g.event("Ann", "The lamps are lit.")
    turn_over(g, Ann=[8])
    return g


def test_UA_CARDS_4_a_face_card_spent_makes_a_neighbour_pay_the_coin_L2052():
    """UA-CARDS-4 (L2052 "a revealed Jack could mean the person to the right spends the Coin, a Queen, the
    person to the left, and a King the person across"): decks of 52 (53 coins refused). Ann's Event spends a
    card; the game waits for it to be turned over and refuses anything else, and a 14 is no card. A Jack:
    Cat (to Ann's right) discards a card for Ann's coin and Ann draws one from her Bank (Ann stays 23, Cat
    25 -> 24). A Queen: Ben (left) pays. A King: across, the seat just past half of three, Cat. A 7: Ann's
    own coin (22). Cat's card is not turned over in turn (the reading: one step)."""
    with pytest.raises(RuleViolation) as e:
        new_game(P3, starting_coins=53, addons=FACES)
    assert e.value.rule == "UA-SETUP-7" and "52 cards" in str(e.value)
    g = framed_faces()
    assert (g.wealth("Ann"), g.wealth("Ben"), g.wealth("Cat")) == (23, 25, 25)
    g.event("Ann", "A stranger enters.")
    assert g.pend.kind == "roll" and g.pend.dice == {"spent:Ann": 1}
    g.refused(A.NarrateEvent(player="Ann", text="Rain."), "UA-CARDS-4", "turned over first")
    g.refused(A.Roll(faces={"spent:Ann": [14]}), "UA-CARDS-5", "cannot show 14")
    g.refused(A.Roll(faces={"spent:Ben": [11]}), "UA-CARDS-4", "spent:Ann 1")
    turn_over(g, Ann=[11])
    assert (g.wealth("Ann"), g.wealth("Ben"), g.wealth("Cat")) == (23, 25, 24)
    assert g.last("cards_spent").data["paid"] == [{"card": "J", "spender": "Ann", "payer": "Cat"}]
    ann, cat = g.s.extra.cards["Ann"], g.s.extra.cards["Cat"]
    assert (ann.bank, ann.discards, ann.held, ann.revealing) == (26, 3, 23, 0)
    assert (cat.bank, cat.discards, cat.held, cat.revealing) == (27, 1, 24, 0)  # not turned over: no chain
    g.event("Ann", "The stranger draws a blade.")
    turn_over(g, Ann=[12])
    g.event("Ann", "The lamps go out.")
    turn_over(g, Ann=[13])
    g.event("Ann", "Silence.")
    turn_over(g, Ann=[7])
    assert (g.wealth("Ann"), g.wealth("Ben"), g.wealth("Cat")) == (22, 24, 23)
    assert all(total(d) == 52 and d.held == g.spendable(n) for n, d in g.s.extra.cards.items())
    g.check()
    seen("UA-CARDS-4", "UA-CARDS-5")


def test_UA_CARDS_4_a_neighbour_with_no_coin_leaves_the_spender_paying_and_a_table_sets_who_pays_L2052():
    """UA-CARDS-4 (L2052 "create a Gimmick for what they represent when spent"): the table's Gimmick says a
    Jack makes the player to the LEFT pay. Everyone starts with 2 coins; Ann bids 1. Her new location: a
    Jack, Ben pays (Ann 2, Ben 1). Her Event: a Jack, Ben pays his last (Ann 2, Ben 0). Her next Event: a
    Jack again, but Ben has no coin: the reading keeps Ann's coin spent (Ann 1); nobody else pays. A Gimmick
    naming anyone but right, left or across, or a face that is not J, Q or K, is refused at setup."""
    from engine_helpers import to_scene
    for bad in ({"J": "right pays"}, {"A": "left"}):
        with pytest.raises(RuleViolation) as e:
            new_game(P3, addons={**FACES, "face_card_gimmick": bad})
        assert e.value.rule == "UA-SETUP-7" and "who pays" in str(e.value)
    g = to_scene(P3, {"Ann": 1}, starting_coins=2, addons={**FACES, "face_card_gimmick": {"J": "left"}})
    g.act(A.EstablishLocation(player="Ann", new_role="Tavern"))
    turn_over(g, Ann=[11])
    assert (g.wealth("Ann"), g.wealth("Ben"), g.wealth("Cat")) == (2, 1, 2)
    g.event("Ann", "The lamps are lit.")
    turn_over(g, Ann=[11])
    assert (g.wealth("Ann"), g.wealth("Ben"), g.wealth("Cat")) == (2, 0, 2)
    g.event("Ann", "A stranger enters.")
    turn_over(g, Ann=[11])
    assert (g.wealth("Ann"), g.wealth("Ben"), g.wealth("Cat")) == (1, 0, 2)
    assert g.last("cards_spent").data["paid"] == [{"card": "J", "spender": "Ann", "payer": None}]
    assert "Ben has no coin to pay it" in g.last("cards_spent").text
    from agents.llm.state_text import describe_state
    text = describe_state(g.s, "Ann")  # the model is told the table's Gimmick
    assert "a Jack makes the player to the left pay it, a Queen the player to the left, a King the player across" in text
    assert "a Jack cancels a Success" in text
    g.check()
    seen("UA-CARDS-4")


def test_UA_CARDS_4_in_a_pool_a_jack_cancels_a_king_decides_and_a_queen_is_a_free_coin_L2052():
    """UA-CARDS-4 (L2052 "each Jack in the Pool could cancel a Success while each King could count as an
    extra Success (for purposes of determining the winner but not effecting any Coins earned). A Queen could
    give you a free Coin but not count as a Success"): Ben's C Pool shows 1 2 J Q (2 Successes, the Jack
    cancels one: 1); Ann's shows 4 K (1 + the King: 2). The Targets win 2 to 1, where without face cards C
    would have won 2 to 1. Ann earns 4 (the King earns nothing); C, losing, 1 per plain card (2) and the
    Queen's free coin: 3. Bought dice are not turned over when bought (they are, in the Pool). After the
    narration every deck still holds 52 cards, its Wealth cards equal to its player's coins."""
    g = framed_faces()
    hero = g.create("Ann", "Hero")
    turn_over(g, Ann=[5])
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    turn_over(g, Ben=[3])
    g.act(A.BuyDie(player="Ben", pool="C", count=4))
    assert g.pend.kind != "roll"  # dice bought are face down in the Pool
    g.act(A.DrawTrait(player="Ben", pool="Ann", component=hero, trait=g.s.components[hero].traits[0].id))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=1))  # any player may add dice to any Pool (U-COMP-2)
    g.call_and_agree("Ben")
    g.refused(A.Roll(faces={"C": [1, 2, 11, 14], "Ann": [4, 13]}), "UA-CARDS-5", "not 14")
    g.roll(C=[1, 2, 11, 12], Ann=[4, 13])
    assert g.last("roll").data["successes"] == {"C": 1, "Ann": 2}
    assert g.last("complication_result").data["bonus"] == {"C": 3, "Ann": 4}
    g.narrate_out()
    assert all(total(d) == 52 and d.held == g.spendable(n) for n, d in g.s.extra.cards.items())
    g.check()
    seen("UA-CARDS-4")


def test_UA_CDICE_5_mazzas_stack_keeps_face_cards_that_never_succeed_L2432():
    """UA-CDICE-5 (Quirk #1, L2432 "there are 13 different cards in a suit, making a success as defined above
    5 out of 13") with Mazza's Wealth stack (L2440): 52-card decks (53 coins refused). Ben's 3 bought cards
    show 1 J K and Ann's Trait Deck card a Q: J, Q, K never succeed (no Gimmick here: a King is no Success),
    so the Complication wins 1 to 0 and earns 1, Ann 1 for her card; a 14 is no card. Every deck holds 52."""
    stack = {"currency": "cards_stack", "cards_with_face_cards": True}
    with pytest.raises(RuleViolation) as e:
        new_game(P3, starting_coins=53, addons=stack)
    assert e.value.rule == "UA-SETUP-7" and "52 cards" in str(e.value)
    g = framed(P3, {"Ann": 1}, addons=stack)
    assert g.pend.kind != "roll"  # no spent card is turned over: the face of a coin spent changes nothing here
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=3))
    g.act(A.DrawTrait(player="Ben", pool="Ann", component=hero, trait=g.s.components[hero].traits[0].id))
    g.call_and_agree("Ben")
    g.refused(A.Roll(faces={"C": [1, 11, 14], "Ann": [12]}), "UA-CARDS-5", "not 14")
    g.roll(C=[1, 11, 13], Ann=[12])
    assert g.last("roll").data["successes"] == {"C": 1, "Ann": 0}
    assert g.last("complication_result").data["bonus"] == {"C": 1, "Ann": 1}
    g.narrate_out()
    assert all(total(d) == 52 and d.held == g.spendable(n) for n, d in g.s.extra.cards.items())
    g.check()
    seen("UA-CDICE-5", "UA-CARDS-5")


def test_UA_CARDS_4_a_sessions_wealth_reset_is_not_a_spend_L2052_L2484():
    """UA-CARDS-4 (L2052: what face cards "represent when spent") beside the Coin Option Gimmick's reset
    (UA-COIN-2, L2484 "use 'em or lose 'em"): at the next session every player's Wealth is set to 20, the
    cards above it discarded (Ann 23 -> 20, Ben and Cat 25 -> 20) and nothing is turned over; Ann's next
    Event is a spend and is."""
    g = framed_faces(addons={"carry_over_sessions": True, "session_start_wealth": 20})
    g.do(A.EndSession(player="Ann"))
    g.do(A.StartSession(player="Ann"))
    assert [p.wealth for p in g.s.players] == [20, 20, 20] and g.pend.kind != "roll"
    assert [(d.discards, d.held, d.revealing) for d in g.s.extra.cards.values()] == [(5, 20, 0), (5, 20, 0), (5, 20, 0)]
    g.event("Ann", "The rain keeps falling.")
    assert g.pend.dice == {"spent:Ann": 1}
    g.check()
    seen("UA-CARDS-4")
