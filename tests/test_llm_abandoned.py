"""A request its client gave up on stops generating (eval/llama_server.py, issue 27 idea 4).

The stock llama-cpp-python server went on generating for a client that had closed the
connection at its deadline, and the next decision queued behind it. These tests drive the ASGI
middleware with a scripted connection and a generator standing in for llama.cpp's, in the same
thread hand-off the server uses (starlette's run_in_threadpool), so no model is needed.
"""
from __future__ import annotations

import asyncio
import time

import pytest

llama_server = pytest.importorskip(
    "eval.llama_server", reason="llama-cpp-python (the local-model extra) is not installed: "
                                "eval/llama_server.py imports it")
from starlette.concurrency import run_in_threadpool  # noqa: E402

ABANDONED = llama_server.ABANDONED


def _tokens(produced: list[int], gone_seen: list[bool]):
    """A stand-in for Llama.generate: a token every 10 ms, for up to 2 s."""
    def generate(self, *args, **kwargs):
        for i in range(200):
            time.sleep(0.01)
            produced.append(i)
            yield i
    return llama_server.stop_when_abandoned(generate)


def _connection(disconnect_after_s: float | None):
    """An ASGI receive: the body in one message, then (maybe) the client closing the connection."""
    sent = {"body": False}

    async def receive():
        if not sent["body"]:
            sent["body"] = True
            return {"type": "http.request", "body": b"{}", "more_body": False}
        if disconnect_after_s is None:
            await asyncio.sleep(3600)
        await asyncio.sleep(disconnect_after_s)
        return {"type": "http.disconnect"}
    return receive


def _serve(disconnect_after_s: float | None) -> tuple[list[int], list[dict]]:
    produced: list[int] = []
    generate = _tokens(produced, [])
    messages: list[dict] = []

    async def app(scope, receive, send):
        await receive()  # the request body, as the server reads it

        def run() -> list[int]:
            return list(generate(None))
        out = await run_in_threadpool(run)
        await send({"type": "http.response.body", "body": str(len(out)).encode()})

    async def send(message):
        messages.append(message)

    async def main():
        wrapped = llama_server.StopWhenAbandoned(app)
        await wrapped({"type": "http", "path": "/v1/chat/completions", "method": "POST"},
                      _connection(disconnect_after_s), send)
    asyncio.run(main())
    return produced, messages


def test_generation_stops_soon_after_the_client_goes() -> None:
    produced, _ = _serve(disconnect_after_s=0.3)
    assert 10 <= len(produced) < 100, len(produced)  # stopped at the next token, not after 200


def test_a_client_that_stays_gets_the_whole_answer() -> None:
    produced, messages = _serve(disconnect_after_s=None)
    assert len(produced) == 200 and messages[-1]["body"] == b"200"


def test_other_paths_and_threads_without_a_request_are_untouched() -> None:
    """Outside a chat request (no flag in the context) the generator runs to its end."""
    produced: list[int] = []
    assert ABANDONED.get() is None
    assert len(list(_tokens(produced, [])(None))) == 200

    seen: list[object] = []

    async def app(scope, receive, send):
        seen.append(ABANDONED.get())

    asyncio.run(llama_server.StopWhenAbandoned(app)({"type": "http", "path": "/v1/models"}, None, None))
    assert seen == [None]
