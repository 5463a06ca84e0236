"""The premise's own named things: people, places and the conflict between them.

Why: the offline players pick a genre from the premise and would otherwise tell that genre's
stock story, so "a silver-mine town where the sheriff and the mine owner are at war" never
showed its mine, its sheriff or its war. This module reads the premise, offline and
deterministically, into noun phrases (split at determiners, prepositions, "where", "and" and
a few verbs), sorts them by their head noun into people and places with two small word lists,
and reads a clause with a subject and a verb as the premise's situation and, when it speaks of
a fight, its conflict. It is deliberately small: no parser, no model; what it cannot read it
leaves out, and an empty `Premise` means "tell the genre's stock story", as before.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

__all__ = ["Conflict", "Premise", "at", "definite", "goals_for", "is_plural", "parse_premise", "place_head",
           "role_of", "situation"]

DETERMINERS = {"a", "an", "the", "this", "his", "her", "their", "its", "our", "my", "some", "every",
               "one", "two", "three", "four", "five"}
COUNTS = {"two": 2, "three": 3, "four": 3, "five": 3}  # at most three characters from one plural
PREPOSITIONS = {"about", "in", "at", "on", "of", "with", "without", "between", "over", "under", "against",
                "from", "to", "into", "near", "beyond", "across", "beneath", "inside", "outside", "among",
                "after", "before", "during", "for", "by", "through", "around", "behind", "aboard", "along",
                "within", "upon", "below", "above", "off"}
LOCATIVE = {"in", "at", "on", "into", "near", "beyond", "across", "beneath", "inside", "outside", "under",
            "aboard", "along", "within", "below", "above", "from", "to", "through", "around", "behind"}
CONJUNCTIONS = {"and", "or", "but", "nor", "yet", "so", "as", "because", "if", "until", "than"}
CLAUSE_BREAKS = {"where", "when", "while", "whereas", "after", "before", "until"}
AUXILIARIES = {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "do", "does", "did",
               "will", "would", "can", "could", "must", "shall", "should", "may", "might", "cannot", "won't"}
# verbs a premise uses often enough to end a noun phrase before them; unknown verbs are found too
# (a word after a phrase's head noun), this list only catches the ones that look like nouns
VERBS = {"fight", "war", "feud", "contest", "battle", "compete", "struggle", "vie", "hunt", "seek", "want",
         "covet", "claim", "steal", "guard", "protect", "rule", "plot", "scheme", "rival", "race", "search",
         "chase", "defend", "threaten", "control", "own", "love", "hate", "betray", "kill", "murder", "serve",
         "hide", "keep", "wait", "return", "rise", "fall", "die", "live", "run", "haunt", "clash", "quarrel",
         "duel", "dispute", "wrangle", "try", "need", "share", "meet", "face", "lose", "win", "walk"}
CONFLICT = re.compile(r"\b(war|wars|feud\w*|fight\w*|fought|battl\w*|contest\w*|rival\w*|vie|vies|vying|"
                      r"compet\w*|struggl\w*|odds|against|duel\w*|hunt\w*|hat(e|es|ed|ing)|steal\w*|stole|"
                      r"claim\w*|covet\w*|plot\w*|schem\w*|betray\w*|quarrel\w*|clash\w*|wrangl\w*|disput\w*)\b")
# genre and story words: "A western about ...", "noir in ...", "a story of ..." frame the premise
FRAMES = {"western", "noir", "story", "tale", "game", "fantasy", "horror", "opera", "romance", "mystery",
          "thriller", "saga", "epic", "adventure", "drama", "comedy", "cyberpunk", "sci-fi", "campaign",
          "setting", "world", "version", "retelling", "kind", "sort"}
# "the edge of a dying empire": the place is the empire
POSITIONS = {"edge", "heart", "middle", "end", "shadow", "outskirts", "depths", "foot", "top", "rim", "centre",
             "center", "side", "streets"}
PEOPLE = set("""
sheriff marshal deputy outlaw owner baron rancher homesteader miner prospector gunslinger cowboy preacher doctor
widow widower witch wizard mage sorcerer sorceress knight king queen prince princess heir heiress lord lady duke
duchess emperor empress priest priestess monk nun thief assassin spy detective cop inspector captain pilot
smuggler pirate soldier general admiral senator mayor envoy ambassador merchant trader banker gangster mobster
boss singer reporter journalist lawyer judge killer hunter ghost spirit vampire monster demon god goddess child
orphan girl boy mother father brother sister son daughter wife husband lover family gang crew cult keeper guard
robot android servant maid butler farmer sailor scientist nurse teacher student survivor scavenger hacker rebel
raider mercenary bandit rustler agent dealer medic engineer courier stranger twin sibling friend enemy rival
chief elder shaman healer oracle prophet bard ranger dragon tyrant regent chancellor councillor commander
officer colonel sergeant bishop abbot abbess vicar pastor rabbi imam governor president minister heir
cardinal count countess baroness knight squire page bride groom suitor fiancee fiance widow investigator
informant bootlegger bartender barkeep innkeeper gambler gunman lawman hired deserter veteran prisoner convict
warden jailer executioner hangman gravedigger undertaker medium psychic necromancer alchemist apprentice
master mistress matriarch patriarch clan tribe syndicate mob cartel union""".split())
PERSON_SUFFIXES = ("man", "woman", "keeper", "smith", "monger", "maker", "maid", "master", "herd", "wright")
PLACES = set("""
town city village hamlet mine ranch saloon farm fort outpost station ship freighter colony planet moon kingdom
realm castle tower abbey church chapel temple monastery manor house mansion estate lighthouse island harbour
harbor port dock docks river lake forest wood woods swamp marsh desert valley mountain canyon mesa prairie plain
road trail bridge market street alley club bar tavern inn hotel hospital asylum school academy library prison
jail camp depot bank court palace hall cellar attic crypt cemetery graveyard churchyard ruin ruins bunker vault
arcology megacity sea coast shore border frontier territory county country province district quarter slum
tenement factory mill warehouse office precinct casino circus carnival theatre theater garden orchard vineyard
well oasis wasteland settlement compound base citadel fortress empire republic archipelago glacier jungle
cave caves mines quarry railroad railway line boomtown reservation mission convent cathedral shrine tomb
necropolis catacombs sewer sewers subway underworld city-state capital metropolis suburb neighbourhood
neighborhood plantation homestead orphanage school barracks keep dungeon spaceport starport habitat
""".split())
_TOKEN = re.compile(r"[\w'’-]+|[,;:.!?()]")
# heads a place is "on" or "at", not "in": "on the stagecoach road", "on the island", "at the ford"
ON_HEADS = {"road", "trail", "street", "bridge", "ridge", "plain", "plains", "deck", "beach", "shore", "roof",
            "island", "moon", "planet", "frontier", "border", "coast", "river", "lake", "sea", "mesa", "prairie",
            "ship", "freighter", "yacht", "boat", "vessel", "barge", "train"}
AT_HEADS = {"ford", "crossing", "crossroads", "gate", "gates", "well", "docks"}


def place_head(place: str) -> str:
    """The kind of place a label names: "the ford at Greywater" -> "ford", "the Meadow village" -> "village"."""
    words = re.split(r"\s+(?:at|of|on)\s+", place.lower(), maxsplit=1)[0].split()
    return words[-1] if words else ""


def at(place: str) -> str:
    """The preposition a place takes, by its head noun: "on the island", "at the ford", "in the railroad town"."""
    head = place_head(place)
    return "at" if head in AT_HEADS else "on" if head in ON_HEADS else "in"


def singular(word: str) -> str:
    """A plural noun's singular, near enough for the word lists: witches, thieves, queens, women."""
    w = word.lower()
    for plural, one in (("women", "woman"), ("men", "man"), ("children", "child"), ("people", "person")):
        if w.endswith(plural):
            return w[: -len(plural)] + one
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith("ves") and w[:-3] + "f" in PEOPLE | PLACES:
        return w[:-3] + "f"
    if re.search(r"(ches|shes|sses|xes)$", w):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        return w[:-1]
    return w


