"""Death of the Vele at the table: the engine's state machine with fixed actions and dice. Each test
names its rule (V-n, V-EX-n, V-AMB-n, shared/rules/vele.md) and the book's line."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele import economy as E
from engine.vele.rules import apply, dice_in_play, new_game
from tests.vele_helpers import SEATS, build_action, built, comp_of, in_scene, pc, play, roll, story


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


# --- setup ----------------------------------------------------------------------------------------
def test_V_57_V_AMB_15_bids_set_initiative_and_cost_xp():
    """V-57, V-AMB-15 (L845, L895): +6 XP, a secret d6 bid each; highest first; ties roll off; all pay."""
    s = new_game(SEATS)
    s = play(s, A.Bid(player="Ann", bid=5), A.Bid(player="Ben", bid=3), A.Bid(player="Cy", bid=3))
    assert s.phase == "bid"
    s = play(s, A.Bid(player="Dee", bid=1))
    assert s.phase == "rolloff"
    s = play(s, roll(**{"rolloff:Ben": 2, "rolloff:Cy": 6}))
    assert s.order == ["Ann", "Cy", "Ben", "Dee"]
    assert {n: p.xp for n, p in s.players.items()} == {"Ann": 1, "Ben": 3, "Cy": 3, "Dee": 5}
    refuses(new_game(SEATS), {"type": "bid", "player": "Ann", "bid": 7}, "V-INPUT")


def test_V_58_acts_default_to_one_per_player():
    """V-58 (L849-879, @105516): one act per player by default, a table setting."""
    assert new_game(SEATS).acts == 4
    assert new_game(SEATS, {"acts": 2}).acts == 2


def test_V_10_V_AMB_1_purchase_from_30_points_and_xp():
    """V-10, V-AMB-1 (L557, L716, @95655): 30 character and 30 story points; XP may add points 1:1."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    over = build_action("Ann", character_dice=[10, 10, 10, 10])  # 14 + 16 = 30: fine
    play(s, over)
    refuses(s, build_action("Ann", character_dice=[10, 10, 10, 10, 4]), "V-10")
    s.players["Ann"].xp = 3
    s2 = play(s, build_action("Ann", character_dice=[10, 10, 10, 10, 4], xp_spent=1))
    assert s2.players["Ann"].xp == 2
    refuses(s, build_action("Ann", xp_spent=9), "V-AMB-1")


def test_V_10_no_d12_at_act_start():
    """V-10, V-AMB-2 (@86524): no d12s at the start of an act, so no d12 dice and no d12 trait yet."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    refuses(s, build_action("Ann", character_dice=[12]), "V-10")
    hero = pc()
    hero.traits[3].size = 12
    refuses(s, build_action("Ann", pc=hero), "V-10")


def test_V_AMB_2_traits_run_d4_to_d12():
    """V-AMB-2 (L155, L181): a d20 trait is refused."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    hero = pc()
    hero.traits[3].size = 20
    refuses(s, build_action("Ann", pc=hero), "V-AMB-2")


def test_V_14_V_AMB_3_V_EX_10_slots_and_aspect_caps():
    """V-14, V-AMB-3, V-EX-10 (L185, L572, @96509): a level-1 PC has 6 traits and 5 aspects; a normal
    component 4 traits and 3 aspects; a main 4 aspects; a minion 1 trait and none."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    play(s, build_action("Ann", pc=pc(aspects=5)))
    refuses(s, build_action("Ann", pc=pc(aspects=6)), "V-14")
    st = story("Ann")
    st[1].aspects = ["a", "b", "c", "d"]
    refuses(s, build_action("Ann", story=st), "V-14")
    st = story("Ann")
    st[0].aspects = ["a", "b", "c", "d", "e"]
    refuses(s, build_action("Ann", story=st), "V-14")
    st = story("Ann") + [A.ComponentIn(name="rat", kind="minion", traits=[A.TraitIn(name="Bite", size=4)], aspects=["x"])]
    refuses(s, build_action("Ann", story=st), "V-14")
    hero = pc()
    hero.traits += [A.TraitIn(name=f"t{i}", size=4) for i in range(3)]
    refuses(s, build_action("Ann", pc=hero), "V-14")


def test_V_16_V_EX_10_minion_bargain():
    """V-16, V-EX-10 (L187-189): buying a d10 minion adds a second minion with one d8 trait."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    st = story("Ann") + [A.ComponentIn(name="hound", kind="minion", traits=[A.TraitIn(name="Bite", size=10)])]
    s = play(s, build_action("Ann", story=st, story_dice=[4]))
    minions = [c for c in s.components.values() if c.kind == "minion"]
    assert sorted(m.traits[0].size for m in minions) == [8, 10]
    assert all(not m.aspects for m in minions)


