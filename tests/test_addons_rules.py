"""Universalis add-ons (issue 22), each under its UA-* rule ID with the book's line and exact coins.

Book = shared/seeds/000_980e818fe18fd30d.txt; digest = shared/rules/universalis-addons.md.
"""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.components import importance
from engine_helpers import Game, all_pass_prep, check_invariants, framed, game


# --- Game Preparation add-ons ----------------------------------------------------------------------------
def test_ua_first_1_extra_refresh_before_the_first_scene():
    """UA-FIRST-1 (L1874-1880): a normal Refresh of 5 before the first scene; core gives none."""
    g = game(addons={"first_scene_coins": "refresh"})
    g.act(A.ProposeTenet(player="Ann", text="Noir."))
    assert g.wealth("Ann") == 24
    while g.s.phase == "prep":
        g.do(A.PassPrep(player=g.pend.players[0]))
    assert g.wealth("Ann") == 24 + 5 and g.wealth("Ben") == 30 and g.wealth("Cat") == 30
    core = game()
    core.act(A.ProposeTenet(player="Ann", text="Noir."))
    all_pass_prep(core)
    assert core.wealth("Ann") == 24 and core.wealth("Ben") == 25
    check_invariants(g.s)


def test_ua_first_1_effect_on_the_last_pass():
    """UA-FIRST-1 (L1880): the Refresh comes as preparation ends, once."""
    g = game(addons={"first_scene_coins": "refresh"})
    g.do(A.PassPrep(player="Ann"))
    g.do(A.PassPrep(player="Ben"))
    g.effect("UA-FIRST-1", A.PassPrep(player="Cat"),
             lambda b, a: a.phase == "bidding" and all(p.wealth == 30 for p in a.players), react=False)


def test_ua_first_2_wealth_reset_to_the_start_before_the_first_scene():
    """UA-FIRST-2 (L1882-1886, variant): Wealth resets to 25 before the first bid, so prep spending is free."""
    g = game(addons={"first_scene_coins": "reset_to_start"})
    g.act(A.ProposeTenet(player="Ann", text="Noir."))
    g.act(A.ProposeTenet(player="Ben", text="Rain."))
    g.do(A.PassPrep(player="Cat"))
    g.do(A.PassPrep(player="Ann"))
    g.effect("UA-FIRST-2", A.PassPrep(player="Ben"),
             lambda b, a: a.phase == "bidding" and [p.wealth for p in a.players] == [25, 25, 25], react=False)
    check_invariants(g.s)


def test_ua_tenet_1_multiple_tenets_three_on_one_idea_cost_three():
    """UA-TENET-1 (L1940, digest §4): three Tenets on one idea in one turn cost 3; core refuses more than 1."""
    g = game(addons={"max_tenets_per_turn": None, "tenets_same_idea": True})
    g.effect("UA-TENET-1", A.ProposeTenets(player="Ann", texts=["Vampires rule Paris", "Sunlight burns them",
                                                              "Humans are cattle"], idea="vampire Paris"),
             lambda b, a: a.player("Ann").wealth == 22 and len(a.tenets) == 3)
    core = game()
    core.refused(A.ProposeTenets(player="Ann", texts=["A", "B"]), "UA-TENET-1", "Multiple Tenets")


def test_ua_tenet_2_an_idea_must_be_named():
    """UA-TENET-2 (L1940 'so long as they're all related to the same basic idea'): no idea named, refused."""
    g = game(addons={"max_tenets_per_turn": None, "tenets_same_idea": True})
    g.refused(A.ProposeTenets(player="Ann", texts=["Vampires", "Zeppelins"]), "UA-TENET-2", "basic idea")


def test_ua_seed_1_seed_element_is_the_first_tenet():
    """UA-SEED-1 (L1946-1956): the bringer presents 'Orion' + 'needs to be rescued' as the first Tenet, 1 coin."""
    seed = {"role": "Orion", "call_to_action": "needs to be rescued", "by": "Ben"}
    g = game(addons={"seed_component": seed})
    g.refused(A.ProposeTenet(player="Ann", text="Noir."), "UA-SEED-1", "Ben first presents")
    g.refused(A.PresentSeed(player="Ann"), "UA-SEED-1", "Ben brought")
    g.effect("UA-SEED-1", A.PresentSeed(player="Ben"),
             lambda b, a: a.player("Ben").wealth == 24 and any(
                 [t.text for t in c.traits] == ["Orion", "needs to be rescued"] for c in a.components.values()))
    g.act(A.ProposeTenet(player="Ann", text="Noir."))
    g.refused(A.PresentSeed(player="Ben"), "UA-SEED-1", "already")


