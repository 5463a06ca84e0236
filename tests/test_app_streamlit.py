"""The Streamlit table driven through AppTest: one person and three AI seats play a scene.

Everything goes through the page's own widgets (keys `f:<player>:<action>:<field>` and buttons
`do:<player>:<action>`); the game state is then read back from the table on disk.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app.ui import store  # noqa: E402
from engine.universalis import pending  # noqa: E402

APP = str(Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py")
ME = "You"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    return tmp_path / "games"


def fresh() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def code_of(at: AppTest) -> str:
    code = at.query_params["table"]
    return code[0] if isinstance(code, list) else code


def live(at: AppTest) -> store.Live:
    lv = store.open_table(code_of(at))
    assert lv is not None
    return lv


def _is(w_key: str | None, key: str) -> bool:
    """A widget's key, or its key for the decision pending now (`key@<decision id>`)."""
    return w_key == key or (w_key or "").startswith(key + "@")


def widget(at: AppTest, key: str):
    for kind in ("text_area", "text_input", "number_input", "selectbox", "checkbox"):
        found = [w for w in getattr(at, kind) if _is(w.key, key)]
        if found:
            return found[0]
    raise AssertionError(f"no widget {key!r} on the page")


def press(at: AppTest, key: str):
    found = [b for b in at.button if _is(b.key, key)]
    assert found, f"no button {key!r} on the page: {[b.key for b in at.button]}"
    return found[0]


def seated(lv: store.Live) -> AppTest:
    """A browser holding every person's seat of a table built in the test (as its creator's would)."""
    from app.ui import seats
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["table"] = lv.code
    at.query_params["seat"] = seats.start(lv)
    at.run()
    assert not at.exception, at.exception
    return at


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def act(at: AppTest, typ: str, /, player: str = ME, button: str | None = None, expect_error: bool = False, **inputs):
    """Pick the action in the person's panel, fill its inputs and press its button."""
    pick = [w for w in at.selectbox if w.key == f"pick:{player}"]
    from app.ui.forms import fields
    from engine.universalis.actions import ACTION_TYPES
    if pick and pick[0].value != typ and can(at, typ, player) and fields(ACTION_TYPES[typ]) and typ != "end_scene":
        pick[0].set_value(typ).run()  # a button of its own otherwise
    for name, value in inputs.items():
        w = widget(at, f"f:{player}:{typ}:{name}")
        if hasattr(w, "input") and not hasattr(w, "select"):
            w.input(value) if isinstance(value, str) else w.set_value(value)
        else:
            w.set_value(value)
    press(at, button or f"do:{player}:{typ}").click().run()
    assert not at.exception, at.exception
    if not expect_error:
        assert not errors(at), errors(at)
        assert not any("already answered" in i.value for i in at.info), "a first answer is never stale"
    return at


def can(at: AppTest, typ: str, player: str = ME) -> bool:
    from engine.universalis import legal_options
    return typ in [o.type for o in legal_options(live(at).table.state, player)]


def my_turn(at: AppTest) -> str:
    """The kind of decision the person is asked for, or '' if nobody asks him."""
    p = pending(live(at).table.state)
    return p.kind if ME in p.players else ""


def answer_simply(at: AppTest) -> str:
    """A plain answer to whatever the person is asked: pass, agree, end the turn or narration."""
    k = my_turn(at)
    simple = {"prep_turn": "pass_prep", "reaction": "pass", "narration": "end_narration",
              "challenge_bid": "challenge_pass", "negotiation": "concede_challenge"}
    if k in simple:
        act(at, simple[k])
    elif k == "bid":
        act(at, "bid", amount=0)
    elif k in ("consent", "fine_vote", "fact_vote"):
        typ = {"consent": "answer_resolution", "fine_vote": "fine_vote", "fact_vote": "fact_vote"}[k]
        press(at, f"do:{ME}:{typ}:{'true' if k != 'fine_vote' else 'false'}").click().run()
    elif k == "dialog_answer":
        press(at, f"do:{ME}:answer_dialog:true").click().run()
    elif k == "turn":
        sc = live(at).table.state.scene()
        end = sc is not None and sc.framer == ME and can(at, "end_scene")
        act(at, "end_scene" if end else "end_turn")
    else:
        raise AssertionError(f"unexpected decision {k!r}")
    assert not at.exception, at.exception
    return k


def test_setup_defaults_one_person_three_ai(home):
    at = fresh()
    assert widget(at, "setup:coins").value == 25 and widget(at, "setup:refresh").value == 5
    kinds = [widget(at, f"setup:kind:{i}").value for i in range(4)]
    assert kinds == ["human", "heuristic", "heuristic", "heuristic"]
    at.button(key="do:start").click().run()
    lv = live(at)
    assert [p.wealth for p in lv.table.state.players] == [25, 25, 25, 25]
    assert (home / lv.code / "game.jsonl").exists() and (home / lv.code / "table.json").exists()
    assert my_turn(at) == "prep_turn"
    assert any("Waiting for You" in m.value for m in at.markdown)