def test_V_17_one_focus_trait():
    """V-17 (L191): at most one focus trait per component."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    hero = pc()
    hero.traits[1].focus = True
    refuses(s, build_action("Ann", pc=hero), "V-17")


def test_V_18_pc_needs_d4_d6_d8():
    """V-18 (L645): a PC needs a d4, a d6 and a d8 trait."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    hero = pc()
    hero.traits[2].size = 6
    refuses(s, build_action("Ann", pc=hero), "V-18")


def test_V_23_story_components_per_act():
    """V-23 (L185, @31014): each player makes one main and at least 3 normal story components per act."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    refuses(s, build_action("Ann", story=story("Ann")[:3]), "V-23")


def test_V_15_V_24_V_AMB_17_purchase_costs_dice_points():
    """V-15, V-24, V-AMB-17 (L181, L675, L756-758): each trait costs a die of its size, an ability the
    points of its dN plus its allocated dice; an ability larger than its trait is refused."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    before = E.points(s.bowl)
    s2 = play(s, build_action("Ann"))
    hero = comp_of(s2, "Ann", "pc")
    assert hero.allocated == [6] and hero.original_allocated == 2
    # what left the bowl: the pools (10 + 10) and the allocated dice (2 + 2); traits and abilities were spent
    assert before - E.points(s2.bowl) == 10 + 10 + 2 + 2
    bad = pc()
    bad.ability.size = 10
    refuses(s, build_action("Ann", pc=bad), "V-24")


