"""Scene, plot and dispute add-ons (book L1962-2038, L2270-2302): UA-OPEN, UA-JUDGE, UA-ALT,
UA-LOSEBID, UA-USEBID, UA-PLOT, UA-THREAD."""
from __future__ import annotations

import random

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.addon_scenes import (
    Judgment, OpenScenes, PlotThread, Timeline, concede_refund, create_plot_pool, first_judge, judgment_consent,
    no_bidding, no_challenges, plot_spend, reuse_bid, thread_cost, thread_introduced, thread_resolve,
    thread_scene_end,
)

from engine_helpers import P3, framed, observed


def seen(*rules: str) -> None:
    """Record for the add-on coverage test that this passing test saw these rules take effect or refuse."""
    for rule in rules:
        observed(rule, "effect")


def _raises(rule: str, addon: str, fn, *args, **kw) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        fn(*args, **kw)
    assert e.value.rule == rule, e.value
    assert addon in str(e.value)
    return e.value


# --- Open Scene Framing (L1970-1976) ----------------------------------------------------------------
def test_UA_OPEN_1_frame_a_new_scene_for_one_coin_no_bidding_L1970():
    """UA-OPEN-1 (L1970 "there is no Bidding for Scene Framing... 'Frame New Scene' ... costs 1 Coin"):
    a fourth active scene is allowed with a note (the book's 2-3 is advice); bidding is refused."""
    o = OpenScenes()
    assert o.frame(1, "Ann", 5) is None and o.frame(2, "Ben", 5) is None and o.frame(3, "Ann", 5) is None
    assert "advises no more than 3" in o.frame(4, "Cat", 5)
    assert o.current == 4 and o.framers[2] == "Ben"
    _raises("UA-OPEN-1", "Open Scene Framing", o.frame, 5, "Cat", 0)
    _raises("UA-OPEN-1", "Open Scene Framing", no_bidding)
    seen('UA-OPEN-1')


def test_UA_OPEN_2_switch_between_active_scenes_for_one_coin_L1974():
    """UA-OPEN-2 (L1974 "pay 1 Coin to switch from the current scene to another of the currently
    active scenes"): refused to the scene in play, to a closed scene, and without a coin."""
    o = OpenScenes()
    o.frame(1, "Ann", 5)
    o.frame(2, "Ben", 5)
    o.switch(1, "Cat", 1)
    assert o.current == 1
    _raises("UA-OPEN-2", "Open Scene Framing", o.switch, 1, "Cat", 1)
    _raises("UA-OPEN-2", "Open Scene Framing", o.switch, 2, "Cat", 0)
    o.fade(2, "Ben", 1)
    _raises("UA-OPEN-2", "Open Scene Framing", o.switch, 2, "Cat", 1)
    seen('UA-OPEN-2')


def test_UA_OPEN_3_only_the_framer_fades_a_scene_to_close_it_L1974():
    """UA-OPEN-3 (L1974 "The Framing Player for a given scene can at any time on his turn close the
    scene by paying the 1 Coin to Fade to Black"); UA-OPEN-4: the engine pays Refresh at that close."""
    o = OpenScenes()
    o.frame(1, "Ann", 5)
    o.frame(2, "Ben", 5)
    _raises("UA-OPEN-3", "Open Scene Framing", o.fade, 2, "Ann", 5)
    o.fade(2, "Ben", 1)
    assert o.closed == [2] and o.active == [1] and o.current == 1
    _raises("UA-OPEN-3", "Open Scene Framing", o.fade, 2, "Ben", 1)
    seen('UA-OPEN-3', 'UA-OPEN-4')


def test_UA_OPEN_4_refresh_on_fade_is_the_engine_default():
    """UA-OPEN-4 (engine default, the add-on is silent): the option exists with 'on_fade' as default."""
    from engine.universalis.addons import Addons
    assert Addons().open_scene_refresh == "on_fade"
    seen('UA-OPEN-4')


