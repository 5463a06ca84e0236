"""Add-ons of addons-comp played through the engine: Judgment replacing Challenges, All or None and
Best Efforts rolls, protection bought for any Component, Story Drivers, and the add-ons the engine
refuses at setup because it cannot enforce them yet."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import apply, new_game

from engine_helpers import P3, framed, observed

P4 = ["A", "B", "Cy", "D"]


def seen(*rules: str) -> None:
    """Record for the add-on coverage test that this passing test saw these rules take effect or refuse."""
    for rule in rules:
        observed(rule, "effect")


def test_UA_JUDGE_1_in_play_a_judgment_table_refuses_challenges_L1984():
    """UA-JUDGE-1 (L1984 "This Add-on replaces the normal Challenge Variant"): the Challenge is refused,
    naming Judgment; with the 'named disputes' reading Challenges stay."""
    g = framed(P3, {"Ann": 1}, addons={"dispute_mode": "judgment"})
    g.do(A.NarrateEvent(player="Ann", text="The bridge collapses."))
    g.refused(A.ChallengeStatement(player="Ben", reason="too soon"), "UA-JUDGE-1", "invoke Judgment")
    g2 = framed(P3, {"Ann": 1}, addons={"dispute_mode": "judgment", "judgment_scope": "named_disputes"})
    g2.do(A.NarrateEvent(player="Ann", text="The bridge collapses."))
    g2.react({"Ben": A.ChallengeStatement(player="Ben", reason="too soon")})
    assert g2.s.challenge is not None
    seen("UA-JUDGE-1")


def knight_and_monk_open(addons: dict):
    """D's Complication against A's Knight and B's Monk, just begun: its Pools empty."""
    return knight_and_monk_scene(framed(P4, {"A": 1}, addons=addons), addons)


def knight_and_monk_scene(g, addons: dict):
    """A's scene just framed: A makes a Knight, B a Monk, and D's Event hurls one into the other."""
    knight = g.create("A", "Knight")
    g.end_turn("A")
    monk = g.create("B", "Monk")
    g.end_turn("B")
    g.end_turn("Cy")
    g.event("D", "The knight is hurled into the monk.", performer=knight, receiver=monk)
    # Individual Pools (UA-MT-5): the Complication Pool "C:B" faces B's Pool; "C" faces A's
    extra = ["C:B"] if addons.get("multi_target_mode") == "individual" else []
    extra += ["Cy"] if addons.get("pool_per_participant") else []  # UA-OWN-1: the bystander's own Pool
    assert [p.key for p in g.s.complication.pools] == ["C", "A", "B"] + extra
    return g


def knight_and_monk(addons: dict, dice: dict[str, int]):
    """knight_and_monk_open, then D buys each Pool its `dice` and calls for the roll: the game
    waiting for the dice."""
    g = knight_and_monk_open(addons)
    for pool, n in dice.items():
        g.act(A.BuyDie(player="D", pool=pool, count=n))
    g.call_and_agree("D")
    return g


def two_targets(addons: dict, **faces: list[int]):
    """knight_and_monk with as many dice per Pool as it has faces, rolled: the game just after the roll."""
    g = knight_and_monk(addons, {k: len(v) for k, v in faces.items()})
    g.roll(**faces)
    return g


def test_UA_MT_6_UA_MT_7_all_or_none_and_best_efforts_in_the_engine_roll_L2372_L2380():
    """UA-MT-6 / UA-MT-7 with fixed dice: D's Complication rolls 3 Successes against A's Pool (4) and
    B's Pool (2). Standard: 6 > 3, the Targets win. All or None: the worst, 2 < 3, every Target loses.
    Best Efforts: the best, 4 > 3, every Target wins. Each Pool earns by its own dice (U-COMP-9)."""
    results = {}
    for mode in ("standard", "all_or_none", "best_efforts"):
        g = two_targets({"multi_target_mode": mode}, C=[1, 2, 3], A=[1, 2, 3, 4], B=[1, 2])
        res = g.last("complication_result")
        results[mode] = (res.data["winner"], res.data["bonus"])
        g.check()
    assert results["standard"] == ("T", {"C": 3, "A": 10, "B": 3})
    assert results["all_or_none"] == ("C", {"C": 6, "A": 4, "B": 2})
    assert results["best_efforts"] == ("T", {"C": 3, "A": 10, "B": 3})
    seen("UA-MT-6", "UA-MT-7")


