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

from . import contradiction_words as W
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

_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
                      "ninety": 90, "hundred": 100, "thousand": 1000, "dozen": 12, "single": 1, "once": 1,
                      "twice": 2})
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CLAUSE = re.compile(r"[,;:.!?()]|\b(?:but|only|yet|although|though|except|if|unless|while|whereas|so)\b")
_HYPOTHETICAL = re.compile(r"\b(?:if|unless|whether)\b")
_IRREALIS = re.compile(W.IRREALIS)
_PURPOSE = re.compile(W.PURPOSE)
NEGATION_SCOPE = 1  # content words after a negator that it negates ("cannot read the ledgers": read)
COMPLEMENT = 3  # content words after a predicate that say what it is about


def _normalise(text: str) -> str:
    t = " " + text.lower().replace("’", "'").replace("n't", " not") + " "
    t = re.sub(r"^\s*tenet\s*:", " ", t)
    for phrase, repl in W.PHRASES:
        t = re.sub(rf"\b{phrase}\b", repl, t)
    return t


def _words(text: str) -> list[str]:
    return _WORD.findall(_normalise(text))


def _is_negator(w: str) -> bool:
    return w in W.NEGATORS or w.endswith("n't")


def _term(w: str) -> str:
    """A comparable form of a word: its concept if it has one, else its stem."""
    return W.LEMMAS.get(w) or stem(w)


@dataclass
class _Clause:
    terms: list[str]  # content terms in order
    negated: list[bool]
    raw: list[str] = field(default_factory=list)  # the words themselves, for comparing what a predicate is about


@dataclass
class _Reading:
    """What the judge reads from one text: content terms per clause, which are negated, and its names."""

    clauses: list[_Clause]
    words: list[str]
    text: str
    names: set[str]
    victims: set[str] = field(default_factory=set)  # names killed in it ("The fever killed Tom": tom)

    @property
    def terms(self) -> set[str]:
        return {t for c in self.clauses for t in c.terms}

    @property
    def negated(self) -> set[str]:
        return {t for c in self.clauses for t, n in zip(c.terms, c.negated) if n}

    @property
    def asserted(self) -> set[str]:
        return {t for c in self.clauses for t, n in zip(c.terms, c.negated) if not n}

    def after_word(self, concepts: set[str]) -> set[str]:
        """Content words right after a word of these concepts: "before the fire" gives {"fire"}."""
        out: set[str] = set()
        for i, w in enumerate(self.words):
            if W.LEMMAS.get(w) in concepts:
                out.update(stem(x) for x in self.words[i + 1:i + 4] if x not in STOPWORDS)
        return out

    def passive(self, term: str) -> bool:
        """Whether `term` is followed by "by" (done to the subject, not by it)."""
        for i, w in enumerate(self.words[:-1]):
            if _term(w) == term and self.words[i + 1] == "by":
                return True
        return False

    def after(self, term: str, skip: set[str]) -> set[str]:
        """The next few content words after `term` in its clause(s), as 4-letter stems and kinds: what it is about."""
        out: set[str] = set()
        for c in self.clauses:
            for i, t in enumerate(c.terms):
                if t == term:
                    nxt = [(x, r) for x, r in zip(c.terms[i + 1:], c.raw[i + 1:])
                           if x not in skip and r not in W.PLACE_PREPS][:COMPLEMENT]
                    for x, r in nxt:
                        out.add(r[:4])
                        if r in W.CLASSES:
                            out.add(W.CLASSES[r])
                        if r in W.ANY or x in W.ANY:
                            out.add("*")
        return out


def _clauses(norm: str) -> list[tuple[str, bool]]:
    """(clause text, is a wish): split at punctuation and joins, then at wishes, then at purposes outside wishes."""
    out: list[tuple[str, bool]] = []
    for part in re.split(r"(?=\b(?:if|unless|whether)\b)|[,;:.!?()]|\b(?:but|yet|although|though|except|while|whereas)\b",
                         norm):
        pieces = re.split(f"({W.IRREALIS})", part or "")
        out += [(x, False) for x in re.split(f"(?={W.PURPOSE})", pieces[0])]
        for k in range(1, len(pieces), 2):
            out.append((pieces[k + 1], True))
    return out


