"""The LLM seat of any ruleset (agents/llm/game_player.py) at a GameTable, through the real openai client
and ChatOpenAI, against the strict fake server (real HTTP on 127.0.0.1): FUBAR, Paganini and Vele.

The "model" of these tests answers what a separate heuristic seat would choose, so its answers are
legal moves the test knows in advance: every one must be applied as the model's, with its `why` in
the log. Prose and illegal moves must end in the seat's heuristic deciding, the log saying why.
"""
from __future__ import annotations

import json

import pytest
from fakeserver import FakeOpenAIServer, fake_openai, prose, requested_schema, valid  # noqa: F401

from agents.game_loop import GameTable
from agents.game_sim import heuristic_seat, seat_specs
from agents.llm.build_words import BUILD_NOTE, GROUP_NOTE, WORDED
from agents.llm.config import ConfigError, LLMSettings
from agents.llm.game_player import GameLLMPlayer, game_choice_schema, game_llm_player, prompt_for
from engine.core.dice import SeededDice
from engine.core.ruleset import get_ruleset

GAMES = ["fubar", "paganini", "vele"]
SECRET = "sk-test-SECRET-4242"


def settings(server: FakeOpenAIServer, **kw) -> LLMSettings:
    base = {"base_url": server.base_url, "api_key": SECRET, "model": "fake-model", "timeout_s": 2.0,
            "max_refusals": 1}
    base.update(kw)
    return LLMSettings(**base)


def pass_out_of_turn(body: dict) -> object | None:
    """The seats' out-of-turn asks (agents/llm/interjection.py) pass, leaving the script to the awaited seat;
    tests/test_game_llm_player_interject.py plays them."""
    schema = requested_schema(body) or {}
    return valid({"act": "pass", "why": "not now"}) if "act" in schema.get("properties", {}) else None


def llm_table(game: str, cfg: LLMSettings, server: FakeOpenAIServer | None = None) -> tuple[GameTable, dict]:
    specs = seat_specs(game, 4)
    seats = [(s, game_llm_player(game, s.name, s.role, cfg, seed=3, seat_index=i, scenes=2))
             for i, s in enumerate(specs)]
    shadow = {s.name: heuristic_seat(game, s.name, s.role, 3, i, 2) for i, s in enumerate(specs)}
    table = GameTable.new(get_ruleset(game), seats, {}, dice=SeededDice(3), premise="A heist in a floating city")
    if server is not None:
        server.aside = pass_out_of_turn
    return table, shadow


def advance_to_person(table: GameTable) -> str:
    """Let the dice roll until a seat must decide; that seat's name."""
    rs = table.ruleset
    for _ in range(50):
        pend = rs.pending(table.state)
        if not pend.dice:
            return pend.seats[0]
        table.step()
    raise AssertionError("the dice never stopped")


def shadow_answer(table: GameTable, shadow: dict, seat: str) -> tuple[dict, str]:
    d = shadow[seat].decide(table.observe(seat))
    data = d.action.model_dump(mode="json", exclude_none=True)
    data.pop("player", None)
    return data, f"because {d.rationale[:60]}"


def words_of(build: dict, **change: object) -> dict:
    """The words of a Vele build or group, as its LLM seat is asked for them (agents/llm/build_words.py), with
    `change`."""
    if build["type"] == "make_group":
        return {"group_name": build["name"], "leader_name": build["leader"]["name"],
                "member_names": [m["name"] for m in build.get("members", [])], **change}
    pc, story = build["pc"], build["story"]
    main = next(c for c in story if c["kind"] == "main")
    out = {"pc_name": pc["name"], "pc_traits": [t["name"] for t in pc["traits"]], "pc_aspects": pc.get("aspects", []),
           "main_name": main["name"], "main_traits": [t["name"] for t in main["traits"]],
           "main_aspects": main.get("aspects", []), "other_names": [c["name"] for c in story if c is not main]}
    out.update(change)
    return out