def test_V_9_the_bowl_is_finite():
    """V-9 (@49637): the bowl holds the table's dice that nobody holds; a purchase it cannot supply is
    refused, unless the table plays with an unlimited bowl."""
    s = play(new_game(SEATS, {"bowl_sets": 8}), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    s.bowl = [d for d in s.bowl if d != 10]
    refuses(s, build_action("Ann"), "V-9")
    s = play(new_game(SEATS, {"unlimited_bowl": True}), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    s.bowl = []
    play(s, build_action("Ann"))


def test_V_59_every_player_buys_before_the_first_scene():
    """V-59 (L883-889): the act's purchase comes before scenes; the narrator frames only after it."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    assert s.phase == "build"
    refuses(s, A.FrameScene(player="Ann", place="x", present=[]), "V-FLOW")
    assert built().phase == "frame"


# --- scenes ----------------------------------------------------------------------------------------
def test_V_52_only_the_narrator_frames():
    """V-52 (L293): the narrator states time, place and who is present."""
    s = built()
    assert s.narrator == "Ann"
    refuses(s, A.FrameScene(player="Ben", place="x", present=[]), "V-52")


def test_V_52_V_EX_8_exclusion_with_no_pc_dice():
    """V-52, V-EX-8 (L296): an owner without PC dice rolls 0 against the narrator's story die; the
    narrator wins, the component stays out and the owner gets the die."""
    s = built()
    s.bowl += s.players["Ben"].character  # Ben has spent his PC dice (they went to the bowl)
    s.players["Ben"].character = []
    ben = comp_of(s, "Ben", "pc").id
    s = play(s, A.FrameScene(player="Ann", place="x", present=[ben, comp_of(s, "Ann", "main").id],
                             exclude=A.ExcludeIn(component=ben, die=4)))
    s = play(s, A.AnswerExclusion(player="Ben", accept=False))
    assert [d.key for d in __import__("engine.vele.decisions", fromlist=["pending"]).pending(s).dice] == ["narrator"]
    s = play(s, A.RollDice(faces={"narrator": [1]}))
    assert ben not in s.scene.present and s.players["Ben"].character == [4]
    assert dice_in_play(s) == s.total_points


def test_V_AMB_16_exclusion_tie_goes_to_the_owner():
    """V-AMB-16 (L296): a tie goes to the defending owner; the loser (narrator) gets both dice."""
    s = built()
    ben = comp_of(s, "Ben", "pc").id
    s = play(s, A.FrameScene(player="Ann", place="x", present=[ben], exclude=A.ExcludeIn(component=ben, die=8)),
             A.AnswerExclusion(player="Ben", accept=False, die=6), A.RollDice(faces={"narrator": [5], "owner": [5]}))
    assert ben in s.scene.present
    assert sorted(s.players["Ann"].story) == [4, 6, 6, 8, 10] and 6 not in s.players["Ben"].character


def test_V_42_turns_follow_initiative_and_V_25_only_on_your_turn():
    """V-42, V-25, V-33 (L342, L445, @67758): players act in initiative order; a struggle starts only on
    your turn."""
    s = in_scene()
    assert s.scene.turns == ["Ben", "Cy", "Ann"]
    refuses(s, A.StartStruggle(player="Cy", actor=comp_of(s, "Cy", "pc").id, target=comp_of(s, "Ann", "main").id,
                               goal="attack"), "V-25")


def test_V_53_V_63_components_are_their_players():
    """V-53, V-63 (L249, @35863): you play only your own components, and yours never fight each other."""
    s = in_scene()
    refuses(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Cy", "pc").id, target=comp_of(s, "Ann", "main").id,
                               goal="attack"), "V-53")
    s = play(s, A.PassTurn(player="Ben"), A.PassTurn(player="Cy"))
    refuses(s, A.StartStruggle(player="Ann", actor=comp_of(s, "Ann", "main").id,
                               target=comp_of(s, "Ann", "normal").id, goal="attack"), "V-63")


# --- struggles -------------------------------------------------------------------------------------
def attack(s, target_trait=None, extended=False, goal="attack"):
    return play(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Ben", "pc").id, target=comp_of(s, "Ann", "main").id,
                                   goal=goal, target_trait=target_trait, extended=extended, text="Ben strikes"))


def test_V_27_V_AMB_5_V_EX_21_difficulty_before_traits():
    """V-27 step 4, V-AMB-5, V-EX-21 (L370-375, @56540): the narrator states a difficulty before traits are
    chosen (-2 approved); targeting a d6 trait adds -2; once dice are pushed, none may be added."""
    s = attack(in_scene(), target_trait="Connected")
    assert s.struggle.actor.difficulty == 2
    s = play(s, A.StateDifficulty(player="Ann", value=2, reason="mud"))
    assert s.struggle.actor.difficulty == 4
    refuses(s, A.StateDifficulty(player="Ann", value=1), "V-AMB-5")


def test_V_27_wager_rules():
    """V-27 step 3 (L381-385): one die per healthy trait, no larger than the trait, the actor first, own
    dice from the pool the component uses, bowl dice allowed."""
    s = play(attack(in_scene()), A.StateDifficulty(player="Ann", value=0))
    refuses(s, A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]), "V-27")
    refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Wits", die=8)]), "V-27")
    refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8), A.StakeIn(trait="Blade", die=6)]), "V-27")
    s.players["Ben"].character = [4]
    refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]), "V-27")
    play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")]))


def test_V_19_a_d4_trait_shuts_out_higher_ones():
    """V-19 (L181): with an applicable d4 trait (read: one pushed), no higher trait may be used."""
    s = play(attack(in_scene()), A.StateDifficulty(player="Ann", value=0))
    refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Sneak", die=4), A.StakeIn(trait="Blade", die=8)]), "V-19")


def fight(s, ben_faces, ann_faces, ben_power=None, ann_power=None, ben_stakes=None, ann_stakes=None):
    ben = ben_stakes or [A.StakeIn(trait="Blade", die=8)]
    ann = ann_stakes or [A.StakeIn(trait="Ruthless", die=8)]
    s = play(s, A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=ben, power=[6] if ben_power else []),
             A.Wager(player="Ann", stakes=ann, power=[6] if ann_power else []))
    faces = {f"actor:{i}": [f] for i, f in enumerate(ben_faces)}
    faces.update({f"opponent:{i}": [f] for i, f in enumerate(ann_faces)})
    if ben_power:
        faces["actor_power:0"] = [ben_power]
    if ann_power:
        faces["opponent_power:0"] = [ann_power]
    return play(s, A.RollDice(faces=faces))


def test_V_27_V_35_V_36_resolution_damage_and_taken_out():
    """V-27, V-35, V-36 (L381-401, L459-463, L705): 8 v 2 with power 5: effect 11; the defender disables
    traits to cover it, the story owner... is Ann, so Ben's PC wins; all traits gone = taken out. The
    winner keeps its die and takes the loser's; the power die goes to the bowl."""
    s = attack(in_scene())
    total = s.total_points
    s = fight(s, [8], [2], ben_power=5)
    assert s.struggle.stage == "damage" and s.struggle.effect == 11
    assert sorted(s.players["Ben"].character) == sorted([10, 8, 6, 4, 8])
    refuses(s, A.TakeDamage(player="Ann", traits=["Cunning"]), "V-35")
    refuses(s, A.TakeDamage(player="Ben", traits=["Cunning"]), "V-35")
    s = play(s, A.TakeDamage(player="Ann", traits=["Cunning", "Connected", "Ruthless"]))
    main = comp_of(s, "Ann", "main")
    assert main.out and all(t.damage == "X" for t in main.traits)
    assert dice_in_play(s) == total


def test_V_24_power_dice_come_from_the_ability():
    """V-24, V-27 step 5 (L649-672): power dice come from the ability's allocated dice and must fit it."""
    s = play(attack(in_scene()), A.StateDifficulty(player="Ann", value=0))
    refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10)], power=[6]), "V-24")
    refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)], power=[8]), "V-24")