def _kills_someone(words: Sequence[str], k: int, names: set[str]) -> bool:
    """`words[k]` is a killing done BY the subject to an object ("killed the sheriff", "murdered
    Vane"), not a death suffered ("was killed", "drowned in the mere", "killed by a fever")."""
    if words[k] not in W.KILLING:
        return False
    prev = words[k - 1] if k else ""
    if prev in W.COPULAS or prev in ("got", "gets", "getting", "get", "had", "has", "have", "being"):
        return prev in ("had", "has", "have") and k + 1 < len(words) and (words[k + 1] in W.OBJECT_OPENERS
                                                                         or _term(words[k + 1]) in names)
    nxt = words[k + 1] if k + 1 < len(words) else ""
    return nxt in W.OBJECT_OPENERS or (bool(nxt) and _term(nxt) in names)


def _read(text: str) -> _Reading:
    norm = _normalise(text)
    names = _proper_nouns(text)
    clauses: list[_Clause] = []
    carry = 0  # a negation left open at a clause's end ("does not" + "want to leave")
    for raw, wish in _clauses(norm):
        if not raw or _HYPOTHETICAL.match(raw.strip()) or _PURPOSE.match(raw.strip()):
            carry = 0
            continue  # "shatters if it touches iron", "sold it to pay them": nothing told happened
        words = _WORD.findall(raw)  # a wish ("hoping to leave") is kept apart: "does not want to leave" meets it
        prefix = "wish:" if wish else ""
        clause = _Clause([], [], [])
        scope = carry if wish else 0
        carry = 0
        subject_next = False  # "No ship ...": the next content word is the quantified subject, not denied
        universal = False
        in_phrase = False
        seen_content = False
        for k, w in enumerate(words):
            if _is_negator(w):
                if not seen_content and w in W.UNIVERSAL_NEGATORS:
                    nxt = words[k + 1] if k + 1 < len(words) else ""
                    if nxt in ("who", "that", "which"):
                        continue  # "nobody who sees it is ever the same": too tangled to read; deny nothing
                    universal = True
                    subject_next = w == "no" and nxt != "one" and nxt not in STOPWORDS
                    scope = 1  # "Nobody can leave the island": the deed is denied
                    continue
                scope = max(scope, NEGATION_SCOPE)
                continue
            if w in W.PLACE_PREPS or w == "of":
                in_phrase = universal and bool(scope) and not seen_content
            if w in ("what", "who", "which", "that", "where", "when"):
                scope = 0  # "does not get what was wanted": the negation stops at the relative clause
            if w in STOPWORDS and w not in W.LEMMAS:
                continue
            if w in _NUMBER_WORDS or w.isdigit():
                continue
            if w in W.LIGHT and scope and not wish:
                continue
            if w in W.DENYING:  # "illiterate": read, denied
                clause.terms.append(prefix + W.DENYING[w])
                clause.raw.append(W.DENYING[w])
                clause.negated.append(scope == 0)
                seen_content = True
                continue
            prev = words[k - 1] if k else ""
            prev2 = words[k - 2] if k > 1 else ""
            nxt = words[k + 1] if k + 1 < len(words) else ""
            naming = (prev in W.NAMING_DETS or prev.endswith("'s")) and prev2 not in W.COPULAS
            # "loyal to a dead captain" names the captain; "is a crooked priest" and a Trait's first word say so
            naming = naming or (prev in ("a", "an") and prev2 not in W.COPULAS and nxt and nxt not in STOPWORDS
                                and nxt not in W.PLACE_PREPS and nxt not in W.LEMMAS)
            if w in W.STATE_WORDS and naming:
                t = "attr:" + w  # "the drowned girl", "the dead": who is meant, not what is said of them
            elif _kills_someone(words, k, names):
                t = "deed:" + w  # "killed the sheriff": the sheriff died, not the one who did it
            elif w in W.WEAK:
                t = "weak:" + w
            else:
                t = _term(w)
            clause.terms.append(prefix + t)
            clause.raw.append(w)
            if subject_next or in_phrase:
                subject_next = in_phrase = False
                clause.negated.append(False)
                continue
            seen_content = True
            clause.negated.append(scope > 0)
            if scope > 0:
                scope -= 1
        clauses.append(clause)
        carry = scope if not clause.terms or not seen_content or scope else 0
    words = _WORD.findall(norm)
    victims = {_term(words[k + 1]) for k in range(len(words) - 1)
               if _kills_someone(words, k, names) and _term(words[k + 1]) in names}
    return _Reading(clauses, words, text, names, victims)