def test_ua_job_1_the_bank_pays_a_job_each_scene():
    """UA-JOB-1 (L1914-1920): a record keeper paid 1 per scene gets 5 + 1 at the scene's end."""
    g = framed(addons={"jobs": [{"player": "Ben", "title": "Record keeper", "coins": 1, "schedule": "scene"}]})
    framer = g.turn
    before = g.wealth("Ben")
    g.effect("UA-JOB-1", A.EndScene(player=framer),
             lambda b, a: a.player("Ben").wealth == b.player("Ben").wealth + 5 + 1
             and a.player("Cat").wealth == b.player("Cat").wealth + 5)
    assert g.wealth("Ben") == before + 6
    check_invariants(g.s)


def test_ua_job_2_and_3_a_job_starts_and_ends_by_a_one_coin_gimmick():
    """UA-JOB-2, UA-JOB-3 (L1914 @252819, digest §4): starting or ending a job costs the proposer 1."""
    g = framed()
    framer = g.turn
    g.effect("UA-JOB-2", A.StartJob(player=framer, holder="Cat", title="DJ", coins=2, schedule="session_end"),
             lambda b, a: a.player(framer).spendable == b.player(framer).spendable - 1 and len(a.extra.jobs) == 1)
    g.refused(A.StartJob(player=framer, holder="Zed", title="Host"), "UA-JOB-2", "not a player")
    g.end_turn()
    nxt = g.turn
    g.effect("UA-JOB-3", A.EndJob(player=nxt, title="DJ"),
             lambda b, a: not a.extra.jobs and a.player(nxt).spendable == b.player(nxt).spendable - 1)
    g.refused(A.EndJob(player=nxt, title="DJ"), "UA-JOB-3", "no job")


def test_ua_job_4_per_item_jobs_are_paid_when_another_player_records_the_item():
    """UA-JOB-4 (L1916 'per item produced'): an illustrator paid 2 per drawing."""
    g = framed(addons={"jobs": [{"player": "Cat", "title": "Illustrator", "coins": 2, "schedule": "item"}]})
    g.refused(A.JobItem(player="Cat", title="Illustrator"), "UA-JOB-4", "another player")
    g.effect("UA-JOB-4", A.JobItem(player="Ann", title="Illustrator", text="a map"),
             lambda b, a: a.player("Cat").wealth == b.player("Cat").wealth + 2)
    check_invariants(g.s)


# --- Component Creation add-ons -----------------------------------------------------------------------------
def test_ua_named_1_no_new_named_characters():
    """UA-NAMED-1 (L2232-2236): no named character is Created, nor is an unnamed one named (reading)."""
    g = framed(addons={"named_characters_locked": True})
    p = g.turn
    g.refused(A.CreateComponent(player=p, role="Sheriff", proper_name="Wyatt", introduce=True), "UA-NAMED-1",
              "Named Character Limit")
    cid = g.create(p, "Sheriff")
    g.refused(A.AddTrait(player=p, component=cid, text="Wyatt", kind="name"), "UA-NAMED-1", "Named Character Limit")
    g.act(A.CreateComponent(player=p, role="Saloon", kind="location", proper_name="The Long Branch"))


def test_ua_one_1_only_one_positive_trait_per_turn():
    """UA-ONE-1 (L2242-2246): a character gains 1 neutral/advantageous Trait a turn; drawbacks unlimited."""
    g = framed(addons={"max_positive_traits": 1})
    p = g.turn
    cid = g.create(p, "Gunslinger")
    g.effect("UA-ONE-1", A.AddTrait(player=p, component=cid, text="Quick draw"),
             lambda b, a: len(a.components[cid].traits) == 2)
    g.refused(A.AddTrait(player=p, component=cid, text="Eagle eye"), "UA-ONE-1", "Only 1 Trait per Turn")
    g.act(A.AddTrait(player=p, component=cid, text="Drinks", negative=True))
    g.act(A.AddTrait(player=p, component=cid, text="Wanted", negative=True))
    loc = g.s.scene().location
    g.act(A.AddTrait(player=p, component=loc, text="Dusty"))
    g.act(A.AddTrait(player=p, component=loc, text="Windy"))  # not a character: no limit
    g.end_turn()
    g.end_turn()
    g.end_turn()
    g.act(A.AddTrait(player=g.turn, component=cid, text="Eagle eye"))


def test_ua_mult_1_no_same_trait_multiple_times():
    """UA-MULT-1 (L2248-2252): no 'Marksman x3', nor a second 'Marksman'; Group (number) Traits may repeat."""
    g = framed(addons={"allow_trait_multiples": False})
    p = g.turn
    cid = g.create(p, "Soldier")
    g.refused(A.AddTrait(player=p, component=cid, text="Marksman", times=3), "UA-MULT-1", "more than once")
    g.act(A.AddTrait(player=p, component=cid, text="Marksman"))
    g.refused(A.AddTrait(player=p, component=cid, text="marksman"), "UA-MULT-1", "already has")
    g.effect("UA-MULT-1", A.AddTrait(player=p, component=cid, text="Group (10 men)", times=3),
             lambda b, a: sum(t.text == "Group (10 men)" for t in a.components[cid].traits) == 3)


