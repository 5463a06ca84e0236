"""A third memory probe from a played game, written blind: eval/data/probe_game3.jsonl plus questions.

Why a third game: the first two probes (probe_game.py, a space opera; probe_game2.py,
a dark fantasy) have both been looked at while the retrieval method was tuned, so
even the "held-out" one is no longer untouched. This one is the final held-out
test: a third genre (noir), another seed, questions written without looking at the
retrieval code, its results or any search over these Facts: only by reading the
game's Facts and its transcript (to know who won which conflict and who died) and
asking what a player at the table would ask. Nobody tunes on it.

The log was played with (seed 22, noir, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=22,
                  premise="A noir of a rain-soaked city where every cop is on the mob's payroll",
                  log_path="eval/data/probe_game3.jsonl")

It holds 315 Facts. (A western premise was tried first, but the heuristic narrator
has no western vocabulary and told it as a space opera, so the genre is noir.)

How the questions were written, as for probe_game2: characters are asked about by
name and, about as often, only by their role or description ("the cab driver" for
Ruby Kane, "the torch singer" for Vera Lisle; the widow and the bootlegger have no
other name); places by name and by description ("the jazz club", "the waterfront",
"the late-night eatery"), and what happened in a scene at a place whose events do
not name it (who died at the mansion, who read the ledger at the police station).
Some are worded close to the Facts, some moderately, some heavily (about a third
each). `relevant` lists what a full answer needs; an inner list is a group of Facts
saying the same thing (a Trait restated in events, the same deed done twice), any
one of which counts as that item recalled; each group was completed by reading the
whole Fact list for every restatement. Questions whose true answer would be more
than six items were made more specific. Tags use probe_game2's vocabulary. All
questions are asked at the end of the game (scene 14).

    python -m eval.memory.probe_game3    # replay the log, rewrite eval/data/memory_probe_game3.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game3.jsonl"
OUT = DATA / "memory_probe_game3.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

TIRED_VERA = ["t35", "f32", "f37", "f45", "f48", "f64", "f66", "f117", "f121"]
TOUGH_WIDOW = ["t78", "f162", "f172", "f187", "f202", "f204", "f205"]
WIDOW_GOAL = ["t3", "f2", "f157", "f172", "f180", "f199"]
VERA_GOAL = ["t34", "f32", "f42", "f54", "f64", "f94", "f116", "f130", "f148"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (two restated later as a place detail: either counts)
    ("Does the weather ever let up once the clock strikes twelve?", ["T1"], "none tenet heavy"),
    ("Where do the police and the criminals do their drinking?", [["T2", "f195"]], "none tenet moderate"),
    ("Can anyone keep their past buried here?", ["T3"], "none tenet light"),
    ("What happens to people who do a kindness in this town?", ["T4"], "none tenet heavy"),
    ("Is there anybody around here who isn't in somebody's pocket?", [["T5", "f194"]], "none tenet heavy"),
    ("What is hidden in every photograph?", ["T6"], "none tenet light"),
    # The widow
    ("What does the widow want to find out?", [WIDOW_GOAL], "role trait light"),
    ("Which character lost her spouse to a killer she is still hunting?", [WIDOW_GOAL], "none trait heavy"),
    ("To whom does the widow owe a favour?", ["t80"], "role trait light"),
    ("What does the widow know about the man who runs city hall?", ["t79"], "role trait heavy"),
    ("Which characters are in debt to the mob?", ["t4", "t17", "t52"], "none trait light"),
    ("Who has a drinking problem?", ["t82", ["t29", "f136"], "t64", ["t89", "f160", "f186"]], "none trait moderate"),
    ("What injuries has the widow picked up?", ["t91", "t98"], "role wound light"),
    ("Who bandaged the widow?", ["f160"], "role deed heavy"),
    ("Who kept buying the widow drinks?", [["f156", "f159", "f161"]], "role deed moderate"),
    ("Who slipped the widow some money?", ["f158"], "role deed heavy"),
    ("Who tried to blackmail the widow?", ["f148", "f164"], "role deed light"),
    ("Who set up the bootlegger, and did it work?", ["f187", "f188"], "role deed outcome moderate"),
    ("Who shadowed the widow at the late-night eatery?", ["f206"], "role deed scene placedesc heavy"),
    ("Who got the upper hand over the widow at the all-night diner?", ["f207"], "role outcome scene place moderate"),
    ("What did the widow do in the cheap hotel room?", ["f179", "f180", "f187", "f190"], "role scene place light"),
    ("Who stayed away from the jazz club while the others gathered there?", ["f97"],
     "none scene placedesc heavy"),
    ("What does the widow know about the private eye?", ["t83"], "role trait light"),
    ("Whom did the widow nurse back on her feet?", ["f172"], "role deed heavy"),
    # Ruby Kane, the cab driver
    ("Who killed Nell Shaw?", ["f103"], "name outcome light"),
    ("Who finished off the bootlegger?", ["f211"], "role outcome moderate"),
    ("Who makes a living behind the wheel of a taxi?", ["t9"], "none trait heavy"),
    ("What happened to Ruby Kane when she grabbed the evidence at the docks?", [["f4", "f5"], "t11"],
     "name outcome wound scene place moderate"),
    ("Who is taking the mayor's money?", [["t30", "f108", "f125", "f137"], "t60", "t68", "t93"],
     "none trait moderate"),
    ("Which characters are handy with a pistol?", ["t58", "t69", "t87"], "none trait heavy"),
    ("What has the cab driver learned about the widow?", ["t99", "t100"], "role trait moderate"),
    ("Whom did the widow cover for in the hotel room?", ["f180"], "role deed place light"),
    ("What did Ruby Kane do at the Blue Note club?", ["f99", "f101", ["f102", "f103"]], "name scene place light"),
    ("Which character has taken two lives?", ["f103", "f211"], "none outcome heavy"),
    # Frankie Doyle, the crooked cop
    ("Which lawman is bent?", ["t12"], "none trait heavy"),
    ("Who left Frankie Doyle with a bullet in him?", ["f106", "t70"], "name outcome wound moderate"),
    ("What was the crooked cop up to on the waterfront in the opening scene?", ["f6", "f7"],
     "role deed scene placedesc heavy"),
    ("Which character has a perfect memory for faces?", ["t72"], "none trait moderate"),
    ("Who is still pining after someone from years ago?", ["t23", "t74"], "none trait heavy"),
    ("What did Frankie Doyle do in the cheap hotel room?", ["f181", "f182"], "name scene place light"),
    ("What has the crooked cop learned about Sal Benedetti?", ["t71", "t73"], "role trait moderate"),
    # Jack Malone, the bartender
    ("What happened to the bartender?", ["f70"], "role outcome heavy"),
    ("What was Jack Malone doing for the singer when his luck ran out?", ["f68"], "name deed heavy"),
    ("Who knows where the corpses are hidden?", ["t18"], "none trait moderate"),
    ("What does the bartender want to get out of?", [["t16", "f68"]], "role trait light"),
    ("Who bought drinks for the bartender?", [["f64", "f66"]], "role deed light"),
    ("Who paid off the torch singer at the Blue Note club?", ["f67"], "role deed place moderate"),
    ("Who tipped off Vera Lisle?", ["f65"], "name deed light"),
    # Detective Hart, the union boss
    ("What does Detective Hart want back?", [["t28", "f22", "f40", "f77", "f133", "f164"]], "name trait light"),
    ("Who runs the union?", ["t19"], "none trait moderate"),
    ("Who has sworn to keep the union boss safe?", [["t56", "t57"]], "role trait moderate"),
    ("What did Nell Shaw do for Detective Hart at the docks?", ["f35", "f36"], "name deed place moderate"),
    ("What wounds has Detective Hart taken?", ["t26", "t47", "t61"], "name wound light"),
    ("Who sold out Detective Hart at the docks?", ["f11"], "name deed place light"),
    ("Whom did Detective Hart betray?", ["f25"], "name deed moderate"),
    ("Who got the upper hand over Detective Hart at the precinct house?", [["f23", "f29"]],
     "name outcome scene place moderate"),
    ("Who won when the union boss questioned Sal Benedetti?", [["f61", "f62"]], "role outcome heavy"),
    ("What did the union boss demand of the torch singer?", ["f22"], "role dialog heavy"),
    ("Whom did the union boss warn at the jazz club?", ["f40"], "role deed placedesc heavy"),
    ("What did Detective Hart do at the mayor's mansion?", ["f164", "f168"], "name scene place light"),
    ("Who killed Detective Hart?", ["f170"], "name outcome light"),
    ("Who has lost faith in Vera Lisle?", ["t41"], "name trait moderate"),
    # Nell Shaw, the mob accountant
    ("Whom does the mob accountant secretly love?", ["t53"], "role trait moderate"),
    ("Who taught Lorna Vance?", [["t54", "t55"]], "name trait moderate"),
    ("Who does the accounting for the gangsters?", ["t21"], "none trait heavy"),
    ("How did the mob accountant die?", ["f103"], "role outcome heavy"),
    # Sal Benedetti, the reporter
    ("Who killed the reporter?", ["f145"], "role outcome heavy"),
    ("What is the reporter saving up for?", [["t27", "f55", "f109", "f124", "f140"]], "role trait heavy"),
    ("Who keeps two sets of accounts?", [["t31", "f111"]], "none trait moderate"),
    ("What injuries did Sal Benedetti suffer before he died?", ["t45", "t50", "t62"], "name wound light"),
    ("Which characters no longer have the photograph?", ["t48", "t62", "t92"], "none wound moderate"),
    ("Who framed the reporter?", ["f42"], "role deed light"),
    ("Whom did the reporter tip off at the Blue Note club?", ["f55"], "role deed place light"),
    ("Who kept setting letters on fire by the waterfront?", [["f137", "f140", "f142"], "f14"],
     "none deed placedesc heavy"),
    ("Where did Sal Benedetti die?", ["f145"], "name outcome moderate"),
    # Vera Lisle, the torch singer
    ("What does Vera Lisle hope to get printed?", [VERA_GOAL], "name trait light"),
    ("Who sings for a living?", ["t32"], "none trait heavy"),
    ("Who is sick and tired of this town?", ["t2", TIRED_VERA, ["t88", "f159"], ["t95", "f209"]], "none trait moderate"),
    ("Who has sworn to get even with Detective Hart?", ["t39"], "name trait moderate"),
    ("Whom will the torch singer never trust again?", ["t37"], "role trait light"),
    ("What became of the torch singer when she leaned on the widow?", ["f150"], "role outcome heavy"),
    ("Who came out on top between Vera Lisle and Sal Benedetti in the rain-soaked alley?", [["f126", "f127"]],
     "name outcome scene place light"),
    ("What did Vera Lisle do in the alley?", ["f116", "f117", "f120", "f121"], "name scene place moderate"),
    ("Who patched up the reporter?", ["f32"], "role deed light"),
    ("Whom did Vera Lisle bribe?", ["f94"], "name deed light"),
    ("What wounds did the torch singer carry at the end?", ["t48", "t65", "t67"], "role wound moderate"),
    ("Who has beaten the torch singer in a fight?", [["f112", "f131"]], "role outcome heavy"),
    ("Who beat Vera Lisle at the Blue Note club?", ["f112"], "name outcome place light"),
    # Lorna Vance, the private eye
    ("Who killed Lorna Vance?", ["f176"], "name outcome light"),
    ("Whose life did the bootlegger take?", ["f176"], "role outcome moderate"),
    ("Who is serving out a conditional release from prison?", ["t8"], "none trait heavy"),
    ("Who wants to bring the mayor down?", [["t51", "f73", "f93", "f173"]], "none trait moderate"),
    ("Who falls for a sweet lie every time?", ["t46", "t59", "t63"], "none trait heavy"),
    ("Who shielded the widow at the mansion?", [["f173", "f174"]], "role deed place moderate"),
    ("Whom did Lorna Vance bribe?", ["f93"], "name deed light"),
    ("What wounds did the private eye take before dying?", ["t66", "t81", "t92"], "role wound moderate"),
    ("Who threatened Lorna Vance in the first scene?", ["f2"], "name deed scene light"),
    ("Who got the better of the private eye at the Blue Note club?", ["f80"], "role outcome scene place light"),
    ("Who beat Lorna Vance down on the waterfront?", ["f153"], "name outcome scene placedesc moderate"),
    # The bootlegger
    ("Which character can't bring themselves to cheat anyone?", ["t85"], "none trait heavy"),
    ("Who keeps a level head when things turn dangerous?", ["t90"], "none trait heavy"),
    ("Who is as hard as they come?", [TOUGH_WIDOW, ["t86", "f158"]], "none trait heavy"),
    ("What did the bootlegger do in the hotel room?", ["f183", "f184", "f185", "f186"], "role scene place moderate"),
    ("Who made a phone call at the precinct house?", ["f18"], "none deed scene place light"),
    # Places and scene structure
    ("Which places reek of fish?", ["f59", "f196"], "none place moderate"),
    ("Where is the telephone bugged?", ["t76", "f193"], "none place heavy"),
    ("Which places do thugs keep an eye on?", ["t77", "f197"], "none place heavy"),
    ("Which places are lit up by neon?", ["f38", "f163"], "none place moderate"),
    ("Where did the story open?", [["f1", "t5"]], "none place scene moderate"),
    ("Who pocketed the evidence at the police station?", ["f28"], "none deed placedesc heavy"),
    ("Who read the ledger at the police station?", ["f19"], "none deed scene placedesc moderate"),
    ("Who searched the office at the all-night diner?", ["f203"], "none deed place light"),
    ("Who pocketed the evidence at the diner at the very end?", ["f209"], "none deed scene placedesc moderate"),
    ("Who lit a cigarette and waited in the jazz club?", ["f51", "f77", "f98", "f111"],
     "none deed scene placedesc moderate"),
    ("Who rang somebody from the Blue Note club?", ["f41", ["f82", "f83"], "f101"], "none deed scene place moderate"),
    ("Who went through an office down at the docks?", ["f7", "f133", "f143"], "none deed scene place moderate"),
    ("Who was knocking back drinks down by the piers?", ["f9", "f134"], "none deed scene placedesc heavy"),
    ("Who pocketed evidence at the waterfront?", ["f3", "f138", "f152"], "none deed scene placedesc moderate"),
    ("When was the scene in the rain-soaked alley set?", ["f115"], "none time place light"),
    ("Which part of the story jumped back a decade?", ["f129"], "none time heavy"),
    # Deaths
    ("Who died at the mayor's mansion?", ["f170", "f176"], "none outcome scene place light"),
    ("Who lost their life at the late-night eatery?", ["f211"], "none outcome scene placedesc heavy"),
    ("Who died in the jazz club?", ["f70", "f103"], "none outcome scene placedesc heavy"),
    ("Who died at the docks?", ["f145", "f150"], "none outcome scene place light"),
    ("Which characters perished without anyone named as their killer?", ["f70", "f150"], "none outcome moderate"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids k1, k2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "k",
                       "eval/memory/probe_game3.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())
