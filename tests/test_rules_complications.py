"""Complications: U-COMP-1, 1a, 1b, 2..11."""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import legal_options, pending

from engine_helpers import P3, framed, rival_called

P4 = ["A", "B", "Cy", "D"]


def _two_targets():
    """D narrates B's knight striking Cy's wizard: Originator D, Target players B and Cy."""
    g = framed(P4, {"A": 1})
    g.end_turn("A")
    knight = g.create("B", "Knight")
    g.end_turn("B")
    wizard = g.create("Cy", "Wizard")
    g.end_turn("Cy")
    g.event("D", "The knight strikes the wizard.", performer=knight, receiver=wizard)
    return g, knight, wizard


def test_U_COMP_1_acting_on_anothers_components_starts_one_complication_at_a_time():
    g, knight, wizard = _two_targets()
    comp = g.s.complication
    assert comp.originator == "D" and comp.targets == [knight, wizard]
    assert [(p.key, p.owner) for p in comp.pools] == [("C", "D"), ("B", "B"), ("Cy", "Cy")]
    g.refused(A.NarrateEvent(player="D", text="Again.", receiver=knight), "U-COMP-1")
    # an Event on one's own components is no Complication
    g2 = framed(P3, {"Ann": 1})
    hero = g2.create("Ann", "Hero")
    g2.event("Ann", "The hero falls.", receiver=hero)
    assert g2.s.complication is None


def test_U_COMP_1_originating_off_ones_turn_costs_the_interrupt():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.do(A.NarrateEvent(player="Ann", text="The hero rests.", performer=hero))
    before = g.spendable("Cat")
    g.interrupt("Cat")
    g.event("Cat", "Bandits attack the hero.", receiver=hero)
    assert g.s.complication.originator == "Cat"
    assert g.spendable("Cat") == before - 2  # the Interrupt and the Event


def test_U_COMP_1a_obstacle_interrupts_and_buys_dice_against_the_event():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.do(A.BuyFact(player="Ann", text="Dawn."))
    g.refused(A.Obstacle(player="Ben", dice=1, text="no"), "U-COMP-1a")  # not an Event
    g.passes()
    g.do(A.NarrateEvent(player="Ann", text="The hero climbs the wall.", performer=hero))
    before = g.spendable("Ben")
    g.react({"Ben": A.Obstacle(player="Ben", dice=2, text="The wall is slick with ice.")})
    comp = g.s.complication
    assert comp.originator == "Ben" and comp.targets == [hero]
    assert [(p.key, p.dice) for p in comp.pools] == [("C", 2), ("Ann", 0)]
    assert g.spendable("Ben") == before - 3 and g.turn == "Ben"
    # one Complication at a time: no Obstacle while it is open
    g.do(A.NarrateEvent(player="Ben", text="Ice forms."))
    g.refused(A.Obstacle(player="Cat", dice=1, text="x"), "U-COMP-1a")
    g.refused(A.Obstacle(player="Ann", dice=1, text="x"), "U-COMP-1a")


def test_U_COMP_1b_taking_over_a_component_in_a_declared_event_makes_it_a_complication():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.do(A.NarrateEvent(player="Ann", text="The hero jumps the gap.", performer=hero))
    g.react({"Cat": A.TakeOver(player="Cat", component=hero)})
    comp = g.s.complication
    assert comp.originator == "Ann" and comp.targets == [hero]
    assert [p.key for p in comp.pools] == ["C", "Cat"]
    assert g.s.scene().control[hero] == "Cat" and g.turn == "Ann"


def test_U_COMP_2_pools_change_only_on_ones_own_turn_any_player_any_pool():
    g, knight, wizard = _two_targets()
    g.refused(A.BuyDie(player="A", pool="B"), "U-TURN-1")
    g.refused(A.BuyDie(player="D", pool="Z"), "U-COMP-2")
    g.act(A.BuyDie(player="D", pool="B"))  # the Originator adds to a Target Pool
    g.end_turn("D")
    g.act(A.BuyDie(player="A", pool="Cy", count=2))  # an uninvolved player, on his turn
    assert [(p.key, p.dice) for p in g.s.complication.pools] == [("C", 0), ("B", 1), ("Cy", 2)]


