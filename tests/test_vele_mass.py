"""Mass struggles in play (V-38, V-EX-18; L433-435, Area 8 at L667): a component with Area attacks everything
else in its zone; it wagers and rolls once, each defender wagers, rolls and resolves on its own, and every die
stays on the table."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.ruleset import get_ruleset
from engine.vele import actions as A
from engine.vele.decisions import legal_options, pending
from engine.vele.rules import dice_in_play
from engine.vele.state import Ability
from tests.vele_helpers import SEATS, area_scene, comp_of, play, refuses, roll_by

def test_V_38_area_attack_through_apply_each_defender_resolves_and_the_wager_is_lost_to_one():
    """V-38 (L433-435: "each opponent resolves their roll separately. The actor still only wagers their dice once
    and rolls once"; "If the actor loses to any of the opponents, they lose their wager"): Ben's Area hits the
    villain and both gangs in his zone, not Cy's PC on the far shore. He rolls 5 once: the villain's 7 takes his
    d10; the gangs' 2 and 3 are beaten and their dice go to Ben; each gang absorbs its own effect, in turn."""
    s, ben, main, g0, g1 = area_scene()
    total = dice_in_play(s)
    assert "start_mass_struggle" in {o.type for o in legal_options(s, "Ben")}
    assert "start_mass_struggle" not in {o.type for o in legal_options(s, "Cy")}
    s = play(s, A.StartMassStruggle(player="Ben", actor=ben.id, text="lightning arcs through the bank"))
    k = s.struggle
    assert k.mass and {k.opponent.component, *(o.component for o in k.others)} == {main.id, g0.id, g1.id}
    s = play(s, A.StateDifficulty(player="Ann", value=0))
    assert "Area" in refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="own")]), "V-38")
    s = play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10, source="own")]))
    for cid, trait, die in ((main.id, "Ruthless", 8), (g0.id, "Numbers", 6), (g1.id, "Menace", 4)):
        assert pending(s).kind == "wager" and s.struggle.opponent.component == cid
        s = play(s, A.Wager(player="Ann", stakes=[A.StakeIn(trait=trait, die=die, source="own")]))
        assert dice_in_play(s) == total
    s = play(s, roll_by(s, {ben.id: [5], main.id: [7], g0.id: [2], g1.id: [3]}))
    assert dice_in_play(s) == total and get_ruleset("vele").invariants(s) == []
    assert sorted(s.players["Ben"].character) == [4, 4, 6, 6, 8]  # his d10 lost; the gangs' d6 and d4 won
    assert sorted(s.players["Ann"].story) == [8, 10, 10]  # the villain keeps its d8 and takes Ben's d10
    recs = {r.opponent: r for r in s.records[-3:]}
    assert recs[main.id].winner == "opponent" and recs[g0.id].effect == 3 and recs[g1.id].effect == 2
    assert pending(s).kind == "take_damage" and s.struggle.opponent.component == g0.id and s.struggle.effect == 3
    s = play(s, A.TakeDamage(player="Ann", traits=["Numbers", "Menace"]))
    assert s.components[g0.id].out and s.struggle.opponent.component == g1.id and s.struggle.effect == 2
    s = play(s, A.TakeDamage(player="Ann", traits=["Numbers"]))
    assert s.struggle is None and s.scene.turns[s.scene.turn] == "Cy"
    assert {r.opponent: r.disabled for r in s.records[-3:]} == {main.id: [], g0.id: ["Numbers", "Menace"],
                                                                g1.id: ["Numbers"]}
    assert dice_in_play(s) == total


def test_V_38_later_winners_get_their_own_set_from_the_bowl():
    """V-38 (L435: "Winning opponents get their own set of the actor's dice (taken from the bowl if another
    opponent has already won the actor's dice)"): Ben's 3 beats the villain's 1 but not the gangs' 4 and 4; the
    first gang takes his d10, the second a d10 from the bowl, and its bowl d4 goes back; the villain's d8 is Ben's.
    The table's dice are conserved (the bowl's copy moves, nothing is made). This is the flow of logs written
    before rules version 3, which took no bowl fee from a winning defender (the version-3 flow: the next test)."""
    s, ben, main, g0, g1 = area_scene()
    s.rules_version = 2
    total, bowl10 = dice_in_play(s), s.bowl.count(10)
    s = play(s, A.StartMassStruggle(player="Ben", actor=ben.id), A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10, source="own")]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8, source="own")]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6, source="own")]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Menace", die=4, source="bowl")]))
    bowl4 = s.bowl.count(4)
    s = play(s, roll_by(s, {ben.id: [3], main.id: [1], g0.id: [4], g1.id: [4]}))
    assert s.bowl.count(10) == bowl10 - 1 and s.bowl.count(4) == bowl4 + 1 and dice_in_play(s) == total
    assert sorted(s.players["Ann"].story) == [4, 6, 10, 10, 10] and sorted(s.players["Ben"].character) == [4, 6, 8, 8]
    assert get_ruleset("vele").invariants(s) == []
    assert pending(s).kind == "take_damage" and s.struggle.opponent.component == main.id and s.struggle.effect == 2