def test_V_24_V_EX_11_power_defense_in_play():
    """V-24, V-EX-11 (L655, @89676): the villain's Power Defense 6 rolls 3 against 9 v 4: effect 2."""
    s = attack(in_scene())
    s.players["Ben"].character += [10]
    s = fight(s, [9], [4], ann_power=3, ben_stakes=[A.StakeIn(trait="Grit", die=10)])
    assert s.struggle.effect == 2


def test_V_34_V_EX_7_targeted_trait_first_in_play():
    """V-34, V-EX-7 (L375, @68932): Ben aims at Ruthless (d8, -3); 8 v 2 → 5 - 2 = 3: Ruthless goes first."""
    s = attack(in_scene(), target_trait="Ruthless")
    s = fight(s, [8], [2])
    assert s.struggle.effect == 3
    refuses(s, A.TakeDamage(player="Ann", traits=["Connected", "Cunning"]), "V-34")
    s = play(s, A.TakeDamage(player="Ann", traits=["Ruthless"]))
    assert comp_of(s, "Ann", "main").trait("Ruthless").damage == "X"


def test_V_35_story_owner_earns_xp_for_damage():
    """V-35, V-48 (L461, L561): a story component's owner gets 1 XP a trait it disables, +1 if targeted."""
    s = play(in_scene(), A.PassTurn(player="Ben"), A.PassTurn(player="Cy"),
             A.StartStruggle(player="Ann", actor=comp_of(in_scene(), "Ann", "main").id,
                             target=comp_of(in_scene(), "Ben", "pc").id, goal="attack", target_trait="Sneak"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.RollDice(faces={"actor:0": [8], "opponent:0": [2]}))
    assert s.struggle.effect == 5
    xp = s.players["Ann"].xp_earned
    s = play(s, A.TakeDamage(player="Ben", traits=["Sneak", "Wits", "Blade"]))
    assert s.players["Ann"].xp_earned == xp + 4


def test_V_37_V_AMB_11_V_EX_22_control_marks_and_recovery():
    """V-37, V-AMB-11, V-EX-22 (L467-475, L616-619): control disables carry the attacker's initial, give
    control of a fully disabled component until scene end, then recover; S damage clears at scene end."""
    s = attack(in_scene(), goal="control")
    s = fight(s, [8], [1], ben_power=6)
    s = play(s, A.TakeDamage(player="Ann", traits=["Cunning", "Connected", "Ruthless"]))
    main = comp_of(s, "Ann", "main")
    assert [t.control for t in main.traits] == [["B"]] * 3 and main.controller == "Ben" and not main.out
    s = play(s, A.PassTurn(player="Cy"), A.EndScene(player="Ann"))
    main = comp_of(s, "Ann", "main")
    assert main.controller is None and all(t.healthy for t in main.traits)


def test_V_35_scene_only_damage_clears():
    """V-35 (@86266): damage marked S disappears at the end of the scene; X stays."""
    s = attack(in_scene())
    s = fight(s, [8], [7])
    s = play(s, A.TakeDamage(player="Ann", traits=["Cunning"], scene_only=True))
    assert comp_of(s, "Ann", "main").trait("Cunning").damage == "S"
    s = play(s, A.PassTurn(player="Cy"), A.EndScene(player="Ann"))
    assert comp_of(s, "Ann", "main").trait("Cunning").healthy


def test_V_47_V_48_maneuver_places_an_aspect_and_scores_xp_for_story():
    """V-47, V-48, V-26 (L356-366, L561): a maneuver won by 3 places a sticky aspect on the target; it
    goes at scene end. A story component winning a non-attack struggle earns its owner 1 XP."""
    s = attack(in_scene(), goal="maneuver")
    s = fight(s, [6], [3])
    assert s.aspects[0].kind == "sticky" and s.aspects[0].free_tags == 1
    s = play(s, A.PassTurn(player="Cy"), A.EndScene(player="Ann"))
    assert s.aspects == []
    s2 = play(in_scene(), A.PassTurn(player="Ben"), A.PassTurn(player="Cy"),
              A.StartStruggle(player="Ann", actor=comp_of(in_scene(), "Ann", "main").id,
                              target=comp_of(in_scene(), "Ben", "pc").id, goal="maneuver"),
              A.StateDifficulty(player="Ann", value=0),
              A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
              A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
              A.RollDice(faces={"actor:0": [5], "opponent:0": [4]}))
    assert s2.players["Ann"].xp_earned == 1 and s2.aspects[0].kind == "fragile"


def test_V_AMB_7_average_d6_returns_to_the_bowl():
    """V-AMB-7 (L383, L626): the unwagered average d6 is rolled with the struggle dice and goes back to the bowl."""
    s = play(attack(in_scene()), A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Wits", die=6)], average=True),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]))
    sixes = s.bowl.count(6)
    s = play(s, A.RollDice(faces={"actor:0": [1], "actor:1": [6], "opponent:0": [5]}))
    assert s.struggle.effect == 1 and s.bowl.count(6) == sixes + 1


def test_V_32_V_EX_19_V_55_V_AMB_12_extended_fight_rotates_the_narrator():
    """V-32, V-EX-19, V-55, V-AMB-12 (L338, L513, @88058): an overpower fight goes on until a side cannot
    continue or surrenders; then the narrator role passes along the initiative list and the scene ends."""
    s = attack(in_scene(), extended=True)
    s = fight(s, [3], [6])  # Ben fails: the villain strikes back next
    assert s.extended.next_actor == comp_of(s, "Ann", "main").id
    refuses(s, A.ContinueFight(player="Ben"), "V-32")
    s = play(s, A.ContinueFight(player="Ann", surrender=True))
    assert s.narrator == "Ben" and s.narrators[-2:] == ["Ann", "Ben"] and s.phase == "frame" and s.rotations == 1


def test_V_51_extended_struggle_xp_against_a_pc():
    """V-51 (L604-610): against a PC in an extended struggle the story owner gains 1 XP for the PC's first
    failure and 3 for its ultimate failure."""
    s = attack(in_scene(), extended=True)
    s = fight(s, [2], [6])
    assert s.players["Ann"].xp_earned == 1
    s = play(s, A.ContinueFight(player="Ann"), A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Connected", die=6)]),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Wits", die=6)]), A.RollDice(faces={"actor:0": [6], "opponent:0": [1]}))
    s = play(s, A.TakeDamage(player="Ben", traits=["Sneak", "Wits", "Blade"]))
    s = play(s, A.ContinueFight(player="Ben", surrender=True))
    assert s.players["Ann"].xp_earned == 1 + 3 + 3


