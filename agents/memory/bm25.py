"""A small Okapi BM25 with light stemming, for the lexical half of hybrid retrieval.

Why our own: a few dozen lines, no dependency, and the tokenizer is shared with
the contradiction heuristics so both agree on what a "word" is.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

__all__ = ["BM25", "LiveBM25", "STOPWORDS", "stem", "tokenize"]

STOPWORDS = frozenset("""
a an the and or but if then so of to in on at by for with from into onto over under about as
is are was were be been being am do does did doing have has had having this that these those it its
i me my we our you your he him his she her they them their what which who whom whose when where why how
there here any some all each every both either one ones very can could would should will shall may might must
s t just also only than too up down out off again once no nor not
""".split())

_WORD = re.compile(r"[a-z0-9]+")


_STEMS: dict[str, str] = {}  # word -> stem: a game says a few thousand words, and opening one stems ~100k
_STEMS_MAX = 200_000


def stem(word: str) -> str:
    """Light suffix stripping (a tiny Porter step 1): plurals, -ed, -ing, -ly; -y and -ies share a stem."""
    got = _STEMS.get(word)
    if got is None:
        got = _stem(word)
        if len(_STEMS) < _STEMS_MAX:
            _STEMS[word] = got
    return got


def _stem(word: str) -> str:
    w = word
    if len(w) <= 3:
        return w
    if w.endswith("sses"):
        return w[:-2]
    if w.endswith(("ies", "ied")) and len(w) > 4:
        base = w[:-3]
        return base + ("y" if len(base) <= 2 else "i")  # spies -> spy (as "spy"), deputies -> deputi
    for suffix in ("ingly", "edly", "ing", "ed", "ly"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]  # stopped -> stop
            return w
    if w.endswith("es") and len(w) > 4 and w[-3] in "sxz":
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    if w.endswith("y") and w[-2] not in "aeiouy":  # deputy, deputies, deputises: one stem "deputi"
        return w[:-1] + "i"
    return w


def tokenize(text: str, keep_stopwords: bool = False) -> list[str]:
    """Lowercase word stems; possessive 's dropped; stopwords removed unless asked."""
    words = _WORD.findall(text.lower().replace("'s ", " ").replace("’s ", " "))
    return [stem(w) for w in words if keep_stopwords or w not in STOPWORDS]


class _Ranked:
    """What both indexes do alike on top of their own `scores`: the best k, weighted terms, expansion.

    Why a base: `BM25` and `LiveBM25` differ in how they store the vocabulary, not in these.
    """

    def scores(self, query_terms: Sequence[str]) -> dict[int, float]:
        raise NotImplementedError

    def _same_start(self, term: str, min_len: int) -> Iterable[str]:
        """Vocabulary words of 5+ letters that begin with the term's first `min_len` letters."""
        raise NotImplementedError

    def _ending_in(self, term: str) -> Iterable[str]:
        """Vocabulary words that may end with the term (a superset is fine)."""
        raise NotImplementedError

    def top(self, query_terms: Sequence[str], k: int) -> list[tuple[int, float]]:
        return sorted(self.scores(query_terms).items(), key=lambda kv: -kv[1])[:k]

    def expand(self, query_terms: Sequence[str], min_len: int = 5) -> dict[str, float]:
        """Query terms plus vocabulary words that contain them or share a long prefix.

        Catches compounds and derivations a light stemmer misses: "summer" in
        "midsummer", "worshipper" for "worshipping". Expansions count half.
        """
        out = {t: 1.0 for t in query_terms}
        for t in set(query_terms):
            if len(t) < min_len:
                continue
            for v in self._same_start(t, min_len):
                if v != t and (v.startswith(t) or t.startswith(v) or v[:min_len + 1] == t[:min_len + 1]):
                    out.setdefault(v, 0.5)
            for v in self._ending_in(t):
                if len(v) > len(t) + 2 and v.endswith(t):
                    out.setdefault(v, 0.5)
        return out

    def weighted_scores(self, weighted_terms: dict[str, float]) -> dict[int, float]:
        out: dict[int, float] = {}
        for term, weight in weighted_terms.items():
            for i, s in self.scores([term]).items():
                out[i] = out.get(i, 0.0) + weight * s
        return out


