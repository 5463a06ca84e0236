"""A ninth memory probe from a played game, written blind: eval/data/probe_game9.jsonl plus questions.

Why a ninth game: probe_game8 (the noir) was the held-out test, and its results have
been read since. This one is a fresh held-out test, a western (probe_game5's genre,
now told by the heuristic narrator as it stands), another seed and its own cast:
questions written without looking at the retrieval code, its results or any search
over these Facts; only by reading the game's Facts and its log (to know who won which
conflict, who was hurt and who died) and asking what a player at the table would ask.
Nobody tunes on it.

The log was played with (seed 93, western, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=93,
                  premise="A western about a silver-mine town where the sheriff and the mine owner "
                          "are at war",
                  log_path="eval/data/probe_game9.jsonl")

It holds 300 Facts. Seed 91 (the one asked for) gave 262 Facts and seed 92 gave 271,
so seed 93 was the first to reach 300 (exactly; f93 and f121 are missing because
two deaths were challenged and withdrawn: Billy Coyle's in scene 8 and the railroad
agent's in scene 10). The premise's silver mine, sheriff and mine owner never appear
(only "knows who shot the sheriff" as a Trait): the Tenets and cast are the stock
western ones (the railroad owns the law, water rights worth more than gold, a debt
paid in lead by sundown), and a dozen stock deeds ("buries the strongbox", "waits for
the noon train", "counts the cattle", "reads the wanted poster", "studies the survey
map", "saddles up before dawn") are done by everyone in every scene, some where they
hardly fit (cattle counted and a strongbox buried in a saloon, a barn burned on the
stagecoach road, a doctor deputising the railroad agent). Some narration reads oddly:
"runs off the land Dolores Vega" (object after the particle), "The railroad agent does
not get what was wanted here", and Abel Moss patches up Dolores Vega three times in a
row in scene 6. Scene 13 restates six place details of the stagecoach road at once
(hard-eyed strangers, quiet, dust, old gunfights, noon sun, the ridge), the same ones
the Silver Spur saloon got in scene 6. The railroad agent (no name) is at the centre of
almost every conflict; Cora Lindqvist, the town marshal, is introduced in scene 1 and
then only ever absent.

What the game holds: four deaths among eleven characters. Silas Reed (the cattle
rustler) kills the rancher's widow in the Silver Spur saloon (scene 4; the challenge
to it was bid down and lost); Dolores Vega (the circuit preacher) falls to no one's
hand at the railroad depot (scene 10), where the railroad agent also kills the scout;
the railroad agent kills Silas Reed on the stagecoach road (scene 12). Billy Coyle (the
card sharp) and the railroad agent fight again and again: the saloon (three times in
scene 1), the old mission, the stagecoach road (scenes 11 to 13); Abel Moss (the
gunslinger) beats Billy in the saloon and at the Harlan ranch; Amos Pike (the frontier
doctor) beats Dolores Vega at the ranch, the railroad agent on the stagecoach road and
the saloon keeper in the last scene, where the railroad agent shoots him in the
game's last clash.

How the questions were written, as for probe_game8: characters are asked about by
name and, about as often, only by their role or description ("the card sharp", "the
gambler", "the frontier doctor", "the sawbones", "the town marshal", "the circuit
preacher", "the cattle rustler", "the gunslinger", "the hired gun"; the railroad agent,
the scout, the rancher's widow and the saloon keeper have no other name). Places are
asked about by name and by description ("the bar", "the homestead", "the cattle
spread", "the abandoned mission", "the dried-up riverbed", "the train station", "the
stage road"), and so is what happened in a scene at a place whose events do not name
it (who died at the depot, who buried the strongbox at the Harlan ranch). Some are
worded close to the Facts, some moderately, some heavily (about a third each).
`relevant` lists what a full answer needs; an inner list is a group of Facts saying
the same thing (a Trait restated in events, the same deed done twice, a defeat told
once from each side), any one of which counts as that item recalled; each group was
completed by grepping the whole Fact list for every wording of it. Questions whose
true answer would be more than six items were made more specific. Tags use
probe_game2's vocabulary. All questions are asked at the end of the game (scene 14).

    python -m eval.memory.probe_game9    # replay the log, rewrite eval/data/memory_probe_game9.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game9.jsonl"
OUT = DATA / "memory_probe_game9.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

# Tenets restated later as a detail of a place
TENET_POSSE = ["T3", "f164"]
TENET_RAILROAD = ["T4", "f71", "f167"]
TENET_WATER = ["T6", "f67", "f86", "f126"]
# Traits restated in events ("The railroad agent, who quotes scripture when angry, ...")
RA_BADGE = ["t2", "f10", "f24", "f135", "f193"]
RA_SCRIPTURE = ["t10", "f108", "f139", "f180"]
RA_NOTCH = ["t21", "f14", "f19", "f26", "f36", "f177", "f194"]
ABEL_NOTCH = ["t58", "f75", "f79", "f80", "f124", "f125", "f166"]
ABEL_PAST = ["t51", "f46", "f70", "f80", "f122", "f176"]
BILLY_BROTHER = ["t8", "f50", "f92", "f111", "f136", "f155", "f163"]
BILLY_DRINK = ["t20", "f49", "f54", "f59", "f96", "f112", "f136", "f168"]
CORA_DRINK = ["t25", "f22"]
DOLORES_RICH = ["t29", "f25", "f53", "f107"]
DOLORES_CARDS = ["t30", "f95"]
DOLORES_SOFT = ["t31", "f53"]
DOLORES_NIGHT = ["t37", "f107"]
DOLORES_LAND = ["t39", "f118"]
WIDOW_CARDS = ["t43", "f32"]
SILAS_RANCH = ["t64", "f62"]
KEEPER_JUSTICE = ["t52", "f102", "f158", "f174"]
KEEPER_TRUSTED = ["t70", "f174"]
KEEPER_LAND = ["t69", "f128"]
SCOUT_BOLD = ["t77", "f131"]
AMOS_BOLD = ["t80", "f201", "f204", "f206"]
# Place details said more than once
SALOON_RIDGE = ["f13", "t86", "f196"]
DEPOT_STRANGERS = ["t73"]
ROAD_STRANGERS = ["t79", "f181", "f187"]
# The same deed done twice
ABEL_PATCHES_DOLORES = ["f79", "f80", "f81"]
ABEL_PATCHES_BILLY = ["f165", "f166"]
RA_VOUCHES_BILLY = ["f193", "f194"]
# Deaths told once from each side (the winner's line and the loser's)
SILAS_KILLS_WIDOW = ["f43", "f44"]
DOLORES_FALLS = ["f119", "f120"]
RA_KILLS_SCOUT = ["f132", "f133"]
RA_KILLS_SILAS = ["f147", "f148"]
# Defeats told from each side (the same pair's defeats in one place grouped)
RA_BEATS_BILLY_SALOON = ["f4", "f5", "f17", "f18"]
BILLY_BEATS_RA_SALOON = ["f11", "f12"]
AMOS_BEATS_DOLORES_RANCH = ["f29", "f30"]
ABEL_BEATS_WIDOW_SALOON = ["f34"]
RA_BEATS_BILLY_MISSION = ["f55", "f57"]
ABEL_BEATS_BILLY_SALOON = ["f82", "f83"]
ABEL_BEATS_BILLY_RANCH = ["f89", "f90"]
DOLORES_BEATS_BILLY_CREEK = ["f113", "f114"]
RA_BEATS_BILLY_ROAD = ["f137", "f138", "f169", "f170"]
AMOS_BEATS_RA_ROAD = ["f143", "f144"]
BILLY_BEATS_RA_ROAD = ["f153", "f154", "f179"]
RA_BEATS_KEEPER_ROAD = ["f173", "f175", "f183"]
AMOS_BEATS_KEEPER_SALOON = ["f199", "f200"]
RA_BEATS_AMOS_SALOON = ["f207", "f208"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (some restated later as a place detail: either counts)
    ("What does the old mission bell ring for?", ["T1"], "none tenet light"),
    ("What sound marks each death in this town?", ["T1"], "none tenet heavy"),
    ("What happens to a debt not paid by sundown?", ["T2"], "none tenet light"),
    ("What is the price of failing to settle up before the sun goes down?", ["T2"], "none tenet heavy"),
    ("Does every man in the posse have something to hide?", [TENET_POSSE], "none tenet light"),
    ("Are the lawmen who ride together keeping secrets?", [TENET_POSSE], "none tenet heavy"),
    ("Who owns the law in this town?", [TENET_RAILROAD], "none tenet light"),
    ("Is justice here bought by the train company?", [TENET_RAILROAD], "none tenet heavy"),
    ("Is it polite to ask a newcomer where he hails from?", ["T5"], "none tenet moderate"),
    ("What is worth more than gold?", [TENET_WATER], "none tenet light"),
    ("Which counts for more out here, gold or the right to water?", [TENET_WATER], "none tenet moderate"),
    ("On what morning does the story open?", ["f2"], "none scene moderate"),
    # The railroad agent (no other name)
    ("What does the railroad agent want?", [RA_BADGE], "role trait light"),
    ("Who is after the marshal's star?", [RA_BADGE], "none trait heavy"),
    ("Who cannot read?", ["t3", "t53", "t84"], "none trait light"),
    ("What does the railroad man do when he loses his temper?", [RA_SCRIPTURE], "role trait moderate"),
    ("Who recites the Bible when in a rage?", [RA_SCRIPTURE], "none trait heavy"),
    ("To what has the railroad agent sworn his service?", ["t11"], "role trait moderate"),
    ("Who has sworn to serve the railroad?", ["t11", "t68"], "none trait light"),
    ("Who keeps a tally of the men they have killed?", [RA_NOTCH, ABEL_NOTCH], "none trait moderate"),
    ("Does the company man count his kills?", [RA_NOTCH], "role trait heavy"),
    ("Who rides alone at night?", ["t4", DOLORES_NIGHT], "none trait light"),
    ("What injuries has the railroad agent taken?", ["t17", "t47", "t75"], "role wound light"),
    ("Who broke the railroad agent's leg in the Silver Spur saloon?", [BILLY_BEATS_RA_SALOON, "t17"],
     "role wound outcome scene place moderate"),
    ("Where did the company man get snakebitten?", ["t47", ["f37", "f38"]], "role wound scene heavy"),
    ("Whom did the railroad agent kill?", [RA_KILLS_SCOUT, RA_KILLS_SILAS], "role outcome light"),
    ("Whom did the railroad agent beat in the first scene?", [RA_BEATS_BILLY_SALOON], "role outcome scene moderate"),
    ("Who got the better of the railroad agent on the stagecoach road?", [AMOS_BEATS_RA_ROAD, BILLY_BEATS_RA_ROAD],
     "role outcome scene place light"),
    ("Whom did the railroad agent defeat at the abandoned church?", [RA_BEATS_BILLY_MISSION],
     "role outcome scene placedesc heavy"),
    ("Whom did the railroad agent defeat in the last scene?", [RA_BEATS_AMOS_SALOON], "role outcome scene moderate"),
    ("Whom did the railroad agent deputise at the train station?", ["f117"], "role deed scene placedesc heavy"),
    ("Who put in a good word for the railroad agent?", ["f46", ["f96", "f136"], "f206"], "role deed moderate"),
    ("Who patched up the railroad agent?", ["f146", "f192"], "role deed light"),
    ("Who set fire to the railroad agent's barn?", ["f56", "f174"], "role deed moderate"),
    ("Who swindled the railroad man at the depot?", ["f131"], "role deed scene place moderate"),
    ("Whom did the railroad agent turn the town against?", ["f178"], "role deed light"),
    ("Who sat by a campfire with the railroad agent?", ["f53", "f177"], "role deed moderate"),
    ("Who rode alongside the railroad agent?", [["f108", "f116"]], "role deed moderate"),
    ("Whom did the railroad agent call out at the Harlan ranch?", ["f24"], "role deed scene place light"),
    ("Whom did the railroad agent warn at the homestead?", ["f26"], "role deed scene placedesc heavy"),
    ("Where was the railroad agent missing from?", ["f77"], "role scene moderate"),
    ("What did Amos Pike tell the railroad agent?", ["f202"], "name deed moderate"),
    # Billy Coyle, the card sharp
    ("What does Billy Coyle do?", ["t6"], "name trait moderate"),
    ("Who makes a living cheating at cards?", ["t6"], "none trait heavy"),
    ("What is Billy Coyle trying to do for his brother?", [BILLY_BROTHER], "name trait light"),
    ("Who wants revenge for a killed sibling?", [BILLY_BROTHER], "none trait heavy"),
    ("Who drinks hard?", [BILLY_DRINK, CORA_DRINK], "none trait moderate"),
    ("Does the gambler like his whiskey?", [BILLY_DRINK], "role trait heavy"),
    ("Whom has Billy Coyle vowed to get even with?", ["t19"], "name trait heavy"),
    ("Who has sworn to settle things with Billy Coyle?", ["t22"], "name trait light"),
    ("What does Billy Coyle know about the railroad agent?", ["t12", "t18"], "name trait moderate"),
    ("Who is secretly in love with Billy Coyle?", ["t14"], "name trait light"),
    ("Who carries a hidden torch for the gambler?", ["t14"], "role trait heavy"),
    ("What injuries has Billy Coyle suffered?", ["t9", "t63", "t67"], "name wound light"),
    ("Who shot the card sharp in the Silver Spur saloon?", [ABEL_BEATS_BILLY_SALOON, "t67"],
     "role wound outcome scene place moderate"),
    ("How did Billy Coyle get rope burns?", [RA_BEATS_BILLY_MISSION, "t63"], "name wound outcome moderate"),
    ("Who broke the gambler's leg?", [RA_BEATS_BILLY_SALOON, "t9"], "role wound outcome heavy"),
    ("Whom did Billy Coyle beat in the first scene?", [BILLY_BEATS_RA_SALOON], "name outcome scene light"),
    ("Who made Billy Coyle give way at the Harlan ranch?", [ABEL_BEATS_BILLY_RANCH], "name outcome scene place light"),
    ("Who beat Billy Coyle on the stagecoach road?", [RA_BEATS_BILLY_ROAD], "name outcome scene place light"),
    ("Who got the upper hand over the card sharp at the dried-up riverbed?", [DOLORES_BEATS_BILLY_CREEK],
     "role outcome scene placedesc heavy"),
    ("Whom did Billy Coyle ambush in the Silver Spur saloon?", ["f59"], "name deed scene place light"),
    ("Who patched up Billy Coyle?", ["f7", "f95", ABEL_PATCHES_BILLY], "name deed light"),
    ("Whose wounds did Billy Coyle bind up?", ["f168", "f192"], "name deed moderate"),
    ("Who pinned a deputy's star on Billy Coyle?", ["f117", "f162"], "name deed heavy"),
    ("Whom did the card sharp make a deputy?", ["f88"], "role deed moderate"),
    ("Who spoke up for the gambler in the bar in the final scene?", [RA_VOUCHES_BILLY], "role deed scene placedesc heavy"),
    ("Who rode with Billy Coyle?", ["f6"], "name deed light"),
    ("Whom did Billy Coyle warn out at the cattle spread?", ["f87"], "name deed scene placedesc heavy"),
    ("What did Billy Coyle do to the railroad agent at the old mission?", ["f54", "f56"], "name deed scene place light"),
    ("Whom did Billy Coyle drive off the land in the dry creek bed?", ["f112"], "name deed scene place moderate"),
    ("Who sat around a fire with the card sharp?", [["f92", "f176"]], "role deed heavy"),
    # The scout (no other name)
    ("How did the scout die?", [RA_KILLS_SCOUT], "role outcome moderate"),
    ("Who killed the tracker at the train station?", [RA_KILLS_SCOUT], "role outcome scene placedesc heavy"),
    ("What did the scout do to the railroad agent before dying?", ["f131"], "role deed moderate"),
    ("How much nerve does the scout have?", [SCOUT_BOLD], "role trait heavy"),
    ("Who is as bold as a gambler?", [SCOUT_BOLD, AMOS_BOLD], "none trait light"),
    # Amos Pike, the frontier doctor
    ("What is Amos Pike's profession?", ["t15"], "name trait moderate"),
    ("Who is the doctor out here?", ["t15"], "none trait moderate"),
    ("Who is Amos Pike determined to have it out with?", ["t33"], "name trait heavy"),
    ("Whom will Amos Pike never trust again?", ["t34", "t81"], "name trait moderate"),
    ("What does the sawbones know about the preacher?", ["t35", "t36"], "role trait heavy"),
    ("Whom did Amos Pike defeat at the Harlan ranch?", [AMOS_BEATS_DOLORES_RANCH], "name outcome scene place light"),
    ("Who left the preacher snakebitten at the homestead?", [AMOS_BEATS_DOLORES_RANCH, "t32"],
     "role wound outcome scene placedesc heavy"),
    ("How did Amos Pike get shot?", [RA_BEATS_AMOS_SALOON, "t88"], "name wound outcome moderate"),
    ("Whom did the doctor make back down on the stagecoach road?", [AMOS_BEATS_RA_ROAD],
     "role outcome scene place moderate"),
    ("Whom did Amos Pike beat in the Silver Spur saloon in the last scene?", [AMOS_BEATS_KEEPER_SALOON],
     "name outcome scene place light"),
    ("Whom did Amos Pike swear in as deputy?", ["f27"], "name deed moderate"),
    ("Whom did the doctor tend to in the final scene?", ["f198"], "role deed scene moderate"),
    ("Where did the sawbones bury the strongbox?", [["f9", "f203"]], "role deed place heavy"),
    ("Where was Amos Pike absent from?", ["f98"], "name scene moderate"),
    ("Who shared a campfire with Amos Pike on the stagecoach road?", ["f177"], "name deed scene place light"),
    ("Whom did Amos Pike vouch for?", ["f206"], "name deed light"),
    # Cora Lindqvist, the town marshal
    ("What is Cora Lindqvist's job?", ["t23"], "name trait moderate"),
    ("Who is the town marshal?", ["t23"], "none trait light"),
    ("Does the marshal drink?", [CORA_DRINK], "role trait moderate"),
    ("What did Cora Lindqvist do in the Silver Spur saloon?", ["f22"], "name deed scene place light"),
    ("Where was the town marshal missing from?", ["f78", "f105", "f205"], "role scene moderate"),
    ("Who never draws first?", ["t76", "t85"], "none trait light"),
    ("Who never pulls a gun before the other fellow does?", ["t76", "t85"], "none trait heavy"),
    ("Can the lawwoman read?", ["t84"], "role trait heavy"),
    ("Can Cora Lindqvist read?", ["t84"], "name trait light"),
    # Dolores Vega, the circuit preacher
    ("What does Dolores Vega do?", ["t27"], "name trait moderate"),
    ("Who preaches from town to town?", ["t27"], "none trait heavy"),
    ("What does Dolores Vega want?", [DOLORES_RICH], "name trait light"),
    ("Who hopes to make a fortune and get out?", [DOLORES_RICH], "none trait heavy"),
    ("Who can read a man's hand at cards?", [DOLORES_CARDS, WIDOW_CARDS], "none trait light"),
    ("What is the circuit preacher's manner?", [DOLORES_SOFT], "role trait heavy"),
    ("Who is deep in hock to the bankers?", ["t38", "t66"], "none trait heavy"),
    ("Who is hungry for land?", [DOLORES_LAND, KEEPER_LAND], "none trait light"),
    ("What wounds did Dolores Vega take?", ["t32", "t74"], "name wound light"),
    ("What happened to Dolores Vega at the railroad depot?", [DOLORES_FALLS, "t74"], "name outcome scene place light"),
    ("How did the preacher die?", [DOLORES_FALLS], "role outcome moderate"),
    ("Whom did the preacher beat at the creek?", [DOLORES_BEATS_BILLY_CREEK], "role outcome scene placedesc moderate"),
    ("Who patched up Dolores Vega?", [ABEL_PATCHES_DOLORES], "name deed light"),
    ("Who tended the preacher's wounds in the bar?", [ABEL_PATCHES_DOLORES], "role deed scene placedesc heavy"),
    ("Who got a warning from Dolores Vega?", [["f107", "f118"]], "name deed moderate"),
    ("Who drove the preacher off the land?", ["f28", "f112"], "role deed heavy"),
    ("Where did Dolores Vega bury the strongbox?", ["f25"], "name deed place moderate"),
    ("Whom did Dolores Vega challenge at the old mission?", ["f52"], "name deed scene place moderate"),
    # The rancher's widow (no other name)
    ("Whom does the rancher's widow hold a debt over?", ["t50"], "role trait light"),
    ("Who is in debt to the widow?", ["t49"], "role trait moderate"),
    ("What did the rancher's widow lose?", ["t54"], "role wound moderate"),
    ("Who killed the rancher's widow?", [SILAS_KILLS_WIDOW], "role outcome light"),
    ("How did the ranch widow die in the bar?", [SILAS_KILLS_WIDOW], "role outcome scene placedesc heavy"),
    ("Who shot the widow at the Silver Spur saloon?", [ABEL_BEATS_WIDOW_SALOON, "t46"],
     "role wound outcome scene place moderate"),
    ("Who called out the rancher's widow?", ["f42"], "role deed light"),
    # Silas Reed, the cattle rustler
    ("What is Silas Reed?", ["t41"], "name trait moderate"),
    ("Who steals cattle?", ["t41"], "none trait heavy"),
    ("What does Silas Reed want to keep from the railroad?", [SILAS_RANCH], "name trait light"),
    ("Who is trying to save a ranch from the train company?", [SILAS_RANCH], "none trait heavy"),
    ("Whom does Silas Reed owe?", ["t49", "t66"], "name trait light"),
    ("Who can no longer ride since a fall?", ["t60", "t65"], "none trait moderate"),
    ("Who has laid eyes on the surveyor's plans?", ["t56", "t59"], "none trait heavy"),
    ("How did Silas Reed die?", [RA_KILLS_SILAS], "name outcome moderate"),
    ("Who killed the cattle thief on the stage road?", [RA_KILLS_SILAS], "role outcome scene placedesc heavy"),
    ("Whom did the rustler bandage just before he died?", ["f146"], "role deed heavy"),
    ("What did Silas Reed do in the Silver Spur saloon?", ["f62", "f64", "f65", "f66"], "name deed scene place light"),
    ("Whom did Silas Reed kill?", [SILAS_KILLS_WIDOW], "name outcome light"),
    ("What wound did Silas Reed have when he died?", ["t82"], "name wound moderate"),
    # Abel Moss, the gunslinger
    ("What is Abel Moss?", ["t44"], "name trait moderate"),
    ("Who is the hired gun?", ["t44"], "none trait heavy"),
    ("What does Abel Moss want?", [ABEL_PAST], "name trait light"),
    ("Who wants to put their history behind them for good?", [ABEL_PAST], "none trait moderate"),
    ("What secret does Abel Moss carry about the lawman's shooting?", ["t61"], "name trait heavy"),
    ("Who knows who shot the sheriff?", ["t61"], "none trait light"),
    ("Who has stopped trusting the railroad?", ["t57"], "none trait moderate"),
    ("Whom did Abel Moss beat in the Silver Spur saloon?", [ABEL_BEATS_WIDOW_SALOON, ABEL_BEATS_BILLY_SALOON],
     "name outcome scene place light"),
    ("Whom did the gunslinger beat at the homestead?", [ABEL_BEATS_BILLY_RANCH], "role outcome scene placedesc heavy"),
    ("Whom did Abel Moss patch up?", [ABEL_PATCHES_DOLORES, ABEL_PATCHES_BILLY], "name deed light"),
    ("Who dressed Abel Moss's wounds?", ["f168", "f172"], "name deed heavy"),
    ("Whom did Abel Moss vouch for in the Silver Spur saloon?", ["f46"], "name deed scene place light"),
    ("Who stood up for the gunman on the stagecoach road?", ["f163"], "role deed scene place moderate"),
    ("Whom did Abel Moss warn at the ranch?", ["f94"], "name deed scene placedesc moderate"),
    ("What did Abel Moss get up to at the train station?", ["f122", "f123", "f124", "f125"],
     "name deed scene placedesc heavy"),
    ("Whom did Abel Moss swear in as a lawman?", ["f162"], "name deed heavy"),
    # The saloon keeper (no other name)
    ("What does the saloon keeper want?", [KEEPER_JUSTICE], "role trait light"),
    ("Who wants the cattle thieves to face justice?", [KEEPER_JUSTICE], "none trait heavy"),
    ("Whom do the ranchers trust?", [KEEPER_TRUSTED], "none trait moderate"),
    ("What wounds has the saloon keeper taken?", ["t83", "t87"], "role wound light"),
    ("Who shot the barkeep on the stage road?", [RA_BEATS_KEEPER_ROAD, "t83"], "role wound outcome scene placedesc heavy"),
    ("How did the saloon keeper get rope burns?", [AMOS_BEATS_KEEPER_SALOON, "t87"], "role wound outcome moderate"),
    ("Who patched up the saloon keeper?", ["f198"], "role deed light"),
    ("What did the saloon keeper do to the railroad agent on the stagecoach road?", ["f174"],
     "role deed scene place light"),
    ("What did the saloon keeper do at the Harlan ranch?", ["f101", "f102", "f103", "f104"], "role deed scene place light"),
    # Places, by name and by description
    ("Who is watching the Silver Spur saloon?", [SALOON_RIDGE], "none place moderate"),
    ("Where does the midday heat bake everything?", ["f68", "f189"], "none place heavy"),
    ("Which places are thick with dust?", ["f73", "f186"], "none place moderate"),
    ("Which places are scarred by old gunfights?", ["f72", "f188"], "none place moderate"),
    ("Where is it as quiet as a held breath?", ["f74", "f185"], "none place light"),
    ("Which places are full of hard-eyed strangers?", ["f48", DEPOT_STRANGERS, ROAD_STRANGERS], "none place light"),
    ("Which spots are kept under watch from the high ground?", [SALOON_RIDGE, "f190"], "none place heavy"),
    ("Who hangs around the coach trail these days?", [ROAD_STRANGERS], "none placedesc heavy"),
    ("What sort of crowd waits at the train station?", [DEPOT_STRANGERS], "none placedesc heavy"),
    ("Where are water rights worth more than gold?", ["f67", "f86", "f126"], "none place tenet moderate"),
    ("Where does the railroad own the law as well?", ["f71", "f167"], "none place tenet light"),
    ("Where did the story begin?", [["f1", "t5"]], "none scene place moderate"),
    ("Where did the last scene take place?", ["f191"], "none scene place moderate"),
    # What happened in a scene at a place whose events do not name it
    ("Who died at the railroad depot?", [DOLORES_FALLS, RA_KILLS_SCOUT], "none outcome scene place light"),
    ("Who died on the stagecoach road?", [RA_KILLS_SILAS], "none outcome scene place light"),
    ("Who lost their life in the bar?", [SILAS_KILLS_WIDOW], "none outcome scene placedesc heavy"),
    ("Who buried the strongbox at the Harlan ranch?", ["f25", "f85", "f102"], "none deed scene place light"),
    ("Who hid the cash box along the stage route?", [["f135", "f180"]], "none deed scene placedesc heavy"),
    ("Who hid the strongbox at the train station?", ["f122"], "none deed scene placedesc heavy"),
    ("Who buried the strongbox at the Silver Spur saloon?", [["f9", "f203"], "f40", "f65"], "none deed scene place light"),
    ("Who read the wanted poster on the stagecoach road?", [["f151", "f182"]], "none deed scene place moderate"),
    ("Who read the wanted poster in the Silver Spur saloon?", [["f33", "f76"], "f62"], "none deed scene place light"),
    ("Who studied the survey map at the Harlan ranch?", ["f99"], "none deed scene place moderate"),
    ("Who pored over the surveyor's chart on the stage road?", ["f158"], "none deed scene placedesc heavy"),
    ("Who took a head count of the livestock at the train station?", ["f127"], "none deed scene placedesc heavy"),
    ("Who tallied the herd on the stagecoach road?", ["f155"], "none deed scene place moderate"),
    ("Who waited for the noon train on the stagecoach road?", ["f139", "f159"], "none deed scene place light"),
    ("Who waited for the midday train in the bar in the last scene?", ["f204"], "none deed scene placedesc heavy"),
    ("Who cleaned a revolver on the stagecoach road?", ["f142"], "none deed scene place moderate"),
    ("Who saddled up before dawn at the Harlan ranch?", ["f103"], "none deed scene place moderate"),
    ("Who got through the trouble at the dry creek bed unharmed?", ["f109"], "none outcome scene place moderate"),
    ("Who came out of the trouble at the train depot without a scratch?", ["f129"], "none outcome scene place moderate"),
    ("Who was absent from the Harlan ranch the last time the story went there?", ["f98", "f105"], "none scene place moderate"),
    ("Who was away from the Silver Spur saloon in the final scene?", ["f205"], "none scene place light"),
    ("Who was far from the bar the night the gunslinger nursed the preacher?", ["f77", "f78"],
     "none scene placedesc heavy"),
    ("Who shared a campfire at the old mission?", ["f53"], "none deed scene place light"),
    ("Who rode together through the dry wash?", ["f108"], "none deed scene placedesc heavy"),
    # Wounds and deaths across the game
    ("Who has a busted leg?", ["t9", "t17", "t74"], "none wound light"),
    ("Who was bitten by a snake?", ["t32", "t47", "t82"], "none wound moderate"),
    ("Who has taken a bullet?", ["t46", "t67", "t75", "t83", "t88"], "none wound heavy"),
    ("Who has rope burns?", ["t63", "t87"], "none wound light"),
    ("Who has been killed so far?", [SILAS_KILLS_WIDOW, DOLORES_FALLS, RA_KILLS_SCOUT, RA_KILLS_SILAS],
     "none outcome light"),
    ("Who died in the first half of the story?", [SILAS_KILLS_WIDOW], "none outcome moderate"),
    ("Who won the final fight of the story?", [RA_BEATS_AMOS_SALOON], "none outcome scene heavy"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids v1, v2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "v",
                       "eval/memory/probe_game9.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())
