"""Stationary terrain in play (V-41, V-EX-15; L437): it attacks a nearby component on that component's
turn, and the turn stays the victim's."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.rules import apply, new_game
from tests.vele_helpers import SEATS, build_action, comp_of, play, story


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def bridge_scene():
    """Ann's first normal story component is a rickety bridge (stationary); Ben's PC is on it."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    mine = story("Ann")
    mine[1].name, mine[1].stationary = "Rickety bridge", True
    s = play(s, *[build_action(n, story=mine) if n == "Ann" else build_action(n) for n in s.order])
    bridge = next(c for c in s.components.values() if c.name == "Rickety bridge")
    ben, cy = comp_of(s, "Ben", "pc"), comp_of(s, "Cy", "pc")
    s = play(s, A.FrameScene(player="Ann", place="the gorge", present=[ben.id, cy.id, bridge.id]))
    return s, bridge, ben, cy


def test_V_41_V_EX_15_the_bridge_attacks_dexter_on_his_turn_and_his_turn_goes_on():
    """V-41, V-EX-15 (L437): on Ben's turn his PC steps onto the bridge; the bridge (Ann's) attacks him then;
    after the exchange the turn is still Ben's. It may not strike Cy on Ben's turn, and an ordinary
    component of Ann's may not act on Ben's turn (V-25)."""
    s, bridge, ben, cy = bridge_scene()
    assert s.scene.turns[s.scene.turn] == "Ben"
    refuses(s, A.StartStruggle(player="Ann", actor=bridge.id, target=cy.id, goal="attack"), "V-41")
    refuses(s, A.StartStruggle(player="Ann", actor=comp_of(s, "Ann", "main").id, target=ben.id, goal="attack"), "V-25")
    refuses(s, A.StartStruggle(player="Ann", actor=bridge.id, target=ben.id, goal="attack", extended=True), "V-41")
    s = play(s, A.StartStruggle(player="Ann", actor=bridge.id, target=ben.id, goal="attack", text="the planks give way"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6)]),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}))
    assert s.phase == "scene" and s.scene.turns[s.scene.turn] == "Ben"


def test_V_41_terrain_owner_is_offered_the_strike_out_of_turn():
    """V-41 (L437): on Ben's turn, Ann (whose bridge is in the scene) may start a struggle with it."""
    from engine.vele.decisions import legal_options
    s, bridge, ben, cy = bridge_scene()
    assert "start_struggle" in {o.type for o in legal_options(s, "Ann")}
    assert "start_struggle" not in {o.type for o in legal_options(s, "Cy")}


def _ben_fails_on_the_bridge(s, ben, bridge):
    """Ben's PC tries to cross the bridge (a maneuver on his turn) and fails: the bridge rolls higher."""
    return play(s, A.StartStruggle(player="Ben", actor=ben.id, target=bridge.id, goal="maneuver",
                                   text="Dexter climbs along the ropes"),
                A.StateDifficulty(player="Ann", value=0),
                A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
                A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6)]),
                A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}))


def test_V_41_V_2_failing_against_a_thing_brings_a_counter_struggle_with_approval():
    """V-41, V-2 (L441: "Failing a struggle against a thing that isn't a person may still result in a
    consequence -- a counter-struggle ... subject to approval"): Ben's PC fails to cross Ann's bridge; Ann asks
    for a counter-struggle; the table (everyone but Ann) approves; the bridge then attacks Ben's PC, and after
    that exchange the turn order is where it was (Cy's turn: Ben's had ended with his failed struggle)."""
    from engine.vele.decisions import legal_options
    s, bridge, ben, cy = bridge_scene()
    s = _ben_fails_on_the_bridge(s, ben, bridge)
    assert s.records[-1].winner == "opponent" and s.scene.turns[s.scene.turn] == "Cy"
    assert "counter_struggle" in {o.type for o in legal_options(s, "Ann")}
    assert "counter_struggle" not in {o.type for o in legal_options(s, "Cy")}
    refuses(s, A.CounterStruggle(player="Cy", thing=bridge.id), "V-41")
    s = play(s, A.CounterStruggle(player="Ann", thing=bridge.id, text="the planks snap under Dexter"))
    assert s.phase == "vote" and s.vote.voters == ["Ben", "Cy", "Dee"] and s.vote.claim["what"] == "counter"
    refuses(s, A.CastVote(player="Ann", oppose=False), "V-AMB-4")
    s = play(s, A.CastVote(player="Ben", oppose=True), A.CastVote(player="Cy", oppose=False),
             A.CastVote(player="Dee", oppose=False))
    k = s.struggle
    assert s.phase == "struggle" and k.actor.component == bridge.id and k.opponent.component == ben.id
    assert k.goal == "attack" and k.interrupt and k.text == "the planks snap under Dexter"
    s = play(s, A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6, source="bowl")]),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Wits", die=6)]),
             A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}))
    assert s.phase == "scene" and s.scene.turns[s.scene.turn] == "Cy"
    refuses(s, A.CounterStruggle(player="Ann", thing=bridge.id), "V-41")  # once, and the bridge won nothing now


