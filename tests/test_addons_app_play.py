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


def test_UA_CDICE_1_with_real_cards_each_browser_types_only_its_own_seats_hand(home):
    """UA-CDICE-1 (L2428 "draw your starting Wealth in Cards into your hand"): at a table with real cards
    each person types the cards he drew in his own browser. B's browser is asked for B's cards only and
    never shows the others' inputs or hands; it cannot enter A's cards (refused, even sent by hand past
    the page); its entry deals B alone and the others are still awaited. The host's browser (A, Cy, D) is
    asked for those three and never for B's; once all are in, Game Prep begins and each browser's panel
    shows its own hand only."""
    from app.ui import seats
    lv = people(Addons(currency="cards_hand"))
    host = seats.start(lv)
    seats.free(lv, host, "B")
    tok_b = seats.take(lv, "", "B")
    assert pending(lv.table.state).dice == {"deal:A": 25, "deal:B": 25, "deal:Cy": 25, "deal:D": 25}
    deal = " ".join(str(v) for v in list(range(1, 11)) * 2 + [1, 2, 3, 4, 5])

    def browser(token: str) -> AppTest:
        return browser_of(lv, token)

    def deal_inputs(at: AppTest) -> list[str]:
        return sorted((w.key or "").split("@")[0] for w in at.text_input if (w.key or "").startswith("roll:deal:"))
    b = browser(tok_b)
    assert deal_inputs(b) == ["roll:deal:B"]
    assert "Waiting for A, Cy, D to draw" in " ".join(c.value for c in b.caption)
    with pytest.raises(seats.Refused):
        seats.deal(lv, tok_b, A.Roll(faces={"deal:A": [int(x) for x in deal.split()]}))
    with pytest.raises(seats.Refused):
        seats.roll(lv, tok_b, A.Roll(faces={"deal:A": [int(x) for x in deal.split()]}), seats.decision_id(lv))
    next(w for w in b.text_input if (w.key or "").startswith("roll:deal:B")).input(deal)
    press(b, "do:deal")
    live = store.open_table(lv.code)
    assert pending(live.table.state).dice == {"deal:A": 25, "deal:Cy": 25, "deal:D": 25}
    assert sorted(live.table.state.extra.hands["B"].hand) == sorted(int(x) for x in deal.split())
    h = browser(host)
    assert deal_inputs(h) == ["roll:deal:A", "roll:deal:Cy", "roll:deal:D"]
    for w in h.text_input:
        if (w.key or "").startswith("roll:deal:"):
            w.input(deal)
    press(h, "do:deal")
    live = store.open_table(lv.code)
    assert pending(live.table.state).kind == "prep_turn"
    mine, theirs = " ".join(m.value for m in h.markdown), " ".join(m.value for m in browser(tok_b).markdown)
    assert "Your hand (A)" in mine and "Your hand (B)" not in mine
    assert "Your hand (B)" in theirs and "Your hand (A)" not in theirs and "Your hand (Cy)" not in theirs


def test_UA_CDICE_5_typed_cards_read_letters_and_face_cards_only_when_kept():
    """UA-CDICE-5 at a table with real cards: a typed A is the Ace, 0 the ten; J, Q, K are read only when the
    table keeps face cards (52-card decks), otherwise they are refused with a message, never a traceback."""
    from app.ui.decide import card_faces
    assert card_faces("A 0 10, 5", False) == [1, 10, 10, 5]
    assert card_faces("j Q K 13 2", True) == [11, 12, 13, 13, 2]
    for text in ("K", "11", "x"):
        with pytest.raises(ValueError, match="not a card here"):
            card_faces(text, False)
    with pytest.raises(ValueError, match="not a card here"):
        card_faces("14", True)


