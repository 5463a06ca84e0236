"""A fake OpenAI-compatible HTTP server for tests, bound to 127.0.0.1 only.

Why: the LLM machinery must be exercised through the real `openai` client and
`langchain-openai` (request shapes, headers, timeouts, error mapping), without
internet and without a real model. Tests queue behaviours (`valid`, `prose`,
`invalid_json`, `http_error`, `delay`); when the queue is empty a default
callable computes the answer from the request (by default: the first legal
option of the requested schema).

It mimics OpenAI validations that bite real clients: an assistant message
with `tool_calls` must be followed by a `tool` message for each call id,
`response_format: json_object` needs the word "json" in the messages, and a
strict `json_schema` may not use `oneOf` or leave objects open.

Use the `fake_openai` fixture (import it into a test module or conftest):

    from fakeserver import fake_openai, valid, prose  # noqa: F401
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import socket
import struct
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Annotated, Any, Callable, Iterator, Literal, Union

import pytest
from pydantic import BaseModel, Field

__all__ = [
    "Behaviour",
    "Bid",
    "Choice",
    "NarrateEvent",
    "Pass",
    "FakeOpenAIServer",
    "Recorded",
    "delay",
    "example_for_schema",
    "fake_openai",
    "first_legal_option",
    "hash_embedding",
    "http_error",
    "invalid_json",
    "prose",
    "valid",
]

MAX_DELAY_S = 5.0  # a delayed answer never holds a thread longer than this
MAX_LIFETIME_S = 120.0  # the server shuts itself down after this, fixture or not
EMBEDDING_DIM = 16


@dataclass(frozen=True)
class Behaviour:
    """One scripted reaction to one chat-completions request."""

    kind: str  # "valid" | "prose" | "invalid_json" | "http_error" | "delay"
    payload: Any = None
    status: int = 200
    seconds: float = 0.0
    then: "Behaviour | None" = None


def valid(obj: dict[str, Any]) -> Behaviour:
    """Answer `obj` as tool-call arguments or JSON content, as the request asked."""
    return Behaviour("valid", payload=obj)


def prose(text: str = "I think I would rather describe the scene in words.") -> Behaviour:
    """Answer plain text content, no tool call (what small local models often do)."""
    return Behaviour("prose", payload=text)


def invalid_json(text: str = '{"type": "bid", "amount": ') -> Behaviour:
    """Answer broken JSON, as tool-call arguments when tools were sent."""
    return Behaviour("invalid_json", payload=text)


def http_error(status: int = 500, message: str = "The server had an error.") -> Behaviour:
    """Answer an OpenAI-style error body with this HTTP status."""
    return Behaviour("http_error", payload=message, status=status)


def delay(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """Sleep (bounded by MAX_DELAY_S) before answering `then` (default: the default)."""
    return Behaviour("delay", seconds=seconds, then=then)


# ------------------------------------------------------------ sample schemas
# Small action models shaped like the engine's (flat, discriminated on `type`),
# so LLM tests need no dependency on `engine/`.


class Bid(BaseModel):
    """Bid coins for the right to frame the next scene."""

    type: Literal["bid"] = "bid"
    amount: int = Field(ge=0, le=10)


class NarrateEvent(BaseModel):
    """Narrate an event between two components."""

    type: Literal["narrate_event"] = "narrate_event"
    text: str = Field(min_length=1)
    performer: str
    receiver: str


class Pass(BaseModel):
    """Do nothing this turn."""

    type: Literal["pass"] = "pass"


class Choice(BaseModel):
    """Choose exactly one legal action."""

    action: Annotated[Union[Bid, NarrateEvent, Pass], Field(discriminator="type")]


# --------------------------------------------------------------------------- schema


def _resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        return _resolve(target, root)
    return node


def example_for_schema(schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """A minimal instance of a JSON schema: first enum value, first union branch."""
    root = schema if root is None else root
    node = _resolve(schema, root)
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if node.get(key):
            return example_for_schema(node[key][0], root)
    if "default" in node:
        return node["default"]
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in node:
        props: dict[str, Any] = node.get("properties", {})
        required = set(node.get("required", list(props)))
        # also fill const-valued fields: discriminator tags often have a default
        # and so are not "required" in the schema, yet pydantic needs them
        wanted = [n for n, p in props.items() if n in required or "const" in _resolve(p, root)]
        return {name: example_for_schema(props[name], root) for name in wanted}
    if kind == "array":
        count = node.get("minItems", 0)
        return [example_for_schema(node.get("items", {}), root) for _ in range(count)]
    if kind == "integer":
        return int(node.get("minimum", 0))
    if kind == "number":
        return float(node.get("minimum", 0))
    if kind == "boolean":
        return False
    if kind == "string":
        return "x" * int(node.get("minLength", 1))
    return None


def requested_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema the client asked for: the forced tool's, else response_format's."""
    tool = _chosen_tool(body)
    if tool is not None:
        return tool.get("function", {}).get("parameters")
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt.get("json_schema", {}).get("schema")
    return None


