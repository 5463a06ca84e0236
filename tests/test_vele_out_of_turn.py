"""AI seats act out of turn at a Vele table (V-1; L163, L165): while the game waits for the narrator to weigh a
struggle's claim, a heuristic seat may challenge it through the table's interjection (agents/game_loop.py), and
the challenge goes through `apply` like a person's."""
from __future__ import annotations

import json

from agents.game_loop import GameTable
from agents.vele.heuristic import VeleSeat
from engine.core.dice import ScriptedDice
from engine.core.ruleset import get_ruleset, header_for
from engine.vele import actions as A
from engine.vele.state import Record
from tests.vele_helpers import SEATS, built, comp_of, in_scene, play


def table_at(state, sure: tuple[str, ...] = ()) -> GameTable:
    """Heuristic seats at `state`; the seats in `sure` take every chance (their rng always says yes)."""
    rs = get_ruleset("vele")
    seats = {n: VeleSeat(n, seed=1, seat_index=i) for i, n in enumerate(SEATS)}
    for n in sure:
        seats[n].rng.random = lambda: 0.0  # type: ignore[method-assign]
    header = json.loads(header_for(rs, state, "g-oot"))
    return GameTable(rs, state, header, seats, ScriptedDice([]))  # type: ignore[arg-type]


def test_V_1_an_ai_seat_challenges_out_of_turn_a_claim_that_names_a_component_already_out():
    """V-1 (L163: "If a player creates fiction that contradicts fiction that already exists, you should
    challenge it"): Dee's PC was taken out; Ben's struggle claims it fights at his side. While the game waits
    for Ann (narrating) to state a difficulty, Cy challenges out of turn; the log marks it out_of_turn and the
    table votes (everyone but Ben)."""
    s = in_scene()
    gone = comp_of(s, "Dee", "pc")
    for t in gone.traits:
        t.damage = "X"
    gone.out = True
    s = play(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Ben", "pc").id, target=comp_of(s, "Ann", "main").id,
                                goal="attack", text=f"Ben's hero strikes, {gone.name} at his side"))
    table = table_at(s, sure=("Cy", "Dee"))
    assert table.ruleset.pending(table.state).seats == ("Ann",)
    acted, _ = table.step()
    rec = table.records[-1]
    assert acted and rec.action["type"] == "challenge" and rec.action["player"] == "Cy"
    assert rec.meta["out_of_turn"] is True and "established fact" in rec.meta["rationale"]
    assert table.state.phase == "vote" and table.state.vote.voters == ["Ann", "Cy", "Dee"]
    table.run(stop=lambda t: t.state.phase != "vote")  # the others vote; the table goes on either way
    assert table.state.vote is None


def _beaten_again(s):
    """Ann's villain beat Ben's PC this scene (a trait lost) and now, on Ann's turn, strikes it again."""
    s = play(s, A.PassTurn(player="Ben"), A.PassTurn(player="Cy"))
    ben, villain = comp_of(s, "Ben", "pc"), comp_of(s, "Ann", "main")
    ben.trait("Sneak").damage = "X"
    s.records.append(Record(seq=s.seq, scene=s.scene.number, actor=villain.id, opponent=ben.id, goal="attack",
                            actor_result=7, opponent_result=3, winner="actor", effect=1, disabled=["Sneak"]))
    return play(s, A.StartStruggle(player="Ann", actor=villain.id, target=ben.id, goal="attack",
                                   text="the villain strikes at Ben's hero again"))


def test_V_1_a_player_challenges_the_narrator_piling_onto_a_beaten_pc():
    """V-1, V-2 (L163, L165): the narrator's side strikes Ben's PC again after beating it this scene: Ben (not
    awaited: Ann, narrating, states the difficulty) challenges it out of turn as plainly unfair; Cy, whose
    component is not the target, does not."""
    table = table_at(_beaten_again(in_scene()), sure=("Ben", "Cy", "Dee"))
    acted, _ = table.step()
    rec = table.records[-1]
    assert acted and rec.action == {**rec.action, "type": "challenge", "player": "Ben"}
    assert rec.meta["out_of_turn"] is True and "unfair" in rec.meta["rationale"]


def test_V_1_no_challenge_without_cause_and_the_awaited_seat_decides():
    """V-1 (L163): a fair claim against a fresh PC draws no out-of-turn challenge: the table asks the narrator,
    who states a difficulty (or challenges or says no, as the narrator may); nobody else acted out of turn."""
    s = in_scene()
    s = play(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Ben", "pc").id, target=comp_of(s, "Ann", "main").id,
                                goal="attack", text="Ben's hero strikes"))
    table = table_at(s, sure=("Cy", "Dee"))
    acted, _ = table.step()
    rec = table.records[-1]
    assert acted and rec.action["player"] == "Ann" and "out_of_turn" not in rec.meta


def test_seats_are_asked_out_of_turn_only_when_offered_what_they_watch():
    """The interjection asks a seat only when the ruleset offers it an option type it watches (a Vele seat: a
    challenge, a counter-struggle, a hidden roll to tell); at the first frame nothing is, so nobody is asked; a seat without the hook
    (a person's: None) never is."""
    s = built()
    assert VeleSeat.interject_on == {"challenge", "counter_struggle", "connect", "tell_effect"}
    table = table_at(s)
    asked = []
    for seat in table.seats.values():
        seat.interject = lambda obs, seat=seat: asked.append(seat.name)  # type: ignore[method-assign]
    assert table.interjection(table.ruleset.pending(table.state)) is False and asked == []
    table.seats["Cy"] = None
    assert table.interjection(table.ruleset.pending(table.state)) is False


def test_V_41_the_things_owner_strikes_back_out_of_turn():
    """V-41 (L441): Ben's PC fails to cross Ann's bridge on his turn; the game waits for Cy (his turn); Ann, not
    awaited, asks out of turn for the counter-struggle, and the table votes."""
    from tests.test_vele_terrain import _ben_fails_on_the_bridge, bridge_scene
    s, bridge, ben, cy = bridge_scene()
    s = _ben_fails_on_the_bridge(s, ben, bridge)
    table = table_at(s, sure=("Ann",))
    assert table.ruleset.pending(table.state).seats == ("Cy",)
    acted, _ = table.step()
    rec = table.records[-1]
    assert acted and rec.action["type"] == "counter_struggle" and rec.action["player"] == "Ann"
    assert rec.meta["out_of_turn"] is True and table.state.phase == "vote"
    table.run(stop=lambda t: t.state.phase != "vote")
    assert table.state.vote is None


def test_each_watching_seat_s_options_are_computed_once_per_ask():
    """The interjection reads a watching seat's legal options once: the same list decides whether to ask it and
    goes into its observation (they were computed twice, a state's worth of work per seat)."""
    table = table_at(_beaten_again(in_scene()))
    rs = table.ruleset
    calls: list[str] = []
    real = type(rs).legal_options

    def counted(state, seat):
        calls.append(seat)
        return real(rs, state, seat)

    rs.legal_options = counted  # type: ignore[method-assign]  # this instance only, undone below
    seen = {}
    for seat in table.seats.values():
        seat.interject = lambda obs, seat=seat: seen.setdefault(seat.name, obs.options) and None  # type: ignore
    try:
        assert table.interjection(rs.pending(table.state)) is False
    finally:
        del rs.legal_options
    assert sorted(calls) == sorted(seen) == ["Ben", "Cy", "Dee"]  # Ann, awaited, is not asked
    assert all(any(o.type == "challenge" for o in opts) for opts in seen.values())