# --- Judgment (L1984-1994) ------------------------------------------------------------------------
def test_UA_JUDGE_1_judgment_replaces_challenges_L1984():
    """UA-JUDGE-1 (L1984 "This Add-on replaces the normal Challenge Variant")."""
    _raises("UA-JUDGE-1", "Judgment", no_challenges)
    seen('UA-JUDGE-1')


def test_UA_JUDGE_2_the_judge_spent_coins_before_the_current_turn_L1986():
    """UA-JUDGE-2 (L1986 "the player who spent Coins before the current player's turn is to be the
    Judge"): the last spender who is not the current player; only the Judge rules."""
    assert first_judge(["Ann", "Ben", "Cat", "Cat"], "Cat") == "Ben"
    assert first_judge([], "Ann") is None
    j = Judgment(judged="Cat", question="Is the bridge still standing?", judges=["Ben"])
    j.rule("Ben", "It stands.")
    assert j.ruling == "It stands."
    _raises("UA-JUDGE-2", "Judgment", j.rule, "Ann", "It fell.")
    seen('UA-JUDGE-2')


def test_UA_JUDGE_3_unanimous_overrule_then_a_random_new_judge_then_free_L1990():
    """UA-JUDGE-3 (L1990-1992): only a unanimous vote of the others overrules; the new Judge is drawn
    at random (seeded) from those neither Judge nor judged; when nobody is left the player goes on."""
    seats = ["Ann", "Ben", "Cat", "Dan"]
    j = Judgment(judged="Cat", question="q", judges=["Ben"])
    rng = random.Random(7)
    choose = lambda xs: rng.choice(xs)  # noqa: E731
    assert not j.overrule({"Ann": True, "Cat": True, "Dan": False}, seats, choose)
    assert j.judge == "Ben"
    _raises("UA-JUDGE-3", "Judgment", j.overrule, {"Ann": True}, seats, choose)
    assert j.overrule({"Ann": True, "Cat": True, "Dan": True}, seats, choose)
    assert j.judge in ("Ann", "Dan")
    first = j.judge
    others = {p: True for p in seats if p != first}
    assert j.overrule(others, seats, choose)
    assert j.judge == ({"Ann", "Dan"} - {first}).pop()
    assert j.overrule({p: True for p in seats if p != j.judge}, seats, choose)
    assert j.free and j.judge is None
    seen('UA-JUDGE-3')


def test_UA_JUDGE_4_interrupts_and_passes_need_a_majority_while_judgment_is_invoked_L1988():
    """UA-JUDGE-4 (L1988 "no one may Interrupt or pass the turn without the consent of a majority of
    the other players"): 2 of 3 others is a majority; 1 of 3 is not."""
    seats = ["Ann", "Ben", "Cat", "Dan"]
    judgment_consent({"Ben": True, "Cat": True, "Dan": False}, seats, "Ann", "an Interrupt")
    _raises("UA-JUDGE-4", "Judgment", judgment_consent, {"Ben": True}, seats, "Ann", "passing the turn")
    seen('UA-JUDGE-4')


# --- Alternate Reality (L2002-2008) ---------------------------------------------------------------
def test_UA_ALT_1_fork_costs_one_per_fork_back_to_scene_one_L2006():
    """UA-ALT-1 (L2006 "1 Coin per fork (including the newly created one) between the mirror scene and
    the original first scene"): the digest's worked number, 1 then 2; a sibling fork costs 1 again."""
    t = Timeline()
    t.add(1, None)
    t.add(2, 1)
    assert t.fork(2, 3, "Ann", 5, "B") == 1  # scene 3 mirrors scene 2
    t.add(4, 3, "B")
    assert t.fork(4, 5, "Ben", 5, "C") == 2  # one fork (3) lies behind it, plus the new one
    assert t.fork(2, 6, "Cat", 5, "D") == 1
    _raises("UA-ALT-1", "Alternate Reality", t.fork, 4, 7, "Ben", 1, "E")
    seen('UA-ALT-1')


