"""Brainstorming: AI seats propose Tenets for a premise, or scene frames for a saved game.

Why a module of its own: the console (`storytable brainstorm`) and the app's Brainstorm page
show the same proposals, a person keeps or drops each, and the kept Tenets start a new game
through the ordinary preparation turns (U-PREP-1..3), so they are paid for like any Tenet.

The heuristic version works offline: a bank of specific, actionable Tenets per genre (the
rulebook's advice: "All true love affairs must end tragically", not "there is romance"),
chosen by keywords of the premise and varied by the seed. The llm version asks the configured
endpoint for the same structure and falls back to the heuristic on any trouble.
"""
from __future__ import annotations

import random
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from agents.premise import Premise, definite, is_plural, parse_premise, situation

__all__ = ["KINDS", "Proposal", "detect_genre", "propose_frames", "propose_tenets", "seed_tenets",
           "tenet_kind"]

ProposalKind = Literal["story_element", "social_contract", "rules_gimmick", "scene_frame"]
KINDS: tuple[str, ...] = ("story_element", "social_contract", "rules_gimmick")
# Proposal kind -> the engine's ProposeTenet.kind
_TENET_KIND = {"story_element": "story", "social_contract": "social", "rules_gimmick": "gimmick"}
PROPOSERS = ("world-builder", "antagonist", "dramatist", "guardian")


@dataclass(frozen=True)
class Proposal:
    """One idea a person keeps or drops. `by` names the proposing AI seat (its persona)."""

    kind: str
    text: str
    by: str
    why: str
    data: dict[str, Any] = field(default_factory=dict)  # scene frames: location, cast, time

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def tenet_kind(kind: str) -> str:
    """The engine's Tenet kind for a Proposal kind (story, social, gimmick)."""
    return _TENET_KIND.get(kind, "story")


