"""Lean prompts (issue 23): at most 2,000 tokens per decision, schemas included, at 300 Facts.

Measured at the endpoint: the strict fake server keeps every request body it received; the
size of each (characters / 4, the issue's own measure) must stay under the budget, and the eval
figures (`sent_tokens_per_decision`) must agree with what the server saw. The game is a long
heuristic game (past 300 Facts) whose seats then become LLM seats answering with random legal
branches of the schema they were sent, so every decision kind of a scene is reached.
"""
from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest
from fakeserver import FakeOpenAIServer, fake_openai, requested_schema, valid  # noqa: F401

from agents.llm.config import LLMSettings
from agents.llm.player import LLMPlayer
from agents.simulation import simulate_game
from app.commands.eval_run import model_lines
from eval.ai import random_instance
from eval.decisions import DecisionLog

BUDGET_TOKENS = 2000  # issue 23
FACTS = 300


@pytest.fixture(scope="module")
def long_game():
    """A heuristic game played until it holds 300 Facts (about 5,000 actions, engine speed)."""
    result = simulate_game(seats=3, scenes=60, seed=1, max_steps=1)
    table = result.table
    for _ in range(30_000):
        if len(table.state.facts) >= FACTS:
            break
        table.step()
    assert len(table.state.facts) >= FACTS, "the heuristic game did not reach 300 Facts"
    return table


def _body_tokens(body: dict) -> int:
    return len(json.dumps(body)) // 4


def test_every_request_at_300_facts_fits_2000_tokens(long_game, fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    table = long_game
    rng = random.Random(5)

    def varied(body: dict):
        schema = requested_schema(body)
        return valid(random_instance(schema, schema, rng))

    fake_openai.default = varied
    cfg = LLMSettings(base_url=fake_openai.base_url, api_key="sk-test-lean", model="fake-model", timeout_s=5.0,
                      max_refusals=1)
    log = DecisionLog()
    for i, (name, seat) in enumerate(table.seats.items()):
        seat.player = LLMPlayer(name, cfg, seed=1, seat_index=i)
        log.watch(seat.player)
    for _ in range(300):
        if len(fake_openai.chat_requests) >= 40:
            break
        table.step()
    bodies = fake_openai.chat_requests
    assert len(bodies) >= 40, f"only {len(bodies)} model requests"
    assert len(table.state.facts) >= FACTS
    by_kind: dict[str, list[int]] = defaultdict(list)
    for body in bodies:
        by_kind[body["messages"][-1]["content"].split("\n", 1)[0]].append(_body_tokens(body))
    sizes = {k: max(v) for k, v in by_kind.items()}
    assert len(sizes) >= 3, sizes  # several decision kinds, not one repeated
    assert max(sizes.values()) <= BUDGET_TOKENS, sizes
    # the eval's own figure counts the same requests (without the body's JSON punctuation)
    summary = log.summary()
    seen = sum(_body_tokens(b) for b in bodies)
    counted = sum(r.sent_tokens for r in log.rows)
    assert 0.75 * seen <= counted <= seen, (counted, seen)
    # per request within the budget; a decision with a retry sends twice (max_refusals=1 here)
    assert 0 < summary["largest_request_tokens"] <= BUDGET_TOKENS
    assert summary["largest_request_tokens"] <= summary["sent_tokens_max"] <= 2 * BUDGET_TOKENS
    text = "\n".join(model_lines(summary))
    assert f"largest single request {summary['largest_request_tokens']}" in text and "sent per decision" in text