def test_ua_mult_1_any_trait_standing_for_a_number_repeats():
    """UA-MULT-1 (L2252 "except to represent numbers"; the book wins over the digest's "Group (number)"):
    the book's own "Shock Squad x3" (L1165) and "Numbers x3" (L1247) and a counted "Riders (12)" repeat,
    each occurrence 1 coin; "Marksman" still may not."""
    g = framed(addons={"allow_trait_multiples": False})
    p = g.turn
    cid = g.create(p, "Troopers")
    for text in ("Shock Squad", "Numbers", "Riders (12)"):
        before = g.wealth(p)
        g.effect("UA-MULT-1", A.AddTrait(player=p, component=cid, text=text, times=3),
                 lambda b, a, text=text: sum(t.text == text for t in a.components[cid].traits) == 3)
        assert g.wealth(p) == before - 3
    g.refused(A.AddTrait(player=p, component=cid, text="Eagle eye", times=2), "UA-MULT-1", "stands for a number")


def test_ua_pmi_1_nobody_outranks_the_main_protagonist():
    """UA-PMI-1 (L2258-2262): no character's Importance may exceed the Main Protagonist's, the Main Antagonist excepted."""
    g = framed(addons={"importance_cap": "protagonist"})
    p = g.turn
    hero = g.create(p, "Hero")
    g.add(p, hero, "Main Protagonist")  # Importance 2
    side = g.create(p, "Sidekick")
    g.add(p, side, "Loyal")  # 2
    g.refused(A.AddTrait(player=p, component=side, text="Brave"), "UA-PMI-1", "Protagonists Must be Most Important")
    villain = g.create(p, "Villain")
    g.add(p, villain, "Main Antagonist")
    g.effect("UA-PMI-1", A.AddTrait(player=p, component=villain, text="Cruel", times=3),
             lambda b, a: g.imp(villain) == 0 or len(a.components[villain].traits) == 5)


def test_ua_gctrl_1_control_trait_only_on_own_creation():
    """UA-GCTRL-1 (L2058-2066): 'Controlled by <player>' goes on a Component one Created (options off)."""
    g = framed(addons={"control_traits": True})
    p = g.turn
    cid = g.create(p, "Detective")
    other = [n for n in g.s.seat_names if n != p][0]
    g.refused(A.AddTrait(player=p, component=cid, text=f"Controlled by {other}"), "UA-GCTRL-1", "names its buyer")
    g.effect("UA-GCTRL-1", A.AddTrait(player=p, component=cid, text=f"Controlled by {p}"),
             lambda b, a: a.components[cid].traits[-1].text == f"Controlled by {p}")
    g.end_turn()
    q = g.turn
    g.refused(A.AddTrait(player=q, component=cid, text=f"Controlled by {q}"), "UA-GCTRL-1", "did not Create")


def test_ua_gctrl_2_immutable_control_traits():
    """UA-GCTRL-2 (L2066 'Control Traits can never be eliminated or altered'): removal refused."""
    g = framed(addons={"control_traits": True, "control_traits_immutable": True})
    p = g.turn
    cid = g.create(p, "Detective")
    tid = g.add(p, cid, f"Controlled by {p}")
    g.refused(A.RemoveTrait(player=p, trait=tid), "UA-GCTRL-2", "never be removed")


def test_ua_pd_1_public_domain_take_over_is_free():
    """UA-PD-1 (L2072-2078): Taking Over a 'Public Domain' Component costs 0; others still cost 1."""
    g = framed(addons={"public_domain_traits": True})
    p = g.turn
    castle = g.create(p, "Castle", kind="prop")
    g.add(p, castle, "Public Domain")
    guard = g.create(p, "Guard")
    g.end_turn()
    q = g.turn
    g.effect("UA-PD-1", A.TakeOver(player=q, component=castle),
             lambda b, a: a.player(q).spendable == b.player(q).spendable and a.controller(castle) == q)
    before = g.spendable(q)
    g.act(A.TakeOver(player=q, component=guard))
    assert g.spendable(q) == before - 1
    check_invariants(g.s)


def test_ua_roy_1_royalty_pays_one_to_the_bank_and_one_to_the_owner():
    """UA-ROY-1 (L2084-2088, digest §4 'Royalty 1 to Bank + 1 to owner')."""
    g = framed(addons={"control_traits": True, "royalty": True})
    p = g.turn
    cid = g.create(p, "Duke")
    g.add(p, cid, f"Controlled by {p}")
    g.end_turn()
    q = g.turn
    bank = g.s.bank_in
    g.effect("UA-ROY-1", A.TakeOver(player=q, component=cid, royalty=True),
             lambda b, a: a.player(q).spendable == b.player(q).spendable - 2
             and a.player(p).wealth == b.player(p).wealth + 1 and a.controller(cid) == q, react=False)
    assert g.s.bank_in == bank + 1
    check_invariants(g.s)