# ----------------------------------------------------------------------------- genre material
# Each genre: story elements (specific, each one changes what scenes can happen), social
# contract issues that genre tends to raise, and rules gimmicks that make its mood mechanical.
GENRES: dict[str, dict[str, Any]] = {
    "fantasy": {
        "keywords": ["fantasy", "magic", "wizard", "witch", "dragon", "knight", "kingdom", "sword", "elf",
                     "castle", "crown", "sorcer", "quest", "god", "curse"],
        "story": [
            "Magic always exacts a price in memory: every spell makes the caster forget someone",
            "All true love affairs must end tragically",
            "The dead cannot cross running water",
            "Every crown in the realm is cursed, and the curse passes to whoever takes it",
            "The old gods are awake but weak, and they bargain for worship",
            "Dragons are extinct; whoever claims to have seen one is lying or mad",
            "Oaths sworn on iron cannot be broken without the oath-breaker's death",
        ],
        "social": ["Keep one mood: grim and earnest, no winking at the audience",
                   "Torture happens off screen: fade to black"],
        "gimmick": ["A spell's cost must be narrated as a removed Trait of the caster",
                    "Every scene in the capital must include a Trait of the ruling house"],
    },
    "space opera": {
        "keywords": ["space", "star", "galax", "planet", "ship", "empire", "alien", "orbit", "station",
                     "robot", "android", "fleet", "sci-fi", "science fiction"],
        "story": [
            "Faster-than-light travel costs a year of the traveller's life",
            "The Empire is dying and everyone knows it",
            "Machines may not lie to humans, but they may stay silent",
            "No one returns from the Rim unchanged",
            "Every station has a hidden lower deck no census counts",
            "There are no aliens: every 'alien' is a human colony that forgot Earth",
            "Messages travel only as fast as ships do",
        ],
        "social": ["Technobabble stays one sentence long",
                   "Keep the camera on people, not on battle tactics"],
        "gimmick": ["Each jump between star systems must be a scene framed in the future (it costs the framer)",
                    "A ship is a character: it gets personality and relationship Traits"],
    },
    "noir": {
        "keywords": ["noir", "detective", "city", "crime", "murder", "gangster", "police", "cop", "mob",
                     "private eye", "heist", "rain", "1940"],
        "story": [
            "Everyone in this city is on someone's payroll",
            "It always rains after midnight, and the worst things happen in the rain",
            "The police solve nothing; only private debts get settled",
            "Every client lies about why they came",
            "Nobody who says 'one last job' survives it",
            "The victim was not who the newspapers said",
        ],
        "social": ["Violence is quick and ugly, never glamorous",
                   "No redemption arcs for the killer"],
        "gimmick": ["Every scene opens with one line of first-person voice-over, bought as a Fact",
                    "A character who takes money from two sides gains a Trait 'Marked'"],
    },
    "horror": {
        "keywords": ["horror", "haunt", "ghost", "monster", "zombie", "vampire", "demon", "cult", "terror",
                     "lovecraft", "eldritch", "asylum", "possess", "dark"],
        "story": [
            "The thing in the house can only touch you if you are alone",
            "Whoever says its name aloud is next",
            "Nobody can leave town after sunset: the roads loop back",
            "The dead remember everything the living tried to forget",
            "Every mirror shows the room a minute ahead",
            "Help never arrives in time",
        ],
        "social": ["Harm to children stays off screen",
                   "Any player may fade a scene to black by saying so; no reason needed"],
        "gimmick": ["Whenever a character is alone, the framer must add a Trait of dread to the location",
                    "A character who sees the monster gains the Trait 'Shaken' and cannot remove it"],
    },
    "western": {
        "keywords": ["western", "cowboy", "frontier", "outlaw", "sheriff", "ranch", "gold rush", "desert",
                     "saloon", "railroad", "gunslinger"],
        "story": [
            "The railroad is coming, and it will ruin someone in every scene",
            "A man's word is law out here, and breaking it ends in a draw",
            "The water belongs to whoever holds the well at dawn",
            "Every gun in this territory has killed before",
            "The sheriff is the outlaw's brother",
        ],
        "social": ["Native people are characters with their own goals, not scenery",
                   "Gunfights are rare and final"],
        "gimmick": ["A duel is always a Complication, and its loser is eliminated",
                    "Horses are characters and may be given Traits"],
    },
    "post-apocalypse": {
        "keywords": ["apocalypse", "wasteland", "survivor", "collapse", "fallout", "ruins", "plague",
                     "after the end", "bunker", "scaveng"],
        "story": [
            "Clean water is the only currency",
            "Nobody remembers why the world ended, and the stories contradict each other",
            "Children born after the end cannot read",
            "Every settlement has exactly one rule it kills for",
            "The old machines still work, but each use draws the Hunters",
        ],
        "social": ["No cannibalism on screen",
                   "Hope exists: at least one scene per session shows something rebuilt"],
        "gimmick": ["A character who travels between settlements must pay one Trait of supplies",
                    "Rumours are bought as Facts with the word 'rumour'; a Challenge against them costs double"],
    },
    "cyberpunk": {
        "keywords": ["cyberpunk", "hacker", "corporat", "neon", "implant", "cyber", "megacity", "netrunner",
                     "ai ", "virtual", "augment"],
        "story": [
            "Every implant phones home to the corporation that made it",
            "Nobody owns their own memories after age thirty",
            "The city government is a subsidiary",
            "Street doctors can copy a face, but never a voice",
            "The net remembers everything you delete",
        ],
        "social": ["Keep the jargon light: say what a thing does, not its brand",
                   "Body horror stays brief"],
        "gimmick": ["Each implant a character has is a Trait that the corporation's player may draw on against them",
                    "A hack is always an Obstacle Complication"],
    },
    "historical": {
        "keywords": ["history", "historical", "roman", "medieval", "victorian", "regency", "war", "court",
                     "empire of", "revolution", "century", "samurai", "viking", "pirate"],
        "story": [
            "No one may marry without the family council's consent",
            "Letters take a week to arrive and are always read by someone else first",
            "The war will end badly for everyone at this table's centre",
            "A duel of honour cannot be refused",
            "Debts are inherited",
        ],
        "social": ["Period prejudice is shown as wrong, not endorsed",
                   "Real historical figures stay in the background"],
        "gimmick": ["Every scene is dated; flashbacks cost the usual coin",
                    "Social rank is a Trait; acting above one's rank makes a Complication"],
    },
    "romance": {
        "keywords": ["romance", "love", "wedding", "lovers", "affair", "marriage", "dating", "heart"],
        "story": [
            "Every love confession is overheard by the wrong person",
            "The two families have hated each other for three generations",
            "Nobody in this story says 'I love you' until the last scene",
            "A secret engagement already exists",
        ],
        "social": ["Intimacy fades to black", "No one's consent is ever in doubt"],
        "gimmick": ["A relationship Trait can only be added with both controllers' characters present",
                    "A Dialog that is refused is always a Complication of the heart"],
    },
    "mystery": {
        "keywords": ["mystery", "whodunit", "clue", "investigat", "manor", "inspector", "secret", "missing",
                     "disappear"],
        "story": [
            "The culprit is introduced in the first scene",
            "Every suspect has a second secret that is worse than the murder",
            "The house has no way in or out until the storm ends",
            "The first clue found is false",
        ],
        "social": ["Clues must be bought as Facts, so everyone can see them",
                   "No solution by coincidence"],
        "gimmick": ["Naming the culprit is a Complication that the named character's controller opposes",
                    "A clue Fact cannot be Challenged once a second clue supports it"],
    },
}
DEFAULT_GENRE = "fantasy"
GENERIC = {
    "story": [
        "Every secret in this story is eventually told, by the worst person at the worst time",
        "The protagonist's greatest strength is also what will destroy them",
        "Nothing said in the first scene is entirely true",
    ],
    "social": [
        "Any player may ask to fade a scene to black, and the others honour it",
        "Don't tell the whole story in one scene: end scenes with something unresolved",
        "Keep one mood for the whole game",
    ],
    "gimmick": [
        "Every scene ends with a line of Dialog bought as a Fact",
        "The first Complication of each scene is started by someone other than the framer",
        "A character's death must be foreshadowed by a Trait at least one scene earlier",
    ],
}
_WHY = {
    "story": ["it gives every scene something to push against", "it forces choices with a cost",
              "it is specific enough to be drawn on in a Complication", "it makes a question the story must answer"],
    "social": ["it says out loud what the table should not have to guess", "it keeps the mood the premise wants",
               "it protects the players, not only the characters"],
    "gimmick": ["it turns the genre's mood into something you pay for", "it makes a rule out of the premise",
                "it gives Complications a shape this story needs"],
}


