"""Groups of story characters in play, through `apply` (engine/vele/group_play.py): V-60, V-AMB-18, V-61's group
cards (L716-737)."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.decisions import legal_options
from engine.vele.rules import apply, dice_in_play, new_game
from tests.vele_helpers import SEATS, build_action, comp_of, play


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def gang(name="The Red Hands", spotlight="", **leader):
    boss = A.ComponentIn(name=leader.pop("leader_name", "Red Mara"), kind="normal", aspects=["Owes the guild"],
                         traits=[A.TraitIn(name="Command", size=8), A.TraitIn(name="Knives", size=6)], **leader)
    cut = A.ComponentIn(name="Cutpurse", kind="minion", traits=[A.TraitIn(name="Quick", size=6)])
    thug = A.ComponentIn(name="Thug", kind="minion", traits=[A.TraitIn(name="Club", size=4)])
    return A.MakeGroup(player="Ann", name=name, leader=boss, members=[cut, thug], spotlight=spotlight)


def bidding_done():
    return play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])


def test_V_60_a_group_is_bought_with_its_own_dice_for_member_traits_only():
    """V-60 (L720-725: "Each group gets allocated 5 dice sets"; "group dice ... can only be used for group member
    traits (not for power or healing)"; up to 4 aspects on a main member and 3 on a normal one): Ann makes a
    group of a leader and two minions: 8 of its 50 points go on their traits, nothing leaves any pool or the
    bowl; an ability, a fifth aspect on a main member and traits past 50 points are refused; one group an act."""
    s = bidding_done()
    assert "make_group" in {o.type for o in legal_options(s, "Ann")}
    powered = gang(ability=A.AbilityIn(trait="Command", effect="power_attack", size=4, dice=[4]))
    assert "power" in refuses(s, powered, "V-60")
    chief = A.ComponentIn(name="Chief", kind="main", aspects=[f"a{i}" for i in range(5)],
                          traits=[A.TraitIn(name="Rule", size=8)])
    refuses(s, A.MakeGroup(player="Ann", name="Court", leader=chief), "V-60")
    huge = [A.ComponentIn(name=f"Giant {i}", kind="normal", traits=[A.TraitIn(name=f"T{j}", size=10) for j in range(4)])
            for i in range(4)]
    refuses(s, A.MakeGroup(player="Ann", name="Horde", leader=huge[0], members=huge[1:]), "V-60")
    before = dice_in_play(s)
    s = play(s, gang())
    g = s.groups[0]
    assert g.owner == "Ann" and g.points_left == 50 - 8 and len(g.members) == 3 and g.leader == g.members[0]
    assert all(s.components[x].group == "The Red Hands" and s.components[x].owner == "Ann" for x in g.members)
    assert dice_in_play(s) == before == s.total_points
    refuses(s, gang("Second"), "V-60")


def test_V_AMB_18_V_60_connections_give_a_d4_story_die_for_each_trait_and_aspect():
    """V-AMB-18, V-60 (L726-727: "once for each other player, you can add a trait and an aspect that are connected
    to your PC and get a d4 story die for each"): after his purchase Ben adds a trait (paid with the group's
    dice) and an aspect to Ann's leader and gets two d4s from the bowl; once only; not to his own group; not
    before his purchase; not once the act's first scene is framed."""
    s = play(bidding_done(), gang())
    leader = s.groups[0].leader
    refuses(s, A.Connect(player="Ben", member=leader, aspect="Saved Ben's life"), "V-60")  # not built yet
    s = play(s, *[build_action(n) for n in s.order])
    assert s.phase == "frame" and "connect" in {o.type for o in legal_options(s, "Ben")}
    refuses(s, A.Connect(player="Ann", member=leader, aspect="mine"), "V-60")
    story, bowl4 = list(s.players["Ben"].story), s.bowl.count(4)
    s = play(s, A.Connect(player="Ben", member=leader, trait=A.TraitIn(name="Knows Ben", size=4),
                          aspect="Saved Ben's life"))
    k = s.components[leader]
    assert k.trait("Knows Ben").size == 4 and "Saved Ben's life" in k.aspects
    assert sorted(s.players["Ben"].story) == sorted(story + [4, 4]) and s.bowl.count(4) == bowl4 - 2
    assert s.groups[0].points_left == 42 - 1 and dice_in_play(s) == s.total_points
    refuses(s, A.Connect(player="Ben", member=leader, aspect="again"), "V-60")
    framed = play(s, A.FrameScene(player="Ann", place="the docks", present=[comp_of(s, "Ben", "pc").id, leader]))
    refuses(framed, A.Connect(player="Cy", member=leader, aspect="late"), "V-FLOW")  # the scene is on


def test_V_60_in_a_scene_without_pcs_the_members_are_handed_out():
    """V-60 (L732-733): "The player who owns the group should keep the leader and hand the rest of the members out
    to other players"; after the scene the group goes back: Ann frames her gang alone; Ben and Cy play the two
    minions (and have turns), Ann keeps Red Mara; at the scene's end they are Ann's again."""
    s = play(bidding_done(), gang())
    s = play(s, *[build_action(n) for n in s.order])
    g = s.groups[0]
    s = play(s, A.FrameScene(player="Ann", place="the hideout", present=list(g.members)))
    players = {s.components[x].name: s.components[x].controller or s.components[x].owner for x in g.members}
    assert players == {"Red Mara": "Ann", "Cutpurse": "Ben", "Thug": "Cy"}
    assert {"Ben", "Cy"} <= set(s.scene.turns)
    s = play(s, A.EndScene(player="Ann"))
    assert all(s.components[x].controller is None for x in g.members)


def test_V_61_the_groups_spotlight_card_is_claimed_like_a_pcs():
    """V-61 (L728: "The owner should make a spotlight for the group"; L737: in the middle of the table): Ann's
    group card lies beside her PC's card; once Ann has passed the narration, she claims the group card under the
    new narrator: 5 XP to her, 3 to the narrator (L736); her PC's card stays open."""
    s = play(bidding_done(), gang(spotlight="the Red Hands turn on Mara"))
    s = play(s, *[build_action(n, spotlight=f"{n}'s hero faces the past") for n in s.order])
    cards = [(x.maker, x.kind) for x in s.spotlights]
    assert ("Ann", "group") in cards and ("Ann", "pc") in cards and all(not x.holder for x in s.spotlights)
    s = play(s, A.PassNarration(player="Ann"))
    narrator = s.narrator
    assert narrator != "Ann"
    xp = {n: p.xp for n, p in s.players.items()}
    s = play(s, A.ClaimSpotlight(player="Ann", maker="Ann", kind="group", text="Mara fell"),
             *[A.CastVote(player=n, oppose=False) for n in SEATS if n != "Ann"])
    card = next(x for x in s.spotlights if x.kind == "group")
    assert card.done and card.holder == narrator
    assert s.players["Ann"].xp - xp["Ann"] == 5 and s.players[narrator].xp - xp[narrator] == 3
    assert not next(x for x in s.spotlights if x.maker == "Ann" and x.kind == "pc").done