def is_plural(phrase: str) -> bool:
    """Whether a person or place phrase names several: "witches", "two queens" (for verb agreement)."""
    head = phrase.split()[-1] if phrase.split() else ""
    return bool(_kind_of(head)) and singular(head) != head.lower()


def _kind_of(word: str) -> str:
    """"person", "place" or "" for a head noun (the word as written or its singular)."""
    for w in (word.lower(), singular(word)):
        if w in PEOPLE or (w.endswith(PERSON_SUFFIXES) and w not in PLACES and len(w) > 5):
            return "person"
        if w in PLACES:
            return "place"
    return ""


@dataclass(frozen=True)
class Phrase:
    """A noun phrase as the premise wrote it ("a silver-mine town"), what it names and its head noun."""

    text: str
    kind: str  # "person", "place", "frame" or "thing"
    head: str
    start: int
    end: int  # token index after the phrase
    plural: bool = False
    count: int = 1
    inner: "Phrase | None" = None  # the Y of "the crown of Y", itself a person or place to keep


@dataclass(frozen=True)
class Conflict:
    """A clause of the premise with a subject and a verb: "the sheriff and the mine owner are at war"."""

    clause: str
    sides: tuple[str, ...]  # the people in the subject, as written
    opponents: tuple[str, ...] = ()  # people the verb is aimed at ("hates the mine owner")
    prize: str = ""  # what is fought over ("the crown"), with "the"
    fight: bool = False  # the verb speaks of conflict; a plain situation otherwise


