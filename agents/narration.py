"""Words for the heuristic player, built from the game's own Tenets, components and Traits.

A small lexicon per genre supplies fresh material (names, roles, places, Traits, Tenets);
the sentences about the story re-use what the table has already paid for (a character's goal,
its relationships, the place's colour, a Tenet), so an all-heuristic transcript reads as one
story rather than as placeholders. Nothing here is random without the player's seeded rng.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from agents.premise import (PLACES, Premise, at, definite, goals_for, opposed, parse_premise, place_head, role_of,
                            singular, situation)
from engine.universalis.state import Component, GameState

Lex = dict[str, Any]

GENRES: dict[str, Lex] = {
    "space opera": {
        "genre": ["A space opera at the edge of a dying Empire"],
        "tenets": ["Faster-than-light travel costs a year of the traveller's life",
                   "The Empire is dying and everyone knows it", "Machines may not lie to humans",
                   "No one returns from the Rim unchanged", "Every station has a hidden lower deck",
                   "Debts are paid in blood or in water", "The Syndicate owns every dock on the Rim"],
        "names": ["Vex Adaro", "Ilsa Marn", "Corin Thale", "Jun Okafor", "Mira Quell", "Dace Holloway",
                  "Tarek Voss", "Nyla Serrat", "Brannoc", "Sefa Lune", "Oren Kask", "Hale Ditmar"],
        "roles": ["Smuggler captain", "Imperial envoy", "Rogue pilot", "Station medic", "Bounty hunter",
                  "Android archivist", "Rebel courier", "Dockmaster", "Syndicate broker", "Deserter marine"],
        "places": ["Orbital Station Kessa", "the derelict freighter Anvil", "the throne world of Ys",
                   "the mining colony on Tarsis", "the smugglers' moon", "the Rim beacon", "the Envoy's yacht"],
        "props": ["Stolen star chart", "Encrypted data core", "Battered shuttle", "Imperial seal", "Ion pistol"],
        "traits": ["Haunted by the war", "Quick on the trigger", "Reckless under fire", "Cold and precise",
                   "A charming liar", "Loyal to a dead captain", "Hungry for glory"],
        "habits": ["Speaks every trade tongue", "Trusts no machine", "Carries a forged identity",
                   "Knows the hidden lanes", "Never leaves a crew member behind"],
        "goals": ["Wants to buy back the family ship", "Wants to see the Empire fall", "Wants to find the lost fleet",
                  "Wants to clear a stolen name", "Wants a seat on the Council", "Wants to get off the Rim for good"],
        "limits": ["Cannot fly without the implant", "Wanted in three systems", "Afraid of the void",
                   "Bound by an oath to the Emperor", "Running out of air credits"],
        "place_traits": ["Flickering lights", "Crowded with refugees", "Patrolled by drones", "Smells of ozone",
                         "Echoing empty corridors", "Gravity fails on the lower decks"],
        "hostile": ["confronts", "ambushes", "threatens", "outbids", "chases", "sabotages the ship of",
                    "turns the crew against", "holds a blaster on"],
        "friendly": ["bargains with", "confides in", "patches up", "shields", "warns", "shares a drink with"],
        "deeds": ["slips past the patrol", "repairs the failing drive", "decodes a fragment of the message",
                  "hides the evidence in a cargo crate", "signals the fleet", "studies the star chart",
                  "counts what is left of the credits"],
        "injuries": ["Burned hand", "Cracked ribs", "Shaken nerve", "Blaster wound", "Lost the ship's codes"],
        "lessons": ["Knows who sold them out", "Owes the crew a life", "Trusts the android now",
                    "Has seen the Envoy's true face"],
        "times": ["The last night before the blockade", "Ten days after the Emperor's death",
                  "The hour the beacon went dark"],
        "past": ["Years earlier, before the war", "The night the old captain died"],
    },
    "fantasy": {
        "genre": ["A dark fantasy of a realm under a dying crown"],
        "tenets": ["Magic always exacts a price in memory", "The old gods are awake but weak",
                   "All true love affairs must end tragically", "The dead cannot cross running water",
                   "Every crown in the realm is cursed", "An oath sworn on iron cannot be broken"],
        "names": ["Aldric Vane", "Seren of the Marsh", "Tamsin Hale", "Orrin Blackwood", "Lysa Thorne",
                  "Gareth Morrow", "Wenna", "Edric the Grey", "Isolde Fenn", "Brother Cal", "Maud Ashby"],
        "roles": ["Exiled knight", "Hedge witch", "Thief", "Royal heir", "Wandering priest", "Mercenary captain",
                  "Court spy", "Ferryman", "Bone-reader", "Steward of the keep"],
        "places": ["the Drowned Abbey", "Castle Ravensmoor", "the Meadow village", "the Crooked Lantern tavern",
                   "the Whispering Forest", "the queen's throne room", "the ford at Greywater"],
        "props": ["Cursed blade", "Sealed letter", "Crown of thorns", "Map of the old roads", "Healing draught"],
        "traits": ["Sworn to vengeance", "Touched by the old gods", "A master swordsman", "Beloved by the common folk",
                   "Quick of tongue", "Hunted by the Order", "Proud as a prince"],
        "habits": ["Cannot tell a lie", "Carries a secret name", "Bears a royal birthmark",
                   "Remembers nothing before the river", "Keeps a dead man's ring"],
        "goals": ["Wants to take back the throne", "Wants to break the curse on the crown",
                  "Wants to bury a brother properly", "Wants to find the witch who took her memory",
                  "Wants the Order destroyed", "Wants to earn a knight's spurs"],
        "limits": ["Fears deep water", "Bound by an oath on iron", "Cannot enter holy ground",
                   "Loses a memory with every spell", "Cannot refuse a plea for help"],
        "place_traits": ["Crumbling walls", "Thick with fog", "Guarded by wolves", "Full of whispers",
                         "Lit by witch-fire", "Bells ring here at midnight"],
        "hostile": ["duels", "deceives", "ambushes", "curses", "pursues", "turns the villagers against",
                    "lays a trap for", "denounces"],
        "friendly": ["swears fealty to", "heals", "confesses to", "protects", "warns", "shares bread with"],
        "deeds": ["reads the omens", "sharpens the blade by the fire", "prays in a whisper",
                  "hides the letter", "rides through the night", "studies the old map", "buries something by the ford"],
        "open_air": ["rides through the night", "buries something by the ford"],  # deeds not done in a room
        "injuries": ["Deep gash", "Cursed wound", "Broken arm", "Fevered", "Lost a memory"],
        "lessons": ["Knows the witch's true name", "Has seen the old god's face", "Owes the steward a life",
                    "No longer trusts the Order"],
        "times": ["The first night of the long winter", "The eve of the coronation", "The morning after the flood"],
        "past": ["Twenty years earlier, when the crown was whole", "The night the abbey drowned"],
    },
    "noir": {
        "genre": ["A noir story in a city that never dries"],
        "tenets": ["Everyone in this city is on someone's payroll", "It always rains after midnight",
                   "No good deed goes unpunished", "The past never stays buried", "Cops and crooks drink at the same bar",
                   "Every photograph hides a second face"],
        "names": ["Jack Malone", "Vera Lisle", "Sal Benedetti", "Ruby Kane", "Hank Hart", "Mickey Flynn",
                  "Lorna Vance", "Eddie Russo", "Leo Grayson", "Nell Shaw", "Frankie Doyle"],
        "roles": ["Private eye", "Torch singer", "Crooked cop", "Mob accountant", "Bartender", "Reporter",
                  "Widow", "Bootlegger", "Union boss", "Cab driver"],
        "places": ["the Blue Note club", "a rain-soaked alley", "the precinct house", "the docks at night",
                   "a cheap hotel room", "the mayor's mansion", "the all-night diner"],
        "props": ["Snub-nosed revolver", "Ledger of payoffs", "Photograph", "Getaway car", "Key to a locker"],
        "traits": ["Honest to a fault", "Tough as nails", "Quick with a gun", "Paid off by the mayor",
                   "Tired of the city", "Cool under pressure"],
        "habits": ["Drinks too much", "Never forgets a face", "Lies as easily as breathing",
                   "Knows where the bodies are buried", "Sings like an angel", "Keeps a second set of books"],
        "goals": ["Wants to find out who killed her husband", "Wants out of the rackets", "Wants the mayor ruined",
                  "Wants the ledger back", "Wants one honest story printed", "Wants enough cash to leave town"],
        "limits": ["Owes the mob", "On parole", "Cannot resist a pretty lie", "Hooked on the bottle",
                   "Carries a torch for an old flame"],
        "place_traits": ["Smoke-filled", "Neon-lit", "Watched by goons", "Stinking of fish", "Quiet as a grave",
                         "The phone here is tapped"],
        "hostile": ["interrogates", "double-crosses", "tails", "blackmails", "threatens", "shoots at",
                    "frames", "sells out"],
        "friendly": ["bribes", "tips off", "covers for", "kisses", "buys a drink for", "patches up"],
        "deeds": ["lights a cigarette and waits", "goes through a dead man's pockets", "pockets the evidence",
                  "makes a phone call", "takes a pull from a hip flask", "reads the ledger", "burns a letter"],
        "injuries": ["Black eye", "Bullet in the shoulder", "Cracked knuckles", "Concussion", "Lost the photograph"],
        "lessons": ["Knows who pulled the trigger", "Owes the bartender a favour", "Has seen the ledger",
                    "Knows the mayor's secret"],
        "times": ["The night of the big storm", "Three days before the election", "The morning they found the body"],
        "past": ["Ten years earlier, before the war", "The night of the first killing"],
    },
    "western": {
        "genre": ["A western in a railroad town at the end of the line"],
        "tenets": ["The railroad owns the law in this town", "Water rights are worth more than gold",
                   "Nobody asks a stranger where he came from", "A debt unpaid by sundown is paid in lead",
                   "The old mission bell rings for every death", "Every man in the posse has something to hide"],
        "names": ["Eli Crane", "Dolores Vega", "Amos Pike", "Hattie Boone", "Silas Reed", "Cora Lindqvist",
                  "Walt Tate", "Jonah Two Rivers", "Mae Harlan", "Abel Moss", "Billy Coyle"],
        "roles": ["Town marshal", "Gunslinger", "Saloon keeper", "Rancher's widow", "Railroad agent",
                  "Card sharp", "Circuit preacher", "Cattle rustler", "Frontier doctor", "Scout"],
        "places": ["the Silver Spur saloon", "the marshal's office", "the railroad depot", "the dry creek bed",
                   "the Harlan ranch", "the old mission", "the stagecoach road"],
        "props": ["Deed to the ranch", "Pearl-handled revolver", "Wanted poster", "Strongbox of payroll silver",
                  "Railroad survey map"],
        "traits": ["Fastest draw in the territory", "Stubborn as a mule", "Bold as a gambler", "Trusted by the ranchers",
                   "Hard-drinking", "Soft-spoken and dangerous", "Hungry for land"],
        "habits": ["Never draws first", "Reads a man's hand at cards", "Quotes scripture when angry",
                   "Rides alone at night", "Keeps a notch for every man killed"],
        "goals": ["Wants to keep the ranch from the railroad", "Wants to avenge a murdered brother",
                  "Wants to bring the rustlers to justice", "Wants to strike it rich and leave",
                  "Wants the marshal's badge", "Wants to bury the past for good"],
        "limits": ["Wanted in Texas", "Cannot ride since the fall", "Owes the bank everything",
                   "Sworn to serve the railroad", "Cannot read"],
        "place_traits": ["Dust in every corner", "Full of hard-eyed strangers", "Baking in the noon sun",
                         "Watched from the ridge", "Scarred by old gunfights", "Quiet as a held breath"],
        "hostile": ["calls out", "draws on", "ambushes", "swindles", "runs off the land", "turns the town against",
                    "burns the barn of", "hunts down"],
        "friendly": ["deputises", "patches up", "rides with", "vouches for", "warns", "shares a campfire with"],
        "deeds": ["cleans the revolver", "waits for noon", "counts the cattle", "reads the wanted poster",
                  "buries the strongbox", "saddles up before dawn", "studies the survey map"],
        "open_air": ["counts the cattle", "buries the strongbox", "saddles up before dawn"],  # not done in a room
        "injuries": ["Gunshot wound", "Busted leg", "Rope burns", "Snakebite", "Lost the deed"],
        "lessons": ["Knows who shot the sheriff", "Owes the doctor a life", "Has seen the survey map",
                    "No longer trusts the railroad"],
        "times": ["The day the railroad came", "The night of the big drive", "The morning of the hanging"],
        "past": ["Years earlier, during the war", "The winter the herd froze"],
    },
    "horror": {
        "genre": ["A horror story in a village that fog never leaves"],
        "tenets": ["The thing in the house can only touch you when you are alone", "Whoever says its name aloud is next",
                   "Nobody can leave the village after sunset", "The dead remember everything",
                   "Every mirror shows the room a minute ahead", "Help never arrives in time"],
        "names": ["Agnes Whitlow", "Ambrose Lyle", "Thomas Greer", "Clara Voss", "Martha Crane", "Ellery Dunn",
                  "Nathaniel Crowe", "Ivy Pell", "Simon Larch", "Edith Henley", "Rose Tilney"],
        "roles": ["Village priest", "Skeptical doctor", "Grieving mother", "Gravedigger", "Medium",
                  "Schoolteacher", "Lighthouse keeper", "Paranormal investigator", "Orphan", "Innkeeper"],
        "places": ["the old manor", "the churchyard", "the flooded cellar", "the lighthouse", "the schoolhouse",
                   "the marsh road", "the attic room"],
        "props": ["Cracked mirror", "Diary of the drowned girl", "Silver crucifix", "Music box", "Old photograph"],
        "traits": ["Gifted with second sight", "Steady in a crisis", "Stubbornly skeptical", "Grieving and reckless",
                   "Kind to strangers", "Sleepless for weeks"],
        "habits": ["Counts the steps on every stair", "Talks to the dead", "Never enters a room without knocking",
                   "Keeps a candle lit all night", "Hums the same lullaby"],
        "goals": ["Wants to find the missing child", "Wants to prove the haunting is a hoax",
                  "Wants to lay the ghost to rest", "Wants to leave the village alive",
                  "Wants to learn what the cult is hiding", "Wants to speak with her dead husband"],
        "limits": ["Afraid of the dark", "Will not go near the water", "Cannot sleep without a light",
                   "Hears the voice at night", "Cannot bear silence"],
        "place_traits": ["Unnaturally cold", "Smells of wet earth", "Footsteps where no one walks",
                         "Full of whispers", "Fog that never lifts", "Time runs strangely here"],
        "outdoor": ["Fog that never lifts", "Smells of wet earth"],  # details of the open air, not of a room
        "hostile": ["lies to", "imprisons", "stalks", "betrays", "accuses", "torments",
                    "turns the villagers against", "frightens"],
        "friendly": ["comforts", "shelters", "confides in", "protects", "warns", "prays with"],
        "deeds": ["lights a candle", "reads the drowned girl's diary", "listens at the door", "searches for a hidden door",
                  "salts the threshold", "digs where the ground is soft", "winds the music box", "bolts the shutters",
                  "follows the wet footprints", "covers the mirrors", "checks every lock twice",
                  "calls out into the dark", "studies the old photograph", "sits up waiting for the knocking"],
        # deeds of the open air: not done in a room ("digs where the ground is soft" in the attic)
        "open_air": ["digs where the ground is soft", "counts the graves by lantern light",
                     "tests the water in the well", "calls the child's name into the fog"],
        # deeds of one role or goal, by a word of it: what this one would do rather than anyone
        "deeds_by": {"priest": ["says a prayer for the drowned", "blesses the doorway", "rings the chapel bell"],
                     "doctor": ["examines the wet footprints", "writes up the night in a clinical hand",
                                "tests the water in the well"],
                     "mother": ["sets a place at the table for her lost child", "sings to an empty cradle"],
                     "gravedigger": ["digs where the ground is soft", "counts the graves by lantern light"],
                     "medium": ["holds a séance", "lays out the cards by candlelight"],
                     "schoolteacher": ["reads the names in the old register", "chalks a name on the board"],
                     "keeper": ["lights the great lamp", "writes the night into the keeper's log"],
                     "investigator": ["sets up the recording equipment", "photographs the stair"],
                     "orphan": ["hides under the stairs", "talks to a friend no one else can see"],
                     "innkeeper": ["bars the inn door", "counts the keys on their hooks"],
                     "child": ["calls the child's name into the fog"], "hoax": ["looks for wires behind the panelling"],
                     "husband": ["lays out her husband's things"], "cult": ["follows the hooded figures"],
                     "rest": ["reads the drowned girl's diary"], "alive": ["checks the tide tables for a boat"]},
        # the dead and the monstrous do and want their own things: not salt against themselves, not prayer
        "haunt": {"deeds": ["drips seawater across the floorboards", "knocks three times on the wall",
                            "leaves wet footprints on the stair", "whispers a name through the keyhole",
                            "stands at the foot of the bed", "fogs the windowpane from outside",
                            "turns every photograph to the wall", "sings a drowned lullaby", "puts out the candles"],
                  "friendly": ["comforts", "warns", "protects", "calls softly to", "watches over"],
                  "hostile": ["stalks", "torments", "frightens", "lures", "drags at"],
                  "traits": ["Cold to the touch", "Smells of the sea", "Never blinks", "Remembers everything"],
                  "habits": ["Hums the same lullaby", "Returns at the same hour each night", "Knocks before it enters"],
                  "goals": ["Wants to be buried properly", "Wants the family whole again", "Wants to be remembered",
                            "Wants the truth of its death known"],
                  "limits": ["Bound to the place it died", "Cannot cross the threshold of the church",
                             "Fades at first light", "Cannot cross a line of salt"],
                  "lessons": ["Remembers the night it drowned", "Knows who is still afraid of it"],
                  "injuries": ["Driven back into the water", "Fading", "Burned by the salt", "Shaken to the core"]},
        # Trait families that contradict each other: a doubter is no seer
        "families": {"doubt": ["skeptic", "hoax"],
                     "belief": ["second sight", "talks to the dead", "medium", "speak with her dead", "ghost's name",
                                "no longer believes"]},
        "clash": [["doubt", "belief"]],
        # a change of heart follows the Trait it changes
        "turns": {"No longer believes it is a hoax": "doubt"},
        "injuries": ["Scratched to the bone", "Bitten", "Shaken to the core", "Sprained ankle", "Lost the crucifix"],
        "lessons": ["Knows the ghost's name", "Has seen what lives in the cellar", "Owes the priest a life",
                    "No longer believes it is a hoax"],
        "times": ["All Hallows' Eve", "The night of the storm", "The morning the child vanished"],
        "past": ["A hundred years earlier, when the manor was built", "The night the girl drowned"],
    },
}

# relationship Traits: (text about the other, corollary for the other or None when one-sided)
RELATIONS = [
    ("Rival of {o}", "Rival of {s}"), ("Sworn to protect {o}", "Protected by {s}"),
    ("Owes a debt to {o}", "Holds a debt over {s}"), ("Mentor of {o}", "Student of {s}"),
    ("Betrayed {o} once", "Betrayed by {s}"), ("Secretly in love with {o}", None),
    ("Sibling of {o}", "Sibling of {s}"), ("Hunting {o}", None),
]

GENRE_WORDS = {"fantasy": ["magic", "knight", "fantasy", "gods", "crown", "witch", "dragon", "realm", "kingdom",
                           "castle", "sword", "sorcer", "elf", "elves", "queen", "king"],
               "noir": ["noir", "detective", "city", "mob", "rain", "cop", "payroll", "gangster", "crime", "murder",
                        "private eye", "heist"],
               "space opera": ["space", "star", "empire", "station", "ship", "planet", "rim", "galax", "orbit",
                               "alien", "android", "robot", "fleet", "sci-fi", "science fiction"],
               "western": ["western", "cowboy", "frontier", "outlaw", "sheriff", "marshal", "ranch", "railroad",
                           "saloon", "gunslinger", "wild west", "cattle", "prairie", "homestead"],
               "horror": ["horror", "haunt", "ghost", "monster", "zombie", "vampire", "demon", "cult", "terror",
                          "eldritch", "asylum", "possess", "cursed house", "séance", "seance"]}
DEFAULT_GENRE = "space opera"
# friendly deeds that take a side for good: sworn once between two characters, one way only
ALLEGIANCE = {"swears fealty to", "deputises"}
# a character's Traits that say it stands against another: no allegiance to that one
HOSTILE_TIES = ("Rival of ", "Hunting ", "Betrayed by ", "Will not trust ", "Swore to settle things with ")
# which of the genres' names are a woman's, a man's or anyone's (a name not listed is anyone's). A role that
# says a gender (GENDERED_ROLES) takes only a name of that gender or none: no "Edric the Grey, Queen"
NAME_GENDER: dict[str, frozenset[str]] = {
    "f": frozenset({"Ilsa Marn", "Mira Quell", "Nyla Serrat", "Sefa Lune",
                    "Seren of the Marsh", "Tamsin Hale", "Lysa Thorne", "Wenna", "Isolde Fenn", "Maud Ashby",
                    "Vera Lisle", "Ruby Kane", "Lorna Vance", "Nell Shaw",
                    "Dolores Vega", "Hattie Boone", "Cora Lindqvist", "Mae Harlan",
                    "Agnes Whitlow", "Clara Voss", "Martha Crane", "Ivy Pell", "Edith Henley", "Rose Tilney"}),
    "m": frozenset({"Corin Thale", "Dace Holloway", "Tarek Voss", "Brannoc", "Oren Kask",
                    "Aldric Vane", "Orrin Blackwood", "Gareth Morrow", "Edric the Grey", "Brother Cal",
                    "Jack Malone", "Sal Benedetti", "Hank Hart", "Mickey Flynn", "Eddie Russo", "Leo Grayson",
                    "Eli Crane", "Amos Pike", "Silas Reed", "Walt Tate", "Jonah Two Rivers", "Abel Moss", "Billy Coyle",
                    "Ambrose Lyle", "Thomas Greer", "Nathaniel Crowe", "Simon Larch"}),
    "either": frozenset({"Vex Adaro", "Jun Okafor", "Hale Ditmar", "Frankie Doyle", "Ellery Dunn"}),
}
# words of a role that say its gender ("Rancher's widow", "Grieving mother", "Queen")
GENDERED_ROLES: dict[str, frozenset[str]] = {
    "f": frozenset({"queen", "princess", "widow", "mother", "sister", "daughter", "wife", "priestess", "duchess",
                    "countess", "lady", "abbess", "matriarch", "mistress", "nun", "empress", "girl", "woman", "aunt",
                    "niece", "grandmother", "baroness", "heiress"}),
    "m": frozenset({"king", "prince", "widower", "father", "brother", "son", "husband", "duke", "count", "lord",
                    "abbot", "patriarch", "monk", "emperor", "boy", "man", "uncle", "nephew", "grandfather",
                    "baron"}),
}
DETAILS_PER_SCENE = 2  # details of the place bought in one scene, at most
TENET_DETAILS = 2  # a place restates at most this many Tenets as details ("In the manor, too, ...")
# a character is a haunt when its role or name says it is dead or not human: it has lists of its own
HAUNT_WORDS = ("ghost", "drowned", "dead", "spirit", "vampire", "monster", "demon", "wraith", "phantom", "revenant",
               "specter", "spectre", "zombie", "ghoul", "banshee", "poltergeist", "creature", "undead", "werewolf",
               "possessed", "lich", "wight")
_HAUNT = re.compile(rf"\b(?:{'|'.join(HAUNT_WORDS)})\w*")
# places so wide that every scene stands in them: a Tenet about the Empire fits any of its stations
WIDE_PLACES = {"empire", "republic", "kingdom", "realm", "territory", "county", "country", "province", "frontier",
               "border", "world"}
# kinds of place that are indoors: the open air's details ("fog that never lifts") are not theirs
INDOORS = {"house", "manor", "mansion", "cellar", "attic", "room", "schoolhouse", "school", "inn", "tavern", "saloon",
           "church", "chapel", "hall", "office", "bar", "club", "hotel", "hospital", "asylum", "library", "bank",
           "cabin", "jail", "prison", "crypt", "vault", "bunker", "casino", "theatre", "theater",
           "orphanage", "barracks", "dungeon", "tomb", "catacombs", "sewer", "sewers", "warehouse", "factory", "precinct"}
_ENDING = r"(?:s|es|ed|er|ers|ing|y|ies|ic|al|ian)?"
# one pattern per keyword, compiled once: genre_of runs for every decision of every heuristic seat
_GENRE_PATTERNS = {key: [re.compile(rf"\b{re.escape(w)}{_ENDING}\b") for w in words]
                   for key, words in GENRE_WORDS.items()}


def role_gender(role: str) -> str | None:
    """"f" or "m" when the role says a gender ("Rancher's widow", "Queen mother", "Daughter of the king"), else None.

    The head of the role decides: not an owner ("king's daughter") nor what follows "of".
    """
    head = re.split(r"\bof\b", role.lower(), maxsplit=1)[0]
    words = [w for w in re.findall(r"[a-z]+(?:['’]s)?", head) if not w.endswith(("'s", "’s"))]
    for w in reversed(words):
        for gender, nouns in GENDERED_ROLES.items():
            if w in nouns or singular(w) in nouns:
                return gender
    return None


def name_fits(name: str, role: str) -> bool:
    """Whether a name may be given to a character of this role: a woman's name to no king."""
    gender = role_gender(role)
    own = next((g for g, names in NAME_GENDER.items() if name in names), "either")
    return gender is None or own in (gender, "either")


