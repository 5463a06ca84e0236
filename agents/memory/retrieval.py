"""Hybrid retrieval: dense + BM25 + component matching + scene recency, fused by weighted sum.

Why: players ask in other words than the Facts were bought in ("who burned the
woods?" vs "The Slytheran set the forest fire"), and about characters by what
they are rather than by name. Each extra signal covers a different miss: BM25
catches rare shared words and names, component matching routes "the boatman" to
everything known about Odo the ferryman (his Facts use the word), linking
(linking.py) reads "the smuggler captain" as Hale Ditmar because one of his
Traits says so, and scene recency breaks ties towards what is on the table.
When the question names a component, the dense score is mostly taken on the
question without that name ("Can Thale swim?" -> "Can swim?"): the name already
picked the component, and left in, it makes every Fact that repeats it look close;
for the same reason that rest is also compared with the Facts' own words with
their names blanked ("someone heals someone"). Places described in other words
("the royal hall") are recognised by their names, questions about the beginning
or the end of the story favour its first or last scenes, questions about
wounds favour the Traits a conflict's winner bought for its losers, and a wound
asked about brings up the outcome of the roll that left it, and "what does X
do?" favours the Trait X entered the story with. When the index
also holds a second embedder's vectors (e5), its similarity is one more channel:
it knows words MiniLM does not ("sawbones" for the doctor). Every result
carries its per-signal scores, so a decision can show why a Fact was recalled.

Speed (issue 26): everything read here comes from the index's retrieval cache (derived.py), which
each write updates in place and which is saved with the index, so nothing is rebuilt when a table
opens or after a Fact; dense scores are exact products over the cached vectors, and the Facts'
name-blind wordings were embedded when they were written. What a query pays for is embedding the
question once: when it says a name, its `rest` is pooled from the same pass (`pooled_rest`), and
the question and its rest each take one exact product over the Facts' vectors. Embedding the question's short phrases for
linking (`HybridWeights.phrases`, `[memory] link_phrases`) is off by default: it made a query cost 3
to 5 times brute force (each phrase is a MiniLM pass), for recall@10 0.983 against 0.966 without it on
the blind retrieval set (eval/memory/blind.py, dense 0.862). Component profiles by meaning, which cost
an embedding per component and added nothing on unseen games, were dropped before
(eval/data/memory_ablation.json).
"""

from __future__ import annotations

import math
import re
import weakref
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .bm25 import BM25, stem, tokenize
from .index import FactIndex
from .linking import Link, link_components, link_places
from .records import FactRecord

__all__ = [
    "DEFAULT_WEIGHTS",
    "PHRASE_WEIGHTS",
    "SAME_SUBJECT_WEIGHTS",
    "HybridWeights",
    "ScoredFact",
    "context_for_decision",
    "dense_search",
    "traits_of_named",
    "estimate_tokens",
    "hybrid_search",
]


