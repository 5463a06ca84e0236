"""Universalis as the book plays it (issue 17): each test names its rule ID and the book's line.

"line N" is the rulebook, ../shared/seeds/000_980e818fe18fd30d.txt. Coins are exact: what each
player holds (wealth plus stake) before and after, and `conservation_problems` (U-ECO-2) is empty
after every sequence.
"""
from __future__ import annotations

import json

import pytest

from engine.core.errors import LogError
from engine.universalis import actions as A
from engine.universalis import apply, pending
from engine.universalis.ledger import conservation_problems
from engine.universalis.replay import game_from_header, replay_text
from engine.universalis.rules import MAX_TEXT

from engine_helpers import P3, fact_vote_open, framed, game, rival_called, to_scene


def holds(g, *names):
    return [g.spendable(n) for n in names]


def conserved(g) -> None:
    g.check()
    assert conservation_problems(g.s) == []


# --- 1. a Challenge changes the story (U-CHAL-4, U-CHAL-1; lines 541-543, 553, 570, 970) ----------
def turk(g) -> tuple[str, str]:
    """Ann's Turk Reigns, Importance 4: Role, name, "Split Second Reflexes", the rifle."""
    t = g.create("Ann", "Special forces operative")
    g.add("Ann", t, "Turk Reigns", kind="name")
    g.add("Ann", t, "Split Second Reflexes")
    rifle = g.add("Ann", t, "XR-27 Hyperblast Rifle")
    assert g.imp(t) == 4
    return t, rifle


def test_U_CHAL_4_conceded_alternative_replaces_an_elimination_by_a_crossed_off_rifle_lines_533_543():
    """Ed's version (line 539-541) replaces Bob's: Turk escapes and loses his rifle; 1 coin, not 4."""
    g = framed(P3, {"Ann": 1})
    t, rifle = turk(g)
    before = holds(g, *P3)
    g.do(A.ReduceImportance(player="Ann", component=t, coins=4, text="The turtle snaps Turk in half."))
    assert g.s.components[t].eliminated and g.spendable("Ann") == before[0] - 4
    alt = "The turtle snaps the rifle in half; Turk barely escapes."
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="I like Turk", alternative=alt,
                                         instead={"type": "remove_trait", "trait": rifle, "text": alt})})
    g.effect("U-CHAL-4", A.ConcedeChallenge(player="Ann"),
             lambda b, a: not a.components[t].eliminated and a.components[t].traits[-1].removed)
    assert g.imp(t) == 3 and t in g.s.scene().present
    assert holds(g, *P3) == [before[0] - 1, before[1], before[2]]  # the recalculated cost: 1 coin
    assert not any(f.text == "The turtle snaps Turk in half." for f in g.s.facts)
    assert g.last("statement_changed").data["cost_now"] == 1
    conserved(g)


def test_U_CHAL_4_alternative_winning_the_bidding_replaces_the_statement_line_570():
    """Bob resigns against 2 coins bid for Ed's version: it replaces the elimination; bids go to the Bank."""
    g = framed(P3, {"Ann": 1})
    t, rifle = turk(g)
    before = holds(g, *P3)
    g.do(A.ReduceImportance(player="Ann", component=t, coins=4, text="Turk is devoured."))
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="the team needs him", alternative="The rifle snaps.",
                                         instead={"type": "remove_trait", "trait": rifle})})
    g.do(A.ContestChallenge(player="Ann"))
    g.do(A.ChallengeBid(player="Ben", option=1, coins=1))
    g.do(A.ChallengeBid(player="Cat", option=1, coins=1))
    for p in ["Ann", "Ben", "Cat"]:
        g.do(A.ChallengePass(player=p))
    assert g.last("challenge_result").data["totals"] == [0, 2]
    assert not g.s.components[t].eliminated and g.imp(t) == 3
    assert holds(g, *P3) == [before[0] - 1, before[1] - 1, before[2] - 1]
    conserved(g)


def test_U_CHAL_4_a_trait_bought_three_times_repriced_to_one_keeps_one_occurrence_U_ECO_4_line_357():
    """"Haunted x3" repriced to 1 coin is bought once; the 2 coins paid from the stake go back to it."""
    g = framed(P3, {"Ann": 5})
    loc = g.s.scene().location
    assert (g.wealth("Ann"), g.s.player("Ann").stake) == (20, 3)
    g.do(A.AddTrait(player="Ann", component=loc, text="Haunted", times=3))
    assert g.s.player("Ann").stake == 0 and g.imp(loc) == 4
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="once is enough", alternative="Haunted",
                                         alternative_cost=1, withdraw=False)})
    g.effect("U-ECO-4", A.ConcedeChallenge(player="Ann"), lambda b, a: a.player("Ann").stake == 2)
    assert [t.text for t in g.s.components[loc].traits].count("Haunted") == 1 and g.imp(loc) == 2
    assert g.wealth("Ann") == 20  # nothing went to his wealth: the stake is spent before wealth
    conserved(g)