def genre_of(s: GameState, premise: str = "") -> str:
    """The genre the premise (else the Tenets) names most; space opera when nothing says.

    A keyword matches as a whole word or with a plain ending ("ghosts", "haunted", "galaxy"),
    so "start" is not a star and "friendship" not a ship.
    """
    for text in (premise.lower(), " ".join(t.text for t in s.tenets).lower()):
        hits = {key: sum(1 for p in patterns if p.search(text)) for key, patterns in _GENRE_PATTERNS.items()}
        best = max(hits, key=lambda k: hits[k])  # ties go to the first listed
        if hits[best]:
            return best
    return DEFAULT_GENRE


def lower_first(text: str) -> str:
    """The text as it reads mid-sentence: "A charming liar" -> "a charming liar"; acronyms stay."""
    first = text.split(" ", 1)[0]
    return text if not text or (len(first) > 1 and first.isupper()) else text[:1].lower() + text[1:]


def goal_of(comp: Component) -> str:
    """The component's goal Trait as an infinitive ("to find the lost fleet"), or ""."""
    for t in reversed(comp.live_traits()):
        if t.text.startswith("Wants "):
            rest = t.text[len("Wants "):]
            if rest.startswith("to "):
                return rest
            # "Wants out of the rackets" is a way out, not a thing to have
            return f"to get {rest}" if rest.split(" ", 1)[0] in ("out", "away", "in", "back", "home") else f"to have {rest}"
    return ""