def test_UA_CDICE_6_kept_bonus_cards_from_the_trait_deck_are_typed_by_their_keeper_only(home):
    """UA-CDICE-6 with real cards: Ben keeps his 10 bonus coins and owes 10 cards from the Trait Deck
    ("trait:Ben"); only Ben's browser is asked for them, labelled as the Trait Deck's; the host's browser
    (Ann, Cat) is not, and cannot enter them."""
    from agents.seating import SeatSpec
    from app.ui import seats
    from test_addons_cards_hand import HAND, rival_with
    addons = {**HAND, "bonus_cards_from": "bank_deck"}
    g, _hero = rival_with(addons)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.call_and_agree("Ben")
    g.do(A.Roll(faces={"C": [5, 5], "Ann": []}))
    g.act(A.EndNarration(player="Ben"))
    lv = store.create(store.TableConfig([SeatSpec(n, "human") for n in ("Ann", "Ben", "Cat")], dice="physical"),
                      addons=Addons(**addons))
    for action in g.actions:
        submit(lv, action)
    assert pending(lv.table.state).dice == {"trait:Ben": 10}
    host = seats.start(lv)
    seats.free(lv, host, "Ben")
    tok_ben = seats.take(lv, "", "Ben")
    with pytest.raises(seats.Refused):
        seats.deal(lv, host, A.Roll(faces={"trait:Ben": list(range(1, 11))}))
    h = browser_of(lv, host)
    assert not [w for w in h.text_input if (w.key or "").startswith("roll:")]
    assert "Waiting for Ben to draw" in " ".join(c.value for c in h.caption)
    b = browser_of(lv, tok_ben)
    box = [w for w in b.text_input if (w.key or "").startswith("roll:trait:Ben")]
    assert len(box) == 1 and "from the Trait Deck" in box[0].label
    box[0].input("1 2 3 4 5 6 7 8 9 10")
    press(b, "do:deal")
    ben = store.open_table(lv.code).table.state.extra.hands["Ben"]
    assert sorted(ben.trait_cards) == list(range(1, 11)) and ben.trait_owed == 0


def browser_of(lv: store.Live, token: str) -> AppTest:
    """The table's page in a browser holding `token`'s seats."""
    from test_app_streamlit import APP
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["table"] = lv.code
    at.query_params["seat"] = token
    at.run()
    assert not at.exception, at.exception
    return at


def test_UA_CDICE_1_the_log_download_is_withheld_from_a_browser_not_holding_every_persons_seat_L2428(home):
    """UA-CDICE-1 (L2428: a hand's faces are its holder's): the log holds every hand (each deal is a Roll in it),
    so the sidebar offers "Save the game (log)" only to a browser holding every person's seat; the others get
    a caption saying why and that the server keeps the log, and still export the transcript (which holds no
    hand: card draws are counts)."""
    from app.ui import seats
    lv = people(Addons(currency="cards_hand"))
    host = seats.start(lv)

    def offered(at: AppTest) -> set[str]:
        return {d.key for d in at.get("download_button")}
    assert offered(browser_of(lv, host)) == {"save", "export"}
    seats.free(lv, host, "B")
    tok_b = seats.take(lv, "", "B")
    for tok, others in ((host, "B"), (tok_b, "A, Cy, D")):
        at = browser_of(lv, tok)
        assert offered(at) == {"export"}
        captions = " ".join(c.value for c in at.caption)
        assert f"holds every player's cards in hand ({others} among them)" in captions
        assert "holding every person's seat" in captions
    assert (home / lv.code / "game.jsonl").exists()


def test_UA_CARDS_4_a_spent_card_is_typed_in_and_a_jack_makes_the_right_hand_neighbour_pay(home):
    """UA-CARDS-4 (L2052) at a table with real cards: A frames a scene (1 coin) and the page asks for A's
    spent card, not a Pool's dice; a typed J is read (face cards kept), and D, to A's right, pays A's coin
    (A 25, D 24). The panel says who pays for each face card and what they do in a Pool."""
    lv = people(Addons(open_scene_framing=True, currency="cards_bank", face_card_gimmick={}))
    t = lv.table
    while t.state.phase == "prep":
        submit(lv, A.PassPrep(player=pending(t.state).players[0]))
    submit(lv, A.FrameScene(player="A"))
    assert pending(t.state).dice == {"spent:A": 1}
    lv.synced()
    at = seated(lv)
    text = " ".join(m.value for m in at.markdown)
    assert "a spent J makes the player to the right pay the coin" in text and "a Q a free coin" in text
    inputs = [w for w in at.text_input if (w.key or "").startswith("roll:spent:A")]
    assert inputs and "A's spent card: 1" in inputs[0].label, [w.key for w in at.text_input]
    inputs[0].input("J")
    press(at, "do:roll")
    st_ = store.open_table(lv.code).table.state
    assert (st_.player("A").wealth, st_.player("D").wealth) == (25, 24)


