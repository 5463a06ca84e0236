"""Using Cards Instead of Dice (book L2424-2434) played through `apply`: each player's hand is his coins,
the cards he draws are dealt from outside (like dice), spending plays a card face up, a bought die is a
chosen card played face down, Trait dice come from the Trait Deck; the hand is shown only to its seat."""
from __future__ import annotations

import pytest

from engine.universalis import actions as A
from engine.universalis import pending

from engine_helpers import P3, Game, all_pass_prep, game, observed

HAND = {"currency": "cards_hand"}
# a fixed deal of 25 cards: every face of 1 to 10 twice, then 1 to 5 once more
START = [v for v in range(1, 11)] * 2 + [1, 2, 3, 4, 5]


def seen(*rules: str) -> None:
    for rule in rules:
        observed(rule, "effect")


def dealt(g: Game, **cards: list[int]) -> None:
    g.do(A.Roll(faces={f"deal:{n}": faces for n, faces in cards.items()}))


def started() -> Game:
    g = game(P3, addons=HAND)
    assert pending(g.s).kind == "roll" and pending(g.s).dice == {"deal:Ann": 25, "deal:Ben": 25, "deal:Cat": 25}
    g.refused(A.PassPrep(player="Ann"), "UA-CDICE-1", "cards are being drawn")
    g.refused(A.Roll(faces={"deal:Ann": [1] * 25, "deal:Ben": START, "deal:Cat": START}), "UA-CDICE-1", "no 1 left")
    dealt(g, Ann=START, Ben=START, Cat=START)
    return g


def rival() -> tuple[Game, str]:
    """Hands dealt; Ann frames the Tavern and makes a Hero; Ben's Event against the Hero starts a Complication."""
    return rival_with(HAND)


def rival_with(addons: dict, deal: list[int] = START) -> tuple[Game, str]:
    """rival() at a table with these add-ons (a hand of cards each, dealt `deal`)."""
    g = game(P3, addons=addons)
    dealt(g, Ann=deal, Ben=deal, Cat=deal)
    all_pass_prep(g)
    g.bids({"Ann": 1})
    g.act(A.EstablishLocation(player="Ann", new_role="Tavern"))
    g.event("Ann", "The lamps are lit.")
    g.act(A.CreateComponent(player="Ann", role="Hero", introduce=True))
    hero = g.new_component()
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    return g, hero


def test_UA_CDICE_1_starting_wealth_is_drawn_into_hand_and_spending_plays_the_highest_card_L2428():
    """UA-CDICE-1 (L2428 "draw your starting Wealth in Cards into your hand ... When you use a coin, play
    the card of your choice from your hand face-up into a discard pile"): 25 cards dealt from each deck
    (a deck holds four of each: five Aces are refused); Ann's Tenet plays her highest card, a 10."""
    g = started()
    assert sorted(g.s.extra.hands["Ann"].hand) == sorted(START) and g.wealth("Ann") == 25
    g.act(A.ProposeTenet(player="Ann", text="Magic is rare."))
    h = g.s.extra.hands["Ann"]
    assert g.wealth("Ann") == 24 and h.discards == [10] and len(h.hand) == 24
    g.check()
    seen("UA-CDICE-1")


def test_UA_CDICE_2_UA_CDICE_3_a_bought_die_is_the_best_card_and_trait_dice_come_from_the_trait_deck_L2428():
    """UA-CDICE-2 (L2428 "For Complications play cards face down secretly, to be revealed during the
    resolution"): Ben buys 2 dice: his two best cards, 5 and 5, face down. The reveal must show them;
    the rest of the Pools are Trait Deck cards (UA-CDICE-3). After the roll the played cards are
    discarded and kept bonus coins are owed, then dealt from Ben's deck."""
    g, hero = rival()
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    assert g.s.extra.hands["Ben"].played == {"C": [5, 5]}
    g.call_and_agree("Ben")
    assert pending(g.s).dice == {"C": 2, "Ann": 0}
    g.refused(A.Roll(faces={"C": [1, 2], "Ann": []}), "UA-CDICE-2", "holds a 5")
    g.do(A.Roll(faces={"C": [5, 5], "Ann": []}))
    assert g.last("complication_result").data["bonus"]["C"] == 10
    assert g.s.extra.hands["Ben"].played == {} and g.s.extra.hands["Ben"].discards.count(5) == 2
    g.act(A.EndNarration(player="Ben"))
    assert pending(g.s).dice == {"deal:Ben": 10}
    g.refused(A.Roll(faces={"deal:Ben": [5] * 10}), "UA-CDICE-1", "no 5 left")  # all four 5s are out
    dealt(g, Ben=[6, 7, 8, 9, 10, 6, 7, 8, 9, 10])
    assert len(g.s.extra.hands["Ben"].hand) == g.spendable("Ben")
    g.check()
    seen("UA-CDICE-2", "UA-CDICE-3")