def test_U_COMP_3_drawing_is_free_once_per_occurrence_add_or_remove_new_traits_at_once():
    g, knight, wizard = _two_targets()
    g.end_turn("D")
    g.end_turn("A")
    role = g.s.components[knight].traits[0].id
    before = g.spendable("B")
    g.act(A.DrawTrait(player="B", trait=role, component=knight, pool="B", text="trained to fight"))
    assert g.spendable("B") == before and g.s.complication.pool("B").dice == 1
    g.refused(A.DrawTrait(player="B", trait=role, component=knight, pool="Cy"), "U-COMP-3")
    g.refused(A.DrawTrait(player="B", trait="t999", component=knight, pool="Cy"), "U-COMP-3")
    wiz_role = g.s.components[wizard].traits[0].id
    g.refused(A.DrawTrait(player="B", trait=wiz_role, component=wizard, pool="C", remove=True), "U-COMP-3")
    g.act(A.DrawTrait(player="B", trait=wiz_role, component=wizard, pool="B", remove=True))
    assert g.s.complication.pool("B").dice == 0
    g.act(A.AddTrait(player="B", component=knight, text="Lance"))
    lance = g.s.components[knight].traits[-1].id
    g.act(A.DrawTrait(player="B", trait=lance, component=knight, pool="B"))
    assert g.s.complication.pool("B").dice == 1
    assert knight in g.s.complication.committed


def test_U_COMP_4_committed_components_cannot_be_taken_over():
    g, knight, wizard = _two_targets()
    g.refused(A.TakeOver(player="D", component=knight), "U-COMP-4")
    bystander = g.create("D", "Bystander")
    g.act(A.AddTrait(player="D", component=bystander, text="Loud"))
    g.end_turn("D")
    loud = g.s.components[bystander].traits[-1].id
    g.act(A.DrawTrait(player="A", trait=loud, component=bystander, pool="C"))
    g.refused(A.TakeOver(player="A", component=bystander), "U-COMP-4")


def test_U_COMP_5_buying_dice_one_coin_each_to_add_or_remove():
    g, knight, wizard = _two_targets()
    before = g.spendable("D")
    g.act(A.BuyDie(player="D", pool="C", count=3))
    g.act(A.BuyDie(player="D", pool="C", count=1, remove=True))  # the Complication Pool
    assert g.s.complication.pool("C").dice == 2 and g.spendable("D") == before - 4
    g.refused(A.BuyDie(player="D", pool="B", remove=True), "U-COMP-3")
    g.refused(A.BuyDie(player="D", pool="C", count=99), "U-ECO-3")


def test_U_COMP_6_resolution_needs_everyone_elses_agreement_a_decline_keeps_it_open():
    g, knight, wizard = _two_targets()
    g.do(A.CallResolution(player="D"))
    assert pending(g.s).kind == "consent" and set(pending(g.s).players) == {"A", "B", "Cy"}
    g.refused(A.AnswerResolution(player="D", agree=True), "U-COMP-6")
    g.do(A.AnswerResolution(player="A", agree=True))
    g.do(A.AnswerResolution(player="B", agree=False))
    assert g.s.complication is not None and not g.s.roll_pending and g.turn == "A"
    g.refused(A.AnswerResolution(player="Cy", agree=True), "U-COMP-6")
    g.call_and_agree("A")
    assert pending(g.s).kind == "roll" and pending(g.s).dice == {"C": 0, "B": 0, "Cy": 0}


def test_U_COMP_7_success_counting_and_face_validation():
    g, hero = rival_called(3)
    g.refused(A.Roll(faces={"C": [1, 2], "Ann": [1, 2, 3]}), "U-COMP-7")
    g.refused(A.Roll(faces={"C": [1, 2, 11], "Ann": [1, 2, 3]}), "U-COMP-7")
    g.refused(A.Roll(faces={"C": [1, 2, 3]}), "U-COMP-7")
    g.refused(A.NarrateEvent(player="Ben", text="x"), "U-COMP-7")
    # C: 5 and 0 (=10) and 6: one Success; Ann: 5, 5, 0: two Successes
    g.roll(C=[5, 0, 6], Ann=[5, 5, 0])
    assert g.s.complication.rolls[-1].faces["C"] == (5, 10, 6)
    assert g.s.complication.rolls[-1].successes == {"C": 1, "Ann": 2}
    assert g.s.complication.winner_side == "T"


def _multi():
    """Originator Dee; Target players Bo (knight) and Cy (wizard)."""
    players = ["Al", "Bo", "Cy", "Dee"]
    g = framed(players, {"Al": 1})
    g.end_turn("Al")
    knight = g.create("Bo", "Knight")
    g.end_turn("Bo")
    wizard = g.create("Cy", "Wizard")
    g.end_turn("Cy")
    g.event("Dee", "The knight strikes the wizard.", performer=knight, receiver=wizard)
    return g