def test_UA_MT_8_a_tie_under_all_or_none_or_best_efforts_goes_to_the_complication_L2372_L2380():
    """UA-MT-8 (the book is silent on ties, L2372-2384, and invites variations, L2326): with
    worst_best_tie = "complication" a tie between C and the compared Target Pool is the Complication's,
    with no Edge die. All or None: C 2 Successes, the worst Target Pool (B) 2: C wins and earns
    1+2 = 3; A loses and earns 1 per die (4), B 2. Best Efforts: C 4, the best (A) 4: C earns
    1+2+3+4 = 10, A 4, B 2. Under the core tie (the default) the same roll gives an Edge die instead."""
    for mode, c_faces, c_coins in (("all_or_none", [1, 2], 3), ("best_efforts", [1, 2, 3, 4], 10)):
        core = two_targets({"multi_target_mode": mode}, C=c_faces, A=[1, 2, 3, 4], B=[1, 2])
        assert core.last("edge") is not None and core.s.roll_pending and core.s.narration is None
        g = two_targets({"multi_target_mode": mode, "worst_best_tie": "complication"},
                        C=c_faces, A=[1, 2, 3, 4], B=[1, 2])
        assert "A tie goes to the Complication at this table (UA-MT-8)" in g.last("roll").text
        res = g.last("complication_result")
        assert (res.data["winner"], res.data["bonus"]) == ("C", {"C": c_coins, "A": 4, "B": 2})
        assert not g.s.roll_pending and all(p.edge == 0 for p in g.s.complication.pools)
        g.check()
    # Standard with the option: refused at setup, not silently ignored
    with pytest.raises(RuleViolation) as e:
        framed(P4, {"A": 1}, addons={"worst_best_tie": "complication"})
    assert e.value.rule == "UA-SETUP-7" and "All or None and Best Efforts" in str(e.value)
    seen("UA-MT-8")


def match(g, faces: dict[str, list[int]], winner: str, bonus: dict[str, int]):
    """Roll one match with `faces`, check its winning side and bonus coins, narrate it out; the result."""
    g.roll(**faces)
    res = g.last("complication_result")
    assert (res.data["winner"], res.data["bonus"]) == (winner, bonus)
    g.narrate_out()
    return res


def roll_out(g, rng, rounds: int = 60) -> None:
    """Random faces for every roll and every narrator keeps his bonus, until the Complication is over;
    coins accounted for after each step."""
    for _ in range(rounds):
        if g.s.complication is None:
            break
        if g.pend.kind == "roll":
            g.roll(**{k: [rng.randint(1, 10) for _ in range(n)] for k, n in g.pend.dice.items()})
        elif g.pend.kind == "allocate":  # UA-MT-4: a random split of the Successes, every one once
            total = sum(1 for f in g.s.complication.split.faces["C"] if f <= 5)
            to_a = rng.randint(0, total)
            g.act(A.AllocateSuccesses(player=g.s.complication.originator, counts=[to_a, total - to_a]))
        else:
            g.narrate_out()
        g.check()
    assert g.s.complication is None


def assert_replays(g, addons: dict) -> None:
    """The game's actions, applied to a new game under `addons`, give the same state."""
    state = new_game(P4, addons=addons)
    for action in g.actions:
        state, _ = apply(state, action)
    assert state.model_dump_json() == g.s.model_dump_json()