def test_V_55_pass_narration():
    """V-55 (L241, L513-515): the narrator may pass; the next in initiative takes the role."""
    s = play(built(), A.PassNarration(player="Ann"))
    assert s.narrator == "Ben"
    refuses(s, A.PassNarration(player="Ann"), "V-52")


def test_V_13_top_up_at_scene_end_in_play():
    """V-13 (L590-592, @85068): after the scene a PC whose allocated dice were spent on power tops them up
    from the bowl into the allocated box, counting its character dice against the gap. Ben borrows a bowl
    die and wins, so the bowl takes the winnings (V-AMB-9) and he holds no dice: the full 2 come back."""
    s = attack(in_scene())
    s.bowl = sorted(s.bowl + s.players["Ben"].character)
    s.players["Ben"].character = []
    s = fight(s, [8], [7], ben_power=1, ben_stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")])
    hero = comp_of(s, "Ben", "pc")
    assert hero.allocated == [] and hero.original_allocated == 2 and s.players["Ben"].character == []
    s = play(s, A.TakeDamage(player="Ann", traits=["Connected"]))
    s = play(s, A.PassTurn(player="Cy"), A.EndScene(player="Ann"))
    assert comp_of(s, "Ben", "pc").allocated == [6]
    assert dice_in_play(s) == s.total_points


def test_V_11_recombine_in_play():
    """V-11, V-12 (L332): recombining a pool keeps its points; the dice come from and go to the bowl."""
    s = in_scene()
    s = play(s, A.Recombine(player="Ben", pool="character", give=[6, 8], take=[10, 4]))
    assert sorted(s.players["Ben"].character) == [4, 4, 10, 10]
    refuses(s, A.Recombine(player="Ben", pool="character", give=[10, 4], take=[10, 6]), "V-11")
    assert dice_in_play(s) == s.total_points


def test_V_56_V_49_V_48_end_act_objective_and_fresh_dice():
    """V-56, V-49, V-48, V-10 (L310, L551, @82098): the narrator ends the act; an achieved objective is
    bought off, every player gains 10 XP and the narrator 3 more; all dice go back to the bowl; the next
    act starts with bids and a fresh purchase."""
    s = built()
    refuses(s, A.EndAct(player="Ben"), "V-52")
    s = play(s, A.EndAct(player="Ann", objective_achieved=True))
    assert s.act == 2 and s.phase == "bid" and s.components == {}
    assert E.points(s.bowl) == s.total_points
    assert s.players["Ann"].xp_earned == 13 and s.players["Ben"].xp_earned == 10


def test_V_AMB_21_story_objective_lasts_to_story_end():
    """V-AMB-21 (L553, L853): the story objective survives the end of an act; the story ends after its last act."""
    s = built(options={"acts": 2})
    assert s.objective == "Find the dark emerald"
    s = play(s, A.EndAct(player="Ann"))
    assert s.objective == "Find the dark emerald" and not s.objective_done
    s = play(s, *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    s = play(s, *[build_action(n) for n in s.order])
    assert s.narrator == "Ben"  # the second act's first narrator: the next by story priority
    s = play(s, A.EndAct(player="Ben"))
    assert s.phase == "over"


def test_V_50_xp_dice_arrive_at_once():
    """V-50 (L557-583): reaching 20 XP within a level gives a d4 from the bowl straight away."""
    s = built()
    s.players["Ann"].xp_earned = s.players["Ann"].xp = 15
    s = play(s, A.EndAct(player="Ann", objective_achieved=True))
    assert s.players["Ann"].xp_earned == 28
    # the d4 arrived, then the act's end returned every pool to the bowl: it is conserved
    assert E.points(s.bowl) == s.total_points


# --- head-to-head ----------------------------------------------------------------------------------
def race(s):
    return play(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Ben", "pc").id, target=comp_of(s, "Ann", "main").id,
                                   goal="maneuver", head_to_head=True, text="a race to the ford"),
                A.StateDifficulty(player="Ann", value=0))


def test_V_AMB_6_head_to_head_lowest_initiative_first_and_hidden():
    """V-AMB-6, V-26 (L383-385): in a head-to-head struggle the side with the lowest initiative pushes first
    (Ann is first in initiative, so Ben pushes first), and its dice stay hidden from the other until both
    are in. A head-to-head struggle is a contest, never an attack."""
    from engine.vele.decisions import pending
    from engine.vele.ruleset import summary
    s = race(in_scene())
    assert s.struggle.stage == "wager_actor" and pending(s).secret and pending(s).seats == ("Ben",)
    s = play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]))
    assert pending(s).seats == ("Ann",)
    assert summary(s, "Ann")["struggle"]["actor"]["stakes"] == "hidden"
    assert summary(s, "Ben")["struggle"]["actor"]["stakes"][0]["die"] == 8
    refuses(in_scene(), A.StartStruggle(player="Ben", actor=comp_of(in_scene(), "Ben", "pc").id,
                                        target=comp_of(in_scene(), "Ann", "main").id, goal="attack",
                                        head_to_head=True), "V-26")