def test_play_a_scene_tenets_bid_frame_event_complication_roll_end(home):
    at = fresh()
    at.button(key="do:start").click().run()
    lv = live(at)
    # the Tenet round: the person pays 1 coin for a Tenet, then passes until preparation ends
    act(at, "propose_tenet", text="The sea remembers every drowned name")
    assert any(t.text == "The sea remembers every drowned name" and t.by == ME for t in live(at).table.state.tenets)
    assert live(at).table.state.player(ME).wealth == 24
    for _ in range(30):
        if live(at).table.state.phase != "prep":
            break
        answer_simply(at)
    assert live(at).table.state.phase == "bidding"
    # a refused bid (more than the person holds) says why and changes nothing
    n = len(live(at).table.records)
    # the bid: high enough to frame the scene
    act(at, "bid", amount=20)
    s = live(at).table.state
    assert s.phase == "scene" and s.scene().framer == ME, [e.line() for e in live(at).table.transcript()[-6:]]
    assert len(live(at).table.records) > n
    # framing: a new location, then a character in it
    act(at, "establish_location", new_role="The drowned harbour")
    assert live(at).table.state.scene().location is not None
    while my_turn(at) != "turn":
        answer_simply(at)
    act(at, "create_component", kind="character", role="Old ferryman", introduce=True)
    while my_turn(at) != "turn":
        answer_simply(at)
    s = live(at).table.state
    ferryman = next(c.id for c in s.components.values() if c.label == "Old ferryman")
    # an Event
    act(at, "narrate_event", text="The ferryman rows out into the fog", performer=ferryman)
    assert any(f.kind == "event" and "fog" in f.text for f in live(at).table.state.facts)
    # play on until a Complication is open where the person acts, then draw, buy, call, roll
    def took_part() -> bool:
        return any(e.player == ME and e.kind in ("complication", "draw", "buy_die", "call_resolution")
                   for e in live(at).table.events)

    for _ in range(300):
        s = live(at).table.state
        if s.complications_resolved and s.complication is None and took_part():
            break
        k = my_turn(at)
        if k == "reaction" and s.complication is None and can(at, "obstacle"):
            act(at, "obstacle", dice=1, text="A squall rises over the harbour")
            assert live(at).table.state.complication is not None
            continue
        if k == "turn" and s.complication is not None:
            pick = [w for w in at.selectbox if w.key == f"pick:{ME}"]
            if pick and pick[0].value != "draw_trait":
                pick[0].set_value("draw_trait").run()
            picks = [w for w in at.selectbox if w.key == f"f:{ME}:draw_trait:pick"]
            if picks and picks[0].options:
                act(at, "draw_trait", pick=widget(at, f"f:{ME}:draw_trait:pick").value, pool="C")
                continue
            act(at, "call_resolution")
            continue
        if k:
            answer_simply(at)
        else:
            at.run()
    s = live(at).table.state
    assert s.complications_resolved >= 1
    assert took_part(), "the person took part in a Complication"
    rolls = [e for e in live(at).table.events if e.kind == "roll"]
    assert rolls and all(f in range(1, 11) for e in rolls for fs in e.data["faces"].values() for f in fs)
    # end the scene
    for _ in range(200):
        if live(at).table.state.scenes_ended:
            break
        if my_turn(at):
            answer_simply(at)
        else:
            at.run()
    assert live(at).table.state.scenes_ended >= 1
    # AI decisions carry their why into the page
    assert any(c.value.startswith("↳ heuristic") and "why:" in c.value for c in at.caption)
    # the log on disk is the game: reopening from disk gives the same state
    text = (home / lv.code / "game.jsonl").read_text()
    from agents.table import Table
    assert Table.load(text).state.model_dump_json() == live(at).table.state.model_dump_json()


def test_refused_action_names_the_rule_and_changes_nothing(home):
    at = fresh()
    at.button(key="do:start").click().run()
    before = (home / code_of(at) / "game.jsonl").read_text()
    act(at, "propose_tenet", expect_error=True)  # no words: the form says what is missing
    assert errors(at) and "text" in errors(at)[0]
    assert (home / code_of(at) / "game.jsonl").read_text() == before


def test_save_load_and_bad_upload(home):
    at = fresh()
    at.button(key="do:start").click().run()
    act(at, "propose_tenet", text="No one lies at sea")
    lv = live(at)
    saved = lv.table.log_text()
    assert [d.key for d in at.get("download_button")] or True
    # load the saved log as a new table: same state, new code
    other = store.import_log(saved)
    assert other.code != lv.code
    assert other.table.state.model_dump_json() == lv.table.state.model_dump_json()
    # a bad file: clear message, nothing written
    before = sorted(p.name for p in home.iterdir())
    from engine.core.errors import LogError
    for bad in (b"\xff\xfe not text", b"", b'{"format": "nope"}\n'):
        with pytest.raises(LogError):
            store.import_upload(bad)
    assert sorted(p.name for p in home.iterdir()) == before
    # a file cut short loads its valid part, as the README says (tests/test_storage_damaged_logs.py)
    cut = store.import_upload(saved.encode()[:-40] + b"garbage\n")
    assert 0 < len(cut.table.records) == len(lv.table.records) - 1 and "damaged at line" in cut.notes[-1]