def test_U_ECO_4_U_CHAL_4_an_event_repriced_below_its_cost_refunds_into_the_stake_line_970():
    """An Event's scope priced at 0 by negotiation: the coin it took from the stake goes back there."""
    g = framed(P3, {"Ann": 5})
    assert g.s.player("Ann").stake == 3
    g.do(A.NarrateEvent(player="Ann", text="The bells ring."))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="that is colour, not an Event",
                                         alternative="The bells ring.", alternative_cost=0, withdraw=False)})
    g.do(A.ConcedeChallenge(player="Ann"))
    assert (g.wealth("Ann"), g.s.player("Ann").stake) == (20, 3)
    assert g.s.facts[-1].text == "The bells ring." and g.s.bank_refunds == 1
    assert g.s.player("Ann").ledger.refunds == 1
    conserved(g)


def test_U_CHAL_4_the_alternative_is_a_statement_of_its_own_kind_event_component_or_nothing():
    """A Trait replaced by an Event; an Event replaced by a new component; a Trait by nothing."""
    g = framed(P3, {"Ann": 1})
    loc = g.s.scene().location
    start = g.spendable("Ann")
    g.do(A.AddTrait(player="Ann", component=loc, text="Cursed", times=2))
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="show it", alternative="A crow falls dead.",
                                         instead={"type": "narrate_event", "text": "A crow falls dead."})})
    g.do(A.ConcedeChallenge(player="Ann"))
    assert "Cursed" not in [t.text for t in g.s.components[loc].traits]
    assert g.s.facts[-1].text == "A crow falls dead." and g.s.facts[-1].kind == "event"
    assert g.spendable("Ann") == start - 1
    g.passes()
    start = g.spendable("Ann")
    g.do(A.NarrateEvent(player="Ann", text="Somebody rows across."))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="who?", alternative="A ferryman",
                                         instead={"type": "create_component", "role": "Ferryman",
                                                  "proper_name": "Charon", "introduce": True})})
    g.do(A.ConcedeChallenge(player="Ann"))
    new = g.new_component()
    assert g.s.components[new].label == "Charon" and new in g.s.scene().present
    assert g.s.scene().control[new] == "Ann" and g.s.facts[-1].text != "Somebody rows across."
    assert g.spendable("Ann") == start - 2  # the Role and the proper name
    g.passes()
    start = g.spendable("Ann")
    g.do(A.AddTrait(player="Ann", component=loc, text="Misty"))
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="no", withdraw=True)})
    g.do(A.ConcedeChallenge(player="Ann"))
    assert "Misty" not in [t.text for t in g.s.components[loc].traits] and g.spendable("Ann") == start
    conserved(g)


def test_U_CHAL_1_an_alternative_that_cannot_be_done_there_is_refused_with_its_rule():
    g = framed(P3, {"Ann": 1})
    g.do(A.NarrateEvent(player="Ann", text="Thunder."))
    g.refused(A.ChallengeStatement(player="Ben", reason="x", instead={"type": "remove_trait", "trait": "t99"}),
              "U-ACT-5", "alternative cannot be done")
    g.refused(A.ChallengeStatement(player="Ben", reason="x", instead={"type": "bid", "amount": 3}), "U-CHAL-1")
    g.refused(A.ChallengeStatement(player="Ben", reason="x", instead={"type": "narrate_event", "text": "  "}),
              "U-ACT-1")


# --- 2. the source of a Complication is committed (U-COMP-4; lines 1044-1046) ----------------------
def test_U_COMP_4_the_source_of_a_complication_cannot_be_taken_over_or_exited_lines_1044_1046():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    villain = g.create("Ben", "Villain")
    g.do(A.NarrateEvent(player="Ben", text="The villain strikes the hero.", performer=villain, receiver=hero))
    comp = g.s.complication
    assert comp is not None and comp.targets == [hero] and villain in comp.committed
    g.refused(A.TakeOver(player="Cat", component=villain), "U-COMP-4", "committed")
    g.refused(A.TakeOver(player="Cat", component=hero), "U-COMP-4")
    g.passes()
    g.refused(A.ExitComponent(player="Ben", component=villain), "U-COMP-4", "committed")