# Why a drawn Trait counts, per kind of Trait. `{w}` is the component, `{t}` the Trait in
# lower case, `{r}` a role with its article; each kind has several cores so that a Complication
# of fifteen draws does not read "it matters here" fifteen times (issue 23: no frame in more
# than 3% of the lines).
JUSTIFY: dict[str, list[str]] = {
    "location": ["{W} is home ground", "every corner of {w} takes a side", "{w} has seen this before",
                 "the ground itself leans this way", "{w} keeps its own counsel, and its own favourites",
                 "whoever knows {w} best has the edge"],
    "name": ["{t} is at the heart of it", "it all comes back to {t}", "{t} will not be ignored",
             "who else but {t}", "{t} has waited for this", "this is {t}'s fight"],
    "role": ["this is what {r} does best", "{r} knows this work", "it is {r}'s trade",
             "any {role} would stake a life on this", "{r} sees the way through",
             "no one here knows this work like {r}"],
    "goal": ["everything hangs on it", "{t} is at stake", "it is what {w} came for",
             "there is no turning back now", "{w} can almost touch it", "this is the chance {w} waited for"],
    "relationship": ["this is personal", "old ties pull hard", "{w} will not let it go",
                     "the bond decides it", "{w} remembers why", "blood and promises count here"],
    "injury": ["fighting through the pain", "the wound only sharpens {w}", "hurt, but not done",
               "pain is no excuse today", "{w} has bled for less", "the hurt makes {w} reckless"],
    "plain": ["it matters here", "it shows", "that is who they are", "{w} leans on it",
              "this is where it counts", "it was always going to come to this", "no one here doubts it",
              "it tips the balance", "{w} has never hidden it", "here of all places it tells",
              "it is the whole of {w} in one moment", "it surprises no one who knows {w}"],
}
LEADS: list[str] = ["", "", "", "here, ", "now, ", "once again, ", "against {o}, ", "with {o} watching, ",
         "in {p}, ", "before {o} can move, ", "at the worst moment for {o}, ", "plainly: "]
