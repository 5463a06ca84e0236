"""The state as prompt text: ids a model can name, the player's coins, bounded length."""
from __future__ import annotations

from agents.brainstorm import seed_tenets
from agents.llm.state_text import MAX_TENETS, describe_facts, describe_state
from agents.table import Seat, Table, default_facts
from engine.universalis import actions as A


def test_state_text_names_ids_coins_and_caps_tenets() -> None:
    table = Table.new([Seat(n, None) for n in ("Ann", "Bo")])
    seed_tenets(table, [f"Tenet number {i}" for i in range(MAX_TENETS + 4)])
    table.submit(A.CreateComponent(player=table.state.seat_names[table.state.prep_index % 2], role="Knight"))
    text = describe_state(table.state, "Ann")
    assert "Ann (you):" in text and "You may spend now:" in text
    assert "[T1] Tenet number 0" in text and "(+4 more)" in text
    assert f"Tenet number {MAX_TENETS + 3}" not in text
    knight = next(iter(table.state.components.values()))
    assert f"- {knight.id}: Knight, character" in text


def test_facts_text_leaves_out_tenets_and_keeps_ids() -> None:
    table = Table.new([Seat(n, None) for n in ("Ann", "Bo")])
    seed_tenets(table, ["It always rains"])
    table.submit(A.CreateComponent(player="Bo", role="Detective"))
    text = describe_facts(default_facts(table.state))
    assert "It always rains" not in text and "Detective" in text and "[t" in text
    assert describe_facts([]) == "(none yet)"


def test_stable_parts_first_and_facts_without_listed_traits() -> None:
    """Tenets and components come before the coins (a server's prefix cache keeps them), and the
    Facts do not repeat the Traits the component list shows (short prompts for small models)."""
    table = Table.new([Seat(n, None) for n in ("Ann", "Bo")])
    seed_tenets(table, ["It always rains"])
    table.submit(A.CreateComponent(player="Bo", role="Detective"))
    s = table.state
    text = describe_state(s, "Ann")
    assert text.index("Tenets:") < text.index("Components") < text.index("Players:")
    assert describe_facts(default_facts(s), state=s) == "(only the Traits listed above)"
    assert "Detective" in describe_facts(default_facts(s))  # without the state: nothing to leave out