def later_winners(bowl_defender: bool):
    """Ben's d10 Area wager rolls 3: the villain's 1 is beaten, both gangs' 4s win; the second gang pushes a bowl
    d4 or its own d4."""
    s, ben, main, g0, g1 = area_scene()
    s = play(s, A.StartMassStruggle(player="Ben", actor=ben.id), A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10, source="own")]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8, source="own")]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6, source="bowl")]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Menace", die=4,
                                                      source="bowl" if bowl_defender else "own")]))
    return s, ben, main, g0, g1


def test_V_38_V_AMB_9_a_winning_defender_pays_the_bowl_its_fee_from_its_winnings():
    """V-38 (L433: "You resolve a mass struggle like a normal struggle, except each opponent resolves their roll
    separately"), V-27 step 10, V-AMB-9 (L330: "Bowl dice return back to the bowl if you win the struggle and each
    bowl die takes the largest die of your winnings"; L489), rules version 3. Both gangs beat Ben with bowl dice:
    the first gang's bowl d6 goes back with Ben's d10, its only winning; the second's copy (L435) is its fee, so
    no d10 leaves the bowl for it. Ann's pool gains nothing from the gangs; Ben loses his d10 and takes the
    villain's d8. The table's dice are conserved."""
    s, ben, main, g0, g1 = area_scene()
    assert s.rules_version >= 3  # the fee holds from version 3 on
    total, bowl10, bowl4, bowl6 = dice_in_play(s), s.bowl.count(10), s.bowl.count(4), s.bowl.count(6)
    story = sorted(s.players["Ann"].story)
    s, ben, main, g0, g1 = later_winners(True)
    s = play(s, roll_by(s, {ben.id: [3], main.id: [1], g0.id: [4], g1.id: [4]}))
    assert s.bowl.count(10) == bowl10 + 1 and s.bowl.count(6) == bowl6 and s.bowl.count(4) == bowl4
    assert sorted(s.players["Ann"].story) == sorted(story[:story.index(8)] + story[story.index(8) + 1:])
    assert sorted(s.players["Ben"].character) == [4, 6, 8, 8] and dice_in_play(s) == total
    assert get_ruleset("vele").invariants(s) == []


def test_V_38_a_later_winner_with_its_own_dice_keeps_its_copy_from_the_bowl():
    """V-38 (L435), rules version 3: the second gang pushed its own d4, so it owes no fee: it keeps the d10 copied
    from the bowl (the first gang's bowl d6 still pays Ben's d10 to the bowl as its fee, L330)."""
    s, ben, main, g0, g1 = area_scene()
    total, bowl10 = dice_in_play(s), s.bowl.count(10)
    story = sorted(s.players["Ann"].story)
    s, ben, main, g0, g1 = later_winners(False)
    s = play(s, roll_by(s, {ben.id: [3], main.id: [1], g0.id: [4], g1.id: [4]}))
    assert s.bowl.count(10) == bowl10  # Ben's d10 came in as a fee, the copy went out
    rest = list(story)
    rest.remove(8)
    assert sorted(s.players["Ann"].story) == sorted(rest + [10]) and dice_in_play(s) == total
    assert get_ruleset("vele").invariants(s) == []