@dataclass(frozen=True)
class Premise:
    """What a premise names: people and places (as written, first mention first) and its situations."""

    people: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    counts: dict[str, int] = field(default_factory=dict, compare=False, hash=False)

    @property
    def empty(self) -> bool:
        return not (self.people or self.places or self.conflicts)


def definite(phrase: str) -> str:
    """The phrase with "the" for a leading "a"/"an"/"some": "a drowned city" -> "the drowned city"."""
    m = re.match(r"(a|an|some|one)\s+(.*)", phrase, flags=re.I)
    return f"the {m.group(2)}" if m else phrase


def role_of(phrase: str) -> str:
    """A character's Role from a person phrase: "the mine owner" -> "Mine owner", "two queens" -> "Queen"."""
    words = phrase.split()
    if words and words[0].lower() in DETERMINERS:
        words = words[1:]
    if words and (words[0].lower() in COUNTS or words[0].lower() in ("two", "three")):
        words = words[1:]
    if not words:
        return ""
    head = words[-1]
    if (_kind_of(head) or (head[:1].islower() and "of" not in words)) and singular(head) != head.lower():
        words[-1] = singular(head)  # "witches" -> "witch"; a plural names one of them
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def _is_stop(tok: str) -> bool:
    t = tok.lower()
    return (t in PREPOSITIONS or t in CONJUNCTIONS or t in CLAUSE_BREAKS or t in AUXILIARIES or t in DETERMINERS
            or t in {"who", "whom", "whose", "which", "that", ","} or not re.match(r"[\w'’-]", t))


def _is_verb(tok: str) -> bool:
    t = tok.lower()
    if t in AUXILIARIES or t in VERBS:
        return True
    return any(t.endswith(suf) and t[: -len(suf)] in VERBS for suf in ("s", "es", "ed", "ing", "d"))


