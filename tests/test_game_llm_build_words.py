"""A Vele LLM seat's purchase (V-10 L557, V-14-18, V-23, V-24, V-60 L716-733): the heuristic plans the
numbers, the model writes the words.

Why: the whole `build` was a ~600-token answer SmolLM2 never gave within the 22 s deadline (0 of 4 builds
by the model, eval/data/real_model_games.json). Now the model is asked for names, trait names and
aspects only (agents/llm/build_words.py), in a flat schema shaped like the heuristic's plan; the
sizes, kinds, dice, costs and the ability stay the plan's, so the build is legal whatever words come.
Against the strict fake server (real HTTP on 127.0.0.1), with the other decisions answered as a
shadow heuristic seat would.
"""
from __future__ import annotations

import json
from typing import Iterator

import pytest
from fakeserver import FakeOpenAIServer, fake_openai, requested_schema, valid  # noqa: F401

from agents.llm.build_words import BUILD_NOTE, GROUP_NOTE, NAME_CHARS, WORDED
from agents.llm.game_player import GameLLMPlayer
from tests.test_game_llm_player import advance_to_person, llm_table, settings, shadow_answer, words_of


def full(action: dict) -> dict:
    """A logged Build with every field written out (the log leaves defaults out)."""
    from engine.vele.actions import Build

    return Build.model_validate(action).model_dump(mode="json")


MODEL_WORDS = {"pc_name": "Ilse Varga, cat burglar", "pc_traits": ["Quiet feet", "Lockpicks", "Rope work",
                                                                    "Charm", "Nerve", "Old debts"],
               "pc_aspects": ["Owes the Sky Guild", "Afraid of falling"], "main_name": "Magister Oren",
               "main_traits": ["Cold cruelty", "Guild favours", "Schemes"], "main_aspects": ["Never forgives"],
               "other_names": ["Dock watch", "Cloud pirates", "The rotten gantry"], "why": "a heist crew and its foe"}


def to_the_purchase(table, shadow, server: FakeOpenAIServer, kind: str = "build") -> tuple[str, dict, list]:
    """Answer every decision as the shadow seat would until a seat's plan is of `kind` (a build, V-14, V-23,
    comes after the seat's group, V-60); that seat, the plan (as data) and the seat's recorded plans (the LLM
    seat's own heuristic)."""
    plans: dict[str, list] = {}
    for player in table.seats.values():
        assert isinstance(player, GameLLMPlayer)
        mine = plans.setdefault(player.name, [])
        inner = player.heuristic.decide

        def record(obs, inner=inner, mine=mine):  # type: ignore[no-untyped-def]
            d = inner(obs)
            mine.append(d.action.model_dump(mode="json"))
            return d
        player.heuristic.decide = record  # type: ignore[method-assign]
    for _ in range(40):
        seat = advance_to_person(table)
        data, why = shadow_answer(table, shadow, seat)
        if data["type"] == kind:
            return seat, data, plans[seat]
        server.script(valid(words_of(data, why=why) if data["type"] in WORDED else {"action": data, "why": why}))
        table.step()
    raise AssertionError("no purchase came")


