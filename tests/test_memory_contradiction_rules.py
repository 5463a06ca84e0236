"""The offline contradiction judge's rules, one example each, from the tuning pairs (never the blind set).

Why: each rule (Tenets, one-way relations, kin, opposites, negation about the same
things, places, exclusive times, tenure, counts, things lost) can break alone when
the word lists change; and compatible wording (paraphrase, elaboration, another
object, a wish, a name) must stay unflagged, which is what makes the check usable
before every AI statement.
"""

from __future__ import annotations

import pytest

from agents.memory.contradiction import HeuristicJudge
from agents.memory.records import FactRecord
from eval.memory.contradictions import TUNE_FILE, run_pairs


def _fact(text: str, name: str | None = None, kind: str = "trait") -> FactRecord:
    return FactRecord("f1", text, kind, "g", 1, None, name, "ana", 1)


@pytest.mark.parametrize("fact, statement, name", [
    ("Tenet: Nobody in the valley can use magic.", "The shepherd casts a spell to calm the storm.", None),
    ("Tenet: Guns do not exist; duels are fought with blades.", "The duellists fire their pistols.", None),
    ("Tenet: Ghosts do not exist.", "The ghost of the drowned girl haunts the mill.", None),
    ("Inspector Lamb answers to Commissioner Reyes.", "Commissioner Reyes answers to Inspector Lamb.", "Inspector Lamb"),
    ("Wren is Lord Calloway's daughter.", "Wren has no family; Lord Calloway is a stranger to her.", "Wren"),
    ("The sergeant is a corrupt officer.", "The sergeant is an honest officer.", "The Sergeant"),
    ("Tobiah was executed at dawn.", "Tobiah is alive and well in the capital.", "Tobiah"),
    ("Yusuf has a dog named Pepper.", "Yusuf has no pets.", "Yusuf"),
    ("Gideon lives above the bakery on Stair Street.", "Gideon lives on a houseboat on the canal.", "Gideon"),
    ("The wedding took place in autumn.", "The wedding took place in high summer.", "The Wedding"),
    ("The market is held every Sunday.", "The market is held only once a year.", "The Market"),
    ("Magda has been mayor for thirty years.", "Magda was elected mayor yesterday.", "Magda"),
    ("Tessaly carries the signet ring of House Orm.", "Tessaly sold the signet ring of House Orm long ago.", "Tessaly"),
    ("Ruben is illiterate.", "Ruben reads the letter aloud without stumbling.", "Ruben"),
    ("Wants to leave the village alive", "Martha no longer wants to leave the village.", "Martha"),
])
def test_each_rule_catches_its_kind_of_contradiction(fact: str, statement: str, name: str | None) -> None:
    """U-FACT (a paid Fact is true): each rule flags its kind, and says why in words."""
    verdict = HeuristicJudge().judge(statement, _fact(fact, name))
    assert verdict.contradicts, verdict.reason
    assert verdict.reason and "no " not in verdict.reason[:3]


@pytest.mark.parametrize("fact, statement, name, kind", [
    ("Dmitri never drinks wine.", "Dmitri drinks only water at the feast.", "Dmitri", "trait"),
    ("Kasia speaks three languages.", "Kasia does not speak to her brother any more.", "Kasia", "trait"),
    ("The east gate is never locked.", "The west gate is always locked.", "The East Gate", "trait"),
    ("The bridge is closed to carts.", "No cart may cross the bridge.", "The Bridge", "trait"),
    ("Wants to leave the village alive", "Martha, who talks to the dead, lights a candle.", "Martha", "trait"),
    ("Tenet: Nobody can leave the village after sunset", "Martha still hopes to leave the village alive.", None,
     "tenet"),
    ("Tenet: An oath sworn on iron cannot be broken", "Maud prays at the broken altar.", None, "tenet"),
    ("Amos Pike waits for the noon train in the saloon.", "Amos Pike saddles up before dawn in the stable.",
     "Amos Pike", "event"),
    ("Aldric sold his ancestral sword to pay the Grey Hounds.", "The Grey Hounds were not paid on time.",
     "Aldric", "event"),
    ("Loses a memory with every spell", "Lost a memory", "Wenna", "trait"),
])
def test_compatible_wording_is_not_flagged(fact: str, statement: str, name: str | None, kind: str) -> None:
    """Another object, another side, a wish, a name, another moment: not contradictions."""
    verdict = HeuristicJudge().judge(statement, _fact(fact, name, kind))
    assert not verdict.contradicts, verdict.reason


def test_tuning_pairs_hold_their_measured_level() -> None:
    """Regression on the pairs the judge was tuned on (measured P 1.00, R 0.86): a slip shows here first."""
    result = run_pairs(path=TUNE_FILE)
    assert result["pairs"] >= 150
    assert result["precision"] >= 0.95 and result["recall"] >= 0.8, result