def detect_genre(premise: str) -> str:
    """The genre whose keywords the premise mentions most; fantasy when none."""
    text = f" {premise.lower()} "
    scores = {g: sum(1 for k in spec["keywords"] if k in text) for g, spec in GENRES.items()}
    best = max(scores, key=lambda g: (scores[g], -list(GENRES).index(g)))
    return best if scores[best] > 0 else DEFAULT_GENRE


def _premise_phrase(premise: str) -> str:
    """The premise trimmed to a phrase that fits inside a Tenet."""
    text = " ".join(premise.strip().rstrip(".!?").split())
    text = re.sub(r"^(a|an|the)\s+(story|game|tale)\s+(about|of)\s+", "", text, flags=re.I)
    return text[:120]


# story elements about the premise's own people and places: every slot must be filled to be used;
# those marked True say "{A} holds", so they need a single {a} ("witches holds" is not English)
_NOUN_TENETS = [
    ("{A} and {b} were friends once, and one of them betrayed the other", False),
    ("Whoever wins between {a} and {b} will have to leave {place} for good", False),
    ("{A} holds a secret that would ruin {b}", True),
    ("{A} cannot leave {place} without losing everything", False),
    ("Nobody in {place} trusts {a}, and {a} knows why", True),
    ("Whoever holds {prize} when the story ends decides who lives", False),
    ("{Place} keeps a secret that nobody who lives there will say aloud", True),
    ("Everyone who comes to {place} is running from something", False),
]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _noun_tenets(parts: Premise, rng: random.Random) -> list[str]:
    """Story elements built on the premise's own nouns ("the sheriff", "the silver mine"), in a
    seeded order: the brainstorm proposes Tenets about this premise, not only about its genre."""
    people = [definite(p) for p in parts.people]
    places = [definite(p) for p in parts.places]
    prize = next((c.prize for c in parts.conflicts if c.prize), "")
    slots = {"a": people[0] if people else "", "b": people[1] if len(people) > 1 else "",
             "place": places[0] if places else "", "prize": prize}
    slots.update({k.capitalize(): _cap(v) for k, v in slots.items()})
    out = []
    for template, single in rng.sample(_NOUN_TENETS, len(_NOUN_TENETS)):
        names = re.findall(r"\{(\w+)\}", template)
        subject = slots["place"] if template.startswith("{Place}") else slots["a"]
        if all(slots[n] for n in names) and not (single and is_plural(subject)):
            out.append(template.format(**slots))
    return out