def test_ua_roy_2_a_royalty_take_over_cannot_be_challenged():
    """UA-ROY-2 (L2088 'without fear of Challenge'): the window after it refuses a Challenge."""
    g = framed(addons={"control_traits": True, "royalty": True})
    p = g.turn
    cid = g.create(p, "Duke")
    g.add(p, cid, f"Controlled by {p}")
    g.end_turn()
    q = g.turn
    g.do(A.TakeOver(player=q, component=cid, royalty=True))
    g.refused(A.ChallengeStatement(player=p, reason="mine"), "UA-ROY-2", "without fear of Challenge")
    assert g.s.window is not None and not g.s.window.allow_challenge


def test_ua_roy_1_refusals():
    """UA-ROY-1: Royalty needs a Control Trait naming another player; the core refuses a Royalty flag."""
    g = framed(addons={"control_traits": True, "royalty": True})
    p = g.turn
    cid = g.create(p, "Duke")
    g.end_turn()
    g.refused(A.TakeOver(player=g.turn, component=cid, royalty=True), "UA-ROY-1", "no Control Trait")
    core = framed()
    cid = core.create(core.turn, "Duke")
    core.end_turn()
    core.refused(A.TakeOver(player=core.turn, component=cid, royalty=True), "UA-ROY-1", "not in play")


def test_ua_friend_1_cede_control_free():
    """UA-FRIEND-1 (L2010-2012): a Controller hands Control to any player at any time, free."""
    g = framed(addons={"friendly_control": "cede"})
    p = g.turn
    cid = g.create(p, "Horse")
    other = [n for n in g.s.seat_names if n != p][0]
    g.effect("UA-FRIEND-1", A.CedeControl(player=p, component=cid, to=other),
             lambda b, a: a.controller(cid) == other and a.player(p).spendable == b.player(p).spendable)
    g.refused(A.CedeControl(player=p, component=cid, to=other), "UA-FRIEND-1", "does not Control")
    core = framed()
    cid = core.create(core.turn, "Horse")
    core.refused(A.CedeControl(player=core.turn, component=cid, to="Cat" if core.turn != "Cat" else "Ann"),
                 "UA-FRIEND-1", "not in play")


def test_ua_friend_2_free_take_over_on_ones_own_turn():
    """UA-FRIEND-2 (L2014 variant): anyone takes Control on his turn for 0 coins."""
    g = framed(addons={"friendly_control": "free_takeover"})
    p = g.turn
    cid = g.create(p, "Horse")
    g.end_turn()
    q = g.turn
    g.effect("UA-FRIEND-2", A.TakeOver(player=q, component=cid),
             lambda b, a: a.controller(cid) == q and a.player(q).spendable == b.player(q).spendable)


def test_ua_dur_1_durable_costs_five_at_creation():
    """UA-DUR-1 (L2170-2172): 'Durable' is bought at Creation for 5 (1 for the Role + 5), and counts for Importance."""
    g = framed(addons={"durable_cost": 5})
    p = g.turn
    g.effect("UA-DUR-1", A.CreateComponent(player=p, role="Troll", introduce=True, durable=True),
             lambda b, a: a.player(p).spendable == b.player(p).spendable - 6)
    cid = g.new_component()
    assert [t.text for t in g.s.components[cid].traits] == ["Troll", "Durable"] and g.imp(cid) == 2
    core = framed()
    core.refused(A.CreateComponent(player=core.turn, role="Troll", durable=True), "UA-DUR-1", "not in play")


def test_ua_dur_2_removing_a_durable_components_trait_costs_two():
    """UA-DUR-2 (L2172): removing a Trait of a Durable component costs 2; 'Durable' itself can't be removed."""
    g = framed(addons={"durable_cost": 5})
    p = g.turn
    cid = g.create(p, "Troll", durable=True)
    tid = g.add(p, cid, "Club")
    g.effect("UA-DUR-2", A.RemoveTrait(player=p, trait=tid),
             lambda b, a: a.player(p).spendable == b.player(p).spendable - 2)
    g.refused(A.RemoveTrait(player=p, trait=g.trait(cid, "Durable")), "UA-DUR-2", "cannot be Removed")
    g.refused(A.AddTrait(player=p, component=cid, text="Durable"), "UA-DUR-2", "when a component is Created")


