"""Player Character add-ons (book L2094-2166): UA-PC, UA-ENDOW, UA-PROT, UA-PARA, UA-DRIVER."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.components import importance
from engine.universalis.addon_pcs import (
    PcRecord, driver_resolved, driver_scene_coin, elimination_cost, paragraph_affordable, paragraph_note,
    reduce_cost,
)

from engine_helpers import P3, framed, observed

PCS = {"player_characters": True, "pc_endowment": 25}


def seen(*rules: str) -> None:
    """Record for the add-on coverage test that this passing test saw these rules take effect or refuse."""
    for rule in rules:
        observed(rule, "effect")


def _hero(addons: dict | None = None):
    """Ann frames, creates the Hero and makes him her Player Character."""
    g = framed(P3, {"Ann": 1}, addons=PCS if addons is None else addons)
    hero = g.create("Ann", "Hero", proper_name="Rook")
    return g, hero


def test_UA_PC_1_five_coins_make_a_player_character_once_per_game_L2098():
    """UA-PC-1 (L2098 "once during the game... spend 5 Coins, and permanently Take Over a single
    character... Add a Trait ... 'Mike's Character'"): 5 coins, the Trait (Importance +1), the Endowment 25."""
    g, hero = _hero()
    before, imp = g.spendable("Ann"), g.imp(hero)
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    assert g.spendable("Ann") == before - 5
    assert g.s.components[hero].traits[-1].text == "Ann's Character" and g.imp(hero) == imp + 1
    assert g.s.addon.pcs == {hero: "Ann"} and g.s.addon.endowments == {"Ann": 25}
    other = g.create("Ann", "Sidekick")
    err = g.refused(A.AdoptCharacter(player="Ann", component=other), "UA-PC-1", "one per player")
    assert "Player Character add-on" in str(err)
    g.check()
    seen('UA-PC-1')


def test_UA_PC_1_refusals_off_table_not_a_character_and_too_poor():
    """UA-PC-1: a table without the add-on, a location, and a player with fewer than 5 coins are refused."""
    g, hero = _hero({})
    g.refused(A.AdoptCharacter(player="Ann", component=hero), "UA-PC-1", "does not play with Player Characters")
    g, hero = _hero()
    g.refused(A.AdoptCharacter(player="Ann", component=g.s.scene().location), "UA-PC-1", "only a character")
    g2 = framed(P3, {"Ann": 1}, addons=PCS, starting_coins=8)
    hero2 = g2.create("Ann", "Hero", proper_name="Rook")  # 8 - 1 bid - 1 location - 1 event - 2 = 3 left
    g2.refused(A.AdoptCharacter(player="Ann", component=hero2), "UA-PC-1", "costs 5")
    seen('UA-PC-1')


def test_UA_PC_2_nobody_else_may_take_over_a_player_character_L2100():
    """UA-PC-2 (L2100 "Further Take Overs of that character are not allowed"); a core Take Over of
    the same character before it was a PC is allowed."""
    g, hero = _hero()
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.end_turn("Ann")
    err = g.refused(A.TakeOver(player="Ben", component=hero), "UA-PC-2")
    assert "Player Character add-on" in str(err)
    g2, hero2 = _hero()
    g2.end_turn("Ann")
    g2.act(A.TakeOver(player="Ben", component=hero2))
    assert g2.s.scene().control[hero2] == "Ben"
    seen('UA-PC-2')


def test_UA_PC_3_only_the_owner_alters_or_introduces_the_pc_L2100_L2102():
    """UA-PC-3 (L2100-2102): nobody but the owner buys Traits for the PC or Introduces it; the owner
    keeps Control even when the PC enters a scene he did not frame."""
    g, hero = _hero()
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.act(A.ExitComponent(player="Ann", component=hero))
    g.end_turn("Ann")
    g.refused(A.AddTrait(player="Ben", component=hero, text="Cursed"), "UA-PC-3", "Ann's Player Character")
    g.refused(A.IntroduceComponent(player="Ben", component=hero), "UA-PC-3")
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.act(A.IntroduceComponent(player="Ann", component=hero))
    assert g.s.scene().control[hero] == "Ann"
    seen('UA-PC-3')


def test_UA_PC_3_another_player_introduces_the_pc_with_the_owners_agreement_L2104():
    """UA-PC-3 (L2104 "The PC can only be Introduced to a scene with the agreement of the owning player
    (who still retains Control despite not having Introduced the character)"): without it Ben is refused;
    Ann agrees (free); Ben Introduces Rook for 1 (Ann keeps Control); the agreement is used up. Only the
    owner agrees."""
    g, hero = _hero()
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.act(A.ExitComponent(player="Ann", component=hero))
    g.end_turn("Ann")
    g.refused(A.IntroduceComponent(player="Ben", component=hero), "UA-PC-3", "agreement")
    g.refused(A.AgreeIntroduction(player="Cat", component=hero), "UA-PC-3", "only the owner")
    ann = g.wealth("Ann")
    g.do(A.AgreeIntroduction(player="Ann", component=hero))
    assert g.wealth("Ann") == ann
    ben = g.wealth("Ben")
    g.act(A.IntroduceComponent(player="Ben", component=hero))
    assert g.wealth("Ben") == ben - 1 and g.s.scene().control[hero] == "Ann" and hero in g.s.scene().present
    assert hero not in g.s.addon.welcome
    g.check()
    seen('UA-PC-3')


def test_UA_PC_3_coins_won_in_a_mini_scene_complication_introduce_the_pc_into_the_main_scene_L2106():
    """UA-PC-3 (L2106 "frame a Mini-Scene in which the PC is involved in a relevant Complication and use
    Coins won in the Complication to Introduce the PC into the main scene"): Ben frames a mini scene with
    Rook (Ann agreed to that), wins a Complication against him and, spending his bonus, Introduces Rook into
    the main scene (1 bonus coin, none of his wealth); Ann keeps Control."""
    g, hero = _hero()
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.act(A.ExitComponent(player="Ann", component=hero))
    g.end_turn("Ann")
    g.act(A.FrameMiniScene(player="Ben", text="Meanwhile, on the road."))
    g.act(A.EstablishLocation(player="Ben", new_role="Road"))
    g.do(A.AgreeIntroduction(player="Ann", component=hero))
    g.act(A.IntroduceComponent(player="Ben", component=hero))
    g.event("Ben", "An ambush catches Rook.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=1))
    g.call_and_agree("Ben")
    g.roll(C=[1, 2], Ann=[9])
    main = g.s.current_scene
    assert g.s.scene().mini and hero not in g.s.scenes[main - 1].present
    ben = g.wealth("Ben")
    g.effect("UA-PC-3", A.IntroduceComponent(player="Ben", component=hero, text="Rook staggers into the tavern."),
             lambda b, a: hero in a.scenes[main - 1].present and a.scenes[main - 1].control.get(hero) == "Ann")
    assert g.wealth("Ben") == ben and g.s.narration.slots[0].coins == 2
    g.check()


def test_UA_PC_3_coins_won_in_a_complication_with_the_pc_may_change_it_L2100():
    """UA-PC-3 (L2100 "except through the use of Coins received from a Complication in which the PC
    was a participant"): Ben wins a Complication against the PC and spends his bonus on a Trait for it."""
    g, hero = _hero()
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.end_turn("Ann")
    g.event("Ben", "An ambush catches Rook.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=1))
    g.call_and_agree("Ben")
    g.roll(C=[1, 2], Ann=[9])
    assert tuple(g.pend.players) == ("Ben",)
    g.act(A.AddTrait(player="Ben", component=hero, text="Wounded"))
    assert g.s.components[hero].traits[-1].text == "Wounded"
    g.check()
    seen('UA-PC-3')


def test_UA_ENDOW_1_endowment_buys_pc_traits_and_pc_dice_only_L2114():
    """UA-ENDOW-1 (L2114 "can only be used to give Traits to the PC, or to add to Complication Pools
    ... in which the PC is involved. These Coins are never Refreshed"): 3 Traits from 25 leave 22 and
    the player's wealth untouched; dice for a Complication without the PC are refused; a scene end
    refreshes wealth, never the Endowment."""
    g, hero = _hero()
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    wealth = g.spendable("Ann")
    g.act(A.EndowTrait(player="Ann", text="Quick draw", times=3))
    assert g.s.addon.endowments["Ann"] == 22 and g.spendable("Ann") == wealth
    assert [t.text for t in g.s.components[hero].traits].count("Quick draw") == 3
    g.act(A.EndowTrait(player="Ann", text="Iron will", times=20))
    g.refused(A.EndowTrait(player="Ann", text="Legend", times=3), "UA-ENDOW-1", "holds 2")
    g.end_turn("Ann")
    g.refused(A.EndowTrait(player="Ben", text="Legend"), "UA-ENDOW-1", "no Player Character")
    mule = g.create("Ben", "Mule")
    g.end_turn("Ben")
    g.event("Cat", "Cat's bandit steals the mule.", receiver=mule)
    g.end_turn("Cat")
    assert g.turn == "Ann" and g.s.complication is not None
    err = g.refused(A.EndowDice(player="Ann", pool="C", count=2), "UA-ENDOW-1", "involved")
    assert "PC Endowment Pool" in str(err)
    g.check()
    seen('UA-ENDOW-1')


def test_UA_ENDOW_1_UA_PLOT_1_coins_set_aside_are_accounted_for_L2114_L2274():
    """U-ECO-2 with UA-ENDOW-1 (L2114 an Endowment "of 25 Coins, which are kept in a separate pool") and
    UA-PLOT-1 (L2274 "between ten and fifty Coins from the Bank"): the Bank's coins set aside for them are
    counted (25 + 20 set aside, 3 + 1 spent: 41 held), so an Endowment or a Pool that gains or loses a
    coin by any other way breaks coin conservation (ledger and ruleset invariants)."""
    from engine.universalis.ledger import conservation_problems
    from engine.universalis.ruleset import UniversalisRuleset
    g, hero = _hero({**PCS, "plot_pools": True})
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.act(A.EndowTrait(player="Ann", text="Quick draw", times=3))
    g.act(A.CreatePlotPool(player="Ann", name="The heist", coins=20))
    g.act(A.PlotPoolFact(player="Ann", plot="The heist", text="The vault opens at midnight."))
    assert (g.s.addon.set_aside, g.s.addon.set_aside_spent) == (45, 4)
    assert conservation_problems(g.s) == [] and UniversalisRuleset().invariants(g.s) == []
    bad = g.s.model_copy(deep=True)
    bad.addon.endowments["Ann"] += 1  # a coin from nowhere
    assert any("Endowments and the add-ons' pools hold 42" in m for m in conservation_problems(bad))
    assert any("set aside" in m for m in UniversalisRuleset().invariants(bad))
    bad = g.s.model_copy(deep=True)
    bad.addon.plot_pools[0].coins -= 1  # a coin lost
    assert conservation_problems(bad)
    seen("UA-ENDOW-1", "UA-PLOT-1")


def test_UA_ENDOW_1_endowment_dice_in_a_complication_with_the_pc():
    """UA-ENDOW-1: with the PC a Target, Ann buys 4 dice for her Pool from the Endowment (25 → 21)."""
    g, hero = _hero()
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.end_turn("Ann")
    g.event("Ben", "An ambush catches Rook.", receiver=hero)
    g.end_turn("Ben")
    g.end_turn("Cat")
    wealth = g.spendable("Ann")
    g.act(A.EndowDice(player="Ann", pool="Ann", count=4, text="Rook fights back"))
    assert g.s.complication.pool("Ann").dice == 4
    assert g.s.addon.endowments["Ann"] == 21 and g.spendable("Ann") == wealth
    g.check()
    seen('UA-ENDOW-1')


def test_UA_PROT_1_reducing_a_pcs_importance_costs_double_L2124():
    """UA-PROT-1 (L2124 "double the normal number of Coins to eliminate a PC by reducing
    Importance"): 2 coins lower one level; an odd payment is refused; removing a Trait still costs 1."""
    g, hero = _hero({"player_characters": True, "pc_protection": "double"})
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    imp = g.imp(hero)
    spend = g.spendable("Ann")
    g.act(A.ReduceImportance(player="Ann", component=hero, coins=2, text="Rook is hurt."))
    assert g.imp(hero) == imp - 1 and g.spendable("Ann") == spend - 2
    g.refused(A.ReduceImportance(player="Ann", component=hero, coins=3), "UA-PROT-1", "PC Plot Protection")
    trait = g.s.components[hero].traits[0].id
    g.act(A.RemoveTrait(player="Ann", trait=trait))
    assert g.imp(hero) == imp - 2 and g.spendable("Ann") == spend - 3
    g.check()
    seen('UA-PROT-1')


def test_UA_PROT_1_UA_DUR_3_a_protected_durable_pc_costs_four_per_level_L2124_L2172():
    """UA-DUR-3 (L2172 "it takes 2 Coins instead of 1 to ... reduce the Component's Importance") with
    UA-PROT-1 (L2124 "double the normal number of Coins"): the normal number for a Durable Component is 2,
    so a level of a protected Durable PC costs 4 (the book names no other combination). 2 coins are
    refused, and the refusal names 4 and both add-ons; 4 coins lower Importance by 1."""
    g = framed(P3, {"Ann": 1}, addons={"player_characters": True, "pc_protection": "double", "durable_cost": 5})
    hero = g.create("Ann", "Hero", proper_name="Rook", durable=True)
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.refused(A.ReduceImportance(player="Ann", component=hero, coins=3), "UA-PROT-1")
    err = g.refused(A.ReduceImportance(player="Ann", component=hero, coins=2), "UA-PROT-1", "costs 4 coins")
    assert "Durable Components ×2" in str(err) and "PC Plot Protection ×2" in str(err) and "2 was offered" in str(err)
    imp, spend = g.imp(hero), g.spendable("Ann")
    g.effect("UA-PROT-1", A.ReduceImportance(player="Ann", component=hero, coins=4, text="Rook is hurt."),
             lambda b, a: importance(a, hero) == imp - 1
             and a.player("Ann").wealth + a.player("Ann").stake == spend - 4)
    g.check()
    seen("UA-DUR-3")


def test_UA_PROT_1_worked_numbers_eliminating_by_importance_or_traits_first():
    """UA-PROT-1, the digest's derived numbers (§4): Importance 6 by Importance alone costs 12;
    Importance 7 after removing 3 Traits costs 3 + 8 = 11, not 14; unprotected 7 costs 7."""
    assert elimination_cost(6, 0) == 12 == reduce_cost(6, "double", True)
    assert elimination_cost(7, 3) == 11 and elimination_cost(7, 0) == 14
    assert elimination_cost(7, 3, protected=False) == 7
    assert reduce_cost(3, "off", True) == 3
    seen('UA-PROT-1')


def test_UA_PROT_2_owner_only_bars_others_from_reducing_importance_L2132():
    """UA-PROT-2 (L2132 "illegal for any player except the owner to reduce a PC's Importance"): even
    with bonus coins from a Complication with the PC."""
    g, hero = _hero({"player_characters": True, "pc_protection": "owner_only"})
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.end_turn("Ann")
    g.event("Ben", "An ambush catches Rook.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.call_and_agree("Ben")
    g.roll(C=[1, 2], Ann=[])
    err = g.refused(A.ReduceImportance(player="Ben", component=hero, coins=2), "UA-PROT-2", "only Ann")
    assert "PC Plot Protection" in str(err)
    seen('UA-PROT-2')


def test_UA_PARA_1_the_paragraph_guideline_notes_never_refuses_L2138():
    """UA-PARA-1 (L2138 "should strive to keep their description limited to 100 to 200 words"): a
    note outside the range, none inside; UA-PARA-2 (L2140): the Endowment pays as many Traits as it can."""
    assert paragraph_note("word " * 150) is None
    assert "50 words" in paragraph_note("word " * 50)
    assert "250 words" in paragraph_note("word " * 250)
    assert paragraph_note("word " * 5, None) is None
    rec = PcRecord(player="Ann", component="c1", endowment=25)
    assert paragraph_affordable(30, rec) == 25 and paragraph_affordable(7, rec) == 7
    seen('UA-PARA-1', 'UA-PARA-2')


def test_UA_PARA_2_paragraph_traits_paid_from_the_endowment():
    """UA-PARA-2 (L2140 "Pay for those Traits (or at least as many as possible) out of the character's Endowment")."""
    rec = PcRecord(player="Ann", component="c1", endowment=3)
    assert paragraph_affordable(5, rec) == 3
    seen('UA-PARA-2')


def test_UA_DRIVER_1_a_scene_on_the_driver_adds_a_coin_to_the_endowment_once_L2162():
    """UA-DRIVER-1 (L2162 "For each scene ... that addresses ... the story driver, the owning player
    may draw 1 Coin from the Bank and add it to the character's Endowment Pool"): once per scene."""
    rec = PcRecord(player="Ann", component="c1", endowment=20, driver="Avenge her father")
    assert driver_scene_coin(rec, 3) == 1 and rec.endowment == 21
    with pytest.raises(RuleViolation) as e:
        driver_scene_coin(rec, 3)
    assert e.value.rule == "UA-DRIVER-1" and "PC Story Drivers" in str(e.value)
    with pytest.raises(RuleViolation):
        driver_scene_coin(PcRecord(player="Ben", component="c2"), 1)
    seen('UA-DRIVER-1')


def test_UA_DRIVER_2_resolving_pays_the_sessions_played_with_it_L2164():
    """UA-DRIVER-2 (L2164 "a number of Coins ... equal to the total number of game sessions that
    character has participated in with that Story Driver"): 4 sessions → +4, once."""
    rec = PcRecord(player="Ann", component="c1", endowment=2, driver="Find the map", driver_sessions=4)
    assert driver_resolved(rec) == 4 and rec.endowment == 6
    with pytest.raises(RuleViolation) as e:
        driver_resolved(rec)
    assert e.value.rule == "UA-DRIVER-2"
    seen('UA-DRIVER-2')
