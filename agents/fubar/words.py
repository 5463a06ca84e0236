"""Words for FUBAR's heuristic seats, drawn from the same genre lexicon the Universalis players use
(agents/narration.GENRES), so a premise reads the same whichever game is played."""
from __future__ import annotations

import re

from agents.narration import DEFAULT_GENRE, GENRE_WORDS, GENRES
from agents.premise import definite, parse_premise


def genre_for(premise: str) -> str:
    """The genre whose keywords the premise names most (whole words, plain endings); the default otherwise."""
    text = premise.lower()
    best, hits = DEFAULT_GENRE, 0
    for key, words in GENRE_WORDS.items():
        n = sum(1 for w in words if re.search(rf"\b{re.escape(w)}(?:s|es|ed|er|ing|y|ies|al)?\b", text))
        if n > hits:
            best, hits = key, n
    return best


def lex(premise: str) -> dict:
    return GENRES[genre_for(premise)]


def premise_places(premise: str) -> list[str]:
    """The premise's places with "the" ("a realm" -> "the realm")."""
    try:
        return [definite(p) for p in parse_premise(premise).places]
    except Exception:  # noqa: BLE001 - a premise the parser cannot read still gets the genre's places
        return []


def premise_people(premise: str) -> list[str]:
    try:
        return list(parse_premise(premise).people)
    except Exception:  # noqa: BLE001
        return []


def goal_text(wants: str) -> str:
    """'Wants to find the lost fleet' -> 'Find the lost fleet' (a finite objective, F-10)."""
    m = re.match(r"wants (to )?(.*)", wants, flags=re.I)
    text = (m.group(2) if m.group(1) else f"get {m.group(2)}") if m else wants
    return text[:1].upper() + text[1:]


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text and not text[:2].isupper() else text


def a_an(phrase: str) -> str:
    """'old photograph' -> 'an old photograph'; a phrase with its own article stays."""
    if re.match(r"(a|an|the|his|her|their|my)\s", phrase, flags=re.I):
        return phrase
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def villain_traits(words: dict) -> list[str]:
    """The genre's traits the GM keeps for the opposition, so no hero shares a villain's Trademark."""
    return list(words["traits"][-2:])


def hero_traits(words: dict) -> list[str]:
    return list(dict.fromkeys(words["traits"][:-2] + words["habits"]))
