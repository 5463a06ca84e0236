"""The Streamlit table under the add-ons played through the engine (AppTest): Judgment (the Judge's ruling
form, the overrule buttons, the new Judge's die typed in with physical dice), Open Scene Framing (the
frame form with no scene active), Cards as Coins (the decks on the panel) and Split Allocation (the
Originator's counts per Target Pool); player text escaped."""
from __future__ import annotations


import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app.ui import store  # noqa: E402
from engine.universalis import actions as A  # noqa: E402
from engine.universalis import pending  # noqa: E402
from engine.universalis.addons import Addons  # noqa: E402
from test_app_streamlit import seated  # noqa: E402  (a browser holding every person's seat)

NAMES = ["A", "B", "Cy", "D"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    return tmp_path / "games"


def people(addons: Addons, dice: str = "physical") -> store.Live:
    from agents.seating import SeatSpec
    return store.create(store.TableConfig([SeatSpec(n, "human") for n in NAMES], dice=dice), addons=addons)


def submit(lv: store.Live, action) -> None:
    lv.table.submit(action, {"decided_by": "human"})


def passes(lv: store.Live) -> None:
    while pending(lv.table.state).kind == "reaction":
        for p in pending(lv.table.state).players:
            submit(lv, A.Pass(player=p))


def press(at: AppTest, key: str):
    found = [b for b in at.button if b.key == key or (b.key or "").startswith(key + "@")]
    assert found, f"no button {key!r}: {[b.key for b in at.button]}"
    found[0].click().run()
    assert not at.exception, at.exception


def test_UA_JUDGE_3_the_judge_rules_the_others_vote_and_a_typed_die_seats_a_new_judge(home):
    """UA-JUDGE-2/3 in the app: A (who spent before B's turn) rules on B's Event from the page; the
    others overrule him with the vote buttons; the new Judge's d2 is typed in like dice; the panel shows
    the case with the words escaped."""
    lv = people(Addons(dispute_mode="judgment"))
    t = lv.table
    while t.state.phase == "prep":
        submit(lv, A.PassPrep(player=pending(t.state).players[0]))
    for n in NAMES:
        submit(lv, A.Bid(player=n, amount=1 if n == "A" else 0))
    for a in (A.EstablishLocation(player="A", new_role="Tavern"), A.NarrateEvent(player="A", text="Lamps are lit."),
              A.EndTurn(player="A"), A.NarrateEvent(player="B", text="The <b>tower</b> burns.")):
        submit(lv, a)
        if a.type != "narrate_event" or a.player == "A":
            passes(lv)
    submit(lv, A.InvokeJudgment(player="Cy", reason="it *rained* all night"))
    submit(lv, A.Pass(player="D"))
    submit(lv, A.Pass(player="A"))
    lv.synced()
    assert pending(t.state).kind == "judgment" and pending(t.state).players == ("A",)
    at = seated(lv)
    text = " ".join(m.value for m in at.markdown)
    assert "Judge: **A**" in text and "<b>" not in text
    press(at, "do:A:judge_ruling")
    assert pending(lv.table.state).kind == "overrule_vote"
    for p in ("B", "Cy", "D"):
        press(at, f"do:{p}:overrule_vote:true")
    assert pending(lv.table.state).kind == "roll" and pending(lv.table.state).sides == 2
    inputs = [w for w in at.text_input if (w.key or "").startswith("roll:judge")]
    assert inputs, [w.key for w in at.text_input]
    inputs[0].input("2")
    press(at, "do:roll")
    assert lv.table.state.extra.judgment.judge == "D"


def test_UA_OPEN_1_UA_CARDS_1_the_page_frames_without_bids_and_shows_the_decks(home):
    """UA-OPEN-1 in the app: after Game Prep the page asks A to frame a scene (no bid form); framing is
    one button. UA-CARDS-1: the panel shows each player's cards with his Bank and discards."""
    lv = people(Addons(open_scene_framing=True, currency="cards_bank"), dice="virtual")
    t = lv.table
    while t.state.phase == "prep":
        submit(lv, A.PassPrep(player=pending(t.state).players[0]))
    lv.synced()
    at = seated(lv)
    assert pending(lv.table.state).kind == "frame_turn"
    text = " ".join(m.value for m in at.markdown)
    assert "Bank 15, discards 0" in text and "no scene is active" in text
    press(at, "do:A:frame_scene")
    assert lv.table.state.current_scene == 1 and lv.table.state.player("A").wealth == 24


def test_UA_MT_4_the_originator_allocates_the_successes_on_the_page(home):
    """Split Allocation in the app: after the roll the Originator's form has one number per Target Pool
    (named with what it rolled, escaped); the counts he types are the allocation the engine plays."""
    from test_addons_engine import knight_and_monk
    g = knight_and_monk({"multi_target_mode": "split"}, {"C": 4, "A": 3, "B": 2})
    g.roll(C=[1, 2, 5, 9], A=[1, 2, 9], B=[3, 9])
    lv = people(Addons(multi_target_mode="split"))
    for a in g.actions:
        submit(lv, a)
    lv.synced()
    assert pending(lv.table.state).kind == "allocate"
    at = seated(lv)
    boxes = [w for w in at.number_input if (w.key or "").startswith("f:D:allocate_successes:")]
    assert [w.label for w in boxes] == ["against A&#39;s Pool \\(2 Successes rolled\\)",  # escaped (safe.text)
                                        "against B&#39;s Pool \\(1 Success rolled\\)"]
    boxes[0].set_value(1).run()
    [w for w in at.number_input if (w.key or "").startswith("f:D:allocate_successes:B")][0].set_value(2).run()
    press(at, "do:D:allocate_successes")
    assert lv.table.state.narration is not None
    assert [e for e in lv.table.events if e.kind == "allocate_successes"][-1].data["counts"] == {"A": 1, "B": 2}
def test_UA_EXT_1_the_page_offers_the_extension_and_shows_the_stages(home):
    """UA-EXT-1 in the app: once the roll is agreed, the page asks D (the Originator) first whether to
    extend; "Roll it whole" is one button and the offer passes to A; after A extends (and the virtual
    dice roll stage 1), the Complication panel names the stages, escaped like all table text."""
    lv = people(Addons(allow_extended=True), dice="virtual")
    t = lv.table
    while t.state.phase == "prep":
        submit(lv, A.PassPrep(player=pending(t.state).players[0]))
    for n in NAMES:
        submit(lv, A.Bid(player=n, amount=1 if n == "A" else 0))
    steps = [A.EstablishLocation(player="A", new_role="Tavern"), A.NarrateEvent(player="A", text="Lamps are lit."),
             A.CreateComponent(player="A", role="Knight", introduce=True), A.EndTurn(player="A"),
             A.CreateComponent(player="B", role="Monk", introduce=True), A.EndTurn(player="B"), A.EndTurn(player="Cy")]
    for a in steps:
        submit(lv, a)
        passes(lv)
    knight, monk = (c.id for c in t.state.components.values() if c.label in ("Knight", "Monk"))
    submit(lv, A.NarrateEvent(player="D", text="The knight is hurled into the monk.", performer=knight, receiver=monk))
    passes(lv)
    for pool, n in (("C", 7), ("A", 6), ("B", 4)):
        submit(lv, A.BuyDie(player="D", pool=pool, count=n))
        passes(lv)
    submit(lv, A.CallResolution(player="D"))
    for p in list(pending(t.state).players):
        submit(lv, A.AnswerResolution(player=p, agree=True))
    lv.synced()
    assert pending(t.state).kind == "extend" and pending(t.state).players == ("D",)
    at = seated(lv)
    press(at, "do:D:decline_extend")
    assert pending(lv.table.state).kind == "extend" and pending(lv.table.state).players == ("A",)
    submit(lv, A.ExtendComplication(player="A", stages=3))
    passes(lv)
    at.run()
    shown = " ".join(c.value for c in at.caption).replace("\\", "")  # the caption is escaped Markdown
    # virtual dice: the table rolled stage 1 at once, and its narration is under way
    assert "Extended by A into 3 stages: stage 1 (2 (C 2) against 3 (A 3)) is being narrated; 2 more" in shown, shown
