"""An eighth memory probe from a played game, written blind: eval/data/probe_game8.jsonl plus questions.

Why an eighth game: probe_game7 (the space opera) was the held-out test, and its
results have been read since. This one is a fresh held-out test, a noir story
(probe_game3's genre, now told by the heuristic narrator as it stands, with solo
deeds capped per scene), another seed and its own cast: questions written without
looking at the retrieval code, its results or any search over these Facts; only by
reading the game's Facts and its log (to know who won which conflict, who was hurt
and who died) and asking what a player at the table would ask. Nobody tunes on it.

The log was played with (seed 81, noir, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=81,
                  premise="A noir story about a crooked harbour city where a dockworkers' strike "
                          "hides a string of murders",
                  log_path="eval/data/probe_game8.jsonl")

It holds 317 Facts (the first seed tried, at the usual 14 scenes; the narration is
noir as asked). The premise's strike, dockworkers and murders never appear: the
Tenets and cast are the stock noir ones (cops and crooks at the same bar, everyone
on someone's payroll, rain after midnight), and many deeds are the same few stock
ones ("reads the ledger", "searches the office", "burns a letter in the sink")
done by everyone in every scene, some where they hardly fit (an office searched in
an alley or on the docks). Scenes 11 to 13 restate most Tenets and the same six
place details (tapped phone, neon, goons, fish, smoke, quiet) at each place.

What the game holds: four deaths among ten characters. The torch singer kills Sal
Benedetti (the private eye) at the mayor's mansion (scene 4); the reporter kills
Mickey Flynn (the bartender) at the docks at night (scene 6) and Vera Lisle (the
widow) there too (scene 13); Nell Shaw (the union boss) falls to no one's hand at
the Blue Note club (scene 8). Six more deaths (Ruby Kane, the cab driver, Vera
Lisle in scene 11, Leo Grayson, the torch singer, the reporter) were challenged
and withdrawn, so some ids are missing. The reporter is at the centre: beaten and
beating Mickey Flynn at the precinct house, Ruby Kane (the crooked cop) again and
again (the diner, the Blue Note club, the alley, and the last clash of the game in
the cheap hotel room), helped in the alley by Leo Grayson (the bootlegger) and in
the hotel room by Jack Malone (the mob accountant).

How the questions were written, as for probe_game7: characters are asked about by
name and, about as often, only by their role or description ("the bartender", "the
widow", "the bootlegger", "the union boss", "the crooked cop", "the mob
accountant", "the private eye"; the reporter, the torch singer and the cab driver
have no other name). Places are asked about by name and by description ("the
police station", "the mayor's house", "the waterfront", "the jazz club", "the
flophouse", "the wet backstreet"), and so is what happened in a scene at a place
whose events do not name it (who died at the docks, who burned a letter at the
Blue Note club). Some are worded close to the Facts, some moderately, some heavily
(about a third each). `relevant` lists what a full answer needs; an inner list is
a group of Facts saying the same thing (a Trait restated in events, the same deed
done twice, a defeat told once from each side), any one of which counts as that
item recalled; each group was completed by grepping the whole Fact list for every
wording of it. Questions whose true answer would be more than six items were made
more specific. Tags use probe_game2's vocabulary. All questions are asked at the
end of the game (scene 14).

    python -m eval.memory.probe_game8    # replay the log, rewrite eval/data/memory_probe_game8.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game8.jsonl"
OUT = DATA / "memory_probe_game8.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

# Tenets restated later as a detail of a place
TENET_PAST = ["T2", "f143", "f173"]
TENET_COPS = ["T3", "f23", "f56"]
TENET_PAYROLL = ["T4", "f210"]
TENET_PHOTO = ["T5", "f174"]
TENET_RAIN = ["T6", "f151", "f212"]
# Traits restated in events ("The reporter, cool under pressure, ...")
REPORTER_LEDGER = ["t2", "f55", "f80", "f103", "f167", "f186", "f207"]
REPORTER_BODIES = ["t3", "f54", "f155"]
REPORTER_LIES = ["t4", "f2", "f80", "f117", "f130"]
REPORTER_COOL = ["t16", "f9", "f49", "f161", "f168", "f177", "f206", "f223"]
MICKEY_GUN = ["t12", "f10", "f14", "f21", "f22", "f57"]
VERA_RACKETS = ["t30", "f28", "f52", "f65", "f141"]
VERA_PAID = ["t52", "f108"]
VERA_COOL = ["t56", "f90", "f106", "f135"]
LEO_STORY = ["t26", "f125", "f180"]
LEO_LIES = ["t59", "f113", "f118", "f164", "f181", "f184"]
NELL_RUIN = ["t35", "f91"]
NELL_BOOKS = ["t69", "f92"]
JACK_BOOKS = ["t81", "f196", "f199"]
JACK_GUN = ["t77", "f200"]
SAL_CASH = ["t42", "f41"]
TORCH_LIES = ["t75", "f191"]
# Deaths told once from each side (the winner's line and the loser's)
REPORTER_KILLS_MICKEY = ["f69", "f70"]
REPORTER_KILLS_VERA = ["f203", "f204"]
TORCH_KILLS_SAL = ["f44", "f45"]
NELL_FALLS = ["f93", "f94"]
# The same defeat told twice
RUBY_BEATS_REPORTER_DINER = ["f81", "f82"]
REPORTER_BEATS_LEO_CLUB = ["f114", "f115"]
VERA_BEATS_LEO_HOTEL = ["f147", "f149"]
RUBY_BEATS_VERA_HOTEL = ["f136", "f138"]
RUBY_BEATS_JACK_HOTEL = ["f157", "f158"]
LEO_BEATS_REPORTER_ALLEY = ["f165", "f166"]
RUBY_BEATS_REPORTER_ALLEY = ["f187", "f188"]
REPORTER_BEATS_JACK_DOCKS = ["f197", "f198"]
REPORTER_BEATS_RUBY_HOTEL = ["f229", "f230"]
LEO_BEATS_RUBY_DOCKS = ["f73", "f75"]
SAL_BEATS_RUBY = ["f38", "f39"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (some restated later as a place detail: either counts)
    ("What happens to people who do the right thing here?", ["T1"], "none tenet heavy"),
    ("Does a good deed ever go unpunished in this town?", ["T1"], "none tenet light"),
    ("Can old secrets stay buried?", [TENET_PAST], "none tenet moderate"),
    ("Where do the police and the criminals do their drinking?", [TENET_COPS], "none tenet moderate"),
    ("Is there anyone in the city nobody is paying off?", [TENET_PAYROLL], "none tenet heavy"),
    ("What is hidden in every snapshot?", [TENET_PHOTO], "none tenet heavy"),
    ("What is the weather like after midnight?", [TENET_RAIN], "none tenet moderate"),
    ("Does it rain in the small hours?", [TENET_RAIN], "none tenet heavy"),
    # The reporter (no other name)
    ("What does the reporter want back?", [REPORTER_LEDGER], "role trait light"),
    ("Who is trying to recover the account book?", [REPORTER_LEDGER], "none trait heavy"),
    ("What secret does the reporter know about the dead?", [REPORTER_BODIES], "role trait moderate"),
    ("Who knows where the corpses were hidden?", [REPORTER_BODIES], "none trait heavy"),
    ("Is the newspaperman an honest person?", [REPORTER_LIES], "role trait heavy"),
    ("How does the reporter hold up when things get tense?", [REPORTER_COOL], "role trait moderate"),
    ("Who stays calm under pressure?", [REPORTER_COOL, VERA_COOL, "t78"], "none trait light"),
    ("Who has sworn to protect the reporter?", [["t18", "t19"]], "role trait light"),
    ("What injuries has the reporter taken?", ["t9", "t49", "t51"], "role wound light"),
    ("Who gave the journalist a black eye at the police station?", ["f6", "t9"],
     "role wound outcome scene placedesc heavy"),
    ("How did the reporter get shot in the shoulder at the mayor's mansion?", ["f50", "t51"],
     "role wound scene place moderate"),
    ("Whom did the reporter kill?", [REPORTER_KILLS_MICKEY, REPORTER_KILLS_VERA], "role outcome light"),
    ("Whom did the reporter beat in the first scene at the precinct house?", [["f3", "f4"]],
     "role outcome scene place light"),
    ("Who won when Mickey Flynn tailed the reporter in the police station?", [["f12", "f13"], "t20"],
     "name outcome scene placedesc moderate"),
    ("Who made the reporter back down at the all-night diner?", [RUBY_BEATS_REPORTER_DINER],
     "role outcome scene place light"),
    ("Who got the better of the reporter in the rain-soaked alley?", [LEO_BEATS_REPORTER_ALLEY,
                                                                       RUBY_BEATS_REPORTER_ALLEY],
     "role outcome scene place light"),
    ("Whom did the newsman defeat at the jazz club?", [REPORTER_BEATS_LEO_CLUB, "f101"],
     "role outcome scene placedesc heavy"),
    ("Whom did the reporter frame?", ["f9"], "role deed light"),
    ("Whom did the reporter bribe?", ["f62", "f220"], "role deed light"),
    ("Who tried to buy the reporter off?", ["f43", "f181"], "role deed heavy"),
    ("Who tipped off the reporter?", ["f42", "f180", ["f196", "f221"]], "role deed light"),
    ("Who bandaged the reporter in the back lane?", ["f185"], "role deed scene placedesc heavy"),
    ("Whom did the reporter patch up in the cheap hotel room?", ["f223"], "role deed scene place light"),
    ("Who threatened the reporter at the diner?", ["f122"], "role deed scene placedesc moderate"),
    ("Who did the reporter lean on in the flophouse?", ["f130"], "role deed scene placedesc heavy"),
    ("Whom did the reporter stand a round?", ["f2", "f155"], "role deed heavy"),
    ("Who stood by the reporter in the last scene?", [["f219", "f222"]], "role deed scene heavy"),
    # Mickey Flynn, the bartender
    ("What does Mickey Flynn do for a living?", ["t6"], "name trait moderate"),
    ("Who tends bar?", ["t6"], "none trait heavy"),
    ("Is Mickey Flynn handy with a pistol?", [MICKEY_GUN], "name trait moderate"),
    ("Whom will the bartender never trust again?", ["t8"], "role trait light"),
    ("Whom did the barman vow to get even with?", ["t10"], "role trait heavy"),
    ("What wounds did Mickey Flynn take before he died?", ["t20", "t57"], "name wound light"),
    ("How did Mickey Flynn die?", [REPORTER_KILLS_MICKEY], "name outcome moderate"),
    ("What became of the bartender on the waterfront?", [REPORTER_KILLS_MICKEY, "t57"],
     "role outcome scene placedesc heavy"),
    ("What did Mickey Flynn do with a letter at the precinct house?", ["f10"], "name deed scene place light"),
    ("Whom did Mickey Flynn interrogate at the docks?", ["f68"], "name deed scene place light"),
    ("What did the bartender pocket?", [["f22", "f30", "f58"]], "role deed moderate"),
    ("Whom did the barkeep shadow through the station house?", ["f11"], "role deed scene placedesc heavy"),
    ("What does Mickey Flynn know about the reporter?", ["t11", "t13"], "name trait moderate"),
    ("What did Mickey Flynn get up to in the mayor's mansion?", [["f30", "f58"], "f31", ["f57", "f60"], "f59"],
     "name deed scene place moderate"),
    # The cab driver (no other name)
    ("What does the cab driver want to find out?", ["t70"], "role trait light"),
    ("Who is hunting her husband's killer?", ["t70"], "none trait heavy"),
    ("Who framed the cab driver at the precinct house?", ["f9"], "role deed scene place light"),
    ("Who covered for the taxi driver in the mayor's house?", ["f48"], "role deed scene placedesc heavy"),
    ("Who interrogated the cab driver in the Blue Note club?", ["f97"], "role deed scene place light"),
    ("Who followed the cabbie around?", ["f25"], "role deed heavy"),
    ("Where was the cab driver absent?", ["f144", "f176", "f217"], "role scene moderate"),
    # Vera Lisle, the widow
    ("What does Vera Lisle want?", [VERA_RACKETS], "name trait light"),
    ("Who wants to quit organised crime?", [VERA_RACKETS], "none trait heavy"),
    ("Who is the widow?", ["t21"], "role trait light"),
    ("Whom is the widow in debt to?", ["t31"], "role trait moderate"),
    ("Who is in debt to the gangsters?", ["t31", "t34"], "none trait heavy"),
    ("Who is on the mayor's payroll?", [VERA_PAID, "t82"], "none trait moderate"),
    ("Who falls for a well-told lie?", ["t25", "t53"], "none trait heavy"),
    ("What injuries did Vera Lisle suffer?", ["t55", "t76"], "name wound light"),
    ("Who blackened the widow's eye in the cheap hotel room?", [RUBY_BEATS_VERA_HOTEL, "t76"],
     "role wound outcome scene place moderate"),
    ("Whom did Vera Lisle shoot at?", ["f135"], "name deed light"),
    ("Who killed Vera Lisle?", [REPORTER_KILLS_VERA], "name outcome light"),
    ("How did the widow die on the waterfront at night?", [REPORTER_KILLS_VERA],
     "role outcome scene placedesc heavy"),
    ("Whom did Vera Lisle beat in the rented room?", [VERA_BEATS_LEO_HOTEL, "t79"],
     "name outcome scene placedesc heavy"),
    ("What did Vera Lisle do at the Blue Note club the second time?", ["f106", "f107", "f108", "f109", "f110"],
     "name deed scene place moderate"),
    ("Who bought the widow a drink in the hotel room?", ["f155"], "role deed scene placedesc moderate"),
    # Leo Grayson, the bootlegger
    ("What is Leo Grayson's line of work?", ["t23"], "name trait moderate"),
    ("Who smuggles illegal liquor?", ["t23"], "none trait heavy"),
    ("What does Leo Grayson hope to see in print?", [LEO_STORY], "name trait light"),
    ("Who wants a truthful article published?", [LEO_STORY], "none trait heavy"),
    ("Does the bootlegger tell the truth?", [LEO_LIES], "role trait moderate"),
    ("Who has a drinking problem?", ["t61"], "none trait heavy"),
    ("Whom will Leo Grayson not trust again?", ["t60"], "name trait light"),
    ("What injuries has Leo Grayson taken?", ["t71", "t79"], "name wound light"),
    ("Who concussed the bootlegger in the cheap hotel room?", [VERA_BEATS_LEO_HOTEL, "t79"],
     "role wound outcome scene place moderate"),
    ("Who beat Leo Grayson at the Blue Note club?", [REPORTER_BEATS_LEO_CLUB, "t71"],
     "name outcome scene place light"),
    ("Whom did the bootlegger get the better of at the docks?", [LEO_BEATS_RUBY_DOCKS, "t58"],
     "role outcome scene place moderate"),
    ("Who dressed Leo Grayson's wounds?", ["f132"], "name deed heavy"),
    ("Who did the booze runner tip off in the cheap hotel?", ["f146"], "role deed scene place heavy"),
    ("Who covered for Leo Grayson in the rain-soaked alley?", ["f177"], "name deed scene place light"),
    ("What did Leo Grayson do for the reporter in the alley?", [["f178", "f184"], "f179", "f180", "f181", "f185"],
     "name deed scene place moderate"),
    ("Where was Leo Grayson missing from?", ["f87", "f216"], "name scene moderate"),
    # The torch singer (no other name)
    ("What secret does the torch singer know?", ["t74"], "role trait light"),
    ("Who knows something the mayor is hiding?", ["t74"], "none trait moderate"),
    ("What wounds has the torch singer taken?", ["t29", "t73", "t86"], "role wound light"),
    ("How did the nightclub vocalist get a black eye in the hotel room?", [["f133", "f134"], "t73"],
     "role wound scene placedesc heavy"),
    ("Who killed Sal Benedetti?", [TORCH_KILLS_SAL], "name outcome light"),
    ("Whom did the singer kill at the mayor's mansion?", [TORCH_KILLS_SAL], "role outcome scene place moderate"),
    ("Whom did the torch singer kiss at the docks?", ["f190"], "role deed scene place light"),
    ("Who sold out the torch singer?", ["f160"], "role deed light"),
    ("Who betrayed the chanteuse in the wet backstreet?", ["f160"], "role deed scene placedesc heavy"),
    ("Who questioned the torch singer in the mayor's mansion?", ["f33"], "role deed scene place moderate"),
    ("Who bought the torch singer a drink at the all-night diner?", ["f77"], "role deed scene place light"),
    ("Who is hard to break?", ["t84", "t87"], "none trait heavy"),
    # Nell Shaw, the union boss
    ("Who leads the union?", ["t32"], "none trait moderate"),
    ("What does Nell Shaw want for the mayor?", [NELL_RUIN], "name trait light"),
    ("Who wants to see the mayor brought down?", [NELL_RUIN], "none trait heavy"),
    ("Who keeps a second set of books?", [NELL_BOOKS, JACK_BOOKS], "none trait light"),
    ("Who cooks the accounts on the side?", [NELL_BOOKS, JACK_BOOKS], "none trait heavy"),
    ("What happened to Nell Shaw at the Blue Note club?", [NELL_FALLS], "name outcome scene place light"),
    ("Whom does Nell Shaw owe?", ["t34"], "name trait moderate"),
    ("What was Nell Shaw up to at the Blue Note club before she fell?", ["f91", "f92"],
     "name deed scene place moderate"),
    ("How did the union leader meet their end at the jazz club?", [NELL_FALLS], "role outcome scene placedesc heavy"),
    ("What did the union boss do in the mayor's mansion?", ["f29"], "role deed scene place moderate"),
    # Ruby Kane, the crooked cop
    ("What is Ruby Kane?", ["t36"], "name trait moderate"),
    ("Which police officer is on the take?", ["t36"], "none trait heavy"),
    ("Whom has Ruby Kane sworn revenge on?", ["t46", "t64"], "name trait moderate"),
    ("What does Ruby Kane know about Leo Grayson?", ["t62", "t65"], "name trait light"),
    ("Whom did Ruby Kane interrogate?", ["f33", "f97"], "name deed light"),
    ("What injuries has the crooked cop suffered?", ["t43", "t58", "t68"], "role wound light"),
    ("Who concussed Ruby Kane?", [LEO_BEATS_RUBY_DOCKS, "t58"], "name wound outcome moderate"),
    ("Who gave the dirty cop a shiner in the mayor's mansion?", [SAL_BEATS_RUBY, "t43"],
     "role wound outcome scene place heavy"),
    ("Whom did Ruby Kane beat in the cheap hotel room?", [RUBY_BEATS_VERA_HOTEL, RUBY_BEATS_JACK_HOTEL],
     "name outcome scene place light"),
    ("Who beat Ruby Kane in the last scene?", [REPORTER_BEATS_RUBY_HOTEL], "name outcome scene moderate"),
    ("Who framed the crooked cop?", ["f37"], "role deed light"),
    ("Who did the corrupt officer double-cross?", ["f160"], "role deed heavy"),
    ("Whom did Ruby Kane protect in the mansion?", ["f48"], "name deed scene placedesc moderate"),
    ("Who gave Ruby Kane an alibi on the waterfront?", ["f191"], "name deed scene placedesc heavy"),
    ("Who paid off Ruby Kane?", ["f62"], "name deed moderate"),
    # Jack Malone, the mob accountant
    ("What does Jack Malone do?", ["t38"], "name trait moderate"),
    ("Who keeps the books for the mob?", ["t38"], "none trait moderate"),
    ("Who is sick of the city?", ["t47", "t80"], "none trait heavy"),
    ("Who is quick on the draw?", [MICKEY_GUN, JACK_GUN], "none trait moderate"),
    ("What wounds has Jack Malone taken?", ["t83", "t88"], "name wound light"),
    ("Who is paying Jack Malone?", ["t82", "f220"], "name trait deed moderate"),
    ("Whom did Jack Malone tip off at the docks?", ["f196"], "name deed scene place light"),
    ("Who shot the mob's bookkeeper in the shoulder at the docks?", [REPORTER_BEATS_JACK_DOCKS, "t88"],
     "role wound outcome scene place heavy"),
    ("Who cracked Jack Malone's knuckles?", [RUBY_BEATS_JACK_HOTEL, "t83"], "name wound outcome moderate"),
    ("Who patched up the mob accountant?", ["f223"], "role deed light"),
    ("What did Jack Malone do in the mayor's mansion?", ["f34", "f35", "f36"], "name deed scene place light"),
    # Sal Benedetti, the private eye
    ("What does Sal Benedetti do for a living?", ["t40"], "name trait moderate"),
    ("Who is the private detective?", ["t40"], "none trait moderate"),
    ("What does Sal Benedetti want?", [SAL_CASH], "name trait light"),
    ("Whom did Sal Benedetti swear to settle things with?", ["t44"], "name trait light"),
    ("What did Sal Benedetti do for the reporter?", ["f42", "f43"], "name deed moderate"),
    ("Who wants the money to get out of town?", [SAL_CASH], "none trait moderate"),
    ("Who was let out of prison early and must report to an officer?", ["t48"], "none trait heavy"),
    ("How did the private eye die?", [TORCH_KILLS_SAL], "role outcome moderate"),
    ("Whom did the gumshoe beat before being killed?", [SAL_BEATS_RUBY], "role outcome heavy"),
    ("Who tells lies as easily as breathing?", [REPORTER_LIES, LEO_LIES, TORCH_LIES, "t45"], "none trait light"),
    # Places, by name and by description
    ("What does the cheap hotel room look, smell and sound like?", ["f145", "f150", "f152", "f154"],
     "none place light"),
    ("What does the rain-soaked alley look, smell and sound like?", ["f170", "f172", "f175", "f182"],
     "none place light"),
    ("What is the waterfront like at night?", ["f210", "f211", "f212", "f213", "f214", "f215"], "none placedesc heavy"),
    ("Where is the phone bugged?", ["f89", "f131", "f171", "f211"], "none place moderate"),
    ("Where does it stink of fish?", ["f145", "f175", "f215"], "none place light"),
    ("Which places do thugs keep an eye on?", ["f128", "f153", "f183", "f214"], "none place heavy"),
    ("Where are the neon lights?", ["f17", "f154", "f182", "f213"], "none place moderate"),
    ("Where is it as silent as the grave?", ["f152", "f172"], "none place moderate"),
    ("Where is the air thick with smoke?", ["f150", "f170"], "none place moderate"),
    ("What is the police station like?", ["f17", "f23"], "none placedesc heavy"),
    ("Is the diner being watched?", ["f128"], "none place moderate"),
    ("Where did the story begin?", [["f1", "t5"]], "none scene place moderate"),
    ("Where did the last scene take place?", ["f218"], "none scene place moderate"),
    # What happened in a scene at a place whose events do not name it
    ("Who died at the docks at night?", [REPORTER_KILLS_MICKEY, REPORTER_KILLS_VERA], "none outcome scene place light"),
    ("Who died at the mayor's mansion?", [TORCH_KILLS_SAL], "none outcome scene place light"),
    ("Who lost their life at the nightclub?", [NELL_FALLS], "none outcome scene placedesc heavy"),
    ("Who searched the office at the Blue Note club?", ["f91", "f107"], "none deed scene place light"),
    ("Who read the ledger at the Blue Note club?", ["f88", ["f103", "f116"]], "none deed scene place light"),
    ("Who burned a letter in the jazz club?", ["f92", "f109", "f119"], "none deed scene placedesc heavy"),
    ("Who read the ledger in the rain-soaked alley?", ["f161"], "none deed scene place moderate"),
    ("Who pocketed the evidence at the docks?", ["f208"], "none deed scene place moderate"),
    ("Who pocketed the evidence in the rain-soaked alley?", ["f164"], "none deed scene place light"),
    ("Who searched the office in the cheap hotel room in the final scene?", ["f228"], "none deed scene place moderate"),
    ("Who poured drinks at the all-night diner?", ["f126"], "none deed scene place moderate"),
    ("Who made phone calls in the hotel room?", ["f141"], "none deed scene place moderate"),
    ("Who searched the office at the all-night diner?", ["f125"], "none deed scene place light"),
    ("Who got through the trouble at the docks unharmed?", ["f63"], "none outcome scene place moderate"),
    ("Who came off badly at the docks the second time we went there?", [["f193", "f195"], REPORTER_BEATS_JACK_DOCKS,
                                                                        REPORTER_KILLS_VERA],
     "none outcome scene place moderate"),
    ("Who stayed away from the Blue Note club on the second night?", ["f120"], "none scene place light"),
    # Wounds and deaths across the game
    ("Who has a black eye?", ["t9", "t43", "t73", "t76"], "none wound light"),
    ("Who was shot in the shoulder?", ["t20", "t29", "t51", "t88"], "none wound moderate"),
    ("Who has been concussed?", ["t58", "t79"], "none wound moderate"),
    ("Who has bruised and split knuckles?", ["t83", "t86"], "none wound heavy"),
    ("Who no longer has the picture?", ["t49", "t55", "t57", "t68", "t71"], "none wound heavy"),
    ("Who has been killed so far?", [TORCH_KILLS_SAL, REPORTER_KILLS_MICKEY, NELL_FALLS, REPORTER_KILLS_VERA],
     "none outcome light"),
    ("Who died in the first half of the story?", [TORCH_KILLS_SAL, REPORTER_KILLS_MICKEY], "none outcome moderate"),
    ("Who won the final fight of the story?", [REPORTER_BEATS_RUBY_HOTEL], "none outcome scene heavy"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids z1, z2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "z",
                       "eval/memory/probe_game8.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())
