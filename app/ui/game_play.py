"""The play page and sidebar of a FUBAR, Paganini or Vele table (app/ui/game_store.py).

The page lets the AI seats and virtual dice decide (with progress shown), then asks the person
for the decision pending only if THIS browser holds the seat asked (app/ui/game_seats.py checks
it again when the action is applied), with a form built from the legal options; otherwise it
says whom the table waits for. Per-game panels (app/ui/games) draw the sheets and the dice.
"""
from __future__ import annotations

import os
from typing import Any

import streamlit as st

from app.ui import game_actions as GA
from app.ui import game_seats, game_store, safe, seats
from app.ui.games import panels
from app.ui.sidebar import free_seats_and_link
from app.ui.transcript import SEALED
from app.ui.sidebar import token as seat_token  # this browser's seat secret, read one way for every game
from engine.core.errors import RuleViolation

NOTE = "game:note"
SHOWN = 150


def _say(text: str) -> None:
    st.session_state[NOTE] = text


# -- sidebar --------------------------------------------------------------------------------------


def sidebar(live: game_store.GameLive) -> list[str]:
    """The table's code and link, the seats this browser holds, free seats, seat kinds."""
    tok = seat_token()
    with st.sidebar:
        st.markdown(f"### {safe.text(game_store.GAMES.get(live.config.ruleset, live.config.ruleset))} table")
        st.caption(f"dice: {live.config.dice} · seed {live.config.seed} · {len(live.table.records)} actions")
        note = st.session_state.pop(NOTE, "")
        if note:
            st.warning(safe.text(note))
        mine = seats.held(live, tok)
        if mine:
            st.markdown("This browser plays **" + ", ".join(safe.text(n) for n in mine) + "**"
                        + (" and is the host." if seats.is_host(live, tok) else "."))
        else:
            st.markdown("You are **watching** this table.")
        free_seats_and_link(live, tok, "gsb")  # the link in full, as at a Universalis table
        kinds = list(game_store.KINDS)
        if not game_store.llm_available():
            kinds.remove("llm")
        with st.expander("Seat settings", expanded=False):
            st.caption("Any seat, the GM's included, switches between a person and an AI between two decisions: "
                       "its holder switches it; the host switches seats nobody holds.")
            for spec in live.config.seats:
                key = f"gsb:kind:{spec.name}"
                why = seats.may_switch(live, tok, spec.name)
                options = kinds if spec.kind in kinds else kinds + [spec.kind]

                def change(name: str = spec.name, k: str = key) -> None:
                    current = game_store.open_table(live.code) or live
                    old = next(s for s in current.config.seats if s.name == name)
                    try:
                        note = game_seats.switch(current, seat_token(), name, st.session_state[k])
                    except (seats.Refused, game_store.ReadOnly) as exc:
                        _say(str(exc))
                        st.session_state[k] = old.kind
                        return
                    if note:
                        _say(note)

                st.selectbox(f"{safe.text(spec.name)} ({spec.role})", options, index=options.index(spec.kind),
                             format_func=game_store.KINDS.get, key=key, on_change=change, disabled=bool(why),
                             help=why or None)
        withheld = game_store.log_withheld(live, mine)
        if withheld:
            st.caption(safe.text(withheld))
        else:
            st.download_button("Save the game (log)", game_store.log_download(live), key="gsave", width="stretch",
                               file_name=f"storytable-{live.config.ruleset}-{live.code}.jsonl",
                               mime="application/jsonl")
    return mine


# -- AI turns -------------------------------------------------------------------------------------


def run_ai(live: game_store.GameLive) -> None:
    box = st.status("The AI seats are deciding…", expanded=False)
    bar = box.progress(0.0)
    lines: list[str] = []
    line_box = box.empty()
    count = [0]

    def progress(who: str, rec: Any) -> None:
        count[0] += 1
        why = "" if rec.action.get("type") in SEALED else rec.meta.get("rationale") or ""  # a sealed bid's why states it
        kind = str(rec.action.get("type", "")).replace("_", " ")
        lines.append(f"{safe.text(who)}: {safe.text(kind)}" + (f" — {safe.text(why)}" if why else ""))
        bar.progress(min(1.0, count[0] / 300), text=f"{count[0]} decisions")
        line_box.markdown("\n".join(f"- {x}" for x in lines[-6:]))

    n = game_store.run_ai(live, progress)
    box.update(label=f"The AI seats made {n} decision{'s' if n != 1 else ''}" if n else
               "Nothing for the AI seats to decide", state="complete", expanded=False)


# -- a person's decision --------------------------------------------------------------------------