def _phrase(tokens: list[str], i: int) -> Phrase | None:
    """The noun phrase starting at token i (a determiner, or a bare noun), or None.

    It runs to the next stop word and ends at its last known head noun, so an unknown verb after
    it ("the sheriff hates ...") is left for the clause; "X of Y" joins Y in ("the ghost of a
    drowned keeper"), but "the edge of Y" and "a story of Y" give way to Y.
    """
    start = i
    has_det = tokens[i].lower() in DETERMINERS
    j = i + 1 if has_det else i
    run: list[int] = []
    while j < len(tokens) and not _is_stop(tokens[j]) and not (run and _is_verb(tokens[j])):
        run.append(j)
        j += 1
    if not run:
        return None
    heads = [k for k in run if _kind_of(tokens[k]) or tokens[k].lower() in FRAMES]
    if heads:
        end = heads[-1] + 1
    elif not has_det and all(tokens[k][:1].isupper() for k in run):
        end = run[-1] + 1  # a proper name: "New Orleans"; a place only after "in", "at", ...
    elif has_det:
        end = run[min(len(run), 4) - 1] + 1
    else:
        return None  # a bare run with no known noun is most likely a verb phrase
    head = tokens[end - 1]
    kind = "frame" if head.lower() in FRAMES else (_kind_of(head) or "thing")
    if kind == "thing" and not has_det and not head[:1].isupper():
        return None
    inner = None
    if (end < len(tokens) - 1 and tokens[end].lower() == "of" and kind != "frame"
            and head.lower() not in POSITIONS):
        inner = _phrase(tokens, end + 1)
        if inner is not None and inner.kind != "frame":
            end = inner.end  # "the ghost of a drowned keeper" is one person
        else:
            inner = None
    words = tokens[start:end]
    if words[0].lower() in DETERMINERS or _kind_of(words[0]) or words[0].lower() in FRAMES:
        words = [words[0].lower()] + words[1:]  # "The sheriff" reads "the sheriff" mid-sentence
    count = COUNTS.get(tokens[start].lower(), 1) if has_det else 1
    plural = singular(head) != head.lower() and bool(_kind_of(head))
    return Phrase(" ".join(words), kind, head, start, end, plural, count, inner)


def _phrases(tokens: list[str]) -> list[Phrase]:
    """Every noun phrase of a clause, left to right; a determiner always starts a new one."""
    out: list[Phrase] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        starts = tok.lower() in DETERMINERS or (not _is_stop(tok) and (i == 0 or _is_stop(tokens[i - 1])))
        ph = _phrase(tokens, i) if starts else None
        if ph is None:
            i += 1
            continue
        if ph.head.lower() in POSITIONS or (ph.kind == "frame" and ph.end < len(tokens)):
            i = ph.end  # "the edge of ...", "A western about ...": what follows is the phrase
            continue
        out.append(ph)
        if ph.kind == "thing" and ph.inner is not None:
            out.append(ph.inner)  # "the crown of a river kingdom": the kingdom is a place of its own
        i = ph.end
    return out


def _in_company(tokens: list[str], phrases: list[Phrase]) -> list[Phrase]:
    """Phrases joined by "and"/"or" to a person, the two doing something, are people too though the word
    lists lack their noun: "the captain and the mutineers fight" names the mutineers beside the captain
    ("the witch and her secrets in the tower" names no secret)."""
    out = list(phrases)
    for k, ph in enumerate(out):
        if ph.kind != "thing" or ph.head[:1].isupper():
            continue
        for other in (out[k - 1] if k else None, out[k + 1] if k + 1 < len(out) else None):
            if other is None or other.kind != "person":
                continue
            lo, hi = (other.end, ph.start) if other.start < ph.start else (ph.end, other.start)
            between = [t.lower() for t in tokens[lo:hi]]
            after = max(ph.end, other.end)
            acts = after < len(tokens) and (_is_verb(tokens[after]) or not _is_stop(tokens[after]))
            if between and all(t in ("and", "or") for t in between) and acts:
                out[k] = replace(ph, kind="person", plural=singular(ph.head) != ph.head.lower())
                break
    return out


def _clauses(premise: str) -> list[list[str]]:
    """The premise's tokens split into clauses at "where", "when", "while", commas and semicolons."""
    tokens = _TOKEN.findall(premise)
    out: list[list[str]] = [[]]
    for tok in tokens:
        if tok.lower() in CLAUSE_BREAKS or tok in (",", ";", ":", ".", "!", "?", "(", ")"):
            out.append([])
        else:
            out[-1].append(tok)
    return [c for c in out if c]