def named(words: dict, tag: str) -> dict:
    """`words` with every component's name made new (`tag` and its place), and short trait names."""
    out = dict(words)
    for key in ("pc_traits", "main_traits"):
        if key in out:
            out[key] = [f"{key[0]}{i} {t}"[:20] for i, t in enumerate(out[key])]
    for key in ("pc_name", "main_name", "group_name", "leader_name"):
        if key in out:
            out[key] = f"{tag} {key}"
    for key in ("other_names", "member_names"):
        if key in out:
            out[key] = [f"{tag} {key} {i}" for i in range(len(out[key]))]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_model_decisions_are_applied_with_their_why(fake_openai: FakeOpenAIServer, game: str) -> None:  # noqa: F811
    table, shadow = llm_table(game, settings(fake_openai), fake_openai)
    checked = 0
    while checked < 25 and not table.ruleset.is_over(table.state):
        seat = advance_to_person(table)
        data, why = shadow_answer(table, shadow, seat)
        # a Vele purchase is asked in words only (its numbers are the seat's own plan): new names of this seat's
        words = named(words_of(data, why=why), f"{seat} {len(table.records)}") if data["type"] in WORDED else None
        fake_openai.script(valid(words or {"action": data, "why": why}))
        table.step()
        rec = table.records[-1]
        assert rec.meta["decided_by"] == "llm", rec.meta
        note = (GROUP_NOTE if data["type"] == "make_group" else BUILD_NOTE) if words else ""
        assert rec.meta["rationale"] == (f"{why}; {note}" if words else why)
        if words:
            assert rec.action.get("name", rec.action.get("pc", {}).get("name")) == \
                words.get("group_name", words.get("pc_name"))
        assert rec.action["type"] == data["type"] and rec.action.get("player", seat) == seat
        assert rec.meta["tokens_in"] > 0
        checked += 1
    assert checked == 25
    assert fake_openai.violations == []
    # the table replays the log byte for byte
    again = GameTable.load(table.log_text())
    assert again.log_text() == table.log_text()


@pytest.mark.parametrize("game", GAMES)
def test_only_legal_action_types_are_offered(fake_openai: FakeOpenAIServer, game: str) -> None:  # noqa: F811
    table, shadow = llm_table(game, settings(fake_openai), fake_openai)
    seat = advance_to_person(table)
    legal = {o.type for o in table.observe(seat).options} - {"roll_dice"}
    data, why = shadow_answer(table, shadow, seat)
    fake_openai.script(valid({"action": data, "why": why}))
    table.step()
    body = fake_openai.chat_requests[-1]
    schema = body["tools"][0]["function"]["parameters"] if body.get("tools") else \
        body["response_format"]["json_schema"]["schema"]
    text = json.dumps(schema)
    offered = {t for t in get_ruleset(game).action_schema()["discriminator"]["mapping"] if f'"{t}"' in text}
    assert offered == legal
    assert "player" not in json.dumps(schema.get("properties", {}).get("action", {}).get("properties", {}))
    prompt = json.dumps(body["messages"])
    assert "A heist in a floating city" in prompt and seat in prompt


@pytest.mark.parametrize("game", GAMES)
def test_prose_twice_falls_back_to_the_heuristic_and_says_why(fake_openai: FakeOpenAIServer,  # noqa: F811
                                                              game: str) -> None:
    table, _ = llm_table(game, settings(fake_openai), fake_openai)
    advance_to_person(table)
    fake_openai.script(prose(), prose())
    table.step()
    meta = table.records[-1].meta
    assert meta["decided_by"] == "heuristic"
    assert "no structured output" in meta["fallback"]
    assert meta["rationale"].startswith("the heuristic decided (no structured output")
    assert len(fake_openai.chat_requests) == 2
    assert SECRET not in json.dumps(meta)


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_move_is_refused_with_the_rule_then_falls_back(fake_openai: FakeOpenAIServer,  # noqa: F811
                                                                  game: str, monkeypatch) -> None:
    # names the table refuses are mostly no longer offered (agents/llm/game_legal_now.py: FUBAR's Descriptors,
    # seats, Goals are enums); this test is about a refusal by the rules going back to the model, so the
    # schema offers every name here, as it did before
    monkeypatch.setattr("agents.llm.game_player.narrowing", lambda *args: ())
    table, shadow = llm_table(game, settings(fake_openai), fake_openai)
    for _ in range(40):  # play on (as the model) until a decision whose wrong names the rules refuse
        seat = advance_to_person(table)
        data, why = shadow_answer(table, shadow, seat)
        # every string of the move becomes a name nobody has: the schema takes it, the rules may not
        broken = {k: ("nobody-such" if isinstance(v, str) and k != "type" else v) for k, v in data.items()}
        try:
            table.ruleset.parse_action({**broken, "player": seat})
            well_formed = True
        except ValueError:
            well_formed = False
        if well_formed and table.observe(seat).check({**broken, "player": seat}) is not None:
            break
        fake_openai.script(valid({"action": data, "why": why}))
        table.step()
    else:
        raise AssertionError(f"{game}: no decision in 40 whose wrong names the rules refuse")
    asked = len(fake_openai.chat_requests)
    fake_openai.script(valid({"action": broken, "why": "wrong"}), valid({"action": broken, "why": "wrong"}))
    table.step()
    meta = table.records[-1].meta
    assert meta["decided_by"] == "heuristic" and meta["fallback"].startswith("refused 2 times")
    own = [body for body in fake_openai.chat_requests[asked:] if pass_out_of_turn(body) is None]  # not the asides
    retry = json.dumps(own[1]["messages"])
    assert "The rules refused that" in retry