def _heuristic_tenets(premise: str, count: int, seed: int) -> list[Proposal]:
    genre = detect_genre(premise)
    spec = GENRES[genre]
    rng = random.Random(f"{seed}:{genre}:{premise}")
    pools = {k: rng.sample(spec[k], len(spec[k])) + rng.sample(GENERIC[k], len(GENERIC[k]))
             for k in ("story", "social", "gimmick")}
    parts = parse_premise(premise)
    # the premise's own nouns first among the story elements, then the genre's (at most two of them,
    # so the genre's specific Tenets still come through); an empty premise draws nothing here
    pools["story"] = _noun_tenets(parts, random.Random(f"{seed}:{premise}"))[:2] + pools["story"]
    out: list[Proposal] = []
    phrase = _premise_phrase(premise)
    genre_said = any(k in premise.lower() for k in spec["keywords"][:1]) or genre == DEFAULT_GENRE and not premise
    if phrase:
        out.append(Proposal("story_element", f"Premise: {phrase}. Every scene must move it forward",
                            PROPOSERS[0], "treats the premise as the question the game answers"))
        told = situation(parts, genre)
        if told:
            out.append(Proposal("story_element", told, PROPOSERS[1],
                                "states the premise's situation in the genre's voice, with its own people and places"))
    elif not genre_said:
        out.append(Proposal("story_element", f"The genre is {genre}", PROPOSERS[0],
                            "states the broad genre and leaves the sub-genre to the others"))
    # a story element, a gimmick and a social contract issue early, then mostly story elements
    plan = ["story", "gimmick", "social", "story", "story", "gimmick", "story", "social"]
    i = 0
    while len(out) < count and any(pools.values()):
        key = plan[i % len(plan)]
        i += 1
        if not pools[key]:
            continue
        text = pools[key].pop(0)
        kind = {"story": "story_element", "social": "social_contract", "gimmick": "rules_gimmick"}[key]
        out.append(Proposal(kind, text, PROPOSERS[len(out) % len(PROPOSERS)], rng.choice(_WHY[key])))
    return out[:count]


