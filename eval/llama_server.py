"""`python -m eval.llama_server ARGS`: llama-cpp-python's server, plus a Gemma format that keeps
the system prompt.

Why: llama-cpp-python's "gemma" chat format drops every system message (Gemma has no system
role), so a seat served that way never sees the rules and the answer format in the system
prompt. Gemma's own template puts the system text at the start of the first user turn;
"gemma-system" does the same, then formats as "gemma". Everything else is the stock server.
"""
from __future__ import annotations

from typing import Any

from llama_cpp import llama_chat_format as formats

from agents.llm.local import fold_system

__all__ = ["fold_system", "format_gemma_system"]


@formats.register_chat_format("gemma-system")
def format_gemma_system(messages: list[Any], **kwargs: Any) -> Any:
    return formats.format_gemma(fold_system(messages), **kwargs)


if __name__ == "__main__":
    from llama_cpp.server.__main__ import main

    main()