def test_U_COMP_8_multi_pool_edge_and_U_COMP_9_bonus_and_U_COMP_11_order():
    g = _multi()
    assert [p.key for p in g.s.complication.pools] == ["C", "Bo", "Cy"]
    g.act(A.BuyDie(player="Dee", pool="C", count=2))
    g.act(A.BuyDie(player="Dee", pool="Bo", count=1))
    g.act(A.BuyDie(player="Dee", pool="Cy", count=1))
    g.end_turn("Dee")
    g.call_and_agree("Al")
    # 2 v 1+1 Successes, sums 5 v 4+1: equal sums, both sides get an Edge die; on the Target
    # side Bo and Cy tie on Successes, Bo sits closer to the Originator's left
    g.roll(C=[2, 3], Bo=[4], Cy=[1])
    pools = {p.key: p.edge for p in g.s.complication.pools}
    assert pools == {"C": 1, "Bo": 1, "Cy": 0}
    assert pending(g.s).dice == {"C": 3, "Bo": 2, "Cy": 1}
    # tie again 1 v 1, sums 5 v 3: the Complication gets a second Edge die
    g.roll(C=[5, 7, 9], Bo=[9, 8], Cy=[3])
    assert {p.key: p.edge for p in g.s.complication.pools} == {"C": 2, "Bo": 1, "Cy": 0}
    # tie 1 v 0+1, sums 1 v 1: both sides again; on the Target side Cy has more Successes
    g.roll(C=[1, 7, 9, 9], Bo=[9, 8], Cy=[1])
    assert {p.key: p.edge for p in g.s.complication.pools} == {"C": 3, "Bo": 1, "Cy": 1}
    # final roll: Targets 2 v 0. Edge dice are the last faces of each Pool.
    g.roll(C=[6, 7, 9, 8, 10], Bo=[2, 8], Cy=[6, 3])
    bonus = g.last("complication_result").data["bonus"]
    # Bo wins: Success 2 + his failed Edge 8 = 10; Cy wins: Edge 3 is a Success = 3;
    # Dee loses: 5 dice + Edge values 9 + 8 + 10 = 32
    assert bonus == {"C": 32, "Bo": 10, "Cy": 3}
    # U-COMP-11: winners from most to fewest coins, then the losers
    order = []
    while pending(g.s).kind == "narration":
        who = pending(g.s).players[0]
        order.append(who)
        g.do(A.EndNarration(player=who))
    assert order == ["Bo", "Cy", "Dee"]
    assert g.turn == "Al"  # play resumes with the player whose turn it was at the call
    g.check()


def test_U_COMP_9_losing_pool_earns_one_per_die_winning_pool_sum_of_successes():
    g, hero = rival_called(4)
    before = {p: g.spendable(p) for p in P3}
    g.roll(C=[1, 4, 9, 0], Ann=[6, 7, 5])
    assert g.last("complication_result").data["bonus"] == {"C": 5, "Ann": 3}
    g.narrate_out()
    assert g.spendable("Ben") == before["Ben"] + 5 and g.spendable("Ann") == before["Ann"] + 3
    assert g.s.player("Ben").ledger.bonus == 5


def test_U_COMP_10_winner_narrates_first_cancels_loser_coins_and_spends_only_on_tied_things():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    bystander = g.create("Ann", "Bystander")
    g.end_turn("Ann")
    thug = g.create("Ben", "Thug")
    g.event("Ben", "The thug punches the hero.", performer=thug, receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=3))
    g.call_and_agree("Ben")
    wealth = {p: g.spendable(p) for p in P3}
    g.roll(C=[4, 5], Ann=[7, 8, 9])
    assert pending(g.s).kind == "narration" and pending(g.s).players == ("Ben",)
    g.refused(A.CancelBonus(player="Ben", pool="Ann", coins=4), "U-COMP-10")  # Ann has only 3
    g.refused(A.CancelBonus(player="Ben", pool="C", coins=1), "U-COMP-10")
    g.do(A.CancelBonus(player="Ben", pool="Ann", coins=1))
    # bonus coins change what is tied to the Complication, whoever controls it
    g.act(A.AddTrait(player="Ben", component=hero, text="Black eye"))
    assert g.s.components[hero].traits[-1].text == "Black eye" and g.s.complication is not None
    g.refused(A.AddTrait(player="Ben", component=bystander, text="Bruised"), "U-COMP-10")
    g.refused(A.Interrupt(player="Cat"), "U-TURN-3")
    g.act(A.NarrateEvent(player="Ben", text="The hero staggers.", receiver=hero))
    g.do(A.EndNarration(player="Ben"))  # 9 - 1 - 1 - 1 = 6 kept
    assert g.spendable("Ben") == wealth["Ben"] + 6
    assert pending(g.s).players == ("Ann",)
    g.refused(A.CancelBonus(player="Ann", pool="C", coins=1), "U-COMP-10")  # losers do not cancel
    g.do(A.EndNarration(player="Ann"))
    assert g.spendable("Ann") == wealth["Ann"] + 2
    assert g.s.complication is None
    g.check()