@dataclass(frozen=True)
class ScoredFact:
    """A recalled Fact, its fused score and the per-signal scores that made it."""

    record: FactRecord
    score: float
    sources: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class HybridWeights:
    """Fusion weights and candidate pool sizes.

    The channel weights (the keys of `ScoredFact.sources`) are fitted, not hand-tuned: a listwise
    softmax loss over the eleven probes the fit may use (eval/memory/fit.py). Fitted on all but one and
    measured on that one, the played games average 0.867 against 0.848 for the hand-tuned weights;
    probe 11 is not fitted on. Refitted for issue 26 when the profile channel was dropped (leave-one-game-out
    unchanged at 0.867), and again when the question's phrases stopped being embedded by default
    (`phrases`; python -m eval.memory.ablation --only no_phrases): leave-one-game-out 0.826 on the played
    probes, probe 11 0.797, the blind retrieval set 0.931 (dense 0.862). `PHRASE_WEIGHTS` are the
    weights fitted with phrases (0.867, 0.862, 0.983). The comments below say what each channel is; where
    they mention a signal "chosen" or "kept" on the probes' halves, that decided whether the channel
    exists, and the fit decided its weight (0 turns a channel off: the name and alias matches still
    pick candidates and feed other channels, but add nothing to the score).
    """

    dense: float = 0.133
    lexical: float = 0.015
    name: float = 0.071
    alias: float = 0.052
    scene: float = 0.009  # only when the caller says which scene is being played
    dense_pool: int = 60
    lexical_pool: int = 60
    profile_components: int = 2  # how many components whose Facts best share the question's words get `alias`
    max_component_facts: int = 300
    recency_scenes: float = 4.0  # scene distance at which the recency boost falls to 1/e
    # Dense score of the question without the component names it says (the same as `dense` when it
    # names none, so dense + rest is the dense weight).
    rest: float = 0.271
    # Linking (linking.py): a question phrase within `link_threshold` (cosine) of a component's Trait
    # refers to that component. `named`: dense score of the question with such phrases replaced by the
    # names they refer to; `about`: the Fact mentions a referred component (such Facts always join the
    # candidates). Rejected on the probes' halves: a "Who ... Y?" boost for Facts done to Y, and
    # embedding Traits with their bearer's name. (`about` was off while hand-tuned; the fit turns it on.)
    named: float = 0.271
    about: float = 0.0
    # Share of `rest` taken against the Fact with every name replaced by "someone": "Who nursed ___ back
    # to health?" is closer to "someone heals someone" than to "Tamsin Hale heals Brother Cal in the
    # Crooked Lantern tavern", whose names weigh on its vector. Only when the question said names.
    blind: float = 0.5
    place: float = 0.221  # the Fact happened at a location the question refers to
    # A phrase names a place when its name is the closest of all names by a margin and this close (cosine):
    # place names are few and unlike each other, so this can be lower than `link_threshold`.
    place_threshold: float = 0.5
    origin: float = 0.247  # a question about who won or died, and a Fact the rules bought as an outcome or elimination
    # A question about the beginning or the end of the story (or of a place's part in it) favours the
    # first or last scene played there; the boost falls to 1/e `order_scenes` scenes away.
    order: float = 0.163
    # "Where ...?" is answered by a place: Facts filed under a location, and its scene details
    where: float = 0.148
    order_scenes: float = 1.0
    # An outcome Event of the roll that left a wound the question is close to (dense >= cause_threshold)
    cause: float = 0.091
    cause_threshold: float = 0.45
    pair: float = 0.12  # the Fact is about two or more of the components the question names or describes
    bearer: float = 0.077  # a Trait of the one component the question refers to (not the Trait it was referred by)
    distinct: bool = True  # one result per wording: a Fact bought again word for word adds nothing to read
    link_threshold: float = 0.7
    # Embed the question's short phrases (linking.py: a Trait or a place's name it describes). Off, a query
    # embeds only the question and, when it says a name, its rest: linking and places by meaning go, and
    # with them `about`, `named` and a linked `bearer` (issue 26: the phrases cost 3 to 4 question
    # embeddings, most of a query's time).
    phrases: bool = False
    # The rest's vector pooled from the question's own pass over the tokens that are not the name (one
    # embedding per question), instead of the rest embedded as a text of its own (two). Issue 26: the
    # second pass made a question that says a name cost twice one that does not, and at 100k Facts the
    # hybrid 2.05x brute force; pooled, 1.2-1.6x (CPU time). Its cost in recall@10, with the weights
    # fitted on the embedded rest (not refitted yet): blind set 0.931 either way, probe 11 (not fitted
    # on) 0.765 against 0.797, the fitted played probes 0.014 lower on average (-0.043 to +0.011).
    # False: the rest embedded as a text of its own, as before.
    pooled_rest: bool = True
    # The second embedder (e5, when the index has one: an option, off by default): its cosine with the
    # question, rescaled per question (see `_second_scores`). Not fitted (it needs the option installed):
    # 0.15 was chosen with the hand-tuned weights, and on probe 7, untouched, it did not help (0.798
    # against 0.809).
    second: float = 0.15
    # "What is X?", "What does X do (for a living)?", "X's trade / job / position": the Trait X entered
    # the story with (its first, not counting its bare name). Its words share nothing with the question,
    # and X's many deeds, which repeat the name, outscore it on every other channel. Chosen on probe 7's
    # halves after its one untouched measurement: tune halves of games 6 and 7 up, nothing down.
    identity: float = 0.575


DEFAULT_WEIGHTS = HybridWeights()
#: With the question's phrases embedded (`[memory] link_phrases`): the weights fitted with linking on (at
#: 4f9dfd5: leave-one-game-out 0.867 on the played probes, probe 11 0.862; blind set 0.983).
PHRASE_WEIGHTS = HybridWeights(dense=0.237, lexical=0.053, name=0.0, alias=0.024, scene=0.0, rest=0.415, named=0.282,
                               about=0.078, place=0.191, origin=0.252, order=0.184, where=0.164, cause=0.109,
                               pair=0.08, bearer=0.108, identity=0.707, phrases=True)