def test_UA_MT_3_independent_each_target_pool_meets_the_complication_in_its_own_match_L2340():
    """UA-MT-3 (L2340 "Each Target Pool rolls one at a time, and all Complication Pools ... is
    re-rolled against each one"; L2342 most dice first): D's 3 dice meet A's 4 first, then B's 2.
    Match 1: C [1,2,3] 3 Successes, A [1,2,3,4] 4: A wins 1+2+3+4 = 10, C lost 3 dice = 3; both
    narrate before the next roll. Match 2: C [1,2,8] 2, B [1,9] 1: C wins 1+2 = 3, B lost 2 dice = 2.
    D earns 3+3 = 6, A 10, B 2."""
    g = knight_and_monk({"multi_target_mode": "independent"}, {"C": 3, "A": 4, "B": 2})
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 3, "A": 4}
    before = {p: g.wealth(p) for p in P4}
    g.refused(A.Roll(faces={"C": [1, 2, 3], "A": [1, 2, 3, 4], "B": [1, 2]}), "U-COMP-7", "dice are needed")
    res = match(g, {"C": [1, 2, 3], "A": [1, 2, 3, 4]}, "T", {"C": 3, "A": 10})
    assert res.text.startswith("Against A's Pool: the Targets win")
    assert g.s.complication is not None and g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 3, "B": 2}
    assert "against B's Pool" in g.last("next_match").text
    match(g, {"C": [1, 2, 8], "B": [1, 9]}, "C", {"C": 3, "B": 2})
    assert g.s.complication is None
    assert {p: g.wealth(p) - before[p] for p in P4} == {"A": 10, "B": 2, "Cy": 0, "D": 6}
    g.check()
    seen("UA-MT-3")


def test_UA_MT_3_independent_an_edge_die_stays_in_its_match_U_COMP_8():
    """UA-MT-3 with a tie (U-COMP-8): C [1,9,9] against A [2,9,9,9] ties at 1 Success; C's sum 1 <
    A's 2, so A's Pool takes the Edge die and rerolls with C; A wins. C's next match, against B,
    rolls its 3 dice with no Edge die."""
    g = knight_and_monk({"multi_target_mode": "independent"}, {"C": 3, "A": 4, "B": 2})
    g.roll(C=[1, 9, 9], A=[2, 9, 9, 9])
    assert dict(g.pend.dice) == {"C": 3, "A": 5}
    g.roll(C=[9, 9, 9], A=[2, 9, 9, 9, 7])
    assert g.last("complication_result").data["winner"] == "T"
    g.narrate_out()
    assert dict(g.pend.dice) == {"C": 3, "B": 2}
    g.check()


def test_UA_MT_3_the_heuristic_sizes_a_pool_against_what_it_meets_in_its_match():
    """UA-MT-3 and digest section 3 (size a Pool to what it must beat): under Independent, C (3 dice)
    meets A's 4 and B's 2 one at a time, so C weighs itself against the largest (4), and B's Pool
    against C alone (3); under Standard C meets both Pools summed (6) and B's side is 4+2."""
    from agents.heuristic import HeuristicPlayer
    hp = HeuristicPlayer("D", seed=1)
    indep = knight_and_monk({"multi_target_mode": "independent"}, {"C": 3, "A": 4, "B": 2})
    assert hp._side_sizes(indep.s, "C") == (3, 4) and hp._side_sizes(indep.s, "B") == (2, 3)
    core = knight_and_monk({}, {"C": 3, "A": 4, "B": 2})
    assert hp._side_sizes(core.s, "C") == (3, 6) and hp._side_sizes(core.s, "B") == (6, 3)
    # the model's prompt names the method in play (agents/llm/state_text.addon_lines)
    from agents.llm.state_text import addon_lines
    assert "In play: Independent: each Target Pool rolls its own match" in "\n".join(addon_lines(indep.s))
    assert "In play" not in "\n".join(addon_lines(core.s))