def test_V_28_V_EX_3_head_to_head_tie_in_play():
    """V-28, V-EX-3 (L390, L489): 7 v 7 head-to-head: no winner, every die back where it came from."""
    s = race(in_scene())
    ben, ann = list(s.players["Ben"].character), list(s.players["Ann"].story)
    s = play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8), A.StakeIn(trait="Connected", die=6,
                                                                                          source="bowl")]),
             A.RollDice(faces={"actor:0": [7], "opponent:0": [7], "opponent:1": [2]}))
    assert sorted(s.players["Ben"].character) == sorted(ben) and sorted(s.players["Ann"].story) == sorted(ann)
    assert s.aspects == [] and s.records[-1].winner is None and dice_in_play(s) == s.total_points


def test_V_27_head_to_head_winner_acts_as_the_actor():
    """V-27 (L394): in head-to-head the winner is the "actor": Ann's villain wins 8 v 4 and places a sticky
    aspect on Ben's hero, taking Ben's die."""
    s = race(in_scene())
    s = play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Grit", die=10)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
             A.RollDice(faces={"actor:0": [4], "opponent:0": [8]}))
    assert s.records[-1].winner == "opponent" and s.records[-1].effect == 4
    assert s.aspects[0].on == comp_of(s, "Ben", "pc").id and s.aspects[0].kind == "sticky"
    assert 10 not in s.players["Ben"].character and s.players["Ann"].story.count(10) == 2


