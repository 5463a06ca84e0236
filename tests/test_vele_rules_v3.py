"""The Vele rules of version 3, each through `apply` and checked against the book (issue 21's missing rules):
XP for a d4 trait used by itself (V-19, L627); XP for a story component that wins a struggle that is not an attack,
on either side (V-48, L562); an attached component moves with its unit, not on its own (V-45, L683; V-44, L415).
Each also holds that a game of an older version (an old log's) keeps its older rule. The mass-struggle fee for a
winning defender (V-38, L330, L433) is in test_vele_mass.py."""
from __future__ import annotations

from engine.core.ruleset import get_ruleset
from engine.vele import actions as A
from engine.vele.rules import apply, dice_in_play
from tests.vele_helpers import built, comp_of, in_scene, play, refuses

ZONES = ["the bank", "the ford", "the far shore"]


def ben_attacks(s, ben_stakes, ann_stakes, ben_face, ann_face, goal="attack", average=False, version=3):
    """Ben's PC struggles against Ann's villain on his turn (Ann narrates); returns the state and the roll's events."""
    s.rules_version = version
    ben, villain = comp_of(s, "Ben", "pc"), comp_of(s, "Ann", "main")
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal=goal, text="Ben acts"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=ben_stakes, average=average), A.Wager(player="Ann", stakes=ann_stakes))
    faces = {f"actor:{i}": [f] for i, f in enumerate(ben_face)}
    faces.update({f"opponent:{i}": [f] for i, f in enumerate(ann_face)})
    s, events = apply(s, A.RollDice(faces=faces))
    while s.struggle is not None and s.struggle.stage == "fate":
        s, more = apply(s, A.SpendFate(player=s.struggle.fate_queue[0], skip=True))
        events += more
    return s, events


def xp_lines(events):
    return [e.text for e in events if e.kind == "xp"]


def test_V_19_a_d4_trait_used_by_itself_earns_1_xp_win_or_lose():
    """V-19 (L627: "if you have a d4 trait that applies to a struggle, you may take 1 XP if you use it by itself in
    the struggle (no borrowed d6, either)"): Ben attacks with his d4 Sneak alone and loses; Ann defends with her
    villain's d4 Cunning alone and wins: each takes 1 XP. The winner's attack earns no other XP (V-48 is for
    struggles that are not attacks)."""
    s = in_scene()
    xp = {n: p.xp_earned for n, p in s.players.items()}
    s, events = ben_attacks(s, [A.StakeIn(trait="Sneak", die=4)], [A.StakeIn(trait="Cunning", die=4)], [2], [3])
    assert s.records[-1].winner == "opponent"
    assert {n: p.xp_earned - xp[n] for n, p in s.players.items()} == {"Ann": 1, "Ben": 1, "Cy": 0, "Dee": 0}
    lines = xp_lines(events)
    assert len(lines) == 2 and all("d4 trait used by itself" in x and "V-19" in x for x in lines)
    assert dice_in_play(s) == s.total_points and get_ruleset("vele").invariants(s) == []


def test_V_19_not_by_itself_with_the_borrowed_d6_or_another_trait_and_not_in_an_older_game():
    """V-19 (L627, "no borrowed d6, either"): Ben's d4 Sneak with the average d6 earns nothing, nor does a d8
    trait; a game of rules version 2 (an old log's) gives no XP for the d4 alone."""
    s, events = ben_attacks(in_scene(), [A.StakeIn(trait="Sneak", die=4)], [A.StakeIn(trait="Ruthless", die=8)],
                            [2, 3], [5], average=True)
    assert xp_lines(events) == [] and s.players["Ben"].xp_earned == 0
    s, events = ben_attacks(in_scene(), [A.StakeIn(trait="Sneak", die=4)], [A.StakeIn(trait="Cunning", die=4)],
                            [2], [3], version=2)
    assert xp_lines(events) == [] and s.rules_version == 2


