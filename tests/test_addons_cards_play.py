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
