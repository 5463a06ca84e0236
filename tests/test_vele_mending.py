"""Healing in play (engine/vele/mending.py): V-40 with fixed dice (L669)."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.decisions import pending
from engine.vele.rules import apply, dice_in_play, new_game
from tests.vele_helpers import SEATS, build_action, comp_of, pc, play


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def medic_table(options=None):
    """Cy's PC carries Heal 6 on its d6 Wits (L669); Ben's PC has lost Sneak d4 and Wits d6 (marked X)."""
    medic = pc("Medic", ability=False)
    medic.ability = A.AbilityIn(trait="Wits", effect="heal", size=6)
    s = play(new_game(SEATS, options), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    s = play(s, *[build_action(n, pc=medic) if n == "Cy" else build_action(n) for n in s.order])
    ben = comp_of(s, "Ben", "pc")
    for t in ben.traits:
        if t.name in ("Sneak", "Wits"):
            t.damage = "X"
    present = [ben.id, comp_of(s, "Cy", "pc").id, comp_of(s, "Ann", "main").id]
    s = play(s, A.FrameScene(player="Ann", place="the camp", present=present), A.PassTurn(player="Ben"))
    return s, ben, comp_of(s, "Cy", "pc")


def test_V_40_heal_6_mends_two_traits_smallest_first_on_a_won_roll():
    """V-40 (L669): "Heal 6 can heal up to 2 traits", cost 2 dice points paid by the healer, opposed by all
    the wounded traits together; a win (5 against 4 and 2) mends the smallest first; the paid dice go to the
    bowl (spent by V-40), so the table's dice are conserved."""
    s, ben, cy = medic_table()
    s = play(s, A.Heal(player="Cy", healer=cy.id, trait="Wits", patient=ben.id, count=2, paid=[6]))
    assert s.phase == "heal_roll" and [d.sides for d in pending(s).dice] == [6, 4, 6]
    assert dice_in_play(s) == s.total_points
    won = play(s, A.RollDice(faces={"healer": [5], "wound:0": [2], "wound:1": [4]}))
    assert won.components[ben.id].healthy() == {"Blade": 8, "Wits": 6, "Sneak": 4, "Grit": 10}
    assert won.phase in ("scene", "narrator") and dice_in_play(won) == won.total_points
    tie = play(s, A.RollDice(faces={"healer": [4], "wound:0": [1], "wound:1": [4]}))
    assert "Wits" not in tie.components[ben.id].healthy()


def test_V_40_healing_limits():
    """V-40 (L669, L485): more traits than Heal N allows, a wrong cost, a second attempt since the last
    conflict, and a trait without the Heal ability (the main text's route is the heal_without_ability
    option) are refused."""
    s, ben, cy = medic_table()
    refuses(s, A.Heal(player="Cy", healer=cy.id, trait="Wits", patient=ben.id, count=3, paid=[8]), "V-40")
    refuses(s, A.Heal(player="Cy", healer=cy.id, trait="Wits", patient=ben.id, count=2, paid=[4]), "V-40")
    refuses(s, A.Heal(player="Cy", healer=cy.id, trait="Blade", patient=ben.id, count=1, paid=[4]), "V-40")
    again = play(s, A.Heal(player="Cy", healer=cy.id, trait="Wits", patient=ben.id, count=1, paid=[4]),
                 A.RollDice(faces={"healer": [1], "wound:0": [2], "wound:1": [4]}))
    again = play(again, A.PassTurn(player="Ann"), A.NextRound(player="Ann"), A.PassTurn(player="Ben"))
    assert again.scene.turns[again.scene.turn] == "Cy"
    refuses(again, A.Heal(player="Cy", healer=cy.id, trait="Wits", patient=ben.id, count=1, paid=[4]), "V-40")
    s2, ben2, cy2 = medic_table({"heal_without_ability": True})
    play(s2, A.Heal(player="Cy", healer=cy2.id, trait="Blade", patient=ben2.id, count=1, paid=[4]))