def test_V_EX_18_power_is_paid_for_every_target_or_not_at_all():
    """V-EX-18 (L433: "you have to pay power for each victim of the attack -- if you can't afford it, you can't
    use any other abilities at all in that attack"): with Power Attack 6 beside Area on Grit, power against the
    three targets is three d6; two are refused; none is allowed. No allies in a mass struggle (reading)."""
    s, ben, main, g0, g1 = area_scene()
    b = s.components[ben.id]
    b.abilities.append(Ability(trait="Grit", effect="power_attack", size=6))
    b.allocated = [6, 6, 6]
    s = play(s, A.StartMassStruggle(player="Ben", actor=ben.id), A.StateDifficulty(player="Ann", value=0))
    grit = [A.StakeIn(trait="Grit", die=10, source="own")]
    assert "every one of the 3" in refuses(s, A.Wager(player="Ben", stakes=grit, power=[6, 6]), "V-38")
    refuses(s, A.Wager(player="Ben", stakes=grit, allies=[comp_of(s, "Cy", "pc").id]), "V-38")
    total = dice_in_play(s)
    s = play(s, A.Wager(player="Ben", stakes=grit, power=[6, 6, 6]))
    assert s.components[ben.id].allocated == [] and dice_in_play(s) == total


def test_V_38_mass_struggle_refusals_name_their_rule():
    """V-38: no Area, no mass struggle; V-63: plain Area would hit your own components in the zone; V-25: on your
    turn only."""
    s, ben, main, g0, g1 = area_scene()
    refuses(s, A.StartMassStruggle(player="Ann", actor=main.id), "V-25")
    s2 = play(s, A.PassTurn(player="Ben"))
    refuses(s2, A.StartMassStruggle(player="Cy", actor=comp_of(s, "Cy", "pc").id), "V-38")


def test_V_38_area_hits_the_whole_zone_selective_area_picks_and_own_components_are_not_attacked():
    """V-38, L667-668 ("Area 8: Affect everything in zone, except yourself"; "Selective Area 10: Selectively affect
    things in zone"): with Ben's own gang in his zone, plain Area would attack it (V-63: refused); Selective Area
    picks the villain and one gang among the others there, not a component on the far shore."""
    s, ben, main, g0, g1 = area_scene()
    mine = comp_of(s, "Ben", "normal")
    s.scene.present.append(mine.id)
    assert "your own" in refuses(s, A.StartMassStruggle(player="Ben", actor=ben.id), "V-63")
    s.components[ben.id].abilities[0].effect = "selective_area"
    cy = comp_of(s, "Cy", "pc")
    refuses(s, A.StartMassStruggle(player="Ben", actor=ben.id, targets=[main.id, cy.id]), "V-38")
    s = play(s, A.StartMassStruggle(player="Ben", actor=ben.id, targets=[main.id, g1.id]))
    assert [s.struggle.opponent.component, *(o.component for o in s.struggle.others)] == [main.id, g1.id]


def heuristic_plays(s, seed: int, until):
    """Heuristic seats (and random dice) play from `s` until `until(s)`; the table's dice are conserved and no
    invariant breaks after any action."""
    import random

    from agents.game_loop import GameObservation
    from agents.vele.heuristic import heuristic_seat
    from engine.vele.rules import apply

    rs, rng = get_ruleset("vele"), random.Random(seed)
    seats = {n: heuristic_seat(n, seed=seed, seat_index=i) for i, n in enumerate(SEATS)}
    total, acts = dice_in_play(s), []
    for _ in range(60):
        if until(s):
            break
        pend = rs.pending(s)
        if pend.dice:
            action = rs.dice_action(s, {d.key: [rng.randint(1, d.sides) for _ in range(d.count)] for d in pend.dice})
        else:
            seat = pend.seats[0]
            obs = GameObservation(seat=seat, role="narrator" if seat == s.narrator else "player",
                                  view=rs.view(s, seat), pending=pend, options=rs.legal_options(s, seat))
            action = seats[seat].decide(obs).action
        s, _ = apply(s, action)
        acts.append(action)
        assert dice_in_play(s) == total and rs.invariants(s) == []
    return s, acts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_V_38_heuristic_plays_area_and_dice_are_conserved_for_any_roll(seed):
    """V-38, V-9 (L433-435): the heuristic seat whose component has Area, in a zone with the others' components,
    starts a mass struggle; every seat wagers, the dice fall at random, each beaten defender absorbs its effect;
    after every action the table's dice points are unchanged and every invariant holds."""
    s, ben, *_ = area_scene()
    s, acts = heuristic_plays(s, seed, lambda x: x.struggle is None and x.records)
    assert isinstance(acts[0], A.StartMassStruggle) and acts[0].actor == ben.id
    assert len(s.records) == 3 and {r.actor for r in s.records} == {ben.id}
