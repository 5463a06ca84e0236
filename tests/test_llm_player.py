"""LLMPlayer at a real Table, through the real openai client and ChatOpenAI, against the fake server.

Valid structured answers are applied; prose, invalid JSON, illegal actions, HTTP 500 and
timeouts end in a retry and then a recorded fallback to the heuristic, never a crash.
"""
from __future__ import annotations

import json
import logging
import re

import pytest
from fakeserver import (  # noqa: F401
    Behaviour,
    FakeOpenAIServer,
    delay,
    first_legal_option,
    fake_openai,
    http_error,
    invalid_json,
    prose,
    valid,
)

from agents.base import Decision
from agents.heuristic import HeuristicPlayer
from agents.llm.config import ConfigError, LLMSettings
from agents.llm.fake import ScriptedChatModel, tool_call
from agents.llm.player import LLMPlayer, prompt_name
from agents.table import Seat, Table
from engine.core.dice import SeededDice
from engine.universalis import actions as A
from engine.universalis import pending

SECRET = "sk-test-SECRET-4242"
TENET = {"action": {"type": "propose_tenet", "text": "Magic always costs a memory", "kind": "story"},
         "why": "a Tenet with teeth"}


def settings(server: FakeOpenAIServer, **kw) -> LLMSettings:
    base = {"base_url": server.base_url, "api_key": SECRET, "model": "fake-model", "timeout_s": 2.0,
            "max_refusals": 1}
    base.update(kw)
    return LLMSettings(**base)


def llm_table(cfg: LLMSettings, llm_names=("Ann",), names=("Ann", "Bo", "Cy"), log_path=None) -> Table:
    seats = []
    for i, n in enumerate(names):
        player = LLMPlayer(n, cfg, seed=1, seat_index=i) if n in llm_names else HeuristicPlayer(n, seed=1, seat_index=i)
        seats.append(Seat(n, player))
    return Table.new(seats, dice=SeededDice(3), log_path=log_path)


def run_until(table: Table, kind: str, player: str, max_steps: int = 2000) -> None:
    """Step until `player` is asked for a decision of `kind`."""
    for _ in range(max_steps):
        pend = pending(table.state)
        if pend.kind == kind and pend.players and pend.players[0] == player:
            return
        table.step()
    raise AssertionError(f"never reached {kind} for {player}")


def offered_types(body: dict) -> set[str]:
    """The action types the request offered (tool parameters or response_format schema)."""
    text = json.dumps(body.get("tools") or body.get("response_format") or {})
    return {t for t in A.ACTION_TYPES if f'"const": "{t}"' in text or f'"enum": ["{t}"]' in text}


# -- valid answers --------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["function_calling", "json_schema", "json_mode"])
def test_valid_structured_answer_is_applied(fake_openai: FakeOpenAIServer, method: str) -> None:  # noqa: F811
    """U-PREP-1: the model's Tenet is proposed, paid, and the log records who decided and at what cost."""
    table = llm_table(settings(fake_openai, structured_method=method))
    fake_openai.script(valid(TENET))
    result = table.step()
    assert result.acted and result.player == "Ann"
    assert [t.text for t in table.state.tenets] == ["Magic always costs a memory"]
    assert table.state.player("Ann").wealth == 24
    meta = table.records[-1].meta
    assert meta["decided_by"] == "llm" and meta["fallback"] is None and meta["retries"] == 0
    assert meta["tokens_in"] == fake_openai.usages[0]["prompt_tokens"] > 0
    assert meta["tokens_out"] == fake_openai.usages[0]["completion_tokens"] > 0
    assert meta["rationale"] == "a Tenet with teeth"