def test_UA_CDICE_1_the_hand_is_shown_only_to_its_seat_and_heuristic_games_replay(tmp_path):
    """The app panel shows a hand's cards only to the browser holding that seat; the others see a
    count. Heuristic seats play Cards instead of Dice with every hand equal to its coins and the log
    replaying byte for byte."""
    from app.ui.addon_panels import panel_lines
    from engine.universalis.addons import Addons
    from engine_helpers import replayed_game
    g = started()
    mine = "\n".join(panel_lines(g.s, ["Ann"]))
    theirs = "\n".join(panel_lines(g.s, ["Ben"]))
    assert "Your hand (Ann): **1 1 1 2 2 2" in mine and "Ann holds 25 cards in hand" in theirs
    assert "Your hand (Ann)" not in theirs
    def hands(s) -> None:
        for p in s.players:
            h = s.extra.hands[p.name]
            assert len(h.hand) + h.owed == p.wealth + p.stake, (p.name, h)
    t = replayed_game(Addons(currency="cards_hand"), 8, tmp_path / "g.jsonl", steps=250, check=hands)
    assert t.state.complications_resolved >= 1
    seen("UA-CDICE-1")


def test_UA_CDICE_2_a_die_taken_off_a_pool_takes_a_played_card_with_it():
    """A Pool never shows more played cards than it has dice: Ben buys 1 die (his 5, face down) and then
    takes it off again by drawing on the Hero's Trait against the Pool: the 5 goes to his discards, and
    the roll shows no played card."""
    g, hero = rival()
    g.act(A.BuyDie(player="Ben", pool="C", count=1))
    assert g.s.extra.hands["Ben"].played == {"C": [5]}
    g.act(A.DrawTrait(player="Ben", pool="C", component=hero, trait=g.s.components[hero].traits[0].id, remove=True))
    assert g.s.complication.pool("C").size == 0 and g.s.extra.hands["Ben"].played == {}
    assert 5 in g.s.extra.hands["Ben"].discards
    g.check()
    seen("UA-CDICE-2")


def narrate_and_deal(g: Game) -> None:
    """Every narrator keeps his bonus coins; the cards owed for them are dealt, the lowest left first."""
    from engine.universalis.addon_cards_hand import deal_faces, owed
    while True:
        if owed(g.s):
            g.do(A.Roll(faces=deal_faces(g.s, lambda k: 1)))
        elif g.pend.kind == "narration":
            g.act(A.EndNarration(player=g.pend.players[0]))
        else:
            return


def knight_and_monk_hands(mode: str) -> Game:
    """Four players under Cards instead of Dice and a multi-target method, every hand dealt START; D's
    Complication against A's Knight and B's Monk: D buys 1 die for C, 1 for A and 2 for B (under
    Individual Pools 1 more for C:B, the Complication Pool facing B)."""
    from test_addons_engine import P4, knight_and_monk_scene
    addons = {**HAND, "multi_target_mode": mode}
    g = game(P4, addons=addons)
    dealt(g, **{n: START for n in P4})
    all_pass_prep(g)
    g.bids({"A": 1})
    g.act(A.EstablishLocation(player="A", new_role="Tavern"))
    g.event("A", "The lamps are lit.")
    knight_and_monk_scene(g, addons)
    for pool, n in {"C": 1, "A": 1, "B": 2, **({"C:B": 1} if mode == "individual" else {})}.items():
        g.act(A.BuyDie(player="D", pool=pool, count=n))
    g.call_and_agree("D")
    return g