def _proper_nouns(text: str) -> set[str]:
    """Capitalised words not opening a sentence: names are who, not what, so they never 'flip'."""
    out: set[str] = set()
    for sentence in re.split(r"[.!?;:]\s*", re.sub(r"^\s*Tenet\s*:", "", text)):
        words = re.findall(r"[A-Za-z][A-Za-z']*", sentence)
        out.update(_term(w.lower().removesuffix("'s")) for w in words[1:] if w[0].isupper())
    return out


_DETERMINERS = frozenset("the a an his her their my your its our".split())


def _lost_a_thing(words: Sequence[str], i: int) -> bool:
    """ "lost the crucifix" (a thing), not "lost the duel" (a contest, the opposite of winning it)."""
    after = words[i + 1:i + 3]
    return len(after) == 2 and after[0] in _DETERMINERS and after[1] not in W.CONTESTS


def _concepts(r: _Reading) -> tuple[set[str], set[str]]:
    """(asserted concepts, negated concepts) of a reading, "lost the ring" not counted as losing a contest."""
    lost_thing = any(w in ("lost", "loses") and _lost_a_thing(r.words, i) for i, w in enumerate(r.words))
    concepts = set(W.LEMMAS.values())
    asserted = {t for t in r.asserted if t in concepts}
    negated = {t for t in r.negated if t in concepts}
    if lost_thing:
        asserted.discard("lose")
    return asserted, negated


