"""Does a new statement contradict a paid Fact? Retrieve candidates, then judge each pair.

Why two judges: an AI player must be able to challenge contradictions offline
and cheaply (HeuristicJudge: negation, antonyms, differing numbers about the
same subject), and better with a chat model when one is configured (LLMJudge).
The LLM judge never fails a game: whenever the model gives no usable verdict
(json_schema raises on prose, function_calling silently parses to None, the
server is down) it falls back to the heuristic and says so in the reason.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, Field

from .bm25 import STOPWORDS, stem
from .index import FactIndex
from .records import FactRecord
from .retrieval import SAME_SUBJECT_WEIGHTS, ScoredFact, hybrid_search, traits_of_named

__all__ = [
    "ContradictionReport",
    "HeuristicJudge",
    "JudgeVerdict",
    "Judge",
    "LLMJudge",
    "Verdict",
    "check_contradiction",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    contradicts: bool
    reason: str
    judge: str = "heuristic"  # heuristic | llm | llm-fallback


@dataclass(frozen=True)
class ContradictionReport:
    """`facts` lists only the contradicted Facts, each with the judge's reason."""

    contradicts: bool
    facts: list[tuple[FactRecord, str]] = field(default_factory=list)
    checked: int = 0

    @property
    def fact_ids(self) -> list[str]:
        return [f.id for f, _ in self.facts]

    def summary(self) -> str:
        """One line per contradicted Fact: id, whose, scene, words and the judge's reason."""
        if not self.contradicts:
            return f"no contradiction found among {self.checked} related facts"
        lines = []
        for f, reason in self.facts:
            about = f" about {f.component_name}" if f.component_name else ""
            scene = f", scene {f.scene}" if f.scene is not None else ""
            lines.append(f"contradicts {f.kind} {f.id}{about} (paid by {f.paid_by}{scene}, event {f.seq}): "
                         f"{f.text!r} - {reason}")
        return "\n".join(lines)


class Judge(Protocol):
    def judge(self, statement: str, fact: FactRecord) -> Verdict: ...


# ------------------------------------------------------------------ heuristic

_NEGATORS = frozenset({"not", "no", "never", "nobody", "nothing", "none", "nowhere", "neither", "nor",
                       "without", "cannot", "noone"})
# Words folded to one concept before comparing, so "died" and "dead" agree.
_LEMMAS = {
    "died": "dead", "dies": "dead", "die": "dead", "death": "dead", "killed": "dead", "slain": "dead",
    "alive": "alive", "living": "alive", "lives": "alive", "survived": "alive", "survives": "alive",
    "always": "always", "forever": "always", "hate": "hate", "hates": "hate", "hated": "hate",
    "loves": "love", "loved": "love", "enemies": "enemy", "friends": "friend", "allies": "friend",
    "ally": "friend", "opened": "open", "closed": "shut", "shut": "shut", "won": "win", "wins": "win",
    "lost": "lose", "loses": "lose", "young": "young", "younger": "young", "old": "old", "older": "old",
    "elderly": "old", "rich": "rich", "wealthy": "rich", "poor": "poor", "penniless": "poor",
    "guilty": "guilty", "innocent": "innocent", "loyal": "loyal", "faithful": "loyal", "traitor": "traitor",
    "betrayed": "traitor", "light": "light", "lit": "light", "dark": "dark", "unlit": "dark",
    "married": "married", "unmarried": "single", "single": "single", "blind": "blind", "sighted": "sighted",
    "present": "present", "absent": "absent", "true": "true", "false": "false", "full": "full",
    "empty": "empty", "above": "above", "below": "below", "first": "first", "last": "last",
    "brave": "brave", "coward": "coward", "cowardly": "coward", "strong": "strong", "weak": "weak",
    "sunk": "sank", "sank": "sank", "sinking": "sank", "afloat": "afloat", "burned": "burn",
    "burnt": "burn", "intact": "intact", "noble": "noble", "commoner": "common", "peasant": "common",
    "immune": "immune", "sick": "sick", "ill": "sick", "infected": "sick", "ruled": "rule",
}
_ANTONYMS = {frozenset(p) for p in [
    ("dead", "alive"), ("love", "hate"), ("friend", "enemy"), ("open", "shut"), ("win", "lose"),
    ("young", "old"), ("rich", "poor"), ("guilty", "innocent"), ("loyal", "traitor"), ("light", "dark"),
    ("married", "single"), ("blind", "sighted"), ("present", "absent"), ("true", "false"), ("full", "empty"),
    ("above", "below"), ("first", "last"), ("brave", "coward"), ("strong", "weak"), ("sank", "afloat"),
    ("burn", "intact"), ("noble", "common"), ("immune", "sick"),
]}
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "hundred": 100, "thousand": 1000,
                      "dozen": 12, "single": 1, "once": 1, "twice": 2})
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