def test_UA_CDICE_2_UA_MT_3_UA_MT_5_a_target_pool_keeps_its_chosen_cards_until_its_own_match_L2428():
    """UA-CDICE-2 (L2428 "play cards face down secretly, to be revealed during the resolution") with
    Independent Target Pools (UA-MT-3, L2334) and Individual Pools (UA-MT-5, L2360): D's chosen cards
    (his three 5s, then a 4: C 5, A 5, B 5 and 4; C:B a 4 under Individual) stay face down in the Pools
    whose match is still to come, and that match must reveal them; the Complication side's second match
    under Independent is a reroll, Trait Deck cards (as at a tie). Before the fix every played card went
    to the discards at the first match's narration, and the second match dealt Trait Deck cards in their
    place. Coins and hands stay equal after every action."""
    for mode in ("independent", "individual"):
        g = knight_and_monk_hands(mode)
        played = dict(g.s.extra.hands["D"].played)
        assert played == {"C": [5], "A": [5], "B": [5, 4], **({"C:B": [4]} if mode == "individual" else {})}
        first = pending(g.s).dice
        t1 = next(k for k in first if k in ("A", "B"))
        t2 = "A" if t1 == "B" else "B"
        g.do(A.Roll(faces={k: sorted(played[k]) + [1] * (n - len(played[k])) for k, n in first.items()}))
        for _ in range(5):
            if not (g.pend.kind == "roll" and set(g.pend.dice) == set(first)):
                break  # a tie: Edge dice, Trait Deck cards
            g.do(A.Roll(faces={k: [1] * n for k, n in pending(g.s).dice.items()}))
        kept = {k: v for k, v in played.items() if k not in first}
        assert g.s.extra.hands["D"].played == kept and t2 in kept
        narrate_and_deal(g)
        g.check()
        second = pending(g.s).dice
        assert set(second) == set(kept) | ({"C"} if mode == "independent" else set())
        wrong = {k: [7] * n for k, n in second.items()}
        g.refused(A.Roll(faces=wrong), "UA-CDICE-2", f"holds a {kept[t2][0]}")
        g.do(A.Roll(faces={k: sorted(kept.get(k, [])) + [7] * (n - len(kept.get(k, []))) for k, n in second.items()}))
        for _ in range(10):
            if g.s.complication is None:
                break
            if pending(g.s).kind == "roll":  # a tie in the second match: the Targets win the reroll
                g.do(A.Roll(faces={k: [9 if k.startswith("C") else 1] * n for k, n in pending(g.s).dice.items()}))
            narrate_and_deal(g)
        assert g.s.complication is None
        for p in g.s.players:
            h = g.s.extra.hands[p.name]
            assert len(h.hand) + h.owed == p.wealth + p.stake and h.played == {}, (p.name, h)
        g.check()
    seen("UA-CDICE-2", "UA-MT-3", "UA-MT-5")


def test_UA_CDICE_1_each_player_may_deal_his_own_hand_alone_L2428():
    """UA-CDICE-1 (L2428 "draw your starting Wealth in Cards into your hand"): at a table with real cards
    each player types his own hand, so a Roll may deal some of the players owed: Ben's 25 cards alone,
    then Ann's and Cat's; the game waits (nothing else is allowed) until every hand is dealt. A player
    owed nothing, or an empty Roll, is refused, naming the add-on."""
    g = game(P3, addons=HAND)
    g.refused(A.Roll(faces={}), "UA-CDICE-1", "cards are owed to Ann, Ben, Cat")
    dealt(g, Ben=START)
    assert pending(g.s).dice == {"deal:Ann": 25, "deal:Cat": 25}
    assert g.last("cards_drawn").data["drawn"] == {"Ben": 25} and sorted(g.s.extra.hands["Ben"].hand) == sorted(START)
    g.refused(A.Roll(faces={"deal:Ben": START}), "UA-CDICE-1", "Cards instead of Dice")
    g.refused(A.PassPrep(player="Ann"), "UA-CDICE-1", "cards are being drawn")
    dealt(g, Ann=START, Cat=START)
    assert pending(g.s).kind == "prep_turn" and all(len(h.hand) == 25 for h in g.s.extra.hands.values())
    g.check()
    seen("UA-CDICE-1")