#: For contradiction candidates: a contradiction needs the same subject, so the name stays in the dense
#: score (with DEFAULT_WEIGHTS other characters' Facts crowd in and the offline judge's false alarms double).
SAME_SUBJECT_WEIGHTS = HybridWeights(dense=1.0, lexical=0.1, name=0.05, alias=0.2, scene=0.05,
                                     rest=0.0, named=0.0, about=0.0, blind=0.0, place=0.0, bearer=0.0, order=0.0,
                                     origin=0.2, pair=0.2, identity=1.0, cause=0.0, where=0.0, second=0.0)


class _Corpus:
    """Hybrid retrieval's view of the index's retrieval cache (derived.py).

    Nothing here is rebuilt per query or per write: the cache is updated with each write and
    saved with the index; the few views computed from it are computed at most once per write.
    """

    def __init__(self, index: FactIndex) -> None:
        self.d = index.derived
        self._index = weakref.ref(index)
        self.by_id = self.d.records
        self.bm25 = self.d.bm25
        self.names = self.d.names
        self.name_tokens = self.d.name_tokens
        self.place_of = self.d.place_of
        self.first_trait = self.d.first_trait
        self.traits = self.d.trait_list
        self.by_scene = self.d.groups["by_scene"]

    @property
    def trait_vectors(self) -> np.ndarray:
        """Stored vectors of the live Traits, in `traits` order."""
        return self.d.trait_vectors

    def row_id(self, row: int) -> str:
        return self.d.row_ids[row] or ""

    def members(self, group: str, key: object, limit: int) -> list[str]:
        return self.d.members(group, key, limit)

    def name_blind(self, text: str) -> str:
        """The Fact's words with every component's name replaced by "someone": "someone heals someone"."""
        said = self.d.names_said
        if said is None:
            return text
        return " ".join(said.sub(" someone ", text).split()) or text

    @property
    def name_ids(self) -> list[str]:
        return self.d.view("name_ids", lambda: list(self.names))

    @property
    def name_vectors(self) -> np.ndarray:
        """Embeddings of the components' names, in `name_ids` order; a new name is embedded once and saved."""
        def build() -> np.ndarray:
            ids = self.name_ids
            index = self._index()
            if not ids or index is None:
                return np.zeros((0, 1), dtype=np.float32)
            missing = sorted({self.names[c] for c in ids} - set(self.d.name_vecs))
            if missing:
                self.d.add_name_vectors(dict(zip(missing, index.embed(missing))))
            return np.stack([self.d.name_vecs[self.names[c]] for c in ids])
        return self.d.view("name_vectors", build)

    @property
    def second_matrix(self) -> tuple[dict[str, int], np.ndarray]:
        """The live Facts' rows (id -> row) and their second-embedder vectors, fetched once per write.

        The second embedder is an option, off by default; its vectors stay in its Chroma collection.
        """
        def build() -> tuple[dict[str, int], np.ndarray]:
            index = self._index()
            live = [r.id for r in self.d.all_records(include_removed=False)]
            got = index.second_embeddings_for(live) if index is not None else {}
            ids = [i for i in live if i in got]
            return ({i: row for row, i in enumerate(ids)},
                    np.stack([got[i] for i in ids]) if ids else np.zeros((0, 1), dtype=np.float32))
        return self.d.view("second_matrix", build)


def _corpus(index: FactIndex) -> _Corpus:
    return _Corpus(index)


def dense_search(index: FactIndex, query: str, k: int = 10, include_removed: bool = False) -> list[ScoredFact]:
    """Plain Chroma nearest neighbours: the baseline the hybrid must beat."""
    return [ScoredFact(r, s, {"dense": s}) for r, s in index.query(query, k, include_removed=include_removed)]