def test_UA_ALT_2_the_first_scene_cannot_be_forked_L2004():
    """UA-ALT-2 (L2004 "Only the very first scene of the game, the starting point, cannot be forked")."""
    t = Timeline()
    t.add(1, None)
    _raises("UA-ALT-2", "Alternate Reality", t.fork, 1, 2, "Ann", 5, "B")
    _raises("UA-ALT-2", "Alternate Reality", t.fork, 9, 2, "Ann", 5, "B")
    seen('UA-ALT-2')


# --- Challenge bids (L2032-2038) ------------------------------------------------------------------
BIDS = [("Ann", 0, 2), ("Ben", 1, 3), ("Cat", 1, 1), ("Ben", 1, 2), ("Ann", 0, 1)]


def test_UA_LOSEBID_1_the_conceding_party_recovers_its_bid_L2032():
    """UA-LOSEBID-1 (L2032 "allow one party to concede and recover their bid"): Ben concedes option 1
    and gets his 5 back; Cat's supporting 1 stays with the Bank unless the table returns supporters'
    bids too (the digest's alternative)."""
    assert concede_refund(BIDS, "Ben", 1) == {"Ben": 5}
    assert concede_refund(BIDS, "Ben", 1, supporters=True) == {"Ben": 5, "Cat": 1}
    _raises("UA-LOSEBID-1", "Losing Challenge Bids", concede_refund, BIDS, "Cat", 0)
    seen('UA-LOSEBID-1')


def test_UA_USEBID_1_the_losers_bid_pays_for_the_change_surplus_to_the_bank_L2038():
    """UA-USEBID-1 (L2038 "use any Coins that he bid on the Challenge ... to pay for whatever changes
    the Challenger required. Any surplus Coins are lost to the Bank"): bid 5 on a 2-coin change: 2
    used, 3 lost, 0 owed; bid 1 on a 3-coin change: 1 used, 2 still owed."""
    assert reuse_bid(5, 2) == (2, 3, 0)
    assert reuse_bid(1, 3) == (1, 0, 2)
    seen('UA-USEBID-1')


# --- Plot Pools (L2274-2278) ---------------------------------------------------------------------
def test_UA_PLOT_1_a_plot_pool_holds_10_to_50_coins_L2274():
    """UA-PLOT-1 (L2274 "give it between ten and fifty Coins from the Bank")."""
    assert create_plot_pool("The heist", 10).coins == 10 and create_plot_pool("War", 50).coins == 50
    _raises("UA-PLOT-1", "Plot Pools", create_plot_pool, "Too big", 51)
    _raises("UA-PLOT-1", "Plot Pools", create_plot_pool, "Too small", 9)
    seen('UA-PLOT-1')


def test_UA_PLOT_2_two_coins_per_player_per_scene_L2274():
    """UA-PLOT-2 (L2274 "spend up to two of these Coins per scene"): per player by default, the
    table's total with the alternative; the pool never goes below 0."""
    p = create_plot_pool("The heist", 10)
    plot_spend(p, "Ann", 1, 2)
    plot_spend(p, "Ben", 1, 2)
    _raises("UA-PLOT-2", "Plot Pools", plot_spend, p, "Ann", 1, 1)
    plot_spend(p, "Ann", 2, 1)
    assert p.coins == 5
    q = create_plot_pool("War", 10)
    plot_spend(q, "Ann", 1, 1, scope="total")
    plot_spend(q, "Ben", 1, 1, scope="total")
    _raises("UA-PLOT-2", "Plot Pools", plot_spend, q, "Cat", 1, 1, scope="total")
    r = create_plot_pool("Small", 10, low=1)
    r.coins = 1
    _raises("UA-PLOT-2", "Plot Pools", plot_spend, r, "Ann", 1, 2)
    seen('UA-PLOT-2')