_CLAUSE = re.compile(r"[,;:.!?()]|\b(?:but|only|yet|although|though|except)\b")
NEGATION_SCOPE = 2  # content words after a negator that it negates


def _is_negator(w: str) -> bool:
    return w in _NEGATORS or w.endswith("n't")


def _term(w: str) -> str:
    """A comparable form of a word: its concept if it has one, else its stem."""
    return _LEMMAS.get(w) or stem(w)


def _analyse(text: str) -> tuple[set[str], set[str]]:
    """(terms, negated terms): negated = within NEGATION_SCOPE content words after a negator, same clause."""
    terms: set[str] = set()
    negated: set[str] = set()
    for clause in _CLAUSE.split(text.lower().replace("’", "'")):
        scope = 0
        for w in _WORD.findall(clause or ""):
            if _is_negator(w):
                scope = NEGATION_SCOPE
                continue
            if w in STOPWORDS and w not in _LEMMAS:
                continue
            if w in _NUMBER_WORDS or w.isdigit():
                continue
            t = _term(w)
            terms.add(t)
            if scope > 0:
                negated.add(t)
                scope -= 1
    return terms, negated


def _proper_nouns(text: str) -> set[str]:
    """Capitalised words not opening a sentence: names are who, not what, so they never 'flip'."""
    out: set[str] = set()
    for sentence in re.split(r"[.!?;:]\s*", text):
        words = re.findall(r"[A-Za-z][A-Za-z']*", sentence)
        out.update(_term(w.lower()) for w in words[1:] if w[0].isupper())
    return out


_DETERMINERS = frozenset("the a an his her their my your its our".split())
_CONTESTS = frozenset("duel fight battle war game match race bet wager round contest argument case vote election "
                      "hand bid challenge trial struggle".split())


def _lost_a_thing(words: Sequence[str], i: int) -> bool:
    """ "lost the crucifix" (a thing), not "lost the duel" (a contest, the opposite of winning it)."""
    after = words[i + 1:i + 3]
    return len(after) == 2 and after[0] in _DETERMINERS and after[1] not in _CONTESTS


def _concepts(words: Sequence[str]) -> set[str]:
    return {_LEMMAS[w] for i, w in enumerate(words) if w in _LEMMAS
            and not (_LEMMAS[w] == "lose" and _lost_a_thing(words, i))}


def _numbers(words: Sequence[str]) -> set[int]:
    out: set[int] = set()
    for w in words:
        if w.isdigit():
            out.add(int(w))
        elif w in _NUMBER_WORDS and w != "single":
            out.add(_NUMBER_WORDS[w])
    return out


class HeuristicJudge:
    """Flags a pair that shares a subject and flips polarity or disagrees on a number.

    Polarity flips: a shared word negated in one text only ("cannot swim" vs
    "swam... can swim"), or an antonym pair ("dead" vs "alive") that no negation
    cancels. Deliberately simple and explainable; it misses contradictions that
    need world knowledge ("raised in Velm" vs "raised on a farm") and the eval
    says how often.
    """

    def judge(self, statement: str, fact: FactRecord) -> Verdict:
        s_terms, s_neg = _analyse(statement)
        f_terms, f_neg = _analyse(fact.text)
        name = {_term(w) for w in _WORD.findall((fact.component_name or "").lower())} - STOPWORDS
        shared = s_terms & f_terms
        subject = (name & s_terms) or shared
        if not subject:
            return Verdict(False, "no shared subject")
        predicates = shared - name
        sw, fw = _words(statement), _words(fact.text)
        s_concepts, f_concepts = _concepts(sw), _concepts(fw)
        for pair in _ANTONYMS:
            s_side, f_side = s_concepts & pair, f_concepts & pair
            if len(s_side) == 1 and len(f_side) == 1 and s_side != f_side:
                if (s_side & s_neg) or (f_side & f_neg):
                    continue  # "not dead" vs "alive" agree
                (a,), (b,) = s_side, f_side
                return Verdict(True, f"'{a}' vs '{b}' about {', '.join(sorted(subject))}")
        proper = _proper_nouns(statement) | _proper_nouns(fact.text)
        flips = sorted(p for p in predicates - proper if (p in s_neg) != (p in f_neg))
        if flips:
            return Verdict(True, f"one says not, the other says so: {', '.join(flips)}")
        s_nums, f_nums = _numbers(sw), _numbers(fw)
        if s_nums and f_nums and not (s_nums & f_nums) and predicates:
            return Verdict(True, f"numbers differ ({sorted(s_nums)} vs {sorted(f_nums)}) about "
                                 f"{', '.join(sorted(predicates))}")
        return Verdict(False, "no negation, antonym or number clash found")


