"""A unit pooling its members' traits in its own struggle (V-45; L683, the revised rule for integrated components:
"Attached components function as a single component during struggles"; L686 "Unattached components can still be
allies"; the main text's L421/L423 it revises), through `apply`: the stakes, who pays (each member's own pool),
the d4 rule across the unit (V-19), the refusals, the options, the heuristic, and the dice kept on the table."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.ruleset import get_ruleset
from engine.vele import actions as A
from engine.vele.decisions import legal_options
from engine.vele.rules import dice_in_play
from tests.vele_helpers import area_scene, built, comp_of, play, refuses, roll_by


def unit_scene(attach: bool = True):
    """Ben's first gang (a story component: story dice) is attached to his PC (character dice) for 1 XP of fate, so
    his turn goes on (L685); `attach` off: only integrated. Ann's villain faces them, Cy's PC stands by."""
    s = built()
    ben, gang, cy, villain = (comp_of(s, "Ben", "pc"), comp_of(s, "Ben", "normal"), comp_of(s, "Cy", "pc"),
                              comp_of(s, "Ann", "main"))
    s = play(s, A.FrameScene(player="Ann", place="the ford", text="Rain.", present=[ben.id, gang.id, cy.id, villain.id]))
    assert s.scene.turns[s.scene.turn] == "Ben"
    s = play(s, A.SetMode(player="Ben", component=gang.id, unit=ben.id, attach=attach, fate=attach,
                          text="the gang rides at his back"))
    assert s.components[gang.id].attached == attach and s.scene.turns[s.scene.turn] == "Ben"
    return s, ben, gang, cy, villain


def test_V_45_a_unit_pools_its_members_traits_and_each_member_pays_from_its_own_pool():
    """V-45 (L683: "Attached components function as a single component during struggles"): Ben's gang, attached
    to his PC, attacks Ann's villain with its Numbers (a d6 from Ben's story dice) and his PC's Blade (a d8 from his character dice), the
    PC's Power Attack paying a d6 from the PC's sheet (V-24). Ben rolls 5 and 7 against 2: he wins. The gang's d6
    comes back to the story dice with Ann's d8 (the lowest winning die, V-AMB-9), the PC's d8 to the character
    dice it came from (digest rule 10: "the winners' dice go back where they came from"). Every die stays on the
    table (V-9)."""
    s, ben, gang, cy, villain = unit_scene()
    total = dice_in_play(s)
    p = s.players["Ben"]
    story, character = list(p.story), list(p.character)
    s = play(s, A.StartStruggle(player="Ben", actor=gang.id, target=villain.id, goal="attack"),
             A.StateDifficulty(player="Ann", value=0))
    opts = [o for o in legal_options(s, "Ben") if o.type == "wager"]
    assert opts and "V-45" in opts[0].note and ben.name in opts[0].note
    s, events = get_ruleset("vele").apply(s, A.Wager(player="Ben", power=[6], stakes=[
        A.StakeIn(trait="Numbers", die=6, source="own"), A.StakeIn(trait="Blade", die=8, source="own", member=ben.id)]))
    assert [(x.trait, x.die, x.component) for x in s.struggle.actor.stakes] == [("Numbers", 6, ""), ("Blade", 8, ben.id)]
    assert sorted(story) == sorted(s.players["Ben"].story + [6])  # the gang's die: story dice
    assert sorted(character) == sorted(s.players["Ben"].character + [8])  # the PC's die: character dice
    assert s.components[ben.id].allocated == [] and dice_in_play(s) == total
    assert f"{ben.name}'s Blade" in events[-1].text
    s = play(s, A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8, source="own")]),
             A.RollDice(faces={"actor:0": [5], "actor:1": [7], "actor_power:0": [3], "opponent:0": [2]}))
    assert s.struggle.winner == "actor" and s.struggle.effect == 7 - 2 + 3
    assert sorted(s.players["Ben"].story) == sorted(story + [8])  # its d6 back, with Ann's d8
    assert sorted(s.players["Ben"].character) == sorted(character)  # the PC's d8 back where it came from
    assert dice_in_play(s) == total and get_ruleset("vele").invariants(s) == []


def test_V_45_V_19_the_d4_rule_holds_across_the_unit_and_only_members_pool():
    """V-45, V-19 (L181: with an applicable d4 trait "a component may not use higher valued traits"; L683: attached
    components "function as a single component during struggles"): this table reads a unit as one component, so
    the gang's d4 Menace bars the PC's d8 Blade. A component not attached to the actor cannot pool: Cy's PC, nor
    the gang while only integrated (L686: "Unattached components can still be allies"); a called ally pushes its
    own traits only."""
    s, ben, gang, cy, villain = unit_scene()
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack"),
             A.StateDifficulty(player="Ann", value=0))
    blade = A.StakeIn(trait="Blade", die=8, source="own")
    msg = refuses(s, A.Wager(player="Ben", stakes=[blade, A.StakeIn(trait="Menace", die=4, member=gang.id)]), "V-19")
    assert "across its members" in msg
    msg = refuses(s, A.Wager(player="Ben", stakes=[blade, A.StakeIn(trait="Wits", die=6, member=cy.id)]), "V-45")
    assert "not attached" in msg
    refuses(s, A.Wager(player="Ben", stakes=[blade, A.StakeIn(trait="Numbers", die=6, member=gang.id)],
                       allies=[gang.id]), "V-45")
    refuses(s, A.Wager(player="Ben", stakes=[blade, A.StakeIn(trait="Numbers", die=6, member=gang.id),
                                             A.StakeIn(trait="Numbers", die=4, member=gang.id)]), "V-27")
    called = play(s, A.Wager(player="Ben", stakes=[blade], allies=[cy.id]))
    msg = refuses(called, A.JoinAlly(player="Cy", component=cy.id, stakes=[
        A.StakeIn(trait="Numbers", die=6, source="bowl", member=gang.id)]), "V-45")
    assert "own traits" in msg
    apart = play(unit_scene(attach=False)[0], A.StartStruggle(player="Ben", actor=ben.id, target=villain.id,
                                                              goal="attack"), A.StateDifficulty(player="Ann", value=0))
    msg = refuses(apart, A.Wager(player="Ben", stakes=[blade, A.StakeIn(trait="Numbers", die=6, member=gang.id)]),
                  "V-45")
    assert "not attached" in msg and "ally" in msg
    assert "V-45" not in [o for o in legal_options(apart, "Ben") if o.type == "wager"][0].note
    ok = play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Sneak", die=4),
                                              A.StakeIn(trait="Menace", die=4, source="bowl", member=gang.id)]))
    assert ok.struggle.stage == "wager_opponent"  # d4s alone, across the unit, are fine


def test_V_45_V_17_only_one_member_of_a_unit_has_a_focus_trait():
    """V-17, V-45 (L191: "Only one component in a group of integrated components can have a focus trait"): Ben's
    PC has its focus trait Blade, so a gang with a focus trait of its own may not integrate with it (one
    background a unit); without one it may."""
    s = built()
    ben, gang, villain = comp_of(s, "Ben", "pc"), comp_of(s, "Ben", "normal"), comp_of(s, "Ann", "main")
    s = play(s, A.FrameScene(player="Ann", place="the ford", text="Rain.", present=[ben.id, gang.id, villain.id]))
    s.components[gang.id].traits[0].focus = True  # a gang bought with a focus trait ("Numbers" as its background)
    msg = refuses(s, A.SetMode(player="Ben", component=gang.id, unit=ben.id), "V-17")
    assert ben.name in msg and gang.name in msg
    s.components[gang.id].traits[0].focus = False
    assert play(s, A.SetMode(player="Ben", component=gang.id, unit=ben.id)).components[gang.id].unit == ben.id


def test_V_45_V_38_an_attached_unit_pools_in_a_mass_struggle_too():
    """V-45, V-38 (L433: "Mass struggles affect integrated components separately, if they are not attached"): Ben's
    gang is attached to his Area PC, so the Area does not hit it and it pushes its Numbers with him (a d6 of Ben's
    story dice; the Area die still goes on the PC's own Grit). Ben's 9 beats all three of Ann's: his d10 goes back
    to his character dice with the three dice won, the gang's d6 to his story dice. This is the flow of rules
    version 3 (an old log's); from version 4 the gang's d6 brings the lowest winning die left with it (L398:
    test_vele_rules_v4)."""
    s, ben, main, g0, g1 = area_scene()
    s.rules_version = 3
    gang = comp_of(s, "Ben", "normal")
    s.scene.present.append(gang.id)  # in the bank's zone, with Ben
    s.players["Ben"].xp = 2
    s = play(s, A.SetMode(player="Ben", component=gang.id, unit=ben.id, attach=True, fate=True),
             A.StartMassStruggle(player="Ben", actor=ben.id), A.StateDifficulty(player="Ann", value=0))
    k = s.struggle
    assert {k.opponent.component, *(o.component for o in k.others)} == {main.id, g0.id, g1.id}  # not the gang
    total, story, character = dice_in_play(s), list(s.players["Ben"].story), list(s.players["Ben"].character)
    numbers = A.StakeIn(trait="Numbers", die=6, member=gang.id)
    assert "Area" in refuses(s, A.Wager(player="Ben", stakes=[numbers]), "V-38")
    s = play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10), numbers]))
    for trait, die in (("Ruthless", 8), ("Numbers", 6), ("Menace", 4)):
        s = play(s, A.Wager(player="Ann", stakes=[A.StakeIn(trait=trait, die=die)]))
    assert dice_in_play(s) == total
    s = play(s, roll_by(s, {ben.id: [9, 1], main.id: [2], g0.id: [3], g1.id: [1]}))
    assert dice_in_play(s) == total and get_ruleset("vele").invariants(s) == []
    assert sorted(s.players["Ben"].story) == sorted(story)  # the gang's d6 went out and came back
    assert sorted(s.players["Ben"].character) == sorted(character + [8, 6, 4])  # his d10 back, and the winnings


def test_V_45_the_heuristic_attaches_its_guard_on_its_turn():
    """V-45 (L683, L685: attaching "takes at least one struggle"): an AI seat whose component is integrated with
    another of its own but not attached attaches it on its turn (the turn is spent), once a scene."""
    from tests.test_vele_out_of_turn import table_at
    s, ben, gang, cy, villain = unit_scene(attach=False)
    table = table_at(s)
    acted, _ = table.step()
    rec = table.records[-1]
    assert acted and rec.action["type"] == "set_mode" and rec.action["attach"] and rec.action["component"] == gang.id
    assert table.state.components[gang.id].attached and table.state.scene.turns[table.state.scene.turn] != "Ben"


def test_V_45_the_heuristic_pools_a_members_best_trait_when_its_unit_fights():
    """V-45 (L683): an AI seat whose component fights attached to another of its own pushes a die on the best trait
    of that member too (a bowl die when one fits: losing it costs nothing, L383), and says so."""
    from tests.test_vele_out_of_turn import table_at
    s, ben, gang, cy, villain = unit_scene()
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack"),
             A.StateDifficulty(player="Ann", value=0))
    table = table_at(s)
    acted, _ = table.step()
    rec = table.records[-1]
    assert acted and rec.action["type"] == "wager" and rec.action["player"] == "Ben"
    member = [x for x in rec.action["stakes"] if x.get("member")]
    assert member and member[0]["member"] == gang.id and member[0]["trait"] == "Numbers"
    assert "V-45" in rec.meta["rationale"]
    plain = [x for x in rec.action["stakes"] if not x.get("member")]
    assert plain and all("member" not in x for x in plain)  # a stake on its own trait is written as before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(own=st.lists(st.booleans(), min_size=2, max_size=2), faces=st.lists(st.integers(1, 12), min_size=4, max_size=4), h2h=st.booleans(), pc_acts=st.booleans())
def test_V_45_V_9_dice_are_conserved_whatever_a_pooling_unit_rolls(own, faces, h2h, pc_acts):
    """V-45, V-9 (L489): with a unit pooling a PC's and a story component's traits (each die from its own pool or
    the bowl), as attacker or in a head-to-head race, win, lose or tie: every die stays on the table after every
    action and no invariant breaks."""
    rs = get_ruleset("vele")
    s, ben, gang, cy, villain = unit_scene()
    total = dice_in_play(s)
    actor, member = (ben, gang) if pc_acts else (gang, ben)
    goal = "maneuver" if h2h else "attack"
    s = play(s, A.StartStruggle(player="Ben", actor=actor.id, target=villain.id, goal=goal, head_to_head=h2h))
    s = play(s, A.StateDifficulty(player="Ann", value=0))
    mine = A.StakeIn(trait="Blade" if pc_acts else "Numbers", die=6, source="own" if own[0] else "bowl")
    theirs = A.StakeIn(trait="Numbers" if pc_acts else "Blade", die=6, source="own" if own[1] else "bowl",
                       member=member.id)
    ann = A.StakeIn(trait="Ruthless", die=8, source="own")
    for _ in range(2):  # head-to-head: the lower initiative pushes first (V-AMB-6)
        if s.struggle.stage == "wager_actor":
            s = play(s, A.Wager(player="Ben", stakes=[mine, theirs]))
        elif s.struggle.stage == "wager_opponent":
            s = play(s, A.Wager(player="Ann", stakes=[ann]))
        assert dice_in_play(s) == total
    f = [min(faces[0], 6), min(faces[1], 6), min(faces[2], 8)]
    s = play(s, A.RollDice(faces={"actor:0": [f[0]], "actor:1": [f[1]], "opponent:0": [f[2]]}))
    assert dice_in_play(s) == total and rs.invariants(s) == []
    if s.struggle is not None and s.struggle.stage == "damage":
        from engine.vele.struggle import auto_damage
        oc = s.components[s.struggle.opponent.component]
        s = play(s, A.TakeDamage(player="Ann", traits=auto_damage(s.struggle.effect, oc.healthy(), None)))
    assert dice_in_play(s) == total and rs.invariants(s) == []


def test_V_45_V_38_an_attached_unit_beaten_in_a_mass_struggle_absorbs_as_one():
    """V-45, V-38 (L433: integrated components are hit separately "if they are not attached"; L427: the first
    trait lost is the targeted component's): Ann's second gang is attached to her villain, so Ben's Area meets the
    villain and her first gang only. The villain, beaten for 4, loses its Cunning, then the attached gang's Menace
    takes the rest; the first gang, not attached, takes none of the villain's effect."""
    s, ben, main, g0, g1 = area_scene()
    s.components[g1.id].unit, s.components[g1.id].attached = main.id, True  # attached at an earlier turn
    s = play(s, A.StartMassStruggle(player="Ben", actor=ben.id), A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8), A.StakeIn(trait="Numbers", die=6,
                                                                                         source="bowl", member=g1.id)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6)]))
    s = play(s, roll_by(s, {ben.id: [7], main.id: [3, 2], g0.id: [6]}))
    assert s.struggle.stage == "damage" and s.struggle.opponent.component == main.id and s.struggle.effect == 4
    refuses(s, A.TakeDamage(player="Ann", traits=["Cunning"], unit={g0.id: ["Menace"]}), "V-38")
    s = play(s, A.TakeDamage(player="Ann", traits=["Cunning"], unit={g1.id: ["Menace", "Numbers"]}))
    assert not s.components[main.id].trait("Cunning").healthy and s.components[main.id].trait("Ruthless").healthy
    assert not s.components[g1.id].healthy() and s.components[g0.id].trait("Menace").healthy


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faces=st.lists(st.integers(1, 4), min_size=5, max_size=5), own=st.booleans(), defend=st.booleans())
def test_V_45_V_38_V_9_dice_are_conserved_when_an_attached_unit_pools_in_a_mass_struggle(faces, own, defend):
    """V-45, V-38, V-9 (L433, L435): an attached unit pooling as the Area actor, and (`defend`) Ann's villain with its
    gang attached pooling as a defender, own or bowl dice, whoever wins: after every action every die is on the
    table and no invariant breaks; each beaten defender absorbs its effect."""
    from engine.vele.struggle import auto_damage
    rs = get_ruleset("vele")
    s, ben, main, g0, g1 = area_scene()
    gang = comp_of(s, "Ben", "normal")
    s.scene.present.append(gang.id)
    s.players["Ben"].xp = 2
    s = play(s, A.SetMode(player="Ben", component=gang.id, unit=ben.id, attach=True, fate=True))
    if defend:
        s.components[g1.id].unit, s.components[g1.id].attached = main.id, True
    total = dice_in_play(s)
    s = play(s, A.StartMassStruggle(player="Ben", actor=ben.id), A.StateDifficulty(player="Ann", value=0))
    src = "own" if own else "bowl"
    s = play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10),
                                              A.StakeIn(trait="Numbers", die=6, source=src, member=gang.id)]))
    while s.struggle.stage == "wager_opponent":
        cid = s.struggle.opponent.component
        die = {main.id: 8, g0.id: 6, g1.id: 4}[cid]  # Ann's story dice are a d10, d8, d6 and d4
        stakes = [A.StakeIn(trait=s.components[cid].traits[0].name, die=die, source=src)]
        if defend and cid == main.id:
            stakes.append(A.StakeIn(trait="Numbers", die=6, source="bowl", member=g1.id))
        s = play(s, A.Wager(player="Ann", stakes=stakes))
        assert dice_in_play(s) == total
    by = {ben.id: [faces[0] * 2, faces[1]], main.id: [faces[2]] + ([faces[3]] if defend else []),
          g0.id: [faces[4]], g1.id: [faces[3]]}
    s = play(s, roll_by(s, {side.component: by[side.component] for side in (s.struggle.actor, s.struggle.opponent,
                                                                           *s.struggle.others)}))
    assert dice_in_play(s) == total and rs.invariants(s) == []
    while s.struggle is not None and s.struggle.stage == "damage":
        oc = s.components[s.struggle.opponent.component]
        s = play(s, A.TakeDamage(player="Ann", traits=auto_damage(s.struggle.effect, oc.healthy(), None)))
        assert dice_in_play(s) == total and rs.invariants(s) == []
