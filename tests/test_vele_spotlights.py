"""Spotlight cards in play (V-61, V-AMB-13; L927-935, L735-737, L566): made at the purchase and put in the
middle of the table (L737, the newer rule), claimed with approval between scenes by their player or whoever
narrates. Logs from before Vele rules version 2 keep the older deal (L935): other players take the cards in
turns and a card is claimed while its holder narrates."""
from __future__ import annotations

import json

import pytest

from engine.core.errors import RuleViolation
from engine.core.log import LogRecord
from engine.core.ruleset import get_ruleset, header_for, replay_log_text
from engine.vele import actions as A
from engine.vele.decisions import legal_options
from engine.vele.rules import apply, new_game
from tests.vele_helpers import SEATS, build_action, comp_of, play

OLD = {"spotlight_cards": "taken_in_turns"}


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def with_cards(options=None):
    s = play(new_game(SEATS, options), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    return play(s, *[build_action(n, spotlight=f"{n}'s hero faces the past") for n in s.order])


def test_V_61_cards_lie_in_the_middle_of_the_table():
    """V-61 (L737, the newer Additional Rules win over L935): "After a player creates a spotlight, they put it in
    the middle of the table": nobody holds a card; the act's cards are told to the table."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    events = []
    for n in s.order:
        s, evs = apply(s, build_action(n, spotlight=f"{n}'s hero faces the past"))
        events += evs
    assert s.phase == "frame" and len(s.spotlights) == 4
    assert all(x.holder == "" and not x.done for x in s.spotlights)
    told = [e.text for e in events if e.kind == "spotlights"]
    assert len(told) == 1 and "middle of the table" in told[0] and "Dee's hero faces the past" in told[0]


def test_V_61_old_reading_cards_go_round_to_other_players():
    """V-61 (L927, L935), the older text, kept for old logs: the players take others' cards in turn: with one
    card each, every player holds one card, never their own."""
    s = with_cards(OLD)
    assert s.phase == "frame" and len(s.spotlights) == 4
    assert {x.maker: x.holder for x in s.spotlights} == {"Ann": "Dee", "Ben": "Ann", "Cy": "Ben", "Dee": "Cy"}
    assert all(p.pc_spotlights == 1 for p in s.players.values())


def test_V_AMB_13_pc_spotlights_are_capped_per_story():
    """V-AMB-13, V-61 (L735): "a player may create two spotlights for their PC" in a story; past the cap a
    card is refused (here a table that set the cap to 0)."""
    s = play(new_game(SEATS, {"pc_spotlights_per_story": 0}),
             *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    refuses(s, build_action("Ann", spotlight="one more"), "V-61")
    play(s, build_action("Ann"))


def test_V_61_V_48_old_reading_a_spotlight_is_claimed_while_its_holder_narrates():
    """V-61, V-48 (L566, L931, L736), the older deal (L935): Ann narrates and holds Ben's card; after a scene Ben
    claims it achieved; on approval Ben gets 5 XP and Ann 3. Cy's card is Ben's to narrate, so it is not claimed
    now; a card is claimed once."""
    s = with_cards(OLD)
    s = play(s, A.FrameScene(player="Ann", place="the ford", present=[comp_of(s, "Ben", "pc").id,
                                                                     comp_of(s, "Ann", "main").id]),
             A.EndScene(player="Ann"))
    xp = {n: p.xp for n, p in s.players.items()}
    refuses(s, A.ClaimSpotlight(player="Cy", maker="Cy"), "V-61")
    refuses(s, A.ClaimSpotlight(player="Dee", maker="Ben"), "V-61")
    s = play(s, A.ClaimSpotlight(player="Ben", maker="Ben", text="he forgave his brother"),
             *[A.CastVote(player=n, oppose=False) for n in ("Ann", "Cy", "Dee")])
    assert s.phase == "frame" and {n: p.xp - xp[n] for n, p in s.players.items()} == {"Ann": 3, "Ben": 5, "Cy": 0, "Dee": 0}
    refuses(s, A.ClaimSpotlight(player="Ann", maker="Ben"), "V-61")


def test_V_61_V_48_a_card_in_the_middle_is_claimed_under_whoever_narrates():
    """V-61, V-48 (L737, L736, L566): Ann narrates; Ben's and Cy's cards lie in the middle, so either may be
    claimed now, by its player or by Ann; Dee (neither the player nor the narrator) cannot claim Ben's. On
    approval Ben gets 5 XP and Ann, the narrator who brought it about, 3; the card records her; once only."""
    s = with_cards()
    s = play(s, A.FrameScene(player="Ann", place="the ford", present=[comp_of(s, "Ben", "pc").id,
                                                                     comp_of(s, "Ann", "main").id]),
             A.EndScene(player="Ann"))
    assert "claim_spotlight" in {o.type for o in legal_options(s, "Cy")}  # her own card, under Ann's narration
    xp = {n: p.xp for n, p in s.players.items()}
    msg = refuses(s, A.ClaimSpotlight(player="Dee", maker="Ben"), "V-61")
    assert "narrator" in msg
    s = play(s, A.ClaimSpotlight(player="Ann", maker="Ben", text="he forgave his brother"),
             *[A.CastVote(player=n, oppose=False) for n in ("Ann", "Cy", "Dee")])
    gained = {n: p.xp - xp[n] for n, p in s.players.items()}
    assert s.phase == "frame" and gained == {"Ann": 3, "Ben": 5, "Cy": 0, "Dee": 0}
    card = next(x for x in s.spotlights if x.maker == "Ben")
    assert card.done and card.holder == "Ann"
    refuses(s, A.ClaimSpotlight(player="Ben", maker="Ben"), "V-61")


def test_V_61_a_log_from_before_version_2_replays_with_the_older_deal():
    """V-61 (L935 vs L737): a log whose header has no spotlight_cards option (written by Vele rules version 1)
    replays with the cards taken in turns, byte for byte the same state as then; a new log names the option."""
    rs = get_ruleset("vele")
    fresh = rs.new_game(SEATS)
    head = json.loads(header_for(rs, fresh, "g1"))
    assert head["config"]["options"]["spotlight_cards"] == "middle" and head["ruleset_version"] == rs.version
    del head["config"]["options"]["spotlight_cards"]
    head["ruleset_version"] = "1"
    actions = [A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))]
    actions += [build_action(n, spotlight=f"{n}'s hero faces the past") for n in SEATS]
    text = "\n".join([json.dumps(head)] + [LogRecord(i + 1, a.model_dump(mode="json", exclude_none=True)).to_json()
                                              for i, a in enumerate(actions)]) + "\n"
    rep = replay_log_text(text)
    assert rep.error is None, rep.error
    expected = with_cards(OLD).model_copy(update={"rules_version": 1})  # the state now says which rules it plays by
    assert rep.state.options.spotlight_cards == "taken_in_turns" and rep.state.rules_version == 1
    assert rep.state.model_dump_json() == expected.model_dump_json()


def test_V_61_a_saved_version_1_game_replays_unchanged():
    """V-61 (L935, the older deal): tests/data/vele_v1_seed3.jsonl was written by Vele rules version 1 (3 seats, 2
    acts, spotlight cards dealt to other players and claimed by their holders). It replays to its end with the
    older deal, every action accepted, with the XP and cards it had then, and writes back the same bytes."""
    from pathlib import Path

    from agents.game_loop import GameTable
    text = (Path(__file__).parent / "data" / "vele_v1_seed3.jsonl").read_text(encoding="utf-8")
    rep = replay_log_text(text)
    assert rep.error is None and rep.state.phase == "over"
    s = rep.state
    assert s.options.spotlight_cards == "taken_in_turns"
    xp = {n: (p.xp, p.xp_earned) for n, p in s.players.items()}
    assert xp == {"Gina": (25, 21), "Ann": (28, 26), "Bob": (32, 29)}
    assert [(x.maker, x.holder, x.done) for x in s.spotlights] == [
        ("Bob", "Gina", False), ("Ann", "Bob", False), ("Gina", "Ann", True), ("Gina", "Ann", False),
        ("Bob", "Gina", True), ("Ann", "Bob", True)]
    assert len(s.records) == 30 and GameTable.load(text).log_text() == text
