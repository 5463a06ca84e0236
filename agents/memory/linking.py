"""Which components a question is about, when it does not say their names.

Why: players ask about "the smuggler captain" or "the capital planet"; the Facts
say "Hale Ditmar" and "the throne world of Ys". The Traits bought for a
component are its descriptions ("Smuggler captain" is a Trait of Hale Ditmar), so
each short phrase of the question is compared, in embedding space, with every
live Trait; a close match links the question to that Trait's component. Linked
components then pull in every Fact about them (by their `mentions`) or set
where they happened (by their `place`), and the phrase is cut from the question
so the rest of it can pick among those Facts ("Who bandaged ___?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .bm25 import STOPWORDS

__all__ = ["Link", "link_components", "link_places", "phrases"]

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
MAX_PHRASE_WORDS = 4


@dataclass(frozen=True)
class Link:
    """A component the question refers to: how closely, and by which of its words."""

    component_id: str
    strength: float  # cosine of the best phrase / Trait pair
    phrase: str  # the question's words that refer to it
    trait_id: str  # the Trait they matched
    unique: bool = False  # no other component matches that phrase nearly as well: it names this one


def _bare(word: str) -> str:
    return word.lower().removesuffix("'s").removesuffix("’s")


def phrases(question: str, max_words: int = MAX_PHRASE_WORDS) -> list[str]:
    """Runs of up to `max_words` words that neither start nor end with a stopword.

    "Who bandaged the smuggler captain?" -> "bandaged", "bandaged the smuggler",
    "smuggler", "smuggler captain", "captain", ...: each a candidate description.
    """
    words = _WORD.findall(question)
    out: list[str] = []
    seen: set[str] = set()
    for i in range(len(words)):
        if _bare(words[i]) in STOPWORDS:
            continue
        for j in range(i, min(len(words), i + max_words)):
            if _bare(words[j]) in STOPWORDS:
                continue
            phrase = " ".join(words[i:j + 1])
            if phrase.lower() not in seen:
                seen.add(phrase.lower())
                out.append(phrase)
    return out


def link_components(
    question: str,
    traits: Sequence[tuple[str, str]],  # (trait id, component id) of every live Trait
    trait_vectors: np.ndarray,  # unit vectors, one row per entry of `traits`
    embed: Callable[[list[str]], np.ndarray],
    threshold: float,
    margin: float = 0.1,
) -> dict[str, Link]:
    """Component id -> its best Link at or above `threshold` (cosine), for the question's phrases.

    A Link is `unique` when its phrase matches no other component within `margin`:
    "the smuggler captain" names Hale Ditmar; "wounded" fits everyone with a wound.
    """
    spans = phrases(question)
    if not spans or not len(traits):
        return {}
    sims = embed(spans) @ trait_vectors.T  # phrases x traits
    per_phrase: list[dict[str, tuple[float, str]]] = [{} for _ in spans]  # comp -> (best score, trait)
    for col, (trait_id, comp) in enumerate(traits):
        for row in np.flatnonzero(sims[:, col] >= threshold - margin):
            score = float(sims[row, col])
            if score > per_phrase[row].get(comp, (-1.0, ""))[0]:
                per_phrase[row][comp] = (score, trait_id)
    best: dict[str, Link] = {}
    for row, comps in enumerate(per_phrase):
        for comp, (score, trait_id) in comps.items():
            if score < threshold or (comp in best and score <= best[comp].strength):
                continue
            rivals = [s for c, (s, _) in comps.items() if c != comp]
            best[comp] = Link(comp, score, spans[row], trait_id, unique=not rivals or max(rivals) < score - margin)
    return best


def link_places(
    question: str,
    ids: Sequence[str],  # every component's id
    name_vectors: np.ndarray,  # unit vectors of their names, one row per entry of `ids`
    places: set[str],  # the components that are places where Facts happened
    embed: Callable[[list[str]], np.ndarray],
    threshold: float,
    margin: float = 0.1,
) -> dict[str, Link]:
    """Place id -> its Link, for the question's phrases whose closest name, by `margin`, is that place's.

    "the royal hall" is nearer "the queen's throne room" than any other name; "ambassador" is near
    "the Envoy's yacht" too, but nearer the Imperial envoy, a person, so it names no place. The Link
    matched a name, not a Trait: its `trait_id` is empty.
    """
    spans = phrases(question)
    if len(ids) < 2 or not spans or not places & set(ids):
        return {}
    sims = embed(spans) @ name_vectors.T  # phrases x names
    out: dict[str, Link] = {}
    for phrase, row in zip(spans, sims):
        first, second = np.argsort(-row)[:2]
        best, place = float(row[first]), ids[int(first)]
        if best >= threshold and best - float(row[second]) >= margin and place in places:
            if place not in out or best > out[place].strength:
                out[place] = Link(place, best, phrase, "", unique=True)
    return out