# --- 3. everything a player does may be challenged (U-CHAL-1; lines 375, 1080, 1171, 1189) ---------
def test_U_CHAL_1_drawing_on_a_trait_opens_the_reaction_window_and_a_challenge_takes_the_die_back_line_1189():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    g.end_turn("Ben")
    g.end_turn("Cat")
    role = g.s.components[hero].traits[0].id
    g.do(A.DrawTrait(player="Ann", trait=role, component=hero, pool="Ann", text="a hero fights"))
    assert g.pend.kind == "reaction" and g.s.complication.pool("Ann").dice == 1
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="being a hero is no reason")})
    g.effect("U-CHAL-1", A.ConcedeChallenge(player="Ann"), lambda b, a: a.complication.pool("Ann").dice == 0)
    assert g.s.complication.drawn == [] and g.turn == "Ann"  # the Trait may be drawn again, justified better
    conserved(g)


def test_U_CHAL_1_bought_dice_may_be_challenged_and_are_refunded_when_withdrawn_line_1088():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    before = holds(g, *P3)
    g.do(A.BuyDie(player="Ben", pool="C", count=3, text="the rival is strong"))
    assert g.pend.kind == "reaction"
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="two at most", alternative="the rival is strong",
                                         alternative_cost=2, withdraw=False)})
    g.do(A.ConcedeChallenge(player="Ben"))
    assert g.s.complication.pool("C").dice == 2 and holds(g, *P3) == [before[0], before[1] - 2, before[2]]
    conserved(g)


def test_U_CHAL_1_fade_to_black_may_be_challenged_line_375():
    """Cat's version: the scene ends without fading; Ann's coin for the fade comes back."""
    g = framed(P3, {"Ann": 1})
    assert g.s.player("Ann").stake == 0
    before = holds(g, *P3)
    g.do(A.EndScene(player="Ann", fade=True))
    assert g.pend.kind == "reaction" and g.s.scenes[0].faded
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="I want to come back here",
                                         alternative="The scene ends.", instead={"type": "end_scene"})})
    g.do(A.ConcedeChallenge(player="Ann"))
    assert g.s.scenes[0].ended and not g.s.scenes[0].faded and g.s.phase == "bidding"
    assert holds(g, *P3) == [before[0] + 5, before[1] + 5, before[2] + 5]
    conserved(g)


def test_U_CHAL_1_a_take_over_on_ones_own_turn_may_be_challenged_U_CTRL_3():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    before = holds(g, *P3)
    g.effect("U-CTRL-3", A.TakeOver(player="Ben", component=hero), lambda b, a: a.scene().control[hero] == "Ben",
             react=False)
    assert g.pend.kind == "reaction"
    g.react({"Ann": A.ChallengeStatement(player="Ann", reason="he is mine in this scene")})
    g.do(A.ConcedeChallenge(player="Ben"))
    assert g.s.scene().control[hero] == "Ann" and holds(g, *P3) == before
    conserved(g)


# --- 4. the Dialog answerer buys Facts in his reply (U-ACT-8; lines 479-501) ------------------------
def test_U_ACT_8_the_player_answering_a_dialog_buys_facts_in_the_reply_line_501():
    """Ed, speaking for the Scout, pays 1 coin for "the spies are on the north side of the river"."""
    g = framed(P3, {"Ann": 1})
    queen = g.create("Ann", "Slytheran Queen")
    g.end_turn("Ann")
    scout = g.create("Ben", "Scout")
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.do(A.Dialog(player="Ann", speaker=queen, listener=scout, line="What side of the river did the spies end up on?"))
    assert g.pend.kind == "dialog_answer" and g.pend.players == ("Ben",)
    g.refused(A.AnswerDialog(player="Ben", accept=False, facts=["x"]), "U-ACT-8")
    g.refused(A.AnswerDialog(player="Ben", line="North.", facts=["   "]), "U-ACT-8")
    before = holds(g, *P3)
    fact = "The spies crossed to the north side of the river."
    g.effect("U-ACT-8", A.AnswerDialog(player="Ben", line="The north side my Queen", facts=[fact]),
             lambda b, a: a.facts[-1].text == fact and a.facts[-1].by == "Ben", react=False)
    assert holds(g, *P3) == [before[0], before[1] - 1, before[2]]
    assert g.pend.kind == "reaction"  # a bought Fact may be challenged like any other
    g.passes()
    assert g.turn == "Ann"
    conserved(g)