def test_ua_dur_3_the_books_combat_example():
    """UA-DUR-3 (L2176, digest §4): B has Importance 6 and is Durable; eliminating costs 12, not 6."""
    g = framed(addons={"durable_cost": 5}, bids={"Ann": 0})
    p = g.turn
    cid = g.create(p, "B", durable=True)  # Role + Durable = 2
    for w in ("Big", "Strong", "Fast", "Mean"):
        g.add(p, cid, w)
    assert g.imp(cid) == 6
    g.refused(A.ReduceImportance(player=p, component=cid, coins=3), "UA-DUR-3", "multiple of 2")
    g.effect("UA-DUR-3", A.ReduceImportance(player=p, component=cid, coins=4),
             lambda b, a: importance(a, cid) == 4 and a.player(p).spendable == b.player(p).spendable - 4)
    g.act(A.ReduceImportance(player=p, component=cid, coins=8))  # 12 in all to Eliminate Importance 6
    assert g.s.components[cid].eliminated
    check_invariants(g.s)


def test_ua_enigma_1_secret_trait_costs_two_and_is_hidden():
    """UA-ENIGMA-1 (L2184 'You have to pay 2 Coins for an Enigma Trait'): hidden from the others."""
    from engine.universalis.ruleset import UniversalisRuleset
    g = framed(addons={"enigma_trait_cost": 2})
    p = g.turn
    cid = g.create(p, "Elton Frakes")
    g.effect("UA-ENIGMA-1", A.AddTrait(player=p, component=cid, text="Werewolf", enigma=True),
             lambda b, a: a.player(p).spendable == b.player(p).spendable - 2 and a.components[cid].traits[-1].secret)
    rs = UniversalisRuleset()
    other = [n for n in g.s.seat_names if n != p][0]
    seen = lambda who: [t["text"] for c in rs.view(g.s, who)["components"] if c["id"] == cid for t in c["traits"]]
    assert "Werewolf" in seen(p) and "Werewolf" not in seen(other)
    assert "Werewolf" not in " ".join(e.text for e in g.events)
    core = framed()
    cid = core.create(core.turn, "Elton")
    core.refused(A.AddTrait(player=core.turn, component=cid, text="Werewolf", enigma=True), "UA-ENIGMA-1",
                 "not in play")


def test_ua_enigma_2_and_3_unusable_until_revealed():
    """UA-ENIGMA-2, UA-ENIGMA-3 (L2182-2186): a secret Trait can't be drawn on; revealed, it can."""
    g = framed(addons={"enigma_trait_cost": 2})
    p = g.turn
    cid = g.create(p, "Elton")
    tid = g.add(p, cid, "Werewolf", enigma=True)
    other = [n for n in g.s.seat_names if n != p][0]
    g.refused(A.RevealTrait(player=other, trait=tid), "UA-ENIGMA-3", "only the player")
    g.effect("UA-ENIGMA-3", A.RevealTrait(player=p, trait=tid),
             lambda b, a: not a.components[cid].traits[-1].secret, react=False)
    g.refused(A.RevealTrait(player=p, trait=tid), "UA-ENIGMA-3", "not a secret")


def test_ua_enigma_2_secret_trait_cannot_be_drawn(monkeypatch):
    """UA-ENIGMA-2 (L2182 'cannot be used for Complications or Challenges until revealed')."""
    from engine.universalis.addon_rules import check_draw
    from engine.universalis.state import Trait
    with pytest.raises(RuleViolation) as exc:
        check_draw(None, Trait(id="t1", text="Werewolf", secret=True))  # type: ignore[arg-type]
    assert exc.value.rule == "UA-ENIGMA-2"
    from engine_helpers import observed
    observed("UA-ENIGMA-2", "refusal")


def test_ua_pref_1_protagonist_refresh_is_seven():
    """UA-PREF-1 (L2206-2210): after a scene the Main Protagonist was Introduced in, Refresh is 7, not 5."""
    g = framed(addons={"protagonist_refresh": 7})
    p = g.turn
    hero = g.create(p, "Hero")
    g.add(p, hero, "Main Protagonist")
    g.effect("UA-PREF-1", A.EndScene(player=p),
             lambda b, a: all(x.wealth == y.wealth + 7 for x, y in zip(a.players, b.players)))
    g2 = framed(addons={"protagonist_refresh": 7})
    p2 = g2.turn
    before = [x.wealth for x in g2.s.players]
    g2.act(A.EndScene(player=p2))
    assert [x.wealth for x in g2.s.players] == [w + 5 for w in before]


# --- sessions -----------------------------------------------------------------------------------------------
def _between_scenes(**addons) -> Game:
    g = framed(addons=addons or None)
    g.act(A.EndScene(player=g.turn))
    return g


def test_ua_sess_1_the_table_closes_at_session_end():
    """UA-SESS-1 (L2442-2446): a closed table refuses play until the next session starts."""
    g = _between_scenes()
    g.effect("UA-SESS-1", A.EndSession(player="Ann"), lambda b, a: not a.extra.session_open, react=False)
    g.refused(A.Bid(player="Ann", amount=0), "UA-SESS-1", "closed between sessions 1 and 2")
    g.refused(A.EndSession(player="Ann"), "UA-SESS-1")