def test_V_41_a_counter_struggle_is_refused_when_blocked_or_not_after_a_failure_against_a_thing():
    """V-41, V-2 (L441): the table may refuse it (a majority opposed: the turn order goes on, no struggle, and
    it is not asked twice); a person (Ann's villain) beaten in a struggle does not counter-struggle: it strikes
    back on its own turn; and with no failed struggle there is nothing to counter."""
    s, bridge, ben, cy = bridge_scene()
    refuses(s, A.CounterStruggle(player="Ann", thing=bridge.id), "V-41")
    s = _ben_fails_on_the_bridge(s, ben, bridge)
    blocked = play(s, A.CounterStruggle(player="Ann", thing=bridge.id),
                   *[A.CastVote(player=n, oppose=True) for n in ("Ben", "Cy", "Dee")])
    assert blocked.phase == "scene" and blocked.struggle is None and blocked.scene.turns[blocked.scene.turn] == "Cy"
    refuses(blocked, A.CounterStruggle(player="Ann", thing=bridge.id), "V-41")
    villain = comp_of(s, "Ann", "main")
    refuses(s, A.CounterStruggle(player="Ann", thing=villain.id), "V-41")


def test_V_31_a_hidden_roll_tells_only_the_effect_and_wagers_nothing():
    """V-31 (L690: "the other side hides their roll and tells you the effect so that you don't know whether you
    failed. No wagering is possible"): Ben's PC sneaks across Ann's bridge with a hidden roll. Own dice, power and
    the average die are refused (bowl dice only); no fate step; every die goes back to the bowl. The roll's event
    tells the effect only; Ann (the bridge's side) sees the results and the winner in her view, Ben, Cy and a
    watcher do not, and Ben's failure still opens the bridge's counter-struggle to Ann."""
    from engine.core.ruleset import get_ruleset
    from engine.vele.rules import dice_in_play
    rs = get_ruleset("vele")
    s, bridge, ben, cy = bridge_scene()
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=bridge.id, goal="maneuver", hidden=True,
                                text="Dexter creeps along the ropes"),
             A.StateDifficulty(player="Ann", value=0))
    refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]), "V-31")
    refuses(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")], average=True), "V-31")
    story, char, bowl = list(s.players["Ann"].story), list(s.players["Ben"].character), sorted(s.bowl)
    s = play(s, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6, source="bowl")]), pass_fate=False)
    s, events = apply(s, A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}))
    assert s.struggle is None and s.phase == "scene"  # no fate step, no damage from a maneuver
    assert sorted(s.bowl) == bowl and s.players["Ann"].story == story and s.players["Ben"].character == char
    assert dice_in_play(s) == s.total_points
    told = [e for e in events if e.kind == "roll"]
    # the effect's number is not told: with no power and no fate it is above 0 exactly when the actor won
    assert len(told) == 1 and "Ann tells the effect in the story" in told[0].text and "5" not in told[0].text
    assert "winner" not in told[0].data and "effect" not in told[0].data and "effect 0" not in told[0].text
    last = {seat: rs.view(s, seat)["struggles"][-1] for seat in ("Ann", "Ben", "Cy", None)}
    assert last["Ann"]["winner"] == "opponent" and last["Ann"]["opponent_result"] == 5 and last["Ann"]["effect"] == 0
    assert all(last[x]["winner"] == last[x]["actor_result"] == last[x]["effect"] == "hidden" for x in ("Ben", "Cy", None))
    assert rs.summary(s)["struggles"][-1]["winner"] == "opponent"  # the whole record (a saved game's) keeps it
    from engine.vele.decisions import legal_options
    # rules version 4 (L690): the bridge's counter-struggle waits until Ann has told how the roll went
    assert {"tell_effect"} <= {o.type for o in legal_options(s, "Ann")} and \
        "counter_struggle" not in {o.type for o in legal_options(s, "Ann")}
    s = play(s, A.TellEffect(player="Ann", text="the ropes sway and creak under Dexter"))
    assert "counter_struggle" in {o.type for o in legal_options(s, "Ann")}