@pytest.fixture
def llama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """The strict llama-cpp-python profile (the real-model tier's server): its schemas keep string lengths."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    server = FakeOpenAIServer(profile="llama-cpp-python").start()
    try:
        yield server
    finally:
        server.stop()


def test_a_purchase_asks_for_words_only_and_keeps_the_plans_numbers(llama: FakeOpenAIServer) -> None:
    """V-14 (L185, L725), V-18 (L645), V-23, V-24 (L649-672): the model's words land in the Build; the rest
    is the plan's."""
    table, shadow = llm_table("vele", settings(llama), llama)
    seat, _, plans = to_the_purchase(table, shadow, llama)
    llama.script(valid(MODEL_WORDS))
    table.step()
    assert not llama.violations, llama.violations
    rec = table.records[-1]
    schema = requested_schema(llama.chat_requests[-1]) or {}
    props = schema["properties"]
    assert set(props) == {"pc_name", "pc_traits", "pc_aspects", "main_name", "main_traits", "main_aspects",
                          "other_names", "why"}
    assert props["pc_traits"]["minItems"] == props["pc_traits"]["maxItems"] == 6
    assert props["other_names"]["minItems"] == props["other_names"]["maxItems"] == 3
    assert props["pc_name"]["maxLength"] == NAME_CHARS
    assert not {"size", "kind", "ability", "story", "character_dice"} & set(json.dumps(schema).split('"'))
    prompt = json.dumps(llama.chat_requests[-1]["messages"])
    assert "A heist in a floating city" in prompt and seat in prompt and "6 traits (the first its best)" in prompt
    assert " d8" not in prompt  # SmolLM2 copied dice into trait names
    assert rec.meta["decided_by"] == "llm" and not rec.meta["fallback"], rec.meta
    assert rec.meta["rationale"] == f"a heist crew and its foe; {BUILD_NOTE}"
    assert rec.meta["tokens_out"] > 0
    act, plan = full(rec.action), full(plans[-1])
    assert act["type"] == "build" and plan["type"] == "build"
    assert act["pc"]["name"] == MODEL_WORDS["pc_name"] and act["pc"]["aspects"] == MODEL_WORDS["pc_aspects"]
    assert [t["name"] for t in act["pc"]["traits"]] == MODEL_WORDS["pc_traits"]
    assert [c["name"] for c in act["story"]] == [MODEL_WORDS["main_name"], *MODEL_WORDS["other_names"]]

    def numbers(b: dict) -> list:
        comps = [b["pc"], *b["story"]]
        return [[(c["kind"], c["stationary"], [(t["size"], t["focus"]) for t in c["traits"]], len(c["aspects"]),
                  c["ability"] and {k: v for k, v in c["ability"].items() if k != "trait"}) for c in comps],
                b["character_dice"], b["story_dice"], b["xp_spent"], b["objective"]]
    assert numbers(act) == numbers(plan)
    # the ability stays on the trait in the plan's place, under its new name
    at = [t["name"] for t in plan["pc"]["traits"]].index(plan["pc"]["ability"]["trait"])
    assert act["pc"]["ability"]["trait"] == MODEL_WORDS["pc_traits"][at]
    assert act["spotlight"] in ("", plan["spotlight"].replace(plan["pc"]["name"], MODEL_WORDS["pc_name"]))
    # the engine took it: the seat's components carry the model's names
    names = {c.name for c in table.state.components.values() if c.owner == seat}
    assert {MODEL_WORDS["pc_name"], MODEL_WORDS["main_name"], *MODEL_WORDS["other_names"]} <= names
    assert table.state.players[seat].built


@pytest.mark.parametrize(("change", "said"), [
    ({"pc_name": ""}, "invalid output"),
    ({"pc_name": "   "}, "every component needs a name"),
    ({"main_name": "M" * (NAME_CHARS + 1)}, "invalid output"),
    ({"pc_traits": ["Quick"] * 6}, "every trait needs its own name"),
    ({"other_names": ["Dock watch", "dock watch", "The rotten gantry"]}, "both called"),
    ({"pc_traits": ["One", "Two"]}, "invalid output"),
    ({"main_aspects": None}, "invalid output"),
])
def test_bad_words_fall_back_to_the_plan_with_a_reason(fake_openai: FakeOpenAIServer, change: dict,  # noqa: F811
                                                       said: str) -> None:
    """Empty, too long, too few, missing or repeated words (V-14, L185: every trait its own name): the seat's
    plan is bought as planned, its reason in the log."""
    table, shadow = llm_table("vele", settings(fake_openai), fake_openai)
    seat, _, plans = to_the_purchase(table, shadow, fake_openai)
    bad = {**MODEL_WORDS, **change}
    bad = {k: v for k, v in bad.items() if v is not None}
    fake_openai.script(valid(bad), valid(bad))
    table.step()
    rec = table.records[-1]
    assert rec.meta["decided_by"] == "heuristic" and said in rec.meta["fallback"], rec.meta
    assert rec.meta["rationale"].startswith("the heuristic decided (")
    assert full(rec.action) == full({**plans[-1], "player": seat})  # the plan itself, not a second one
    assert table.state.players[seat].built