def test_only_legal_action_types_are_offered(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    table = llm_table(settings(fake_openai))
    fake_openai.script(valid(TENET))
    table.step()
    assert offered_types(fake_openai.chat_requests[0]) == {"propose_tenet", "create_component", "add_trait",
                                                           "pass_prep"}
    prompt = json.dumps(fake_openai.chat_requests[0]["messages"])
    assert "U-PREP-1" in prompt and "preparation" in prompt  # the prep prompt file with its rules digest


def test_bid_prompt_and_schema(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    """U-BID-1: the bid prompt carries its rules digest; a lone option may leave out `type`."""
    def answer(body: dict) -> Behaviour:
        if offered_types(body) == {"bid"}:
            return valid({"action": {"amount": 4}})
        return valid({"action": {"type": "pass_prep"}})

    fake_openai.default = answer
    table = llm_table(settings(fake_openai), llm_names=("Bo",))
    table.run(stop=lambda t: any(r.action["type"] == "bid" and r.action["player"] == "Bo" for r in t.records),
              max_steps=50)
    body = fake_openai.chat_requests[-1]
    assert offered_types(body) == {"bid"}
    assert "U-BID-1" in json.dumps(body["messages"])
    bid = [r for r in table.records if r.action["type"] == "bid" and r.action["player"] == "Bo"][-1]
    assert bid.action["amount"] == 4 and bid.meta["decided_by"] == "llm"


# -- misbehaviour: retry, then a recorded fallback ------------------------------------------------
BAD = {
    "prose": lambda: prose("I would like to propose something about magic."),
    "invalid_json": lambda: invalid_json('{"action": {"type": "propose_tenet", "text": '),
    # legal in shape (no component exists yet, so the schema cannot list one), refused by the rules
    "illegal": lambda: valid({"action": {"type": "add_trait", "component": "c99", "text": "brave"}}),
    "http_500": lambda: http_error(500),
    "timeout": lambda: delay(1.5),
}


@pytest.mark.parametrize("bad", sorted(BAD))
def test_misbehaviour_then_good_answer_is_a_retry(fake_openai: FakeOpenAIServer, bad: str) -> None:  # noqa: F811
    table = llm_table(settings(fake_openai, timeout_s=0.4))
    fake_openai.script(BAD[bad](), valid(TENET))
    table.step()
    meta = table.records[-1].meta
    assert meta["decided_by"] == "llm" and meta["retries"] == 1 and meta["fallback"] is None
    assert [t.text for t in table.state.tenets] == ["Magic always costs a memory"]
    assert len(fake_openai.chat_requests) == 2


@pytest.mark.parametrize("bad,reason", [("prose", "prose"), ("invalid_json", "invalid JSON"),
                                        ("illegal", "refused 2 times"), ("http_500", "HTTP 500"),
                                        ("timeout", "timeout")])
def test_misbehaviour_twice_falls_back_to_heuristic(fake_openai: FakeOpenAIServer, bad: str,  # noqa: F811
                                                   reason: str) -> None:
    table = llm_table(settings(fake_openai, timeout_s=0.4))
    fake_openai.script(BAD[bad](), BAD[bad]())
    result = table.step()
    assert result.acted and result.player == "Ann"
    meta = table.records[-1].meta
    assert meta["decided_by"] == "heuristic" and reason in meta["fallback"]
    assert meta["retries"] == 1
    assert table.records[-1].action["type"] in ("propose_tenet", "create_component", "pass_prep")
    player = table.seats["Ann"].player
    assert player.stats.fallbacks == 1 and player.stats.accepted == 0


def test_refusal_message_goes_back_to_the_model(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    table = llm_table(settings(fake_openai))
    fake_openai.script(BAD["illegal"](), valid(TENET))
    table.step()
    retry_prompt = json.dumps(fake_openai.chat_requests[1]["messages"])
    assert "The rules refused that" in retry_prompt and "c99" in retry_prompt and "U-ACT-5" in retry_prompt


def test_a_failing_endpoint_is_rested(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    """After 3 decisions lost to transport errors the seat stops calling for a while; the game goes on."""
    fake_openai.default = lambda body: http_error(503)
    table = llm_table(settings(fake_openai, max_refusals=0))
    table.run(stop=lambda t: t.seats["Ann"].player.stats.decisions >= 10, max_steps=400)
    stats = table.seats["Ann"].player.stats
    assert stats.model_decisions == 3 and len(fake_openai.chat_requests) == 3
    assert stats.rested == stats.decisions - stats.skipped - 3 > 0
    rested = [r.meta for r in table.records if "rests" in str(r.meta.get("fallback"))]
    assert rested and all(m["decided_by"] == "heuristic" for m in rested)


def test_a_slow_server_that_answered_is_not_rested(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    """Timeouts right after answers are a busy CPU, not a dead endpoint: the seat keeps asking.

    (SLOW_GRACE: a timeout within 4 decisions of an answer does not count towards the rest.)
    """
    calls = [0]

    def first_answers_then_slow(body: dict) -> object:
        calls[0] += 1
        return first_legal_option(body) if calls[0] == 1 else delay(0.6)

    fake_openai.default = first_answers_then_slow
    table = llm_table(settings(fake_openai, max_refusals=0, timeout_s=0.3))
    table.run(stop=lambda t: t.seats["Ann"].player.stats.model_decisions >= 5, max_steps=400)
    stats = table.seats["Ann"].player.stats
    assert stats.by_model == 1 and stats.rested == 0 and stats.model_decisions == 5
    assert table.seats["Ann"].player.status.with_model
    # a sixth timeout is past the grace: three more in a row rest the model as for a dead endpoint
    table.run(stop=lambda t: t.seats["Ann"].player.stats.rested >= 1, max_steps=400)
    assert stats.model_decisions == 5 + 3 and not table.seats["Ann"].player.status.with_model


def test_no_configuration_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        LLMPlayer("Ann", LLMSettings())


# -- reaction windows --------------------------------------------------------------------------------
def _table_with_human(chat: ScriptedChatModel) -> Table:
    ann = LLMPlayer("Ann", LLMSettings(base_url="http://127.0.0.1:9/v1"), chat_model=chat)
    return Table.new([Seat("Ann", ann), Seat("Bo", None)], dice=SeededDice(1))


def _to_scene(table: Table) -> None:
    """Ann makes a Knight in preparation; Bo wins the bid and frames a tavern."""
    table.submit(A.CreateComponent(player="Ann", role="Knight"))
    table.submit(A.Pass(player="Bo"))
    table.submit(A.PassPrep(player="Bo"))
    table.submit(A.PassPrep(player="Ann"))
    assert table.state.phase == "bidding"
    table.submit(A.Bid(player="Ann", amount=0))
    table.submit(A.Bid(player="Bo", amount=3))
    table.submit(A.EstablishLocation(player="Bo", new_role="Tavern"))
    while pending(table.state).kind == "reaction":
        table.submit(A.Pass(player="Ann"))


def test_reaction_that_does_not_concern_the_player_costs_no_call() -> None:
    chat = ScriptedChatModel(script=[])  # any call would raise ScriptExhausted
    table = _table_with_human(chat)
    table.submit(A.PassPrep(player="Ann"))
    table.submit(A.ProposeTenet(player="Bo", text="It always rains", kind="story"))
    obs = table.observe("Ann")
    assert obs.pending.kind == "reaction"
    decision = table.seats["Ann"].player.decide(obs)
    assert decision.action.type == "pass" and decision.kind == "llm" and decision.fallback is None
    assert chat.calls == [] and decision.tokens_in == 0


def test_reaction_touching_own_component_asks_the_model() -> None:
    chat = ScriptedChatModel(script=[tool_call("Choice", {"action": {"type": "take_over", "component": "c1"},
                                                          "why": "my knight"})])
    table = _table_with_human(chat)
    _to_scene(table)
    knight = next(c for c in table.state.components.values() if c.kind == "character")
    table.submit(A.IntroduceComponent(player="Bo", component=knight.id))
    obs = table.observe("Ann")
    assert obs.pending.kind == "reaction"
    player = table.seats["Ann"].player
    decision = player.decide(obs)
    assert len(chat.calls) == 1
    assert "Knight" in chat.calls[0][-1].content  # the prompt says why Ann was asked
    assert decision.kind == "llm" and decision.action.type == "take_over" and decision.action.player == "Ann"


def test_prompt_files_per_decision_kind() -> None:
    chat = ScriptedChatModel(script=[])
    table = _table_with_human(chat)
    player = table.seats["Ann"].player
    assert prompt_name(table.observe("Ann")) == "prep_turn"
    _to_scene(table)
    obs = table.observe("Bo")
    assert prompt_name(obs) == "turn_framing"
    text = player.messages(obs)[1].content
    assert "Tavern" in text and "establish_location" not in text.split("Legal actions")[0][-5:]
    assert "Relevant Facts" in text


# -- the key ------------------------------------------------------------------------------------------
def test_api_key_never_reaches_logs_saves_or_exports(fake_openai: FakeOpenAIServer, tmp_path,  # noqa: F811
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    log_path = tmp_path / "game.jsonl"
    table = llm_table(settings(fake_openai), log_path=log_path)
    fake_openai.script(http_error(401, f"Incorrect API key provided: {SECRET}"), valid(TENET))
    for _ in range(30):
        table.step()
    assert fake_openai.requests[0].authorization == f"Bearer {SECRET}"  # it was used ...
    player = table.seats["Ann"].player
    texts = [log_path.read_text(), table.log_text(), json.dumps(table.decisions), repr(player),
             json.dumps(player.stats.summary()), json.dumps(table.header), caplog.text,
             json.dumps(player.settings.public_dict())]
    for text in texts:  # ... and written nowhere
        assert SECRET not in text
    assert any("***" in str(r.meta.get("fallback")) for r in table.records)


# -- a whole short game -------------------------------------------------------------------------------
def sensible_model(table_box: dict, server: FakeOpenAIServer):
    """A fake model that mostly answers like the heuristic would, with regular misbehaviour:
    prose, broken JSON, a minimal (often illegal) instance of the schema, HTTP 500."""
    from fakeserver import first_legal_option

    def answer(body: dict) -> Behaviour:
        n = len(server.chat_requests)
        if n % 7 == 3:
            return prose()
        if n % 11 == 5:
            return invalid_json()
        if n % 13 == 8:
            return first_legal_option(body)
        if n % 17 == 9:
            return http_error(500)
        table = table_box["table"]
        name = pending(table.state).players[0]
        decision = table.seats[name].player.heuristic.decide(table.observe(name))
        data = decision.action.model_dump(mode="json")
        data.pop("player")
        return valid({"action": data, "why": decision.rationale})

    return answer


def test_short_game_with_llm_seats_finishes(fake_openai: FakeOpenAIServer, tmp_path) -> None:  # noqa: F811
    """Three LLM seats against a fake model that misbehaves regularly: the first scene ends,
    every misbehaviour is retried or falls back, and the log replays to the same state."""
    box: dict = {}
    fake_openai.default = sensible_model(box, fake_openai)
    log_path = tmp_path / "game.jsonl"
    table = llm_table(settings(fake_openai, max_refusals=1), llm_names=("Ann", "Bo", "Cy"), log_path=log_path)
    box["table"] = table
    table.run(stop=lambda t: t.state.scenes_ended >= 1, max_steps=600)
    assert table.state.scenes_ended >= 1
    kinds = {r.meta.get("decided_by") for r in table.records}
    assert "llm" in kinds and kinds <= {"llm", "heuristic", "dice"}
    stats = [table.seats[n].player.stats for n in ("Ann", "Bo", "Cy")]
    assert sum(s.skipped for s in stats) > 0  # reaction windows passed without calls
    assert sum(s.retries for s in stats) > 0
    attempts = sum(s.model_decisions + s.retries for s in stats)
    assert attempts == len(fake_openai.chat_requests)
    again = Table.load(log_path.read_text())
    assert again.state.model_dump() == table.state.model_dump()


def test_decision_meta_shape() -> None:
    d = Decision(action=A.Pass(player="Ann"), kind="llm", tokens_in=5, tokens_out=2, retries=1)
    assert d.meta()["tokens_in"] == 5 and d.meta()["retries"] == 1


def test_a_model_that_never_ends_its_turn_cannot_stall_the_game() -> None:
    """Free actions forever (speak, say): after a cap of actions in one turn the heuristic decides."""
    import dataclasses

    chat = ScriptedChatModel(script=[])  # the model must not be asked
    table = _table_with_human(chat)
    for name in ("Ann", "Bo"):
        table.submit(A.PassPrep(player=name))
    table.submit(A.Bid(player="Ann", amount=3))
    table.submit(A.Bid(player="Bo", amount=0))
    obs = table.observe("Ann")
    assert obs.pending.kind == "turn"
    ann = table.seats["Ann"].player
    decision = ann.decide(dataclasses.replace(obs, turn_actions=30))
    assert chat.calls == [] and decision.kind == "heuristic"
    assert "30 actions this turn" in decision.fallback
    assert table.check(decision.action) is None


def test_a_broken_prompt_falls_back_instead_of_crashing(monkeypatch: pytest.MonkeyPatch) -> None:
    import prompts

    def missing(name, values):
        raise FileNotFoundError("no prompt file prep_turn.md")

    monkeypatch.setattr(prompts, "render", missing)
    chat = ScriptedChatModel(script=[])
    table = _table_with_human(chat)
    decision = table.seats["Ann"].player.decide(table.observe("Ann"))
    assert chat.calls == [] and "could not build the prompt" in decision.fallback
    assert table.check(decision.action) is None


def test_models_that_only_end_their_turns_cannot_freeze_a_scene() -> None:
    """Ending every turn is legal; the framer's seat hands a stalled scene to the heuristic."""
    simple = {"pass_prep": {}, "pass": {}, "end_turn": {}, "bid": {"amount": 1}, "end_narration": {},
              "challenge_pass": {}, "answer_resolution": {"agree": True}, "fine_vote": {"fine": False},
              "fact_vote": {"applies": True}, "concede_challenge": {}, "answer_dialog": {"accept": True}}

    def idle(messages):
        offered = re.findall(r"^- ([a-z_]+): ", messages[-1].content.split("Legal actions")[-1], re.M)
        kind = next((k for k in simple if k in offered), offered[0])
        return tool_call("Choice", {"action": {"type": kind, **simple.get(kind, {})}})

    players = [LLMPlayer(n, LLMSettings(base_url="http://127.0.0.1:9/v1"), seat_index=i,
                         chat_model=ScriptedChatModel(script=[idle] * 1000)) for i, n in enumerate(("Ann", "Bo"))]
    table = Table.new([Seat(p.name, p) for p in players], dice=SeededDice(2))
    table.run(stop=lambda t: t.state.scenes_ended >= 1, max_steps=400)
    assert table.state.scenes_ended >= 1
    stalls = [r for r in table.records if "stalls" in str(r.meta.get("fallback"))]
    assert stalls and all(r.meta["decided_by"] == "heuristic" for r in stalls)


def test_redaction_masks_keys_and_leaves_other_text_alone() -> None:
    from agents.llm.decider import redact

    assert redact("bad key sk-proj-abcdef123456 given", ()) == "bad key sk-pr*** given"
    assert redact("Bearer abcdefghijk", ()) == "Bearer ab***"
    assert redact("my-own-secret-key here", ("my-own-secret-key",)) == "*** here"
    assert redact("model error: IndexError", ("",)) == "model error: IndexError"