class BM25(_Ranked):
    """Okapi BM25 over a fixed list of documents (rebuilt when the index changes)."""

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.n = len(docs)
        self.lengths = [len(d) for d in docs]
        self.avgdl = (sum(self.lengths) / self.n) if self.n else 0.0
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, doc in enumerate(docs):
            for term, tf in Counter(doc).items():
                self.postings.setdefault(term, []).append((i, tf))
        self.idf = {t: math.log(1 + (self.n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()}
        self._vocab_by_prefix: dict[str, list[str]] = {}
        for term in self.postings:
            if len(term) >= 5:
                self._vocab_by_prefix.setdefault(term[:5], []).append(term)

    def scores(self, query_terms: Sequence[str]) -> dict[int, float]:
        """Document index -> score, only for documents sharing a term with the query."""
        out: dict[int, float] = {}
        for term in set(query_terms):
            postings = self.postings.get(term)
            if not postings:
                continue
            idf = self.idf[term]
            for i, tf in postings:
                norm = tf + self.k1 * (1 - self.b + self.b * self.lengths[i] / (self.avgdl or 1.0))
                out[i] = out.get(i, 0.0) + idf * tf * (self.k1 + 1) / norm
        return out

    def query_mass(self, query_terms: Sequence[str]) -> float:
        """The score of a (virtual) document matching every known query term once.

        Dividing by this puts scores on a 0..~1 scale that means "how much of the
        question's rare vocabulary this Fact shares", comparable across queries.
        """
        return sum(self.idf[t] * (self.k1 + 1) / (1 + self.k1) for t in set(query_terms) if t in self.idf)

    def _same_start(self, term: str, min_len: int) -> Iterable[str]:
        return self._vocab_by_prefix.get(term[:min_len], ())

    def _ending_in(self, term: str) -> Iterable[str]:
        return self.postings


class LiveBM25(_Ranked):
    """Okapi BM25 that takes documents in and out one at a time (the same scores as `BM25` over the same docs).

    Why: a game gains Facts one by one; rebuilding the whole index for each new Fact cost a second
    per write at 10k Facts. Document frequencies and the mean length are kept as counts, so a write
    touches only the new document's terms, and idf is computed for the question's terms when asked.
    """

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.postings: dict[str, dict[int, int]] = {}  # term -> doc -> term frequency
        self.docs: dict[int, tuple[str, ...]] = {}  # doc -> its terms, in order
        self.total_length = 0
        self._by_prefix: dict[str, set[str]] = {}  # first 5 letters -> terms of 5+ letters
        self._by_suffix: dict[str, set[str]] = {}  # last 5 letters -> terms of 5+ letters

    @property
    def n(self) -> int:
        return len(self.docs)

    @property
    def avgdl(self) -> float:
        return self.total_length / self.n if self.n else 0.0

    def doc_terms(self, doc: int) -> tuple[str, ...]:
        return self.docs.get(doc, ())

    def add(self, doc: int, terms: Sequence[str]) -> None:
        if doc in self.docs:
            self.remove(doc)
        self.docs[doc] = tuple(terms)
        self.total_length += len(terms)
        postings = self.postings
        for term in terms:
            posting = postings.get(term)
            if posting is None:
                posting = postings[term] = {}
                if len(term) >= 5:
                    self._by_prefix.setdefault(term[:5], set()).add(term)
                    self._by_suffix.setdefault(term[-5:], set()).add(term)
            posting[doc] = posting.get(doc, 0) + 1

    def remove(self, doc: int) -> None:
        terms = self.docs.pop(doc, None)
        if terms is None:
            return
        self.total_length -= len(terms)
        for term in set(terms):
            posting = self.postings.get(term)
            if posting is None:
                continue
            posting.pop(doc, None)
            if not posting:
                del self.postings[term]
                if len(term) >= 5:
                    self._by_prefix.get(term[:5], set()).discard(term)
                    self._by_suffix.get(term[-5:], set()).discard(term)

    def idf(self, term: str) -> float:
        df = len(self.postings.get(term, ()))
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def scores(self, query_terms: Sequence[str]) -> dict[int, float]:
        out: dict[int, float] = {}
        avgdl = self.avgdl or 1.0
        k1, b = self.k1, self.b
        for term in set(query_terms):
            postings = self.postings.get(term)
            if not postings:
                continue
            idf = self.idf(term)
            for i, tf in postings.items():
                norm = tf + k1 * (1 - b + b * len(self.docs[i]) / avgdl)
                out[i] = out.get(i, 0.0) + idf * tf * (k1 + 1) / norm
        return out

    def query_mass(self, query_terms: Sequence[str]) -> float:
        """As `BM25.query_mass`: the score of a document matching every known query term once."""
        return sum(self.idf(t) * (self.k1 + 1) / (1 + self.k1) for t in set(query_terms) if t in self.postings)

    def _same_start(self, term: str, min_len: int) -> Iterable[str]:
        return self._by_prefix.get(term[:min_len], ())

    def _ending_in(self, term: str) -> Iterable[str]:
        return self._by_suffix.get(term[-5:], ())  # looked up by suffix, where BM25 scans its vocabulary