def test_V_48_a_story_component_that_holds_off_a_maneuver_earns_1_xp():
    """V-48 (L562: "Succeed in a struggle that is not an attack with a story component: 1 XP"): Ben's PC tries to
    outmanoeuvre Ann's villain and fails, 3 against 6; the villain succeeded in that struggle, as defender, so Ann
    earns 1 XP (before, only a story component that acted earned it). d8 traits: no V-19 XP here."""
    s = in_scene()
    s, events = ben_attacks(s, [A.StakeIn(trait="Blade", die=8)], [A.StakeIn(trait="Ruthless", die=8)], [3], [6],
                            goal="maneuver")
    assert s.records[-1].winner == "opponent"
    assert s.players["Ann"].xp_earned == 1 and s.players["Ben"].xp_earned == 0
    assert any("wins a struggle that is not an attack (V-48)" in x for x in xp_lines(events))


def test_V_48_no_xp_for_holding_off_an_attack_nor_in_an_older_game():
    """V-48 (L561-562): holding off an attack earns no "not an attack" XP; a game of rules version 2 gave the XP
    only to a story component that acted, so there the defending villain earns nothing."""
    s, events = ben_attacks(in_scene(), [A.StakeIn(trait="Blade", die=8)], [A.StakeIn(trait="Ruthless", die=8)],
                            [3], [6])
    assert xp_lines(events) == []
    s, events = ben_attacks(in_scene(), [A.StakeIn(trait="Blade", die=8)], [A.StakeIn(trait="Ruthless", die=8)],
                            [3], [6], goal="maneuver", version=2)
    assert xp_lines(events) == [] and s.players["Ann"].xp_earned == 0


def mapped_unit(version=3):
    """Ann narrates the ford in three zones; Ben's PC and his first gang on the bank, the gang attached to the PC
    for 1 XP of fate (L685), so it is still Ben's turn."""
    s = built(options={"zones": True})
    s.rules_version = version
    ben, gang, cy, main = (comp_of(s, "Ben", "pc"), comp_of(s, "Ben", "normal"), comp_of(s, "Cy", "pc"),
                           comp_of(s, "Ann", "main"))
    s = play(s, A.FrameScene(player="Ann", place="the ford", present=[ben.id, gang.id, cy.id, main.id], zones=ZONES,
                             placed={main.id: "the far shore"}))
    s = play(s, A.SetMode(player="Ben", component=gang.id, unit=ben.id, attach=True, fate=True))
    assert s.scene.turns[s.scene.turn] == "Ben" and s.components[gang.id].attached
    return s, ben, gang


def test_V_45_V_44_an_attached_component_moves_with_its_unit_never_alone():
    """V-45 (L683: "Attached components function as a single component during struggles"; L425: "like a snake
    coiled around its owner, or a warrior with an intelligent sword"), V-44 (L415): Ben's gang, attached to his PC,
    cannot move to the ford on its own (it would have to detach first, L685); when the PC moves, the gang goes with
    it."""
    s, ben, gang = mapped_unit()
    msg = refuses(s, A.Move(player="Ben", component=gang.id, to="the ford"), "V-45")
    assert "attached" in msg and "detach" in msg
    s, events = apply(s, A.Move(player="Ben", component=ben.id, to="the ford"))
    assert s.scene.zone_of(ben.id) == "the ford" and s.scene.zone_of(gang.id) == "the ford"
    assert gang.name in events[-1].text
    # detached (for fate: one XP-funded use a scene is spent, so with the turn's struggle), the gang moves alone
    s = play(s, A.SetMode(player="Ben", component=gang.id, unit=ben.id, attach=False))
    assert get_ruleset("vele").invariants(s) == []