def _passes(table) -> None:
    from engine.universalis import actions as A
    while pending(table.state).kind == "reaction":
        for p in pending(table.state).players:
            table.submit(A.Pass(player=p), {"decided_by": "human"})


def _table_at_a_roll(home) -> store.Live:
    """Four people, physical dice, a Complication with dice in its Pool, everyone agreed to roll."""
    from agents.seating import SeatSpec
    from engine.universalis import actions as A
    names = ["A", "B", "Cy", "D"]
    lv = store.create(store.TableConfig([SeatSpec(n, "human") for n in names], dice="physical"))
    t = lv.table
    while t.state.phase == "prep":
        t.submit(A.PassPrep(player=pending(t.state).players[0]), {"decided_by": "human"})
    for n in names:
        t.submit(A.Bid(player=n, amount=1 if n == "A" else 0), {"decided_by": "human"})
    for a in (A.EstablishLocation(player="A", new_role="Tavern"), A.NarrateEvent(player="A", text="Lamps are lit."),
              A.EndTurn(player="A"), A.CreateComponent(player="B", role="Knight", introduce=True), A.EndTurn(player="B"),
              A.CreateComponent(player="Cy", role="Wizard", introduce=True), A.EndTurn(player="Cy")):
        t.submit(a, {"decided_by": "human"})
        _passes(t)
    knight, wizard = (c.id for c in t.state.components.values() if c.label in ("Knight", "Wizard"))
    t.submit(A.NarrateEvent(player="D", text="The knight strikes the wizard.", performer=knight, receiver=wizard),
             {"decided_by": "human"})
    _passes(t)
    t.submit(A.BuyDie(player="D", pool="C", count=2), {"decided_by": "human"})
    t.submit(A.CallResolution(player="D"), {"decided_by": "human"})
    for p in pending(t.state).players:
        t.submit(A.AnswerResolution(player=p, agree=True), {"decided_by": "human"})
    lv.synced()
    assert pending(t.state).kind == "roll"
    return lv


def test_physical_dice_are_typed_in_and_checked(home):
    lv = _table_at_a_roll(home)
    at = seated(lv)
    assert not at.exception, at.exception
    keys = {w.key.split("@")[0] for w in at.text_input}
    assert lv.table.state.complication.pool("B").size == 0 and lv.table.state.complication.pool("Cy").size == 0
    # a box for the Pool with dice; the empty Target Pools roll nothing, so none is asked for (addons-comp-3)
    assert "roll:C" in keys and not {"roll:B", "roll:Cy"} & keys
    n = len(lv.table.records)
    widget(at, "roll:C").input("3")  # two dice in the Pool, one face typed
    press(at, "do:roll").click().run()
    assert errors(at) and "needs 2 faces" in errors(at)[0] and len(lv.table.records) == n
    widget(at, "roll:C").input("3 0")
    press(at, "do:roll").click().run()
    assert not errors(at), errors(at)
    rolled = lv.table.state.complication.rolls[0]
    assert rolled.faces["C"] == (3, 10) and rolled.successes["C"] == 1
    assert lv.table.records[-1].meta["decided_by"] == "dice (typed)"
    assert any("die" in m.value and ">3<" in m.value for m in at.markdown), "the roll is shown as dice faces"


def token_of(at: AppTest) -> str:
    tok = at.query_params.get("seat", "")
    return tok[0] if isinstance(tok, list) else tok


