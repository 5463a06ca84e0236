"""Challenges and approvals as votes in play (engine/vele/votes.py): V-1, V-2, V-AMB-4, V-EX-13, and the
approved claim of an aspect hit (V-48, V-AMB-20), with fixed votes and dice."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.decisions import pending
from engine.vele.rules import apply, dice_in_play
from tests.vele_helpers import built, comp_of, in_scene, play


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def attack(s):
    return play(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Ben", "pc").id, target=comp_of(s, "Ann", "main").id,
                                   goal="attack", text="Ben leaps the river"))


def test_V_1_V_EX_13_a_tied_challenge_fails_with_no_roll():
    """V-1, V-EX-13, V-AMB-4 (L163): Cy challenges Ben's struggle; the voters are everyone but Ben (3). With
    4 voters 2 would be a tie; here 3 voters: 1 of 3 is no majority, the struggle goes on, no die is asked."""
    s = play(attack(in_scene()), A.Challenge(player="Cy", reason="the river is a torrent"))
    assert s.phase == "vote" and set(pending(s).seats) == {"Ann", "Dee"}
    s = play(s, A.CastVote(player="Ann", oppose=False), A.CastVote(player="Dee", oppose=False))
    assert s.phase == "struggle" and s.struggle is not None and s.struggle.stage == "difficulty"
    assert s.vote is None


def test_V_1_a_majority_challenge_makes_the_actor_do_something_else():
    """V-1 (L163): "If the majority of players support the challenge, the player must do something else":
    the struggle is dropped before any die moves and the turn is still Ben's."""
    s = attack(in_scene())
    dice = dice_in_play(s)
    s = play(s, A.Challenge(player="Cy"), A.CastVote(player="Ann", oppose=True), A.CastVote(player="Dee", oppose=False))
    assert s.struggle is None and s.phase == "scene" and s.scene.turns[s.scene.turn] == "Ben"
    assert dice_in_play(s) == dice == s.total_points


def test_V_1_V_AMB_4_who_may_challenge_and_vote():
    """V-1, V-AMB-4: the actor does not challenge or vote on their own claim; a voter votes once; a challenge
    comes before any die is pushed."""
    s = attack(in_scene())
    refuses(s, A.Challenge(player="Ben"), "V-1")
    v = play(s, A.Challenge(player="Cy"))
    refuses(v, A.CastVote(player="Ben", oppose=False), "V-AMB-4")
    refuses(v, A.CastVote(player="Cy", oppose=True), "V-AMB-4")
    s = play(s, A.StateDifficulty(player="Ann", value=0))
    refuses(s, A.Challenge(player="Cy"), "V-1")


def claim(s, danger=False):
    hero = comp_of(s, "Ben", "pc")
    return play(s, A.ClaimAspect(player="Ben", component=hero.id, aspect=hero.aspects[0], danger=danger))


def test_V_2_V_AMB_20_an_approved_aspect_hit_pays_player_and_narrator():
    """V-2, V-48, V-AMB-20 (L165, L563-564): Ben claims his aspect was hit with danger; with no majority
    opposed it passes: 2 XP to Ben and 2 to the narrator Ann; his turn goes on."""
    s = in_scene()
    xp = {n: p.xp for n, p in s.players.items()}
    s = claim(s, danger=True)
    assert s.phase == "vote" and set(pending(s).seats) == {"Ann", "Cy", "Dee"}
    s = play(s, A.CastVote(player="Ann", oppose=False), A.CastVote(player="Cy", oppose=True),
             A.CastVote(player="Dee", oppose=False))
    assert s.players["Ben"].xp == xp["Ben"] + 2 and s.players["Ann"].xp == xp["Ann"] + 2
    assert s.players["Cy"].xp == xp["Cy"] and s.phase == "scene" and s.scene.turns[s.scene.turn] == "Ben"