def test_UA_PLOT_1_UA_PLOT_2_in_play_pool_pays_facts_not_the_player():
    """UA-PLOT-1/2 in the engine: a 30-coin pool, for which Ann pays 1 (a Rules Gimmick, L315: the add-ons
    are "pre-designed Rules Gimmicks", L1311); Ann's two Facts come from it (28 left, her coins untouched);
    a third this scene is refused; a table without the add-on refuses the pool."""
    g = framed(P3, {"Ann": 1}, addons={"plot_pools": True})
    spend = g.spendable("Ann")
    g.effect("UA-PLOT-1", A.CreatePlotPool(player="Ann", name="The heist", coins=30),
             lambda b, a: a.player("Ann").wealth + a.player("Ann").stake == spend - 1 and len(a.addon.plot_pools) == 1)
    spend = g.spendable("Ann")
    g.act(A.PlotPoolFact(player="Ann", plot="The heist", text="The vault opens at midnight."))
    g.act(A.PlotPoolFact(player="Ann", plot="the heist", text="The guard owes Ann money."))
    assert g.s.addon.plot_pools[0].coins == 28 and g.spendable("Ann") == spend
    assert g.s.facts[-1].text == "The guard owes Ann money."
    g.refused(A.PlotPoolFact(player="Ann", plot="The heist", text="More."), "UA-PLOT-2", "at most 2")
    g.refused(A.CreatePlotPool(player="Ann", name="Huge", coins=60), "UA-PLOT-1", "10 to 50")
    g.check()
    core = framed(P3, {"Ann": 1})
    core.refused(A.CreatePlotPool(player="Ann", name="The heist", coins=30), "UA-PLOT-1", "does not play")
    seen('UA-PLOT-1', 'UA-PLOT-2')


# --- Plot Threads (L2286-2302) -----------------------------------------------------------------------
def test_UA_THREAD_1_holter_costs_one_plus_one_per_tied_component_L2286():
    """UA-THREAD-1 (L2286 "costs one coin to Create... Each Component named in the Plot Thread costs an
    additional coin"): 3 tied Components cost 4; Bradley and Mazza cost 1 (L2296, L2302)."""
    assert thread_cost("holter", 3) == 4
    assert thread_cost("bradley", 3) == 1 == thread_cost("mazza", 3)
    _raises("UA-THREAD-1", "Plot Thread", thread_cost, "off", 0)
    seen('UA-THREAD-1')


def test_UA_THREAD_2_weight_by_introduction_or_by_scene_L2288_L2296():
    """UA-THREAD-2 (L2288 "Each time a Plot Thread is introduced ... it gains a point of Weight"; L2296
    Bradley: "automatically increase in Weight by 1 each scene", read as each scene end after its
    Creation); Bradley's threads are never Introduced; Mazza's carry no Weight."""
    h = PlotThread("Who killed the king?", "Ann", 1)
    thread_introduced("holter", h)
    thread_introduced("holter", h)
    assert h.weight == 2
    b = PlotThread("The curse", "Ben", 2)
    for scene in (2, 3, 4):
        thread_scene_end("bradley", b, scene)
    assert b.weight == 2
    _raises("UA-THREAD-2", "Plot Thread", thread_introduced, "bradley", b)
    m = PlotThread("The war", "Cat", 1)
    thread_introduced("mazza", m)
    assert m.weight == 0
    seen('UA-THREAD-2')


def test_UA_THREAD_3_resolving_pays_the_weight_once_L2290():
    """UA-THREAD-3 (L2290 "the player resolving it gets its Weight in coins"): weight 3 pays 3, once;
    Mazza's variant pays nothing (engine default, L2302 names no reward)."""
    h = PlotThread("Who killed the king?", "Ann", 1, weight=3)
    assert thread_resolve("holter", h) == 3
    _raises("UA-THREAD-3", "Plot Thread", thread_resolve, "holter", h)
    _raises("UA-THREAD-3", "Plot Thread", thread_resolve, "mazza", PlotThread("x", "Ann", 1, weight=2))
    seen('UA-THREAD-3')