# --- 5. an owner is eliminated by paying its whole Importance (U-IMP-1, U-ELIM-1; 755, 812-814, 1353)
def test_U_ELIM_1_U_IMP_1_an_owner_with_possessions_is_eliminated_for_its_whole_importance_line_755():
    g = framed(P3, {"Ann": 1})
    knight = g.create("Ann", "Knight")
    g.add("Ann", knight, "Brave")
    sword = g.create("Ann", "Sword", introduce=False)
    g.add("Ann", sword, "Sharp")
    g.add("Ann", sword, "Old")
    assert g.imp(knight) == 2 and g.imp(sword) == 3
    g.effect("U-IMP-1", A.AddTrait(player="Ann", component=knight, text="Owns the sword", kind="possession",
                                   other=sword),
             lambda b, a: g.imp(knight) == 3 + 4)  # its own 3 Traits and the sword's 4 (with "Owned by")
    g.refused(A.ReduceImportance(player="Ann", component=knight, coins=5), "U-ELIM-1", "all 7")
    before = g.spendable("Ann")
    g.effect("U-ELIM-1", A.ReduceImportance(player="Ann", component=knight, coins=7, text="The knight falls."),
             lambda b, a: a.components[knight].eliminated)
    assert g.spendable("Ann") == before - 7 and not g.s.components[sword].eliminated
    conserved(g)


# --- 6. Fines at any time, during a scene bid too (U-FINE-1; line 1361) -----------------------------
def test_U_FINE_1_a_fine_may_be_called_during_the_bid_for_a_scene_line_1361():
    g = game(P3)
    while g.s.phase == "prep":
        g.do(A.PassPrep(player=g.pend.players[0]))
    g.do(A.Bid(player="Ben", amount=24))
    g.effect("U-FINE-1", A.CallFine(player="Ann", accused="Ben", reason="bidding to bully"),
             lambda b, a: a.fine is not None and pending(a).kind == "fine_vote", react=False)
    g.refused(A.Bid(player="Cat", amount=1), "U-FINE-1")
    for p in P3:
        g.do(A.FineVote(player=p, fine=True))
    assert g.wealth("Ben") == 22 and g.pend.kind == "bid"
    g.do(A.Bid(player="Ann", amount=3))
    g.do(A.Bid(player="Cat", amount=0))
    # his secret bid of 24 is what is in his hand: the 22 he still holds
    assert g.s.last_framer == "Ben" and (g.wealth("Ben"), g.s.player("Ben").stake) == (0, 22)
    conserved(g)


def test_U_FINE_1_a_fine_during_a_challenge_is_voted_first():
    g = framed(P3, {"Ann": 1})
    g.do(A.NarrateEvent(player="Ann", text="Rain."))
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="no rain")})
    g.do(A.CallFine(player="Cat", accused="Ben", reason="nitpicking"))
    assert g.pend.kind == "fine_vote"
    g.refused(A.ConcedeChallenge(player="Ann"), "U-FINE-1")
    for p, v in zip(P3, [True, False, False]):
        g.do(A.FineVote(player=p, fine=v))
    assert g.pend.kind == "negotiation" and g.wealth("Cat") == 25 - 2  # the accuser pays the 2 downs
    conserved(g)


# --- coins from nowhere (U-FRAME-3, U-ECO-2) ------------------------------------------------------------
def test_U_ECO_2_U_FRAME_3_a_future_time_replaced_by_a_free_one_creates_no_coin():
    """Framing into the future pays 1 coin to each other player; "later that same night" (free)
    replaces it: those coins go back to the framer, and the Bank refunds nothing it never received."""
    g = to_scene(P3, {"Ann": 0})
    g.act(A.EstablishLocation(player="Ann", new_role="Inn"))
    assert holds(g, *P3) == [24, 25, 25]
    g.effect("U-FRAME-3", A.SetTime(player="Ann", when="future", text="A year later."),
             lambda b, a: [p.wealth + p.stake for p in a.players] == [22, 26, 26], react=False)
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="too far", alternative="Later that same night.",
                                         alternative_cost=0, withdraw=False)})
    g.effect("U-ECO-2", A.ConcedeChallenge(player="Ann"),
             lambda b, a: [p.wealth + p.stake for p in a.players] == [24, 25, 25] and not conservation_problems(a),
             react=False)
    assert g.s.scene().time == "Later that same night." and g.s.scene().time_kind == "after"
    assert g.s.bank_refunds == 0 and sum(holds(g, *P3)) == 75 - 1
    conserved(g)