def test_V_2_V_EX_13_an_approval_tie_is_rolled():
    """V-2, V-EX-13, V-AMB-4 (L165): at 4 seats a claim has 3 voters: 2 opposed is a majority and blocks
    with no roll. At 5 seats, 2 of 4 opposed is a tie, decided by a d6: 1-3 blocks, 4-6 passes."""
    s = claim(in_scene())
    s = play(s, A.CastVote(player="Ann", oppose=True), A.CastVote(player="Cy", oppose=True),
             A.CastVote(player="Dee", oppose=False))
    assert s.phase == "scene" and s.vote is None  # 2 of 3 opposed: blocked, no roll
    five = built(seats=["Ann", "Ben", "Cy", "Dee", "Eve"], bids=(6, 5, 4, 3, 2))
    five = play(five, A.FrameScene(player="Ann", place="the ford", present=[comp_of(five, "Ben", "pc").id,
                                                                            comp_of(five, "Ann", "main").id]))
    xp = five.players["Ben"].xp
    tie = play(claim(five), A.CastVote(player="Ann", oppose=True), A.CastVote(player="Cy", oppose=True),
               A.CastVote(player="Dee", oppose=False), A.CastVote(player="Eve", oppose=False))
    assert tie.phase == "vote_roll" and pending(tie).dice[0].sides == 6
    blocked = play(tie, A.RollDice(faces={"approval": [3]}))
    passed = play(tie, A.RollDice(faces={"approval": [4]}))
    assert blocked.players["Ben"].xp == xp and passed.players["Ben"].xp == xp + 1
    refuses(tie, A.RollDice(faces={"approval": [7]}), "V-AMB-4")


def test_V_48_claims_are_for_your_own_present_components_on_your_turn():
    """V-48, V-25: a hit is claimed on your turn, for an aspect your component in the scene really has."""
    s = in_scene()
    hero = comp_of(s, "Ben", "pc")
    refuses(s, A.ClaimAspect(player="Cy", component=comp_of(s, "Cy", "pc").id, aspect="aspect 0"), "V-25")
    refuses(s, A.ClaimAspect(player="Ben", component=hero.id, aspect="not mine"), "V-48")
    refuses(s, A.ClaimAspect(player="Ben", component=comp_of(s, "Cy", "pc").id, aspect="aspect 0"), "V-48")


def test_V_49_V_EX_16_a_failed_objective_is_bought_off_only_with_approval_and_the_pcs():
    """V-49, V-EX-16 (L551): with no PC struggle this act the failed objective cannot be bought off (lost
    without the PCs: no XP). After the PCs fought, the table approves the buy-off and every player gets
    10 XP, the narrator 3 more; it is then done and cannot be claimed again."""
    s = in_scene()
    s = play(s, A.EndScene(player="Ann"))
    refuses(s, A.BuyOffObjective(player="Ben"), "V-49")
    s = play(s, A.FrameScene(player="Ann", place="the ford", present=[comp_of(s, "Ben", "pc").id,
                                                                     comp_of(s, "Ann", "main").id]))
    s = attack(s)
    s = play(s, A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
             A.RollDice(faces={"actor:0": [1], "opponent:0": [8]}))
    s = play(s, A.PassTurn(player="Ann")) if s.phase == "scene" else s
    s = play(s, A.EndScene(player="Ann"))
    xp = {n: p.xp for n, p in s.players.items()}
    v = play(s, A.BuyOffObjective(player="Ben", text="the emerald sank in the river"))
    assert v.phase == "vote" and set(pending(v).seats) == {"Ann", "Cy", "Dee"}
    v = play(v, *[A.CastVote(player=n, oppose=False) for n in ("Ann", "Cy", "Dee")])
    assert v.phase == "frame" and v.objective_done
    assert {n: p.xp - xp[n] for n, p in v.players.items()} == {"Ann": 13, "Ben": 10, "Cy": 10, "Dee": 10}
    refuses(v, A.BuyOffObjective(player="Ben"), "V-49")
    blocked = play(play(s, A.BuyOffObjective(player="Ben")),
                   *[A.CastVote(player=n, oppose=True) for n in ("Ann", "Cy", "Dee")])
    assert not blocked.objective_done and blocked.players["Ben"].xp == xp["Ben"]


def test_V_1_V_11_out_of_turn_options_are_offered_to_every_seat():
    """V-1, V-11, V-12, V-49 (L163, L332): a seat the game is not waiting for may still challenge a claim
    before dice are pushed (not the actor), and recombine dice outside a struggle's resolution; between
    scenes anyone may ask to buy off the failed objective."""
    from engine.vele.decisions import legal_options
    s = attack(in_scene())
    kinds = lambda seat: {o.type for o in legal_options(s, seat)}  # noqa: E731
    assert "challenge" in kinds("Cy") and "challenge" in kinds("Dee") and "challenge" not in kinds("Ben")
    assert "state_difficulty" in kinds("Ann") and "state_difficulty" not in kinds("Cy")
    assert "recombine" not in kinds("Ann")  # the waiting seat keeps its decision's list
    assert "recombine" in kinds("Dee")
    s = play(s, A.StateDifficulty(player="Ann", value=0), A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]))
    assert "challenge" not in kinds("Cy") and "recombine" not in kinds("Cy")
    s = play(in_scene(), A.EndScene(player="Ann"))
    assert "buy_off_objective" in kinds("Dee")