def first_legal_option(body: dict[str, Any]) -> Behaviour:
    """Default answer: a minimal valid instance of the requested schema."""
    schema = requested_schema(body)
    if schema is None:
        return prose("Nothing was asked of me in a structured way.")
    return valid(example_for_schema(schema))


def _chosen_tool(body: dict[str, Any]) -> dict[str, Any] | None:
    tools = body.get("tools") or []
    if not tools:
        return None
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        wanted = choice.get("function", {}).get("name")
        for tool in tools:
            if tool.get("function", {}).get("name") == wanted:
                return tool
    return tools[0]


# ------------------------------------------------------------------------ helpers


def hash_embedding(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
    """A deterministic unit vector derived from sha256 of the text."""
    raw: list[float] = []
    counter = 0
    while len(raw) < dim:
        digest = hashlib.sha256(f"{counter}:{text}".encode()).digest()
        raw.extend((b - 127.5) / 127.5 for b in digest)
        counter += 1
    vec = raw[:dim]
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def _approx_tokens(text: str) -> int:
    """Deterministic token estimate (chars/4, at least 1) so accounting is testable."""
    return max(1, len(text) // 4)


def _message_text(messages: list[dict[str, Any]]) -> str:
    parts: list[str] = []
    for msg in messages:
        content = msg.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
        for call in msg.get("tool_calls") or []:
            parts.append(str(call.get("function", {}).get("arguments", "")))
    return "\n".join(parts)


def _protocol_error(body: dict[str, Any]) -> str | None:
    """The 400 message OpenAI would give for this request, if any."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "'messages' must be a non-empty array"
    for i, msg in enumerate(messages):
        calls = msg.get("tool_calls") or []
        if msg.get("role") != "assistant" or not calls:
            continue
        answered = set()
        for follower in messages[i + 1 :]:
            if follower.get("role") != "tool":
                break
            answered.add(follower.get("tool_call_id"))
        missing = [c.get("id") for c in calls if c.get("id") not in answered]
        if missing:
            return (
                "An assistant message with 'tool_calls' must be followed by tool messages "
                f"responding to each 'tool_call_id'. Missing: {missing}"
            )
    fmt = body.get("response_format") or {}
    spec = fmt.get("json_schema") or {}
    if fmt.get("type") == "json_schema" and spec.get("strict"):
        problem = _strict_schema_problem(spec.get("schema") or {}, ())
        if problem:
            return f"Invalid schema for response_format '{spec.get('name')}': {problem}"
    if fmt.get("type") == "json_object" and "json" not in _message_text(messages).lower():
        return "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'."
    return None


def _strict_schema_problem(node: Any, context: tuple[str, ...]) -> str | None:
    """OpenAI strict-mode rules that pydantic schemas break (oneOf, open objects)."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            found = _strict_schema_problem(item, (*context, str(i)))
            if found:
                return found
        return None
    if not isinstance(node, dict):
        return None
    where = f"In context={context}, "
    if "oneOf" in node:
        return where + "'oneOf' is not permitted."
    if node.get("type") == "object" and "properties" in node:
        if node.get("additionalProperties") is not False:
            return where + "'additionalProperties' is required to be supplied and to be false."
        if set(node.get("required") or []) != set(node["properties"]):
            return where + "'required' is required to be supplied and to be an array including every key in properties."
    for key, value in node.items():
        if isinstance(value, (dict, list)):
            found = _strict_schema_problem(value, (*context, key))
            if found:
                return found
    return None


# ------------------------------------------------------------------------- server


@dataclass
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    body: dict[str, Any]
    authorization: str | None


@dataclass
class FakeOpenAIServer:
    """Thread-backed fake server; `script` is consumed one behaviour per chat request."""

    default: Callable[[dict[str, Any]], Behaviour] = first_legal_option
    model_ids: tuple[str, ...] = ("fake-model", "fake-embed")
    max_delay_s: float = MAX_DELAY_S
    requests: list[Recorded] = field(default_factory=list)
    usages: list[dict[str, int]] = field(default_factory=list)
    _script: deque[Behaviour] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _timer: threading.Timer | None = None
    _conns: set[socket.socket] = field(default_factory=set)

    # -- lifecycle
    def start(self, max_lifetime_s: float = MAX_LIFETIME_S) -> "FakeOpenAIServer":
        """Bind a free port on 127.0.0.1 and serve in a daemon thread."""
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        self._timer = threading.Timer(max_lifetime_s, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self) -> None:
        """Stop serving; idempotent; wakes up any delayed answer."""
        self._stopping.set()
        if self._timer is not None:
            self._timer.cancel()
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        with self._lock:
            conns, self._conns = list(self._conns), set()
        for conn in conns:  # keep-alive connections outlive shutdown() otherwise
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting
    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours for the next chat-completions requests, in order."""
        with self._lock:
            self._script.extend(behaviours)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._script)

    def _next(self, body: dict[str, Any]) -> Behaviour:
        with self._lock:
            if self._script:
                return self._script.popleft()
        return self.default(body)

    # -- inspection
    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """Bodies of chat-completions requests, in arrival order."""
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    def saved_data(self) -> str:
        """Everything recorded except headers, as one string (for leak checks)."""
        return json.dumps([r.body for r in self.requests]) + json.dumps(self.usages)

    # -- answering
    def _record(self, method: str, path: str, body: dict[str, Any], auth: str | None) -> None:
        with self._lock:
            self.requests.append(Recorded(method, path, body, auth))

    def chat_answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """Status and JSON for one chat-completions request; None: hang up (stopping)."""
        if body.get("stream"):
            return 400, _error_body("fake server does not stream", "invalid_request_error")
        problem = _protocol_error(body)
        if problem:
            return 400, _error_body(problem, "invalid_request_error")
        behaviour = self._next(body)
        while behaviour.kind == "delay":
            self._stopping.wait(min(behaviour.seconds, self.max_delay_s))
            if self._stopping.is_set():
                return None
            behaviour = behaviour.then or self.default(body)
        if behaviour.kind == "http_error":
            return behaviour.status, _error_body(str(behaviour.payload), "server_error")
        message, text = self._assistant_message(body, behaviour)
        usage = {
            "prompt_tokens": _approx_tokens(_message_text(body["messages"])),
            "completion_tokens": _approx_tokens(text),
        }
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        with self._lock:
            self.usages.append(usage)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        return 200, {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake-model"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": usage,
        }

    def _assistant_message(self, body: dict[str, Any], behaviour: Behaviour) -> tuple[dict[str, Any], str]:
        if behaviour.kind == "valid":
            text = json.dumps(behaviour.payload)
        elif behaviour.kind in ("prose", "invalid_json"):
            text = str(behaviour.payload)
        else:
            raise ValueError(f"unknown behaviour {behaviour.kind!r}")
        tool = _chosen_tool(body)
        if tool is not None and behaviour.kind != "prose":
            call = {
                "id": f"call_{len(self.requests)}",
                "type": "function",
                "function": {"name": tool["function"]["name"], "arguments": text},
            }
            return {"role": "assistant", "content": None, "tool_calls": [call]}, text
        return {"role": "assistant", "content": text}, text

    def embeddings_answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Deterministic hash embeddings, float or base64 as requested."""
        inputs = body.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not inputs:
            return 400, _error_body("'input' must be a string or a non-empty array", "invalid_request_error")
        dim = int(body.get("dimensions") or EMBEDDING_DIM)
        data = []
        for i, item in enumerate(inputs):
            vec = hash_embedding(item if isinstance(item, str) else json.dumps(item), dim)
            encoded: Any = vec
            if body.get("encoding_format") == "base64":
                encoded = base64.b64encode(struct.pack(f"<{dim}f", *vec)).decode()
            data.append({"object": "embedding", "index": i, "embedding": encoded})
        tokens = sum(_approx_tokens(str(x)) for x in inputs)
        return 200, {
            "object": "list",
            "data": data,
            "model": body.get("model", "fake-embed"),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }

    def models_answer(self) -> tuple[int, dict[str, Any]]:
        return 200, {
            "object": "list",
            "data": [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.model_ids],
        }


def _error_body(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # else headers+body writes cost ~40 ms each

        def setup(self) -> None:
            super().setup()
            with server._lock:
                server._conns.add(self.connection)

        def finish(self) -> None:
            with server._lock:
                server._conns.discard(self.connection)
            try:
                super().finish()
            except OSError:
                pass

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            """Keep pytest output clean."""

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError, socket.timeout):
                pass  # the client gave up (timeout test): nothing to do

        def do_GET(self) -> None:  # noqa: N802
            server._record("GET", self.path, {}, self.headers.get("Authorization"))
            if self.path.rstrip("/").endswith("/v1/models"):
                self._send(*server.models_answer())
            else:
                self._send(404, _error_body(f"no route {self.path}", "invalid_request_error"))

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, _error_body("body is not JSON", "invalid_request_error"))
                return
            server._record("POST", self.path, body, self.headers.get("Authorization"))
            if self.path.endswith("/v1/chat/completions"):
                answer = server.chat_answer(body)
                if answer is None:
                    self.close_connection = True
                    return
                self._send(*answer)
            elif self.path.endswith("/v1/embeddings"):
                self._send(*server.embeddings_answer(body))
            else:
                self._send(404, _error_body(f"no route {self.path}", "invalid_request_error"))

    return Handler


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """A started FakeOpenAIServer; stopped after the test. No proxy for 127.0.0.1."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()
