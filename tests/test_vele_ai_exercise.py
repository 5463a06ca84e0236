"""The heuristic Vele seats exercise the rules AI games used to skip (issue 21 follow-up): a d4 trait pushed alone
for its XP (V-19, L627), Selective Area on a d10 trait at zone tables (V-38, L668), and a hidden roll's effect
told in the story by the one player who saw it (V-31, L690)."""
from __future__ import annotations

import re

from engine.vele import actions as A
from engine.vele.decisions import legal_options
from tests.test_vele_out_of_turn import table_at
from tests.test_vele_terrain import bridge_scene
from tests.vele_helpers import play, refuses


def _hidden_crossing(version: int | None = None):
    """Ben's PC creeps across Ann's bridge with a hidden roll and fails (2 against 5)."""
    s, bridge, ben, cy = bridge_scene()
    s.rules_version = version or s.rules_version
    return play(s, A.StartStruggle(player="Ben", actor=ben.id, target=bridge.id, goal="maneuver", hidden=True,
                                   text="Dexter creeps along the ropes"),
                A.StateDifficulty(player="Ann", value=0),
                A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")]),
                A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6, source="bowl")]),
                A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}), pass_fate=False)


def test_V_31_the_hidden_rolls_opponent_tells_its_effect_once_in_words():
    """V-31 (L690: "the other side hides their roll and tells you the effect so that you don't know whether you
    failed"): only Ann, who saw the roll, is offered to tell it; Ben's telling is refused. From rules version 4 the
    game waits for Ann's telling before Cy's turn (test_vele_rules_v4); in a game of version 3, while the game
    waited for Cy, Ann's heuristic seat told it out of turn. Either way it is told in words with no number; the
    record keeps the words, the event is public, and it is told once."""
    for version in (3, 4):
        s = _hidden_crossing(version)
        assert "tell_effect" in {o.type for o in legal_options(s, "Ann")}
        assert not {"tell_effect"} & {o.type for n in ("Ben", "Cy", "Dee") for o in legal_options(s, n)}
        refuses(s, A.TellEffect(player="Ben", text="I made it"), "V-31")
        table = table_at(s)
        assert table.ruleset.pending(table.state).seats == (("Cy",) if version == 3 else ("Ann",))
        acted, _ = table.step()
        rec = table.records[-1]
        assert acted and rec.action["type"] == "tell_effect" and rec.action["player"] == "Ann"
        assert rec.meta.get("out_of_turn", False) is (version == 3) and "V-31" in rec.meta["rationale"]
    text = rec.action["text"]
    assert not re.search(r"\d", text) and "Rickety bridge" in text
    assert table.state.records[-1].told == text
    assert any(e.kind == "told" and text in e.text for e in table.events)
    assert table.ruleset.view(table.state, "Ben")["struggles"][-1]["told"] == text  # the actor hears it
    assert "tell_effect" not in {o.type for o in legal_options(table.state, "Ann")}
    refuses(table.state, A.TellEffect(player="Ann", text="again"), "V-31")


def test_V_31_there_is_nothing_to_tell_after_an_open_roll():
    """V-31: a roll everyone saw has no hidden effect to tell."""
    s, bridge, ben, cy = bridge_scene()
    refuses(s, A.TellEffect(player="Ann", text="the bridge holds"), "V-31")
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=bridge.id, goal="maneuver"),
             A.StateDifficulty(player="Ann", value=0), A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6)]), roll(2, 5))
    refuses(s, A.TellEffect(player="Ann", text="the bridge holds"), "V-31")


def roll(a: int, o: int) -> A.RollDice:
    return A.RollDice(faces={"actor:0": [a], "opponent:0": [o]})


def _defending(die: int, trait: str):
    s, bridge, ben, cy = bridge_scene()
    s = play(s, A.StartStruggle(player="Ben", actor=ben.id, target=bridge.id, goal="maneuver",
                                text="Dexter climbs along the ropes"),
             A.StateDifficulty(player="Ann", value=0), A.Wager(player="Ben", stakes=[A.StakeIn(trait=trait, die=die)]))
    table = table_at(s)
    return s, table.seats["Ann"].decide(table.observe("Ann"))


def test_V_19_the_heuristic_pushes_a_d4_alone_defending_a_maneuver_it_would_lose_anyway():
    """V-19 (L627: "if you have a d4 trait that applies to a struggle, you may take 1 XP if you use it by itself
    in the struggle (no borrowed d6, either)"): Ben pushes a d8 to cross Ann's bridge (Numbers d6, Menace d4).
    A lost maneuver costs the bridge an aspect, not a trait, and no trait of it can match a d8: Ann's seat pushes
    Menace alone on a bowl d4, says why, and takes the XP though it loses."""
    s, d = _defending(8, "Blade")
    assert [(x.trait, x.die, x.source) for x in d.action.stakes] == [("Menace", 4, "bowl")]
    assert not d.action.power and not d.action.allies and not d.action.average
    assert "V-19" in d.rationale and "L627" in d.rationale
    xp = s.players["Ann"].xp
    after = play(s, d.action, roll(6, 2))
    assert after.records[-1].winner == "actor" and after.players["Ann"].xp == xp + 1


def test_V_19_not_when_its_own_traits_can_match_the_push():
    """V-19: against a d6 (the bridge's Numbers d6 matches it) Ann's seat fights with its traits, no d4 alone."""
    s, d = _defending(6, "Wits")
    assert 4 not in [x.die for x in d.action.stakes] and "V-19" not in d.rationale


def test_V_38_V_19_V_31_a_seeded_zone_game_exercises_selective_area_the_d4_xp_and_told_hidden_rolls():
    """V-38 (L668: "Selective Area 10: choose who is affected", on a d10 trait), V-19 (L627), V-31 (L690): in a
    4-seat heuristic game with zones (seed 5), the first seat's villain buys Selective Area 10 on a d10 Ruthless
    every act and uses it on the others' components in its zone; some d4 trait earns its XP alone; every hidden
    roll that was rolled is told in the story."""
    from agents.game_sim import simulate
    t = simulate("vele", seats=4, seed=5, options={"zones": True}).table
    acts = [r.action for r in t.records]
    picks = [a for a in acts if a["type"] == "build" and a["story"][0]["ability"]["effect"] == "selective_area"]
    assert len(picks) == t.state.acts and all(a["story"][0]["traits"][0]["size"] == 10 for a in picks)
    chooser = picks[0]["player"]
    assert any(a["type"] == "start_mass_struggle" and a["player"] == chooser and a["targets"] for a in acts)
    assert any("(V-19)" in e.text and "by itself" in e.text for e in t.events)
    hidden = [r for r in t.state.records if r.hidden_from]
    assert hidden and all(r.told and not re.search(r"\d", r.told) for r in hidden)