# --- bad input: refused with its rule ID, in a player's words, state unchanged ----------------------------
def test_U_CHAL_1_a_challenge_cannot_be_withdrawn_during_the_fact_vote():
    g = fact_vote_open()
    g.refused(A.WithdrawChallenge(player="Ben"), "U-CHAL-1", "voting on whether the Fact applies")


@pytest.mark.parametrize("text", ["", " ", "\n\t  "])
def test_U_PREP_3_U_ACT_1_blank_words_are_refused_and_cost_nothing(text):
    g = game(P3)
    g.refused({"type": "propose_tenet", "player": "Ann", "text": text}, "U-PREP-3", "empty")
    if text:
        g.refused(A.ProposeTenet(player="Ann", text=text), "U-PREP-3", "empty")
    g = framed(P3, {"Ann": 1})
    for action, rule in ((A.NarrateEvent, "U-ACT-1"), (A.BuyFact, "U-ACT-2")):
        g.refused({"type": action.model_fields["type"].default, "player": "Ann", "text": text}, rule, "empty")
    g.refused({"type": "create_component", "player": "Ann", "role": text}, "U-ACT-4")
    g.refused({"type": "call_fine", "player": "Ann", "accused": "Ben", "reason": text}, "U-FINE-1")
    if text:
        g.refused(A.CreateComponent(player="Ann", role="Duke", proper_name=text), "U-ACT-4", "whitespace")


def test_U_PREP_3_text_longer_than_the_limit_is_refused_and_says_the_limit():
    g = game(P3)
    g.refused(A.ProposeTenet(player="Ann", text="x" * (MAX_TEXT + 1)), "U-PREP-3", f"at most {MAX_TEXT:,}")
    g.refused(A.ProposeTenet(player="Ann", text="Zombies. " * 230_000), "U-PREP-3", "characters long")  # ~2 MB
    g.do(A.ProposeTenet(player="Ann", text="x" * MAX_TEXT))  # the limit itself is accepted
    g.passes()
    g = framed(P3, {"Ann": 1})
    g.refused(A.NarrateEvent(player="Ann", text="y" * (MAX_TEXT + 1)), "U-ACT-1", "at most")
    g.refused(A.ChallengeStatement(player="Ben", reason="z" * (MAX_TEXT + 1)), "U-CHAL-1")


def test_U_COMP_7_a_roll_handed_in_under_a_players_name_is_refused():
    g, _hero = rival_called(2, 1)
    assert g.pend.kind == "roll"
    g.refused(A.Roll(player="Ben", faces={"C": [1, 2], "Ann": [3]}), "U-COMP-7", "dice source")
    g.refused({"type": "roll", "player": "Ann", "faces": {"C": [1, 2], "Ann": [3]}}, "U-COMP-7")
    g.roll(C=[1, 2], Ann=[3])


def header(**config) -> dict:
    base = {"players": P3, "starting_coins": 25, "refreshment": 5, "starting_player": 0}
    base.update(config)
    return {"format": "storytable-log", "version": 1, "ruleset": "universalis", "game_id": "x", "config": base}


@pytest.mark.parametrize("config, rule, words", [
    ({"starting_coins": 10 ** 12}, "U-ECO-1", "at most 10,000"),
    ({"refreshment": 10 ** 12}, "U-ECO-1", "at most"),
    ({"starting_coins": "25"}, "U-ECO-1", "whole number"),
    ({"seats": [{"name": "Ann"}, {"name": "Ben"}]}, "U-PREP-1", "seats do not match"),
    ({"seats": [{"name": "Ann"}, {"name": "Cat"}, {"name": "Ben"}]}, "U-PREP-1", "seats do not match"),
    ({"dice": "chosen"}, "U-COMP-7", "never faces a player chooses"),
    ({"dice": {"kind": "manual"}}, "U-COMP-7", "dice source"),
    ({"players": ["P%d" % i for i in range(50)]}, "U-PREP-1", "at most 20"),
])
def test_U_ECO_1_a_header_with_impossible_settings_is_refused_at_line_1(config, rule, words):
    with pytest.raises(LogError) as exc:
        game_from_header(header(**config))
    assert exc.value.line == 1 and f"({rule})" in str(exc.value) and words in str(exc.value)
    text = json.dumps(header(**config)) + "\n" + json.dumps({"seq": 1, "action": {"type": "pass_prep", "player": "Ann"}})
    with pytest.raises(LogError) as exc:
        replay_text(text)
    assert exc.value.line == 1
    # the same settings, possible ones, are accepted
    ok = game_from_header(header(seats=[{"name": n} for n in P3], dice="physical"))
    assert ok.seat_names == P3