def _conflict(tokens: list[str], phrases: list[Phrase]) -> Conflict | None:
    """The clause as a situation when it opens with a subject and goes on with a verb."""
    if not phrases or phrases[0].start != 0 or phrases[0].kind == "frame":
        return None
    subject = [phrases[0]]
    for ph in phrases[1:]:
        between = [t.lower() for t in tokens[subject[-1].end:ph.start]]
        if between and all(t in ("and", "or") for t in between):
            subject.append(ph)
        else:
            break
    sides = tuple(ph.text for ph in subject if ph.kind == "person")
    verb_at = subject[-1].end
    if not sides or verb_at >= len(tokens):
        return None  # a situation is somebody doing something
    verb = tokens[verb_at].lower()
    if verb in PREPOSITIONS or verb in CONJUNCTIONS or verb in DETERMINERS or verb in ("who", "which", "that"):
        return None
    predicate = tokens[verb_at:]
    after = [ph for ph in phrases if ph.start >= verb_at]
    opponents = tuple(ph.text for ph in after if ph.kind == "person")
    prize = next((definite(ph.text) for ph in after if ph.kind in ("thing", "place")
                  and tokens[ph.start - 1].lower() in {"over", "for", predicate[0].lower()}), "")
    if prize and not re.match(r"(the|his|her|their|its)\b", prize, flags=re.I):
        prize = f"the {prize}"
    prize = re.sub(r"\bof (a|an) ", "of the ", prize)  # "the crown of the river kingdom"
    clause = " ".join([subject[0].text] + tokens[subject[0].end:])
    return Conflict(clause=clause, sides=sides,
                    opponents=opponents, prize=prize, fight=bool(CONFLICT.search(" ".join(predicate).lower())))


def _compound_places(phrase: Phrase) -> list[str]:
    """Places a hyphenated modifier names: "a silver-mine town" has "the silver mine" in it."""
    out = []
    for word in phrase.text.split()[1:-1]:
        parts = word.split("-")
        if len(parts) > 1 and _kind_of(parts[-1]) == "place":
            out.append("the " + " ".join(parts))
    return out


@lru_cache(maxsize=64)
def parse_premise(premise: str) -> Premise:
    """People, places and situations the premise names, first mention first; empty when none.

    Cached: every decision of every heuristic seat asks for it.
    """
    people: list[str] = []
    places: list[str] = []
    counts: dict[str, int] = {}
    conflicts: list[Conflict] = []
    seen: set[str] = set()

    def add(bucket: list[str], text: str) -> None:
        key = definite(text).lower()
        if key not in seen:
            seen.add(key)
            bucket.append(text)

    for tokens in _clauses(premise or ""):
        phrases = _in_company(tokens, _phrases(tokens))
        for ph in phrases:
            before = tokens[ph.start - 1].lower() if ph.start > 0 else ""
            if ph.kind == "person":
                add(people, ph.text)
                counts[ph.text] = ph.count if ph.plural else 1
            elif ph.kind == "place" or (ph.kind == "thing" and before in LOCATIVE and ph.head[:1].isupper()):
                add(places, ph.text)
                for extra in _compound_places(ph):
                    add(places, extra)
        found = _conflict(tokens, phrases)
        if found is not None:
            conflicts.append(found)
    return Premise(tuple(people), tuple(places), tuple(conflicts), counts)


def opposed(premise: Premise, role: str, other: str) -> bool:
    """Whether the premise's conflict sets a person of one Role against one of the other ("Captain", "Mutineer").

    "The captain and the mutineers fight": the sides fight each other. "The queen and her knights
    fight the dragon": the sides fight the opponents, not each other. "Two queens fight": one
    queen fights the other. The same pairs `goals_for` names as each other's rivals.
    """
    role, other = role.lower(), other.lower()
    for c in premise.conflicts:
        if not c.fight:
            continue
        people = c.sides + c.opponents
        if c.opponents:
            pairs = [(a, b) for a in c.sides for b in c.opponents]
        elif len(people) == 1 and premise.counts.get(people[0], 1) > 1:
            pairs = [(people[0], people[0])]
        else:
            pairs = [(a, b) for a in c.sides for b in c.sides if a != b]
        if any(sorted((role_of(a).lower(), role_of(b).lower())) == sorted((role, other)) for a, b in pairs):
            return True
    return False


