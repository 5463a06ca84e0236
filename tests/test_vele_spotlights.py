"""Spotlight cards in play (V-61, V-AMB-13; L927-935, L735-737, L566): made at the purchase, dealt to other
players, claimed with approval while their holder narrates."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.rules import apply, new_game
from tests.vele_helpers import SEATS, build_action, comp_of, play


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def with_cards(options=None):
    s = play(new_game(SEATS, options), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    return play(s, *[build_action(n, spotlight=f"{n}'s hero faces the past") for n in s.order])


def test_V_61_cards_go_round_to_other_players():
    """V-61 (L927, L935): each player makes a PC card at the purchase; the players take others' cards in
    turn: with one card each, every player holds one card, never their own."""
    s = with_cards()
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


def test_V_61_V_48_a_spotlight_is_claimed_while_its_holder_narrates():
    """V-61, V-48 (L566, L931, L736): Ann narrates and holds Ben's card; after a scene Ben claims it achieved; on
    approval Ben gets 5 XP and Ann 3. Cy's card is Ben's to narrate, so it is not claimed now; a card is
    claimed once."""
    s = with_cards()
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
