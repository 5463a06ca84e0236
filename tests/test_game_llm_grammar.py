"""The LLM seats of FUBAR, Paganini and Vele against a server whose grammar ignores integer bounds.

Why: llama-cpp-python's server turns the requested schema into a grammar that holds enums and string
lengths but not an integer's `minimum`/`maximum`. SmolLM2 on it wrote Paganini's `rounds` 0, a skill
level 5 and a Vele bid of 7; our validation refused each ("invalid output") and the seat lost the
decision (eval/data/real_model_games.json, before). The schemas we send now carry bounded integers
as enums (agents/llm/schema.bounded_ints_as_enums), which the grammar holds. The fake server here is
the strict llama-cpp-python profile; its "model" writes what such a grammar allows at the edge
(tests/fakeserver.grammar_instance): no answer of it may be unreadable to us.
"""
from __future__ import annotations

import json

import pytest
from fakeserver import FakeOpenAIServer, grammar_instance, requested_schema, valid

from agents.llm.schema import MAX_CHARS, MAX_ITEMS, bounded_ints_as_enums
from tests.test_game_llm_player import GAMES, llm_table, settings


def grammar_answer(body: dict) -> object:
    schema = requested_schema(body)
    assert schema is not None, "a structured request"
    return valid(grammar_instance(schema))


def played(monkeypatch, game: str, steps: int) -> tuple[list, FakeOpenAIServer]:
    """`steps` steps of an all-LLM table of `game` answered by grammar_answer: its records and the
    (stopped) server, whose requests and violations stay readable."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    server = FakeOpenAIServer(profile="llama-cpp-python", default=grammar_answer).start()
    try:
        table, _ = llm_table(game, settings(server))
        for _ in range(steps):
            if table.ruleset.is_over(table.state) or not table.step()[0]:
                break
    finally:
        server.stop()
    return table.records, server


@pytest.mark.parametrize("game", GAMES)
def test_a_grammar_that_ignores_integer_bounds_gets_no_unreadable_answer(monkeypatch, game: str) -> None:
    records, server = played(monkeypatch, game, 30)
    reasons = [str(r.meta.get("fallback")) for r in records if r.meta.get("fallback")]
    by_model = [r for r in records if r.meta.get("decided_by") == "llm" and not r.meta.get("fallback")]
    assert not server.violations, server.violations  # the server took every request
    assert len(server.chat_requests) >= 5
    assert not [x for x in reasons if "invalid output" in x], reasons
    assert by_model, reasons


def test_bounded_integers_go_as_enums_and_open_lists_and_texts_get_a_bound() -> None:
    """And a dict keyed by an enum is written out key by key (SmolLM2 wrote any key into Paganini's armour
    ratings: the grammar ignores propertyNames)."""
    schema = {"type": "object", "properties": {
        "rounds": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1},
        "cover": {"type": "integer", "minimum": 0, "maximum": 100},
        "spent": {"type": "integer", "minimum": 0},
        "maybe": {"anyOf": [{"type": "integer", "minimum": -4, "maximum": 4}, {"type": "null"}]},
        "dice": {"type": "array", "items": {"type": "integer"}},
        "names": {"type": "array", "items": {"type": "string", "maxLength": 80}, "maxItems": 12},
        "text": {"type": "string"}, "kind": {"type": "string", "enum": ["a", "b"]},
        "ratings": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 3},
                    "propertyNames": {"enum": ["cutting", "blunt"]}}}}
    out = bounded_ints_as_enums(schema)["properties"]
    assert out["rounds"] == {"type": "integer", "enum": list(range(1, 11)), "default": 1}
    assert out["cover"] == schema["properties"]["cover"]  # 101 values: left as bounds
    # a minimum alone keeps it: a bid up to Wealth, a scene number, XP spent have no fixed top (U-BID-1)
    assert out["spent"] == {"type": "integer", "minimum": 0}
    assert out["maybe"]["anyOf"][0] == {"type": "integer", "enum": list(range(-4, 5))}
    assert out["dice"]["maxItems"] == MAX_ITEMS and out["names"]["maxItems"] == 12
    assert out["names"]["items"]["maxLength"] == 80 and out["text"]["maxLength"] == MAX_CHARS
    assert "maxLength" not in out["kind"]
    rated = {"type": "integer", "enum": [0, 1, 2, 3]}
    assert out["ratings"] == {"type": "object", "properties": {"cutting": rated, "blunt": rated},
                              "required": ["cutting", "blunt"], "additionalProperties": False}


def test_a_bid_or_a_scene_past_the_first_26_values_stays_choosable() -> None:
    """U-BID-1: a bid goes up to the bidder's Wealth (25 at the start, more after Refreshes); scene numbers count up
    over the game. As sent to any server, neither is capped at an enum of its first values."""
    from agents.llm.decider import openai_strict_subset
    from agents.llm.schema import strict_json_schema
    from agents.llm.schema_actions import choice_schema

    sent = json.dumps(openai_strict_subset(bounded_ints_as_enums(strict_json_schema(
        choice_schema(("bid", "switch_scene"))))))
    assert "25]" not in sent and "26]" not in sent, sent[:400]
    full = bounded_ints_as_enums(strict_json_schema(choice_schema(("bid", "switch_scene"))))
    amounts = [n for n in _walk(full) if n.get("type") == "integer"]
    assert amounts and all("enum" not in n or len(n["enum"]) < 26 for n in amounts)


def _walk(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def test_a_large_key_of_the_view_cannot_push_the_struggle_out_of_the_prompt() -> None:
    """A Vele view late in a game holds 20,000 characters of components before the struggle under way; cut
    at a fixed length the prompt showed components only. Every key now keeps a fair share."""
    import json

    from agents.llm.game_player import VIEW_CHARS, describe_view

    view = {"phase": "struggle", "ruleset": "vele",
            "components": [{"id": f"c{i}", **{f"trait{t}": f"{i}{t} " * 60 for t in range(6)}} for i in range(30)],
            "struggle": {"actor": {"player": "Ann"}, "opponent": {"player": "Ben", "component": "c3"}},
            "spotlights": [{"seat": "Ben", "text": "the bridge holds"}]}
    assert len(json.dumps(view)) > 3 * VIEW_CHARS
    text = describe_view(view)
    assert len(text) <= VIEW_CHARS
    assert '"struggle":{"actor":{"player":"Ann"},"opponent":{"player":"Ben","component":"c3"}}' in text
    assert '"spotlights":[{"seat":"Ben","text":"the bridge holds"}]' in text and '"phase":"struggle"' in text
    assert '"components":[' in text and "...(cut)" in text and '"ruleset"' not in text
    small = {"phase": "bid", "players": ["Ann", "Ben"]}
    assert json.loads(describe_view(small)) == small


def test_a_raw_newline_inside_a_string_is_read(monkeypatch) -> None:
    """llama-cpp-python's grammar lets a string hold a raw control character (its `char` rule is `[^"\\\\]`);
    SmolLM2 wrote a newline into a Paganini GM's reason and the answer was lost as "invalid JSON"."""
    from fakeserver import prose

    from agents.llm import LLMSettings, StructuredDecider, make_chat_model
    from agents.llm.game_player import game_choice_schema
    from langchain_core.messages import HumanMessage

    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    server = FakeOpenAIServer(profile="llama-cpp-python").start()
    try:
        server.script(prose('{"action": {"type": "pass_turn", "text": "I wait.\nThen I watch."}, "why": "tired\tnow"}'))
        chat = make_chat_model(LLMSettings(base_url=server.base_url, api_key="k", model="fake-model", timeout_s=5.0))
        attempt = StructuredDecider(chat, "json_object_schema").ask(  # type: ignore[arg-type]
            [HumanMessage(content="Your move.")], game_choice_schema("fubar", (("pass_turn", ()),)))
        assert attempt.error is None, attempt.error
        assert attempt.parsed.action.text == "I wait.\nThen I watch." and attempt.parsed.why == "tired\tnow"
        assert not server.violations
    finally:
        server.stop()