def test_V_31_a_hidden_roll_is_one_exchange():
    """V-31 (L690): a hidden roll is not an extended fight."""
    s, bridge, ben, cy = bridge_scene()
    refuses(s, A.StartStruggle(player="Ben", actor=ben.id, target=bridge.id, goal="attack", hidden=True,
                               extended=True), "V-31")


def _gang_blocks_ben():
    """On Ann's turn her first gang blocks Ben's PC from reaching her villain, and succeeds with a result of 6."""
    from tests.vele_helpers import in_scene
    s = play(in_scene(), A.PassTurn(player="Ben"), A.PassTurn(player="Cy"))
    gang, villain, ben = comp_of(s, "Ann", "normal"), comp_of(s, "Ann", "main"), comp_of(s, "Ben", "pc")
    s = play(s, A.StartStruggle(player="Ann", actor=gang.id, target=ben.id, goal="block", prevents=villain.id,
                                text="the gang bars the way to the villain"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6)]),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Wits", die=6)]),
             A.RollDice(faces={"actor:0": [6], "opponent:0": [2]}))
    return s, gang, villain, ben


def test_V_39_a_block_stands_until_the_blockers_next_turn_and_must_be_exceeded():
    """V-39 (L479-481: "If the other component tries to do that thing before your next turn, they must first
    overcome your block ... they must exceed your result. If they manage somehow to make several attempts
    before your turn, don't roll again; reuse your result"): Ann's gang blocks Ben's PC from her villain (6 to
    beat). Next round Ben may not attack the villain; he tries to overcome the block, rolls 6 (not more): fails,
    and his turn is over; once Ann's turn has come the block has fallen."""
    s, gang, villain, ben = _gang_blocks_ben()
    assert [(b.blocker, b.target, b.prevents, b.value) for b in s.blocks] == [(gang.id, ben.id, villain.id, 6)]
    s = play(s, A.NextRound(player="Ann"))
    assert s.scene.turns[s.scene.turn] == "Ben" and s.blocks
    msg = refuses(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack"), "V-39")
    assert "overcome" in msg and "6" in msg
    refuses(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="overcome"), "V-39")
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=gang.id, goal="overcome", text="Ben shoves past"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")]))
    assert s.struggle.stage == "roll"  # the blocker wagers nothing and does not roll again
    s = play(s, A.RollDice(faces={"actor:0": [6]}))
    assert s.records[-1].opponent_result == 6 and s.records[-1].winner == "opponent" and s.blocks
    assert s.scene.turns[s.scene.turn] == "Cy"
    s = play(s, A.PassTurn(player="Cy"), A.PassTurn(player="Ann"))  # Ann's turn came: the block fell
    assert s.blocks == []