def _component_scores(corpus: _Corpus, qterms: set[str], w: HybridWeights) -> dict[str, dict[str, float]]:
    """Component id -> {"name", "alias"} match strengths in [0, 1].

    name: the question says the component's name outright ("Marissa").
    alias: the question's rare words occur in that component's Facts ("the duke").
    (A third, "profile", the question's closeness in meaning to all that is known of a component,
    was dropped: it cost an embedding per component and added nothing on games not fitted on,
    eval/data/memory_ablation.json.)
    """
    scores: dict[str, dict[str, float]] = {}
    for c, tokens in corpus.name_tokens.items():
        if tokens and tokens & qterms:
            scores.setdefault(c, {})["name"] = max(0.6, len(tokens & qterms) / len(tokens))
    profiles = corpus.d.profile_bm25
    mass = profiles.query_mass(list(qterms))
    if mass > 0:
        for j, s in profiles.top(list(qterms), w.profile_components):
            scores.setdefault(corpus.d.profile_comps[j], {})["alias"] = min(1.0, s / mass)
    return scores


_TOKENS = re.compile(r"[A-Za-z0-9']+|[^A-Za-z0-9'\s]+")  # words, and runs of what is between them


def _name_tokens(text: str, names: set[str]) -> list[tuple[re.Match[str], bool]]:
    """Each token of the text, and whether it is a name: its stem (possessive or not) is in `names`."""
    return [(m, stem(m.group().lower().removesuffix("'s").removesuffix("’s")) in names) for m in _TOKENS.finditer(text)]


def _drop_names(text: str, names: set[str]) -> str:
    """The text without the words whose stems (possessive or not) are in `names`."""
    return " ".join(m.group() for m, name in _name_tokens(text, names) if not name)


def _name_spans(text: str, names: set[str]) -> list[tuple[int, int]]:
    """Character spans of the words `_drop_names` drops from the text."""
    return [m.span() for m, name in _name_tokens(text, names) if name]


def _without(query: str, names: set[str], phrases: Sequence[str]) -> str | None:
    """The question minus the name words and linked phrases it uses; None if it has none of them."""
    rest = query
    for phrase in sorted(phrases, key=len, reverse=True):
        rest = re.sub(re.escape(phrase), " ", rest, flags=re.IGNORECASE)
    if names:
        rest = _drop_names(rest, names)
    rest = " ".join(rest.split())
    if rest == " ".join(query.split()):
        return None
    return rest if tokenize(rest) else None


def _named(query: str, links: dict[str, Link], corpus: _Corpus) -> str | None:
    """The question with each phrase that names one component (a unique Link) replaced by its name."""
    out = query
    for ln in sorted(links.values(), key=lambda ln: -len(ln.phrase)):
        name = corpus.names.get(ln.component_id)
        says_name = corpus.name_tokens.get(ln.component_id, set()) & set(tokenize(ln.phrase))
        if ln.unique and name and not says_name:  # a name said outright stays out (see `rest`)
            out = re.sub(re.escape(ln.phrase), name, out, count=1, flags=re.IGNORECASE)
    return out if out != query else None


# Words of a question about how a conflict ended or who left the story, as `tokenize` stems them.
_DEATH = frozenset(stem(x) for x in "die died dies dead death kill killed kills slay slew slain murder murdered "
                   "murders eliminated perish perished fell fall fallen".split())
_OUTCOME = frozenset(stem(x) for x in "win won wins winner beat beaten beats defeat defeated lose lost loser prevail "
                     "prevailed better bested overcame overcome outcome fight fought duel conflict".split())


_HARM = frozenset(stem(x) for x in "wound wounded wounds injury injuries injured hurt hurts harm harmed scar scars "
                  "scarred maimed crippled bruise bruised bleeding bleed sick sickness ill illness disease "
                  "fever poisoned".split())


_CARE = frozenset(stem(x) for x in "tend tended tends tending bandage bandaged bandages dress dressed nurse nursed "
                  "heal healed heals treat treated treats patch patched stitch stitched mend mended "
                  "cure cured protect protected protects guard guarded guards shield shielded shields "
                  "defend defended defends safe keep kept keeps".split())


def _origins_asked(qterms: Sequence[str]) -> dict[str, float]:
    """Origin -> weight for a question about deaths (eliminations first), who won, or what a fight cost.

    Keys are an origin, or "origin:trait" for Traits of that origin: what a roll's bonus coins bought
    as Traits is what the conflict left on its losers (wounds, losses); as Events, how it went.
    """
    terms = set(qterms)
    wants: dict[str, float] = {}
    if terms & _DEATH:
        wants = {"elimination": 1.0, "outcome": 0.5}
    elif terms & _OUTCOME:
        wants = {"outcome": 1.0, "elimination": 1.0}
    # "Who tended the knight's wounds?" asks for the healer and "Who kept her from harm?" for the protector,
    # not the wound
    if terms & _HARM and not terms & _CARE:
        wants["outcome:trait"] = 1.0
    return wants


