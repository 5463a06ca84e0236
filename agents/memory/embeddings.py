"""Chroma embedding functions: MiniLM (default), WordLlama (fastest) or an OpenAI-compatible server.

Why our own: Chroma's default embedding function downloads an ONNX model at
first use and fails offline, so every collection is opened with one of these.
MiniLM (all-MiniLM-L6-v2 in numpy, see minilm.py) understands paraphrases;
WordLlama's static token vectors are ~100x faster but miss them. All are registered with Chroma (`name()`, `get_config()`,
`build_from_config()`) so a persisted collection reopens without legacy
warnings and remembers which embedder built it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

__all__ = [
    "EMBEDDING_KINDS",
    "EmbeddingError",
    "MiniLMEmbeddingFunction",
    "OpenAICompatibleEmbeddingFunction",
    "WordLlamaEmbeddingFunction",
    "load_wordllama",
    "make_embedding_function",
]

_WL_LOCK = threading.Lock()
_WL_MODELS: dict[tuple[str, int], Any] = {}
LOCAL_DUMMY_KEY = "not-needed"
EMBEDDING_KINDS = ("minilm", "wordllama", "openai")


class EmbeddingError(RuntimeError):
    """The embedder could not be loaded or reached; the message says which and why."""


def load_wordllama(config: str = "l2_supercat", dim: int = 256) -> Any:
    """The WordLlama model, loaded once per process.

    `WordLlama.load()` by default looks for the tokenizer in a cache folder and
    tries to download it; the package ships weights and tokenizer, so point the
    cache at the package itself and forbid downloads.
    """
    key = (config, dim)
    with _WL_LOCK:
        if key not in _WL_MODELS:
            try:
                import wordllama
                from wordllama import WordLlama

                _WL_MODELS[key] = WordLlama.load(
                    config=config, dim=dim, cache_dir=Path(wordllama.__file__).parent, disable_download=True
                )
            except Exception as exc:  # noqa: BLE001 - turn any load failure into one clear line
                raise EmbeddingError(f"cannot load WordLlama model {config!r} dim {dim} offline: {exc}") from exc
        return _WL_MODELS[key]


@register_embedding_function
class WordLlamaEmbeddingFunction(EmbeddingFunction[Documents]):
    """Static token embeddings (WordLlama l2_supercat): ~1 ms per batch, no network, unit vectors."""

    def __init__(self, config: str = "l2_supercat", dim: int = 256) -> None:
        self.config = config
        self.dim = int(dim)

    def __call__(self, input: Documents) -> Embeddings:  # noqa: A002 - Chroma's parameter name
        texts = list(input)
        if not texts:
            return []
        vecs = load_wordllama(self.config, self.dim).embed(texts, norm=True)
        return [np.asarray(v, dtype=np.float32) for v in vecs]

    @staticmethod
    def name() -> str:
        return "storytable_wordllama"

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "ip", "l2"]

    def get_config(self) -> dict[str, Any]:
        return {"config": self.config, "dim": self.dim}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> "WordLlamaEmbeddingFunction":
        return WordLlamaEmbeddingFunction(config=config.get("config", "l2_supercat"), dim=config.get("dim", 256))


@register_embedding_function
class MiniLMEmbeddingFunction(EmbeddingFunction[Documents]):
    """all-MiniLM-L6-v2 sentence embeddings (384 dims, unit vectors), computed in numpy from bundled weights.

    ~100 short Facts per second on one core: fine for a game's live Facts and
    rebuilds of a few thousand; the model loads once per process (~1 s).
    """

    def __init__(self, model: str = "sentence-transformers/all-MiniLM-L6-v2") -> None:
        from .minilm import MODEL_NAME

        if model != MODEL_NAME:
            raise EmbeddingError(f"MiniLM embeddings: only {MODEL_NAME} is bundled, not {model!r}")
        self.model = model

    def __call__(self, input: Documents) -> Embeddings:  # noqa: A002 - Chroma's parameter name
        from .minilm import load_minilm

        texts = list(input)
        if not texts:
            return []
        return list(load_minilm().embed(texts))

    def embed_with_rest(self, text: str, drop: Sequence[tuple[int, int]]) -> np.ndarray:
        """The text's vector and its rest's from one pass (see `MiniLM.embed_with_rest`)."""
        from .minilm import load_minilm

        return load_minilm().embed_with_rest(text, drop)

    @staticmethod
    def name() -> str:
        return "storytable_minilm"

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "ip", "l2"]

    def get_config(self) -> dict[str, Any]:
        return {"model": self.model}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> "MiniLMEmbeddingFunction":
        return MiniLMEmbeddingFunction(model=config.get("model", "sentence-transformers/all-MiniLM-L6-v2"))


@register_embedding_function
class OpenAICompatibleEmbeddingFunction(EmbeddingFunction[Documents]):
    """`/v1/embeddings` on OpenAI or any compatible server (Ollama, vLLM, llama.cpp).

    The API key is never written into the collection's config; only the name of
    the environment variable holding it is.
    """

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env_var: str = "OPENAI_API_KEY",
        dimensions: int | None = None,
        timeout_s: float = 30.0,
        batch_size: int = 256,
    ) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/") if base_url else None
        self.api_key_env_var = api_key_env_var
        self.dimensions = dimensions
        self.timeout_s = timeout_s
        self.batch_size = max(1, int(batch_size))
        self._api_key = api_key or os.environ.get(api_key_env_var) or (LOCAL_DUMMY_KEY if base_url else None)
        if not self._api_key:
            raise EmbeddingError(f"OpenAI embeddings need an API key: set {api_key_env_var} or give a base_url")
        self._client: Any = None

    def _openai(self) -> Any:
        if self._client is None:
            import openai

            self._client = openai.OpenAI(
                base_url=self.base_url or "https://api.openai.com/v1", api_key=self._api_key,
                timeout=self.timeout_s, max_retries=1,
            )
        return self._client

    def __call__(self, input: Documents) -> Embeddings:  # noqa: A002
        texts = list(input)
        out: list[np.ndarray] = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start:start + self.batch_size]
            kwargs: dict[str, Any] = {"model": self.model, "input": batch, "encoding_format": "float"}
            if self.dimensions:
                kwargs["dimensions"] = self.dimensions
            try:
                response = self._openai().embeddings.create(**kwargs)
            except Exception as exc:  # noqa: BLE001 - one readable line instead of an SDK traceback
                raise EmbeddingError(f"embedding request to {self.base_url or 'OpenAI'} failed: "
                                     f"{type(exc).__name__}: {exc}") from exc
            for item in sorted(response.data, key=lambda d: d.index):
                vec = np.asarray(item.embedding, dtype=np.float32)
                norm = float(np.linalg.norm(vec)) or 1.0
                out.append(vec / norm)
        return out

    @staticmethod
    def name() -> str:
        return "storytable_openai"

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "ip", "l2"]

    def get_config(self) -> dict[str, Any]:
        return {"model": self.model, "base_url": self.base_url, "api_key_env_var": self.api_key_env_var,
                "dimensions": self.dimensions}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> "OpenAICompatibleEmbeddingFunction":
        env_var = config.get("api_key_env_var", "OPENAI_API_KEY")
        # Never fail while Chroma deserialises a stored config: a missing key
        # shows up as a clear EmbeddingError on the first embedding call instead.
        return OpenAICompatibleEmbeddingFunction(
            model=config.get("model", "text-embedding-3-small"), base_url=config.get("base_url"),
            api_key=os.environ.get(env_var) or LOCAL_DUMMY_KEY, api_key_env_var=env_var,
            dimensions=config.get("dimensions"),
        )

    def validate_config_update(self, old_config: dict[str, Any], new_config: dict[str, Any]) -> None:
        if "model" in new_config and new_config["model"] != old_config.get("model"):
            raise ValueError("the embedding model of an existing collection cannot change; rebuild the index")


def make_embedding_function(kind: str = "minilm", **settings: Any) -> EmbeddingFunction[Documents]:
    """Pick the embedder by name: "minilm" (offline default), "wordllama" (offline, fastest) or "openai".

    "minilm" checks here that its bundled model is installed, so a missing
    package is one EmbeddingError line before any index is opened.
    """
    if kind == "minilm":
        from .minilm import model_dir

        model_dir()
        return MiniLMEmbeddingFunction(**settings)
    if kind == "wordllama":
        return WordLlamaEmbeddingFunction(**settings)
    if kind == "openai":
        return OpenAICompatibleEmbeddingFunction(**settings)
    raise ValueError(f"unknown embedding kind {kind!r}: use {', '.join(repr(k) for k in EMBEDDING_KINDS)}")