# --- fate ------------------------------------------------------------------------------------------
def rolled(s, ben_face, ann_face):
    s = play(s, A.StateDifficulty(player="Ann", value=0), A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]))
    return play(s, A.RollDice(faces={"actor:0": [ben_face], "opponent:0": [ann_face]}), pass_fate=False)


def test_V_46_fate_after_the_roll():
    """V-46 (L529-537): after the roll, 1 XP buys +2 with an aspect of your own (+1 without); Ben's 5
    against 6 becomes 7 and wins by 1. An aspect that is not yours is refused."""
    s = rolled(attack(in_scene()), 5, 6)
    assert s.struggle.stage == "fate" and s.struggle.fate_queue == ["Ben", "Ann"]
    xp = s.players["Ben"].xp
    refuses(s, A.SpendFate(player="Ben", aspect="somebody else's"), "V-46")
    s = play(s, A.SpendFate(player="Ben", aspect="aspect 0"), pass_fate=False)
    assert s.players["Ben"].xp == xp - 1
    s = play(s, A.SpendFate(player="Ann", skip=True), pass_fate=False)
    assert s.records[-1].winner == "actor" and s.records[-1].actor_result == 7 and s.struggle.effect == 1


def test_V_AMB_14_one_xp_fate_per_scene_free_tags_do_not_count():
    """V-AMB-14, V-46, V-47 (L594, L624, L539): one XP-funded fate use per player per scene; a scene
    aspect's free tag costs no XP and does not count against it."""
    s = attack(in_scene(), goal="maneuver")
    s = fight(s, [6], [3])  # a sticky aspect on Ann's villain, with 1 free tag
    tag = s.aspects[0].text
    s = play(s, A.StartStruggle(player="Cy", actor=comp_of(s, "Cy", "pc").id, target=comp_of(s, "Ann", "main").id,
                                goal="attack"), A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Cy", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=6)]))
    s = play(s, A.RollDice(faces={"actor:0": [2], "opponent:0": [6]}), pass_fate=False)
    xp = s.players["Cy"].xp
    s = play(s, A.SpendFate(player="Cy", aspect=tag), pass_fate=False)
    assert s.players["Cy"].xp == xp and s.aspects[0].free_tags == 0 and s.struggle.actor.bonus == 2
    s.struggle.fate_queue.insert(0, "Cy")  # asked again in the same scene: XP-funded fate is allowed once
    s = play(s, A.SpendFate(player="Cy"), pass_fate=False)
    assert s.players["Cy"].xp == xp - 1
    s.struggle.fate_queue.insert(0, "Cy")
    refuses(s, A.SpendFate(player="Cy"), "V-AMB-14")


@pytest.mark.parametrize("tone,fallback,first", [("pulpy", "pulpy", "Ben"), ("gritty", "pulpy", "Ann"),
                                                 ("heroic", "pulpy", "Ann"), ("doomed", "gritty", "Ben")])
def test_V_30_fate_order_by_tone(tone, fallback, first):
    """V-30 (L696-701, @94613, @94717): pulpy actor first; gritty opponent first; heroic story characters
    first; doomed PCs first (Ben's PC attacks Ann's villain)."""
    s = built(options={"tone": tone, "tone_fallback": fallback})
    s = rolled(attack(in_scene(s)), 5, 6)
    assert s.struggle.fate_queue[0] == first
    refuses(s, A.SpendFate(player=[x for x in ("Ben", "Ann") if x != first][0], skip=True), "V-30")


def test_V_30_pc_v_pc_under_heroic_uses_the_chosen_fallback():
    """V-30 (@94613): under heroic a PC v PC struggle uses the table's pulpy-or-gritty choice (gritty here:
    the opponent first)."""
    s = in_scene(built(options={"tone": "heroic", "tone_fallback": "gritty"}))
    s = play(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Ben", "pc").id, target=comp_of(s, "Cy", "pc").id,
                                goal="maneuver"), A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.Wager(player="Cy", stakes=[A.StakeIn(trait="Blade", die=8)]))
    s = play(s, A.RollDice(faces={"actor:0": [3], "opponent:0": [3]}), pass_fate=False)
    assert s.struggle.fate_queue == ["Cy", "Ben"]