FACE = {**HAND, "cards_with_face_cards": True}
# a fixed deal of 25 from a 52-card deck: every card Ace to King once, Ace to 10 again, then 1 2
START52 = list(range(1, 14)) + list(range(1, 11)) + [1, 2]


def test_UA_CDICE_5_face_cards_kept_52_card_decks_never_succeed_and_count_ten_L2432():
    """UA-CDICE-5 (Quirk #1, L2432 "there are 13 different cards in a suit, making a success ... 5 out of
    13"): with face cards kept each deck holds 52 cards; Jacks, Queens and Kings are dealt and read at the
    roll (J = 11, Q = 12, K = 13) and none succeeds; a card above King is refused, naming the add-on.
    Spending plays the highest card: Ann's Tenet plays her King. Ben's Complication against the Hero: Ben
    buys 2 dice for it (his best cards, 5 and 5, face down) and 2 for Ann's Pool (his 4 and 4). Revealed
    C 5 5, Ann 4 4: 2 Successes each, sums 10 against 8: an Edge card for the Complication, every card
    discarded and dealt again from the Trait Deck. C 1 2 K (2 Successes) against Ann 6 7 (none): Ben wins
    1 + 2 plus his failed Edge card's value: a King counts 10 (engine reading: as high as a d10 shows; the
    book gives face cards no number), 13 in all; Ann loses, 1 per card: 2."""
    from engine.universalis.addon_cards import success_chance
    from engine.universalis.addon_cards_hand import hand_line
    assert success_chance(True) == pytest.approx(5 / 13)
    g = game(P3, addons=FACE)
    assert pending(g.s).dice == {"deal:Ann": 25, "deal:Ben": 25, "deal:Cat": 25}
    g.refused(A.Roll(faces={"deal:Ann": [13] * 5 + START52[5:], "deal:Ben": START52, "deal:Cat": START52}),
              "UA-CDICE-1", "no 13 left")
    dealt(g, Ann=START52, Ben=START52, Cat=START52)
    assert hand_line(g.s, "Ann").endswith("10 10 J Q K")
    g.act(A.ProposeTenet(player="Ann", text="Magic is rare."))
    assert g.s.extra.hands["Ann"].discards == [13] and g.wealth("Ann") == 24
    g, hero = rival_with(FACE, START52)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=2))
    assert g.s.extra.hands["Ben"].played == {"C": [5, 5], "Ann": [4, 4]}
    g.call_and_agree("Ben")
    assert pending(g.s).dice == {"C": 2, "Ann": 2}
    g.do(A.Roll(faces={"C": [5, 5], "Ann": [4, 4]}))
    assert pending(g.s).dice == {"C": 3, "Ann": 2} and g.s.extra.hands["Ben"].played == {}
    g.refused(A.Roll(faces={"C": [1, 2, 14], "Ann": [6, 7]}), "UA-CDICE-5", "Ace (1) to King (13)")
    g.do(A.Roll(faces={"C": [1, 2, 13], "Ann": [6, 7]}))
    res = g.last("complication_result").data
    assert res["winner"] == "C" and res["bonus"] == {"C": 13, "Ann": 2}
    assert g.last("roll").data["faces"]["C"] == [1, 2, 13]
    g.check()
    seen("UA-CDICE-5")


def test_UA_CDICE_5_a_deck_with_face_cards_holds_52_coins_L2432():
    """UA-CDICE-5: with face cards kept a deck is 52 cards, so a table may start with up to 52 coins (41 is
    refused without them, 53 with them, naming the decks)."""
    from engine.core.errors import RuleViolation
    from engine.universalis import new_game
    assert pending(game(P3, starting_coins=52, addons=FACE).s).dice["deal:Ann"] == 52
    for addons, coins in ((HAND, 41), (FACE, 53)):
        with pytest.raises(RuleViolation) as e:
            new_game(P3, starting_coins=coins, addons=addons)
        assert e.value.rule == "UA-SETUP-7" and "deck" in str(e.value)
    seen("UA-CDICE-5")


