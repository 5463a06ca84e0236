"""The word lists the offline contradiction judge reasons with: concepts, opposites, exclusive values.

Why a module of its own: the judge's logic (agents/memory/contradiction.py) should
read as a handful of rules; what words mean belongs here, where it can grow
without touching the rules. Every list is general English about stories (life and
death, seasons, kinship, weapons, magic); none is written for a particular game.
"""

from __future__ import annotations

NEGATORS = frozenset({"not", "no", "never", "nobody", "nothing", "none", "nowhere", "neither", "nor",
                      "without", "cannot", "noone"})
# Clause-opening quantifiers: "No ship has crossed", "Nobody can leave" negate the whole predicate.
UNIVERSAL_NEGATORS = frozenset({"no", "nobody", "noone", "none", "nothing", "never"})

# Words folded to one concept before comparing, so "died" and "dead" (or "pistol" and "gun") agree.
_GROUPS: dict[str, tuple[str, ...]] = {
    "dead": ("died", "dies", "die", "death", "killed", "slain", "drowned", "executed", "hanged", "murdered",
             "deceased", "perished", "dead"),
    "alive": ("alive", "living", "lives", "survived", "survives", "breathing"),
    "always": ("always", "forever"),
    "hate": ("hate", "hates", "hated", "loathes", "despises"),
    "love": ("loves", "loved", "adores"),
    "enemy": ("enemies", "enemy", "foe", "foes", "nemesis"),
    "friend": ("friends", "friend", "allies", "ally", "comrade", "comrades"),
    "open": ("opened", "open", "unlocked", "ajar"),
    "shut": ("closed", "shut", "sealed"),
    "win": ("won", "wins", "win", "victorious"),
    "lose": ("lost", "loses"),
    "young": ("young", "younger", "youngest"),
    "old": ("old", "older", "elderly", "aged"),
    "rich": ("rich", "wealthy", "richest"),
    "poor": ("poor", "penniless", "destitute", "broke"),
    "guilty": ("guilty",), "innocent": ("innocent",),
    "loyal": ("loyal", "faithful"),
    "traitor": ("traitor", "betrayed", "treacherous"),
    "light": ("light", "lit"), "dark": ("dark", "unlit"),
    "married": ("married", "wed", "wedded"), "single": ("single",),
    "blind": ("blind",), "see": ("see", "sees", "saw", "seen", "sighted"),
    "deaf": ("deaf",), "hear": ("hear", "hears", "heard"),
    "present": ("present",), "absent": ("absent",),
    "true": ("true",), "false": ("false",),
    "full": ("full", "crowded", "packed", "bustling", "thronged"),
    "empty": ("empty", "deserted", "abandoned", "desolate"),
    "above": ("above",), "below": ("below",), "first": ("first",), "last": ("last",),
    "brave": ("brave", "bravest", "fearless", "courageous"),
    "coward": ("coward", "cowardly"),
    "strong": ("strong",), "weak": ("weak", "frail"),
    "sank": ("sunk", "sank", "sinking"), "afloat": ("afloat",),
    "destroyed": ("burned", "burnt", "collapsed", "destroyed", "ruined", "razed", "demolished", "wrecked"),
    "intact": ("intact", "untouched", "undamaged", "standing"),
    "noble": ("noble",), "common": ("commoner", "peasant"),
    "immune": ("immune",), "sick": ("sick", "ill", "infected"),
    "rule": ("ruled",),
    "kind": ("kind", "gentle", "generous"), "cruel": ("cruel", "harsh", "brutal"),
    "honest": ("honest", "upright", "incorruptible"),
    "corrupt": ("corrupt", "crooked", "bent", "bribed"),
    "captive": ("imprisoned", "jailed", "captive", "chained", "locked"),
    "free": ("free", "freely", "escaped", "released"),
    "silent": ("silent", "mute", "speechless"),
    "speak": ("speak", "speaks", "spoke", "spoken", "talk", "talks", "talked", "tells", "told", "says", "said"),
    "same": ("identical", "alike"),
    "before": ("before", "earlier"), "after": ("after", "later"),
    "own": ("owns", "owned", "own", "belongs", "belonged", "possesses"),
    "magic": ("magic", "magical", "spell", "spells", "sorcery", "sorcerer", "witchcraft", "enchantment",
              "enchanted", "hex", "conjures", "conjured"),
    "gun": ("gun", "guns", "firearm", "firearms", "pistol", "pistols", "rifle", "rifles", "musket", "muskets",
            "revolver", "revolvers", "shotgun"),
    "ghost": ("ghost", "ghosts", "spirit", "spirits", "phantom", "spectre", "specter", "wraith", "haunts", "haunted"),
    "return": ("return", "returns", "returned", "rises", "rose", "risen", "resurrected"),
    "leave": ("leave", "leaves", "left", "depart", "departs", "departed", "escapes"),
    "exist": ("exist", "exists", "existed", "invented", "discovered", "known"),
    "frozen": ("frozen", "froze", "freezes"),
    "afraid": ("afraid", "terrified", "scared", "frightened", "fearful"),
    "pay": ("pay", "pays", "paid", "paying"),
    "serve": ("serve", "serves", "served", "serving"),
    "ride": ("ride", "rides", "rode", "ridden", "riding", "gallops", "galloped", "galloping"),
    "read": ("read", "reads", "reading"),
}
# Words that deny a concept by themselves: "illiterate" is "cannot read".
DENYING: dict[str, str] = {"illiterate": "read", "unarmed": "weapon", "childless": "child", "homeless": "home",
                           "friendless": "friend", "penniless": "money", "sleepless": "sleep",
                           "fatherless": "father", "motherless": "mother", "unmarried": "married",
                           "nameless": "name", "faithless": "loyal", "powerless": "power"}