def _turned_down(s):
    return play(attack(s), A.Challenge(player="Cy", reason="the river is a torrent"),
                A.CastVote(player="Ann", oppose=True), A.CastVote(player="Dee", oppose=False))


def test_V_4_a_claim_turned_down_is_justified_until_no_majority_opposes_it():
    """V-4, V-1 (L267: "you have to change your story until enough of them buy it that there is no longer a
    majority opposed"): Ben's leap is challenged and carried; Ben tells it again; the same voters still oppose it
    (2 of 3); he revises once more; now 1 of 3 opposes (no majority): the struggle goes on as revised, from before
    any die is pushed, and the narrator states its difficulty."""
    from engine.vele.decisions import legal_options
    s = _turned_down(in_scene())
    assert "justify" in {o.type for o in legal_options(s, "Ben")}
    assert "justify" not in {o.type for o in legal_options(s, "Cy")}
    refuses(s, A.Justify(player="Cy", text="Cy says so"), "V-4")
    s = play(s, A.Justify(player="Ben", text="Ben leaps the river where it narrows"))
    assert s.phase == "vote" and set(pending(s).seats) == {"Ann", "Cy", "Dee"}
    s = play(s, *[A.CastVote(player=n, oppose=o) for n, o in (("Ann", True), ("Cy", True), ("Dee", False))])
    assert s.phase == "scene" and s.struggle is None and s.revising.opposed == [2, 2]
    s = play(s, A.Justify(player="Ben", text="Ben swings across on the ferry rope"))
    s = play(s, *[A.CastVote(player=n, oppose=o) for n, o in (("Ann", False), ("Cy", True), ("Dee", False))])
    k = s.struggle
    assert s.phase == "struggle" and k.stage == "difficulty" and k.text == "Ben swings across on the ferry rope"
    assert s.revising is None and pending(s).seats == ("Ann",)


def test_V_4_justifying_is_the_next_thing_or_not_at_all():
    """V-4 (L267): the actor who does something else has let the claim go; a narrator's 'no' (V-3) is not put to
    the table again."""
    s = _turned_down(in_scene())
    moved_on = play(s, A.PassTurn(player="Ben"))
    assert moved_on.phase != "vote"
    with pytest.raises(RuleViolation) as exc:
        apply(moved_on, A.Justify(player="Ben", text="but really"))
    assert exc.value.rule in ("V-4", "V-FLOW")
    no = play(attack(in_scene()), A.NarratorNo(player="Ann", reason="the river is a torrent"))
    refuses(no, A.Justify(player="Ben", text="Ben leaps the river where it narrows"), "V-4")


def test_V_5_no_advice_during_play():
    """V-5 (L625: "out of character communication" may only happen between players who are not currently
    narrating or acting; "Story and act creation allow full communication"): while Ben's struggle waits for its
    difficulty, Cy may talk to Dee out of character, not to Ben (acting) nor to Ann (narrating), and Ben may not
    talk to anyone; during the purchase anyone talks to anyone. A word to oneself or a stranger is refused."""
    from engine.vele.decisions import legal_options
    from engine.vele.rules import new_game
    from tests.vele_helpers import SEATS
    s = attack(in_scene())
    said = play(s, A.TableTalk(player="Cy", to=["Dee"], text="he'll never make that jump"))
    assert said.struggle == s.struggle and said.phase == s.phase
    assert "acting" in refuses(s, A.TableTalk(player="Cy", to=["Ben"], text="jump left"), "V-5")
    assert "narrating" in refuses(s, A.TableTalk(player="Cy", to=["Ann"], text="make it hard"), "V-5")
    refuses(s, A.TableTalk(player="Ben", to=["Dee"], text="back me up"), "V-5")
    refuses(s, A.TableTalk(player="Cy", to=["Cy"], text="hm"), "V-5")
    assert "table_talk" in {o.type for o in legal_options(s, "Cy")}
    assert "table_talk" not in {o.type for o in legal_options(s, "Ann")}
    setup = play(new_game(SEATS), A.Bid(player="Ann", bid=3))
    play(setup, A.TableTalk(player="Ann", to=["Ben", "Cy"], text="who wants to play the healer?"))
