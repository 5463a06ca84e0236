"""Judgment, Challenge Variant (book L1980-1994) played through `apply`: who judges, the ruling, the
unanimous overrule, the new Judge drawn by the table's dice, what it costs (nothing) and what a ruling
against a statement does (what a won Challenge does, without bids)."""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import legal_options
from engine.universalis.replay import replay_records  # noqa: F401  (the log replays: see the last test)

from engine_helpers import P3, framed, observed

P4 = ["A", "B", "Cy", "D"]
JUDGMENT = {"dispute_mode": "judgment"}


def seen(*rules: str) -> None:
    for rule in rules:
        observed(rule, "effect")


def bens_event(addons: dict | None = None):
    """Ann frames scene 1 (she spent coins), ends her turn; Ben narrates an Event for 1 coin: his
    turn's Judge is Ann, the last other player who spent coins before it began."""
    g = framed(P3, {"Ann": 1}, addons=addons or JUDGMENT)
    g.end_turn("Ann")
    g.do(A.NarrateEvent(player="Ben", text="The bridge collapses."))
    return g


def test_UA_JUDGE_2_the_judge_is_who_spent_before_the_turn_and_a_ruling_against_withdraws_L1986():
    """UA-JUDGE-2 (L1986 "the player who spent Coins before the current player's turn is to be the
    Judge"): Cat invokes Judgment on Ben's Event; Ann judges; she rules it does not stand; Cat upholds
    her ruling, so it holds: the Event is withdrawn and Ben's 1 coin refunded (24 -> 25). Judgment
    costs nobody anything (Ann 23, Cat 25 before and after)."""
    g = bens_event()
    before = {p: g.wealth(p) for p in P3}
    assert before["Ben"] == 24
    assert {o.type for o in legal_options(g.s, "Cat")} >= {"invoke_judgment", "pass"}
    assert "challenge" not in {o.type for o in legal_options(g.s, "Cat")}
    g.react({"Cat": A.InvokeJudgment(player="Cat", reason="The bridge is stone; nothing here could break it.")})
    assert g.pend.kind == "judgment" and g.pend.players == ("Ann",)
    assert g.s.extra.judgment.judge == "Ann"
    g.refused(A.NarrateEvent(player="Ben", text="He runs."), "UA-JUDGE-1", "Judgment")
    g.refused(A.JudgeRuling(player="Cat", stands=False), "UA-JUDGE-2", "Ann is the Judge")
    g.do(A.JudgeRuling(player="Ann", stands=False, text="nothing established can bring the bridge down"))
    assert g.pend.kind == "overrule_vote" and set(g.pend.players) == {"Ben", "Cat"}
    g.refused(A.OverruleVote(player="Ann", overrule=True), "UA-JUDGE-3", "own ruling")
    g.do(A.OverruleVote(player="Cat", overrule=False))
    assert g.s.extra.judgment is None
    assert not any(f.text == "The bridge collapses." for f in g.s.facts)
    assert g.wealth("Ben") == 25 and g.wealth("Ann") == before["Ann"] and g.wealth("Cat") == before["Cat"]
    assert g.last("statement_withdrawn")
    g.check()
    seen("UA-JUDGE-2")


def test_UA_JUDGE_1_a_ruling_for_the_statement_keeps_it_and_it_is_not_judged_again_L1984():
    """UA-JUDGE-1 (L1984 "This Add-on replaces the normal Challenge Variant"): Judgment is invoked
    instead of a Challenge; Ann rules that Ben's Event stands, Ben upholds: it stands at 1 coin
    (Ben 24), and the window goes on without Judgment (or Challenge) on it again."""
    g = bens_event()
    g.do(A.InvokeJudgment(player="Cat", reason="too convenient"))
    g.do(A.Pass(player="Ann"))
    g.do(A.JudgeRuling(player="Ann", stands=True))
    g.do(A.OverruleVote(player="Ben", overrule=False))
    assert g.s.extra.judgment is None
    assert any(f.text == "The bridge collapses." for f in g.s.facts) and g.wealth("Ben") == 24
    assert g.pend.kind == "reaction"
    assert "invoke_judgment" not in {o.type for o in legal_options(g.s, "Cat")}
    g.passes()
    g.check()
    seen("UA-JUDGE-1")


def test_UA_JUDGE_1_judgment_needs_the_add_on_and_replaces_an_alternative_like_a_challenge_L1984():
    """Without the add-on Judgment is refused (UA-JUDGE-1). With it, a disputed version replaces the
    statement as a won Challenge does (U-CHAL-4): 'The bridge creaks.' for the same 1 coin."""
    g = framed(P3, {"Ann": 1})
    g.end_turn("Ann")
    g.do(A.NarrateEvent(player="Ben", text="The bridge collapses."))
    g.refused(A.InvokeJudgment(player="Cat", reason="no"), "UA-JUDGE-1", "has not adopted")
    g = bens_event()
    g.react({"Cat": A.InvokeJudgment(player="Cat", reason="stone bridges do not fall",
                                     alternative="The bridge creaks.", alternative_cost=1, withdraw=False)})
    g.do(A.JudgeRuling(player="Ann", stands=False))
    g.do(A.OverruleVote(player="Ben", overrule=False))
    texts = [f.text for f in g.s.facts]
    assert "The bridge creaks." in texts and "The bridge collapses." not in texts
    assert g.wealth("Ben") == 24
    g.passes()
    g.check()
    seen("UA-JUDGE-1")