# --- Challenge bids in play ------------------------------------------------------------------------
P4 = ["A", "B", "Cy", "D"]


def _challenged(addons: dict, **kw):
    """A narrates an Event (1 coin); Cy challenges it; A contests, so the bidding opens."""
    g = framed(P4, {"A": 1}, addons=addons)
    g.do(A.NarrateEvent(player="A", text="The bridge collapses."))
    g.snapshot = {p: g.spendable(p) for p in P4}
    g.react({"Cy": A.ChallengeStatement(player="Cy", reason="too soon", **kw)})
    g.do(A.ContestChallenge(player="A"))
    return g


def test_UA_LOSEBID_1_in_play_a_party_concedes_during_the_bidding_and_recovers_its_bid_L2032():
    """UA-LOSEBID-1 in the engine: Cy bids 2, A bids 3; Cy concedes: the Event stands, Cy gets his 2
    back, A's 3 stay with the Bank. If A concedes instead, the Event is withdrawn (its coin refunded)
    and A recovers his 3. Only a party may concede; a party who bid nothing has nothing to recover;
    without the add-on a concession during the bidding is refused (U-CHAL-2)."""
    on = {"challenge_concede_refund": True}
    for conceder, event_stands, a_delta, cy_delta in (("Cy", True, -3, 0), ("A", False, +1, -2)):
        g = _challenged(on)
        g.do(A.ChallengeBid(player="Cy", option=1, coins=2))
        g.do(A.ChallengePass(player="D"))
        g.refused(A.ConcedeChallenge(player="A"), "UA-LOSEBID-1", "has bid nothing")
        g.refused(A.ConcedeChallenge(player="D"), "UA-LOSEBID-1", "Losing Challenge Bids")
        g.do(A.ChallengePass(player="B"))
        g.do(A.ChallengeBid(player="A", option=0, coins=3))
        g.do(A.ConcedeChallenge(player=conceder))
        assert g.s.challenge is None
        assert any(f.text == "The bridge collapses." for f in g.s.facts) is event_stands
        assert (g.spendable("A") - g.snapshot["A"], g.spendable("Cy") - g.snapshot["Cy"]) == (a_delta, cy_delta)
        g.passes()
        g.check()
    core = _challenged({})
    core.do(A.ChallengeBid(player="Cy", option=1, coins=2))
    core.refused(A.ConcedeChallenge(player="Cy"), "U-CHAL-2")
    seen('UA-LOSEBID-1')


def test_UA_USEBID_1_in_play_the_losers_bid_pays_for_the_demanded_change_L2038():
    """UA-USEBID-1 in the engine: Cy demands a 3-coin version and wins 4 to 2. Core: A pays his 2 bid
    and the 3-coin version (the 1-coin Event refunded): −4. With the add-on his 2-coin bid pays 2 of
    the 3: −2, and the Bank kept nothing of his bid beyond the change."""
    result = {}
    for addons in ({}, {"challenge_loser_bid_reuse": True}):
        g = _challenged(addons, alternative="The bridge collapses onto the barge.", alternative_cost=3,
                        withdraw=False)
        g.do(A.ChallengeBid(player="Cy", option=1, coins=4))
        g.do(A.ChallengePass(player="D"))
        g.do(A.ChallengePass(player="B"))
        g.do(A.ChallengeBid(player="A", option=0, coins=2))
        for p in ["Cy", "D", "B", "A"]:
            g.do(A.ChallengePass(player=p))
        assert g.s.facts[-1].text == "The bridge collapses onto the barge."
        result[bool(addons)] = (g.spendable("A") - g.snapshot["A"], g.spendable("Cy") - g.snapshot["Cy"])
        g.passes()
        g.check()
    assert result == {False: (-4, -4), True: (-2, -4)}
    seen('UA-USEBID-1')