def test_a_name_already_at_the_table_is_refused(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    table, shadow = llm_table("vele", settings(fake_openai), fake_openai)
    to_the_purchase(table, shadow, fake_openai)
    # a character of the seat's group, made just before (V-60)
    taken = min((c.name for c in table.state.components.values()), key=len)
    assert len(taken) <= NAME_CHARS
    fake_openai.script(valid({**MODEL_WORDS, "main_name": taken}), valid({**MODEL_WORDS, "main_name": taken}))
    table.step()
    assert "is already at the table" in table.records[-1].meta["fallback"]


def test_names_are_kept_as_data(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    """Whatever the model writes is text: braces, markup, quotes, template and format marks stay as
    written in the state and the log (a line break or tab becomes a space: a name is one line), and
    the log replays byte for byte."""
    from agents.game_loop import GameTable

    odd = {**MODEL_WORDS, "pc_name": '{pc} <b>"Ilse"</b> $seat',
           "pc_traits": ["%s", "{0}", "\\n", "<i>", "a\nb", "Ünï"],
           "main_name": "Oren\t{{main}}", "pc_aspects": ["</script>", "'; drop"]}
    table, shadow = llm_table("vele", settings(fake_openai), fake_openai)
    seat, _, _ = to_the_purchase(table, shadow, fake_openai)
    fake_openai.script(valid(odd))
    table.step()
    assert table.records[-1].meta["decided_by"] == "llm", table.records[-1].meta
    pc = next(c for c in table.state.components.values() if c.owner == seat and c.kind == "pc")
    assert pc.name == '{pc} <b>"Ilse"</b> $seat' and pc.aspects == ["</script>", "'; drop"]
    assert [t.name for t in pc.traits] == ["%s", "{0}", "\\n", "<i>", "a b", "Ünï"]
    assert any(c.name == "Oren {{main}}" for c in table.state.components.values())
    assert '{pc} <b>\\"Ilse\\"</b> $seat' in table.log_text()
    again = GameTable.load(table.log_text())
    assert again.log_text() == table.log_text()


def test_a_group_is_named_by_the_model_and_keeps_the_plans_numbers(llama: FakeOpenAIServer) -> None:
    """V-60 (L716-733), V-61 (L927-935): the heuristic's first purchase of an act is a group of story characters;
    the model names the group, its leader and members; their kinds, traits and sizes and the card stay the
    plan's."""
    table, shadow = llm_table("vele", settings(llama), llama)
    seat, _, plans = to_the_purchase(table, shadow, llama, "make_group")
    words = {"group_name": "The Gull Street gang", "leader_name": "Old Maro", "member_names": ["Pip", "Big Tam"],
             "why": "a harbour gang"}
    llama.script(valid(words))
    table.step()
    assert not llama.violations, llama.violations
    props = (requested_schema(llama.chat_requests[-1]) or {})["properties"]
    assert set(props) == {"group_name", "leader_name", "member_names", "why"}
    assert props["member_names"]["minItems"] == props["member_names"]["maxItems"] == 2
    rec = table.records[-1]
    assert rec.meta["decided_by"] == "llm" and rec.meta["rationale"] == f"a harbour gang; {GROUP_NOTE}", rec.meta
    from engine.vele.actions import MakeGroup

    act, plan = (MakeGroup.model_validate(x).model_dump(mode="json") for x in (rec.action, plans[-1]))
    assert (act["name"], act["leader"]["name"], [m["name"] for m in act["members"]]) == \
        ("The Gull Street gang", "Old Maro", ["Pip", "Big Tam"])
    assert act["spotlight"] == plan["spotlight"].replace(plan["name"], "The Gull Street gang")

    def numbers(g: dict) -> list:
        return [(c["kind"], c["traits"], c["aspects"]) for c in (g["leader"], *g["members"])]
    assert numbers(act) == numbers(plan)
    assert any(g.name == "The Gull Street gang" and g.owner == seat for g in table.state.groups)