def test_V_3_V_1_the_narrator_may_just_say_no():
    """V-3, V-1 (L163, L169): the narrator's 'no' is a challenge that succeeds at once: the struggle is
    gone before any die moves, and the actor must do something else on the same turn."""
    s = attack(in_scene())
    before = s.players["Ben"].character
    s = play(s, A.NarratorNo(player="Ann", reason="the ford is flooded"))
    assert s.struggle is None and s.phase == "scene" and s.scene.turns[s.scene.turn] == "Ben"
    assert s.players["Ben"].character == before
    s = play(attack(in_scene()), A.StateDifficulty(player="Ann", value=0))
    refuses(s, A.NarratorNo(player="Ann"), "V-3")
    refuses(attack(in_scene()), A.NarratorNo(player="Cy"), "V-52")


def test_V_54_V_6_guidelines_are_written_down_by_the_narrator():
    """V-54, V-6 (L271, L849): during the act's setup any player adds a guideline; during play only the
    narrator does; they are written down for the story."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    s = play(s, A.AddGuideline(player="Dee", text="Magic always costs blood"))
    s = play(s, *[build_action(n) for n in s.order])
    refuses(s, A.AddGuideline(player="Ben", text="Nobody dies"), "V-54")
    s = play(s, A.AddGuideline(player="Ann", text="The river floods at dusk"))
    assert s.guidelines == ["Magic always costs blood", "The river floods at dusk"]