def test_V_45_attaching_needs_the_same_zone_and_older_games_move_members_alone():
    """V-45 (L425, L683): a component attaches to one beside it: Cy's turn aside, Ben's gang on the far shore cannot
    attach to his PC on the bank. A game of rules version 2 let an attached component move alone (old logs replay
    so)."""
    s = built(options={"zones": True})
    ben, gang, main = comp_of(s, "Ben", "pc"), comp_of(s, "Ben", "normal"), comp_of(s, "Ann", "main")
    s = play(s, A.FrameScene(player="Ann", place="the ford", present=[ben.id, gang.id, main.id], zones=ZONES,
                             placed={gang.id: "the far shore"}))
    assert "move first" in refuses(s, A.SetMode(player="Ben", component=gang.id, unit=ben.id, attach=True, fate=True),
                                   "V-45")
    s, ben, gang = mapped_unit(version=2)
    s = play(s, A.Move(player="Ben", component=gang.id, to="the ford"))
    assert s.scene.zone_of(gang.id) == "the ford" and s.scene.zone_of(ben.id) == "the bank"


def test_V_24_V_38_heuristic_seats_buy_auto_block_and_area_and_dice_stay_conserved():
    """V-24 (L664: "Auto-Block 8: always block; if the struggle fails, reroll for the block value"), V-38 (L433,
    L667: "Area 8"): at a table with zones, the guard seat buys Auto-Block 8 for its 2 extra points with XP when it
    has XP to spare (keeping one for fate), and every other seat's villain buys Area 8 (a mass struggle needs a
    zone); the villain waits among the PCs and hits them all at once. Both are used, nothing falls back, every
    die stays on the table after every action, and the log replays."""
    from agents.game_sim import simulate
    from engine.core.ruleset import replay_log_text

    sim = simulate("vele", seats=4, seed=1, options={"zones": True})
    acts = [r.action for r in sim.table.records]
    builds = [a for a in acts if a["type"] == "build"]
    assert any(a["pc"]["ability"]["effect"] == "auto_block" and a["xp_spent"] == 2 for a in builds)
    assert any(a["story"][0]["ability"]["effect"] == "area" for a in builds)
    assert any(a["type"] == "wager" and a.get("block") == "auto_block" for a in acts)
    # on its turn, or (rules version 4) as its strike in a fight the PCs drew it into (L453)
    assert any(a["type"] == "start_mass_struggle" or a["type"] == "continue_fight" and a.get("area") for a in acts)
    assert not [r for r in sim.table.records if r.meta.get("fallback")]
    rep = replay_log_text(sim.table.log_text(), keep_states=True)
    assert rep.error is None and rep.state == sim.table.state
    rs = get_ruleset("vele")
    assert all(dice_in_play(s) == s.total_points and rs.invariants(s) == [] for s in rep.states)


def test_a_version_2_log_replays_by_its_rules_byte_for_byte():
    """tests/data/vele_v2_zones_seed0.jsonl was written by Vele rules version 2 (integration6's heuristic: 3 seats,
    1 act, zones, seed 0). It replays to its end by version 2's rules with the XP it had then, and writes back the
    same bytes; the same actions read as version 3 would give Gina 1 XP more (her dockmaster's win in a struggle
    that is not an attack, V-48, which version 2 did not count), which is why the header's version decides."""
    import json
    from pathlib import Path

    from agents.game_loop import GameTable
    from engine.core.ruleset import replay_log_text

    text = (Path(__file__).parent / "data" / "vele_v2_zones_seed0.jsonl").read_text(encoding="utf-8")
    rep = replay_log_text(text)
    assert rep.error is None and rep.state.phase == "over" and rep.state.rules_version == 2
    assert {n: p.xp_earned for n, p in rep.state.players.items()} == {"Gina": 28, "Ann": 30, "Bob": 14}
    assert GameTable.load(text).log_text() == text
    lines = text.splitlines()
    head = json.loads(lines[0])
    head["ruleset_version"] = "3"
    as_v3 = replay_log_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    assert as_v3.error is None and as_v3.state.players["Gina"].xp_earned == 29