def test_a_dead_endpoint_is_rested_and_the_game_goes_on(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    from fakeserver import http_error

    fake_openai.default = lambda body: http_error(503)
    table, _ = llm_table("fubar", settings(fake_openai, max_refusals=0))
    for _ in range(30):
        table.step()
    gm = table.seats["Gina"]
    assert isinstance(gm, GameLLMPlayer)
    players = [p for p in table.seats.values() if isinstance(p, GameLLMPlayer)]
    assert sum(p.stats.rested for p in players) > 0
    assert any(not p.status.with_model and "playing without its model" in p.status.message for p in players)
    assert all(r.meta.get("decided_by") in ("heuristic", "dice") for r in table.records)


def test_schema_narrows_a_literal_to_the_options_choices() -> None:
    """F-11/F-12: after a failed Goal only a Flaw or a Trademark removed; the option's choices become the enum."""
    schema = game_choice_schema("fubar", (("advance", ("flaw", "remove_trademark")),)).model_json_schema()

    def kinds(schema: dict) -> list[str]:
        node = schema["properties"]["action"]
        if "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
        return sorted(node["properties"]["kind"]["enum"])

    assert kinds(schema) == ["flaw", "remove_trademark"]
    assert "player" not in json.dumps(schema)
    whole = game_choice_schema("fubar", (("advance", ()),)).model_json_schema()
    assert "trademark" in kinds(whole) and "concept" in kinds(whole)


def test_prompts_exist_for_every_role() -> None:
    from prompts import render

    for game, role, view, name in [("fubar", "gm", {}, "g"), ("fubar", "player", {}, "p"),
                                   ("paganini", "gm", {}, "g"), ("paganini", "player", {}, "p"),
                                   ("vele", "player", {"narrator": "n"}, "n"), ("vele", "player", {"narrator": "x"}, "p")]:
        system, user = render(prompt_for(game, role, view, name), {"seat": name, "options": "- x"})
        assert "JSON" in system and name in user and "- x" in user


def test_no_endpoint_is_a_one_line_config_error(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="no LLM configured"):
        game_llm_player("fubar", "Gina", "gm")


@pytest.mark.parametrize("game", ["fubar", "paganini"])
def test_a_four_seat_all_llm_game_plays_to_its_end_and_replays_byte_for_byte(fake_openai: FakeOpenAIServer,  # noqa: F811
                                                                             game: str, tmp_path) -> None:
    """Issues 19 and 20, "done when", with LLM seats: an LLM GM and 3 LLM players (the fake model playing
    what a heuristic seat would) finish the scenario (Paganini: with a combat), every decision the model's,
    and the log on disk replays byte for byte."""
    cfg = settings(fake_openai)
    specs = seat_specs(game, 4)
    seats = [(s, game_llm_player(game, s.name, s.role, cfg, seed=5, seat_index=i, scenes=3)) for i, s in enumerate(specs)]
    shadow = {s.name: heuristic_seat(game, s.name, s.role, 5, i, 3) for i, s in enumerate(specs)}
    path = tmp_path / "game.jsonl"
    table = GameTable.new(get_ruleset(game), seats, {}, dice=SeededDice(5), log_path=path, premise="A heist")
    for _ in range(3000):
        if table.ruleset.is_over(table.state):
            break
        pend = table.ruleset.pending(table.state)
        if not pend.dice:
            data, why = shadow_answer(table, shadow, pend.seats[0])
            fake_openai.script(valid({"action": data, "why": why}))
        table.step()
    assert table.ruleset.is_over(table.state)
    decided = [r.meta["decided_by"] for r in table.records if r.meta.get("decided_by") != "dice"]
    assert decided and set(decided) == {"llm"}
    types = {r.action["type"] for r in table.records}
    assert ("end_scenario" in types) if game == "fubar" else ({"start_combat", "attack", "end_adventure"} <= types)
    text = path.read_text(encoding="utf-8")
    assert GameTable.load(text).log_text() == text == table.log_text()


def test_only_an_answer_with_nothing_to_choose_skips_the_model() -> None:
    from agents.llm.game_player import no_choice
    from engine.core.ruleset import Option

    assert no_choice("paganini", [Option("next_round")])
    assert not no_choice("paganini", [Option("next_round"), Option("end_combat")])
    assert not no_choice("fubar", [Option("keep_roll")])  # soak or not is a choice
    assert not no_choice("vele", [Option("spend_fate")])  # how much fate is a choice
