"""Choice schemas narrowed to what exists now: ids as enums, coin counts capped (issue 27).

A server that enforces the schema with a grammar (llama.cpp) then cannot let a small model name
a component that is not there or pay coins it does not have; the engine still judges the rest.
"""
from __future__ import annotations

import pytest
from engine_helpers import framed
from pydantic import ValidationError

from agents.llm.schema_actions import INT_CHOICES, choice_schema, field_choices, to_engine_action
from engine.universalis.ledger import available


def _enum(schema: dict, model: str, field: str) -> list:
    node = schema["$defs"][model]["properties"][field]
    for branch in node.get("anyOf", [node]):
        if "enum" in branch:
            return branch["enum"]
    return []


def test_component_and_trait_fields_offer_only_existing_ids() -> None:
    g = framed()
    me = g.turn
    cid = g.create(me, "Ferryman")
    tid = g.trait(cid, "Ferryman")
    choices = field_choices(g.s, me)
    schema = choice_schema(("narrate_event", "add_trait", "remove_trait", "end_turn"), choices)
    js = schema.model_json_schema()
    live = sorted(c.id for c in g.s.components.values() if not c.eliminated)
    assert sorted(_enum(js, "NarrateEvent", "performer")) == live
    assert sorted(_enum(js, "AddTrait", "component")) == live
    assert tid in _enum(js, "RemoveTrait", "trait")
    ok = schema.model_validate({"action": {"type": "narrate_event", "text": "He rows.", "performer": cid}})
    assert to_engine_action(ok, me).performer == cid  # type: ignore[attr-defined]
    with pytest.raises(ValidationError, match="performer"):
        schema.model_validate({"action": {"type": "narrate_event", "text": "x", "performer": "c999"}})


def test_coin_counts_are_capped_at_what_the_player_can_spend() -> None:
    """U-ECO-3: nobody pays more than they have; U-BID-1: a bid is at most the bidder's wealth.

    Offered as an enum of the payable counts (at most INT_CHOICES of them): llama-cpp-python's
    grammar ignores `maximum`, and SmolLM2 wrote 22 where 21 was the most it could pay.
    """
    g = framed()
    me = g.turn
    spend = available(g.s, me)
    assert 1 <= spend
    schema = choice_schema(("reduce_importance", "end_turn"), field_choices(g.s, me))
    js = schema.model_json_schema()
    assert _enum(js, "ReduceImportance", "coins") == list(range(1, min(spend, INT_CHOICES) + 1))
    with pytest.raises(ValidationError, match="coins"):
        schema.model_validate({"action": {"type": "reduce_importance", "component": g.s.scene().location,
                                          "coins": spend + 1}})
    bid = choice_schema(("bid",), field_choices(g.s, me)).model_json_schema()
    wealth = next(p.wealth for p in g.s.players if p.name == me)
    assert _enum(bid, "Bid", "amount") == list(range(0, min(wealth, INT_CHOICES - 1) + 1))
    poor = choice_schema(("bid",), (("amount", (2,)),)).model_json_schema()
    assert _enum(poor, "Bid", "amount") == [0, 1, 2]


def test_fine_and_fact_fields() -> None:
    g = framed()
    me = g.turn
    choices = dict(field_choices(g.s, me, fact_ids=["f1", "f2", "f1"]))
    assert me not in choices["accused"] and len(choices["accused"]) == len(g.s.players) - 1
    assert choices["fact"] == ("f1", "f2")
    # no Complication: pool (a required field) is left as the engine defines it
    assert "pool" not in choices


def test_an_optional_field_with_nothing_to_name_must_be_null() -> None:
    """U-PREP-3: no standing Tenet to modify, so `replaces` can only be null (SmolLM2 wrote "T1")."""
    g = framed()
    me = g.turn
    schema = choice_schema(("propose_tenet", "end_turn"), field_choices(g.s, me, fact_ids=[]))
    with pytest.raises(ValidationError, match="replaces"):
        schema.model_validate({"action": {"type": "propose_tenet", "text": "Rain", "replaces": "T1"}})
    ok = schema.model_validate({"action": {"type": "propose_tenet", "text": "Rain"}})
    assert to_engine_action(ok, me).replaces is None  # type: ignore[attr-defined]