# ------------------------------------------------------------------------ LLM


class JudgeVerdict(BaseModel):
    """Whether the statement contradicts the established fact."""

    contradicts: bool = Field(description="true only if both cannot be true in the same story")
    reason: str = Field(description="one short sentence")


_SYSTEM = (
    "You check continuity in a collaborative story game. An established Fact was paid for and is true in "
    "the story. Decide whether a new statement contradicts it: both cannot be true at once. Elaborations, "
    "unrelated statements and things that merely seem unlikely are not contradictions."
)


class LLMJudge:
    """A chat model's verdict, with the heuristic as the fallback when it gives none."""

    def __init__(self, chat_model: Any, method: str = "function_calling", fallback: Judge | None = None) -> None:
        from agents.llm.decider import StructuredDecider  # the team's one place for structured-output quirks

        self.decider = StructuredDecider(chat_model, method=method)  # type: ignore[arg-type]
        self.fallback: Judge = fallback or HeuristicJudge()
        self.failures = 0

    def judge(self, statement: str, fact: FactRecord) -> Verdict:
        from langchain_core.messages import HumanMessage, SystemMessage

        about = f" (about {fact.component_name})" if fact.component_name else ""
        messages = [SystemMessage(content=_SYSTEM),
                    HumanMessage(content=f"Established Fact{about}: {fact.text}\nNew statement: {statement}")]
        try:
            attempt = self.decider.ask(messages, JudgeVerdict)
            parsed, error = attempt.parsed, attempt.error
        except Exception as exc:  # noqa: BLE001 - the decider should not raise, but a judge must not either
            parsed, error = None, f"{type(exc).__name__}: {exc}"
        if isinstance(parsed, JudgeVerdict):
            return Verdict(parsed.contradicts, parsed.reason, "llm")
        self.failures += 1
        log.info("LLM judge gave no verdict (%s); using the heuristic", error)
        fb = self.fallback.judge(statement, fact)
        return Verdict(fb.contradicts, f"{fb.reason} (heuristic; the model gave no verdict: {error})",
                       "llm-fallback")


# ---------------------------------------------------------------------- check


def check_contradiction(
    statement: str,
    index_or_candidates: FactIndex | Sequence[FactRecord | ScoredFact],
    judge: Judge | None = None,
    *,
    k: int = 8,
    current_scene: int | None = None,
) -> ContradictionReport:
    """Judge the statement against the k most related live Facts and its subjects' Traits (or the given candidates)."""
    judge = judge or HeuristicJudge()
    if isinstance(index_or_candidates, FactIndex):
        candidates = [sf.record for sf in hybrid_search(index_or_candidates, statement, k,
                                                        current_scene=current_scene,
                                                        weights=SAME_SUBJECT_WEIGHTS)]
        seen = {c.id for c in candidates}
        candidates += [t for t in traits_of_named(index_or_candidates, statement) if t.id not in seen]
    else:
        candidates = [c.record if isinstance(c, ScoredFact) else c for c in index_or_candidates]
        candidates = [c for c in candidates if not c.removed]
    found: list[tuple[FactRecord, str]] = []
    for fact in candidates:
        verdict = judge.judge(statement, fact)
        if verdict.contradicts:
            found.append((fact, verdict.reason))
    return ContradictionReport(bool(found), found, len(candidates))