def test_U_COMP_11_no_interrupts_during_narration_but_challenges_stay_possible():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rock falls on the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=1))
    g.end_turn("Ben")
    g.call_and_agree("Cat")
    g.roll(C=[2], Ann=[])
    assert pending(g.s).players == ("Ben",)
    g.do(A.NarrateEvent(player="Ben", text="The hero is pinned.", receiver=hero))
    assert all(o.type not in ("interrupt", "obstacle") for o in legal_options(g.s, "Ann"))
    g.refused(A.Interrupt(player="Ann"), "U-COMP-11")
    g.refused(A.EndNarration(player="Ann"), "U-TURN-3")
    g.react({"Ann": A.ChallengeStatement(player="Ann", reason="too harsh")})
    g.do(A.ConcedeChallenge(player="Ben"))
    g.passes()
    assert pending(g.s).kind == "narration"
    g.refused(A.EndNarration(player="Ann"), "U-COMP-11")
    g.narrate_out()
    assert g.turn == "Cat"  # Cat called for resolution on her turn


def test_U_COMP_11_equal_bonus_narrates_closest_to_the_originators_left_first():
    players = ["Al", "Bo", "Cy", "Dee"]
    g = framed(players, {"Al": 1})
    g.end_turn("Al")
    knight = g.create("Bo", "Knight")
    g.end_turn("Bo")
    g.end_turn("Cy")
    wizard = g.create("Dee", "Wizard")
    g.end_turn("Dee")
    g.end_turn("Al")
    g.end_turn("Bo")
    g.event("Cy", "The knight strikes the wizard.", performer=knight, receiver=wizard)
    assert [p.key for p in g.s.complication.pools] == ["C", "Bo", "Dee"]
    for pool in ("C", "Bo", "Dee"):
        g.act(A.BuyDie(player="Cy", pool=pool, count=1))
    g.call_and_agree("Cy")
    g.roll(C=[9], Bo=[2], Dee=[2])
    assert g.last("complication_result").data["bonus"] == {"C": 1, "Bo": 2, "Dee": 2}
    order = []
    while pending(g.s).kind == "narration":
        order.append(pending(g.s).players[0])
        g.do(A.EndNarration(player=order[-1]))
    assert order == ["Dee", "Bo", "Cy"]  # Dee sits right after the Originator Cy
    assert g.turn == "Cy"


def test_U_COMP_10_bonus_coins_may_propose_a_Tenet_one_per_narration_part_U_PREP_2():
    """Line 1151: bonus coins buy anything the rules sell, "even proposing new game Tenets"."""
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rock falls on the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=1))
    g.call_and_agree("Ben")
    g.roll(C=[4], Ann=[])
    assert pending(g.s).players == ("Ben",) and g.s.narration.slots[g.s.narration.current].coins == 4
    assert "propose_tenet" in {o.type for o in legal_options(g.s, "Ben")}
    wealth = g.wealth("Ben")
    g.act(A.ProposeTenet(player="Ben", text="Rocks fall in these hills.", kind="world"))
    assert g.s.tenets[-1].text == "Rocks fall in these hills." and g.s.tenets[-1].by == "Ben"
    assert g.s.narration.slots[g.s.narration.current].coins == 3 and g.wealth("Ben") == wealth
    g.refused(A.ProposeTenet(player="Ben", text="And they fall often."), "U-PREP-2", "one Tenet")
    assert "propose_tenet" not in {o.type for o in legal_options(g.s, "Ben")}
    g.do(A.EndNarration(player="Ben"))
    assert g.wealth("Ben") == wealth + 3
    g.check()