def test_UA_JUDGE_3_unanimous_overrules_until_no_judge_is_left_then_the_player_goes_on_L1990():
    """UA-JUDGE-3 (L1990 "overruled only by a unanimous vote of the other players"; L1992 "If all Judges
    are overruled ... the player on whom Judgment was called can continue"): Ann is overruled by Ben
    and Cat (the judged Ben votes too: the digest's reading); the only one left, Cat, judges; she is
    overruled by Ann and Ben; nobody is left: Ben's Event stands (Ben 24)."""
    g = bens_event()
    g.react({"Cat": A.InvokeJudgment(player="Cat", reason="too convenient")})
    g.do(A.JudgeRuling(player="Ann", stands=True))
    g.do(A.OverruleVote(player="Ben", overrule=True))
    g.refused(A.EndTurn(player="Ben"), "UA-JUDGE-4", "passing the turn")
    g.do(A.OverruleVote(player="Cat", overrule=True))
    assert g.s.extra.judgment.judges == ["Ann", "Cat"] and g.pend.players == ("Cat",)
    g.do(A.JudgeRuling(player="Cat", stands=False))
    assert set(g.pend.players) == {"Ann", "Ben"}
    g.do(A.OverruleVote(player="Ann", overrule=True))
    g.do(A.OverruleVote(player="Ben", overrule=True))
    assert g.s.extra.judgment is None and g.last("judgment_free")
    assert any(f.text == "The bridge collapses." for f in g.s.facts) and g.wealth("Ben") == 24
    g.passes()
    g.check()
    seen("UA-JUDGE-3")


def test_UA_JUDGE_3_a_new_judge_is_drawn_by_the_dice_among_those_left_L1992():
    """UA-JUDGE-3 (L1992 "a player chosen at random from those remaining"): four players; B's turn, A
    judges and is overruled by B, Cy and D; the table's dice roll one d2 for Cy or D (seat order from
    the judged B's left); a 3 is refused; a 2 seats D, who rules afresh."""
    g = framed(P4, {"A": 1}, addons=JUDGMENT)
    g.end_turn("A")
    g.do(A.NarrateEvent(player="B", text="The tower burns."))
    g.react({"Cy": A.InvokeJudgment(player="Cy", reason="it rained all night")})
    assert g.s.extra.judgment.judge == "A"
    g.do(A.JudgeRuling(player="A", stands=True))
    for p in ("B", "Cy", "D"):
        g.do(A.OverruleVote(player=p, overrule=True))
    assert g.pend.kind == "roll" and g.pend.dice == {"judge": 1} and g.pend.sides == 2
    g.refused(A.Roll(faces={"judge": [3]}), "UA-JUDGE-3", "a d2 cannot show 3")
    g.refused(A.Roll(faces={"C": [1]}), "UA-JUDGE-3", "one d2")
    g.do(A.Roll(faces={"judge": [2]}))
    assert g.s.extra.judgment.judge == "D" and g.pend.kind == "judgment"
    g.do(A.JudgeRuling(player="D", stands=False))
    g.do(A.OverruleVote(player="A", overrule=False))
    assert not any(f.text == "The tower burns." for f in g.s.facts)
    g.check()
    seen("UA-JUDGE-3")


def test_UA_JUDGE_4_no_interrupt_or_passing_the_turn_while_judgment_is_invoked_L1988():
    """UA-JUDGE-4 (L1988 "no one may Interrupt or pass the turn without the consent of a majority"):
    while the question is open both are refused (the engine asks no consent yet); the judged player
    not voting (the reading's alternative) leaves only Cat to vote."""
    g = bens_event({"dispute_mode": "judgment", "judged_player_votes": False})
    g.react({"Cat": A.InvokeJudgment(player="Cat", reason="too convenient")})
    g.refused(A.EndTurn(player="Ben"), "UA-JUDGE-4", "passing the turn")
    g.refused(A.Interrupt(player="Cat"), "UA-JUDGE-4", "Interrupting")
    g.do(A.JudgeRuling(player="Ann", stands=True))
    assert g.pend.players == ("Cat",)
    g.refused(A.OverruleVote(player="Ben", overrule=True), "UA-JUDGE-3", "judged player does not vote")
    g.do(A.OverruleVote(player="Cat", overrule=False))
    g.passes()
    g.end_turn("Ben")
    seen("UA-JUDGE-4")