LEMMAS: dict[str, str] = {w: concept for concept, words in _GROUPS.items() for w in words}
# Death words that are deeds done to someone: "Vane killed the sheriff" says the sheriff is dead,
# not Vane. Read as "dead" only when passive ("was killed") or with no object ("drowned in the river").
KILLING = frozenset({"killed", "kills", "kill", "murdered", "murders", "slew", "slays", "slain", "executed",
                     "executes", "hanged", "hangs", "drowned", "drowns"})
OBJECT_OPENERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "my", "your", "our", "him", "them",
                            "this", "that", "these", "those", "every", "each", "both", "two", "three", "one", "all",
                            "anyone", "everyone", "someone", "somebody", "nobody", "himself", "herself"})

# Phrases folded before anything else, so "sails away" is leaving and "came back" returning.
PHRASES: tuple[tuple[str, str], ...] = (
    ("sails away", "leaves"), ("sailed away", "left"), ("runs away", "leaves"), ("ran away", "left"),
    ("comes back", "returns"), ("came back", "returned"), ("come back", "return"),
    ("walks again", "returns"), ("no longer", "not"), ("not any longer", "not"),
    ("has never been", "never"), ("had never been", "never"), ("left off", "stopped"),
)
# Words after which what follows is wished, not told: "hoping to leave the village alive" says nothing happened.
IRREALIS = (r"\b(?:wants?|wanted|hoping|hopes?|hoped|determined|means?|meant|plans?|planning|trying|tries|tried|"
            r"swore|swears|vowed|vows|sworn|longs?|longing|dreams?|dreaming|wish(?:es)?|wishing|intends?|intending)"
            r"\s+to\b")
# "sold his sword to pay the Hounds": what one does something for has not happened yet.
PURPOSE = r"\bto\s+(?!the\b|a\b|an\b|his\b|her\b|their\b|its\b|my\b|our\b|your\b|this\b|that\b|be\b|me\b|him\b|them\b|us\b|you\b|anyone\b|no\b)[a-z]+"
# Determiners after which an adjective names someone or something rather than saying it ("the drowned girl").
NAMING_DETS = frozenset({"the", "his", "her", "their", "its", "my", "our", "your", "this", "that", "these", "those"})
# Too vague to carry a contradiction alone.
WEAK = frozenset({"want", "wants", "came", "come", "comes", "went", "go", "goes", "got", "made", "make",
                  "makes", "same", "other", "thing", "way", "time", "more", "back", "well", "place", "part", "again"})

COPULAS = frozenset({"is", "was", "are", "were", "be", "been", "being", "remains", "stays", "seems", "looks"})
ANTONYMS = {frozenset(p) for p in [
    ("dead", "alive"), ("love", "hate"), ("friend", "enemy"), ("open", "shut"), ("win", "lose"),
    ("young", "old"), ("rich", "poor"), ("guilty", "innocent"), ("loyal", "traitor"), ("light", "dark"),
    ("married", "single"), ("blind", "see"), ("deaf", "hear"), ("present", "absent"), ("true", "false"),
    ("full", "empty"), ("above", "below"), ("first", "last"), ("brave", "coward"), ("strong", "weak"),
    ("sank", "afloat"), ("destroyed", "intact"), ("noble", "common"), ("immune", "sick"), ("kind", "cruel"),
    ("honest", "corrupt"), ("captive", "free"), ("silent", "speak"), ("before", "after"),
]}

# What a kind of thing is, so "has no pets" meets "has a dog" and "Animals cannot speak" meets a raven.
CLASSES: dict[str, str] = {
    **{w: "animal" for w in ("dog", "cat", "horse", "raven", "crow", "wolf", "rat", "bird", "fox", "owl", "mule",
                             "ox", "goat", "sheep", "pig", "hound", "mare", "stallion", "parrot", "snake", "bear",
                             "deer", "hawk", "eagle", "cow", "donkey", "beast", "creature")},
    **{w: "weapon" for w in ("gun", "sword", "knife", "dagger", "blade", "axe", "spear", "bow", "crossbow",
                             "rapier", "club")},
    "god": "deity", "goddess": "deity", "gods": "deity",
}
CLASSES.update({w: "vessel" for w in ("ship", "boat", "schooner", "sloop", "galleon", "barge", "raft", "brig",
                                      "frigate", "steamer", "yacht", "freighter", "canoe", "skiff")})
