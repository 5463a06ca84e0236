"""A sixth memory probe from a played game, written blind: eval/data/probe_game6.jsonl plus questions.

Why a sixth game: probe_game5 (the western) was the held-out test, but once its
results are read while tuning it is no longer untouched either. This one is a fresh
held-out test in another genre none of the others used (horror, which the heuristic
narrator has only just learned to tell), another seed and its own cast: questions
written without looking at the retrieval code, its results or any search over these
Facts; only by reading the game's Facts and its log (to know who won which
conflict, who was hurt and who died) and asking what a player at the table would
ask. Nobody tunes on it.

The log was played with (seed 61, horror, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=61,
                  premise="A horror story about a haunted manor in a village the fog never leaves",
                  log_path="eval/data/probe_game6.jsonl")

It holds 418 Facts (the first seed tried; scenes 8 and 9, on the marsh road and at
the lighthouse, hold over a hundred of them, many the same few deeds repeated and
every Tenet restated as a detail of the place).

What the game holds: eight deaths among ten characters. Ellery Dunn (the innkeeper,
who wants to speak with her dead husband) kills Simon Larch (the skeptical doctor)
at the schoolhouse, Nathaniel Crowe (the gravedigger) at the old manor and Thomas
Greer (the schoolteacher) in the flooded cellar; Clara Voss (the orphan) kills the
grieving mother in the attic room and Rose Tilney (the paranormal investigator) in
the flooded cellar; Edith Henley (the medium) kills Ivy Pell (the village priest)
in the attic room and falls herself on the marsh road to no one's hand (an
obstacle); Thomas Greer kills Agnes Whitlow (the lighthouse keeper) at the
lighthouse. (Thomas Greer's death was challenged and the challenge lost, so it
stands.) The long feud is Ellery Dunn against the grieving mother, then against
Clara Voss, the only two left; the last three scenes are all at the schoolhouse.

How the questions were written, as for probe_game5: characters are asked about by
name and, about as often, only by their role or description ("the innkeeper", "the
orphan", "the schoolteacher", "the medium", "the lighthouse keeper", "the
paranormal investigator", "the gravedigger", "the doctor", "the village priest";
the grieving mother has no other name). Places are asked about by name and by
description ("the haunted house", "the waterlogged basement", "the garret", "the
road across the bog", "the light tower"), and so is what happened in a scene at a
place whose events do not name it (who died in the flooded cellar, who read the
drowned girl's diary at the schoolhouse). Some are worded close to the Facts, some
moderately, some heavily (about a third each). `relevant` lists what a full answer
needs; an inner list is a group of Facts saying the same thing (a Trait restated
in events, the same deed done twice, a defeat told once from each side), any one
of which counts as that item recalled; each group was completed by grepping the
whole Fact list for every wording of it. Questions whose true answer would be more
than six items were made more specific. Tags use probe_game2's vocabulary. All
questions are asked at the end of the game (scene 14).

    python -m eval.memory.probe_game6    # replay the log, rewrite eval/data/memory_probe_game6.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game6.jsonl"
OUT = DATA / "memory_probe_game6.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

# Tenets restated later as a detail of a place
TENET_ALONE = ["T2", "f85", "f161", "f210", "f299"]
TENET_DEAD_REMEMBER = ["T3", "f116", "f162", "f207", "f292"]
TENET_NO_HELP = ["T4", "f59", "f73", "f111", "f158", "f208", "f302"]
TENET_NAME = ["T5", "f113", "f163", "f205", "f301"]
TENET_MIRROR = ["T6", "f115", "f152", "f206", "f303"]
# Traits restated in events ("Ellery Dunn, kind to strangers, ...")
ELLERY_HUSBAND = ["t14", "f12", "f42", "f76", "f136", "f159", "f171", "f224", "f253", "f263", "f272", "f300", "f313"]
ELLERY_KIND = ["t11", "f16", "f70", "f74", "f141", "f171", "f183", "f230", "f231", "f238", "f242", "f272"]
CLARA_KIND = ["t72", "f191", "f192", "f212", "f219", "f284", "f309"]
AGNES_KIND = ["t87", "f173"]
ELLERY_RECKLESS = ["t15", "f69", "f174", "f223", "f243", "f253", "f288", "f316", "f317", "f318"]
EDITH_RECKLESS = ["t55", "f67", "f80", "f128"]
MOTHER_SLEEPLESS = ["t18", "f38", "f58", "f62"]
ROSE_SLEEPLESS = ["t79", "f118", "f119", "f120", "f122", "f123", "f125", "f126", "f127", "f131", "f249", "f268"]
MOTHER_CULT = ["t2", "f50", "f86"]
AGNES_LEAVE = ["t27", "f24", "f81", "f173", "f200"]
THOMAS_HOAX = ["t24", "f55", "f103", "f137", "f151", "f187", "f214", "f260"]
SIMON_GHOST = ["t37", "f30"]
IVY_CHILD = ["t48", "f99"]
CLARA_STEADY = ["t83", "f144", "f305"]
CLARA_REFUSES = ["t73", "f211", "f220", "f247", "f310"]
SCHOOLHOUSE_EARTH = ["t94", "f297", "f315"]
# Defeats told once from each side (the winner's line and the loser's)
SIMON_BEATS_ELLERY_SCHOOL = ["f28", "f29"]
ELLERY_KILLS_SIMON = ["f32", "f33"]
ELLERY_KILLS_NATHANIEL = ["f47", "f48"]
MOTHER_BEATS_ELLERY_CHURCHYARD = ["f39", "f40"]
ELLERY_BEATS_EDITH_CELLAR = ["f71", "f72"]
CLARA_KILLS_MOTHER = ["f96", "f97"]
EDITH_KILLS_IVY = ["f100", "f101"]
THOMAS_KILLS_AGNES = ["f216", "f217"]
ELLERY_KILLS_THOMAS = ["f265", "f266"]
CLARA_KILLS_ROSE = ["f269", "f270"]
ROSE_CARES_FOR_EDITH = ["f123", "f125", "f126", "f127", "f129", "f130", "f131"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (most restated later as a place detail: either counts)
    ("Can anyone get out of the village once the sun has gone down?", ["T1"], "none tenet moderate"),
    ("When is the thing in the house able to touch you?", [TENET_ALONE], "none tenet light"),
    ("Do the dead forget what was done to them?", [TENET_DEAD_REMEMBER], "none tenet moderate"),
    ("Will anyone come to our rescue before it is too late?", [TENET_NO_HELP], "none tenet heavy"),
    ("What happens to whoever says its name aloud?", [TENET_NAME], "none tenet light"),
    ("What do the looking-glasses in this village reveal?", [TENET_MIRROR], "none tenet heavy"),
    # Ellery Dunn, the innkeeper
    ("What does Ellery Dunn do for a living?", ["t8"], "name trait moderate"),
    ("Who keeps the inn?", ["t8"], "none trait moderate"),
    ("Whom does the innkeeper hope to speak with?", [ELLERY_HUSBAND], "role trait light"),
    ("Who is trying to reach a spouse beyond the grave?", [ELLERY_HUSBAND], "none trait heavy"),
    ("How does Ellery Dunn treat strangers?", [ELLERY_KIND], "name trait light"),
    ("Who is gentle with outsiders?", [ELLERY_KIND, CLARA_KIND, AGNES_KIND], "none trait heavy"),
    ("Who is mourning and throwing caution to the wind?", [ELLERY_RECKLESS, EDITH_RECKLESS, "t49"], "none trait heavy"),
    ("How badly has Ellery Dunn been hurt?", ["t34", "t45", "t54"], "name wound moderate"),
    ("Who scratched the innkeeper to the bone at the schoolhouse?", [SIMON_BEATS_ELLERY_SCHOOL, "t34"],
     "role wound outcome scene place moderate"),
    ("Who left the innkeeper with a bite in the haunted house?", ["f51", "t54"],
     "role wound outcome scene placedesc heavy"),
    ("Who shook Ellery Dunn to the core in the churchyard?", [MOTHER_BEATS_ELLERY_CHURCHYARD, "t45"],
     "name wound outcome scene place light"),
    ("Whom has Ellery Dunn killed?", ["f33", "f48", "f266"], "name outcome light"),
    ("Whose blood is on the innkeeper's hands?", [ELLERY_KILLS_SIMON, ELLERY_KILLS_NATHANIEL, ELLERY_KILLS_THOMAS],
     "role outcome heavy"),
    ("Who beat Ellery Dunn at the schoolhouse in the last two scenes?", [["f277", "f278"], ["f289", "f290"],
                                                                          ["f306", "f307"]],
     "name outcome scene place moderate"),
    ("Whom did the innkeeper lock in at the schoolhouse in the first scene?", ["f9"], "role deed scene place light"),
    ("Whom did Ellery Dunn turn the villagers against?", ["f5"], "name deed light"),
    ("Who confided in the paranormal investigator at the old manor?", ["f42"], "role deed scene place light"),
    ("Whom did Ellery Dunn deceive in the flooded cellar?", ["f263"], "name deed scene place moderate"),
    ("What passed between the innkeeper and the lighthouse keeper on the marsh road?",
     ["f171", "f172", "f174", "f176", "f173", "f175"], "role deed scene place moderate"),
    ("What happened between the innkeeper and the schoolteacher in the attic room?",
     ["f253", "f254", "f255", ["f256", "f257"]], "role deed outcome scene place moderate"),
    # The grieving mother (no other name)
    ("What is the grieving mother trying to uncover?", [MOTHER_CULT], "role trait moderate"),
    ("Who wants to know the cult's secrets?", [MOTHER_CULT], "none trait heavy"),
    ("How long has the grieving mother gone without sleep?", ["t3", MOTHER_SLEEPLESS], "role trait moderate"),
    ("What wounds did the grieving mother suffer before she died?", ["t10", "t25", "t71"], "role wound light"),
    ("Who killed the grieving mother?", [CLARA_KILLS_MOTHER], "role outcome light"),
    ("How did the mourning mother meet her end up in the garret?", [CLARA_KILLS_MOTHER, "t71"],
     "role outcome wound scene placedesc heavy"),
    ("Whom did the grieving mother beat in the churchyard?", [MOTHER_BEATS_ELLERY_CHURCHYARD],
     "role outcome scene place light"),
    ("Whom did the bereaved mother get the better of in the haunted house?", ["f51", ["f56", "f57"]],
     "role outcome scene placedesc heavy"),
    ("Who had to give way to the grieving mother in the attic room?", [["f83", "f84"]],
     "role outcome scene place light"),
    ("Who left the grieving mother bitten on the marsh road?", [["f19", "f20"], "t25"],
     "role wound outcome scene place light"),
    ("Who has sworn to settle things with the innkeeper?", ["t13", "t40"], "role trait light"),
    ("Who is tied to the big house and cannot get free of it?", ["t4", "t32", "t33", "t56"], "none trait heavy"),
    ("Who can't bear to be without a light at night?", ["t26", "t42"], "none trait heavy"),
    # Clara Voss, the orphan
    ("Who in the story has no parents?", ["t62"], "none trait heavy"),
    ("Whom did the orphan once betray?", [["t64", "t65"]], "role trait light"),
    ("Who stabbed Edith Henley in the back once?", [["t64", "t65"]], "name trait heavy"),
    ("What does Clara Voss owe the priest?", ["t74"], "name trait light"),
    ("Who is in debt for a life to the one who keeps the church?", ["t74"], "none trait heavy"),
    ("Who won't believe in the ghost?", [CLARA_REFUSES], "none trait moderate"),
    ("How does the orphan hold up when everything goes wrong?", [CLARA_STEADY], "role trait heavy"),
    ("How has the parentless girl been harmed?", ["t84", "t92", "t93"], "role wound heavy"),
    ("What did Clara Voss lose when Ellery Dunn beat her in the schoolhouse?", ["t93", ["f240", "f241"]],
     "name wound outcome scene place moderate"),
    ("What went wrong for Clara Voss at the lighthouse?", [["f233", "f234"], "t92"],
     "name wound scene place moderate"),
    ("Whom has the orphan killed?", [CLARA_KILLS_MOTHER, CLARA_KILLS_ROSE], "role outcome moderate"),
    ("Who dragged the paranormal investigator into the dark in the attic room?", ["f247"],
     "role deed scene place light"),
    ("Whom has Clara Voss prayed alongside?", [["f225", "f305", "f223", "f226", "f312"], ["f237", "f249"]],
     "name deed moderate"),
    ("Who lied to the innkeeper at the schoolhouse?", ["f279"], "role deed scene place moderate"),
    ("Whom did Clara Voss shelter at the lighthouse?", [["f219", "f232", "f220"]], "name deed scene place light"),
    ("Who comforted the medium in the flooded cellar?", ["f68"], "role deed scene place light"),
    # Thomas Greer, the schoolteacher
    ("What is the schoolteacher out to prove?", [THOMAS_HOAX], "role trait moderate"),
    ("Who thinks the ghost story is a trick?", [THOMAS_HOAX], "none trait heavy"),
    ("What wounds did Thomas Greer take?", ["t57", "t70", "t82"], "name wound light"),
    ("Who bit the schoolteacher?", [["f56", "f57"], "t57"], "role wound outcome moderate"),
    ("Whom did Thomas Greer kill?", [THOMAS_KILLS_AGNES], "name outcome light"),
    ("How did the schoolteacher die?", ["f264", ELLERY_KILLS_THOMAS], "role outcome moderate"),
    ("Whom did Thomas Greer beat in the attic room?", ["f104", ["f109", "f110"]], "name outcome scene place light"),
    ("Who beat the schoolteacher on the marsh road?", [["f138", "f139"], ["f165", "f166", "f169", "f170"]],
     "role outcome scene place light"),
    ("Whom did the schoolteacher confide in at the lighthouse?", ["f195"], "role deed scene place moderate"),
    ("Who accused the innkeeper down in the flooded cellar?", ["f264"], "role deed scene place moderate"),
    ("Where did Thomas Greer come into the story?", [["t22", "t23", "t24", "f17"]], "name scene place moderate"),
    # Agnes Whitlow, the lighthouse keeper
    ("What is Agnes Whitlow's job?", ["t6"], "name trait moderate"),
    ("Whom is the lighthouse keeper secretly in love with?", ["t68"], "role trait light"),
    ("Who carries a torch for the medium?", ["t68"], "role trait heavy"),
    ("What does the lighthouse keeper want most?", [AGNES_LEAVE], "role trait moderate"),
    ("Who just wants to get away from this place with their life?", [AGNES_LEAVE], "none trait heavy"),
    ("Who keeps humming a lullaby?", [["t85", "f201"]], "none trait light"),
    ("Who can never set foot inside the church?", ["t80", "t86"], "none trait heavy"),
    ("What happened to Agnes Whitlow at the lighthouse?", [["f181", "f182"], "t91", ["f196", "f197"],
                                                          THOMAS_KILLS_AGNES],
     "name wound outcome scene place light"),
    ("Who beat the lighthouse keeper in her own tower?", [["f181", "f182"], ["f196", "f197"], THOMAS_KILLS_AGNES],
     "role outcome scene placedesc heavy"),
    ("Who prayed with Agnes Whitlow on the marsh road?", ["f176"], "name deed scene place light"),
    # Edith Henley, the medium
    ("Who talks to spirits for a living?", ["t30"], "none trait heavy"),
    ("How did the medium die?", ["f133", "f134"], "role outcome moderate"),
    ("Whose death is on the spiritualist's conscience?", [EDITH_KILLS_IVY], "role outcome heavy"),
    ("Who killed the village priest?", [EDITH_KILLS_IVY], "role outcome light"),
    ("What wounds did Edith Henley suffer?", ["t66", "t69"], "name wound light"),
    ("Who beat the medium in the flooded cellar, and what did it cost her?", [["f70", "f71", "f72"], "t66"],
     "role outcome wound scene place moderate"),
    ("Did Edith Henley ever get the better of Ellery Dunn?", [["f77", "f78"]], "name outcome moderate"),
    ("Who looked after the medium on the road across the bog?", [ROSE_CARES_FOR_EDITH],
     "role deed scene placedesc heavy"),
    ("What did Edith Henley do to Simon Larch in the schoolhouse?", ["f26"], "name deed scene place light"),
    # Rose Tilney, the paranormal investigator
    ("What is Rose Tilney's line of work?", ["t51"], "name trait moderate"),
    ("Who hunts ghosts for a living?", ["t51"], "none trait heavy"),
    ("Whom has Rose Tilney sworn to settle things with?", ["t81"], "name trait light"),
    ("How did Rose Tilney die?", ["f268", CLARA_KILLS_ROSE], "name outcome moderate"),
    ("Who beat the innkeeper at the schoolhouse in scene ten?", [["f244", "f245"]],
     "role outcome scene place light"),
    ("Who made the innkeeper back down on the marsh road?", [["f177", "f178"]], "role outcome scene place moderate"),
    ("Who has gone weeks without sleep?", [MOTHER_SLEEPLESS, ROSE_SLEEPLESS], "none trait heavy"),
    ("Who hasn't slept in days?", ["t3", "t78", "t88"], "none trait light"),
    # Simon Larch, the skeptical doctor
    ("What does the skeptical doctor hope to do?", [SIMON_GHOST], "role trait light"),
    ("Who wants to put the spirit at peace?", [SIMON_GHOST], "none trait heavy"),
    ("Who can see things nobody else can?", ["t38"], "none trait moderate"),
    ("How did the doctor die?", [ELLERY_KILLS_SIMON, "t39"], "role outcome moderate"),
    ("Whom did Simon Larch beat before he died?", [SIMON_BEATS_ELLERY_SCHOOL], "name outcome light"),
    ("Whom did the doubting physician scare?", ["f31"], "role deed heavy"),
    # Nathaniel Crowe, the gravedigger
    ("Whom is the gravedigger hunting?", ["t44"], "role trait light"),
    ("How did Nathaniel Crowe die?", ["f46", ELLERY_KILLS_NATHANIEL, "t53"], "name outcome moderate"),
    ("What did Nathaniel Crowe do in the old manor?", ["f43", "f44", "f45", "f46"], "name deed scene place light"),
    ("Whom did the man who digs the graves confide in at the school?", ["f14"], "role deed scene placedesc heavy"),
    # Ivy Pell, the village priest
    ("What is the village priest searching for?", [IVY_CHILD], "role trait light"),
    ("Who is looking for a lost little one?", [IVY_CHILD], "none trait heavy"),
    ("Where did Ivy Pell die, and at whose hand?", [EDITH_KILLS_IVY], "name outcome scene place moderate"),
    # Places, by name and by description
    ("What is the old manor like?", ["f60", "f63", "f64", "f65"], "none place light"),
    ("What is strange about the lighthouse?", ["f186", "f193", "f202", "f203", "f204", "f209"], "none place light"),
    ("Where does a clock run backwards?", ["f114", "f160", "f186", "f293"], "none place moderate"),
    ("Which places murmur from inside their walls?", ["f60", "f107", "f157", "f193", "f296"], "none place heavy"),
    ("What does the schoolhouse smell of?", [SCHOOLHOUSE_EARTH], "none place light"),
    ("Where does it smell like freshly turned soil?", ["f65", "f117", "f124", "f204", SCHOOLHOUSE_EARTH],
     "none place heavy"),
    ("Which places have doors that won't stay closed?", ["f64", "f94", "f155", "f203", "f298"],
     "none place moderate"),
    ("Where did the story begin, and on what night?", [["f1", "t5"], "f2"], "none scene place moderate"),
    ("Does all this happen on Halloween?", ["f2"], "none scene heavy"),
    # What happened in a scene at a place whose events do not name it
    ("What happened in the churchyard?", ["f36", "f37", MOTHER_BEATS_ELLERY_CHURCHYARD, "t45", "t44",
                                          ["t46", "t47"]], "none scene place light"),
    ("Who died in the flooded cellar?", [ELLERY_KILLS_THOMAS, CLARA_KILLS_ROSE], "none outcome scene place light"),
    ("Who died at the schoolhouse?", [ELLERY_KILLS_SIMON], "none outcome scene place light"),
    ("Who was killed in the haunted house?", [ELLERY_KILLS_NATHANIEL], "none outcome scene placedesc moderate"),
    ("Who died on the road across the bog?", ["f134"], "none outcome scene placedesc heavy"),
    ("Who lost their lives up in the garret?", [CLARA_KILLS_MOTHER, EDITH_KILLS_IVY],
     "none outcome scene placedesc heavy"),
    ("Who read the drowned girl's diary in the old manor?", ["f45", "f58"], "none deed scene place light"),
    ("Who wound the music box at the lighthouse?", ["f187", "f200"], "none deed scene place light"),
    ("Who sprinkled salt across the doorway in the garret?", ["f87", "f108"], "none deed scene placedesc heavy"),
    ("Who read the dead girl's journal in the schoolhouse?", [["f8", "f288"], "f311"],
     "none deed scene place moderate"),
    ("Who was digging in the flooded cellar?", ["f75"], "none deed scene place moderate"),
    ("Who lit candles in the lighthouse?", [["f194", "f211"]], "none deed scene place light"),
    ("Who held up a light against the dark on the road across the bog?", ["f122", ["f147", "f164"]],
     "none deed scene placedesc heavy"),
    ("Who rummaged through the loft up in the garret?", ["f80", "f103", "f119"], "none deed scene placedesc heavy"),
    ("Who put an ear to a door in the schoolhouse?", ["f13", "f308"], "none deed scene place moderate"),
    # Wounds and deaths across the game
    ("Who has had teeth sunk into them?", ["t25", "t54", "t57", "t84", "t91"], "none wound heavy"),
    ("Who was left badly shaken?", ["t39", "t45", "t53", "t66", "t75", "t82"], "none wound moderate"),
    ("Who was clawed down to the bone?", ["t10", "t34", "t69", "t70", "t92"], "none wound heavy"),
    ("Who twisted an ankle?", ["t71"], "none wound heavy"),
    ("Who died in the first seven scenes?", ["f33", "f48", "f97", "f101"], "none outcome moderate"),
    ("Who was killed after the seventh scene?", ["f134", "f217", "f266", "f270"], "none outcome moderate"),
    ("Who came out on top in the very last scene?", [["f306", "f307"]], "none outcome scene heavy"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids x1, x2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "x",
                       "eval/memory/probe_game6.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())
