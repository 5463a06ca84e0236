"""Components made during an act, through `apply` (engine/vele/making.py): "The Thing You Need" (V-62; L213, L221)
and one-shots (V-21; L205)."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.decisions import legal_options
from engine.vele.rules import apply, dice_in_play
from tests.vele_helpers import comp_of, in_scene, play


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def powder(name="Flash powder", one_shot=True, size=8):
    return A.ComponentIn(name=name, kind="normal", one_shot=one_shot,
                         traits=[A.TraitIn(name="Blinding flash", size=size)])


def test_V_62_V_15_the_thing_you_need_is_made_on_your_turn_paid_from_story_dice():
    """V-62 (L213: any player may create just what they need "without worrying (too much) about being
    challenged"), V-15 (L181: "a die of the same size as the trait"), V-9: on Ben's turn he makes flash powder (a
    d8 trait), paying his d8 story die into the bowl; it is in the scene at once and no die is lost. A d6 and a
    d4 (3 points too) do not pay for a d8 trait (V-15); on his turn only (V-25); mid-act a normal component (V-62)."""
    s = in_scene()
    assert "make_component" in {o.type for o in legal_options(s, "Ben")}
    refuses(s, A.MakeComponent(player="Ben", component=powder(), paid=[6, 4]), "V-15")
    refuses(s, A.MakeComponent(player="Cy", component=powder(), paid=[8]), "V-25")
    main = A.ComponentIn(name="Big", kind="main", traits=[A.TraitIn(name="Huge", size=4)])
    refuses(s, A.MakeComponent(player="Ben", component=main, paid=[4]), "V-62")
    before = dice_in_play(s)
    story, bowl8 = list(s.players["Ben"].story), s.bowl.count(8)
    s = play(s, A.MakeComponent(player="Ben", component=powder(), paid=[8]))
    k = next(c for c in s.components.values() if c.name == "Flash powder")
    assert k.owner == "Ben" and k.one_shot and not k.used and k.id in s.scene.present
    assert sorted(s.players["Ben"].story + [8]) == sorted(story) and s.bowl.count(8) == bowl8 + 1
    assert dice_in_play(s) == before == s.total_points
    assert s.made == {"Ben@1": 1} and s.phase == "scene" and s.scene.turns[s.scene.turn] == "Ben"


def test_V_21_a_one_shot_works_once():
    """V-21 (L205: "the component is only usable once"): Ben's flash powder attacks Ann's villain; once that
    exchange is rolled it is spent, and next round it may not act again."""
    s = play(in_scene(), A.MakeComponent(player="Ben", component=powder(), paid=[8]))
    shot = next(c for c in s.components.values() if c.name == "Flash powder")
    villain = comp_of(s, "Ann", "main")
    s = play(s, A.StartStruggle(player="Ben", actor=shot.id, target=villain.id, goal="attack", text="a blinding flash"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blinding flash", die=6)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
             A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}))
    assert s.components[shot.id].used
    s = play(s, A.PassTurn(player="Cy"), A.PassTurn(player="Ann"), A.NextRound(player="Ann"))
    assert s.scene.turns[s.scene.turn] == "Ben"
    msg = refuses(s, A.StartStruggle(player="Ben", actor=shot.id, target=villain.id, goal="attack"), "V-21")
    assert "once" in msg


def test_V_62_a_second_thing_this_act_needs_support_or_the_table_votes():
    """V-62 (L221): making a second thing in the act "without a capability/technique combination of traits"
    should be challenged: the table votes (everyone but Ben); a majority stops it and nothing is paid. Backed by
    two healthy traits of Ben's PC in the scene, it is made at once."""
    s = play(in_scene(), A.MakeComponent(player="Ben", component=powder(), paid=[8]))
    story = list(s.players["Ben"].story)
    v = play(s, A.MakeComponent(player="Ben", component=powder("Smoke", one_shot=False, size=6), paid=[6]))
    assert v.phase == "vote" and v.vote.voters == ["Ann", "Cy", "Dee"] and v.vote.claim["what"] == "make"
    stopped = play(v, *[A.CastVote(player=n, oppose=o) for n, o in (("Ann", True), ("Cy", True), ("Dee", False))])
    assert stopped.phase == "scene" and stopped.players["Ben"].story == story
    assert not any(c.name == "Smoke" for c in stopped.components.values())
    let = play(v, *[A.CastVote(player=n, oppose=o) for n, o in (("Ann", True), ("Cy", False), ("Dee", False))])
    assert any(c.name == "Smoke" for c in let.components.values()) and let.made == {"Ben@1": 2}
    backed = play(s, A.MakeComponent(player="Ben", component=powder("Rope", one_shot=False, size=4), paid=[4],
                                     supported_by=["Blade", "Sneak"]))
    assert backed.phase == "scene" and any(c.name == "Rope" for c in backed.components.values())
    assert dice_in_play(backed) == backed.total_points


