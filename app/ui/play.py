"""The play page: AI turns with visible progress, the pending person's panel, the state of play."""
from __future__ import annotations

import os

import streamlit as st

from app.ui import addon_panels, board, chart, conflict, decide, files, safe, seats, store, transcript
from engine.universalis import pending

AI_ONLY_CHUNK = 40


def run_ai(live: store.Live, limit: int = 400, mine: list[str] | None = None) -> None:
    """Let AI seats decide, showing each decision as it is made."""
    box = st.status("The AI players are deciding…", expanded=False)
    bar = box.progress(0.0)
    lines: list[str] = []
    line_box = box.empty()
    auto = [0]

    def progress(_live: store.Live, res, steps: int) -> None:
        if res.decision is not None and res.decision.kind == "human":
            auto[0] += 1  # a reaction window passed for a person by their seat setting
        elif res.decision is not None and res.decision.action.type not in ("pass",):
            private = transcript.private_why(live.table, res.decision.action.model_dump(), res.decision.kind,
                                             mine or [])
            why = "" if private else res.decision.rationale or ""  # as the transcript shows it to this browser
            lines.append(f"{safe.text(res.player)}: {res.decision.action.type.replace('_', ' ')}"
                         + (f" — {safe.text(why)}" if why else ""))
        elif res.player == "dice":
            lines.append("the dice are rolled")
        bar.progress(min(1.0, steps / max(1, limit)), text=f"{steps} decisions")
        line_box.markdown("\n".join(f"- {x}" for x in lines[-6:]))

    n = store.run_ai(live, progress, max_steps=limit) - auto[0]
    label = f"The AI players made {_count(n, 'decision')}" if n else "Nothing for the AI players to decide"
    if auto[0]:
        label += f"; {_count(auto[0], 'reaction window')} let stand by a person's seat setting"
    box.update(label=label, state="complete", expanded=False)


def _count(n: int, noun: str) -> str:
    """"1 decision", "5 decisions"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _ai_pending(live: store.Live) -> bool:
    pend = pending(live.table.state)
    if pend.kind == "roll":
        return live.config.dice != "physical"
    return any(not live.table.seats[p].is_human for p in pend.players if p in live.table.seats)


def _watch(live: store.Live) -> None:
    """While others decide in their own browsers, look for their moves every few seconds."""
    if os.environ.get("STORYTABLE_APP_POLL", "1") == "0":
        return
    seen = live.size

    @st.fragment(run_every=2.5)
    def watcher() -> None:
        current = store.open_table(live.code)
        if current is not None and current.size != seen:
            st.rerun(scope="app")

    watcher()


def model_trouble(live: store.Live) -> list[str]:
    """One line per LLM seat that is playing without its model right now (LLMPlayer.status, issue 24):
    "Bo is playing without its model: the endpoint refuses the request: ..."."""
    out = []
    for seat in live.table.seats.values():
        status = getattr(seat.player, "status", None)
        if status is not None and not getattr(status, "with_model", True) and getattr(status, "message", ""):
            out.append(str(status.message))
    return out


def page(live: store.Live, mine: list[str], token: str) -> None:
    """The table: the person's panel only for the seats this browser holds; everyone else watches."""
    host = seats.is_host(live, token) or not seats.load(live).host  # a table made before hosts: whoever writes
    files.storage_notice(live, host)  # read-only here, or a damaged log waiting for the host
    has_person = any(s.is_human for s in live.table.seats.values())
    if _ai_pending(live) or store.auto_pass_due(live):
        if has_person:
            run_ai(live, mine=mine)
        elif host:
            if st.button(f"Let the AI play {AI_ONLY_CHUNK} decisions", key="do:ai", type="primary"):
                run_ai(live, AI_ONLY_CHUNK, mine)
        else:
            st.caption("A table of AI players: its host lets them play; you are watching.")
    for note in live.notes:
        st.info(safe.text(note))
    for line in model_trouble(live):
        st.warning(safe.text(line))
    st.markdown(f"**{board.pending_line(live)}**")
    board.seats(live)
    left, right = st.columns([3, 2], gap="medium")
    with left:
        note = st.session_state.pop(decide.NOTE, "")  # an answer to a decision already answered
        if note:
            st.info(safe.text(note))
        pend = pending(live.table.state)
        mine_now = [p for p in pend.players if p in mine and p in live.table.seats and live.table.seats[p].is_human]
        if store.needs_typed_roll(live):
            if mine:
                decide.typed_roll(live, token)
            else:
                st.info("The people at the table are rolling the real dice; you are watching.")
        elif mine_now:
            if pend.secret and len(mine_now) > 1:
                st.caption("A secret decision: each person answers without the others looking.")
            for name in mine_now:
                with st.container(border=True):
                    decide.person_panel(live, name, token)
        elif not _ai_pending(live) and has_person:
            others = ", ".join(safe.text(p) for p in pend.players)
            if mine:
                st.info(f"Waiting for {others} to decide in their own browser.")
            else:
                st.info(f"You are watching: waiting for {others}. Take a free seat in the sidebar to play.")
            if st.button("Refresh", key="do:refresh"):
                st.rerun()
            _watch(live)
        conflict.challenge(live)
        conflict.fine(live)
        conflict.complication(live)
        transcript.transcript(live, mine=mine)
    with right:
        board.scene(live)
        addon_panels.panel(live, mine)  # what the active add-ons add (nothing in a core game)
        board.tenets(live)
        chart.coins_chart(live)