def _input(f: GA.Field, key: str, value: Any) -> Any:
    label = GA.label(f.name)
    if f.kind == "choice":
        choices = list(f.choices)
        idx = choices.index(value) if value in choices else 0
        return st.selectbox(label, choices, index=idx, key=key, format_func=lambda c: "—" if c is None else safe.plain(c))
    if f.kind == "bool":
        return st.checkbox(label, value=bool(value), key=key)
    if f.kind == "int":
        return int(st.number_input(label, value=int(value or 0), step=1, key=key))
    if f.kind == "float":
        return float(st.number_input(label, value=float(value or 0.0), key=key))
    if f.kind in ("text", "optint", "optfloat"):
        return st.text_input(label, value=GA.as_input(f, value), key=key)
    return st.text_area(f"{label} (JSON)", value=GA.as_input(f, value), key=key, height=90)


def decision_form(live: game_store.GameLive, seat: str, token: str) -> None:
    """The form for `seat`'s pending decision: the action type from the legal options, its fields
    filled with the offline AI's suggestion (the person changes what they want)."""
    pend = live.pending()
    did = seats.decision_id(live)
    types = GA.option_types(live.table, seat)
    if not types:
        st.info(f"{safe.text(seat)} has nothing to decide right now.")
        return
    st.markdown(f"#### {safe.text(seat)}: {safe.text(pend.kind.replace('_', ' '))}")
    if pend.note:
        st.caption(safe.text(pend.note))
    notes = {o.type: o for o in live.ruleset.legal_options(live.table.state, seat)}
    sugg_key = f"gsugg:{did}:{seat}"
    if sugg_key not in st.session_state:
        st.session_state[sugg_key] = GA.suggestion(live.table, seat) or {}
    sugg = st.session_state[sugg_key]
    default_type = sugg.get("type") if sugg.get("type") in types else types[0]
    type_ = st.selectbox("Action", types, index=types.index(default_type), key=f"gtype:{did}:{seat}",
                         format_func=lambda x: x.replace("_", " ")
                         + (f" (cost {notes[x].cost})" if x in notes and notes[x].cost not in ("", "0") else ""))
    opt = notes.get(type_)
    if opt is not None and (opt.note or opt.choices):
        st.caption(safe.text(opt.note) + (" · choices: " + ", ".join(safe.text(c) for c in opt.choices)
                                          if opt.choices else ""))
    cls = GA.action_classes(live.ruleset.name)[type_]
    start = sugg if sugg.get("type") == type_ else {}
    with st.form(key=f"gform:{did}:{seat}:{type_}"):
        values = {f.name: _input(f, f"gf:{did}:{seat}:{type_}:{f.name}", start.get(f.name, f.default))
                  for f in GA.fields(cls)}
        sent = st.form_submit_button("Decide", type="primary")
    if sent:
        try:
            action = GA.build(live.ruleset, seat, type_, values)
            game_seats.act(live, token, action, did)
        except ValueError as exc:
            st.error(f"Not sent: {safe.text(exc)}")
            return
        except game_seats.Stale as exc:
            st.info(safe.text(exc))
            return
        except (game_seats.Refused, RuleViolation, game_store.ReadOnly) as exc:
            st.error(f"Refused: {safe.text(exc)}")
            return
        st.rerun()


def typed_roll(live: game_store.GameLive, token: str) -> None:
    """Physical dice: the people at the table roll and type the faces the ruleset asks for."""
    pend = live.pending()
    did = seats.decision_id(live)
    st.markdown("#### Roll the real dice")
    typed = {d.key: st.text_input(f"{safe.text(d.key)}: {d.count} d{d.sides}", key=f"groll:{did}:{d.key}")
             for d in pend.dice}
    if st.button("Enter the roll", key=f"gdo:roll:{did}", type="primary"):
        try:
            faces = {d.key: GA.parse_faces(typed[d.key], d.count, d.sides, f"{d.key}'s roll") for d in pend.dice}
            game_seats.roll(live, token, faces, did)
        except ValueError as exc:
            st.error(f"Not a roll: {safe.text(exc)}")
            return
        except game_seats.Stale as exc:
            st.info(safe.text(exc))
            return
        except (game_seats.Refused, RuleViolation, game_store.ReadOnly) as exc:
            st.error(f"Refused: {safe.text(exc)}")
            return
        st.rerun()


# -- transcript -----------------------------------------------------------------------------------