def goals_for(premise: Premise, person: str) -> list[str]:
    """Goal Traits ("Wants ...") the premise's conflict gives one of its people, or none.

    The premise's conflict reflected in what its characters want: each side of "the sheriff and
    the mine owner are at war" wants to win that war against the other.
    """
    out: list[str] = []
    for c in premise.conflicts:
        if not c.fight or person not in c.sides + c.opponents:
            continue
        others = [definite(x) for x in c.sides + c.opponents if x != person]
        if not others and premise.counts.get(person, 1) > 1:
            others = [f"the other {role_of(person).lower()}"]
        other = others[0] if others else ""
        text = c.clause.lower()
        if c.prize:
            out.append(f"Wants {c.prize}" + (f" before {other} can take it" if other else ""))
        elif re.search(r"\bwars?\b", text):
            out.append(f"Wants to win the war against {other}" if other else "Wants to win the war")
        elif "feud" in text:
            out.append(f"Wants to win the feud with {other}" if other else "Wants to end the feud")
        elif other:
            out.append(f"Wants to get the better of {other}")
    return out


# the genre's voice after the premise's situation: (after a fight, after any other situation,
# for a place alone: "{Where}" is "In the drowned city")
VOICES: dict[str, tuple[str, str, str]] = {
    "western": ("and out here a quarrel like that ends in gunsmoke", "and the whole territory knows it",
                "{Where}, the law is whoever draws first"),
    "noir": ("and the cops are taking money from both sides", "and somebody is paying to keep it quiet",
             "{Where}, every favour is paid back with interest"),
    "fantasy": ("and every oath sworn over it will be broken", "and the old gods are watching",
                "{Where}, every oath is sworn on iron and broken in blood"),
    "space opera": ("and the dying Empire is too far away to stop it", "and word of it has reached the Rim",
                    "{Where}, the dying Empire's law no longer reaches"),
    "horror": ("and something there feeds on it", "and nobody who sees it is ever the same",
               "{Where}, something old is waiting for the living"),
    "post-apocalypse": ("and there is not enough water for both", "and the wasteland is watching",
                        "{Where}, clean water is worth killing for"),
    "cyberpunk": ("and a corporation is betting on both sides", "and a corporation is recording it",
                  "{Where}, every camera belongs to a corporation"),
    "historical": ("and the winner will write the history", "and the court talks of nothing else",
                   "{Where}, rank decides who may speak"),
    "romance": ("and somebody's heart will break before it ends", "and everyone has an opinion about it",
                "{Where}, every secret love is found out"),
    "mystery": ("and one of them is hiding a body", "and one of them is lying about it",
                "{Where}, everyone has something to hide"),
}
GENERIC_VOICE = ("and nobody can stay out of it", "and nothing will stay as it was", "{Where}, nothing is what it seems")


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def situation(premise: Premise, genre: str) -> str:
    """A Tenet stating the premise's situation in the genre's voice, or "" when it names nothing.

    "In the silver-mine town, the sheriff and the mine owner are at war, and out here a quarrel
    like that ends in gunsmoke."
    """
    fight, plain, alone = VOICES.get(genre, GENERIC_VOICE)
    conflict = premise.conflicts[0] if premise.conflicts else None
    clause = conflict.clause if conflict else ""
    # the place the situation happens in, unless the clause names it already
    places = [p for p in premise.places if definite(p).split(" ", 1)[-1].lower() not in clause.lower()]
    where = f"{at(places[0])} {definite(places[0])}" if places else ""
    if conflict is not None:
        text = f"{where}, {clause}" if where else clause
        text = f"{text}, {fight if conflict.fight else plain}"
    elif where:
        text = alone.format(Where=where)
    elif premise.people:
        text = f"Everything in this story turns on {_join([definite(p) for p in premise.people[:3]])}, {plain}"
    else:
        return ""
    return text[:1].upper() + text[1:]