# ------------------------------------------------------------------------------ LLM version
class _Idea(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: Literal["story_element", "social_contract", "rules_gimmick"]
    text: str = Field(min_length=3, max_length=240)
    why: str = Field(default="", max_length=240)


class _Ideas(BaseModel):
    """Tenets proposed for a new Universalis game."""

    model_config = ConfigDict(extra="ignore")
    proposals: list[_Idea]


class _Frame(BaseModel):
    model_config = ConfigDict(extra="ignore")
    text: str = Field(min_length=3, max_length=400)
    location: str = ""
    why: str = Field(default="", max_length=240)


class _Frames(BaseModel):
    """Scene frames for the next scene of a Universalis game."""

    model_config = ConfigDict(extra="ignore")
    frames: list[_Frame]


def _ask_llm(prompt_name: str, values: dict[str, Any], schema: type[BaseModel], settings: Any,
             check: Any) -> BaseModel | None:
    """One structured ask with retries; None on any trouble (the caller falls back)."""
    try:
        from langchain_core.messages import HumanMessage, SystemMessage

        from agents.llm.config import load_settings
        from agents.llm.decider import StructuredDecider, make_decider
        from agents.llm.retry import decide_with_retries
        from prompts import render

        cfg = settings if settings is not None else load_settings()
        decider = StructuredDecider(cfg) if hasattr(cfg, "invoke") else make_decider(cfg)
        system, user = render(prompt_name, values)
        outcome = decide_with_retries(decider, [SystemMessage(system), HumanMessage(user)], schema, check,
                                      getattr(cfg, "max_refusals", 1), max_tokens=900,
                                      deadline_s=getattr(cfg, "decision_deadline_s", None))
        return outcome.action
    except Exception:  # noqa: BLE001 - brainstorming must work without a model
        import logging

        logging.getLogger(__name__).info("brainstorm: LLM unavailable, using the heuristic", exc_info=True)
        return None


def propose_tenets(premise: str, count: int = 6, ai: str = "heuristic", seed: int = 0,
                   settings: Any = None) -> list[Proposal]:
    """`count` Tenet proposals (Story Elements, Social Contract issues, Rules Gimmicks) for a premise.

    `ai="llm"` asks the configured endpoint (`settings`: LLMSettings, or a chat model for tests)
    and falls back to the heuristic proposals when it fails.
    """
    count = max(1, int(count))
    if ai == "llm":
        def check(obj: BaseModel) -> str | None:
            ideas = [i for i in obj.proposals if i.text.strip()]  # type: ignore[attr-defined]
            if len(ideas) < min(count, 2):
                return f"give {count} proposals, not {len(ideas)}"
            return None

        genre = detect_genre(premise)
        result = _ask_llm("brainstorm_tenets", {"premise": premise or "(none given)", "count": count,
                                                "genre": genre}, _Ideas, settings, check)
        if result is not None:
            out = [Proposal(i.kind, i.text.strip(), "llm", i.why.strip() or "proposed by the model")
                   for i in result.proposals[:count]]  # type: ignore[attr-defined]
            if len(out) < count:  # top up from the heuristic, never below what was asked
                seen = {p.text for p in out}
                out += [p for p in _heuristic_tenets(premise, count * 2, seed) if p.text not in seen][:count - len(out)]
            return out
    elif ai != "heuristic":
        raise ValueError(f"unknown ai {ai!r}: use heuristic or llm")
    return _heuristic_tenets(premise, count, seed)


# ------------------------------------------------------------------------------ scene frames
def _situation(state: Any) -> dict[str, Any]:
    from engine.universalis.components import importance

    s = state
    comps = [c for c in s.components.values() if not c.eliminated and not c.is_master]
    people = sorted([c for c in comps if c.kind != "location"], key=lambda c: (-importance(s, c.id), c.id))
    places = [c for c in comps if c.kind == "location"]
    last = s.scenes[-1] if s.scenes else None
    return {"people": people, "places": places, "last": last,
            "tenets": [t.text for t in s.tenets if not t.removed]}


def _trait(c: Any, rng: random.Random) -> str:
    live = [t.text for t in c.live_traits() if t.kind in ("plain", "relationship", "possession")]
    return rng.choice(live) if live else ""


def _heuristic_frames(state: Any, count: int, seed: int, premise: str = "") -> list[Proposal]:
    s = state
    sit = _situation(s)
    rng = random.Random(f"{seed}:{s.seq}")
    people, places, last, tenets = sit["people"], sit["places"], sit["last"], sit["tenets"]
    out: list[Proposal] = []
    # the premise says the genre when the Tenets do not (a game whose Tenets name only its people)
    told = f" {' '.join(tenets).lower()} "
    said = any(k in told for spec in GENRES.values() for k in spec["keywords"])
    genre = detect_genre(" ".join(tenets) if said or not premise else premise)
    new_places = [p for p in _PLACES.get(genre, _PLACES["fantasy"]) if p not in {c.label for c in places}]
    rng.shuffle(new_places)
    # a table's premise names places of its own: those first, while the game has not been there
    own = [definite(p) for p in parse_premise(premise).places]
    new_places = [p for p in own if p not in {c.label for c in places}] + new_places

    def who(c: Any) -> str:
        t = _trait(c, rng)
        return f"{c.label} ({t.lower()})" if t else c.label

    # 1. confrontation between the two most important characters
    if len(people) >= 2:
        a, b = people[0], people[1]
        where = places[0] if places else None
        loc = where.label if where else (new_places[0] if new_places else "a neutral place")
        out.append(Proposal("scene_frame", f"At {loc}, {who(a)} confronts {who(b)}; neither can walk away.",
                            "dramatist", "the two most important characters have not settled things",
                            {"location": where.id if where else None, "new_location": None if where else loc,
                             "cast": [a.id, b.id], "time": "after"}))
    # 2. consequence of the last scene
    if last is not None and people:
        here = [s.components[x] for x in last.present if x in s.components and not s.components[x].eliminated
                and s.components[x].kind != "location"]
        c = here[0] if here else people[0]
        # the first new place frame 1 did not take: with a premise, one of its own
        taken = {str(p.data.get("new_location")) for p in out}
        loc = next((p for p in new_places if p not in taken), "somewhere new")
        out.append(Proposal("scene_frame", f"Right after scene {last.number}: {who(c)} arrives at {loc} "
                            "and finds someone already waiting.",
                            "antagonist", "follows the last scene's consequences into a new place",
                            {"location": None, "new_location": loc, "cast": [c.id], "time": "after"}))
    # 3. a scene that serves a Tenet
    if tenets:
        t = rng.choice(tenets)
        c = rng.choice(people) if people else None
        cast = f"{who(c)} learns" if c else "Someone learns"
        out.append(Proposal("scene_frame", f"A scene that puts the Tenet to work: “{t}”. {cast} what it costs.",
                            "world-builder", "serves the theme the table chose",
                            {"location": None, "new_location": None, "cast": [c.id] if c else [], "time": "after"}))
    # 4. a flashback for a character with few Traits
    if people:
        thin = min(people, key=lambda c: (len(c.live_traits()), c.id))
        out.append(Proposal("scene_frame", f"Years earlier: how {thin.label} became who they are.",
                            "guardian", "a flashback gives a thin character Traits to draw on later",
                            {"location": None, "new_location": None, "cast": [thin.id], "time": "past"}))
    # 5. fill up with new situations at new places
    hooks = list(_HOOKS)
    rng.shuffle(hooks)
    while len(out) < count:
        loc = new_places.pop(0) if new_places else f"a place not yet seen ({len(out)})"
        hook = hooks[len(out) % len(hooks)]
        out.append(Proposal("scene_frame", f"Cut to {loc}: {hook}.",
                            PROPOSERS[len(out) % len(PROPOSERS)], "opens a new thread",
                            {"location": None, "new_location": loc, "cast": [], "time": "concurrent"}))
    return out[:count]


_HOOKS = ["a stranger brings news that changes the stakes", "something that was hidden is found",
          "two people who should not meet, meet", "a promise made earlier comes due",
          "someone arrives too late to stop what is happening"]
_PLACES = {
    "fantasy": ["the Drowned Abbey", "a smoky tavern", "the queen's throne room", "the Whispering Forest"],
    "space opera": ["the derelict freighter Anvil", "Orbital Station Kessa", "the smugglers' moon"],
    "noir": ["the Blue Lantern jazz club", "a rain-soaked alley", "the precinct's back office"],
    "horror": ["the cellar", "the old chapel", "the empty motel on Route 9"],
    "western": ["the saloon", "the railroad camp", "the dry riverbed"],
    "post-apocalypse": ["the water tower", "the ruined mall", "the bunker gate"],
    "cyberpunk": ["a noodle bar under the freeway", "the corporate arcology lobby", "a street clinic"],
    "historical": ["the family's country house", "the harbour", "the royal court"],
    "romance": ["the wedding rehearsal", "a train station at dawn", "the family dinner"],
    "mystery": ["the library", "the locked study", "the gardener's cottage"],
}


def propose_frames(state: Any, count: int = 3, ai: str = "heuristic", seed: int = 0,
                   settings: Any = None, premise: str | None = None) -> list[Proposal]:
    """Scene-frame proposals for a game's current situation (a GameState or a Table).

    The premise (a Table's own, unless given) puts its places first among the new ones.
    """
    s = getattr(state, "state", state)
    premise = str(getattr(state, "premise", "") or "") if premise is None else premise
    count = max(1, int(count))
    if ai == "llm":
        from agents.llm.state_text import describe_state

        result = _ask_llm("brainstorm_frames", {"state": describe_state(s, None), "count": count}, _Frames,
                          settings, lambda obj: None if obj.frames else "give at least one frame")  # type: ignore[attr-defined]
        if result is not None:
            out = [Proposal("scene_frame", f.text.strip(), "llm", f.why.strip() or "proposed by the model",
                            {"location": None, "new_location": f.location or None, "cast": [], "time": "after"})
                   for f in result.frames[:count]]  # type: ignore[attr-defined]
            if len(out) < count:
                out += _heuristic_frames(s, count, seed, premise)[len(out):]
            return out
    elif ai != "heuristic":
        raise ValueError(f"unknown ai {ai!r}: use heuristic or llm")
    return _heuristic_frames(s, count, seed, premise)


# ------------------------------------------------------------------------------ seeding a game
def seed_tenets(table: Any, tenets: Iterable[Proposal | str], finish: bool = False) -> list[str]:
    """Play preparation turns so each kept Tenet is proposed and paid (U-PREP-1..3).

    Players take their preparation turns in order (U-PREP-1); on each turn the player whose turn
    it is proposes the next kept Tenet for 1 coin (one Tenet per turn, U-PREP-2), so the cost is
    spread round the table. A player who cannot pay passes. With `finish`, everyone then passes
    until preparation ends; otherwise the preparation stays open for the players to go on.
    Returns the ids of the Tenets created.
    """
    from engine.universalis import actions as A
    from engine.universalis.ledger import available
    from engine.universalis.rules import prep_player

    from engine.universalis import pending

    def settle() -> None:
        """The table kept these Tenets together: everyone lets each one stand (U-TURN-3)."""
        while table.state.window is not None:
            for name in pending(table.state).players:
                table.submit(A.Pass(player=name), {"decided_by": "human", "via": "brainstorm"})

    queue = [t if isinstance(t, Proposal) else Proposal("story_element", str(t), "", "") for t in tenets]
    queue = [t for t in queue if t.text.strip()]
    made: list[str] = []
    passes = 0
    while queue and table.state.phase == "prep":
        who = prep_player(table.state)
        if available(table.state, who) < 1:
            table.submit(A.PassPrep(player=who), {"decided_by": "human", "via": "brainstorm"})
            passes += 1
            if passes > len(table.state.players):
                break  # nobody can pay: stop rather than loop
            continue
        passes = 0
        t = queue.pop(0)
        before = {x.id for x in table.state.tenets}
        table.submit(A.ProposeTenet(player=who, text=t.text.strip(), kind=tenet_kind(t.kind)),  # type: ignore[arg-type]
                     {"decided_by": "human", "via": "brainstorm", "proposed_by": t.by})
        made += [x.id for x in table.state.tenets if x.id not in before]
        settle()
    while finish and table.state.phase == "prep":
        settle()
        table.submit(A.PassPrep(player=prep_player(table.state)), {"decided_by": "human", "via": "brainstorm"})
    return made