def test_V_21_a_one_shot_does_not_absorb_damage_as_a_defending_ally():
    """V-21 (L205: one-shots "can't absorb damage for" another component): Ann's villain attacks Ben's PC on
    Ann's turn; Ben may not call his flash powder as an ally (defending allies take damage first, V-35)."""
    s = play(in_scene(), A.MakeComponent(player="Ben", component=powder(), paid=[8]))
    shot = next(c for c in s.components.values() if c.name == "Flash powder")
    ben, villain = comp_of(s, "Ben", "pc"), comp_of(s, "Ann", "main")
    s = play(s, A.PassTurn(player="Ben"), A.PassTurn(player="Cy"),
             A.StartStruggle(player="Ann", actor=villain.id, target=ben.id, goal="attack", text="the villain strikes"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]))
    msg = refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")], allies=[shot.id]),
                  "V-21")
    assert "absorb" in msg


def test_V_22_the_narrator_makes_a_temporary_component_that_wagers_bowl_dice_only():
    """V-22 (L187: "Narrators can create temporary components from bowl dice, but may only use bowl dice with them
    in struggles"; L523): Ann, narrating, makes a temporary rockslide rated by dice the bowl holds (no die moves);
    it strikes Ben's PC on Ann's turn; her own story dice are refused for it, bowl dice accepted; it is gone when
    the scene ends. Only the narrator makes one; a thing made with no traits gets a bowl d6 as its default trait.
    """
    s = play(in_scene(), A.PassTurn(player="Ben"), A.PassTurn(player="Cy"))
    refuses(s, A.MakeTemporary(player="Ben", name="Rocks", traits=[A.TraitIn(name="Crushing", size=8)]), "V-52")
    default = play(s, A.MakeTemporary(player="Ann", name="The curtains"))  # L523: a bowl d6 as its default trait
    assert [(t.name, t.size) for t in next(c for c in default.components.values() if c.name == "The curtains").traits] \
        == [("Default", 6)]
    before, bowl = dice_in_play(s), sorted(s.bowl)
    s = play(s, A.MakeTemporary(player="Ann", name="Rockslide", traits=[A.TraitIn(name="Crushing", size=8)],
                                text="the slope gives way"))
    rock = next(c for c in s.components.values() if c.name == "Rockslide")
    assert rock.temporary and rock.id in s.scene.present and sorted(s.bowl) == bowl and dice_in_play(s) == before
    s = play(s, A.StartStruggle(player="Ann", actor=rock.id, target=comp_of(s, "Ben", "pc").id, goal="attack"),
             A.StateDifficulty(player="Ann", value=0))
    msg = refuses(s, A.Wager(player="Ann", stakes=[A.StakeIn(trait="Crushing", die=8)]), "V-22")
    assert "bowl dice only" in msg
    s = play(s, A.Wager(player="Ann", stakes=[A.StakeIn(trait="Crushing", die=8, source="bowl")]),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}))
    assert dice_in_play(s) == s.total_points
    s = play(s, A.EndScene(player="Ann"))
    assert rock.id not in s.components


def test_V_22_a_virtual_component_has_no_mechanics():
    """V-22 (L249: virtual components "without mechanical effects"): Ann narrates a pizza delivery guy as a
    virtual component: no traits, and no struggle is made with or against it."""
    s = in_scene()
    refuses(s, A.MakeTemporary(player="Ann", name="Pizza guy", virtual=True,
                               traits=[A.TraitIn(name="Speed", size=4)]), "V-22")
    s = play(s, A.MakeTemporary(player="Ann", name="Pizza guy", virtual=True))
    guy = next(c for c in s.components.values() if c.name == "Pizza guy")
    assert guy.virtual and not guy.traits and guy.id in s.scene.present
    msg = refuses(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Ben", "pc").id, target=guy.id, goal="attack"),
                  "V-22")
    assert "no mechanics" in msg
