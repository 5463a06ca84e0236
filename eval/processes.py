"""The servers the evaluation and the tests start as child processes: a free local port to put
one on, and a stop that always ends it (terminate, then kill if it will not go).

Why one place: the llama.cpp server, the Chroma server and the browser tests' Streamlit each
wrote these lines again.
"""
from __future__ import annotations

import socket
import subprocess


def free_port() -> int:
    """A port nothing listens on at 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(proc: subprocess.Popen, grace_s: float = 10) -> None:
    """Ask the process to end; kill it if it has not within `grace_s`; reap it either way."""
    proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=grace_s)