def test_UA_JUDGE_2_the_judge_never_judges_himself_and_the_panel_and_prompt_show_the_case():
    """UA-JUDGE-2, engine choices: Ann's own statement in her own turn, with nobody else having spent
    yet, is judged by the player to her right (Cat). The app panel and the LLM's state text show the
    case, the player's words escaped on the panel."""
    from agents.llm.state_text import describe_state
    from app.ui.addon_panels import panel_lines
    g = framed(P3, {"Ann": 1}, addons=JUDGMENT)
    g.do(A.NarrateEvent(player="Ann", text="The *bridge* <b>falls</b>."))
    g.react({"Ben": A.InvokeJudgment(player="Ben", reason="No <i>way</i>.")})
    assert g.s.extra.judgment.judge == "Cat"
    text = "\n".join(panel_lines(g.s, ["Ben"]))
    assert "Judge: **Cat**" in text and "<b>" not in text and "<i>" not in text
    assert "Judgment invoked by Ben" in describe_state(g.s, "Cat") and "Judge: Cat" in describe_state(g.s, "Cat")
    seen("UA-JUDGE-2")


def test_UA_JUDGE_1_heuristic_seats_play_judgment_and_the_log_replays(tmp_path):
    """The heuristic disputes by Judgment what it would have challenged and judges by the Facts; a
    game with Judgment keeps its coins and replays byte for byte from its log."""
    from agents.heuristic import HeuristicPlayer
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice
    from engine.universalis.addons import Addons
    from engine_helpers import replayed_game
    g = bens_event()
    g.react({"Cat": A.InvokeJudgment(player="Cat", reason="it contradicts", fact=g.s.facts[0].id)})
    t = Table.new(heuristic_seats(P3, 3), dice=SeededDice(3), addons=Addons(dispute_mode="judgment"),
                  log_path=tmp_path / "g.jsonl")
    t.state = g.s
    act = HeuristicPlayer("Ann").decide(t.observe("Ann")).action
    assert isinstance(act, A.JudgeRuling) and act.stands is False  # it goes against a cited Fact
    replayed_game(Addons(dispute_mode="judgment"), 5, tmp_path / "h.jsonl", steps=220)
    seen("UA-JUDGE-1")


def test_UA_JUDGE_1_a_tenet_judged_in_game_prep_and_a_fine_during_the_case():
    """UA-JUDGE-1 in Game Prep: Ben's Tenet (1 coin) is disputed; Ann proposed before him, so she judges
    (UA-JUDGE-2); a Fine may be called while the case is open (U-FINE-1) and is voted first (voted down
    0 to 3: its accuser Cat pays 3); Ann rules that the Tenet stands, Ben upholds: Ben 24, Cat 22."""
    from engine_helpers import game
    g = game(P3, addons=JUDGMENT)
    g.act(A.ProposeTenet(player="Ann", text="Magic is rare."))
    g.do(A.ProposeTenet(player="Ben", text="Dragons rule the sky."))
    assert g.wealth("Ben") == 24
    g.react({"Cat": A.InvokeJudgment(player="Cat", reason="it breaks 'Magic is rare'")})
    assert g.s.extra.judgment.judge == "Ann"
    g.do(A.CallFine(player="Cat", accused="Ben", reason="shouting"))
    assert g.pend.kind == "fine_vote"
    g.refused(A.JudgeRuling(player="Ann", stands=False), "U-FINE-1", "Fine")
    for p in P3:
        g.do(A.FineVote(player=p, fine=False))
    g.do(A.JudgeRuling(player="Ann", stands=True, text="dragons can be rare magic"))
    g.do(A.OverruleVote(player="Ben", overrule=False))
    assert g.s.extra.judgment is None and any(t.text == "Dragons rule the sky." for t in g.s.tenets)
    assert (g.wealth("Ben"), g.wealth("Cat")) == (24, 22)
    g.passes()
    g.check()
    seen("UA-JUDGE-1")


def test_UA_JUDGE_2_U_FINE_1_a_fine_voted_during_the_case_stands_when_the_ruling_goes_against():
    """U-FINE-1 (L597-601: the Fine is paid when the table votes it) with UA-JUDGE-2 (L1986): a Fine
    voted while the case is open stays paid when the Judge rules the statement down and the case is
    settled as a won Challenge (found in review: the case kept only the Fines voted before it opened).
    Cat accuses Ben and the table votes the Fine down 0 to 3, so Cat pays 3; Ann rules against Ben's
    Tenet and Ben does not overrule: Cat keeps paying, Cat 22, and the coins still balance."""
    from engine_helpers import game
    g = game(P3, addons=JUDGMENT)
    g.act(A.ProposeTenet(player="Ann", text="Magic is rare."))
    g.do(A.ProposeTenet(player="Ben", text="Dragons rule the sky."))
    g.react({"Cat": A.InvokeJudgment(player="Cat", reason="it breaks 'Magic is rare'")})
    g.do(A.CallFine(player="Cat", accused="Ben", reason="shouting"))
    for p in P3:
        g.do(A.FineVote(player=p, fine=False))
    assert g.wealth("Cat") == 22
    g.do(A.JudgeRuling(player="Ann", stands=False, text="dragons everywhere break it"))
    g.do(A.OverruleVote(player="Ben", overrule=False))
    assert g.s.extra.judgment is None and not any(t.text == "Dragons rule the sky." for t in g.s.tenets)
    assert g.wealth("Cat") == 22
    g.check()
    seen("UA-JUDGE-2")
    seen("U-FINE-1")