def test_V_39_overcoming_a_block_lets_the_turn_go_on():
    """V-39 (L481): exceeding the block's result lifts it, and the blocked component goes on to do what it was
    blocked from, in the same turn; a block is one exchange (not an extended fight)."""
    s, gang, villain, ben = _gang_blocks_ben()
    s = play(s, A.NextRound(player="Ann"))
    refuses(s, A.StartStruggle(player="Ben", actor=ben.id, target=gang.id, goal="overcome", extended=True), "V-39")
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=gang.id, goal="overcome"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")]),
             A.RollDice(faces={"actor:0": [7]}))
    assert s.blocks == [] and s.scene.turns[s.scene.turn] == "Ben" and s.phase == "scene"
    play(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack"))


def test_V_45_V_EX_14_an_integrated_aide_makes_its_principal_a_target_by_trait_only():
    """V-45, V-EX-14 (L427: "If integrated (detached) components that are not minions are specifically aiding one
    component ... you cannot target that component without difficulty -- attacking it specifically requires
    targeting one of its traits. You may, however, target one of the aiding components without difficulty"):
    Ann integrates her first gang with her villain (announcing a mode is free); next round Ben's attack on the
    villain must target a trait (Ruthless, a d8: -3), an attack on the gang needs none; once the gang is
    attached (acting as one with the villain: it took Ann's next turn), normal targeting applies again."""
    from tests.vele_helpers import in_scene
    s = play(in_scene(), A.PassTurn(player="Ben"), A.PassTurn(player="Cy"))
    gang, villain, ben = comp_of(s, "Ann", "normal"), comp_of(s, "Ann", "main"), comp_of(s, "Ben", "pc")
    s = play(s, A.SetMode(player="Ann", component=gang.id, unit=villain.id, text="the gang closes ranks"))
    assert s.components[gang.id].unit == villain.id and s.scene.turns[s.scene.turn] == "Ann"  # announcing is free
    s = play(s, A.PassTurn(player="Ann"), A.NextRound(player="Ann"))
    msg = refuses(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack"), "V-45")
    assert "trait" in msg
    aimed = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack",
                                    target_trait="Ruthless"))
    assert aimed.struggle.actor.difficulty == 3
    free = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=gang.id, goal="attack"))
    assert free.struggle.actor.difficulty == 0
    s = play(s, A.PassTurn(player="Ben"), A.PassTurn(player="Cy"),
             A.SetMode(player="Ann", component=gang.id, unit=villain.id, attach=True))
    assert s.components[gang.id].attached and s.phase == "narrator"  # attaching took her turn
    s = play(s, A.NextRound(player="Ann"),
             A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack"))
    assert s.struggle.actor.difficulty == 0


def test_V_45_a_mode_may_not_contradict_the_round_and_fate_buys_a_quick_change():
    """V-45 (L421: "The mode can't contradict what has already happened for that round"; L685: attaching or
    detaching takes a struggle, "unless you justify and spend an experience point for fate"): Ben's PC has
    struggled with Ann's villain this round, so on Ann's turn her gang may not join the villain now; next round
    she attaches it for 1 XP of fate and her turn goes on; a second announcement of the same mode is refused."""
    from tests.vele_helpers import in_scene
    s = in_scene()
    gang, villain, ben = comp_of(s, "Ann", "normal"), comp_of(s, "Ann", "main"), comp_of(s, "Ben", "pc")
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="maneuver"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Wits", die=6)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
             A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}), A.PassTurn(player="Cy"))
    assert s.scene.turns[s.scene.turn] == "Ann"
    msg = refuses(s, A.SetMode(player="Ann", component=gang.id, unit=villain.id, fate=True), "V-45")
    assert "round" in msg or "cannot change" in msg
    s = play(s, A.PassTurn(player="Ann"), A.NextRound(player="Ann"), A.PassTurn(player="Ben"), A.PassTurn(player="Cy"))
    s.players["Ann"].xp = 2
    s = play(s, A.SetMode(player="Ann", component=gang.id, unit=villain.id, attach=True, fate=True))
    assert s.players["Ann"].xp == 1 and s.scene.turns[s.scene.turn] == "Ann" and s.phase == "scene"
    refuses(s, A.SetMode(player="Ann", component=gang.id, unit=villain.id, attach=True), "V-45")


def _guarded_villain_hit():
    """Ann's gang aids her villain (V-45); Ben's PC hits the villain's Ruthless for an effect of 4."""
    from tests.vele_helpers import in_scene
    s = play(in_scene(), A.PassTurn(player="Ben"), A.PassTurn(player="Cy"))
    gang, villain, ben = comp_of(s, "Ann", "normal"), comp_of(s, "Ann", "main"), comp_of(s, "Ben", "pc")
    s = play(s, A.SetMode(player="Ann", component=gang.id, unit=villain.id), A.PassTurn(player="Ann"),
             A.NextRound(player="Ann"),
             A.StartStruggle(player="Ben", actor=ben.id, target=villain.id, goal="attack", target_trait="Ruthless"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)]),
             A.RollDice(faces={"actor:0": [8], "opponent:0": [1]}))
    return s, gang, villain