def _origin_key(rec: FactRecord) -> str:
    """"outcome:trait" for a Trait bought as an outcome; a Fact's plain origin otherwise."""
    return f"{rec.origin}:trait" if rec.kind == "trait" else (rec.origin or "")


def _bearer(rec: FactRecord, links: dict[str, Link], comp: dict[str, dict[str, float]], named: list[str]) -> float:
    """How surely `rec` is a Trait of the one component the question is about ("What wounds has Lysa?").

    That component is the one a phrase names uniquely (a Link), or the only one whose name the
    question says ("What does Okafor do?"); its name Trait says nothing about it and is left out.
    """
    cid = rec.component_id or ""
    if rec.kind != "trait" or rec.text.strip().lower() == (rec.component_name or "").strip().lower():
        return 0.0
    ln = links.get(cid)
    linked = ln.strength if ln is not None and ln.unique and ln.trait_id != rec.id else 0.0
    return max(linked, comp[cid]["name"] if named == [cid] else 0.0)


def _blend_blind(rest: dict[str, float], index: FactIndex, corpus: _Corpus, rest_vec: np.ndarray,
                 ids: set[str], share: float) -> dict[str, float]:
    """`rest` scores with `share` of each taken against the Fact's name-blind wording instead.

    The wordings' vectors were embedded when their Facts were written (derived.py); only a removed
    Fact, asked for with include_removed, is reworded and embedded here.
    """
    d = corpus.d
    ids_list = [i for i in ids if i in corpus.by_id]
    if not ids_list:
        return rest
    vecs = {i: d.wording_vector(i) for i in ids_list}
    missing = [i for i, v in vecs.items() if v is None]
    if missing:
        wordings = {i: corpus.name_blind(corpus.by_id[i].text) for i in missing}
        unique = list(dict.fromkeys(wordings.values()))
        embedded = dict(zip(unique, index.embed(unique)))
        vecs.update({i: embedded[w] for i, w in wordings.items()})
    matrix = np.stack([vecs[i] for i in ids_list])
    cos = (matrix @ rest_vec).tolist()
    return {i: (1 - share) * rest.get(i, 0.0) + share * c for i, c in zip(ids_list, cos)}


# Words of a question about when in the story: its beginning or its end ("Where did the story begin?").
_FIRST = frozenset(stem(x) for x in "begin began begins beginning start started starts first earliest".split())
_LAST = frozenset(stem(x) for x in "end ended ends ending last final finally latest".split())


_IDENTITY_REST = re.compile(r"^\s*(what|who)\s+(is|was|'s)\s*\W*$|^\s*what\s+does\s+do\s*\W*$", re.IGNORECASE)
_IDENTITY_WORDS = re.compile(r"\b(job|trade|position|calling|line of work|occupation|profession|for a living|known for|role)\b",
                             re.IGNORECASE)
_WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)
_STORY_OPENS = re.compile(r"\b(story|game|tale)\s+(open|opens|opened)\b", re.IGNORECASE)


_STORY = frozenset(stem(x) for x in "story game tale".split())  # "the story" in such a question is the game itself


def _order_asked(query: str, qterms: Sequence[str]) -> str | None:
    """"first" or "last" for a question about the beginning or the end of the story (not both), else None.

    "open" alone is usually a verb ("opened the vault"); "the story opened" is the beginning.
    """
    first = bool(set(qterms) & _FIRST or _STORY_OPENS.search(query))
    last = bool(set(qterms) & _LAST)
    return None if first == last else ("first" if first else "last")


def _order_target(order: str | None, corpus: _Corpus, at: dict[str, float]) -> int | None:
    """The scene a question about the beginning or the end points to: the first or last one played
    (at the place it refers to, if any: "the first time the story went to the village"); else None."""
    if order is None:
        return None
    if at:
        scenes = [corpus.by_id[i].scene for place in at for i in corpus.d.groups["at"].get(place, {})]
    else:
        scenes = list(corpus.by_scene)
    scenes = [x for x in scenes if x is not None]
    if not scenes:
        return None
    return min(scenes) if order == "first" else max(scenes)


def _order_score(rec: FactRecord, target: int | None, w: HybridWeights) -> float:
    if target is None or rec.scene is None:
        return 0.0
    return math.exp(-abs(rec.scene - target) / w.order_scenes)