def test_UA_MT_4_mirrored_the_one_target_allocates_on_the_page(home):
    """Split Allocation mirrored in the app (L2356): A's Knight alone against D's Complication Pool and Cy's,
    declared for the Complication (Own Pool per Participant); after the roll A's form has one number per
    Complication Pool, and A's counts are the allocation the engine plays."""
    from engine_helpers import framed
    from test_addons_engine import P4
    mirror = {"multi_target_mode": "split", "pool_per_participant": True}
    g = framed(P4, {"A": 1}, addons=mirror)
    knight = g.create("A", "Knight")
    for p in ("A", "B", "Cy"):
        g.end_turn(p)
    g.event("D", "The knight falls.", receiver=knight)
    for pool, n in (("C", 2), ("A", 2), ("Cy", 1)):
        g.act(A.BuyDie(player="D", pool=pool, count=n))
    for p in ("D", "A", "B"):
        g.end_turn(p)
    g.act(A.DeclarePool(player="Cy", side="C"))
    g.call_and_agree("Cy")
    g.roll(C=[1, 9], A=[1, 2], B=[], Cy=[3])
    lv = people(Addons(**mirror))
    for a in g.actions:
        submit(lv, a)
    lv.synced()
    assert (pending(lv.table.state).kind, pending(lv.table.state).players) == ("allocate", ("A",))
    at = seated(lv)
    boxes = [w for w in at.number_input if (w.key or "").startswith("f:A:allocate_successes:")]
    assert [w.label for w in boxes] == ["against Complication Pool \\(1 Success rolled\\)",
                                        "against Cy&#39;s Pool \\(1 Success rolled\\)"]
    boxes[1].set_value(2).run()
    press(at, "do:A:allocate_successes")
    assert [e for e in lv.table.events if e.kind == "allocate_successes"][-1].data["counts"] == {"C": 0, "Cy": 2}
    assert lv.table.state.narration is not None


def test_U_BID_1_U_FACT_2_sealed_answers_keep_the_log_and_their_whys_from_other_browsers(home):
    """U-BID-1 (sealed bids, L344) and the secret votes: while bids are being given the log holds the
    amounts already bid, so no browser is offered "Save the game (log)" until they are revealed; and an AI
    seat's why for a sealed answer ("bids 3 of 27") is private to the browser holding that seat, for bids and
    votes, whoever decided them; an LLM seat's why is private while its player keeps an unrevealed Enigma
    Trait (the model reads its own secret and may name it later)."""
    from app.ui import seats
    from app.ui.transcript import private_why
    lv = people(Addons(enigma_trait_cost=2))
    host = seats.start(lv)
    t = lv.table
    while t.state.phase == "prep":
        submit(lv, A.PassPrep(player=pending(t.state).players[0]))

    def offered(at: AppTest) -> set[str]:
        return {d.key for d in at.get("download_button")}
    submit(lv, A.Bid(player="A", amount=3))
    assert pending(t.state).kind == "bid" and pending(t.state).secret
    at = browser_of(lv, host)
    assert offered(at) == {"export"}
    assert "Sealed answers" in " ".join(c.value for c in at.caption)
    for n in NAMES[1:]:
        submit(lv, A.Bid(player=n, amount=0))
    assert not pending(t.state).secret
    assert offered(browser_of(lv, host)) == {"save", "export"}
    bid = {"type": "bid", "player": "B", "amount": 3}
    assert private_why(t, bid, "heuristic", ["A"]) and not private_why(t, bid, "heuristic", ["B"])
    assert private_why(t, {"type": "fact_vote", "player": "B"}, "llm", ["A"])
    turn = {"type": "end_turn", "player": "A"}
    assert not private_why(t, turn, "llm", ["B"])  # nothing secret held by A yet
    submit(lv, A.EstablishLocation(player="A", new_role="Tavern"))
    passes(lv)
    tavern = next(iter(t.state.components))
    submit(lv, A.AddTrait(player="A", component=tavern, text="Werewolf", enigma=True))
    assert private_why(t, turn, "llm", ["B"]) and not private_why(t, turn, "heuristic", ["B"])