def test_ua_sess_2_the_log_says_where_each_session_starts():
    """UA-SESS-2: StartSession reopens the table and the log's event says 'Session 2 starts'."""
    g = _between_scenes()
    g.do(A.EndSession(player="Ann"))
    g.effect("UA-SESS-2", A.StartSession(player="Ben"), lambda b, a: a.extra.session == 2 and a.extra.session_open,
             react=False)
    assert g.last("session_start").text == "Session 2 starts."
    g.refused(A.StartSession(player="Ben"), "UA-SESS-2", "still being played")
    g.bids({})
    assert g.s.phase == "scene"


def test_ua_sess_3_open_scenes_stay_open_only_under_standard_intersession():
    """UA-SESS-3 (L2446-2452): Standard Intersession keeps the open scene open and Wealth as it was."""
    g = framed()
    g.refused(A.EndSession(player="Ann"), "UA-SESS-3", "Standard Intersession")
    g = framed(addons={"carry_over_sessions": True})
    framer = g.turn
    wealth = [p.wealth for p in g.s.players]
    g.effect("UA-SESS-3", A.EndSession(player="Ann"), lambda b, a: not a.extra.session_open and a.phase == "scene",
             react=False)
    g.do(A.StartSession(player="Ann"))
    assert g.turn == framer and [p.wealth for p in g.s.players] == wealth
    g.event(framer, "The rain keeps falling.")


def test_ua_present_1_every_original_player_must_be_present():
    """UA-PRESENT-1 (L2456-2460): later sessions only with all players from the first one."""
    g = _between_scenes(require_original_players=True)
    g.do(A.EndSession(player="Ann"))
    g.refused(A.StartSession(player="Ann", present=["Ann", "Ben"]), "UA-PRESENT-1", "Cat")
    g.effect("UA-PRESENT-1", A.StartSession(player="Ann", present=["Ann", "Ben", "Cat"]),
             lambda b, a: a.extra.session_open, react=False)
    core = _between_scenes()
    core.do(A.EndSession(player="Ann"))
    core.do(A.StartSession(player="Ann", present=["Ann", "Ben"]))


def test_ua_revisit_1_each_session_starts_with_game_prep():
    """UA-REVISIT-1 (L2462-2466): a new Game Prep phase at the session start; passing goes to the first scene."""
    g = _between_scenes(revisit_tenets_each_session=True)
    g.do(A.EndSession(player="Ann"))
    g.effect("UA-REVISIT-1", A.StartSession(player="Ben"), lambda b, a: a.phase == "prep", react=False)
    assert list(g.pend.players) == ["Ben"]
    g.act(A.ProposeTenet(player="Ben", text="Less gore.", kind="social"))
    all_pass_prep(g)
    assert g.s.phase == "bidding"
    g2 = framed(addons={"revisit_tenets_each_session": True, "carry_over_sessions": True})
    g2.refused(A.EndSession(player="Ann"), "UA-REVISIT-1", "end the scene first")


def test_ua_coin_1_session_end_refresh():
    """UA-COIN-1 (L2486-2488): the end of a session counts as a scene end: +5 each."""
    g = _between_scenes(session_end_refresh=True)
    g.effect("UA-COIN-1", A.EndSession(player="Ann"),
             lambda b, a: all(x.wealth == y.wealth + 5 for x, y in zip(a.players, b.players)), react=False)
    check_invariants(g.s)


def test_ua_coin_2_session_start_wealth_reset():
    """UA-COIN-2 (L2488-2490): Wealth resets to a set level (25) at each session start, up or down."""
    g = _between_scenes(session_start_wealth=25)
    g.do(A.EndSession(player="Ann"))
    g.effect("UA-COIN-2", A.StartSession(player="Ann"),
             lambda b, a: [p.wealth for p in a.players] == [25, 25, 25], react=False)
    check_invariants(g.s)


def test_ua_serial_1_session_end_reminds_to_leave_a_thread_dangling():
    """UA-SERIAL-1 (L1904-1912): a reminder at session end (the engine cannot judge plot threads)."""
    g = _between_scenes(serial_require_open_thread=True)
    g.effect("UA-SERIAL-1", A.EndSession(player="Ann"),
             lambda b, a: a.extra.session_open is False, react=False)
    assert "dangling" in g.last("reminder").text


def test_ua_job_1_session_schedules():
    """UA-JOB-1 (L1916 'at the beginning or end of each session'): a host paid 2 at each session start."""
    g = _between_scenes(jobs=[{"player": "Cat", "title": "Host", "coins": 2, "schedule": "session_start"}])
    g.do(A.EndSession(player="Ann"))
    g.effect("UA-JOB-1", A.StartSession(player="Ann"),
             lambda b, a: a.player("Cat").wealth == b.player("Cat").wealth + 2, react=False)


