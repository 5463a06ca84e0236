"""Issue 23: an AI statement is checked before it is sent, against the roll, eliminations and the Facts.

The states come from one seeded heuristic game (seed 21), copied and changed by hand so each
check meets exactly the clash it is for; the heuristic's "why" must name a dropped statement.
"""
from __future__ import annotations

import pytest

from agents.presend import fact_clash, outcome_clash, presend_clash
from agents.simulation import simulate_game
from engine.universalis import actions as A
from engine.universalis.state import Narration, NarrationSlot


@pytest.fixture(scope="module")
def game():
    return simulate_game(seats=4, scenes=3, seed=21)


def _char(s, eliminated=False):
    return next(c for c in s.components.values() if c.kind == "character" and c.eliminated == eliminated)


def test_an_eliminated_component_told_alive_is_refused(game):
    """U-ELIM: an eliminated component is gone; "survives" about it contradicts the engine's state."""
    s = game.table.state.model_copy(deep=True)
    comp = _char(s)
    comp.eliminated = True
    act = A.BuyFact(player="Ann", text=f"Somehow {comp.label} survives the fall.")
    assert "eliminated" in (outcome_clash(s, act, "Ann") or "")
    other = A.BuyFact(player="Ann", text=f"They bury {comp.label} at dawn.")
    assert outcome_clash(s, other, "Ann") is None


def test_the_loser_cannot_narrate_its_own_side_winning():
    """U-COMP-10/11: the bonus narration follows the roll; a losing slot's "X wins" about its own side is refused."""
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice

    table = Table.new(heuristic_seats(["Ann", "Ben", "Cat", "Dan"], seed=21), dice=SeededDice(21))
    table.run(stop=lambda t: t.state.narration is not None and t.state.complication is not None, max_steps=5000)
    s = table.state.model_copy(deep=True)
    assert s.narration is not None, "no Complication was rolled in 5000 steps"
    slot = s.narration.slots[s.narration.current]
    mine = next(c for c in s.components.values() if c.kind == "character" and s.controller(c.id) == slot.player)
    claim = A.NarrateEvent(player=slot.player, text=f"{mine.label} wins the day.", performer=mine.id)
    slot.won = False
    assert "lost the roll" in (outcome_clash(s, claim, slot.player) or "")
    slot.won = True
    assert outcome_clash(s, claim, slot.player) is None


def test_a_statement_against_a_components_trait_is_refused(game):
    """A paid Trait is true: "X is not <trait>" from the seat is caught before sending, with the Fact named."""
    s = game.table.state
    comp, trait = next((c, t) for c in s.components.values() for t in c.live_traits()
                       if t.kind == "plain" and c.kind == "character" and len(t.text.split()) >= 2
                       and not t.text.lower().startswith(("no ", "not ", "never ", "wants")))
    facts = game.table.observe(s.players[0].name).facts
    act = A.NarrateEvent(player=s.players[0].name, text=f"{comp.label} is not {trait.text.lower()}.",
                         performer=comp.id)
    why = fact_clash(s, facts, act)
    assert why is not None and trait.text in why
    fine = A.NarrateEvent(player=s.players[0].name, text=f"{comp.label} looks out at the rain.", performer=comp.id)
    assert presend_clash(s, facts, fine, s.players[0].name) is None


def test_the_heuristic_drops_a_clashing_statement_and_says_why(game):
    """The seat's own check refuses the words and keeps the reason for its "why"."""
    from agents.heuristic import HeuristicPlayer

    s = game.table.state
    name = s.players[0].name
    comp, trait = next((c, t) for c in s.components.values() for t in c.live_traits()
                       if t.kind == "plain" and c.kind == "character" and len(t.text.split()) >= 2
                       and not t.text.lower().startswith(("no ", "not ", "never ", "wants")))
    player = HeuristicPlayer(name)
    player._dropped = []
    act = A.NarrateEvent(player=name, text=f"{comp.label} is not {trait.text.lower()}.", performer=comp.id)
    assert not player._ok(game.table.observe(name), act)
    assert player._dropped and "contradicts the Fact" in player._dropped[0]


def test_an_ai_seats_check_refuses_its_contradicting_words_and_a_persons_does_not():
    """Every AI seat (an LLM's answer goes through obs.check) is told why its words were not sent."""
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice
    from engine.universalis.decisions import pending

    table = Table.new(heuristic_seats(["Ann", "Ben", "Cat", "Dan"], seed=4), dice=SeededDice(4))

    def ready(t):
        s = t.state
        p = pending(s)
        if p.kind != "turn" or s.complication is not None or s.turn is None or s.turn.framing:
            return False
        who = p.players[0]
        sc = s.scene()
        return any(s.controller(c) == who and s.components[c].kind == "character"
                   and any(x.kind == "plain" and len(x.text.split()) >= 2 for x in s.components[c].live_traits())
                   for c in (sc.present if sc else []))

    table.run(stop=ready, max_steps=3000)
    s = table.state
    who = pending(s).players[0]
    comp = next(s.components[c] for c in s.scene().present if s.controller(c) == who
                and s.components[c].kind == "character"
                and any(x.kind == "plain" and len(x.text.split()) >= 2 for x in s.components[c].live_traits()))
    trait = next(x for x in comp.live_traits() if x.kind == "plain" and len(x.text.split()) >= 2)
    calm = A.NarrateEvent(player=who, text=f"{comp.label} looks out at the rain.", performer=comp.id)
    bad = A.NarrateEvent(player=who, text=f"{comp.label} is not {trait.text.lower()}.", performer=comp.id)
    assert table.check(calm) is None and table.check(bad) is None  # the engine finds both legal
    ai = table.observe(who).check
    assert ai(calm) is None
    assert "not sent" in (ai(bad) or "") and trait.text in ai(bad)
    table.seats[who].player = None  # the seat becomes a person's
    assert table.observe(who).check(bad) is None  # a person's words are never second-guessed