def watcher(code: str, token: str = "") -> AppTest:
    """Another browser with the table's link (and a seat token, if given)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["table"] = code
    if token:
        at.query_params["seat"] = token
    at.run()
    assert not at.exception, at.exception
    return at


def action_buttons(at: AppTest) -> list[str]:
    return [b.key for b in at.button if (b.key or "").startswith("do:") and b.key not in ("do:refresh",)]


def test_two_browsers_share_a_table_seats_belong_to_people_and_survive_a_restart(home):
    from app.ui import seats
    from engine.universalis import actions as A
    host = fresh()
    host.button(key="do:start").click().run()
    code, host_token = code_of(host), token_of(host)
    assert len(code) >= 16 and not any(c.key == "sb:other" for c in host.selectbox), "no list of other tables"
    lv = live(host)
    # a second browser with the table's link watches: the same table, no panel, no action button
    other = watcher(code)
    assert not action_buttons(other) and not any("it is your decision" in m.value for m in other.markdown)
    assert any("watching" in m.value for m in other.markdown)
    assert other.selectbox(key="sb:kind:You").disabled and other.selectbox(key="sb:kind:Ada").disabled
    # the host makes Ada a person's seat; the watcher takes it and gets his own secret
    host.selectbox(key="sb:kind:Ada").set_value("human").run()
    assert not host.exception, host.exception
    assert store.open_table(code).table.seats["Ada"].is_human
    other.run()
    other.button(key="sb:take:Ada").click().run()
    ada_token = token_of(other)
    assert ada_token and ada_token != host_token and seats.held(lv, ada_token) == ["Ada"]
    # the host acts for You; Ada's browser sees it but cannot act for You (the check is where actions apply)
    act(host, "propose_tenet", text="Bells ring for the dead")
    other.run()
    assert any("Bells ring for the dead" in m.value for m in other.markdown)
    n = len(lv.table.records)
    for tok in (ada_token, "", "forged"):
        with pytest.raises(seats.Refused, match="You's seat"):
            seats.act(lv, tok, A.PassPrep(player=ME), seats.decision_id(lv))
        with pytest.raises(seats.Refused):
            seats.switch(lv, tok, ME, "heuristic")
    assert len(lv.table.records) == n and lv.table.seats[ME].is_human
    # only the holder switches his seat: Ada's holder may, the host may not; the host may free it
    with pytest.raises(seats.Refused, match="Only the person holding Ada's seat"):
        seats.switch(lv, host_token, "Ada", "heuristic")
    host.run()
    assert host.selectbox(key="sb:kind:Ada").disabled
    # a server restart: the registry is gone; the game, the seat kinds and who holds them come back
    state = store.open_table(code).table.state.model_dump_json()
    store._REGISTRY.clear()
    again = store.open_table(code)
    assert again.table.state.model_dump_json() == state and again.table.seats["Ada"].is_human
    assert json.loads((home / code / "table.json").read_text())["seats"][1]["kind"] == "human"
    assert seats.held(again, ada_token) == ["Ada"] and seats.held(again, host_token) == [ME]
    assert ada_token not in (home / code / "seats.json").read_text(), "only digests are kept"
    host.run()
    host.button(key="sb:free:Ada").click().run()
    assert not host.exception, host.exception
    assert seats.held(store.open_table(code), ada_token) == [] and "Ada" in seats.free_seats(store.open_table(code))
    with pytest.raises(seats.Refused, match="Only You's holder or the host"):
        seats.free(store.open_table(code), ada_token, ME)


def test_the_same_answer_sent_twice_applies_once(home):
    """Two tabs of one seat (or a double click): the second answer to a decision is ignored with a note."""
    at = fresh()
    at.button(key="do:start").click().run()
    twin = watcher(code_of(at), token_of(at))
    n = len(live(at).table.records)
    act(at, "propose_tenet", text="The tide keeps its own calendar")
    after = len(live(at).table.records)
    assert after > n
    # the twin tab still shows the old form; it sends the same Tenet
    twin.selectbox(key=f"pick:{ME}").set_value("propose_tenet")
    widget(twin, f"f:{ME}:propose_tenet:text").input("The tide keeps its own calendar")
    press(twin, f"do:{ME}:propose_tenet").click().run()
    assert not twin.exception, twin.exception
    assert len(live(at).table.records) == after
    assert sum(t.text == "The tide keeps its own calendar" for t in live(at).table.state.tenets) == 1
    assert any("already answered" in i.value for i in twin.info), [i.value for i in twin.info]
    # the form is empty for the next decision
    at.run()
    if my_turn(at) == "prep_turn" and can(at, "propose_tenet"):
        assert widget(at, f"f:{ME}:propose_tenet:text").value == ""


def test_an_old_decision_id_is_refused_where_actions_apply(home):
    from app.ui import seats
    from engine.universalis import actions as A
    at = fresh()
    at.button(key="do:start").click().run()
    lv, tok = live(at), token_of(at)
    did = seats.decision_id(lv)
    seats.act(lv, tok, A.ProposeTenet(player=ME, text="Salt in every wound"), did)
    n = len(lv.table.records)
    with pytest.raises(seats.Stale, match="already answered"):
        seats.act(lv, tok, A.ProposeTenet(player=ME, text="Salt in every wound"), did)
    assert len(lv.table.records) == n


def test_storytable_app_passes_streamlit_options_with_quiet_defaults():
    from app.commands import app_run
    argv = app_run.streamlit_argv(["--server.port", "8601"])
    assert argv[:3] == ["streamlit", "run", str(app_run.APP)]
    assert "--server.headless=true" in argv and "--browser.gatherUsageStats=false" in argv
    assert "--client.toolbarMode=viewer" in argv  # no "Deploy" button at a game table
    assert argv[-2:] == ["--server.port", "8601"]
    assert "--server.headless=true" not in app_run.streamlit_argv(["--server.headless=false"])


def test_brainstorm_keep_and_drop_then_start_a_table_with_the_kept_tenets(home):
    at = fresh()
    at.sidebar.radio(key="nav").set_value("Brainstorm").run()
    widget(at, "bs:premise").input("witches in a drowned city")
    widget(at, "bs:count").set_value(3)
    at.button(key="do:bs:propose").click().run()
    assert not at.exception, at.exception
    props = at.session_state["bs:proposals"]
    assert len(props) == 3 and all(p.text for p in props)
    at.checkbox(key="bs:keep:1").uncheck().run()  # drop the second
    at.button(key="do:bs:start").click().run()
    assert widget(at, "setup:premise").value == "witches in a drowned city"
    at.button(key="do:start").click().run()
    assert not at.exception, at.exception
    tenets = [t.text for t in live(at).table.state.tenets]
    assert tenets[:2] == [props[0].text, props[2].text] and props[1].text not in tenets


def test_facts_browser_searches_and_export_has_a_canon_sheet(home):
    at = fresh()
    at.button(key="do:start").click().run()
    act(at, "propose_tenet", text="The lighthouse keeper never sleeps")
    at.sidebar.radio(key="nav").set_value("Facts").run()
    assert not at.exception, at.exception
    all_rows = at.dataframe[0].value
    assert "The lighthouse keeper never sleeps" in list(all_rows["fact"])
    widget(at, "facts:q").input("lighthouse keeper").run()
    rows = at.dataframe[0].value
    assert rows["fact"].iloc[0] == "The lighthouse keeper never sleeps"
    from app.ui.export import markdown
    md = markdown(live(at).table)
    assert "## Canon sheet" in md and "### Tenets" in md and "The lighthouse keeper never sleeps" in md
    assert "## Transcript" in md and "### Components" in md


def test_challenge_bidding_shows_fact_defence_doubled_and_undo(home):
    from agents.seating import SeatSpec
    from engine.universalis import actions as A
    # Cat challenges a statement that touches nothing of hers: she asked to see every window
    lv = store.create(store.TableConfig([SeatSpec(n, "human") for n in ("Ann", "Ben", "Cat")],
                                        reactions={"Ann": "always", "Cat": "always"}))
    t = lv.table
    while t.state.phase == "prep":
        t.submit(A.PassPrep(player=pending(t.state).players[0]), {"decided_by": "human"})
    for n in ("Ann", "Ben", "Cat"):
        t.submit(A.Bid(player=n, amount=1 if n == "Ann" else 0), {"decided_by": "human"})
    for a in (A.EstablishLocation(player="Ann", new_role="Tavern"), A.NarrateEvent(player="Ann", text="Lamps lit."),
              A.BuyFact(player="Ann", text="The only bridge is out."), A.EndTurn(player="Ann")):
        t.submit(a, {"decided_by": "human"})
        _passes(t)
    fact = t.state.facts[-1].id
    t.submit(A.NarrateEvent(player="Ben", text="Ben's hero crosses the bridge."), {"decided_by": "human"})
    lv.synced()
    at = seated(lv)
    # the reaction window: Cat challenges with the Fact, Ann lets it stand
    act(at, "challenge", player="Cat", reason="the bridge is out", fact=fact)
    act(at, "pass", player="Ann")
    assert live(at).table.state.challenge is not None
    act(at, "contest_challenge", player="Ben")
    act(at, "challenge_bid", player="Cat", option="1", coins=2)
    assert any("2 × 2 = **4**" in m.value for m in at.markdown), [m.value for m in at.markdown if "option" in m.value]
    # undo takes back the last person's decision (Cat's bid)
    at.button(key="do:undo").click().run()
    assert not at.exception
    ch = live(at).table.state.challenge
    assert ch is not None and ch.totals == [0, 0] and pending(live(at).table.state).players == ("Cat",)


def test_a_fine_is_called_and_voted_with_buttons(home):
    from agents.seating import SeatSpec
    from engine.universalis import actions as A
    lv = store.create(store.TableConfig([SeatSpec(n, "human") for n in ("Ann", "Ben", "Cat")]))
    t = lv.table
    while t.state.phase == "prep":
        t.submit(A.PassPrep(player=pending(t.state).players[0]), {"decided_by": "human"})
    for n in ("Ann", "Ben", "Cat"):
        t.submit(A.Bid(player=n, amount=1 if n == "Ann" else 0), {"decided_by": "human"})
    lv.synced()
    at = seated(lv)
    act(at, "call_fine", player="Ann", accused="Ben", reason="talks over everyone")
    assert pending(live(at).table.state).kind == "fine_vote"
    assert any("calls for a Fine against Ben" in w.value for w in at.warning)
    for name, vote in (("Ann", "true"), ("Ben", "false"), ("Cat", "true")):
        press(at, f"do:{name}:fine_vote:{vote}").click().run()
        assert not at.exception, at.exception
    s = live(at).table.state
    assert s.fine is None and any(e.kind.startswith("fine") for e in live(at).table.events[-3:])


# -- reaction windows: ask a person only when it concerns him --------------------------------------------


def _autos(table) -> list:
    from app.ui.reactions import is_auto
    return [r for r in table.records if is_auto(r.meta)]


def test_default_setting_brings_the_person_to_his_turn_without_unconcerned_windows(home):
    from app.ui.reactions import AUTO_RATIONALE, concern
    at = fresh()
    at.button(key="do:start").click().run()
    assert at.selectbox(key=f"sb:react:{ME}").value == "concerns"
    asked = []
    for _ in range(120):
        lv = live(at)
        k = my_turn(at)
        if k == "turn" and lv.table.state.phase == "scene":
            break
        if k == "reaction":  # only a window that concerns the person, and the page says why
            why = concern(lv.table, ME)
            assert why, pending(lv.table.state)
            assert any(c.value.startswith("You are asked because") for c in at.caption)
            asked.append(why)
        assert k, f"nobody asks the person: {pending(lv.table.state)}"
        answer_simply(at)
    else:
        raise AssertionError("the person never reached his turn")
    autos = _autos(live(at).table)
    assert len(autos) >= 9, "three AIs' statements in preparation and the scene were let stand for him"
    assert all(r.action == {"type": "pass", "player": ME} and r.meta == {"decided_by": "human", "rationale": AUTO_RATIONALE}
               for r in autos)
    assert len(asked) < len(autos)
    # the sidebar's count is drawn after the AI steps: it says how long the log is now
    n = len(live(at).table.records)
    assert any(c.value.endswith(f"· {n} actions") for c in at.sidebar.caption), [c.value for c in at.sidebar.caption]


def test_always_ask_gives_the_plain_window_and_survives_a_restart(home):
    at = fresh()
    at.button(key="do:start").click().run()
    code = code_of(at)
    at.selectbox(key=f"sb:react:{ME}").set_value("always").run()
    assert not at.exception, at.exception
    assert json.loads((home / code / "table.json").read_text())["reactions"] == {ME: "always"}
    for _ in range(40):
        if my_turn(at) == "reaction":
            break
        answer_simply(at)
    assert my_turn(at) == "reaction", "an AI's Tenet opens a window the person is asked about"
    assert press(at, f"do:{ME}:pass").label.startswith("Pass (let it stand)")
    assert not any(c.value.startswith("You are asked because") for c in at.caption)
    assert not _autos(live(at).table)
    store._REGISTRY.clear()
    again = store.open_table(code)
    assert again.config.reaction_mode(ME) == "always" and not store.auto_pass_due(again)
    # switched to never: the window is let stand for him at once, and logged so
    at.selectbox(key=f"sb:react:{ME}").set_value("never").run()
    assert not at.exception, at.exception
    assert _autos(live(at).table) and my_turn(at) != "reaction"


def _three_people(modes: dict[str, str] | None = None) -> store.Live:
    """You, Ada, Bo all people; You frames the scene with the Old ferryman in it (windows passed by hand)."""
    from agents.seating import SeatSpec
    from engine.universalis import actions as A
    lv = store.create(store.TableConfig([SeatSpec(n, "human") for n in (ME, "Ada", "Bo")], reactions=modes or {}))
    t = lv.table
    while t.state.phase == "prep":
        t.submit(A.PassPrep(player=pending(t.state).players[0]), {"decided_by": "human"})
    for n in (ME, "Ada", "Bo"):
        t.submit(A.Bid(player=n, amount=1 if n == ME else 0), {"decided_by": "human"})
    for a in (A.EstablishLocation(player=ME, new_role="Harbour"),
              A.CreateComponent(player=ME, role="Old ferryman", introduce=True)):
        t.submit(a, {"decided_by": "human"})
        _passes(t)
    lv.synced()
    return lv


def test_what_concerns_a_person_touch_contradiction_fine(home):
    from app.ui.reactions import concern
    from engine.universalis import actions as A
    lv = _three_people()
    t = lv.table
    ferryman = next(c.id for c in t.state.components.values() if c.label == "Old ferryman")
    # his own Fact, then Ada's statement about the same bridge: the offline judge sees the clash
    store.submit(lv, A.BuyFact(player=ME, text="The bridge is open."))
    assert store.run_ai(lv) == 2 and len(_autos(t)) == 2  # neither Ada nor Bo is concerned
    store.submit(lv, A.EndTurn(player=ME))
    store.submit(lv, A.BuyFact(player="Ada", text="The bridge is not open."), who="human")
    assert "may contradict your detail “The bridge is open.”" in concern(t, ME)
    assert store.run_ai(lv) == 1 and pending(t.state).players == (ME,)  # Bo passed for, You asked
    store.submit(lv, A.Pass(player=ME))
    # an Event done to the component he controls: his window, and only his
    store.submit(lv, A.NarrateEvent(player="Ada", text="A wave swamps the boat.", receiver=ferryman))
    assert "Old ferryman, which you control" in concern(t, ME) and concern(t, "Bo") == ""
    store.run_ai(lv)
    assert pending(t.state).players == (ME,)
    # a Fine called against Bo in a window: after the vote the window asks everyone again, Bo included
    store.submit(lv, A.CallFine(player=ME, accused="Bo", reason="reads his phone"))  # Bo was passed for
    for n in (ME, "Ada", "Bo"):
        store.submit(lv, A.FineVote(player=n, fine=False))
    assert pending(t.state).kind == "reaction" and "Fine against you" in concern(t, "Bo")


def test_undo_skips_the_passes_the_setting_made(home):
    from engine.universalis import actions as A
    lv = _three_people()
    t = lv.table
    n = len(t.records)
    store.submit(lv, A.BuyFact(player=ME, text="Gulls circle the mast."))
    assert store.run_ai(lv) == 2 and [r.meta.get("rationale") for r in t.records[-2:]] == ["auto-pass (setting)"] * 2
    store.undo_to_human(lv)
    assert len(t.records) == n and pending(t.state).players == (ME,)


def test_the_ai_summary_counts_in_words_a_player_reads():
    from app.ui.play import _count
    assert _count(1, "reaction window") == "1 reaction window" and _count(5, "decision") == "5 decisions"


# -- text is text ----------------------------------------------------------------------------------------

SCRIPT = "<img src=x onerror=alert(1)>"
MARKUP = "**x** [a](javascript:alert(1)) :red[y] $z$"


def test_the_escape_shows_every_character_and_no_markup():
    from app.ui import safe
    out = safe.text(SCRIPT + " " + MARKUP + "\n# heading")
    assert "<" not in out and ">" not in out and "\n" not in out
    assert "\\# heading" in out
    for seq in ("**", "](", ":red[", "$z$"):
        assert seq not in out, seq
    # a CommonMark reader (backslash escapes, entities) gets the original characters back
    import html
    import re
    assert html.unescape(re.sub(r"\\(.)", r"\1", out)) == SCRIPT + " " + MARKUP + " # heading"
    assert safe.json_text('{"t": "<b>&"}') == '{"t": "\\u003cb\\u003e\\u0026"}'
    assert json.loads(safe.json_text('{"t": "<b>&"}')) == {"t": "<b>&"}


def test_player_text_reaches_the_page_and_the_exports_as_text(home):
    from app.ui import export
    at = fresh()
    widget(at, "setup:name:0").input("<b>Eve</b>")
    at.button(key="do:start").click().run()
    act(at, "propose_tenet", player="<b>Eve</b>", text=SCRIPT)
    lv = live(at)
    while pending(lv.table.state).players != ("<b>Eve</b>",):
        at.run()
        if pending(lv.table.state).players == ("<b>Eve</b>",):
            break
        answer = pending(lv.table.state)
        assert "<b>Eve</b>" in answer.players, answer
        press(at, "do:<b>Eve</b>:pass").click().run()
    assert pending(lv.table.state).kind == "prep_turn"
    act(at, "propose_tenet", player="<b>Eve</b>", text=MARKUP)
    shown = [m.value for m in at.markdown] + [c.value for c in at.caption] + [m.label for m in at.metric]
    page = "\n".join(shown)
    assert SCRIPT in [t.text for t in lv.table.state.tenets]
    from app.ui import safe
    assert safe.text(SCRIPT) in page and safe.text(SCRIPT).startswith("&lt;img src")
    assert "<img" not in page and "<b>Eve" not in page and "&lt;b&gt;Eve&lt;/b&gt;" in page
    assert any(t.text == MARKUP for t in lv.table.state.tenets)
    assert safe.text(MARKUP) in page and "**x**" not in page and "](javascript" not in page
    md = export.markdown(lv.table)
    assert "<img" not in md and "<b>" not in md and "](javascript" not in md and "&lt;img" in md
    log = export.log_json(lv.table)
    assert "<" not in log and ">" not in log
    from agents.table import Table
    assert Table.load(log).state.model_dump_json() == lv.table.state.model_dump_json()


# -- the page does what a player means --------------------------------------------------------------------


def _framer_table(home) -> store.Live:
    """You (a person) frames the first scene at the Harbour, with an Old ferryman; Ada, Bo are AIs."""
    from agents.seating import SeatSpec
    from engine.universalis import actions as A
    lv = store.create(store.TableConfig([SeatSpec(ME, "human"), SeatSpec("Ada", "human"), SeatSpec("Bo", "human")],
                                        reactions={ME: "never", "Ada": "never", "Bo": "never"}))
    t = lv.table
    while t.state.phase == "prep":
        t.submit(A.PassPrep(player=pending(t.state).players[0]), {"decided_by": "human"})
    for n in (ME, "Ada", "Bo"):
        t.submit(A.Bid(player=n, amount=1 if n == ME else 0), {"decided_by": "human"})
    for a in (A.EstablishLocation(player=ME, new_role="Harbour"),
              A.CreateComponent(player=ME, role="Old ferryman", introduce=True)):
        t.submit(a, {"decided_by": "human"})
        _passes(t)
    lv.synced()
    return lv


def test_the_framer_ends_the_scene_with_a_plain_button_and_end_my_turn_is_one_line(home):
    lv = _framer_table(home)
    at = seated(lv)
    end = press(at, f"do:{ME}:end_scene")
    assert end.label == "End the scene"
    assert press(at, f"do:{ME}:end_scene:fade").label.startswith("End the scene, fade to black")
    pick = at.selectbox(key=f"pick:{ME}")
    assert "end_scene" not in pick.options and not any("End the scene" in o for o in pick.options)
    # End my turn: one line in the transcript, the person's
    n = len(lv.table.transcript())
    press(at, f"do:{ME}:end_turn").click().run()
    assert not at.exception, at.exception
    new = live(at).table.transcript()[n:]
    assert [(e.player, e.kind) for e in new] == [(ME, "end_turn")]
    lines = [m.value for m in at.markdown if m.value.startswith(f"**{ME}**: ends the turn")]
    assert len(lines) == 1, lines


def test_menus_offer_only_what_can_be_done_now_with_concrete_choices(home):
    from app.ui import choices
    from engine.universalis import actions as A
    lv = _framer_table(home)
    t = lv.table
    s = t.state
    ferry = next(c.id for c in s.components.values() if c.label == "Old ferryman")
    at = seated(lv)
    pick = at.selectbox(key=f"pick:{ME}")
    # You controls everything in the scene: nothing to take over, so no Take Over in the menu
    assert choices.for_field(s, "take_over", "component", ME) == []
    assert not any(o.startswith("Take over") for o in pick.options)
    assert not any(o.startswith("Bring back") for o in pick.options), "nothing is eliminated"
    # Ada's turn: she may take over the ferryman, and only what You controls in the scene
    t.submit(A.EndTurn(player=ME), {"decided_by": "human"})
    lv.synced()
    s = t.state
    assert pending(s).players == ("Ada",)
    takeable = [cid for cid, _ in choices.for_field(s, "take_over", "component", "Ada")]
    assert ferry in takeable and all(s.scene().control.get(c) == ME for c in takeable)
    assert choices.for_field(s, "take_over", "component", ME) == []


def test_the_facts_table_has_one_type_per_column(home):
    at = fresh()
    at.button(key="do:start").click().run()
    act(at, "propose_tenet", text="Salt keeps the dead away")
    at.sidebar.radio(key="nav").set_value("Facts").run()
    assert not at.exception, at.exception
    df = at.dataframe[0].value
    assert str(df["scene"].dtype) == "Int64" and df["scene"].isna().any()
    import pyarrow as pa
    pa.Table.from_pandas(df)  # what Streamlit sends: no ArrowTypeError


def test_a_seat_set_to_a_language_model_shows_the_endpoint_check(home, monkeypatch):
    """The setup page asks agents.llm.readiness (the LLM branch's check) and shows its verdict;
    without that module it says there is no check yet."""
    import sys
    import types
    from app.ui import llmcheck
    llmcheck._cached.cache_clear()
    at = fresh()
    at.selectbox(key="setup:kind:1").set_value("llm").run()
    if "agents.llm.readiness" not in sys.modules:
        try:
            import agents.llm.readiness  # noqa: F401
        except ImportError:
            assert any("no readiness check yet" in c.value for c in at.caption)
    seen = []
    fake = types.ModuleType("agents.llm.readiness")
    fake.check = lambda settings, timeout_s=0: (seen.append(settings.model), types.SimpleNamespace(
        ready=False, message="the server at /srv/secret/llama refused: <b>no model</b>"))[1]
    monkeypatch.setitem(sys.modules, "agents.llm.readiness", fake)
    import agents.llm
    monkeypatch.setattr(agents.llm, "readiness", fake, raising=False)
    llmcheck._cached.cache_clear()
    widget(at, "setup:model:1").input("qwen2.5:7b")
    at.run()
    assert not at.exception, at.exception
    assert seen and seen[-1] == "qwen2.5:7b"
    warned = [w.value for w in at.warning]
    assert any("refused" in w and "/srv/secret" not in w and "<b>" not in w for w in warned), warned
    llmcheck._cached.cache_clear()


def test_a_table_of_ais_is_played_by_its_host_and_an_old_table_gets_a_host(home):
    from agents.seating import SeatSpec
    from app.ui import seats
    lv = store.create(store.TableConfig([SeatSpec(n) for n in ("Ada", "Bo", "Cy")]))
    host = seated(lv)
    assert press(host, "do:ai").label.startswith("Let the AI play")
    other = watcher(lv.code)
    assert not [b for b in other.button if b.key == "do:ai"]
    assert any("its host lets them play" in c.value for c in other.caption)
    # a table from before seats had holders (no seats.json): its people's seats are free, and the
    # first browser to take one becomes its host
    old = store.create(store.TableConfig([SeatSpec(ME, "human"), SeatSpec("Ada", "human"), SeatSpec("Bo")]))
    assert not (home / old.code / "seats.json").exists() and seats.free_seats(old) == [ME, "Ada"]
    first = seats.take(old, "", "Ada")
    assert seats.is_host(old, first) and seats.held(old, first) == ["Ada"]
    second = seats.take(old, "", ME)
    assert not seats.is_host(old, second) and seats.held(old, second) == [ME]
    with pytest.raises(seats.Refused, match="taken by someone else"):
        seats.take(old, second, "Ada")
    with pytest.raises(seats.Refused, match="played by an AI"):
        seats.take(old, second, "Bo")