def test_UA_MT_5_individual_each_target_pool_meets_its_own_complication_pool_L2362():
    """UA-MT-5 (L2362 "there is a separate Complication Pool facing each Target. All Targets make
    their own roll opposed by their own Complication Pool"; L2364 order as for Independent, most dice
    first): D builds C (2 dice) against A's 3 and C:B (4 dice) against B's 2.
    Match 1: C [1,9] 1 Success, A [1,2,9] 2: A wins 1+2 = 3, C lost 2 dice = 2. Match 2: C:B [1,2,3,9]
    3, B [1,9] 1: C:B wins 1+2+3 = 6, B lost 2 dice = 2. D earns 2+6 = 8, A 3, B 2."""
    g = knight_and_monk({"multi_target_mode": "individual"}, {"C": 2, "A": 3, "C:B": 4, "B": 2})
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 2, "A": 3}
    # the model's state text names the method and which Pool faces which (agents/llm/state_text.py)
    from agents.llm.state_text import describe_state
    text = describe_state(g.s, "D")
    assert "In play: Individual: each Target Pool rolls its own match against a Complication Pool of its own" in text
    assert "pool C (D, facing A): 2 dice" in text and "pool C:B (D, facing B): 4 dice" in text
    assert "pool B (B, facing C:B): 2 dice" in text
    before = {p: g.wealth(p) for p in P4}
    match(g, {"C": [1, 9], "A": [1, 2, 9]}, "T", {"C": 2, "A": 3})
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C:B": 4, "B": 2}
    match(g, {"C:B": [1, 2, 3, 9], "B": [1, 9]}, "C", {"C:B": 6, "B": 2})
    assert g.s.complication is None
    assert {p: g.wealth(p) - before[p] for p in P4} == {"A": 3, "B": 2, "Cy": 0, "D": 8}
    g.check()
    seen("UA-MT-5")


def test_UA_MT_5_individual_a_tie_is_played_inside_its_own_match_U_COMP_8():
    """UA-MT-5 with a tie (U-COMP-8): C [1,9] against A [2,9,9] ties at 1 Success; C's sum 1 < A's 2,
    so A's Pool takes the Edge die and rerolls with C alone; C:B, whose match is next, takes no die."""
    g = knight_and_monk({"multi_target_mode": "individual"}, {"C": 2, "A": 3, "C:B": 4, "B": 2})
    g.roll(C=[1, 9], A=[2, 9, 9])
    assert dict(g.pend.dice) == {"C": 2, "A": 4}
    g.roll(C=[9, 9], A=[2, 9, 9, 7])
    assert g.last("complication_result").data["winner"] == "T"
    g.narrate_out()
    assert dict(g.pend.dice) == {"C:B": 4, "B": 2}
    g.check()


def test_UA_MT_5_individual_refusals_name_the_pool_and_the_addon():
    """A die for a Pool that does not exist is refused naming the Pools (U-COMP-2); Individual with
    Own Pool per Participant is refused at setup (declared Pools face no Complication Pool of their
    own); "C:..." is refused as a player's name, since it keys a Complication Pool."""
    g = framed(P4, {"A": 1}, addons={"multi_target_mode": "individual"})
    knight = g.create("A", "Knight")
    g.end_turn("A")
    g.end_turn("B")
    g.end_turn("Cy")
    g.event("D", "The knight falls.", receiver=knight)
    assert [p.key for p in g.s.complication.pools] == ["C", "A"]  # one Target Pool: a core Complication
    g.refused(A.BuyDie(player="D", pool="C:A"), "U-COMP-2", "there is no Pool 'C:A'")
    # the method is a Rules Gimmick (L2326), but not mid-Complication: its Pools were built under it
    g.refused(A.AdoptAddon(player="D", addon="multiple-targets", value='"standard"'), "UA-MT-5", "not while")
    h = knight_and_monk({}, {"C": 1})
    h.refused(A.AdoptAddon(player="D", addon="multiple-targets", value='"individual"'), "UA-MT-5", "not while")
    with pytest.raises(RuleViolation) as exc:
        new_game(P4, addons={"multi_target_mode": "individual", "pool_per_participant": True})
    assert exc.value.rule == "UA-SETUP-7" and "Individual Pools" in str(exc.value)
    with pytest.raises(RuleViolation) as exc:
        new_game(["A", "C:B"])
    assert exc.value.rule == "U-PREP-1" and "reserved" in str(exc.value)


