"""`apply` copies the state cheaply (engine/vele/copying.py) without changing any result: over whole
simulated games, every action leaves its input state untouched, and the new state equals the one an
apply on a full copy.deepcopy gives."""
from __future__ import annotations

import copy

from agents.game_sim import simulate
from engine.core.ruleset import replay_log_text
from engine.vele.copying import state_copy
from engine.vele.rules import apply


def test_apply_never_mutates_its_input_and_matches_a_deepcopy_apply():
    sim = simulate("vele", seats=4, seed=5, options={"acts": 1})
    rep = replay_log_text(sim.table.log_text(), keep_states=True)
    actions = [r.action for r in sim.table.records]
    assert len(rep.states) == len(actions) + 1
    for before, action, after in zip(rep.states, actions, rep.states[1:]):
        dump = before.model_dump()
        new, _ = apply(before, action)
        assert before.model_dump() == dump, f"apply changed its input at {action['type']}"
        ref, _ = apply(copy.deepcopy(before), action)
        assert new == ref == after


def test_state_copy_is_independent():
    """Changing every kind of thing in a copy (a pool, the bowl, a trait's mark, a scene, a record) leaves
    the original as it was."""
    sim = simulate("vele", seats=4, seed=5, options={"acts": 1})
    rep = replay_log_text(sim.table.log_text(), keep_states=True)
    s = next(x for x in rep.states if x.components and x.records and x.scene is not None)
    dump = s.model_dump()
    c = state_copy(s)
    assert c == s and c is not s
    c.bowl.append(4)
    next(iter(c.components.values())).traits[0].control.append("Z")
    c.players[s.seats[0]].character.append(12)
    c.scenes[-1].present.append("nobody")
    c.records[-1].disabled.append("nothing")
    assert c != s and s.model_dump() == dump


def test_fields_left_shared_hold_only_immutable_values():
    """state_copy copies only the fields whose annotation may hold something mutable (copying._plan): over a
    whole game, every other field of every model in the state holds an int, str, bool, float or None."""
    from pydantic import BaseModel

    from engine.vele.copying import _ATOMS, _plan

    def walk(v, where):
        if isinstance(v, BaseModel):
            plan = _plan(type(v))
            for k, x in v.__dict__.items():
                if plan is not None and k not in plan:
                    assert type(x) in _ATOMS, f"{where}.{k} holds a {type(x).__name__}"
                walk(x, f"{where}.{k}")
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, f"{where}[{i}]")
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, f"{where}[{k!r}]")

    sim = simulate("vele", seats=4, seed=5, options={"acts": 1})
    for i, s in enumerate(replay_log_text(sim.table.log_text(), keep_states=True).states):
        walk(s, f"state{i}")
    assert _plan(type(s)) is not None and "components" in _plan(type(s)) and "seq" not in _plan(type(s))
