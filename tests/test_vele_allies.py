"""Allies in play (engine/vele/allying.py and the ally rounds of V-35): V-43, V-EX-20, V-EX-5, V-AMB-9,
with fixed dice."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.decisions import pending
from engine.vele.rules import apply, dice_in_play
from tests.vele_helpers import comp_of, in_scene, play


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def ben_attacks_with_cy(s):
    ben, cy, villain = comp_of(s, "Ben", "pc"), comp_of(s, "Cy", "pc"), comp_of(s, "Ann", "main")
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack", text="Ben and Cy charge"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)], allies=[cy.id]))
    assert s.struggle.stage == "ally" and pending(s).seats == ("Cy",)
    return play(s, A.JoinAlly(player="Cy", component=cy.id, stakes=[A.StakeIn(trait="Wits", die=6)]))


def test_V_43_V_AMB_9_an_ally_pushes_its_own_dice_and_is_paid_first():
    """V-43, V-AMB-9 (L445, L330, L489): Cy's PC allies Ben's attack with a d6 of Cy's; Ben wins 8 against 2.
    Allies are paid first, their choicest die: Cy gets back the d6 and takes Ann's d8; Ben his own d8."""
    s = in_scene()
    ben0, cy0 = list(s.players["Ben"].character), list(s.players["Cy"].character)
    s = ben_attacks_with_cy(s)
    s = play(s, A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
             A.RollDice(faces={"actor:0": [8], "actor:1": [3], "opponent:0": [2]}))
    assert s.struggle.stage == "damage" and s.struggle.effect == 6
    assert sorted(s.players["Cy"].character) == sorted(cy0 + [8])
    assert sorted(s.players["Ben"].character) == sorted(ben0)
    assert dice_in_play(s) == s.total_points


def test_V_43_V_EX_20_the_ally_forfeits_its_next_struggle_and_may_not_be_allied_back():
    """V-43, V-EX-20 (L445): C (Cy's PC) allied B (Ben's PC) before acting: on its turn it may not start a
    struggle; attacked, it pushes nothing; and B may not ally in C's defence that round. After that
    struggle the forfeit is spent."""
    s = ben_attacks_with_cy(in_scene())
    cy, ben = comp_of(s, "Cy", "pc"), comp_of(s, "Ben", "pc")
    assert cy.id in s.forfeit
    s = play(s, A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
             A.RollDice(faces={"actor:0": [1], "actor:1": [1], "opponent:0": [6]}))
    assert s.phase == "scene" and s.scene.turns[s.scene.turn] == "Cy"
    refuses(s, A.StartStruggle(player="Cy", actor=cy.id, target=comp_of(s, "Ann", "main").id, goal="attack"), "V-43")
    s = play(s, A.PassTurn(player="Cy"),
             A.StartStruggle(player="Ann", actor=comp_of(s, "Ann", "normal").id, target=cy.id, goal="attack"),
             A.StateDifficulty(player="Ann", value=0), A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6)]))
    refuses(s, A.Wager(player="Cy", stakes=[A.StakeIn(trait="Wits", die=6)]), "V-43")
    s = play(s, A.Wager(player="Cy", stakes=[], allies=[ben.id]))
    refuses(s, A.JoinAlly(player="Ben", component=ben.id, stakes=[A.StakeIn(trait="Blade", die=8)]), "V-43")
    s = play(s, A.JoinAlly(player="Ben", component=ben.id, decline=True), A.RollDice(faces={"actor:0": [1]}))
    assert s.struggle.stage == "damage" and cy.id not in s.forfeit
    assert dice_in_play(s) == s.total_points


def test_V_EX_5_V_35_the_ally_rounds_in_play():
    """V-EX-5, V-35 (L463): Ann's gang allies the villain's defence with one trait; effect 6. The ally loses
    one trait (its contribution), then the target takes the rest: Cunning d4, Connected d6, Ruthless d8; the
    villain is taken out. Naming the target's traits alone is refused."""
    s = in_scene()
    ben, villain, gang = comp_of(s, "Ben", "pc"), comp_of(s, "Ann", "main"), comp_of(s, "Ann", "normal")
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack"),
             A.StateDifficulty(player="Ann", value=0), A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)], allies=[gang.id]),
             A.JoinAlly(player="Ann", component=gang.id, stakes=[A.StakeIn(trait="Numbers", die=6)]),
             A.RollDice(faces={"actor:0": [8], "opponent:0": [2], "opponent:1": [1]}))
    assert s.struggle.effect == 6
    refuses(s, A.TakeDamage(player="Ann", traits=["Cunning", "Connected", "Ruthless"]), "V-35")
    refuses(s, A.TakeDamage(player="Ann", traits=["Cunning", "Connected", "Ruthless"],
                            allies={gang.id: ["Menace", "Numbers"]}), "V-35")
    s = play(s, A.TakeDamage(player="Ann", traits=["Cunning", "Connected", "Ruthless"], allies={gang.id: ["Menace"]}))
    assert s.components[villain.id].out and not s.components[gang.id].out
    assert not s.components[gang.id].trait("Menace").healthy and s.components[gang.id].trait("Numbers").healthy
    assert dice_in_play(s) == s.total_points