# Words that stand for anything in a complement: "not engaged to anyone" is about everyone.
ANY = frozenset({"anyone", "anybody", "anything", "anywhere", "ever", "everyone", "everything", "one", "it", "him",
                 "her", "them", "anyon", "anyth", "anywher"})
# Light verbs a negation passes through: "without falling ill" denies the illness.
LIGHT = frozenset({"falling", "fall", "falls", "getting", "get", "gets", "becoming", "become", "becomes",
                   "feeling", "feel", "feels", "seem", "seems", "ever", "even", "really", "truly", "quite",
                   "much", "once", "yet", "still"})
PET_ANIMALS = frozenset({"dog", "cat", "parrot", "hound", "bird"})

# Values of which a thing has only one: two different ones about the same predicate clash.
EXCLUSIVE: dict[str, dict[str, str]] = {
    "season": {"spring": "spring", "summer": "summer", "midsummer": "summer", "autumn": "autumn", "fall": "autumn",
               "harvest": "autumn", "winter": "winter", "midwinter": "winter"},
    "time of day": {"dawn": "dawn", "sunrise": "dawn", "daybreak": "dawn", "morning": "morning",
                    "noon": "noon", "midday": "noon", "afternoon": "afternoon", "dusk": "dusk",
                    "sundown": "dusk", "sunset": "dusk", "evening": "evening", "midnight": "midnight"},
    "weekday": {d: d for d in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")},
    "direction": {d: d for d in ("north", "south", "east", "west", "northern", "southern", "eastern", "western")},
}
# Period words after "every", "each", "once a": how often something happens.
PERIODS = {"day": "day", "daily": "day", "night": "day", "nightly": "day", "week": "week", "weekly": "week",
           "sunday": "week", "monday": "week", "tuesday": "week", "wednesday": "week", "thursday": "week",
           "friday": "week", "saturday": "week", "month": "month", "monthly": "month", "year": "year",
           "yearly": "year", "annually": "year", "annual": "year", "midsummer": "year", "midwinter": "year"}
RECENT = frozenset({"yesterday", "recently", "newly", "lately", "today"})
LONG_UNITS = frozenset({"years", "decades", "generations", "centuries", "lifetime"})

# Where something is: a locative verb followed by a place.
LOCATIVE_VERBS = frozenset({"lives", "live", "lived", "lies", "lie", "sits", "sit", "stands", "hidden", "hides",
                            "hiding", "kept", "keeps", "stored", "buried", "camped", "camps", "located", "stationed",
                            "held", "imprisoned", "moored", "docked", "hangs", "hanging", "waits", "sleeps",
                            "stays", "dwells", "resides"})
PLACE_PREPS = frozenset({"in", "at", "on", "inside", "under", "beneath", "above", "below", "aboard", "near",
                         "along", "within", "behind", "across"})
# Relations that run one way: "A answers to B" and "B answers to A" cannot both hold.
ONE_WAY = frozenset({"answers", "reports", "serves", "obeys", "works", "commands", "employs", "owes", "rules",
                     "outranks", "fathered", "raised", "trained", "taught"})
KIN = frozenset({"sister", "brother", "daughter", "son", "father", "mother", "parent", "parents", "child",
                 "children", "cousin", "aunt", "uncle", "wife", "husband", "twin", "twins", "sibling", "siblings",
                 "niece", "nephew", "grandfather", "grandmother", "grandson", "granddaughter", "family"})
UNRELATED = ("not related", "no family", "a stranger to", "are strangers", "were strangers", "no relation", "unrelated",
             "never met")
# Verbs whose object a Tenet denies with them: "Nobody can use magic" denies magic.
HOLDING_VERBS = frozenset({"use", "uses", "have", "has", "carry", "carries", "wield", "wields", "work", "works",
                           "practise", "practice", "practises", "practices", "own", "owns", "keep", "keeps", "bear",
                           "cast", "casts", "wear", "wears"})
LOSS_VERBS = frozenset({"sold", "lost", "pawned", "gave", "traded", "stolen", "threw", "surrendered", "burned"})
CONTESTS = frozenset("duel fight battle war game match race bet wager round contest argument case vote election "
                     "hand bid challenge trial struggle".split())
# Words that say a state with an opposite: only these are read as naming ("the drowned girl") after a determiner.
STATE_WORDS = frozenset(w for w, c in LEMMAS.items() if any(c in pair for pair in ANTONYMS))
