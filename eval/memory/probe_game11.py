"""An eleventh memory probe from a played game, written blind: eval/data/probe_game11.jsonl plus questions.

Why an eleventh game: probe_game10 (the fantasy) was the held-out test, and its results
may be read since. This one is a fresh held-out test, a horror (probe_game6's and
probe_game8's genre, now told by the heuristic narrator as it stands), another seed and
its own story: questions written without looking at the retrieval code, its results or
any search over these Facts; only by reading the game's Facts and its log (to know who
won which conflict, who was hurt and who died) and asking what a player at the table
would ask. Nobody tunes on it.

The log was played with (seed 111, horror, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=111,
                  premise="A horror story on a fog-bound island where the lighthouse keeper's drowned "
                          "family comes back to the house",
                  log_path="eval/data/probe_game11.jsonl")

It was played at commit a12db95 with uncommitted changes in the working tree (other
engineers were editing agents/narration.py and engine/universalis/complications.py,
scene_actions.py and state.py at the time), so replaying the seed at a12db95 may not give
this log back; the log is the data. Both genre checks (agents/brainstorm.py detect_genre and
agents/narration.py genre_of) read the premise as horror.

It holds 335 Facts (counted by replaying the log with the probe builder, as build() does):
seed 111, the one asked for, reached 300 on the first try. f173 and f183 are missing: the
drowned family's death at Nathaniel Crowe's hands in the lighthouse (scene 9) was
challenged ("That death comes too cheap") and withdrawn after a bidding war, and Martha
Crane's death in the house (scene 10) was challenged and conceded. Ivy Pell's death was
challenged too, but the bidding upheld it. The premise took: T1 restates it ("the
lighthouse keeper's drowned family comes back to the house, and nobody who sees it is ever
the same"), and the other Tenets are stock horror ones (the dead remember everything,
nobody leaves the village after sunset, whoever says its name aloud is next, the thing in
the house touches you only when you are alone, help never arrives in time, every mirror
shows the room a minute ahead). The lighthouse keeper's drowned family is one character
with no name ("Lighthouse keeper's drowned family", told as "her": "speak with her dead
husband"); Simon Larch, the lighthouse keeper himself, is a separate character who never
meets them.

What the game holds: four deaths among eleven characters, in four places (the fog-bound
island, scenes 1 to 6 and 8; the house, 7, 10 to 12 and 14; the lighthouse, 9; the flooded
cellar, 13). Scene 3 is a flashback ("A hundred years earlier, when the manor was built").
The drowned family and Nathaniel Crowe (the paranormal investigator) fight all game: Crowe
beats the family twice on the island in scene 1 and once at the lighthouse (scene 9, the
killing withdrawn); the family beats Crowe on the island in the flashback and in the house
in scene 11, and also beats Ivy Pell (the skeptical doctor, scene 3) and Martha Crane (the
schoolteacher, scene 4, after Martha's "Are you with me or in my way?" was refused) on the
island. Martha Crane is at the centre of the second half: she beats Crowe on the island
(scene 5), in the house (scene 7) and twice at the lighthouse (scene 9), and the family
twice at the lighthouse; Crowe beats her at the lighthouse and in the house (scene 10),
and Ivy beats her at the lighthouse. Ivy beats Rose Tilney (the innkeeper, Crowe's
sibling) and Crowe on the island; Crowe beats Clara Voss (the medium) in the house
(scene 7) and Ivy in the house (scene 12). Clara Voss falls to a bare Obstacle ("It goes
wrong for Clara Voss") at the lighthouse (scene 9), right after Martha protected,
sheltered, warned, comforted and confided in her; Nathaniel Crowe falls the same way in
the flooded cellar (scene 13) while sheltering Martha; in the last scene, in the house,
Ellery Dunn (the gravedigger) kills Ivy Pell, who had just comforted him, and Martha Crane
kills Ellery Dunn, who had just protected her. Ambrose Lyle (the village priest) appears
only in scene 1; Simon Larch only in scenes 2 and 3 (he accuses Crowe, owes him a debt);
Agnes Whitlow (the orphan) and Edith Henley (the grieving mother) do only stock deeds,
apart from Edith sheltering the family in the cellar.

Narration that reads badly (bug reports for the heuristic narrator): "in the fog-bound
island" throughout ("digs where the ground is soft in the fog-bound island", "In the
fog-bound island, too, whoever says its name aloud is next"): an island takes "on". Seven
stock deeds (reads the drowned girl's diary, winds the music box, digs where the ground is
soft, salts the threshold, lights a candle, listens at the door, searches for a hidden
door) make up most Events and are done by everyone everywhere, the ghosts included: the
drowned family salts the threshold against itself, lights candles and reads the drowned
girl's diary; Ivy Pell reads the diary three times, Martha searches for a hidden door three
scenes running. Obstacles ("Something stands in Ivy Pell's way", "Nathaniel Crowe is not
the only one with plans here") are resolved as a win over some other character present
("Rose Tilney is outmatched by Ivy Pell this time", "Martha Crane gets the better of
Nathaniel Crowe"), and a loser's line goes to a bystander: "Martha Crane retreats to fight
another day" after Clara Voss's death and again after Crowe's; "Martha Crane gets away,
bruised but alive" after her withdrawn death, which follows "Martha Crane leaves without
what they came for" ("they" for one woman). In scene 9 the drowned family "comes off worst
this time and will remember it" three times. Traits contradict roles and each
other: the skeptical doctor is "Gifted with second sight" and "Bound to the manor"; the
medium "No longer believes it is a hoax" (she never did); Ellery Dunn is "Stubbornly
skeptical" and then "No longer believes it is a hoax"; Edith Henley gets five Traits at
once after coming through an Obstacle unharmed, three of them Ellery's word for word
("Grieving and reckless", "Kind to strangers", "Stubbornly skeptical") and "Owes the priest
a life" although she never met the priest. Allegiances make little sense: Martha "swore to
settle things with" the family and later confides in it; in scene 9 Martha and Ivy warn,
protect, pray with, confide in and shelter each other and then fight; Crowe shelters the
family and the family protects Crowe, then Crowe tries to kill it; the family protects
Ellery Dunn; Rose Tilney prays with her sibling Crowe and in the next scene Crowe imprisons
her (an Event, no conflict). The ghosts' first Event is praying with the ghost hunter.
"Nobody can leave the village after sunset" is restated at the lighthouse, but there is no
village; "fog that never lifts" is a detail of the house (indoors). The
flashback to "a hundred years earlier" holds the same characters as the present. Ellery
Dunn, introduced in scene 1 as "Hunting Nathaniel Crowe", is declared "far from here
tonight" four times and never meets Crowe; Simon Larch, the lighthouse keeper, is absent
from the lighthouse scene.

How the questions were written, as for probe_game10: characters are asked about by name
and, about as often, only by their role or description ("the paranormal investigator", "the
ghost hunter", "the schoolteacher", "the teacher", "the skeptical doctor", "the doubting
physician", "the medium", "the spiritualist", "the gravedigger", "the sexton", "the
innkeeper", "the lighthouse keeper", "the orphan", "the grieving mother", "the bereaved
mother", "the village priest"; the lighthouse keeper's drowned family has no other name, and
is also asked as "the drowned family", "the drowned dead", "the ghosts"). Places are asked
about by name and by description ("the island", "the misty isle", "the family home", "the
beacon tower", "the beacon", "the cellar", "the waterlogged basement"), and so is what
happened in a scene at a place whose events do not name it (who died in the house, who
wound the music box at the lighthouse). Some are worded close to the Facts, some
moderately, some heavily (about a third each). `relevant` lists what a full answer needs;
an inner list is a group of Facts saying the same thing (a Trait restated in events, the
same deed done twice, a defeat told once from each side), any one of which counts as that
item recalled; each group was completed by grepping the whole Fact list for every wording
of it. Questions whose true answer would be more than six items were made more specific.
Tags use probe_game2's vocabulary. All questions are asked at the end of the game (scene 14).
Question ids are t1, t2, ... (no other probe module uses "t"; it is also the prefix of Trait
Fact ids, but question ids and Fact ids never meet).

    python -m eval.memory.probe_game11    # replay the log, rewrite eval/data/memory_probe_game11.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game11.jsonl"
OUT = DATA / "memory_probe_game11.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

# Tenets restated later as a detail of a place
TENET_NAME = ["T4", "f29"]
TENET_SUNSET = ["T3", "f138"]
TENET_ALONE = ["T5", "f66"]
TENET_MIRROR = ["T7", "f193"]
# Traits restated in events ("..., still hoping to speak with her dead husband", "Ivy Pell, gifted with ...")
FAMILY_HUSBAND = ["t3", "f2", "f23", "f81", "f110", "f167", "f237"]
FAMILY_SLEEPLESS = ["t2", "f112", "f166"]
CROWE_SLEEPLESS = ["t14", "f36", "f57", "f99", "f185"]
EDITH_SLEEPLESS = ["t83"]
FAMILY_STAIRS = ["t21", "f24"]
FAMILY_LULLABY = ["t22", "f160", "f163"]
CROWE_GHOST = ["t8", "f6", "f95", "f114", "f132", "f168", "f185", "f199", "f216"]
CROWE_CANDLE = ["t11", "f5", "f186"]
IVY_SIGHT = ["t31", "f33", "f34", "f55", "f77", "f123", "f127", "f141", "f176", "f177", "f179"]
IVY_HOAX = ["t32", "f30", "f67", "f85", "f140", "f178"]
MARTHA_DEAD = ["t28", "f42", "f48", "f64", "f65", "f135", "f139", "f142", "f147", "f149", "f181", "f231"]
MARTHA_ALIVE = ["t46", "f43", "f59", "f129", "f139", "f147", "f181", "f231"]
AGNES_CULT = ["t37", "f21"]
CLARA_CHILD = ["t44", "f153"]
ELLERY_RECKLESS = ["t77", "f201"]
ELLERY_KIND = ["t79", "f208"]
ELLERY_SKEPTIC = ["t78", "f229", "f230", "f238"]
# Relationships told from both sides
SIBLINGS = ["t56", "t57"]
DEBT = ["t33", "t34"]
# The same deed done more than once
FAMILY_PRAYS_CROWE = ["f2", "f36"]
ELLERY_PROTECTS_MARTHA = ["f230", "f238"]
# Defeats told from each side (the same pair's defeats in one place grouped)
CROWE_BEATS_FAMILY_ISLAND = ["f3", "f4", "f11", "f12"]
FAMILY_BEATS_CROWE_ISLAND = ["f25", "f26"]
FAMILY_BEATS_IVY_ISLAND = ["f31", "f32"]
FAMILY_BEATS_MARTHA_ISLAND = ["f44", "f45"]
MARTHA_BEATS_CROWE_ISLAND = ["f61", "f62"]
IVY_BEATS_ROSE_ISLAND = ["f68", "f69"]
CROWE_BEATS_CLARA_HOUSE = ["f97", "f98"]
MARTHA_BEATS_CROWE_HOUSE = ["f100", "f101"]
IVY_BEATS_CROWE_ISLAND = ["f124", "f125"]
CROWE_BEATS_MARTHA_LIGHTHOUSE = ["f130", "f131"]
MARTHA_BEATS_CROWE_LIGHTHOUSE = ["f133", "f134", "f169", "f170"]
IVY_BEATS_MARTHA_LIGHTHOUSE = ["f145", "f146"]
MARTHA_BEATS_FAMILY_LIGHTHOUSE = ["f161", "f162", "f164", "f165"]
CROWE_BEATS_FAMILY_LIGHTHOUSE = ["f172", "f174"]
CROWE_BEATS_MARTHA_HOUSE = ["f188"]
FAMILY_BEATS_CROWE_HOUSE = ["f191", "f192"]
CROWE_BEATS_IVY_HOUSE = ["f213", "f214"]
# Obstacles that went wrong with no one's hand in it
IVY_MISHAP_ISLAND = ["f40", "f41"]
MARTHA_MISHAP_ISLAND = ["f75", "f76"]
IVY_BITTEN_ISLAND = ["f79", "f80"]
CLARA_MISHAP_HOUSE = ["f93", "f94"]
ELLERY_FAILS_HOUSE = ["f209", "f210"]
# Deaths (the Obstacle's outcome and the fall, or the winner's line and the loser's)
CLARA_FALLS = ["f154", "f155"]
CROWE_FALLS = ["f217", "f218"]
ELLERY_KILLS_IVY = ["f234", "f235"]
MARTHA_KILLS_ELLERY = ["f239", "f240"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (some restated later as a place detail: either counts)
    ("Is anyone who sees the drowned family come home ever the same again?", ["T1"], "role tenet moderate"),
    ("Do the dead forget anything?", ["T2"], "none tenet moderate"),
    ("How much of the living world do ghosts recall?", ["T2"], "none tenet heavy"),
    ("Can anyone leave the village after sunset?", [TENET_SUNSET], "none tenet light"),
    ("Is there any way out of the village once the sun goes down?", [TENET_SUNSET], "none tenet heavy"),
    ("What happens to whoever says its name aloud?", [TENET_NAME], "none tenet light"),
    ("Why is it dangerous to speak the creature's name?", [TENET_NAME], "none tenet heavy"),
    ("When can the thing in the house touch you?", [TENET_ALONE], "none tenet light"),
    ("Is it safer to stay in company when the presence is near?", [TENET_ALONE], "none tenet heavy"),
    ("Does help ever arrive in time?", ["T6"], "none tenet light"),
    ("Can anyone count on being rescued before it is too late?", ["T6"], "none tenet heavy"),
    ("Which looking-glasses reveal what is about to happen?", [TENET_MIRROR], "none tenet heavy"),
    ("Where is saying its name aloud deadly as well?", ["f29"], "none place tenet moderate"),
    ("On the fog-bound island, can the thing only touch people who are alone?", ["f66"], "none place tenet light"),
    ("Where else is nobody able to leave the village after dark?", ["f138"], "none place tenet moderate"),
    ("Do the mirrors in the house run a minute ahead too?", ["f193"], "none place tenet light"),
    # The lighthouse keeper's drowned family (no name)
    ("Whom does the drowned family want to speak with?", [FAMILY_HUSBAND], "role trait light"),
    ("Who longs to talk to her late husband?", [FAMILY_HUSBAND], "none trait moderate"),
    ("What is the lighthouse keeper's drowned family bound to?", ["t4"], "role trait light"),
    ("Who is tied to the manor?", ["t4", "t39", "t75"], "none trait moderate"),
    ("What tune do the drowned dead keep on humming?", [FAMILY_LULLABY], "role trait heavy"),
    ("What do the ghosts count on every staircase?", [FAMILY_STAIRS], "role trait moderate"),
    ("Who can't abide a quiet room?", ["t20", "t51", "t68"], "none trait heavy"),
    ("Who has gone without sleep for weeks?", [FAMILY_SLEEPLESS, CROWE_SLEEPLESS, EDITH_SLEEPLESS],
     "none trait light"),
    ("What does the drowned family know about the paranormal investigator?", ["t23"], "role trait moderate"),
    ("What wounds has the lighthouse keeper's drowned family taken?", ["t9", "t73"], "role wound light"),
    ("Who rattled the drowned dead so badly in the opening scene?", [CROWE_BEATS_FAMILY_ISLAND, "t9"],
     "role wound outcome scene heavy"),
    ("Who sprained the drowned family's ankle at the lighthouse?", [MARTHA_BEATS_FAMILY_LIGHTHOUSE, "t73"],
     "role wound outcome scene place light"),
    ("Whom did the drowned family defeat?",
     [FAMILY_BEATS_CROWE_ISLAND, FAMILY_BEATS_IVY_ISLAND, FAMILY_BEATS_MARTHA_ISLAND, FAMILY_BEATS_CROWE_HOUSE],
     "role outcome light"),
    ("Who has got the better of the lighthouse keeper's drowned family?",
     [CROWE_BEATS_FAMILY_ISLAND, MARTHA_BEATS_FAMILY_LIGHTHOUSE, CROWE_BEATS_FAMILY_LIGHTHOUSE], "role outcome light"),
    ("Who last overpowered the ghosts at the beacon tower?", [CROWE_BEATS_FAMILY_LIGHTHOUSE],
     "role outcome scene placedesc heavy"),
    ("Who won when the ghosts cornered the investigator in the family home?", [FAMILY_BEATS_CROWE_HOUSE],
     "role outcome scene placedesc heavy"),
    ("Whom did the drowned family lock up?", ["f24"], "role deed moderate"),
    ("Whom did the drowned dead stalk through the house?", ["f190"], "role deed scene place moderate"),
    ("Whom did the ghosts keep from harm?", ["f171", "f237"], "role deed heavy"),
    ("Who sheltered the drowned family?", ["f168", "f220"], "role deed light"),
    ("Who opened their heart to the lighthouse keeper's drowned family?", ["f204"], "role deed moderate"),
    ("What did the schoolteacher say to the drowned family?", ["f43"], "role dialog moderate"),
    ("Where did the drowned dead pour salt across a doorway?", [["f10", "f28"], "f163"], "role deed heavy"),
    # Nathaniel Crowe, the paranormal investigator
    ("What does Nathaniel Crowe do?", ["t6"], "name trait moderate"),
    ("Who investigates the paranormal?", ["t6"], "none trait light"),
    ("What does the ghost hunter hope to do?", [CROWE_GHOST], "role trait heavy"),
    ("Who is trying to put the ghost to rest?", [CROWE_GHOST], "none trait light"),
    ("What does Nathaniel Crowe keep lit through the night?", [CROWE_CANDLE], "name trait light"),
    ("Who never lets the flame go out after dark?", [CROWE_CANDLE], "none trait heavy"),
    ("Who is Nathaniel Crowe's sibling?", [SIBLINGS], "name trait light"),
    ("To whom is the innkeeper related by blood?", [SIBLINGS], "role trait heavy"),
    ("Who is in Nathaniel Crowe's debt?", [DEBT], "name trait light"),
    ("To whom is the lighthouse keeper in debt?", [DEBT], "role trait moderate"),
    ("Who has vowed a reckoning with the drowned family?", ["t13", "t49"], "role trait moderate"),
    ("Who has looked the skeptical doctor in the face at arm's length?", ["t61"], "role trait heavy"),
    ("What wounds has Nathaniel Crowe taken?", ["t38", "t58", "t69"], "name wound light"),
    ("Who scratched the paranormal investigator to the bone?", [FAMILY_BEATS_CROWE_ISLAND, "t38"],
     "role wound outcome moderate"),
    ("How did Nathaniel Crowe lose the crucifix?", [MARTHA_BEATS_CROWE_ISLAND, "t58"], "name wound outcome moderate"),
    ("Who left the ghost hunter with a bite in the family home?", [MARTHA_BEATS_CROWE_HOUSE, "t69"],
     "role wound outcome scene placedesc heavy"),
    ("How did Nathaniel Crowe die?", [CROWE_FALLS], "name outcome moderate"),
    ("Where did the paranormal investigator meet their end?", [CROWE_FALLS], "role outcome scene moderate"),
    ("Whom did Nathaniel Crowe beat?",
     [CROWE_BEATS_FAMILY_ISLAND, CROWE_BEATS_CLARA_HOUSE, CROWE_BEATS_MARTHA_LIGHTHOUSE, CROWE_BEATS_FAMILY_LIGHTHOUSE,
      CROWE_BEATS_MARTHA_HOUSE, CROWE_BEATS_IVY_HOUSE], "name outcome light"),
    ("Who beat Nathaniel Crowe at the lighthouse?", [MARTHA_BEATS_CROWE_LIGHTHOUSE], "name outcome scene place light"),
    ("Who got the upper hand over the ghost hunter in the flashback?", [FAMILY_BEATS_CROWE_ISLAND],
     "role outcome scene heavy"),
    ("Whom did Nathaniel Crowe betray?", ["f96"], "name deed light"),
    ("How did the investigator's betrayal of the medium turn out?", ["f96", CROWE_BEATS_CLARA_HOUSE],
     "role deed outcome moderate"),
    ("Whom did the investigator lock away?", ["f71"], "role deed heavy"),
    ("Who accused Nathaniel Crowe?", ["f20", "f60"], "name deed light"),
    ("Whom did the ghost hunter look after?", ["f168", "f185", "f216"], "role deed heavy"),
    ("Who poured their heart out to Nathaniel Crowe?", ["f181"], "name deed heavy"),
    ("Who prayed with Nathaniel Crowe?", [FAMILY_PRAYS_CROWE, "f58", "f186"], "name deed light"),
    # Martha Crane, the schoolteacher
    ("What does Martha Crane do for a living?", ["t26"], "name trait moderate"),
    ("Who teaches the children?", ["t26"], "none trait heavy"),
    ("Who can speak with the dead?", [MARTHA_DEAD], "none trait moderate"),
    ("What gift does the schoolteacher have?", [MARTHA_DEAD], "role trait heavy"),
    ("What does Martha Crane want?", [MARTHA_ALIVE], "name trait light"),
    ("Who is desperate to get away from here with their life?", [MARTHA_ALIVE], "none trait heavy"),
    ("Who is troubled by someone calling to them after dark?", ["t50", "t74"], "none trait heavy"),
    ("Whom does the medium secretly love?", ["t59"], "role trait moderate"),
    ("What wounds has Martha Crane suffered?", ["t47", "t62", "t71"], "name wound light"),
    ("How did the schoolteacher sprain an ankle?", [CROWE_BEATS_MARTHA_LIGHTHOUSE, "t71"],
     "role wound outcome moderate"),
    ("Who clawed the teacher to the bone?", [FAMILY_BEATS_MARTHA_ISLAND, "t47"], "role wound outcome heavy"),
    ("What left Martha Crane shaken on the fog-bound island?", [MARTHA_MISHAP_ISLAND, "t62"],
     "name wound outcome scene place moderate"),
    ("Whom did Martha Crane kill?", [MARTHA_KILLS_ELLERY], "name outcome light"),
    ("Whom did Martha Crane defeat at the lighthouse?", [MARTHA_BEATS_CROWE_LIGHTHOUSE, MARTHA_BEATS_FAMILY_LIGHTHOUSE],
     "name outcome scene place light"),
    ("Who beat the schoolteacher at the beacon?", [CROWE_BEATS_MARTHA_LIGHTHOUSE, IVY_BEATS_MARTHA_LIGHTHOUSE],
     "role outcome scene placedesc heavy"),
    ("Whom did the schoolteacher get the better of in the house during the seventh scene?",
     [MARTHA_BEATS_CROWE_HOUSE], "role outcome scene place moderate"),
    ("How did the schoolteacher's refused parley with the drowned family end?", ["f43", FAMILY_BEATS_MARTHA_ISLAND],
     "role dialog outcome heavy"),
    ("Whom did the schoolteacher protect?", [["f142", "f144"], ["f147", "f152"]], "role deed light"),
    ("Who protected Martha Crane?", ["f140", "f148", ["f185", "f216"], ELLERY_PROTECTS_MARTHA], "name deed light"),
    ("Whom did Martha Crane console?", ["f150", "f231"], "name deed moderate"),
    ("To whom did Martha Crane open her heart?", ["f151", "f181", "f204"], "name deed heavy"),
    ("Who gave Martha Crane shelter in the flooded cellar?", ["f216", "f230"], "name deed scene place moderate"),
    ("Did Martha Crane come away empty-handed from the house?", [["f182", "f184"]],
     "name outcome scene place moderate"),
    # Ivy Pell, the skeptical doctor
    ("What is Ivy Pell's profession?", ["t29"], "name trait moderate"),
    ("Which physician refuses to believe?", ["t29"], "none trait heavy"),
    ("What is Ivy Pell trying to prove?", [IVY_HOAX], "name trait light"),
    ("Who wants to show the haunting is a fraud?", [IVY_HOAX], "none trait moderate"),
    ("Who can see things hidden from other eyes?", [IVY_SIGHT], "none trait heavy"),
    ("What uncanny gift does the doubting physician have?", [IVY_SIGHT], "role trait heavy"),
    ("Who cannot step over the church doorstep?", ["t41", "t76"], "none trait moderate"),
    ("What wounds did Ivy Pell suffer?", ["t40", "t45", "t63"], "name wound light"),
    ("How did the doctor get bitten?", [IVY_BITTEN_ISLAND, "t63"], "role wound outcome moderate"),
    ("Who shook Ivy Pell to the core?", [FAMILY_BEATS_IVY_ISLAND, "t40"], "name wound outcome light"),
    ("Where did Ivy Pell twist an ankle?", [IVY_MISHAP_ISLAND, "t45"], "name wound scene moderate"),
    ("Who killed Ivy Pell?", [ELLERY_KILLS_IVY], "name outcome light"),
    ("Where did the skeptical doctor die?", [ELLERY_KILLS_IVY], "role outcome scene moderate"),
    ("Whom did the doubting doctor overcome?",
     [IVY_BEATS_ROSE_ISLAND, IVY_BEATS_CROWE_ISLAND, IVY_BEATS_MARTHA_LIGHTHOUSE],
     "role outcome heavy"),
    ("Whom did Ivy Pell comfort just before dying?", ["f233"], "name deed scene moderate"),
    ("Who confided in the schoolteacher at the lighthouse?", ["f143"], "role deed scene place light"),
    # Clara Voss, the medium
    ("What is Clara Voss?", ["t42"], "name trait moderate"),
    ("Who holds seances?", ["t42"], "none trait heavy"),
    ("What is Clara Voss looking for?", [CLARA_CHILD], "name trait light"),
    ("Who is searching for a lost child?", [CLARA_CHILD], "none trait moderate"),
    ("Who has learned what the ghost is called?", ["t67"], "none trait moderate"),
    ("What does the spiritualist no longer think about the haunting?", ["t66"], "role trait heavy"),
    ("Who stopped believing the haunting is a trick?", ["t66", "t89"], "none trait moderate"),
    ("How did Clara Voss die?", [CLARA_FALLS], "name outcome moderate"),
    ("What became of the spiritualist at the lighthouse?", [CLARA_FALLS], "role outcome scene place heavy"),
    ("What wounds did Clara Voss carry?", ["t65", "t72"], "name wound light"),
    ("Where did the medium sprain an ankle?", [CLARA_MISHAP_HOUSE, "t65"], "role wound scene moderate"),
    ("Who beat the medium in the house?", [CROWE_BEATS_CLARA_HOUSE], "role outcome scene place light"),
    ("Who protected the medium?", [["f147", "f152"]], "role deed light"),
    # Ellery Dunn, the gravedigger
    ("What is Ellery Dunn's trade?", ["t15"], "name trait moderate"),
    ("Who digs the graves?", ["t15"], "none trait heavy"),
    ("Whom is the gravedigger hunting?", ["t17"], "role trait light"),
    ("What kind of person was Ellery Dunn?", [ELLERY_RECKLESS, ELLERY_KIND, ELLERY_SKEPTIC], "name trait moderate"),
    ("Who is made reckless by grief?", [ELLERY_RECKLESS, "t85"], "none trait moderate"),
    ("Who treats newcomers gently?", [ELLERY_KIND, "t86"], "none trait heavy"),
    ("Who stubbornly refuses to believe?", [ELLERY_SKEPTIC, "t87"], "none trait moderate"),
    ("What wound did the gravedigger take?", ["t80"], "role wound light"),
    ("How did Ellery Dunn lose a crucifix?", [ELLERY_FAILS_HOUSE, "t80"], "name wound outcome moderate"),
    ("Whom did the gravedigger kill?", [ELLERY_KILLS_IVY], "role outcome light"),
    ("Who killed the gravedigger?", [MARTHA_KILLS_ELLERY], "role outcome light"),
    ("How did Ellery Dunn die?", [MARTHA_KILLS_ELLERY], "name outcome moderate"),
    ("Who guarded the sexton?", ["f237"], "role deed heavy"),
    ("Where was Ellery Dunn kept away from?", [["f54", "f87", "f119"], "f158"], "name scene moderate"),
    ("What changed the sexton's mind about the hoax?", [ELLERY_KILLS_IVY, "t89"], "role trait outcome heavy"),
    # Rose Tilney, the innkeeper
    ("What does Rose Tilney do?", ["t54"], "name trait moderate"),
    ("Who runs the inn?", ["t54"], "none trait moderate"),
    ("What wound did the innkeeper take?", ["t60"], "role wound light"),
    ("Who hurt Rose Tilney?", [IVY_BEATS_ROSE_ISLAND, "t60"], "name wound outcome moderate"),
    ("Where was Rose Tilney absent?", ["f118", "f157", "f198"], "name scene moderate"),
    # Simon Larch, the lighthouse keeper
    ("Who is the lighthouse keeper?", ["t24"], "role trait light"),
    ("Who tends the light on the island?", ["t24"], "none trait heavy"),
    ("Who accused the ghost hunter during the flashback?", ["f20"], "role deed scene heavy"),
    ("In which scenes was Simon Larch away?", ["f88", "f120", "f159"], "name scene moderate"),
    # Agnes Whitlow, the orphan
    ("Who is the orphan?", ["t35"], "role trait light"),
    ("Who grew up without parents?", ["t35"], "none trait heavy"),
    ("What does Agnes Whitlow want to find out?", [AGNES_CULT], "name trait light"),
    ("Who is prying into the cult's secrets?", [AGNES_CULT], "none trait heavy"),
    ("What did Agnes Whitlow do in the house?", ["f194", "f195", "f196", "f197"], "name deed scene place light"),
    ("What is Agnes Whitlow bound to?", ["t75"], "name trait moderate"),
    # Edith Henley, the grieving mother
    ("Who is the grieving mother?", ["t52"], "role trait light"),
    ("Who is mourning as a mother?", ["t52"], "none trait heavy"),
    ("What has Edith Henley seen?", ["t84"], "name trait moderate"),
    ("Who has laid eyes on what dwells below in the cellar?", ["t84"], "none trait heavy"),
    ("To whom does Edith Henley owe her life?", ["t88"], "name trait light"),
    ("How does the bereaved mother bear up when things go wrong?", ["t82"], "role trait heavy"),
    ("What did the grieving mother do on the fog-bound island?", ["f51", "f52", "f53"],
     "role deed scene place moderate"),
    # Ambrose Lyle, the village priest
    ("What is Ambrose Lyle?", ["t18"], "name trait moderate"),
    ("Who is the parson hereabouts?", ["t18"], "none trait heavy"),
    ("What did the village priest do in the first scene?", ["f7", "f8"], "role deed scene moderate"),
    # Places, by name and by description
    ("What is the fog-bound island like?", ["f9", "f47", "f73", "f117"], "none place light"),
    ("Where are there footsteps with nobody walking?", ["f73"], "none place moderate"),
    ("Where is it uncannily cold?", ["f47"], "none place moderate"),
    ("What hangs in the air inside the family home?", ["f211"], "none placedesc heavy"),
    ("What does the waterlogged basement smell like?", ["f225"], "none placedesc heavy"),
    ("Where did the story begin?", [["f1", "t5"]], "none scene place moderate"),
    ("Where was the last scene set?", ["f232"], "none scene place moderate"),
    ("When was the third scene set?", ["f19"], "none time scene moderate"),
    ("What moment in the past did the story flash back to?", ["f19"], "none time heavy"),
    ("When did the story first reach the lighthouse?", ["f128"], "none scene place light"),
    ("In which scene did the story go down into the flooded cellar?", ["f215"], "none scene place light"),
    # What happened in a scene at a place whose events do not name it
    ("Who died in the house?", [ELLERY_KILLS_IVY, MARTHA_KILLS_ELLERY], "none outcome scene place light"),
    ("Who lost their life at the lighthouse?", [CLARA_FALLS], "none outcome scene place light"),
    ("Who died in the waterlogged basement?", [CROWE_FALLS], "none outcome scene placedesc heavy"),
    ("Who read the drowned girl's diary at the lighthouse?", ["f160"], "none deed scene place light"),
    ("Who pored over the dead girl's journal in the family home?", ["f91", "f195", "f208"],
     "none deed scene placedesc heavy"),
    ("Who dug in the soft ground at the lighthouse?", ["f137", "f166"], "none deed scene place moderate"),
    ("Who dug in the soft ground on the fog-bound island?", ["f7", "f103", ["f39", "f55", "f122"], ["f22", "f83"]],
     "none deed scene place light"),
    ("Who set the music box playing at the beacon tower?", ["f129", "f177"], "none deed scene placedesc heavy"),
    ("Who wound the music box in the cellar?", ["f224"], "none deed scene placedesc moderate"),
    ("Who salted the doorway at the lighthouse?", ["f163", "f178"], "none deed scene place moderate"),
    ("Who lit a candle at the lighthouse?", ["f135", "f176"], "none deed scene place light"),
    ("Who lit candles in the family home?", ["f194", "f207"], "none deed scene placedesc heavy"),
    ("Who eavesdropped at a door in the waterlogged cellar?", ["f229"], "none deed scene placedesc heavy"),
    ("Who listened at doors on the misty isle?", [["f85", "f123"], "f27", "f42", ["f6", "f57", "f106"], "f72"],
     "none deed scene placedesc heavy"),
    ("Who hunted for a secret door in the lighthouse?", ["f132", "f179"], "none deed scene place moderate"),
    ("Who searched the basement for a hidden way out?", ["f223"], "none deed scene placedesc heavy"),
    ("Who was absent from the lighthouse?", ["f157", "f158", "f159", "f175"], "none scene place light"),
    ("Who stayed away from the family home in the eleventh scene?", ["f198"], "none scene placedesc heavy"),
    ("Who was missing from the island in the eighth scene?", ["f118", "f119", "f120", "f121"],
     "none scene placedesc moderate"),
    ("Who came through danger on the fog-bound island without a scratch?", [["f16", "f49"], "f104", "f115"],
     "none outcome scene place moderate"),
    ("Who prayed together at the lighthouse?", ["f141", "f153"], "none deed scene place light"),
    # Wounds and deaths across the game
    ("Who has a sprained ankle?", ["t45", "t65", "t71", "t73"], "none wound light"),
    ("Whose flesh was clawed down to the bone?", ["t38", "t47", "t60", "t72"], "none wound heavy"),
    ("Who bears teeth marks?", ["t63", "t69"], "none wound heavy"),
    ("Who was left badly shaken?", ["t9", "t40", "t62"], "none wound moderate"),
    ("Who has died so far?", [CLARA_FALLS, CROWE_FALLS, ELLERY_KILLS_IVY, MARTHA_KILLS_ELLERY], "none outcome light"),
    ("Who died in the last scene?", [ELLERY_KILLS_IVY, MARTHA_KILLS_ELLERY], "none outcome scene moderate"),
    ("Who won the last fight of the story?", [MARTHA_KILLS_ELLERY], "none outcome scene heavy"),
    ("Who lost the very first fight?", [CROWE_BEATS_FAMILY_ISLAND], "none outcome scene heavy"),
    ("Who perished with no one's hand against them?", [CLARA_FALLS, CROWE_FALLS], "none outcome heavy"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids t1, t2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "t",
                       "eval/memory/probe_game11.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())