def test_UA_PROT_3_protection_bought_for_any_component_L2132():
    """UA-PROT-3 (L2132 "Allow this Add-on to be purchased individually for any important Component"):
    at the table's price of 3, a villain's Importance then costs 2 a level; refused without the option,
    twice, or without the coins."""
    g = framed(P3, {"Ann": 1}, addons={"pc_protection": "double", "protection_any_component": 3})
    villain = g.create("Ann", "Villain", proper_name="Morg")
    spend = g.spendable("Ann")
    g.act(A.ProtectComponent(player="Ann", component=villain))
    assert g.spendable("Ann") == spend - 3 and g.s.addon.protected == [villain]
    g.refused(A.ProtectComponent(player="Ann", component=villain), "UA-PROT-3", "already protected")
    imp = g.imp(villain)
    g.act(A.ReduceImportance(player="Ann", component=villain, coins=2))
    assert g.imp(villain) == imp - 1 and g.spendable("Ann") == spend - 5
    g.refused(A.ReduceImportance(player="Ann", component=villain, coins=1), "UA-PROT-1")
    core = framed(P3, {"Ann": 1}, addons={"player_characters": True, "pc_protection": "double"})
    hero = core.create("Ann", "Hero")
    core.refused(A.ProtectComponent(player="Ann", component=hero), "UA-PROT-3", "Player Characters only")
    seen("UA-PROT-3")


def test_UA_DRIVER_1_UA_DRIVER_2_UA_DRIVER_3_story_drivers_in_play_L2158_L2164():
    """UA-DRIVER-3 (L2158-2160): the owner writes the Driver (no coin, not a Fact) and may rewrite it;
    UA-DRIVER-1 (L2162): a scene on it adds 1 to the Endowment, once per scene; UA-DRIVER-2 (L2164):
    resolving it in its first session adds 1 (sessions played with it)."""
    g = framed(P3, {"Ann": 1}, addons={"player_characters": True, "pc_endowment": 25, "pc_story_drivers": True})
    hero = g.create("Ann", "Hero")
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.refused(A.DriverScene(player="Ann", text="x"), "UA-DRIVER-1", "no Story Driver")
    spend, facts = g.spendable("Ann"), len(g.s.facts)
    g.act(A.SetDriver(player="Ann", text="Avenge her father"))
    g.act(A.SetDriver(player="Ann", text="Find out her father lives"))
    assert g.s.addon.drivers == {"Ann": "Find out her father lives"} and len(g.s.facts) == facts
    g.act(A.DriverScene(player="Ann", text="A letter in her father's hand."))
    assert g.s.addon.endowments["Ann"] == 26 and g.spendable("Ann") == spend
    g.refused(A.DriverScene(player="Ann", text="again"), "UA-DRIVER-1", "already drawn")
    g.act(A.ResolveDriver(player="Ann", text="She finds him alive."))
    assert g.s.addon.endowments["Ann"] == 27 and "Ann" not in g.s.addon.drivers
    g.refused(A.ResolveDriver(player="Ann", text="again"), "UA-DRIVER-2")
    g.end_turn("Ann")
    g.refused(A.SetDriver(player="Ben", text="Glory"), "UA-ENDOW-1", "no Player Character")
    off = framed(P3, {"Ann": 1}, addons={"player_characters": True, "pc_endowment": 25})
    off.refused(A.SetDriver(player="Ann", text="Glory"), "UA-DRIVER-3", "does not play")
    g.check()
    seen("UA-DRIVER-1", "UA-DRIVER-2", "UA-DRIVER-3")


@pytest.mark.parametrize("addons, rule", [
    ({"currency": "cards_stack", "bonus_cards_from": "bank_deck"}, "UA-CDICE-6"),
    ({"multi_target_mode": "split", "split_c_coins": "whole_roll"}, "UA-MT-4"),  # the played reading pays by match
])
def test_UA_CDICE_6_UA_MT_4_refused_at_setup(addons, rule):
    """An add-on whose table decisions the engine does not ask for yet is refused at setup in one line
    naming it, never silently ignored (the arithmetic of each is tested on its own). Kept bonus cards from the
    Trait Deck (UA-CDICE-6) are played with a hand of cards, not with Mazza's counted Wealth stack: the stack
    shuffles its kept cards in (L2440). Face cards kept, with Cards as Coins (UA-CARDS-4) and with the stack
    (UA-CDICE-5), are played: tests/test_addons_cards_play.py."""
    with pytest.raises(RuleViolation) as e:
        new_game(P3, addons=addons)
    assert e.value.rule == rule and "does not enforce it yet" in str(e.value)
    assert "\n" not in str(e.value)
    seen(rule)