def test_ua_between_1_create_components_between_sessions():
    """UA-BETWEEN-1 (L2496-2500): a pool of Coins for Creating between sessions, lost at the next start if use-or-lose."""
    g = _between_scenes(intersession_creation_pool=3, intersession_use_or_lose=True)
    g.do(A.EndSession(player="Ann"))
    wealth = g.wealth("Ann")
    g.effect("UA-BETWEEN-1", A.CreateComponent(player="Ann", role="Airship", proper_name="Orion", kind="prop"),
             lambda b, a: a.extra.between_pools["Ann"] == 1 and len(a.components) == len(b.components) + 1)
    assert g.wealth("Ann") == wealth
    g.refused(A.CreateComponent(player="Ann", role="Airship", proper_name="Hindenburg", kind="prop"),
              "UA-BETWEEN-1", "1 coin left")
    check_invariants(g.s)  # the pool's coins are the Bank's, set aside (U-ECO-2)
    g.do(A.StartSession(player="Ann"))
    assert g.s.extra.between_pools == {} and g.s.addon.set_aside == g.s.addon.set_aside_spent == 9
    assert "made between sessions" in g.last("component").text and g.s.extra.between_made == []
    check_invariants(g.s)
    core = _between_scenes()
    core.do(A.EndSession(player="Ann"))
    core.refused(A.CreateComponent(player="Ann", role="Airship"), "UA-SESS-1", "Create Components Between Sessions")


def test_ua_gctrl_3_control_trait_doubles_its_holders_coins_in_a_control_challenge():
    """UA-GCTRL-3 (L2060 'it is a Fact that gives your Coins double value to Challenge for Control'): Ann's
    2 coins against Ben's 3 count 4, so Ben's Take Over of her Detective is undone."""
    g = framed(["Ann", "Ben", "Cat"], {"Ann": 1}, addons={"control_traits": True})
    det = g.create("Ann", "Detective")
    ctrl = g.add("Ann", det, "Controlled by Ann")
    g.end_turn("Ann")
    g.do(A.TakeOver(player="Ben", component=det))
    assert g.s.controller(det) == "Ben"
    g.react({"Ann": A.ChallengeStatement(player="Ann", reason="he is mine", fact=ctrl)})
    g.do(A.ContestChallenge(player="Ben"))
    g.do(A.ChallengeBid(player="Ann", option=1, coins=2))
    g.do(A.ChallengePass(player="Cat"))
    g.do(A.ChallengeBid(player="Ben", option=0, coins=3))
    for p in ["Ann", "Cat", "Ben"]:
        g.do(A.ChallengePass(player=p))
    assert g.last("challenge_result").data["totals"] == [3, 4]
    assert g.s.controller(det) == "Ann"
    from engine_helpers import observed
    observed("UA-GCTRL-3", "effect")
    check_invariants(g.s)


def test_ua_setting_1_setting_creation_phase_pools():
    """UA-SETTING-1 (L1890-1896, digest §4 'setting pool of 25, unspent Coins lost'): after Game Prep each player
    spends a separate 25-Coin pool, never his Wealth; when all pass the leftovers go to the Bank."""
    g = game(addons={"setting_phase_pool": 25})
    for p in ["Ann", "Ben", "Cat"]:
        g.do(A.PassPrep(player=p))
    assert g.s.phase == "prep" and g.s.extra.setting_phase and g.s.extra.setting_pools == {"Ann": 25, "Ben": 25, "Cat": 25}
    g.effect("UA-SETTING-1", A.ProposeTenet(player="Ann", text="The Empire fell a century ago.", kind="world"),
             lambda b, a: a.extra.setting_pools["Ann"] == 24 and a.player("Ann").wealth == 25)
    g.act(A.CreateComponent(player="Ben", role="Ruined capital", kind="location"))
    assert g.s.extra.setting_pools["Ben"] == 24 and g.wealth("Ben") == 25
    for p in ["Cat", "Ann", "Ben"]:
        g.do(A.PassPrep(player=p))
    assert g.s.phase == "bidding" and not g.s.extra.setting_phase and g.s.extra.setting_pools == {}
    assert [p.wealth for p in g.s.players] == [25, 25, 25]
    assert g.s.addon.set_aside == g.s.addon.set_aside_spent == 75  # 2 spent, 73 back to the Bank (U-ECO-2)
    check_invariants(g.s)