def _causes(scored: Sequence[tuple[FactRecord, dict[str, float]]], threshold: float) -> dict[str, float]:
    """Outcome Event id -> how close to the question is a wound that conflict left ("Who broke Vane's arm?").

    A Trait bought as an outcome and an Event narrated as one, in the same scene and about the same
    component, come from the same roll: asked about the wound, the Event says who dealt it.
    """
    wounds: dict[tuple[int | None, str | None], float] = {}
    for rec, sources in scored:
        if rec.kind == "trait" and rec.origin == "outcome" and sources["dense"] >= threshold:
            key = (rec.scene, rec.component_id)
            wounds[key] = max(wounds.get(key, 0.0), sources["dense"])
    out: dict[str, float] = {}
    if not wounds:
        return out
    for rec, _ in scored:
        if rec.kind != "trait" and rec.origin == "outcome":
            out[rec.id] = max((wounds.get((rec.scene, c), 0.0) for c in rec.about), default=0.0)
    return out


def _second_scores(index: FactIndex, corpus: _Corpus, query: str, candidates: set[str]) -> dict[str, float]:
    """The second embedder's similarity of each candidate to the question: the median Fact 0, the nearest 1.

    e5's cosines crowd into a narrow band (most Facts of a game between 0.75 and 0.85), so a raw
    cosine would add nearly the same to every candidate; rescaled, it says how far above the
    ordinary Fact this one stands. Exact (one product over all live Facts): a game holds hundreds.
    """
    rows, matrix = corpus.second_matrix
    if not rows:
        return {}
    cos = matrix @ index.embed_second_queries([query])[0]
    median, top = float(np.median(cos)), float(cos.max())
    scale = 1.0 / (top - median + 1e-9)
    return {fid: min(1.0, max(0.0, (float(cos[rows[fid]]) - median) * scale)) for fid in candidates if fid in rows}


def _scene_score(scene: int | None, now: int | None, w: HybridWeights) -> float:
    if scene is None or now is None or scene > now:
        return 0.0
    return math.exp(-(now - scene) / w.recency_scenes)