def _next_scene(g, framer: str, place: str) -> None:
    """The framer ends his scene; he wins the next bid and frames a new one."""
    g.act(A.EndScene(player=framer))
    g.bids({framer: 1})
    g.act(A.EstablishLocation(player=framer, new_role=place))
    g.event(framer, "Time passes.")


def test_UA_THREAD_1_UA_THREAD_2_UA_THREAD_3_holter_threads_in_play_L2286_L2290():
    """Holter (L2286-2290): 1 coin + 1 per tied Component (2 tied: 3 coins); each Introduction (1 coin)
    adds 1 Weight; its resolver gets the Weight (2) from the Bank, once."""
    g = framed(P3, {"Ann": 1}, addons={"plot_threads": "holter"})
    hero = g.create("Ann", "Hero")
    king = g.create("Ann", "King", introduce=False)
    spend = g.spendable("Ann")
    g.act(A.CreatePlotThread(player="Ann", name="Who killed the king's brother?", tied=[hero, king]))
    thread = g.new_component()
    assert g.spendable("Ann") == spend - 3 and g.imp(thread) == 1
    g.act(A.IntroduceComponent(player="Ann", component=thread))
    g.act(A.ExitComponent(player="Ann", component=thread))
    g.act(A.IntroduceComponent(player="Ann", component=thread))
    assert g.s.addon.threads[0].weight == 2 and g.spendable("Ann") == spend - 6
    g.act(A.ResolvePlotThread(player="Ann", thread=thread, text="The queen confesses."))
    assert g.spendable("Ann") == spend - 4
    g.refused(A.ResolvePlotThread(player="Ann", thread=thread, text="again"), "UA-THREAD-3", "already resolved")
    g.refused(A.CreatePlotThread(player="Ann", name="x", tied=[hero, hero]), "UA-THREAD-1", "named twice")
    g.check()
    off = framed(P3, {"Ann": 1})
    off.refused(A.CreatePlotThread(player="Ann", name="x"), "UA-THREAD-1", "does not play")
    seen("UA-THREAD-1", "UA-THREAD-2", "UA-THREAD-3")


def test_UA_THREAD_2_bradley_threads_gain_weight_each_scene_never_introduced_L2296():
    """Bradley (L2296 "Plot Threads are not Introduced but instead automatically increase in Weight by
    1 each scene"): 1 coin, no tied Components; the scene it was made in adds nothing (reading), each
    later scene end adds 1; Introducing it is refused; resolving after two more scenes pays 2."""
    g = framed(P3, {"Ann": 1}, addons={"plot_threads": "bradley"})
    spend = g.spendable("Ann")
    g.act(A.CreatePlotThread(player="Ann", name="The curse on the valley"))
    thread = g.new_component()
    assert g.spendable("Ann") == spend - 1
    g.refused(A.IntroduceComponent(player="Ann", component=thread), "UA-THREAD-2", "not Introduced")
    _next_scene(g, "Ann", "Mill")
    assert g.s.addon.threads[0].weight == 0
    _next_scene(g, "Ann", "Chapel")
    _next_scene(g, "Ann", "Well")
    assert g.s.addon.threads[0].weight == 2
    before = g.spendable("Ann")
    g.act(A.ResolvePlotThread(player="Ann", thread=thread, text="The curse breaks."))
    assert g.spendable("Ann") == before + 2
    g.check()
    seen("UA-THREAD-2")


def test_UA_THREAD_3_mazza_threads_are_components_without_a_reward_L2302():
    """Mazza (L2302): 1 coin, Introduced and drawn like any Component, no Weight; resolving pays
    nothing (engine default): it ends when its Importance is bought off."""
    g = framed(P3, {"Ann": 1}, addons={"plot_threads": "mazza"})
    g.act(A.CreatePlotThread(player="Ann", name="The succession war"))
    thread = g.new_component()
    g.act(A.IntroduceComponent(player="Ann", component=thread))
    assert g.s.addon.threads[0].weight == 0
    g.refused(A.ResolvePlotThread(player="Ann", thread=thread, text="Peace."), "UA-THREAD-3", "pays nothing")
    g.act(A.ReduceImportance(player="Ann", component=thread, coins=1, text="The war ends."))
    assert g.s.components[thread].eliminated
    seen("UA-THREAD-3")
