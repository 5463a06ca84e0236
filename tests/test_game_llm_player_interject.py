"""An LLM seat acts out of turn like a heuristic one (agents/game_loop.Interjector, agents/llm/interjection.py):
while the narrator weighs a struggle aimed at its PC, the seat is asked once, in a flat "act now or pass"
schema, whether to challenge the claim (V-1; L163, L165). Any failure is a pass, counted in its stats; the
model is not asked when nothing concerns the seat, nor twice at the same moment."""
from __future__ import annotations

import json

from agents.game_loop import GameTable
from agents.llm.config import LLMSettings
from agents.llm.fake import ScriptedChatModel, text_message, tool_call
from agents.llm.game_player import GameLLMPlayer
from engine.core.dice import ScriptedDice
from engine.core.ruleset import get_ruleset, header_for
from tests.test_vele_out_of_turn import _beaten_again as beaten_again
from tests.vele_helpers import SEATS, in_scene


def _beaten_again():
    """Ann (narrating) beat Ben's PC this scene and strikes it again: the table waits for her difficulty."""
    return beaten_again(in_scene())


def table_with(state, seat: str, script: list, instinct: float = 0.99) -> tuple[GameTable, GameLLMPlayer,
                                                                               ScriptedChatModel]:
    """`seat` an LLM seat on a scripted model; every other seat a person's (so only it may interject)."""
    rs = get_ruleset("vele")
    chat = ScriptedChatModel(script=script)
    llm = GameLLMPlayer("vele", seat, "player", LLMSettings(base_url="http://127.0.0.1:9/v1", max_refusals=1),
                        chat_model=chat, seed=1, seat_index=SEATS.index(seat))
    llm.heuristic.rng.random = lambda: instinct  # type: ignore[attr-defined]  # 0.99: its instinct leaves it be
    seats = {n: (llm if n == seat else None) for n in SEATS}
    header = json.loads(header_for(rs, state, "g-llm-oot"))
    return GameTable(rs, state, header, seats, ScriptedDice([])), llm, chat  # type: ignore[arg-type]


def test_V_1_an_llm_seat_challenges_out_of_turn_a_struggle_aimed_at_its_pc():
    """V-1 (L163, L165): the struggle is aimed at Ben's PC, so the model is asked once whether to act; it
    challenges with its reason, which goes through `apply` and the log (out_of_turn, decided by the model)."""
    table, llm, chat = table_with(_beaten_again(), "Ben", [
        tool_call("Interjection", {"act": "challenge", "text": "my hero is down already; this piles on",
                                   "why": "striking a beaten PC again is unfair"})])
    assert llm.interject_on >= {"challenge"} and "difficulty" in llm.interject_when
    assert table.interjection(table.ruleset.pending(table.state)) is True
    rec = table.records[-1]
    assert rec.action == {"type": "challenge", "player": "Ben", "reason": "my hero is down already; this piles on"}
    assert rec.meta["out_of_turn"] is True and rec.meta["decided_by"] == "llm"
    assert rec.meta["rationale"] == "striking a beaten PC again is unfair"
    assert table.state.phase == "vote" and len(chat.calls) == 1
    prompt = " ".join(str(m.content) for m in chat.calls[0])
    assert "out of turn" in prompt and "- pass:" in prompt and "- challenge:" in prompt
    assert llm.stats.by_kind["interject"] == [1, 1] and llm.stats.model_decisions == 1


def test_an_llm_seat_that_passes_is_asked_once_per_moment():
    """The model passes: nothing is logged, and the table asking again at the same moment (as it does while it
    waits for a person) makes no second call."""
    table, llm, chat = table_with(_beaten_again(), "Ben", [tool_call("Interjection", {"act": "pass", "why": "fair"})])
    pend = table.ruleset.pending(table.state)
    assert table.interjection(pend) is False and table.interjection(pend) is False
    assert table.records == [] and len(chat.calls) == 1
    assert llm.stats.by_kind["interject"] == [1, 1] and llm.stats.fallbacks == 0


def test_a_failing_model_is_a_pass_counted_as_a_fallback():
    """Prose twice (no structured answer): the seat passes, no heuristic acts in its name, the stats say why."""
    table, llm, chat = table_with(_beaten_again(), "Ben", [text_message("I object!"), text_message("Really.")])
    assert table.interjection(table.ruleset.pending(table.state)) is False
    assert table.records == [] and len(chat.calls) == 2
    assert llm.stats.fallbacks == 1 and llm.stats.by_kind["interject"] == [1, 0]


def test_no_model_call_when_nothing_concerns_the_seat():
    """Cy's component is not the target and its heuristic would not act: it passes without a call."""
    table, llm, chat = table_with(_beaten_again(), "Cy", [])
    assert table.interjection(table.ruleset.pending(table.state)) is False
    assert chat.calls == [] and llm.stats.skipped == 1


def test_a_seat_of_a_game_without_interjections_is_never_asked():
    """FUBAR's heuristic seats do not act out of turn, so neither do its LLM seats (nothing is watched)."""
    llm = GameLLMPlayer("fubar", "Gina", "gm", LLMSettings(base_url="http://127.0.0.1:9/v1"),
                        chat_model=ScriptedChatModel(script=[]))
    assert llm.interject_on == frozenset() and llm.interject_when == frozenset()


def test_V_41_an_llm_seat_asks_for_the_counter_struggle_its_heuristic_proposes_in_its_own_words():
    """V-41 (L441): Ben's hero fails to cross Ann's bridge; the game waits for Cy. Ann's seat (its heuristic would
    strike back) is asked once; the model takes the counter-struggle: the thing comes from the heuristic's
    proposal (a model cannot name it), the words from the model; the table then votes."""
    from tests.test_vele_terrain import _ben_fails_on_the_bridge, bridge_scene
    s, bridge, ben, cy = bridge_scene()
    s = _ben_fails_on_the_bridge(s, ben, bridge)
    table, llm, chat = table_with(s, "Ann", [tool_call("Interjection", {
        "act": "counter_struggle", "text": "the rotten planks snap", "why": "he failed on my bridge"})], instinct=0.0)
    assert table.ruleset.pending(table.state).seats == ("Cy",)
    assert table.interjection(table.ruleset.pending(table.state)) is True
    rec = table.records[-1]
    assert rec.action == {"type": "counter_struggle", "player": "Ann", "thing": bridge.id,
                          "text": "the rotten planks snap"}
    assert rec.meta["out_of_turn"] is True and rec.meta["decided_by"] == "llm" and table.state.phase == "vote"
    prompt = " ".join(str(m.content) for m in chat.calls[0])
    assert "your instinct is to act" in prompt and "- counter_struggle:" in prompt