def hybrid_search(
    index: FactIndex,
    query: str,
    k: int = 10,
    *,
    current_scene: int | None = None,
    include_removed: bool = False,
    kinds: Sequence[str] | None = None,
    weights: HybridWeights = DEFAULT_WEIGHTS,
) -> list[ScoredFact]:
    """Top-k Facts for a question, best first, each with its per-signal `sources`."""
    if k <= 0 or not query.strip() or index.count() == 0:
        return []
    w = weights
    corpus = _corpus(index)
    kind_filter = list(kinds) if kinds else None

    # text -> (its vector, its cosine with every row, its dense_pool nearest Facts with their cosines):
    # texts known ahead are embedded in one call and searched in one pass over the Facts' vectors
    searched: dict[str, tuple[np.ndarray, np.ndarray, dict[str, float]]] = {}

    def search(texts: Sequence[str], vecs: np.ndarray | None = None) -> None:
        vecs = index.embed(texts) if vecs is None else vecs
        found, sims = index.query_vectors(vecs, w.dense_pool, kind=kind_filter, include_removed=include_removed)
        for text, vec, hits, row in zip(texts, vecs, found, sims):
            searched[text] = (vec, row, {r.id: s for r, s in hits})

    def nearest(text: str) -> tuple[np.ndarray, np.ndarray, dict[str, float]]:
        if text not in searched:
            search([text])
        return searched[text]

    qterms = tokenize(query)
    order = _order_asked(query, qterms) if w.order > 0 else None
    words = [t for t in qterms if t not in _STORY] if order else qterms
    comp = _component_scores(corpus, set(words), w)
    named = [c for c, m in comp.items() if m.get("name")]  # the components whose names the question says
    said = set().union(*(corpus.name_tokens[c] for c in named), set())
    if not w.phrases and w.rest > 0:  # the rest is known before any embedding: one call embeds both
        rest_text = _without(query, said, [])
        if rest_text:
            search([query, rest_text],
                   index.embed_with_rest(query, _name_spans(query, said), rest_text) if w.pooled_rest else None)
    _, _, dense = nearest(query)
    mass = corpus.bm25.query_mass(words)
    expanded = corpus.bm25.expand(words)
    lexical_raw = sorted(corpus.bm25.weighted_scores(expanded).items(), key=lambda kv: -kv[1])[: w.lexical_pool]
    lexical = {corpus.row_id(i): min(1.0, s / mass) for i, s in lexical_raw} if mass > 0 else {}
    links = {}
    if w.phrases and (w.about > 0 or w.named > 0 or w.place > 0):
        links = link_components(query, corpus.traits, corpus.trait_vectors, index.embed, w.link_threshold)
    candidates = set(dense) | set(lexical)
    for c in sorted(comp, key=lambda c: -max(comp[c].values())):
        candidates.update(corpus.members("about", c, w.max_component_facts))
    for c in links:
        candidates.update(corpus.members("about", c, w.max_component_facts))
    at: dict[str, float] = {}  # place -> how surely the question refers to it: by description or by name
    for c in corpus.place_of.keys() & (set(links) | set(named)):
        at[corpus.place_of[c]] = max(links[c].strength if c in links else 0.0, comp.get(c, {}).get("name", 0.0))
        if w.place > 0:
            candidates.update(corpus.members("at", corpus.place_of[c], w.max_component_facts))
    if w.place > 0 and w.phrases:  # "the royal hall" for the queen's throne room: closer to its name than to any other
        places = link_places(query, corpus.name_ids, corpus.name_vectors, set(corpus.place_of), index.embed,
                             w.place_threshold)
        for c, ln in places.items():
            at[corpus.place_of[c]] = max(at.get(corpus.place_of[c], 0.0), ln.strength)
            candidates.update(corpus.members("at", corpus.place_of[c], w.max_component_facts))
    order_target = _order_target(order, corpus, at)
    if order_target is not None:  # that scene's Facts compete even when no other channel found them
        candidates.update(corpus.members("by_scene", order_target, w.max_component_facts))
    wants = _origins_asked(qterms) if w.origin > 0 else {}
    for origin in wants:
        candidates.update(corpus.members("by_origin", origin, w.max_component_facts))
    # Dense channels besides the whole question, each a reworded question:
    # "rest": the name (or description) picks the component, the rest of the question picks the Fact;
    # dense similarity with the whole question favours whatever repeats the name ("Corin Thale gets
    # away") over what answers it ("Bounty hunter").
    # "named": "Who bandaged the smuggler captain?" -> "Who bandaged Hale Ditmar?": the Facts say names.
    identity: set[str] = set()
    if w.identity > 0 and named:
        if _IDENTITY_REST.search(_drop_names(query, said)) or _IDENTITY_WORDS.search(query):
            identity = {corpus.first_trait[c] for c in named if c in corpus.first_trait}
            candidates.update(identity)
    rewordings = {"rest": _without(query, said, [ln.phrase for ln in links.values()]) if w.rest > 0 else None,
                  "named": _named(query, links, corpus) if w.named > 0 else None}
    channels: dict[str, tuple[np.ndarray, np.ndarray, dict[str, float]]] = {"dense": nearest(query)}
    for key, text in rewordings.items():
        if text:
            channels[key] = nearest(text)
            candidates.update(channels[key][2])
    for i in candidates:  # a candidate one search did not return is scored from that search's cosines
        row = None
        for _, sims, scores in channels.values():
            if i not in scores:
                row = index.row_of(i) if row is None else row
                if row is not None:
                    scores[i] = float(sims[row])
    second = _second_scores(index, corpus, query, candidates) if w.second > 0 and index.has_second else {}
    rest = channels["rest"][2] if "rest" in channels else dense  # nothing reworded: the whole question
    if "rest" in channels and w.blind > 0:  # the question said names: compare its rest with name-blind Facts
        rest = _blend_blind(rest, index, corpus, channels["rest"][0], candidates, w.blind)
    strength = {c: ln.strength for c, ln in links.items()}
    where = w.where > 0 and _WHERE.search(query) is not None
    now = current_scene  # recency only means something relative to the scene being played
    asked = set(named) | {c for c, ln in links.items() if ln.unique}  # by name or by a description
    scored: list[tuple[FactRecord, dict[str, float]]] = []
    for fid in candidates:
        rec = corpus.by_id.get(fid)
        if rec is None or (rec.removed and not include_removed) or (kinds and rec.kind not in kinds):
            continue
        about = rec.about
        # a Fact is routed by every component it is about, not only the one it is filed under
        match = {key: max(comp.get(c, {}).get(key, 0.0) for c in about) for key in ("name", "alias")} \
            if about else {}
        sources = {
            "dense": dense.get(fid, 0.0),
            "lexical": lexical.get(fid, 0.0),
            "name": match.get("name", 0.0),
            "alias": match.get("alias", 0.0),
            "scene": _scene_score(rec.scene, now, w),
            "order": _order_score(rec, order_target, w),
            "rest": rest.get(fid, 0.0),
            "about": max((strength.get(c, 0.0) for c in about), default=0.0),
            "place": at.get((rec.place or "").lower(), 0.0),
            "bearer": _bearer(rec, links, comp, named),
            "second": second.get(fid, 0.0),
            "origin": max(wants.get(rec.origin or "", 0.0), wants.get(_origin_key(rec), 0.0)),
        }
        # nothing reworded: the question without its names (or the whole question) stands in
        sources["named"] = channels["named"][2].get(fid, 0.0) if "named" in channels else sources["rest"]
        # a question about two components ("What passed between Edric and the steward?") wants Facts about both
        sources["pair"] = 1.0 if len(asked) >= 2 and len(asked & set(about)) >= 2 else 0.0
        # "Where did the story begin?" is answered by a place: a Fact filed under a location
        sources["where"] = 1.0 if where and (rec.component_id in corpus.place_of
                                             or (rec.place and not rec.component_id and rec.kind == "detail")) else 0.0
        sources["identity"] = 1.0 if fid in identity else 0.0
        scored.append((rec, sources))
    causes = _causes(scored, w.cause_threshold) if w.cause > 0 else {}
    out: list[ScoredFact] = []
    for rec, sources in scored:
        sources["cause"] = causes.get(rec.id, 0.0)
        score = sum(getattr(w, key) * value for key, value in sources.items())  # each source has its weight
        out.append(ScoredFact(rec, score, sources))
    out.sort(key=lambda sf: (-sf.score, -sf.record.seq))
    if w.distinct:
        seen: set[str] = set()  # (component, wording)
        kept = []
        for sf in out:
            key = wording_key(sf.record)
            if key not in seen:
                seen.add(key)
                kept.append(sf)
        out = kept
    return out[:k]


