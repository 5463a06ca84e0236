"""FUBAR, Paganini and Vele tables in the Streamlit app, driven through AppTest.

A person sets the table up on the setup page and plays through the page's own forms (the
decision form's fields come filled with the offline AI's suggestion; the test changes some and
sends). What happened is read back from the log on disk: who decided what, in which role.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from agents.storage import filelock  # noqa: E402
from app.ui import game_seats, game_store, seats  # noqa: E402

APP = str(Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py")
HOSTILE = "<img src=x onerror=alert(1)>**bold**[link](javascript:alert(2))"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    yield tmp_path / "games"
    for code in list(game_store._REGISTRY):
        filelock.release(Path(code) / game_store.LOCK_NAME)
    game_store._REGISTRY.clear()


def ok(at: AppTest) -> AppTest:
    assert not at.exception, at.exception
    return at


def setup_table(game: str, person_role: str = "player", kinds: dict[int, str] | None = None,
                dice: str = "virtual", name: str = "You") -> AppTest:
    """The setup page as a person fills it: game, seats (seat 0 is the person), roles, dice."""
    at = ok(AppTest.from_file(APP, default_timeout=240).run())
    at.selectbox(key="setup:ruleset").set_value(game)
    ok(at.run())
    at.text_input(key=f"gsetup:{game}:name:0").set_value(name)
    if person_role == "gm":
        at.selectbox(key=f"gsetup:{game}:role:0").set_value("gm")
        at.selectbox(key=f"gsetup:{game}:role:1").set_value("player")
    for i, kind in (kinds or {}).items():
        at.selectbox(key=f"gsetup:{game}:kind:{i}").set_value(kind)
    if dice == "physical":
        at.radio(key=f"gsetup:{game}:dice").set_value("physical")
    at.button(key="do:start").click()
    return ok(at.run())


def code_of(at: AppTest) -> str:
    code = at.query_params["table"]
    return code[0] if isinstance(code, list) else code


def token_of(at: AppTest) -> str:
    tok = at.query_params.get("seat", "")
    return tok[0] if isinstance(tok, list) else tok


def live(at: AppTest) -> game_store.GameLive:
    lv = game_store.open_table(code_of(at))
    assert lv is not None
    return lv


def send(at: AppTest) -> AppTest:
    """Send the decision form as it stands (the person accepts the suggested fields)."""
    forms = at.get("form_submit_button")
    assert forms, "no decision form on the page"
    forms[0].click()
    return ok(at.run())


def records(at: AppTest) -> list[dict]:
    lines = (Path(game_store.home()) / code_of(at) / "game.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(x) for x in lines[1:]]


def person_types(at: AppTest, who: str = "You") -> list[str]:
    return [r["action"]["type"] for r in records(at)
            if r.get("meta", {}).get("decided_by") == "human" and r["action"].get("player") == who]


def play(at: AppTest, turns: int, until=None, seen: list[str] | None = None) -> AppTest:
    """Send up to `turns` decisions; `seen` collects every line the page showed on the way."""
    for _ in range(turns):
        if seen is not None:
            seen.extend(texts(at))
        if not at.get("form_submit_button") or (until is not None and until(at)):
            break
        send(at)
        assert not at.error, [e.value for e in at.error]
    return at


def texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown] + [c.value for c in at.caption]


# -- FUBAR -------------------------------------------------------------------------------------------


def test_fubar_person_player_with_ai_gm(home):
    """Issue 19: a person plays FUBAR in the browser with an AI GM: makes a character, attempts
    a conflict, sees the conflict panel (dice with evens marked, the ladder's answer)."""
    at = setup_table("fubar")
    lv = live(at)
    assert lv.table.roles["Gina"] == "gm" and lv.table.seats["Gina"] is not None
    assert lv.table.roles["You"] == "player" and lv.table.seats["You"] is None
    # the GM's preparation ran before the person was asked
    assert [r["action"]["type"] for r in records(at)][:1] == ["add_opposition"]
    assert at.get("form_submit_button"), "the person is asked to make a character"
    at.text_input(key=next(w.key for w in at.text_input if w.key.endswith(":create_character:name"))).set_value("Vera Kade")
    send(at)
    seen: list[str] = []
    play(at, 12, seen=seen)
    mine = person_types(at)
    assert mine[0] == "create_character"
    assert "attempt" in mine and ("keep_roll" in mine or "reroll" in mine or "narrate_outcome" in mine)
    assert any(v.startswith("**Conflict**") for v in seen)
    rolled = [v for v in seen if "evens in brackets" in v]
    assert rolled, "the conflict panel shows the dice with the evens marked"
    import re
    for line in rolled:  # every bracketed face is even, every bare face odd
        faces = line.split(":", 1)[1].split("(")[0]
        assert all(int(f) % 2 == 0 for f in re.findall(r"\[(\d+)\]", faces)), line
        assert all(int(f) % 2 == 1 for f in re.findall(r"(?<![\[\d])(\d+)(?![\]\d])", faces)), line
    assert any("→ **" in v and ("Yes" in v or "No" in v) for v in rolled), "the ladder's answer is shown"
    sheet = [v for v in texts(at) if v.startswith("**Vera Kade**")]
    assert sheet and "Resolve" in sheet[0]
    gm = [r for r in records(at) if r["action"].get("player") == "Gina"]
    assert {"prepare_scenario", "frame_scene", "rule_conflict"} <= {r["action"]["type"] for r in gm}
    assert all(r["meta"]["decided_by"] != "human" for r in gm)


def test_fubar_person_gm_with_ai_players(home):
    """Issue 19: a person runs FUBAR as the GM with three AI players: prepares, frames, rules."""
    at = setup_table("fubar", person_role="gm")
    lv = live(at)
    assert lv.table.roles["You"] == "gm" and lv.table.seats["You"] is None
    assert all(lv.table.seats[n] is not None for n in lv.table.seats if n != "You")
    play(at, 30, until=lambda a: "rule_conflict" in person_types(a) and "narrate_outcome" in
         [r["action"]["type"] for r in records(a)])
    mine = set(person_types(at))
    assert {"add_opposition", "prepare_scenario", "frame_scene", "rule_conflict"} <= mine
    ai_players = [r for r in records(at) if r["action"].get("player") in ("Gina", "Ann", "Bob")]
    assert {"create_character", "attempt"} <= {r["action"]["type"] for r in ai_players}


# -- Paganini ----------------------------------------------------------------------------------------


def test_paganini_person_player_with_ai_gm(home):
    """Issue 20: a person plays Paganini with an AI GM: builds a sheet, acts, sees the check panel
    (pool as HD/LD, kept die marked, the tier) and the wound track."""
    at = setup_table("paganini")
    seen: list[str] = []
    play(at, 14, seen=seen)
    mine = person_types(at)
    assert mine[0] == "create_character"
    assert "attempt" in mine or "attack" in mine, mine
    assert any(v.startswith("**Check**") for v in seen) or any(v.startswith("**Combat**") for v in seen)
    pools = [v for v in seen if "(kept in brackets)" in v]
    assert pools and all(" HD" in v or " LD" in v or "pool **" in v for v in pools)
    assert any("Wounds" in v and "/25" in v for v in texts(at))


def test_paganini_person_gm_with_ai_players(home):
    """Issue 20: the person is Paganini's GM: builds opponents, the adventure, frames, calls checks."""
    at = setup_table("paganini", person_role="gm")
    play(at, 24, until=lambda a: "call_check" in person_types(a))
    mine = set(person_types(at))
    assert {"add_opponent", "prepare_adventure", "frame_scene"} <= mine
    assert "call_check" in mine or "passive_check" in mine or "start_combat" in mine


# -- Vele --------------------------------------------------------------------------------------------


def test_vele_person_with_three_ai_seats(home):
    """Issue 21: a person plays Death of the Vele with three AI seats; the narrator rotates to
    the person in turn, and the bowl and dice are shown."""
    at = setup_table("vele")
    lv = live(at)
    assert set(lv.table.roles.values()) == {"player"}
    assert sum(p is None for p in lv.table.seats.values()) == 1
    seen: list[str] = []
    play(at, 40, until=lambda a: "frame_scene" in person_types(a) or "state_difficulty" in person_types(a),
         seen=seen)
    mine = person_types(at)
    assert mine[:3] == ["bid", "make_group", "build"]  # the form's suggestion makes the act's group first (V-60)
    assert any(t in mine for t in ("frame_scene", "state_difficulty", "wager")), mine
    assert any(v.startswith("The bowl:") for v in seen)
    assert any("character dice:" in v for v in seen)
    assert any(v.startswith("**Struggle**") for v in seen)
    assert any(v.startswith("Where the dice went:") for v in seen)



def test_reruns_while_a_person_is_awaited_ask_no_ai_seat_again(home, monkeypatch):
    """Streamlit reruns the page on every widget change. While a person is awaited, a rerun asks no
    AI seat again (no step, no out-of-turn interjection, no new suggestion for the form): AI seats
    decide once per state, when the state changes. Vele: its heuristic seats interject."""
    from agents.game_loop import GameTable
    from app.ui import game_actions

    asked = {"step": 0, "interjection": 0, "suggestion": 0}

    def counted(name, fn):
        def wrapper(*args, **kw):
            asked[name] += 1
            return fn(*args, **kw)
        return wrapper

    monkeypatch.setattr(GameTable, "step", counted("step", GameTable.step))
    monkeypatch.setattr(GameTable, "interjection", counted("interjection", GameTable.interjection))
    monkeypatch.setattr(game_actions, "suggestion", counted("suggestion", game_actions.suggestion))
    at = setup_table("vele")
    for _ in range(6):
        before = dict(asked)
        send(at)
        assert asked["suggestion"] > before["suggestion"]  # a new decision: its form asks once
        pend = live(at).pending()
        assert "You" in pend.seats and not live(at).ai_pending()
        sent = dict(asked)
        ok(at.run())
        ok(at.run())
        assert asked == sent, f"reruns at one state asked again: {sent} then {asked}"
    assert asked["step"] > 0 and asked["interjection"] > 0  # the counters do see the AI seats decide


def test_run_ai_asks_the_ai_seats_to_act_out_of_turn_once_a_state(home, monkeypatch):
    """game_store.run_ai, called again at a state where a person is awaited (a rerun, a second
    browser), does not ask the AI seats again whether they act out of turn; a seat switched to
    an AI is asked anew."""
    from agents.game_loop import GameTable

    asked = [0]
    real = GameTable.interjection

    def counted(self, pend):
        asked[0] += 1
        return real(self, pend)

    monkeypatch.setattr(GameTable, "interjection", counted)
    lv = game_store.create("vele", [game_store.GameSeat("You"), game_store.GameSeat("Gina", kind="heuristic"),
                                    game_store.GameSeat("Ann", kind="heuristic")])
    game_store.run_ai(lv)
    assert not lv.ai_pending() and "You" in lv.pending().seats and asked[0] >= 1
    first = asked[0]
    assert game_store.run_ai(lv) == 0 and game_store.run_ai(lv) == 0
    assert asked[0] == first
    lv.set_seat_kind("Ann", "heuristic")
    game_store.run_ai(lv)
    assert asked[0] == first + 1

# -- safety ------------------------------------------------------------------------------------------


def test_hostile_text_is_shown_as_text(home):
    """Whatever a player writes (a name, a character) reaches the page escaped: no HTML, no
    emphasis, no javascript: link."""
    at = setup_table("fubar", name="You")
    key = next(w.key for w in at.text_input if w.key.endswith(":create_character:name"))
    at.text_input(key=key).set_value(HOSTILE)
    send(at)
    assert any("Resolve" in v and "&lt;img" in v for v in texts(at)), "the sheet shows the escaped name"
    for v in texts(at):
        assert "<img" not in v and "](javascript" not in v and "**bold**" not in v


def test_hostile_seat_name_is_text_everywhere(home):
    """A seat named with markup: every place the page shows it (sidebar, waiting line, form
    heading, sheet) shows it as text."""
    name = "<b>Zed</b>*x*"
    at = setup_table("vele", name=name)
    assert live(at).table.seats.get(name, 0) is None
    play(at, 3)
    shown = texts(at) + [w.label for w in at.selectbox] + [w.label for w in at.text_input]
    assert any("&lt;b&gt;Zed&lt;/b&gt;\\*x\\*" in v for v in shown), "the name is shown, escaped"
    for v in shown:
        assert "<b>Zed" not in v and "*x*" not in v.replace("\\*x\\*", "")


def test_a_seat_cannot_be_driven_from_another_session(home):
    """Another browser (no token, or a token of another seat) sees no form for the person's seat,
    and an action sent with its token is refused and changes nothing."""
    at = setup_table("fubar")
    lv = live(at)
    other = AppTest.from_file(APP, default_timeout=240)
    other.query_params["table"] = lv.code
    ok(other.run())
    assert not other.get("form_submit_button")
    assert any("You are watching" in i.value for i in other.info)
    from app.ui import game_actions as GA
    sugg = GA.suggestion(lv.table, "You")
    action = lv.ruleset.parse_action({**sugg, "player": "You"})
    before = (Path(game_store.home()) / lv.code / "game.jsonl").read_bytes()
    with pytest.raises(game_seats.Refused, match="held by someone else"):
        game_seats.act(lv, seats.new_token(), action, seats.decision_id(lv))
    with pytest.raises(game_seats.Refused):  # the GM's seat is an AI's: nobody acts for it by hand
        game_seats.act(lv, token_of(at), lv.ruleset.parse_action({"type": "pass_turn", "player": "Gina"}),
                       seats.decision_id(lv))
    with pytest.raises(game_seats.Refused, match="Only the host"):
        game_seats.switch(lv, seats.new_token(), "Gina", "human")
    assert (Path(game_store.home()) / lv.code / "game.jsonl").read_bytes() == before


def test_another_browser_takes_a_free_seat_of_a_game_table_from_its_link(home):
    """The sidebar of a game table offers each free person's seat and the table's link, as a
    Universalis table's does (one function draws both)."""
    at = setup_table("fubar")
    lv = live(at)
    game_seats.switch(lv, token_of(at), "Gina", "human")  # the host hands the GM's seat to a person
    other = AppTest.from_file(APP, default_timeout=240)
    other.query_params["table"] = lv.code
    ok(other.run())
    assert any(c.value.endswith(f"?table={lv.code}") for c in other.code)
    assert [b.key for b in other.button if (b.key or "").startswith("gsb:take:")] == ["gsb:take:Gina"]
    other.button(key="gsb:take:Gina").click()
    ok(other.run())
    assert seats.held(live(other), token_of(other)) == ["Gina"]
    assert any("This browser plays **Gina**" in m.value for m in other.markdown)

def test_gm_seat_switches_to_a_person_mid_game(home):
    """Issue 19: any seat, the GM's included, switches between AI and person mid-game; the host
    then takes the GM's seat and is asked the GM's decisions."""
    at = setup_table("fubar")
    send(at)  # the person's character
    lv = live(at)
    tok = token_of(at)
    game_seats.switch(lv, tok, "Gina", "human")
    assert json.loads((lv.dir / "table.json").read_text())["seats"][1]["kind"] == "human"
    seats.take(lv, tok, "Gina")
    ok(at.run())
    play(at, 20, until=lambda a: bool(person_types(a, "Gina")))
    assert person_types(at, "Gina"), "the person now decides for the GM"
    game_seats.switch(lv, tok, "Gina", "heuristic")  # and hands it back
    ok(at.run())
    n = len(records(at))
    play(at, 6)
    assert len(records(at)) > n


def test_physical_dice_are_typed_in(home):
    """Physical dice: the faces the ruleset asks for are typed in; a wrong count is refused in
    words and changes nothing; the right faces are logged as typed."""
    at = setup_table("fubar", dice="physical")
    for _ in range(12):
        if any(h.value.startswith("#### Roll the real dice") for h in at.markdown):
            break
        send(at)
    assert any(h.value.startswith("#### Roll the real dice") for h in at.markdown)
    lv = live(at)
    pend = lv.pending()
    n = len(records(at))
    boxes = [w for w in at.text_input if (w.key or "").startswith("groll:")]
    boxes[0].set_value("1 2")
    next(b for b in at.button if (b.key or "").startswith("gdo:roll:")).click()
    ok(at.run())
    assert any("Not a roll" in e.value for e in at.error) and len(records(at)) == n
    for box, d in zip([w for w in at.text_input if (w.key or "").startswith("groll:")], pend.dice):
        box.set_value(" ".join(str(1 + i % d.sides) for i in range(d.count)))
    next(b for b in at.button if (b.key or "").startswith("gdo:roll:")).click()
    ok(at.run())
    typed = [r for r in records(at) if r["meta"].get("decided_by") == "dice (typed)"]
    assert typed and typed[0]["action"]["type"] == "roll_dice"


def test_table_reopens_after_restart_and_damaged_log_is_kept(home):
    """The log is the truth: a new server process reopens the table at the same point; a damaged
    log shows its valid part, says so, and is never written."""
    at = setup_table("vele")
    send(at)
    code = code_of(at)
    n = len(records(at))
    for k in list(game_store._REGISTRY):  # the server restarts
        filelock.release(Path(k) / game_store.LOCK_NAME)
    game_store._REGISTRY.clear()
    lv = game_store.open_table(code)
    assert lv is not None and len(lv.table.records) == n and lv.damage is None
    log = lv.dir / "game.jsonl"
    with open(log, "ab") as fh:
        fh.write(b'{"seq": 999, "action": {"type": "nonsense"}}\n')
    damaged = log.read_bytes()
    again = AppTest.from_file(APP, default_timeout=240)
    again.query_params["table"] = code
    again.query_params["seat"] = token_of(at)
    ok(again.run())
    assert any("damaged" in e.value for e in again.error)
    for f in again.get("form_submit_button"):  # even a form sent at a damaged table writes nothing
        f.click()
        ok(again.run())
    assert log.read_bytes() == damaged
    watcher = AppTest.from_file(APP, default_timeout=240)
    watcher.query_params["table"] = code
    ok(watcher.run())
    assert not [b for b in watcher.button if b.key == "gdo:continue-damaged"], "only the host goes on"
    next(b for b in again.button if b.key == "gdo:continue-damaged").click()
    ok(again.run())
    assert (lv.dir / "game.damaged-1.jsonl").read_bytes() == damaged  # kept byte for byte
    from engine.core.ruleset import replay_log_text
    rep = replay_log_text(log.read_text(encoding="utf-8"))
    assert rep.error is None and rep.applied == n
    play(again, 2)
    assert len(records(again)) > n, "the game goes on in the new log"


def test_bad_log_gives_a_message(home):
    """A log that is not a game at all: one line saying so, no traceback, the file untouched."""
    d = home / "BADTABLE1"
    d.mkdir(parents=True)
    (d / "table.json").write_text(json.dumps({"ruleset": "fubar", "seats": []}))
    (d / "game.jsonl").write_bytes(b"not json at all\n")
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params["table"] = "BADTABLE1"
    ok(at.run())
    assert any("cannot be read" in e.value for e in at.error)
    assert (d / "game.jsonl").read_bytes() == b"not json at all\n"


def test_upload_a_saved_game_log(home, tmp_path):
    """A FUBAR log saved by `simulate` is uploaded: a new table at the same point, every seat a
    person's held by the uploader; a damaged copy loads its valid part and its bytes are kept."""
    from agents.game_sim import simulate
    sim = simulate("fubar", seats=4, scenes=1, seed=5, max_steps=60)
    text = sim.table.log_text()
    lv = game_store.import_upload(text.encode("utf-8"))
    assert len(lv.table.records) == len(sim.table.records)
    assert all(s.kind == "human" for s in lv.config.seats)
    cut = text.encode("utf-8")[:-30]
    lv2 = game_store.import_upload(cut)
    assert len(lv2.table.records) == len(sim.table.records) - 1
    assert (lv2.dir / "upload.damaged.jsonl").read_bytes() == cut
    assert lv2.damage is None  # its new log is whole; the damage is only in the kept upload
    from engine.core.errors import LogError
    with pytest.raises(LogError):
        game_store.import_upload(b'{"ruleset": "fubar", "nonsense": 1}\n')


def test_V_31_V_57_the_log_download_is_withheld_while_it_holds_what_this_browser_may_not_see(home):
    """V-31 (L690: the other side "hides their roll and tells you the effect so that you don't know whether you
    failed"), V-57 (secret bids): the log holds every action as taken: the bids, a hidden roll's dice. So "Save
    the game (log)" is withheld from a browser while another player's bid is secret, and from one whose seats
    are all kept from a hidden roll's result (a watcher too); the caption says why and that the server keeps the
    log. The hidden roll's opponent's browser still saves it; so does everyone once the story is over."""
    from engine.vele import actions as VA
    from vele_helpers import SEATS, build_action, comp_of, story
    lv = game_store.create("vele", [game_store.GameSeat(n) for n in SEATS], dice="physical")
    host = seats.start(lv)  # Ann, Cy, Dee
    seats.free(lv, host, "Ben")
    ben = seats.take(lv, "", "Ben")

    def submit(*actions) -> None:
        for a in actions:
            lv.table.submit(a, {"decided_by": "human"})
            while lv.table.state.struggle is not None and lv.table.state.struggle.stage == "fate":
                lv.table.submit(VA.SpendFate(player=lv.table.state.struggle.fate_queue[0], skip=True))

    def page(tok: str = "") -> AppTest:
        at = AppTest.from_file(APP, default_timeout=240)
        at.query_params["table"] = lv.code
        if tok:
            at.query_params["seat"] = tok
        return ok(at.run())

    def saved(at: AppTest) -> bool:
        return "gsave" in {d.key for d in at.get("download_button")}

    def caption(at: AppTest) -> str:
        return " ".join(c.value for c in at.caption)
    assert saved(page(host)) and saved(page(ben))
    submit(VA.Bid(player="Ann", bid=6))
    b = page(ben)
    assert not saved(b) and "secret bid" in caption(b) and "keeps it on the server" in caption(b)
    assert saved(page(host))  # Ann's bid is this browser's own
    submit(*[VA.Bid(player=n, bid=x) for n, x in zip(SEATS[1:], (4, 3, 2))])
    mine = story("Ann")
    mine[1].name, mine[1].stationary = "Rickety bridge", True
    submit(*[build_action(n, story=mine) if n == "Ann" else build_action(n) for n in lv.table.state.order])
    s = lv.table.state
    bridge = next(c for c in s.components.values() if c.name == "Rickety bridge")
    dexter, cy = comp_of(s, "Ben", "pc"), comp_of(s, "Cy", "pc")
    submit(VA.FrameScene(player="Ann", place="the gorge", present=[dexter.id, cy.id, bridge.id]),
           VA.StartStruggle(player="Ben", actor=dexter.id, target=bridge.id, goal="maneuver", hidden=True,
                            text="Dexter creeps along the ropes"),
           VA.StateDifficulty(player="Ann", value=0),
           VA.Wager(player="Ben", stakes=[VA.StakeIn(trait="Blade", die=8, source="bowl")]),
           VA.Wager(player="Ann", stakes=[VA.StakeIn(trait="Numbers", die=6, source="bowl")]),
           VA.RollDice(faces={"actor:0": [2], "opponent:0": [5]}))
    assert lv.table.state.records[-1].hidden_from == ["Ben", "Cy", "Dee"]
    assert '"opponent:0": [5]' in lv.table.log_text() or '"opponent:0":[5]' in lv.table.log_text()
    for at in (page(ben), page()):
        assert not saved(at) and "hidden roll" in caption(at)
        assert "effect told in the story" in caption(at) and "effect 0" not in caption(at)  # V-31: no number
    assert saved(page(host))  # it holds Ann's seat, whose player alone sees the roll
    submit(VA.TellEffect(player="Ann", text="the ropes sway <b>under</b> Dexter"))  # V-31: told in words
    assert "effect told in the story: the ropes sway &lt;b&gt;under&lt;/b&gt; Dexter" in caption(page(ben))  # as text
    from engine.vele.ruleset import log_secrets
    assert log_secrets(lv.table.state, ["Ben"]) and not log_secrets(lv.table.state, ["Ann"])
    assert log_secrets(lv.table.state.model_copy(update={"phase": "over"}), ["Ben"]) == []  # the story is over


def test_the_page_asks_the_ai_seats_to_act_out_of_turn_when_a_persons_action_leads_to_his_next_decision(
        home, monkeypatch):
    """`storytable play --game vele` asks the AI seats whether they act out of turn (a challenge, a
    counter-struggle, a connection) before every person's decision. The page asked only after AI seats had
    moved: when a person's action led straight to another decision of the same person, nobody was asked. Now
    the page asks at that state too, once (a rerun asks nothing again)."""
    from agents.game_loop import GameTable

    asked: list[int] = []
    real = GameTable.interjection

    def counted(self, pend):
        asked.append(len(self.records))
        return real(self, pend)

    monkeypatch.setattr(GameTable, "interjection", counted)
    at = setup_table("vele")
    straight = 0
    for _ in range(40):
        if not at.get("form_submit_button"):
            break
        before = len(live(at).table.records)
        send(at)
        lv = live(at)
        recs = lv.table.records
        if len(recs) == before + 1 and "You" in lv.pending().seats and not lv.over():
            straight += 1  # the person's own action led straight to the person's next decision
            assert len(recs) in asked, f"not asked at {len(recs)}: {lv.pending().kind}"
            n = len(asked)
            ok(at.run())
            assert len(asked) == n  # once a state
        if straight >= 2:
            break
    assert straight >= 1


def test_V_57_an_ai_seats_why_for_its_secret_bid_is_not_shown(home):
    """V-57 (secret bids): the page's "Why the AI seats decided" lists each AI decision's why; a bid's why
    states the amount ("bid 4 of the 6 XP"), so it reads as a sealed answer there, while other decisions'
    whys are shown as before."""
    from engine.vele import actions as VA
    from vele_helpers import SEATS
    lv = game_store.create("vele", [game_store.GameSeat(n) for n in SEATS], dice="physical")
    host = seats.start(lv)
    lv.table.submit(VA.Bid(player=SEATS[1], bid=4), {"decided_by": "heuristic", "rationale": "bid 4 of the 6 XP"})
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params["table"] = lv.code
    at.query_params["seat"] = host
    at.run()
    assert not at.exception, at.exception
    shown = " ".join(m.value for m in at.markdown).replace("\\", "")  # escaped Markdown
    assert "a sealed answer: its why stays private" in shown and "bid 4 of the 6 XP" not in shown