def transcript(live: game_store.GameLive, height: int = 380) -> None:
    """The story as it grows (newest first), and the why of each AI decision."""
    t = live.table
    events = t.events[-SHOWN:]
    st.markdown(f"**Transcript** ({len(t.events)} entries, newest first)")
    box = st.container(height=height)
    for e in reversed(events):
        try:
            line = e.line()  # names its speaker already ("Gina: ...")
        except Exception:
            line = getattr(e, "text", "")
        box.markdown(safe.text(line))
    ai = [r for r in t.records if r.meta.get("decided_by") not in (None, "human", "dice", "dice (typed)")][-12:]
    if ai:
        with st.expander("Why the AI seats decided as they did", expanded=False):
            for r in reversed(ai):
                why = "(a sealed answer: its why stays private)" if r.action.get("type") in SEALED else \
                    r.meta.get("rationale") or "—"
                fb = f" · fell back: {safe.text(r.meta['fallback'])}" if r.meta.get("fallback") else ""
                st.markdown(f"- #{r.seq} **{safe.text(r.action.get('player', ''))}** "
                            f"({safe.text(r.meta.get('decided_by'))}): {safe.text(str(r.action.get('type', '')))}"
                            f" — {safe.text(why)}{fb}")


# -- the page -------------------------------------------------------------------------------------


def model_trouble(live: game_store.GameLive) -> list[str]:
    """One line per LLM seat playing without its model right now (its status says why)."""
    out = []
    for player in live.table.seats.values():
        status = getattr(player, "status", None)
        if status is not None and not getattr(status, "with_model", True) and getattr(status, "message", ""):
            out.append(str(status.message))
    return out


def _watch(live: game_store.GameLive) -> None:
    if os.environ.get("STORYTABLE_APP_POLL", "1") == "0":
        return
    seen = live.size

    @st.fragment(run_every=2.5)
    def watcher() -> None:
        current = game_store.open_table(live.code)
        if current is not None and current.size != seen:
            st.rerun(scope="app")

    watcher()


def page(live: game_store.GameLive, mine: list[str]) -> None:
    token = seat_token()
    view_seat = mine[0] if mine else None
    if live.read_only:
        st.warning(safe.text(live.read_only))
    if live.damage is not None:
        st.error(safe.text(game_store.damage_note(live)))
        if seats.is_host(live, token) and not live.read_only:
            if st.button(f"Go on from action {len(live.table.records)}", key="gdo:continue-damaged", type="primary",
                         help="The damaged file is kept beside the new log, byte for byte."):
                try:
                    kept = game_store.continue_damaged(live)
                except (OSError, game_store.ReadOnly) as exc:
                    st.error(safe.text(f"Nothing was changed: {getattr(exc, 'strerror', None) or exc}"))
                else:
                    _say(f"The damaged log is kept as {kept}; the game goes on in a new log.")
                    st.rerun()
    for note in live.notes:
        st.info(safe.text(note))
    for line in model_trouble(live):
        st.warning(safe.text(line))
    has_person = any(s.is_human for s in live.config.seats)
    if live.ai_pending() or live.interjection_due():  # an AI seat may act out of turn before a person decides
        if has_person or seats.is_host(live, token):
            run_ai(live)
            if live.ai_pending() and st.button("Let the AI seats play on", key="gdo:ai", type="primary"):
                st.rerun()  # a table of AI seats plays in chunks, so the page shows how it goes
        else:
            st.caption("A table of AI seats: its host lets them play; you are watching.")
    rs = live.ruleset
    pend = live.pending()
    view = rs.view(live.table.state, view_seat)
    sheets, dice_panel = panels(rs.name)
    if live.over():
        st.success("The game is over.")
    else:
        st.markdown(f"**Waiting for: {', '.join(safe.text(s) for s in pend.seats) or 'nobody'} "
                    f"({safe.text(pend.kind.replace('_', ' '))})**")
    left, right = st.columns([3, 2], gap="medium")
    with left:
        asked = [s for s in pend.seats if s in mine and live.table.seats.get(s) is None] if not pend.is_chance else []
        if live.needs_typed_roll():
            if mine:
                typed_roll(live, token)
            else:
                st.info("The people at the table are rolling the real dice; you are watching.")
        elif asked:
            with st.container(border=True):
                decision_form(live, asked[0], token)
        elif not live.over() and not live.ai_pending():
            who = ", ".join(safe.text(p) for p in pend.seats)
            st.info(f"Waiting for {who} to decide in their own browser." if mine else
                    f"You are watching: waiting for {who}. Take a free seat in the sidebar to play.")
            if st.button("Refresh", key="gdo:refresh"):
                st.rerun()
            _watch(live)
        dice_panel(view, live.table.events[-40:])
        transcript(live)
    with right:
        sheets(view, live.table.events[-40:])