def test_U_ECO_1_new_game_refuses_impossible_settings_directly():
    from engine.core.errors import RuleViolation
    from engine.universalis import new_game
    for kw in ({"starting_coins": 10 ** 12}, {"refreshment": -1}, {"starting_coins": 2.5}):
        with pytest.raises(RuleViolation) as exc:
            new_game(P3, **kw)
        assert exc.value.rule == "U-ECO-1"
    state = new_game(P3, starting_coins=10_000, refreshment=10_000)
    assert state.player("Ann").wealth == 10_000
    s2, _ = apply(state, A.PassPrep(player="Ann"))
    assert s2.prep_index == 1


# --- old logs still replay -------------------------------------------------------------------------------
def test_U_CHAL_1_a_window_after_a_draw_lapses_when_the_game_goes_on_as_logs_written_before_it_did():
    """Logs written before draws, bought dice, Fades and own-turn Take Overs opened a reaction window
    go straight on to the next action: the window lapses, as if everyone had let it stand."""
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero", proper_name="Turk")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges Turk.", receiver=hero)
    g.end_turn("Ben")
    g.end_turn("Cat")
    role, name = (t.id for t in g.s.components[hero].traits)
    g.do(A.DrawTrait(player="Ann", trait=role, component=hero, pool="Ann"))
    assert g.pend.kind == "reaction" and g.pend.players == ("Ben", "Cat")
    g.do(A.DrawTrait(player="Ann", trait=name, component=hero, pool="Ann"))  # no answers: it lapsed
    g.do(A.BuyDie(player="Ann", pool="Ann", count=1))
    g.do(A.CallResolution(player="Ann"))
    assert g.s.complication.pool("Ann").dice == 3 and g.pend.kind == "consent"
    conserved(g)
    # a paid statement's window does not lapse: it is answered first (U-TURN-3)
    g = framed(P3, {"Ann": 1})
    g.do(A.NarrateEvent(player="Ann", text="Rain."))
    g.refused(A.NarrateEvent(player="Ann", text="More rain."), "U-TURN-3")


def test_the_played_probe_games_still_replay_to_their_end():
    """Logs played before issue 17's changes (eval/data) replay without a refusal."""
    from pathlib import Path
    logs = sorted((Path(__file__).resolve().parent.parent / "eval" / "data").glob("probe_game*.jsonl"))[:2]
    assert logs
    for log in logs:
        rep = replay_text(log.read_text(encoding="utf-8"))
        assert rep.error is None, (log.name, rep.error)
        assert conservation_problems(rep.state) == []


def test_U_ACT_8_U_CHAL_4_a_fact_bought_in_a_dialog_reply_may_be_challenged_and_reworded():
    g = framed(P3, {"Ann": 1})
    queen = g.create("Ann", "Queen")
    g.end_turn("Ann")
    scout = g.create("Ben", "Scout")
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.do(A.Dialog(player="Ann", speaker=queen, listener=scout, line="Where are they?"))
    before = holds(g, *P3)
    g.do(A.AnswerDialog(player="Ben", line="North.", facts=["The spies are north of the river.", "They are lost."]))
    assert holds(g, *P3)[1] == before[1] - 2
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="one thing at a time", withdraw=False,
                                         alternative="The spies are north of the river.", alternative_cost=1)})
    g.do(A.ConcedeChallenge(player="Ben"))
    said = [f.text for f in g.s.facts if f.by == "Ben"]
    assert said == ["The spies are north of the river."] and holds(g, *P3)[1] == before[1] - 1
    conserved(g)


def test_U_FINE_1_any_player_calls_a_fine_in_preparation_off_his_turn_line_1361():
    g = game(P3)
    assert g.pend.players == ("Ann",)
    g.do(A.CallFine(player="Cat", accused="Ben", reason="spoilers"))
    for p, v in zip(P3, [True, True, False]):
        g.do(A.FineVote(player=p, fine=v))
    assert g.wealth("Ben") == 23 and g.pend.kind == "prep_turn" and g.pend.players == ("Ann",)
    g.refused(A.CallFine(player="Cat", accused="Cat", reason="me"), "U-FINE-1", "himself")
    conserved(g)