def test_V_45_V_EX_14_after_the_first_trait_the_unit_absorbs_the_rest():
    """V-45, V-EX-14 (L427: "If you succeed, the first trait disabled must come from the targeted component, but for
    the rest of the effect, the owner can freely choose to use traits from other components integrated with it"):
    Ann's gang aids her villain; Ben's PC hits the villain's Ruthless (d8, 3 points) for an effect of 4. The first
    trait lost must be the villain's; then the gang's Menace (d4) takes the last point, and the villain keeps its
    other traits. A component not integrated with the villain cannot take a share."""
    s, gang, villain = _guarded_villain_hit()
    cy = comp_of(s, "Cy", "pc")
    assert s.struggle.stage == "damage" and s.struggle.effect == 4
    refuses(s, A.TakeDamage(player="Ann", traits=[], unit={gang.id: ["Menace", "Numbers"]}), "V-45")
    assert "not integrated" in refuses(s, A.TakeDamage(player="Ann", traits=["Ruthless"], unit={cy.id: ["Sneak"]}),
                                       "V-45")
    refuses(s, A.TakeDamage(player="Ann", traits=["Ruthless"], unit={gang.id: ["Menace", "Numbers"]}), "V-35")
    refuses(s, A.TakeDamage(player="Ann", traits=["Connected"], unit={gang.id: ["Menace"]}), "V-34")
    s = play(s, A.TakeDamage(player="Ann", traits=["Ruthless"], unit={gang.id: ["Menace"]}))
    v, g = s.components[villain.id], s.components[gang.id]
    assert v.trait("Ruthless").damage == "X" and v.trait("Connected").healthy and v.trait("Cunning").healthy
    assert g.trait("Menace").damage == "X" and g.trait("Numbers").healthy and not g.out and not v.out
    assert s.phase == "scene"


def test_V_45_the_ai_owner_lets_the_aides_take_the_rest():
    """V-45 (L427): an AI seat whose guarded component is hit names its first trait, then lets the aides absorb the
    rest (their smallest traits first), so the one they guard keeps its other traits."""
    from tests.test_vele_out_of_turn import table_at
    s, gang, villain = _guarded_villain_hit()
    table = table_at(s)
    acted, _ = table.step()
    rec = table.records[-1]
    assert acted and rec.action["type"] == "take_damage" and rec.action["player"] == "Ann"
    assert rec.action["traits"] == ["Ruthless"] and rec.action["unit"] == {gang.id: ["Menace"]}
    assert "aides" in rec.meta["rationale"] and table.state.components[villain.id].trait("Connected").healthy


def test_V_31_V_48_a_hidden_roll_s_winner_earns_no_xp_that_would_tell_it():
    """V-31 (L690: the other side "tells you the effect so that you don't know whether you failed"), V-48 (L563:
    "Succeed in a struggle that is not an attack with a story component: 1 XP"): Ann's villain tries, on her turn,
    to slip past Ben's hero with a hidden roll, and wins. The win is Ben's to know: no XP line names it, and
    Ann's XP is the same in every seat's view as before the roll (it was awarded at the roll before, in the
    public log, "a story component wins")."""
    from engine.core.ruleset import get_ruleset
    from tests.vele_helpers import in_scene
    rs = get_ruleset("vele")
    s = play(in_scene(), A.PassTurn(player="Ben"), A.PassTurn(player="Cy"))
    villain, ben = comp_of(s, "Ann", "main"), comp_of(s, "Ben", "pc")
    s = play(s, A.StartStruggle(player="Ann", actor=villain.id, target=ben.id, goal="maneuver", hidden=True,
                                text="the villain slips past unseen"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8, source="bowl")]),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")]), pass_fate=False)
    xp = {seat: {p["name"]: p["xp"] for p in rs.view(s, seat)["players"]} for seat in SEATS}
    after, events = apply(s, A.RollDice(faces={"actor:0": [7], "opponent:0": [2]}))
    assert after.records[-1].winner == "actor" and after.records[-1].hidden_from == ["Ann", "Cy", "Dee"]
    assert [e.kind for e in events if e.kind in ("xp", "xp_dice", "level")] == []
    assert not any("wins" in e.text for e in events)
    assert {seat: {p["name"]: p["xp"] for p in rs.view(after, seat)["players"]} for seat in SEATS} == xp
    assert rs.view(after, "Ann")["struggles"][-1]["winner"] == "hidden"


def test_V_31_V_39_a_block_is_never_a_hidden_roll():
    """V-31 (L690), V-39 (L479-481): a block's result is what the blocked component must beat, and whether it
    stands is told to the table: a hidden roll would keep it from the actor, so a block, or an attempt to overcome
    one, cannot be hidden (before, the block's event told the hidden roll's result and winner)."""
    s, bridge, ben, cy = bridge_scene()
    refuses(s, A.StartStruggle(player="Ben", actor=ben.id, target=bridge.id, goal="block", hidden=True), "V-31")
    refuses(s, A.StartStruggle(player="Ben", actor=ben.id, target=bridge.id, goal="overcome", hidden=True), "V-31")