STAKES: list[str] = ["everything on this one moment", "{w} will not lose this", "no holding back now",
          "every coin on {w}", "the price is worth it", "{w} has come too far to stop",
          "it ends here, one way or another", "whatever it costs", "{w} reaches deeper",
          "more than {o} bargained for", "the last of the reserves", "no one walks away from this cheaply"]



@dataclass
class Words:
    """Sentence-making for one decision, seeded so a simulation is reproducible."""

    s: GameState
    rng: random.Random
    premise: str = ""

    @cached_property
    def genre(self) -> str:
        """Read once per decision: every `pick` asks for the lexicon."""
        return genre_of(self.s, self.premise)

    @property
    def lex(self) -> Lex:
        return GENRES[self.genre]

    @cached_property
    def parts(self) -> Premise:
        """The people, places and conflict the premise names; nothing for a genre's own stock line
        (what a simulation without a premise is given), so that story stays the genre's."""
        if any(self.premise.strip() == lex["genre"][0] for lex in GENRES.values()):
            return Premise()
        return parse_premise(self.premise)

    def premise_tenet(self) -> str:
        """The premise's situation in the genre's voice, "" when the premise names nothing."""
        return situation(self.parts, self.genre)

    def pick(self, key: str, avoid: set[str] | None = None, comp: Component | None = None) -> str | None:
        """A fresh item of the lexicon, or None when every one is already used.

        For a component, from its own kind's list (a haunt's) and only what fits it (`fits`).
        """
        items = [x for x in (self.lex[key] if comp is None else self.lex_for(comp, key))
                 if (not avoid or x.lower() not in avoid) and (comp is None or self.fits(comp, x))]
        return self.rng.choice(items) if items else None

    # -- who may have which Trait and do which deed ------------------------------------------------
    def is_haunt(self, comp: Component) -> bool:
        """A character its role or name says is dead or not human: the drowned family, the ghost, the vampire."""
        return comp.kind == "character" and any(t.kind in ("role", "sub", "name") and not t.removed
                                                and _HAUNT.search(t.text.lower()) for t in comp.traits)

    def lex_for(self, comp: Component | None, key: str) -> list[str]:
        """The genre's list for this component: a haunt's own deeds, wants and limits where the genre has them."""
        haunt = self.lex.get("haunt") or {}
        if key in haunt and comp is not None and self.is_haunt(comp):
            return haunt[key]
        return self.lex[key]

    def all_of(self, key: str) -> list[str]:
        """Every item of a list, the living's and the haunt's: to recognise a deed already told."""
        return self.lex[key] + [x for x in (self.lex.get("haunt") or {}).get(key, []) if x not in self.lex[key]]

    def open_air(self, key: str, place: Component | None) -> set[str]:
        """The genre's `key` list (open-air deeds or details), lowercased, when `place` is indoors: not
        done or said there ("digs where the ground is soft" in the attic); nothing when it is outdoors."""
        if place is None or place_head(place.label) not in INDOORS:
            return set()
        return {x.lower() for x in self.lex.get(key, [])}

    def _families(self, text: str) -> set[str]:
        low = text.lower()
        return {f for f, words in (self.lex.get("families") or {}).items() if any(w in low for w in words)}

    def fits(self, comp: Component, trait: str) -> bool:
        """Whether a stock Trait can be this character's: none of a family its Traits (or role) contradict,
        a change of heart only after the Trait it changes, no stranger or absent place named as known."""
        if comp.kind != "character":
            return True
        mine: set[str] = set()
        for t in comp.live_traits():
            mine |= self._families(t.text)
        turn = (self.lex.get("turns") or {}).get(trait)
        if turn is not None:
            return turn in mine
        new = self._families(trait)
        if any((a in new and b in mine) or (b in new and a in mine) for a, b in self.lex.get("clash") or []):
            return False
        return not self.strangers(comp, trait) and not self.absent_places(trait)

    def met(self, comp: Component) -> set[str]:
        """The ids of the components that shared a scene with this one."""
        out: set[str] = set()
        for sc in self.s.scenes:
            if comp.id in sc.present:
                out |= set(sc.present)
        for f in self.s.facts:
            if comp.id in f.components:
                out |= set(f.components)
        out.discard(comp.id)
        return out

    def strangers(self, comp: Component, trait: str) -> list[str]:
        """The roles a stock Trait names ("Owes the priest a life") that this one never shared a scene with."""
        low = trait.lower()
        heads = {r.lower().split()[-1] for r in self.lex["roles"]}
        named = [h for h in heads if re.search(rf"\bthe {re.escape(h)}\b", low)]
        if not named:
            return []
        met = [self.s.components[x] for x in self.met(comp) if x in self.s.components]
        roles = " ".join(t.text.lower() for c in met for t in c.live_traits() if t.kind in ("role", "sub"))
        return [h for h in named if not re.search(rf"\b{re.escape(h)}\b", roles)]

    def absent_places(self, text: str, with_tenets: bool = True) -> set[str]:
        """The kinds of place a text names that the story has not got: "the village" on an island."""
        words = set(re.findall(r"[a-z]+", text.lower())) & (PLACES - WIDE_PLACES)
        if not words:
            return set()
        known = " ".join([self.premise] + [c.label for c in self.s.components.values() if c.kind == "location"]
                         + ([t.text for t in self.s.tenets if not t.removed] if with_tenets else [])).lower()
        have = set(re.findall(r"[a-z]+", known))
        return {w for w in words if w not in have and singular(w) not in have}

    def tied_deeds(self, comp: Component) -> list[str]:
        """Deeds of this character's role or goal ("says a prayer for the drowned" for the priest)."""
        if self.is_haunt(comp):
            return []
        text = " ".join(t.text.lower() for t in comp.live_traits()
                        if t.kind in ("role", "sub") or t.text.startswith("Wants "))
        out: list[str] = []
        for word, deeds in (self.lex.get("deeds_by") or {}).items():
            if re.search(rf"\b{re.escape(word)}\b", text):
                out += [d for d in deeds if d not in out]
        return out

    # -- what the game already holds -------------------------------------------------------------
    def used_texts(self) -> set[str]:
        out = {t.text.lower() for c in self.s.components.values() for t in c.traits}
        return out | {t.text.lower() for t in self.s.tenets}

    def live_tenets(self) -> list[str]:
        """The Tenets a scene can restate: the premise's own situation is the whole story, not a detail."""
        own = self.premise_tenet() if self.premise else ""
        return [t.text for t in self.s.tenets if not t.removed and (not own or t.text != own)]

    def tenet_flavour(self) -> str:
        live = self.live_tenets()[1:] or self.live_tenets()  # the first one usually names the genre
        return self.rng.choice(live) if live else ""

    # -- new material -------------------------------------------------------------------------------
    def tenet(self) -> str | None:
        """A specific Tenet not yet on the table (the genre itself first, if nobody stated it)."""
        used = self.used_texts()
        if not self.s.tenets and not self.premise:
            return self.pick("genre", used)
        own = self.premise_tenet() if self.premise and not self.s.tenets else ""
        if own:
            # the premise's situation opens the game: the table plays this premise, not the genre's.
            # Only as the first Tenet: Tenets already on the table (kept from a brainstorm) were the
            # people's choice, and one they dropped is not brought back
            return own
        fresh = [t for t in self.lex["tenets"] if t.lower() not in used and not self.absent_places(t, with_tenets=False)]
        return self.rng.choice(fresh) if fresh else None

    def premise_roles(self) -> list[str]:
        """Roles of the premise's people not yet on the table, a plural once per character it counts."""
        have = [t.text.lower() for c in self.s.components.values() for t in c.traits if t.kind in ("role", "sub")]
        out = []
        for person in self.parts.people:
            role = role_of(person)
            missing = self.parts.counts.get(person, 1) - have.count(role.lower()) - out.count(role)
            out += [role] * max(0, missing)
        return out

    def new_character(self) -> tuple[str, str | None] | None:
        """(role, name) not yet used by a live component; None when the lexicon is exhausted.

        The premise's people come first ("Sheriff", "Mine owner"), named from the genre's names.
        A role that says a gender takes a name of that gender (`name_fits`), or no name when none is left.
        """
        used = self.used_texts()
        roles = self.premise_roles()
        role = roles[0] if roles else self.pick("roles", used)
        fresh = [x for x in self.lex["names"] if x.lower() not in used]
        fitting = [x for x in fresh if not role or name_fits(x, role)]
        name = self.rng.choice(fitting) if fitting else None  # drawn as before even without a role: same stories
        return (role, name) if role and fresh else None

    def premise_places(self) -> list[str]:
        """The premise's places not yet on the table, as labels: "the silver-mine town"."""
        used = self.used_texts()
        return [definite(p) for p in self.parts.places if definite(p).lower() not in used]

    def new_place(self) -> str | None:
        """A place for a new scene: the premise's own places first, then the genre's."""
        fresh = self.premise_places()
        return fresh[0] if fresh else self.pick("places", self.used_texts())

    def premise_goal(self, comp: Component) -> str | None:
        """The goal the premise's conflict gives this component's role, if it has no goal yet."""
        if any(t.text.startswith("Wants ") for t in comp.live_traits()):
            return None
        roles = {t.text.lower() for t in comp.live_traits() if t.kind in ("role", "sub")}
        for person in self.parts.people:
            if role_of(person).lower() in roles:
                goals = goals_for(self.parts, person)  # two queens may both want the crown
                if goals:
                    return goals[0]
        return None

    def new_prop(self) -> str | None:
        return self.pick("props", self.used_texts())

    def trait_for(self, comp: Component, kind: str = "") -> str | None:
        """A meaningful Trait the component lacks: personality, goal or limit (places: colour).

        None that names what the component is ("Owes the steward a life" for the steward).
        """
        have = {t.text.lower() for t in comp.traits}
        own = {t.text.lower() for t in comp.traits if t.kind in ("name", "role") and not t.removed}
        have |= {x.lower() for k in ("traits", "habits", "limits", "goals") for x in self.lex[k]
                 if any(word in x.lower() for word in own)}
        if comp.kind == "location":
            have |= self.open_air("outdoor", comp)
            return self.pick("place_traits", have)
        # another character's Trait is not copied word for word: each one is someone of its own
        have |= {t.text.lower() for c in self.s.components.values() if c.id != comp.id and c.kind == comp.kind
                 for t in c.live_traits() if t.kind == "plain"}
        goal = self.premise_goal(comp) if kind in ("", "goals") else None
        if goal:
            return goal  # the premise's conflict is what its people want
        if not kind:
            has_goal = any(t.text.startswith("Wants ") for t in comp.live_traits())
            kinds = ["traits", "habits", "limits"] + ([] if has_goal else ["goals", "goals", "goals"])
            kind = self.rng.choice(kinds)
            plain = sum(1 for t in comp.live_traits() if t.kind == "plain")
            if not has_goal and plain >= 1:
                kind = "goals"  # who someone is, then what they want: a second Trait is the goal
        if kind == "goals":
            have |= {t.text.lower() for c in self.s.components.values() for t in c.live_traits()
                     if t.text.startswith("Wants ")}
        return self.pick(kind, have, comp) or self.pick("traits", have, comp)

    def relation(self, comp: Component, other: Component) -> tuple[str, str | None]:
        """A relationship Trait and its corollary; a nameless other is "the cattle rustler", not "Cattle rustler"."""
        text, back = self.rng.choice(RELATIONS)
        o, me = self.who(other), self.who(comp)
        return text.format(o=o, s=me), (back.format(o=o, s=me) if back else None)

    def injury(self, comp: Component) -> str | None:
        """A wound the component does not carry yet, or None when it has them all."""
        have = {t.text.lower() for t in comp.traits}
        return self.pick("injuries", have, comp) or (None if "scarred" in have else "Scarred")

    def lesson(self, comp: Component, other: Component | None = None) -> str:
        """What a component learned from a Complication, about the other side when there is one;
        "" when it has learned all there is (not "Wiser for it" twice)."""
        have = {t.text.lower() for t in comp.traits}
        if other is not None:
            forms = [f"Knows what {self.who(other)} is capable of", f"Will not trust {self.who(other)} again",
                     f"Has seen {self.who(other)} up close", f"Swore to settle things with {self.who(other)}"]
            forms = [f for f in forms if f.lower() not in have]
            if forms:
                return self.rng.choice(forms)
        have |= {t.text.lower() for c in self.s.components.values() if c.id != comp.id
                 for t in c.live_traits() if t.kind == "plain"}
        return self.pick("lessons", have, comp) or ("" if "wiser for it" in have else "Wiser for it")

    def scene_time(self, past: bool = False) -> str:
        return self.rng.choice(self.lex["past" if past else "times"])

    # -- sentences about the story ----------------------------------------------------------------
    def who(self, comp: Component, start: bool = False) -> str:
        """A named component by its name, an unnamed one as "the smuggler captain"."""
        named = any(t.kind == "name" and not t.removed for t in comp.traits)
        text = comp.label if named or comp.kind == "location" else f"the {lower_first(comp.label)}"
        return text[:1].upper() + text[1:] if start else text

    def _where(self, place: Component | None) -> str:
        return f" {at(place.label)} {place.label}" if place is not None and self.rng.random() < 0.4 else ""

    def _how(self, comp: Component) -> str:
        """An apposition from the component's own Traits: ", haunted by the war," or ", who drinks too much,"."""
        if self.rng.random() > 0.4:
            return ""
        live = {t.text for t in comp.live_traits() if t.kind == "plain"}
        adj = [x for x in self.all_of("traits") if x in live]
        habits = [x for x in self.all_of("habits") if x in live]
        if adj and (not habits or self.rng.random() < 0.5):
            return f", {lower_first(self.rng.choice(adj))},"
        if habits:
            return f", who {lower_first(self.rng.choice(habits))},"
        return ""

    def event(self, performer: Component | None, receiver: Component | None, place: Component | None,
              hostile: bool = False) -> str:
        """An Event with one performer and one receiver, motivated by the performer's goal.

        Not word for word one already on the table when another wording can be found: a
        story that repeats "Tamsin swears fealty to Brother Cal" five times says it once.
        """
        told = {f.text.lower() for f in self.s.facts}
        text = self._event(performer, receiver, place, hostile)
        for _ in range(6):
            if text.lower() not in told:
                break
            text = self._event(performer, receiver, place, hostile)
        return text

    def _says(self, text: str, verb: str, other: Component) -> bool:
        return f"{verb} {self.who(other)}".lower() in text.lower()

    def pair_verbs(self, performer: Component, receiver: Component, hostile: bool = False) -> list[str]:
        """The deeds `performer` can still do to `receiver`: none it already did to that one in this scene.

        No kindness between two who fought in this scene (a hostile Event between them or a
        Complication's outcome), nor ever from one who stands against the other (`hostile_tie`: a
        "Rival of ..." Trait, the two sides of the premise's conflict); an allegiance ("swears fealty
        to") once between two characters in the whole story, one way.
        """
        sc = self.s.scene()
        pair = [f for f in self.s.facts if not f.removed and f.kind == "event"
                and performer.id in f.components and receiver.id in f.components]
        here = [f for f in pair if sc is not None and f.scene == sc.number]
        if not hostile and any(f.origin == "outcome" or any(self._says(f.text, v, x) for v in self.all_of("hostile")
                                                            for x in (performer, receiver)) for f in here):
            return []
        verbs = [v for v in self.lex_for(performer, "hostile" if hostile else "friendly")
                 if not any(f.components[:1] == (performer.id,) and self._says(f.text, v, receiver) for f in here)]
        if hostile:
            return verbs
        if self.hostile_tie(performer, receiver):
            return []
        sworn = any(self._says(f.text, v, x) for f in pair for v in ALLEGIANCE for x in (performer, receiver))
        return [v for v in verbs if v not in ALLEGIANCE or not sworn]

    def hostile_tie(self, performer: Component, receiver: Component) -> bool:
        """`performer` stands against `receiver`: a Trait says so ("Rival of ...", HOSTILE_TIES), or the
        premise's conflict sets their roles against each other ("the captain and the mutineers fight")."""
        if any(t.text.startswith(HOSTILE_TIES) and self.who(receiver).lower() in t.text.lower()
               for t in performer.live_traits()):
            return True

        def roles(c: Component) -> set[str]:
            return {t.text for t in c.live_traits() if t.kind in ("role", "sub")}

        return any(opposed(self.parts, a, b) for a in roles(performer) for b in roles(receiver))

    def _event(self, performer: Component | None, receiver: Component | None, place: Component | None,
               hostile: bool) -> str:
        where = self._where(place)
        if performer is not None and receiver is not None:
            verb = self.rng.choice(self.pair_verbs(performer, receiver, hostile)
                                   or self.lex_for(performer, "hostile" if hostile else "friendly"))
            goal = goal_of(performer)
            recent = " ".join(f.text for f in self.s.facts[-6:])
            why = f", determined {goal}" if goal and goal not in recent and self.rng.random() < 0.5 else ""
            return f"{self.who(performer, True)}{self._how(performer)} {verb} {self.who(receiver)}{where}{why}."
        actor = performer or receiver
        if actor is not None:
            recent = " ".join(f.text for f in self.s.facts[-12:])
            # what this one has not done yet in the game, and often what its role or goal would do
            own = self.lex_for(actor, "deeds")
            open_air = self.open_air("open_air", place)
            own = [d for d in own if d.lower() not in open_air] or own  # no digging in the attic
            done = " ".join(f.text for f in self.s.facts if f.components[:1] == (actor.id,) and not f.removed)
            fresh = [d for d in own if d not in recent and d not in done]
            tied = [d for d in self.tied_deeds(actor) if d not in recent and d not in done and d.lower() not in open_air]
            deeds = (tied if tied and self.rng.random() < 0.5 else fresh or tied) \
                or [d for d in own if d not in recent] or own
            deed = self.rng.choice(deeds)
            bound = re.search(r" (?:by|at|in|near) the (\w+)$", deed)
            if bound and bound.group(1) in {place_head(x) for x in self.lex["places"]} \
                    and (place is None or bound.group(1) not in place.label.lower()):
                deed = deed[:bound.start()]  # "buries something by the ford" is done at a ford, elsewhere "buries something"
            if re.search(r"\b(by|at|through|into|across|on|in) the\b", deed):
                where = ""  # the deed says where it happens ("buries something by the ford")
            goal = goal_of(actor)
            if goal and goal not in recent and self.rng.random() < 0.4:
                return f"{self.who(actor, True)} {deed}{where}, still hoping {goal}."
            return f"{self.who(actor, True)}{self._how(actor)} {deed}{where}."
        return f"Something stirs{where}."

    def fresh_deeds(self, actor: Component) -> bool:
        """`actor` has a deed of its own left that it has not done in the story yet."""
        done = " ".join(f.text for f in self.s.facts if f.components[:1] == (actor.id,) and not f.removed)
        return any(d not in done for d in self.lex_for(actor, "deeds") + self.tied_deeds(actor))

    def detail(self, place: Component | None) -> str | None:
        """A detail of the scene bought as a Fact, often one of the Tenets made concrete here;
        None when every detail it could think of is already on the table."""
        have = {f.text for f in self.s.facts}
        sc = self.s.scene()
        if sc is not None and sum(1 for f in self.s.facts if f.kind == "detail" and f.scene == sc.number
                                  and not f.removed) >= DETAILS_PER_SCENE:
            return None
        # a wording said of one place is not said again of another ("bells ring here at midnight")
        said = {f.text.split(": ", 1)[1].lower() for f in self.s.facts if f.kind == "detail" and ": " in f.text}
        said |= {f.text.split(", too, ", 1)[1].lower() for f in self.s.facts if f.kind == "detail" and ", too, " in f.text}
        options = []
        where = place.label if place is not None else "this place"
        lead = f"{at(where).title()} {where}, too, "  # "In the manor, too, " + a Tenet
        restated = sum(1 for f in self.s.facts if f.text.startswith(lead))
        here = set(re.findall(r"[a-z]+", where.lower()))
        for t in (self.live_tenets()[1:] or self.live_tenets()) if restated < TENET_DETAILS else []:
            # a Tenet about another kind of place is not this place's detail ("the village" at the lighthouse)
            if set(re.findall(r"[a-z]+", t.lower())) & (PLACES - WIDE_PLACES) - here:
                continue
            options.append(f"{lead}{lower_first(t.rstrip('.'))}.")
        if place is not None:
            outdoor = self.open_air("outdoor", place)
            for t in place.live_traits():
                if t.kind == "plain" and t.text.lower() not in outdoor:
                    options.append(f"{where[:1].upper() + where[1:]}: {lower_first(t.text)}, tonight more than ever.")
            for x in self.lex["place_traits"]:
                if x.lower() in outdoor:
                    continue
                options.append(f"{where[:1].upper() + where[1:]}: {lower_first(x)}.")
        options = [o for o in options if o not in have and o.split(": ", 1)[-1].split(", too, ", 1)[-1].lower()
                   not in said]
        return self.rng.choice(options) if options else None

    def opening(self, place: Component | None, cast: list[Component]) -> str:
        """Words for establishing the location."""
        who = " and ".join(c.label for c in cast[:2])
        return f"We open on {place.label if place else 'a new place'}" + (f", where {who} wait." if who else ".")

    def arrival(self, comp: Component, place: Component | None = None) -> str:
        """Words for bringing a component into the scene, from its own goal and Traits, the place and
        who is already there: not "X is here." every time (issue 23)."""
        s = self.s
        sc = s.scene()
        w, W = self.who(comp), self.who(comp, True)
        forms = [f"{W} is here.", f"{W} arrives.", f"{W} slips in unnoticed.", f"{W} steps out of the shadows.",
                 f"{W} has been here all along, watching.", f"Nobody expected {w}, but here {w} is."]
        if place is not None:
            forms += [f"{W} reaches {place.label} at last.", f"{place.label[:1].upper()}{place.label[1:]} "
                      f"has a new visitor: {w}."]
        goal = goal_of(comp)
        if goal:
            forms += [f"{W} comes in, still hoping {goal}.", f"{W} arrives with one thing in mind: {goal}."]
        live = [t.text for t in comp.live_traits() if t.kind == "plain" and not t.text.startswith("Wants ")]
        if live:
            forms.append(f"{W} walks in, {lower_first(self.rng.choice(live))} as ever.")
        here = [s.components[x] for x in (sc.present if sc else []) if x in s.components and x != comp.id
                and s.components[x].kind != "location" and not s.components[x].eliminated]
        if here:
            other = self.rng.choice(here)
            forms += [f"{W} comes looking for {self.who(other)}.", f"{W} finds {self.who(other)} here."]
        return self.rng.choice(forms)

    def challenge_reason(self, fact_text: str, why: str) -> str:
        return f"That contradicts what we already paid for: “{fact_text}” ({why})."

    def outcome(self, winner: Component | None, loser: Component | None, originator_won: bool,
                 source: str) -> str:
        """The Complication's outcome, told by the winner of the roll."""
        if winner is not None and loser is not None:
            forms = ["{W} gets the better of {l}.", "{L} is outmatched by {w} this time.",
                     "{W} prevails over {l}, and it costs {l} dearly.", "{W} wins this round against {l}.",
                     "{L} has to give way to {w}."]
            said = [f.format(W=self.who(winner, True), w=self.who(winner), L=self.who(loser, True), l=self.who(loser))
                    for f in forms]
            told = {f.text for f in self.s.facts}
            return self.rng.choice([x for x in said if x not in told] or said)  # a rematch is not told word for word
        if winner is not None:
            return f"{self.who(winner, True)} comes through it{'' if originator_won else ' unharmed'}."
        if loser is not None:
            return self.rng.choice([f"It goes wrong for {self.who(loser)}.",
                                    f"{self.who(loser, True)} leaves empty-handed."])
        base = source.rstrip(".")
        return f"{base}: {'so it goes' if originator_won else 'but it fails'}."

    def loser_outcome(self, hero: Component | None, fallen: Component | None = None) -> str | None:
        """The losing side's last word: its own principal getting away, never a bystander's.

        When its only principal has just fallen the fate was told already: None, nothing to add.
        """
        if hero is None:
            return None if fallen is not None else "The trouble passes, for now."
        if fallen is not None:
            return f"{self.who(hero, True)} gets away alive; {self.who(fallen)} does not."
        return self.rng.choice([f"{self.who(hero, True)} gets away, bruised but alive.",
                                f"{self.who(hero, True)} retreats to fight another day.",
                                f"{self.who(hero, True)} comes off worst this time and will remember it."])

    def obstacle(self, comps: list[Component]) -> str:
        """Words for an Obstacle raised against an Event, from the place and what the component wants."""
        c = next((x for x in comps if x.kind != "location"), None)
        if c is None:
            return "It will not be that easy."
        w, W = self.who(c), self.who(c, True)
        s = self.s
        sc = s.scene()
        place = s.components.get(sc.location) if sc is not None and sc.location else None
        forms = [f"It will not be that easy for {w}.", f"Something stands in {w}'s way.",
                 f"{W} is not the only one with plans here.", f"Luck turns against {w}.",
                 f"{W} has been seen, and word travels fast.", f"The plan comes apart in {w}'s hands.",
                 f"Someone got here before {w}.", f"{W} pays for being careless."]
        if place is not None:
            forms += [f"{place.label[:1].upper()}{place.label[1:]} does not make it easy for {w}.",
                      f"Nothing {at(place.label)} {place.label} goes as {w} planned."]
        goal = goal_of(c)
        if goal:
            forms.append(f"Every step {goal} costs {w} more than the last.")
        return self.rng.choice(forms)

    def setback(self, comp: Component, by: Component | None) -> str:
        """Words for bonus coins paid against a component's Importance, short of its end."""
        w, W = self.who(comp), self.who(comp, True)
        forms = [f"{W} is worn down and will not soon recover.", f"{W} loses ground that cannot be won back.",
                 f"{W} walks away smaller than before.", f"Much of what made {w} dangerous is spent."]
        if by is not None:
            b = self.who(by)
            forms += [f"{b[:1].upper()}{b[1:]} takes from {w} more than the fight.",
                      f"{W} will carry what {b} did here for a long time.",
                      f"After {b} is done, {w} is a shadow of who {w} was."]
        return self.rng.choice(forms)

    def fate(self, comp: Component, killer: Component | None) -> str:
        by = f" at the hands of {self.who(killer)}" if killer is not None else ""
        return f"{self.who(comp, True)} falls{by} and is gone from the story."

    def closing(self, place: Component | None, fade: bool) -> str:
        where = place.label if place else "the scene"
        if fade:
            return f"The light dies on {where}; what happens next stays in the dark."
        flavour = self.tenet_flavour()
        tail = f" {flavour}." if flavour and self.rng.random() < 0.3 else ""
        return f"We leave {where}.{tail}"

    def dialog_line(self, speaker: Component, listener: Component) -> str:
        goal = goal_of(speaker)
        if goal:
            return f"I mean {goal}, {self.who(listener)}. Are you with me or in my way?"
        return f"We both know why I came, {self.who(listener)}."

    def _scene_ends(self, comp: Component) -> tuple[str, str]:
        """An opponent and a place for the words of a die: someone on the other side, the location."""
        s = self.s
        sc = s.scene()
        place = s.components.get(sc.location) if sc is not None and sc.location else None
        ctrl = s.controller(comp.id)
        others = [s.components[x] for x in (sc.present if sc else []) if x in s.components
                  and s.components[x].kind != "location" and not s.components[x].eliminated
                  and s.controller(x) != ctrl and x != comp.id]
        opp = self.who(others[0]) if others else "the others"
        return opp, place.label if place is not None else "this place"

    def _lead(self, comp: Component) -> str:
        opp, where = self._scene_ends(comp)
        return self.rng.choice(LEADS).format(o=opp, p=where)

    def justify(self, trait: str, comp: Component, kind: str = "plain") -> str:
        """Why a Trait applies, for the draw's words, built from the component, the Trait and the scene."""
        if comp.kind == "location":
            key = "location"
        elif kind == "name":
            key = "name"
        elif kind in ("role", "sub"):
            key = "role"
        elif trait.startswith("Wants "):
            key = "goal"
        elif kind == "relationship":
            key = "relationship"
        elif trait in self.all_of("injuries"):
            key = "injury"
        else:
            key = "plain"
        role = lower_first(trait)
        core = self.rng.choice(JUSTIFY[key]).format(
            W=self.who(comp, True), w=self.who(comp), t=lower_first(trait) if key != "name" else trait,
            r=f"{'an' if role[:1] in 'aeiou' else 'a'} {role}", role=role)
        return self._lead(comp) + core

    def stake(self, comp: Component | None) -> str:
        """Words for dice bought into a Pool."""
        if comp is None:
            return self.rng.choice([x for x in STAKES if "{" not in x])
        opp, _ = self._scene_ends(comp)
        return self.rng.choice(STAKES).format(w=self.who(comp), o=opp)