def wording_key(rec: FactRecord) -> str:
    """Facts with one key say the same words about the same component (`HybridWeights.distinct`)."""
    return f"{rec.component_id}|{' '.join(rec.text.lower().split())}"


def traits_of_named(index: FactIndex, text: str) -> list[FactRecord]:
    """The live Traits of every component whose whole name the text says, in log order.

    A statement contradicts a Trait of its own subject ("Vane is never loyal to the crown"
    against Vane's "Loyal to the crown"); the few closest Facts by meaning can miss it when
    the subject has many Facts, so a contradiction check judges these too.
    """
    corpus = _corpus(index)
    terms = set(tokenize(text))
    named = {c for c, tokens in corpus.name_tokens.items() if tokens and tokens <= terms}
    return [corpus.by_id[t] for t, c in corpus.traits if c in named]


def estimate_tokens(text: str) -> int:
    """About 4 characters per token, plus one for the line it sits on."""
    return math.ceil(len(text) / 4) + 1


def context_for_decision(
    index: FactIndex,
    situation_text: str,
    exact_facts: Sequence[FactRecord],
    token_budget: int,
    *,
    current_scene: int | None = None,
    include_removed: bool = False,
    weights: HybridWeights = DEFAULT_WEIGHTS,
) -> list[ScoredFact]:
    """Facts for a prompt: the caller's exact facts first (always), then recalled ones within budget.

    Exact facts are the ones the rules make relevant for sure (tenets, traits of
    components in the scene); they are never cut, even past the budget, since
    narrating against them would break the game. Recalled facts fill what is left.
    """
    out: list[ScoredFact] = []
    seen: set[str] = set()
    used = 0
    for rec in exact_facts:
        if rec.id in seen or (rec.removed and not include_removed):
            continue
        seen.add(rec.id)
        used += estimate_tokens(rec.text)
        out.append(ScoredFact(rec, math.inf, {"exact": 1.0}))
    if used >= token_budget:
        return out
    pool = max(20, min(200, token_budget // 8))
    for sf in hybrid_search(index, situation_text, pool, current_scene=current_scene,
                            include_removed=include_removed, weights=weights):
        if sf.record.id in seen:
            continue
        cost = estimate_tokens(sf.record.text)
        if used + cost > token_budget:
            continue  # a shorter Fact further down may still fit
        seen.add(sf.record.id)
        used += cost
        out.append(sf)
    return out