def test_ua_setting_1_a_spent_pool_refuses():
    """UA-SETTING-1: the pool is all a player may spend in the phase (here 1 Coin)."""
    g = game(addons={"setting_phase_pool": 1})
    for p in ["Ann", "Ben", "Cat"]:
        g.do(A.PassPrep(player=p))
    g.act(A.ProposeTenet(player="Ann", text="Old gods sleep."))
    g.do(A.PassPrep(player="Ben"))
    g.do(A.PassPrep(player="Cat"))
    g.refused(A.ProposeTenet(player="Ann", text="And dream."), "UA-SETTING-1", "setting pool")


def test_ua_new_1_new_players_join_by_a_gimmick_with_coins_by_the_table_rule():
    """UA-NEW-1, UA-NEW-2 (L2468-2480): a newcomer joins at a session start by a 1-coin Rules Gimmick, with the
    Coins of the poorest player under the 'min' rule; the story cap refuses a fifth player."""
    g = _between_scenes(new_player_admission="gimmick", new_player_wealth="min", max_players_per_story=4)
    g.do(A.EndSession(player="Ann"))
    poorest = min(p.wealth for p in g.s.players)
    ann = g.wealth("Ann")
    g.refused(A.StartSession(player="Ann", new_players=["Dee", "Eve"]), "UA-NEW-1", "capped at 4")
    g.effect("UA-NEW-1", A.StartSession(player="Ann", new_players=["Dee"]),
             lambda b, a: a.seat_names[-1] == "Dee" and a.player("Dee").wealth == poorest
             and a.player("Ann").wealth == ann - 1, react=False)
    from engine_helpers import observed
    observed("UA-NEW-2", "effect")
    check_invariants(g.s)
    g.bids({})
    assert g.s.phase == "scene"
    core = _between_scenes()
    core.do(A.EndSession(player="Ann"))
    core.refused(A.StartSession(player="Ann", new_players=["Dee"]), "UA-NEW-1", "Introduce New Players")


def test_ua_new_1_per_session_cap():
    """UA-NEW-1 (L2474 'as can the total allowed to play in a single session')."""
    g = _between_scenes(new_player_admission="open", max_players_per_session=3)
    g.do(A.EndSession(player="Ann"))
    g.refused(A.StartSession(player="Ann", present=["Ann", "Ben", "Cat"], new_players=["Dee"]), "UA-NEW-1", "at most 3")
    g.do(A.StartSession(player="Ann", present=["Ann", "Ben"], new_players=["Dee"]))
    assert g.s.player("Dee").wealth == 25


def test_ua_friend_3_the_controller_challenges_a_free_take_over_at_double_weight():
    """UA-FRIEND-3 (L2014 'The current owner can Challenge this with the weight of Fact behind him'):
    Ann's 2 coins count 4 against Ben's 3, so his free Take Over of her Horse is undone."""
    g = framed(["Ann", "Ben", "Cat"], {"Ann": 1}, addons={"friendly_control": "free_takeover"})
    horse = g.create("Ann", "Horse")
    g.end_turn("Ann")
    g.do(A.TakeOver(player="Ben", component=horse))
    g.react({"Ann": A.ChallengeStatement(player="Ann", reason="my horse")})
    g.do(A.ContestChallenge(player="Ben"))
    g.do(A.ChallengeBid(player="Ann", option=1, coins=2))
    g.do(A.ChallengePass(player="Cat"))
    g.do(A.ChallengeBid(player="Ben", option=0, coins=3))
    for p in ["Ann", "Cat", "Ben"]:
        g.do(A.ChallengePass(player=p))
    assert g.last("challenge_result").data["totals"] == [3, 4]
    assert g.s.controller(horse) == "Ann"
    from engine_helpers import observed
    observed("UA-FRIEND-3", "effect")
    check_invariants(g.s)


def test_ua_enigma_2_a_secret_trait_is_no_fact_in_a_challenge_until_revealed():
    """UA-ENIGMA-2, UA-ENIGMA-3 (L2182-2192, the werewolf example): Dave's secret 'Werewolf' can't back a
    Challenge of Ed's 'Immune to Lycanthropy' while secret; revealed, it counts as a Fact (x2)."""
    g = framed(["Ann", "Ben", "Cat"], {"Ann": 1}, addons={"enigma_trait_cost": 2})
    elton = g.create("Ann", "Elton Frakes")
    wolf = g.add("Ann", elton, "Werewolf", enigma=True)
    g.end_turn("Ann")
    g.do(A.AddTrait(player="Ben", component=elton, text="Immune to Lycanthropy"))
    g.refused(A.ChallengeStatement(player="Ann", reason="he is a werewolf", fact=wolf), "UA-ENIGMA-2", "until it is revealed")
    g.do(A.RevealTrait(player="Ann", trait=wolf))
    g.react({"Ann": A.ChallengeStatement(player="Ann", reason="he is a werewolf", fact=wolf)})
    assert g.s.challenge is not None and g.s.challenge.fact_id == wolf
