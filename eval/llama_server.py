"""`python -m eval.llama_server ARGS`: llama-cpp-python's server, plus a Gemma format that keeps
the system prompt, and generation that stops when the client has gone.

Why: llama-cpp-python's "gemma" chat format drops every system message (Gemma has no system
role), so a seat served that way never sees the rules and the answer format in the system
prompt. Gemma's own template puts the system text at the start of the first user turn;
"gemma-system" does the same, then formats as "gemma".

Why the rest: the stock server notices a client that closed the connection only for streamed
answers. A seat that gives up on a request at its decision deadline closes the connection,
but the server went on generating up to max_tokens for nobody, and the next decision's request
queued behind it (on a loaded 2-core machine one such request ran 50 s past its client's
24 s). `StopWhenAbandoned` watches each chat request's connection and `generate` stops at the
next token once it has closed. (A prompt still being evaluated is finished first: llama.cpp
evaluates it in one call.)
"""
from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any, Awaitable, Callable, Iterator

from llama_cpp import llama_chat_format as formats

from agents.llm.local import fold_system

__all__ = ["ABANDONED", "StopWhenAbandoned", "fold_system", "format_gemma_system", "stop_when_abandoned"]

# the current request's "client has gone" flag; copied into the worker thread that generates
ABANDONED: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar("abandoned", default=None)

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


@formats.register_chat_format("gemma-system")
def format_gemma_system(messages: list[Any], **kwargs: Any) -> Any:
    return formats.format_gemma(fold_system(messages), **kwargs)


class StopWhenAbandoned:
    """ASGI middleware: each chat completion request gets a flag that is set when its client goes.

    Once the request body has been read, a watcher waits for the server's next message on that
    connection, which is `http.disconnect` when the client closes it (or when the answer has
    been sent). The app itself is told of a disconnect through the same watcher, so the
    connection is read by one reader only.
    """

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope.get("type") != "http" or not str(scope.get("path", "")).endswith("/chat/completions"):
            await self.app(scope, receive, send)
            return
        gone = threading.Event()
        closed = asyncio.Event()
        state: dict[str, Any] = {"body_done": False, "watcher": None}

        async def watch() -> None:
            message = await receive()
            if message.get("type") == "http.disconnect":
                gone.set()
                closed.set()

        async def app_receive() -> dict[str, Any]:
            if not state["body_done"]:
                message = await receive()
                if message.get("type") == "http.disconnect":
                    gone.set()
                    closed.set()
                elif not message.get("more_body", False):
                    state["body_done"] = True
                    state["watcher"] = asyncio.ensure_future(watch())
                return message
            await closed.wait()
            return {"type": "http.disconnect"}

        token = ABANDONED.set(gone)
        try:
            await self.app(scope, app_receive, send)
        finally:
            ABANDONED.reset(token)
            if state["watcher"] is not None:
                state["watcher"].cancel()


def stop_when_abandoned(generate: Callable[..., Iterator[int]]) -> Callable[..., Iterator[int]]:
    """`Llama.generate`, ending at the next token once the current request's client has gone."""

    def generate_for_a_listener(self: Any, *args: Any, **kwargs: Any) -> Iterator[int]:
        gone = ABANDONED.get()
        for token in generate(self, *args, **kwargs):
            if gone is not None and gone.is_set():
                return
            yield token

    return generate_for_a_listener


def main() -> None:
    """The stock server's command line, with the two additions above."""
    import llama_cpp
    from llama_cpp.server import __main__ as stock

    llama_cpp.Llama.generate = stop_when_abandoned(llama_cpp.Llama.generate)  # type: ignore[method-assign]
    create_app = stock.create_app
    stock.create_app = lambda **kw: StopWhenAbandoned(create_app(**kw))  # type: ignore[assignment]
    stock.main()


if __name__ == "__main__":
    main()