def _numbers(words: Sequence[str]) -> list[tuple[int, str]]:
    """(number, the noun it counts): "three hundred crowns" is (300, crown); partitives ("two of") skipped."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w.isdigit() or (w in _NUMBER_WORDS and w not in ("single", "once", "twice", "one")):
            value = int(w) if w.isdigit() else _NUMBER_WORDS[w]
            j = i + 1
            while j < len(words) and words[j] in _NUMBER_WORDS and words[j] not in ("single", "once", "twice"):
                nxt = _NUMBER_WORDS[words[j]]
                value = value * nxt if nxt >= 100 else value + nxt
                j += 1
            noun = next((words[k] for k in range(j, min(j + 3, len(words))) if words[k] not in STOPWORDS), "")
            partitive = j < len(words) and words[j] == "of"
            if noun and not partitive and not (j + 1 < len(words) and words[j + 1] == "of"):
                out.append((value, stem(noun)))
            i = j
            continue
        if w == "one" and i + 1 < len(words) and words[i + 1] not in STOPWORDS and words[i + 1] != "of":
            out.append((1, stem(words[i + 1])))
        i += 1
    return out


def _exclusive(words: Sequence[str]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for kind, values in W.EXCLUSIVE.items():
        found = {values[w] for w in words if w in values}
        if found:
            out[kind] = found
    periods = {W.PERIODS[words[i + 1]] for i, w in enumerate(words[:-1])
               if w in ("every", "each", "a", "per") and words[i + 1] in W.PERIODS}
    periods |= {W.PERIODS[w] for w in words if w in ("daily", "weekly", "monthly", "yearly", "annually", "nightly")}
    if periods:
        out["how often"] = periods
    return out


def _places(words: Sequence[str]) -> set[str] | None:
    """Content words of the place after a locative verb ("lives above the bakery": bakery), or None."""
    for i, w in enumerate(words):
        if w not in W.LOCATIVE_VERBS or (i and (words[i - 1] in W.NAMING_DETS or words[i - 1] in ("a", "an"))):
            continue  # "a hidden door" names a door; it does not say where something is
        for j in range(i + 1, min(i + 4, len(words))):
            if words[j] in W.PLACE_PREPS:
                place = set()
                for x in words[j + 1:j + 7]:
                    if _is_negator(x):
                        break
                    if x not in STOPWORDS and x not in W.PLACE_PREPS and not x.isdigit():
                        place.add(stem(x))
                return place or None
    return None


def _one_way(text: str) -> list[tuple[str, str, str]]:
    """(who, relation, whom) for one-way relations between two capitalised names: "Lamb answers to Reyes"."""
    out = []
    toks = re.findall(r"[A-Za-z][A-Za-z']*", re.sub(r"^\s*Tenet\s*:", "", text))
    for i, tok in enumerate(toks):
        if tok.lower() in W.ONE_WAY:
            before = [t for t in toks[:i] if t[0].isupper()]
            after = []
            for t in toks[i + 1:]:
                if t[0].isupper():
                    after.append(t)
                elif after and t.lower() not in ("of", "the"):
                    break
            if before and after:
                out.append((before[-1].lower(), stem(tok.lower()), after[-1].lower()))
    return out


class HeuristicJudge:
    """Flags a pair that shares a subject and cannot both hold, by a handful of explainable rules.

    Rules, in order: a Tenet's prohibition met (a thing the world denies, done or
    present); a one-way relation reversed ("A answers to B" / "B answers to A");
    kin denied ("not related"); opposite concepts ("dead" vs "alive", "crooked" vs
    "honest") that no negation cancels; a shared predicate negated in one text only,
    about the same things; two places for the same locative predicate; exclusive
    values (seasons, times of day, how often); a long tenure against a recent start;
    different counts of the same thing; a thing held against a thing sold or lost.
    Deliberately simple and explainable; it misses contradictions that need world
    knowledge ("raised in Velm" vs "raised on a farm") and the eval says how often.
    """

    def judge(self, statement: str, fact: FactRecord) -> Verdict:
        s, f = _read(statement), _read(fact.text)
        name = {_term(w) for w in _WORD.findall((fact.component_name or "").lower())} - STOPWORDS
        is_tenet = fact.kind == "tenet" or fact.text.lstrip().lower().startswith("tenet:")
        if is_tenet:
            reason = self._tenet(s, f)
            if reason:
                return Verdict(True, reason)
        reason = self._reversed(statement, fact.text) or self._kin(s, f)
        if reason:
            return Verdict(True, reason)
        s_terms, f_terms = self._with_classes(s.terms), self._with_classes(f.terms)
        shared = s_terms & f_terms
        subject = (name & s_terms) or shared
        if not subject:
            return Verdict(False, "no shared subject")
        if self._different_things(s.words, f.words):
            return Verdict(False, "about different things (another direction or side)")
        predicates = shared - name
        about = ", ".join(sorted(subject))
        checks = [self._antonym, self._flip, self._place, self._exclusive, self._tenure, self._count, self._loss]
        if is_tenet:
            checks.remove(self._loss)  # "Lost the photograph" does not deny that photographs exist
        if fact.kind == "event":  # two deeds in two places or hours are two moments, not a clash
            checks = [c for c in checks if c not in (self._place, self._exclusive)]
        for check in checks:
            reason = check(s, f, predicates, name)
            if reason:
                return Verdict(True, f"{reason} (about {about})")
        return Verdict(False, "no negation, opposite, place, time or number clash found")

    # ---------------------------------------------------------------- rules

    @staticmethod
    def _with_classes(terms: set[str]) -> set[str]:
        return terms | {W.CLASSES[t] for t in terms if t in W.CLASSES}

    @staticmethod
    def _different_things(sw: Sequence[str], fw: Sequence[str]) -> bool:
        """ "The east gate" vs "the west gate": other sides of one kind of thing are different things."""
        sd = {W.EXCLUSIVE["direction"][w] for w in sw if w in W.EXCLUSIVE["direction"]}
        fd = {W.EXCLUSIVE["direction"][w] for w in fw if w in W.EXCLUSIVE["direction"]}
        return bool(sd and fd and not sd & fd)

    def _tenet(self, s: _Reading, f: _Reading) -> str | None:
        """A Tenet denies something ("no magic", "guns do not exist", "animals cannot speak"); the statement has it."""
        s_terms = self._with_classes(s.asserted)
        for c in f.clauses:
            denied = [t for t, n in zip(c.terms, c.negated) if n]
            if not denied:
                continue
            subject = [t for t, n in zip(c.terms, c.negated) if not n]
            if "exist" in denied:  # "Ghosts do not exist": the subject itself is denied
                hit = sorted(set(subject) & s_terms)
                if hit:
                    return f"the Tenet says there is no {hit[0]}, and the statement has one"
                continue
            objects = [c.terms[i + 1] for i, t in enumerate(c.terms[:-1]) if t in denied and c.raw[i] in W.HOLDING_VERBS]
            hit = [t for t in denied + objects if t in s.asserted and t not in f.names and not t.startswith("weak:")]
            if not hit:
                continue
            t = hit[0]
            whom = [x for x in subject if x not in ("world", "land", "realm", "valley", "city", "stay")]
            if whom and not (set(whom) & s_terms):
                continue  # "Animals cannot speak": only an animal speaking breaks it
            if t in objects:
                return f"the Tenet denies '{t}', and the statement has it"
            want, got = c.terms[c.terms.index(t) + 1:][:COMPLEMENT], s.after(t, set())
            if want and got and not (set(want) & got) and not (set(want) & s_terms):
                continue  # "nobody returns from the grave" vs "returns to the inn"
            return f"the Tenet denies '{t}', and the statement has it"
        for pair in W.ANTONYMS:  # "The gods are silent" vs a god speaking
            fa, sa = (f.asserted - f.negated) & pair, (s.asserted - s.negated) & pair
            if len(fa) == 1 and len(sa) == 1 and fa != sa and (self._with_classes(f.asserted) - pair) & s_terms:
                return f"the Tenet says '{next(iter(fa))}', the statement '{next(iter(sa))}'"
        return None

    @staticmethod
    def _reversed(statement: str, fact: str) -> str | None:
        for a, rel, b in _one_way(statement):
            for c, rel2, d in _one_way(fact):
                if rel == rel2 and a == d and b == c and a != b:
                    return f"the relation '{rel}' runs the other way ({c} to {d})"
        return None

    @staticmethod
    def _kin(s: _Reading, f: _Reading) -> str | None:
        if any(k in f.words for k in W.KIN) and not f.negated & {stem(k) for k in W.KIN}:
            low = " ".join(s.words)
            if any(u in low for u in W.UNRELATED) and f.names & s.names:
                kin = next(k for k in W.KIN if k in f.words)
                return f"kin ('{kin}') vs strangers"
        return None

    def _antonym(self, s: _Reading, f: _Reading, predicates: set[str], name: set[str]) -> str | None:
        sa, sn = _concepts(s)
        fa, fn = _concepts(f)
        sa |= {"dead"} if name & s.victims else set()  # "The fever killed Tom" about Tom: Tom is dead
        fa |= {"dead"} if name & f.victims else set()
        for pair in W.ANTONYMS:
            s_side, f_side = (sa | sn) & pair, (fa | fn) & pair
            if len(s_side) == 1 and len(f_side) == 1 and s_side != f_side:
                if (s_side & sn) or (f_side & fn):
                    continue  # "not dead" vs "alive" agree
                if pair == frozenset(("before", "after")) and not (s.after_word(s_side) & f.after_word(f_side)):
                    continue  # "after X is done" vs "before dawn": before and after different things
                (a,), (b,) = s_side, f_side
                return f"'{a}' vs '{b}'"
        return None

    def _flip(self, s: _Reading, f: _Reading, predicates: set[str], name: set[str]) -> str | None:
        proper = s.names | f.names
        s_cls = {t: W.CLASSES[t] for t in s.terms if t in W.CLASSES}
        f_cls = {t: W.CLASSES[t] for t in f.terms if t in W.CLASSES}
        candidates = set(predicates)
        # "has no pets" vs "has a dog": a denied kind against one of its members
        for neg, other, cls in ((s, f, f_cls), (f, s, s_cls)):
            for t, c in cls.items():
                if (c in neg.negated or (c == "animal" and "pet" in neg.negated and t in W.PET_ANIMALS)) \
                        and t in other.asserted:
                    return f"one says no {c if c in neg.negated else 'pet'}, the other has a {t}"
        for p in sorted(candidates - proper - name):
            if p.startswith("weak:") or not (name & s.terms or candidates - {p}):
                continue  # the only thing shared is the word that flips: "broken arm" vs "cannot be broken"
            s_neg, f_neg = p in s.negated, p in f.negated
            s_pos, f_pos = p in s.asserted, p in f.asserted
            if not ((s_neg and f_pos and not f_neg) or (f_neg and s_pos and not s_neg)):
                continue
            if s.passive(p) != f.passive(p):
                continue  # "trusted by the ranchers" vs "will not trust Moss": other people, other way
            skip = name | proper
            a, b = s.after(p, skip), f.after(p, skip)
            if a and b and not (a & b) and "*" not in a | b:
                continue  # "doesn't speak to her brother" vs "speaks three languages": other things
            return f"one says not, the other says so: {p}"
        return None

    @staticmethod
    def _place(s: _Reading, f: _Reading, predicates: set[str], name: set[str]) -> str | None:
        sp, fp = _places(s.words), _places(f.words)
        if sp and fp and not (sp & fp) and not (sp & f.terms) and not (fp & s.terms):
            return f"in two places at once ({', '.join(sorted(fp))} vs {', '.join(sorted(sp))})"
        return None

    @staticmethod
    def _exclusive(s: _Reading, f: _Reading, predicates: set[str], name: set[str]) -> str | None:
        if not (predicates - {"time", "day", "year"}):
            return None
        se, fe = _exclusive(s.words), _exclusive(f.words)
        for kind in se.keys() & fe.keys():
            if kind == "direction":
                continue
            if len(se[kind]) == 1 and len(fe[kind]) == 1 and se[kind] != fe[kind]:
                return f"{kind}: {next(iter(fe[kind]))} vs {next(iter(se[kind]))}"
        return None

    @staticmethod
    def _tenure(s: _Reading, f: _Reading, predicates: set[str], name: set[str]) -> str | None:
        """ "for twenty years" vs "last month"/"yesterday" about the same role or deed."""
        def long(words: Sequence[str]) -> bool:
            return any(w in W.LONG_UNITS for w in words) or "always" in words

        def recent(words: Sequence[str]) -> bool:
            joined = " ".join(words)
            return bool(set(words) & W.RECENT) or any(f"last {u}" in joined for u in ("week", "month", "night"))
        if predicates and ((long(f.words) and recent(s.words)) or (long(s.words) and recent(f.words))):
            return "a long time vs just now"
        return None

    @staticmethod
    def _count(s: _Reading, f: _Reading, predicates: set[str], name: set[str]) -> str | None:
        sn, fn = _numbers(s.words), _numbers(f.words)
        for a, noun in sn:
            others = {b for b, n2 in fn if n2 == noun}
            if others and a not in others:
                return f"numbers differ ({a} vs {sorted(others)[0]} {noun})"
        return None

    @staticmethod
    def _loss(s: _Reading, f: _Reading, predicates: set[str], name: set[str]) -> str | None:
        """ "sold the signet ring" against a Fact that has it (and does not say it was lost)."""
        if set(f.words) & (W.LOSS_VERBS | {"lose", "loses", "losing", "sell", "sells", "selling"}):
            return None
        for i, w in enumerate(s.words):
            if w in W.LOSS_VERBS and not any(_is_negator(x) for x in s.words[max(0, i - 3):i]):
                obj = {stem(x) for x in s.words[i + 1:i + 5] if x not in STOPWORDS} - name - s.names
                hit = obj & (f.terms - name)
                if hit and w != "lost" or (w == "lost" and hit and _lost_a_thing(s.words, i)):
                    return f"'{w}' the {', '.join(sorted(hit))} it still has"
        return None


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
