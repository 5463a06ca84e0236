"""A tenth memory probe from a played game, written blind: eval/data/probe_game10.jsonl plus questions.

Why a tenth game: probe_game9 (the western) was the held-out test, and its results have
been read since. This one is a fresh held-out test, a fantasy (probe_game2's and
probe_game4's genre, now told by the heuristic narrator as it stands), another seed and
its own story: questions written without looking at the retrieval code, its results or
any search over these Facts; only by reading the game's Facts and its log (to know who
won which conflict, who was hurt and who died) and asking what a player at the table
would ask. Nobody tunes on it. Note that the heuristic fantasy cast is drawn from the same
stock as probe_game2's and probe_game4's (Seren of the Marsh, Maud Ashby, Lysa Thorne,
Brother Cal, the hedge witch, the steward of the keep, the mercenary captain, the royal
heir, Castle Ravensmoor, the Crooked Lantern tavern, the Whispering Forest, the Meadow
village) and so are the Tenets and the stock deeds; the roles are dealt out differently
(Seren is the exiled knight here, Maud the thief, Lysa the bone-reader, Brother Cal the
wandering priest) and who fights, helps and kills whom is this game's own.

The log was played with (seed 103, fantasy, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=103,
                  premise="A fantasy of a drowned kingdom where a river witch and the exiled prince "
                          "contest the crown",
                  log_path="eval/data/probe_game10.jsonl")

It holds 423 Facts (counted by replaying the log with the probe builder, as build() does).
Seed 101 (the one asked for) gave 267 Facts and seed 102 gave 232, so seed 103 was the
first to reach 300. f41 is missing: the hedge witch's killing of Aldric Vane in scene 4
was challenged ("That death comes too cheap") and withdrawn; he dies for good in scene
11. The premise never took: no Tenet states it, and the drowned kingdom, the river witch
and the exiled prince appear only as stock near-misses (the Drowned Abbey, "the night
the abbey drowned", a hedge witch, an exiled knight, a royal heir). The six Tenets are
the stock fantasy ones (magic costs a memory, iron oaths, tragic love, weak old gods,
every crown cursed, the dead and running water).

What the game holds: six deaths among ten characters. Brother Cal (the wandering priest)
is introduced in scene 4 in the queen's throne room, healed by Aldric Vane, shares his
bread, confesses to him and then falls to a bare Obstacle ("It goes wrong for Brother
Cal"), by no one's hand, a few Events after he appeared. The hedge witch (no name) is at
the centre of the first ten scenes: the witch beats Seren of the Marsh (the exiled
knight) in the Whispering Forest and twice in the throne room, Wenna (the ferryman) in the
forest, the steward of the keep in the Meadow village, Aldric Vane (the court spy) and
Lysa Thorne (the bone-reader) in the throne room and Lysa again at Castle Ravensmoor; the
witch kills the royal heir (no name) in the Whispering Forest (scene 7) a scene after the
two healed, shielded and swore fealty to each other in the Drowned Abbey, and kills Wenna
at Castle Ravensmoor (scene 10), where the steward of the keep then kills the witch.
Aldric Vane beats Lysa and the hedge witch in the Crooked Lantern tavern (scene 5) and
Lysa kills him there in scene 11 (a flashback to "the night the abbey drowned"). The
mercenary captain (no name), introduced in scene 1, does nothing until scene 10; the
captain is beaten by Maud Ashby (the thief, the captain's rival) at the ford at Greywater
and in the Meadow village, where the captain also beats and is beaten by Seren, beats
Maud once, is beaten by the steward, and is killed by Maud (scene 13). The last scenes
are Seren against Lysa: Seren wins once at the ford, Lysa at the ford, in the village and
in the last clash at Castle Ravensmoor (scene 14), where Seren also beats Maud.

Narration that reads badly (bug reports for the heuristic narrator): "buries something
by the ford" is done in the throne room, the tavern, the castle and the village, not
only at the ford; "in the ford at Greywater" (in, not at: "heals Lysa Thorne in the ford
at Greywater", "In the ford at Greywater, too, ..."). Obstacles ("Something stands in
Seren of the Marsh's way", "Lysa Thorne is not the only one with plans here") are
resolved as a win over some other character present ("Seren of the Marsh wins this round
against Lysa Thorne", "The hedge witch prevails over Aldric Vane"), and a loser's line
goes to a bystander: "Aldric Vane comes off worst this time" after Brother Cal's
Obstacle, Aldric's broken arm after the steward kills the hedge witch, "Lysa Thorne gets
away, bruised but alive" right after the mercenary captain's death. "This time, nothing
stands in the way" closes a conflict the hedge witch had just won. Passive oddities as
before: "The hedge witch does not get what was wanted here". Repetition: in scene 5 Aldric
Vane confesses to the royal heir five times and shares bread with them four times; in
scene 6 the hedge witch and the royal heir heal, shield, warn and feed each other a dozen
times right after their duel; f66 and f67 are the same protection told twice. Allegiances
make little sense: the hedge witch swears fealty to the heir and then kills the heir; Seren swears
fealty to the hedge witch after losing to the witch three times; the mercenary captain and Lysa
swear fealty to each other in the same breath, and the captain swears fealty to Maud
just before Maud beats the captain. The ford at Greywater gets six place details at once in scene 12 (fog,
wolves, crumbling walls, whispers, midnight bells, witch-fire) and the Meadow village five
in scene 13, mostly the same ones the throne room got in scene 8 (crumbling walls at a
river ford). A player tries to bring the steward of the keep into scene 8 after the
steward was declared absent (challenged and conceded). Aldric Vane's death comes in a
flashback scene after the scenes set later in time.

How the questions were written, as for probe_game9: characters are asked about by name
and, about as often, only by their role or description ("the exiled knight", "the
banished knight", "the bone-reader", "the court spy", "the spy", "the thief", "the
burglar", "the ferryman", "the boatman", "the wandering priest", "the roving holy man";
the hedge witch, the royal heir, the steward of the keep and the mercenary captain have
no other name, and are also asked as "the witch", "the heir to the throne", "the castle
steward", "the sellsword captain"). Places are asked about by name and by description
("the woods", "the hamlet", "the royal hall", "the inn", "the alehouse", "the sunken
abbey", "the flooded abbey", "the river crossing", "the castle"), and so is what happened
in a scene at a place whose events do not name it (who died at Castle Ravensmoor, who
prayed in the Meadow village). Some are worded close to the Facts, some moderately, some
heavily (about a third each). `relevant` lists what a full answer needs; an inner list is
a group of Facts saying the same thing (a Trait restated in events, the same deed done
twice, a defeat told once from each side), any one of which counts as that item recalled;
each group was completed by grepping the whole Fact list for every wording of it.
Questions whose true answer would be more than six items were made more specific. Tags
use probe_game2's vocabulary. All questions are asked at the end of the game (scene 14).

    python -m eval.memory.probe_game10    # replay the log, rewrite eval/data/memory_probe_game10.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game10.jsonl"
OUT = DATA / "memory_probe_game10.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

# Tenets restated later as a detail of a place
TENET_IRON = ["T2", "f57", "f262", "f307"]
TENET_LOVE = ["T3", "f80"]
TENET_GODS = ["T4", "f134", "f242"]
TENET_CROWN = ["T5", "f177", "f286"]
TENET_DEAD = ["T6", "f129"]
# Traits restated in events ("The hedge witch, proud as a prince, ...", "..., determined to ...")
HW_ORDER = ["t4", "f4", "f25", "f104", "f137", "f152", "f169", "f183", "f204"]
HW_RING = ["t2", "f47", "f65", "f105", "f131", "f136", "f195"]
ALDRIC_RING = ["t39", "f33", "f91", "f99", "f161", "f162", "f163"]
MAUD_RING = ["t90", "f289", "f303"]
HW_PRINCE = ["t15", "f8", "f61", "f74", "f184"]
LYSA_PRINCE = ["t54", "f187", "f253", "f295"]
HW_BELOVED = ["t17", "f10", "f133", "f158"]
SEREN_BELOVED = ["t34", "f58", "f66", "f67", "f115"]
HEIR_BELOVED = ["t61", "f94", "f97", "f123", "f132", "f141", "f145"]
LYSA_HUNTED = ["t50", "f55", "f174", "f175", "f304", "f305"]
SEREN_HUNTED = ["t66", "f154", "f222"]
WENNA_HUNTED = ["t72"]
ALDRIC_BIRTHMARK = ["t56", "f90", "f100", "f194"]
MERC_BIRTHMARK = ["t75", "f213", "f255", "f277", "f278", "f280", "f298"]
HW_TONGUE = ["t20", "f148"]
STEWARD_TONGUE = ["t81", "f292"]
MAUD_TONGUE = ["t89", "f283"]
SEREN_SECRET = ["t14", "f26", "f59", "f116", "f153", "f155", "f243", "f247", "f274"]
WENNA_SECRET = ["t65"]
SEREN_BROTHER = ["t12", "f52", "f67", "f114", "f157", "f225", "f241", "f269", "f313"]
ALDRIC_SPURS = ["t44", "f85", "f96", "f107", "f224", "f237"]
HEIR_THRONE = ["t30", "f94", "f132", "f140"]
HEIR_VENGEANCE = ["t32", "f95", "f142"]
WENNA_MEMORY = ["t9", "f112", "f171", "f206"]
WENNA_RIVER = ["t71", "f188"]
MAUD_SWORD = ["t88", "f234", "f235"]
# Relationships told from both sides
CAL_PROTECTS_ALDRIC = ["t40", "t41"]
SIBLINGS = ["t59", "t60"]
RIVALS = ["t94", "t95"]
# The same deed done more than once
SEREN_GUARDS_HW = ["f66", "f67", "f153", "f154"]
SEREN_FEEDS_HW = ["f17", "f65", "f152", "f156"]
HEIR_FEEDS_HW = ["f135", "f137", "f142"]
HEIR_HEALS_HW = ["f140", "f145"]
HW_HEALS_HEIR = ["f138", "f139"]
HW_SWEARS_HEIR = ["f25", "f131"]
HW_WARNS_HEIR = ["f130", "f136"]
HW_CONFESSES_SEREN = ["f61", "f68", "f74"]
ALDRIC_SWEARS_HEIR = ["f84", "f96"]
ALDRIC_SWEARS_HW = ["f106", "f194"]
ALDRIC_CONFESSES_HEIR = ["f85", "f86", "f90", "f92", "f99"]
ALDRIC_FEEDS_HEIR = ["f93", "f94", "f95", "f100"]
SEREN_HEALS_LYSA = ["f226", "f243"]
SEREN_CONFESSES_LYSA = ["f244", "f313"]
LYSA_WARNS_MERC = ["f295", "f297"]
# Deaths told once from each side (the winner's line and the loser's)
CAL_FALLS = ["f36", "f37"]
HW_KILLS_HEIR = ["f149", "f150"]
HW_KILLS_WENNA = ["f209", "f210"]
STEWARD_KILLS_HW = ["f217", "f218"]
LYSA_KILLS_ALDRIC = ["f238", "f239"]
MAUD_KILLS_MERC = ["f300", "f301"]
# Defeats told from each side (the same pair's defeats in one place grouped)
HW_BEATS_SEREN_FOREST = ["f5", "f6"]
HW_BEATS_WENNA_FOREST = ["f9", "f12"]
HW_BEATS_STEWARD_VILLAGE = ["f20", "f21", "f23"]
HW_BEATS_SEREN_THRONE = ["f27", "f28", "f30", "f31"]
HW_BEATS_ALDRIC_THRONE = ["f40", "f69", "f70"]
HW_BEATS_LYSA_THRONE = ["f44", "f45", "f62", "f63", "f181", "f182"]
HW_STUMBLES_THRONE = ["f49", "f50"]
SEREN_BEATS_LYSA_THRONE = ["f53"]
ALDRIC_BEATS_LYSA_TAVERN = ["f88", "f89"]
ALDRIC_BEATS_HW_TAVERN = ["f101", "f102"]
HEIR_BEATS_HW_ABBEY = ["f125", "f126"]
HEIR_BEATS_HW_FOREST = ["f146", "f147"]
WENNA_BEATS_HW_THRONE = ["f190", "f191"]
HW_BEATS_LYSA_CASTLE = ["f198", "f199", "f201", "f202"]
SEREN_BEATS_LYSA_FORD = ["f245", "f246"]
LYSA_BEATS_SEREN_FORD = ["f248", "f249"]
MAUD_BEATS_MERC_FORD = ["f260", "f261"]
SEREN_BEATS_MERC_VILLAGE = ["f272", "f273"]
MERC_BEATS_SEREN_VILLAGE = ["f275", "f276"]
MERC_BEATS_MAUD_VILLAGE = ["f284", "f285"]
MAUD_BEATS_MERC_VILLAGE = ["f290"]
STEWARD_BEATS_MERC_VILLAGE = ["f293", "f294"]
LYSA_BEATS_SEREN_VILLAGE = ["f310", "f311"]
SEREN_BEATS_MAUD_CASTLE = ["f315", "f316"]
LYSA_BEATS_SEREN_CASTLE = ["f318", "f319"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (some restated later as a place detail: either counts)
    ("Does every spell cost the caster a memory?", ["T1"], "none tenet light"),
    ("What does working sorcery take away from whoever works it?", ["T1"], "none tenet heavy"),
    ("Can an oath sworn on iron ever be broken?", [TENET_IRON], "none tenet light"),
    ("Is a promise made over cold metal ever undone?", [TENET_IRON], "none tenet heavy"),
    ("How do true love affairs end?", [TENET_LOVE], "none tenet light"),
    ("Can sweethearts in this realm hope for a happy ending?", [TENET_LOVE], "none tenet heavy"),
    ("Are the old gods awake?", [TENET_GODS], "none tenet light"),
    ("How much power do the ancient deities still have?", [TENET_GODS], "none tenet heavy"),
    ("Which crowns of the realm carry a curse?", [TENET_CROWN], "none tenet moderate"),
    ("Can the dead cross running water?", [TENET_DEAD], "none tenet light"),
    ("What keeps a ghost from following you over a stream?", [TENET_DEAD], "none tenet heavy"),
    ("Where are iron oaths said to be unbreakable as well?", ["f57", "f262", "f307"], "none place tenet moderate"),
    ("Where are the old gods awake but weak, too?", ["f134", "f242"], "none place tenet light"),
    ("In which places is every crown said to be cursed?", ["f177", "f286"], "none place tenet moderate"),
    ("Where must love affairs end in tragedy, too?", ["f80"], "none place tenet moderate"),
    ("In which place can the dead not cross running water either?", ["f129"], "none place tenet light"),
    # The hedge witch (no other name)
    ("What does the hedge witch want done to the Order?", [HW_ORDER], "role trait light"),
    ("Who wants to see the Order wiped out?", [HW_ORDER], "none trait moderate"),
    ("Whose ring does the hedge witch carry?", [HW_RING], "role trait moderate"),
    ("Who wears a dead man's ring?", [HW_RING, ALDRIC_RING, MAUD_RING], "none trait light"),
    ("What ground can the witch never set foot on?", ["t3"], "role trait heavy"),
    ("Who is barred from holy ground?", ["t3", "t58"], "none trait moderate"),
    ("Who is as proud as a prince?", [HW_PRINCE, LYSA_PRINCE], "none trait light"),
    ("Who is loved by the common people?", [HW_BELOVED, SEREN_BELOVED, HEIR_BELOVED], "none trait moderate"),
    ("Can the hedge witch turn away someone who begs for help?", ["t19"], "role trait moderate"),
    ("Who has a silver tongue?", [HW_TONGUE, STEWARD_TONGUE, MAUD_TONGUE], "none trait heavy"),
    ("Whose face has the witch studied at close quarters?", ["t18"], "role trait heavy"),
    ("Who has looked the witch in the eye from arm's length?", ["t49", "t55", "t77"], "role trait heavy"),
    ("Who knows what the hedge witch can do?", ["t26", "t51", "t68", "t73"], "role trait moderate"),
    ("What wounds did the hedge witch suffer before dying?", ["t52", "t63", "t67"], "role wound light"),
    ("How did the witch come by a cursed wound?", [ALDRIC_BEATS_HW_TAVERN, "t63"], "role wound outcome heavy"),
    ("What did the hedge witch lose when things went wrong in the queen's throne room?",
     [HW_STUMBLES_THRONE, "t52"], "role wound outcome scene place moderate"),
    ("Who killed the hedge witch?", [STEWARD_KILLS_HW], "role outcome light"),
    ("In which place did the hedge witch die?", [STEWARD_KILLS_HW], "role outcome scene moderate"),
    ("Whom did the hedge witch kill?", [HW_KILLS_HEIR, HW_KILLS_WENNA], "role outcome light"),
    ("Whom did the hedge witch put a curse on in the opening scene?", ["f4"], "role deed scene moderate"),
    ("Who won when the hedge witch cursed Seren of the Marsh?", [HW_BEATS_SEREN_FOREST], "name outcome moderate"),
    ("Against whom did the hedge witch turn the villagers?", ["f8"], "role deed light"),
    ("Whom did the hedge witch swear loyalty to?", [HW_SWEARS_HEIR, "f180"], "role deed moderate"),
    ("Who pledged allegiance to the witch?", ["f72", ALDRIC_SWEARS_HW], "role deed heavy"),
    ("Who stood guard over the hedge witch?", [SEREN_GUARDS_HW, "f141", "f193"], "role deed moderate"),
    ("Who tended the hedge witch's wounds?", [HEIR_HEALS_HW, "f157"], "role deed moderate"),
    ("Whose hurts did the witch mend?", ["f104", HW_HEALS_HEIR], "role deed heavy"),
    ("Whom did the hedge witch protect in the Drowned Abbey?", ["f105", "f108", "f133"], "role deed scene place light"),
    ("To whom did the witch pour out secrets?", [HW_CONFESSES_SEREN], "role deed heavy"),
    ("Whom did the hedge witch warn?", [HW_WARNS_HEIR, "f195"], "role deed light"),
    ("Who broke bread with the hedge witch?", [SEREN_FEEDS_HW, HEIR_FEEDS_HW], "role deed moderate"),
    ("Who set a snare for the witch?", ["f19", "f208"], "role deed heavy"),
    ("Who ambushed the hedge witch?", ["f26", "f197"], "role deed light"),
    ("Who forced the witch to yield at the inn?", [ALDRIC_BEATS_HW_TAVERN], "role outcome scene placedesc heavy"),
    ("Who made the witch give way in the royal hall, two scenes before the witch died?", [WENNA_BEATS_HW_THRONE],
     "role outcome scene placedesc heavy"),
    # The royal heir (no other name)
    ("What does the royal heir want?", [HEIR_THRONE], "role trait light"),
    ("Who hopes to win back the throne?", [HEIR_THRONE], "none trait moderate"),
    ("What kind of oath binds the royal heir?", ["t31"], "role trait moderate"),
    ("Who is sworn to vengeance?", [HEIR_VENGEANCE], "none trait light"),
    ("Who has vowed to settle a score, and with whom?", ["t53", "t69", "t79"], "none trait moderate"),
    ("Who is Aldric Vane's sibling?", [SIBLINGS], "name trait light"),
    ("To whom is the heir to the throne related by blood?", [SIBLINGS], "role trait heavy"),
    ("How did the royal heir die?", [HW_KILLS_HEIR], "role outcome moderate"),
    ("Who slew the heir to the throne in the woods?", [HW_KILLS_HEIR], "role outcome scene placedesc heavy"),
    ("Whom did the royal heir defeat in the Drowned Abbey?", [HEIR_BEATS_HW_ABBEY], "role outcome scene place light"),
    ("Whom did the heir drive off in the Whispering Forest?", [HEIR_BEATS_HW_FOREST],
     "role outcome scene place moderate"),
    ("Whom did the royal heir duel?", ["f124"], "role deed light"),
    ("Who kept sharing meals with the royal heir at the alehouse?", [ALDRIC_FEEDS_HEIR],
     "role deed scene placedesc heavy"),
    ("Who confessed to the royal heir at the Crooked Lantern?", [ALDRIC_CONFESSES_HEIR], "role deed scene place light"),
    ("Who swore fealty to the royal heir?", [ALDRIC_SWEARS_HEIR, HW_SWEARS_HEIR], "role deed light"),
    ("Who shielded the heir?", ["f98", "f133"], "role deed moderate"),
    ("What did the royal heir get up to in the flooded abbey before the duel?", ["f120", "f121", "f122", "f123"],
     "role deed scene placedesc heavy"),
    # Wenna, the ferryman
    ("What does Wenna do for a living?", ["t6"], "name trait moderate"),
    ("Who carries people across the river?", ["t6"], "none trait heavy"),
    ("What is Wenna searching for?", [WENNA_MEMORY], "name trait light"),
    ("Who is hunting the witch who stole her memories?", [WENNA_MEMORY], "none trait moderate"),
    ("What can Wenna remember from before the river?", [WENNA_RIVER], "name trait moderate"),
    ("Who has no memory of life before the river?", [WENNA_RIVER], "none trait moderate"),
    ("How did Wenna die?", [HW_KILLS_WENNA], "name outcome moderate"),
    ("Who killed the ferryman at Castle Ravensmoor?", [HW_KILLS_WENNA], "role outcome scene place light"),
    ("How did the boatman get a deep gash in the woods?", [HW_BEATS_WENNA_FOREST, "t16"],
     "role wound outcome scene placedesc heavy"),
    ("Whom did Wenna get the better of in the queen's throne room?", [WENNA_BEATS_HW_THRONE],
     "name outcome scene place light"),
    ("Whom did Wenna heal in the queen's throne room?", ["f188"], "name deed scene place light"),
    ("Whom did the boatman caution?", ["f189"], "role deed heavy"),
    ("Who shared a loaf with the boatman?", ["f187"], "role deed heavy"),
    ("Who turned the villagers against Wenna?", ["f8"], "name deed light"),
    # Seren of the Marsh, the exiled knight
    ("What is Seren of the Marsh?", ["t10"], "name trait moderate"),
    ("Which knight was banished?", ["t10"], "none trait heavy"),
    ("What does Seren of the Marsh want to do for a brother?", [SEREN_BROTHER], "name trait light"),
    ("Who wants to lay a sibling to rest with due rites?", [SEREN_BROTHER], "none trait heavy"),
    ("Who carries a secret name?", [SEREN_SECRET, WENNA_SECRET], "none trait light"),
    ("Who goes by a name they keep hidden?", [SEREN_SECRET, WENNA_SECRET], "none trait heavy"),
    ("Who is after Seren of the Marsh?", [SEREN_HUNTED], "name trait moderate"),
    ("Whom is the Order hunting?", [LYSA_HUNTED, SEREN_HUNTED, WENNA_HUNTED], "none trait moderate"),
    ("Whom has Seren of the Marsh sworn to settle things with?", ["t53"], "name trait light"),
    ("What wounds has Seren of the Marsh taken?", ["t13", "t33", "t93"], "name wound light"),
    ("Who snapped the exiled knight's arm?", [HW_BEATS_SEREN_THRONE, "t33"], "role wound outcome heavy"),
    ("How did the banished knight lose a memory?", [LYSA_BEATS_SEREN_FORD, "t93"], "role wound outcome heavy"),
    ("Who left Seren of the Marsh fevered in the first scene?", [HW_BEATS_SEREN_FOREST, "t13"],
     "name wound outcome scene moderate"),
    ("Whom did Seren of the Marsh beat in the queen's throne room?", [SEREN_BEATS_LYSA_THRONE],
     "name outcome scene place light"),
    ("Whom did the exiled knight defeat at Castle Ravensmoor?", [SEREN_BEATS_MAUD_CASTLE],
     "role outcome scene place moderate"),
    ("Who bested Seren of the Marsh in the last scene?", [LYSA_BEATS_SEREN_CASTLE], "name outcome scene moderate"),
    ("Who got the better of Seren of the Marsh at the ford at Greywater?", [LYSA_BEATS_SEREN_FORD],
     "name outcome scene place light"),
    ("Whom did Seren of the Marsh force to give way at the river crossing?", [SEREN_BEATS_LYSA_FORD],
     "name outcome scene placedesc moderate"),
    ("Who won the fights between the knight and the sellsword captain in the hamlet?",
     [SEREN_BEATS_MERC_VILLAGE, MERC_BEATS_SEREN_VILLAGE], "role outcome scene placedesc heavy"),
    ("Whom did Seren of the Marsh swear fealty to?", ["f72"], "name deed light"),
    ("Whom did Seren of the Marsh heal?", ["f157", "f225", SEREN_HEALS_LYSA, "f269"], "name deed light"),
    ("Whom did the exiled knight guard?", [SEREN_GUARDS_HW, "f222", "f317"], "role deed moderate"),
    ("To whom did Seren of the Marsh open up?", ["f155", SEREN_CONFESSES_LYSA], "name deed moderate"),
    ("Who healed the exiled knight at Castle Ravensmoor?", ["f314"], "role deed scene place light"),
    ("Who broke bread with the exiled knight in the hamlet?", ["f17", "f271"], "role deed scene placedesc heavy"),
    ("Whom did Seren of the Marsh warn at the ford?", ["f241"], "name deed scene place light"),
    ("What did Lysa Thorne tell Seren of the Marsh at the ford at Greywater?", ["f251"],
     "name dialog scene place light"),
    # The steward of the keep (no other name)
    ("Whom did the steward of the keep kill?", [STEWARD_KILLS_HW], "role outcome light"),
    ("What does the castle steward dread?", ["t27"], "role trait heavy"),
    ("Who is afraid of deep water?", ["t27"], "none trait moderate"),
    ("Whom will the steward of the keep never trust again?", ["t80"], "role trait light"),
    ("Who owes the steward a life?", ["t43", "t85"], "role trait light"),
    ("Who is in the castle steward's debt for being saved?", ["t43", "t85"], "role trait heavy"),
    ("Where was the steward of the keep absent from?", ["f127", "f179", "f258"], "role scene moderate"),
    ("Who laid a trap in the Meadow village, and how did it go?", ["f19", HW_BEATS_STEWARD_VILLAGE],
     "none deed outcome scene place moderate"),
    ("How did the steward catch a fever?", [HW_BEATS_STEWARD_VILLAGE, "t25"], "role wound outcome moderate"),
    ("Whom did the castle steward overcome in the hamlet near the end?", [STEWARD_BEATS_MERC_VILLAGE],
     "role outcome scene placedesc heavy"),
    # Aldric Vane, the court spy
    ("What is Aldric Vane's trade?", ["t35"], "name trait moderate"),
    ("Who carries tales to the royal court in secret?", ["t35"], "none trait heavy"),
    ("What does Aldric Vane hope to earn?", [ALDRIC_SPURS], "name trait light"),
    ("Who longs to be made a knight?", [ALDRIC_SPURS], "none trait heavy"),
    ("Who bears a royal birthmark?", [ALDRIC_BIRTHMARK, MERC_BIRTHMARK], "none trait light"),
    ("Who has a mark on the skin hinting at royal blood?", [ALDRIC_BIRTHMARK, MERC_BIRTHMARK], "none trait heavy"),
    ("Who was sworn to protect Aldric Vane?", [CAL_PROTECTS_ALDRIC], "name trait light"),
    ("Whom was the wandering priest bound to keep safe?", [CAL_PROTECTS_ALDRIC], "role trait moderate"),
    ("How did Aldric Vane die?", [LYSA_KILLS_ALDRIC], "name outcome moderate"),
    ("Who killed the court spy at the alehouse?", [LYSA_KILLS_ALDRIC], "role outcome scene placedesc heavy"),
    ("What wounds had Aldric Vane taken?", ["t45", "t78", "t91"], "name wound light"),
    ("Who gave Aldric Vane a cursed wound?", [LYSA_KILLS_ALDRIC, "t91"], "name wound outcome moderate"),
    ("Whom did Aldric Vane beat at the Crooked Lantern tavern?", [ALDRIC_BEATS_LYSA_TAVERN, ALDRIC_BEATS_HW_TAVERN],
     "name outcome scene place light"),
    ("Who beat Aldric Vane in the queen's throne room?", [HW_BEATS_ALDRIC_THRONE], "name outcome scene place light"),
    ("Whom did the spy heal?", ["f33", "f91", "f224"], "role deed moderate"),
    ("Who nursed Aldric Vane back to health?", ["f104", "f109", "f225"], "name deed moderate"),
    ("To whom did Aldric Vane pledge himself?", [ALDRIC_SWEARS_HEIR, ALDRIC_SWEARS_HW], "name deed moderate"),
    ("Whom did the court spy chase through the inn?", ["f237"], "role deed scene placedesc heavy"),
    ("With whom did Aldric Vane share bread in the queen's throne room?", ["f34"], "name deed scene place light"),
    ("Who ambushed Aldric Vane?", ["f87"], "name deed light"),
    # Brother Cal, the wandering priest
    ("What was Brother Cal?", ["t37"], "name trait moderate"),
    ("Who was the travelling holy man?", ["t37"], "none trait heavy"),
    ("What did Brother Cal hope to break?", ["t42"], "name trait light"),
    ("Who wanted to lift the curse on the crown?", ["t42"], "none trait moderate"),
    ("How did Brother Cal die?", [CAL_FALLS], "name outcome moderate"),
    ("What became of the roving priest in the queen's throne room?", [CAL_FALLS], "role outcome scene place heavy"),
    ("To whom did the wandering priest confess?", ["f35"], "role deed moderate"),
    ("Who mended the roving cleric's hurts?", ["f33"], "role deed heavy"),
    # Maud Ashby, the thief
    ("What does Maud Ashby do?", ["t21"], "name trait moderate"),
    ("Who makes a living by stealing?", ["t21"], "none trait heavy"),
    ("Who is a master swordsman?", [MAUD_SWORD], "none trait light"),
    ("Is the burglar any good with a blade?", [MAUD_SWORD], "role trait heavy"),
    ("Whose rival is Maud Ashby?", [RIVALS], "name trait light"),
    ("Who is the sellsword captain's rival?", [RIVALS], "role trait heavy"),
    ("Whom will Maud Ashby not trust again?", ["t97"], "name trait light"),
    ("Whom did Maud Ashby kill?", [MAUD_KILLS_MERC], "name outcome light"),
    ("Who beat the thief at Castle Ravensmoor in the final scene?", [SEREN_BEATS_MAUD_CASTLE],
     "role outcome scene place moderate"),
    ("What wounds does Maud Ashby carry?", ["t98", "t99"], "name wound light"),
    ("How did the burglar come by a cursed wound?", [MERC_BEATS_MAUD_VILLAGE, "t98"], "role wound outcome heavy"),
    ("Whom did Maud Ashby duel in the Meadow village?", ["f283"], "name deed scene place light"),
    ("Whose injuries did Maud Ashby see to?", ["f314"], "name deed heavy"),
    ("Who swore fealty to the thief?", ["f259"], "role deed moderate"),
    # Lysa Thorne, the bone-reader
    ("What is Lysa Thorne's craft?", ["t46"], "name trait moderate"),
    ("Who tells fortunes by casting bones?", ["t46"], "none trait heavy"),
    ("Who is on Lysa Thorne's trail?", [LYSA_HUNTED], "name trait heavy"),
    ("What wounds has the bone-reader suffered?", ["t48", "t62", "t70"], "role wound light"),
    ("How did Lysa Thorne lose a memory?", [ALDRIC_BEATS_LYSA_TAVERN, "t62"], "name wound outcome moderate"),
    ("Whom did Lysa Thorne kill?", [LYSA_KILLS_ALDRIC], "name outcome light"),
    ("Who kept beating the bone-reader in the royal hall?", [HW_BEATS_LYSA_THRONE],
     "role outcome scene placedesc heavy"),
    ("Who defeated Lysa Thorne at Castle Ravensmoor?", [HW_BEATS_LYSA_CASTLE], "name outcome scene place light"),
    ("Whom did Lysa Thorne beat in the Meadow village?", [LYSA_BEATS_SEREN_VILLAGE], "name outcome scene place light"),
    ("Who healed the bone-reader?", ["f188", "f224", SEREN_HEALS_LYSA, "f299"], "role deed light"),
    ("Who kept Lysa Thorne from harm?", ["f108", "f298", "f317"], "name deed heavy"),
    ("Who pledged loyalty to the bone-reader?", ["f180", "f278"], "role deed moderate"),
    ("To whom did Lysa Thorne bend the knee?", ["f279"], "name deed heavy"),
    ("Whom did the bone-reader caution in the hamlet?", [LYSA_WARNS_MERC], "role deed scene placedesc heavy"),
    ("Who confessed to Lysa Thorne?", [SEREN_CONFESSES_LYSA, "f280"], "name deed moderate"),
    # The mercenary captain (no other name)
    ("Who killed the mercenary captain?", [MAUD_KILLS_MERC], "role outcome light"),
    ("Where did the sellsword captain die?", [MAUD_KILLS_MERC], "role outcome scene heavy"),
    ("What wounds did the mercenary captain take?", ["t76", "t83", "t96"], "role wound light"),
    ("Who broke the mercenary captain's arm at the ford at Greywater?", [MAUD_BEATS_MERC_FORD, "t96"],
     "role wound outcome scene place moderate"),
    ("What does the mercenary captain know about the witch?", ["t84"], "role trait moderate"),
    ("Who knows the witch's true name?", ["t84"], "none trait light"),
    ("Who has lost faith in the Order?", ["t86"], "none trait moderate"),
    ("Who has beheld the countenance of an ancient deity?", ["t87"], "none trait heavy"),
    ("Whom did the mercenary captain beat in the Meadow village?", [MERC_BEATS_SEREN_VILLAGE, MERC_BEATS_MAUD_VILLAGE],
     "role outcome scene place light"),
    ("Who tended the leader of the hired swords?", ["f269"], "role deed heavy"),
    ("What did the mercenary captain do for Lysa Thorne?", ["f298", "f299"], "name deed moderate"),
    ("To whom did the mercenary captain pledge fealty?", ["f259", "f278"], "role deed light"),
    # Places, by name and by description
    ("Which places are guarded by wolves?", ["f64", "f73", "f264", "f282"], "none place light"),
    ("Where does witch-fire give the light?", ["f76", "f128", "f185", "f268"], "none place moderate"),
    ("Where are the walls falling to pieces?", ["f176", "t82", "f265", "f308"], "none place moderate"),
    ("Which places are shrouded in mist?", ["f178", "f263", "f306"], "none place heavy"),
    ("Where do bells toll at midnight?", ["f60", "f267"], "none place moderate"),
    ("Where do murmuring voices fill the air?", ["f83", "f186", "f266", "f296"], "none place heavy"),
    ("What is the Crooked Lantern tavern like?", ["f73", "f76", "f80", "f83", "t82"], "none place light"),
    ("What lights and sounds fill the queen's throne room?", ["f60", "f185", "f186"], "none place moderate"),
    ("What does the river crossing look like?", ["f263", "f264", "f265", "f268"], "none placedesc heavy"),
    ("What sounds are heard at the ford at Greywater?", ["f266", "f267"], "none place moderate"),
    ("What lights the sunken abbey?", ["f128"], "none placedesc heavy"),
    ("What keeps watch over the hamlet?", ["f282"], "none placedesc heavy"),
    ("Where did the story begin?", [["f1", "t5"]], "none scene place moderate"),
    ("Where did the final scene take place?", ["f312"], "none scene place moderate"),
    ("When was the second scene at the Crooked Lantern tavern set?", ["f221"], "none time scene place moderate"),
    ("What night in the past did the story flash back to?", ["f221"], "none time heavy"),
    # What happened in a scene at a place whose events do not name it
    ("Who died at Castle Ravensmoor?", [HW_KILLS_WENNA, STEWARD_KILLS_HW], "none outcome scene place light"),
    ("Who died in the Meadow village?", [MAUD_KILLS_MERC], "none outcome scene place light"),
    ("Who lost their life in the woods?", [HW_KILLS_HEIR], "none outcome scene placedesc heavy"),
    ("Who was slain at the Crooked Lantern?", [LYSA_KILLS_ALDRIC], "none outcome scene place moderate"),
    ("Who perished in the royal hall?", [CAL_FALLS], "none outcome scene placedesc heavy"),
    ("Who buried something in the queen's throne room?", ["f39", ["f54", "f174"], "f58", "f161"],
     "none deed scene place light"),
    ("Who buried something in the Whispering Forest?", ["f14"], "none deed scene place light"),
    ("Who hid the letter at the Crooked Lantern tavern?", ["f77", "f232"], "none deed scene place light"),
    ("Who hid a letter at the river crossing?", ["f255"], "none deed scene placedesc heavy"),
    ("Who hid a letter in the flooded abbey?", ["f112", "f121"], "none deed scene placedesc heavy"),
    ("Who studied the old map in the Drowned Abbey?", ["f116"], "none deed scene place light"),
    ("Who pored over the chart at the ford at Greywater?", ["f254"], "none deed scene place moderate"),
    ("Who put an edge on a weapon at Castle Ravensmoor?", ["f196", "f215"], "none deed scene place heavy"),
    ("Who honed a sword by the fire at the river crossing?", ["f247", "f257"], "none deed scene placedesc heavy"),
    ("Who prayed in the Meadow village?", ["f18", "f274", "f287", "f305"], "none deed scene place light"),
    ("Who murmured prayers in the flooded abbey?", ["f117", "f122"], "none deed scene placedesc heavy"),
    ("Who sought portents in the Meadow village?", ["f277", "f309"], "none deed scene place moderate"),
    ("Who looked for signs and portents at the castle?", ["f207"], "none deed scene placedesc heavy"),
    ("Who rode out by night from the inn?", ["f235"], "none deed scene placedesc heavy"),
    ("Who set off riding by night from the queen's throne room?", [["f46", "f184"], "f59", "f163"],
     "none deed scene place moderate"),
    ("Who came through the trouble in the Drowned Abbey unharmed?", ["f111", "f118"],
     "none outcome scene place moderate"),
    ("Who escaped harm at the Crooked Lantern tavern?", ["f75", "f78", "f227"], "none outcome scene place moderate"),
    ("Who was absent from the Drowned Abbey?", ["f127"], "none scene place light"),
    ("Who was away from the royal hall the night the ferryman tended the bone-reader?", ["f179"],
     "none scene placedesc heavy"),
    ("Who was not at the ford at Greywater?", ["f258"], "none scene place light"),
    ("Who shared bread at the Crooked Lantern tavern in the flashback?", ["f223"], "none deed scene place moderate"),
    # Wounds and deaths across the game
    ("Who has a broken arm?", ["t33", "t78", "t96"], "none wound light"),
    ("Who caught a fever in the queen's throne room?", ["t45", "t48"], "none wound scene place moderate"),
    ("Whose injuries carry a hex?", ["t63", "t70", "t91", "t98"], "none wound heavy"),
    ("Whose memories were torn away in a fight?", ["t52", "t62", "t93"], "none wound heavy"),
    ("Who has a deep cut?", ["t16", "t83"], "none wound moderate"),
    ("Who has died so far?", [CAL_FALLS, HW_KILLS_HEIR, HW_KILLS_WENNA, STEWARD_KILLS_HW, LYSA_KILLS_ALDRIC,
                              MAUD_KILLS_MERC], "none outcome light"),
    ("Who died in the first half of the story?", [CAL_FALLS, HW_KILLS_HEIR], "none outcome moderate"),
    ("Who won the last fight of the story?", [LYSA_BEATS_SEREN_CASTLE], "none outcome scene heavy"),
    ("Who lost the very first fight?", [HW_BEATS_SEREN_FOREST], "none outcome scene heavy"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids u1, u2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "u",
                       "eval/memory/probe_game10.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())