# (a grammar's model writing "x" for every Descriptor is still refused for naming one twice: not asserted)
@pytest.mark.parametrize(("game", "rules"), [("fubar", ("(F-20)", "(F-11)", "(F-7)", "has no Condition", "Descriptors: 4 Trademarks",
                                                        "one positive and one negative", "player's to ask for",
                                                        "level bump", "has no character")),
                                             ("paganini", ("(P-SCENE)", "there is no character", "kept up over rounds",
                                                           "is not an attribute here")),
                                             ("vele", ("first component you buy is your PC", "one main and at least 3"))])
def test_fields_the_table_refuses_now_are_not_offered(monkeypatch, game: str, rules: tuple[str, ...]) -> None:
    """agents/llm/game_legal_now.py: a grammar-held model fills every field offered. Offered the weapons
    option's fields at a table without it (F-20), a free-text Goal (F-11), any seat's dice to reroll (F-7),
    any count of Trademarks (F-10), a risky ruling nobody asked for (F-14), any id for a scene or a character
    (P-SCENE, P-6, P-17), rounds outside combat (P-13), any kind for a Vele PC or the act's story components
    (V-14, V-23), it wrote what the engine refuses."""
    records, server = played(monkeypatch, game, 40)
    refused = [str(r.meta["fallback"]) for r in records if str(r.meta.get("fallback", "")).startswith("refused")]
    assert len(server.chat_requests) >= 8
    assert not [x for x in refused if any(rule in x for rule in rules)], refused


def test_the_view_keeps_a_false_that_means_something() -> None:
    """A false flag is left out of the prompt's view to save tokens, but not where false is a value: a FUBAR
    negative Relationship read as `{"target": "Mayor"}` could not be told from a positive one."""
    from agents.llm.game_player import describe_view
    text = describe_view({"characters": [{"relationships": [{"target": "Mayor", "positive": False}]}],
                          "components": [{"name": "gang", "attached": False, "out": False}]})
    assert '"positive":false' in text and '"attached":false' in text and '"out"' not in text


def test_a_narrowed_list_of_ids_keeps_its_length_bounds() -> None:
    """P-13's combat needs two combatants (`min_length=2`): offered as an enum of the living characters, the list
    still asks for two, so a model cannot send one and lose the decision to the refusal."""
    from agents.llm.game_player import flat_model
    model = flat_model("paganini", "start_combat", False, (), (("combatants", "enum", ("c1", "c2", "c3")),))
    field = model.model_json_schema()["properties"]["combatants"]
    assert field["items"]["enum"] == ["c1", "c2", "c3"] and field["minItems"] == 2


def test_a_fubar_attempt_may_claim_an_aiding_assets_trademarks() -> None:
    """F-22 (an aiding asset's Trademarks count, engine/fubar/rules.py attempt): the attempt's Descriptors are offered
    as an enum of what the character may claim, the asset's Trademarks among them; a lost asset's are not."""
    from agents.llm.game_legal_now import narrowing
    view = {"characters": [{"seat": "Ann", "trademarks": ["Sniper"], "relationships": [],
                            "assets": [{"name": "Rex", "trademarks": ["Tracker"]},
                                       {"name": "Old car", "trademarks": ["Fast"], "lost": True}]}]}
    rules = {name: values for name, how, values in narrowing("fubar", view, "Ann", "attempt") if how == "enum"}
    assert set(rules["descriptors"]) == {"Sniper", "Tracker"}