def test_UA_CDICE_6_kept_bonus_cards_come_from_the_trait_deck_and_go_back_to_its_discards_L2428():
    """UA-CDICE-6 (the digest's alternative reading: kept bonus Coins drawn from the shared Trait Deck, the
    "Bank Deck" of Quirk #1, L2432; L2428 "Be sure to discard cards into their appropriate discard pile"):
    Ben pays 1 for his Event (his 10, discards [10]) and buys 2 dice (his 5 and 5); revealed 5 5 the
    Complication wins and Ben keeps 10 bonus coins: 10 cards owed from the Trait Deck, not his deck
    (his deck still holds 15). A card the Trait Deck cannot hold (an 11 without face cards, a fifth 4) is
    refused naming the add-on; his own deck's key is not owed. Dealt 1 to 10, they join his hand (32 cards =
    32 coins). His next coin plays his highest card, a 10: the Trait Deck's copy goes back to the Trait
    Deck, so his own discards stay [10, 5, 5] and his deck 15."""
    from engine.universalis.addon_cards_hand import left_in_deck
    g, hero = rival_with({**HAND, "bonus_cards_from": "bank_deck"})
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.call_and_agree("Ben")
    g.do(A.Roll(faces={"C": [5, 5], "Ann": []}))
    assert g.last("complication_result").data["bonus"]["C"] == 10
    g.act(A.EndNarration(player="Ben"))
    ben = g.s.extra.hands["Ben"]
    assert pending(g.s).dice == {"trait:Ben": 10} and ben.owed == 0 and ben.trait_owed == 10
    assert len(left_in_deck(ben)) == 15 and ben.discards == [10, 5, 5]
    g.refused(A.Roll(faces={"trait:Ben": [11] + list(range(2, 11))}), "UA-CDICE-6", "Trait Deck has no 11")
    g.refused(A.Roll(faces={"trait:Ben": [4] * 5 + [1, 2, 3, 5, 6]}), "UA-CDICE-6", "no 4 left")
    g.refused(A.Roll(faces={"deal:Ben": list(range(1, 11))}), "UA-CDICE-1", "cards are owed to Ben")
    g.do(A.Roll(faces={"trait:Ben": list(range(1, 11))}))
    ben = g.s.extra.hands["Ben"]
    assert g.last("cards_drawn").data["from_trait"] == {"Ben": 10}
    assert len(ben.hand) == 32 == g.spendable("Ben") and sorted(ben.trait_cards) == list(range(1, 11))
    assert len(left_in_deck(ben)) == 15
    g.event("Ben", "The rival draws steel.")
    ben = g.s.extra.hands["Ben"]
    assert ben.discards == [10, 5, 5] and 10 not in ben.trait_cards and len(ben.hand) == 31 == g.spendable("Ben")
    assert len(left_in_deck(ben)) == 15
    g.check()
    seen("UA-CDICE-6")


def test_UA_CDICE_5_UA_CDICE_6_the_model_is_told_its_own_hand_face_cards_and_where_kept_cards_come_from():
    """The LLM seat's state text under both readings: its own hand with J/Q/K named, that face cards never
    succeed (5 in 13 of the Trait Deck's cards do), and that kept bonus cards come from the Trait Deck; never
    another player's hand."""
    from agents.llm.state_text import describe_state
    g = game(P3, addons={**FACE, "bonus_cards_from": "bank_deck"})
    dealt(g, Ann=START52, Ben=list(range(1, 11)) * 2 + [6, 7, 8, 9, 10])
    assert pending(g.s).dice == {"deal:Cat": 25}  # Cat has not drawn yet: the others' hands are in
    dealt(g, Cat=START52)
    text = describe_state(g.s, "Ann")
    assert "Your hand of cards (your coins): 1 1 1 2 2 2 3 3" in text and "10 10 J Q K" in text
    assert "J, Q and K never succeed" in text and "drawn from the shared Trait Deck" in text
    assert "6 6 6 7 7 7" not in text  # Ben's hand
    seen("UA-CDICE-5", "UA-CDICE-6")
