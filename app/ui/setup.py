"""Set up a table: ruleset, seats (name, person or AI, persona, model), coins, refreshment, seed, dice."""
from __future__ import annotations

import streamlit as st

from agents.personas import DEFAULT_ROTATION, PERSONAS
from agents.seating import SeatSpec
from app.errors import public
from app.ui import addons as addon_ui
from app.ui import llmcheck, safe, store
from engine.core.errors import RuleViolation
from engine.universalis import new_game

RULESETS = {"universalis": "Universalis", "fubar": "FUBAR", "paganini": "Paganini", "vele": "Death of the Vele"}
KINDS = {"human": "person", "heuristic": "AI (offline)", "llm": "AI (language model)"}
DEFAULT_NAMES = ["You", "Ada", "Bo", "Cy", "Dee", "Eli"]


def _seat_rows(n: int) -> list[SeatSpec]:
    specs = []
    for i in range(n):
        c1, c2, c3, c4 = st.columns([2, 2, 2, 2])
        name = c1.text_input("name", value=DEFAULT_NAMES[i] if i < len(DEFAULT_NAMES) else f"P{i + 1}", key=f"setup:name:{i}")
        kind = c2.selectbox("plays", list(KINDS), index=0 if i == 0 else 1, format_func=KINDS.get, key=f"setup:kind:{i}")
        personas = [""] + list(PERSONAS)
        persona = c3.selectbox("persona", personas, key=f"setup:persona:{i}",
                               index=0 if i == 0 else personas.index(DEFAULT_ROTATION[(i - 1) % len(DEFAULT_ROTATION)]),
                               format_func=lambda p: p or "—", disabled=(kind == "human"))
        model = c4.text_input("model", key=f"setup:model:{i}", disabled=(kind != "llm"),
                              placeholder="from settings" if kind == "llm" else "")
        if kind == "llm":
            llmcheck.show(model.strip())
        specs.append(SeatSpec(name.strip(), kind, persona if kind != "human" else "", model.strip() if kind == "llm" else ""))
    return specs


def problems(specs: list[SeatSpec]) -> str | None:
    names = [s.name for s in specs]
    if any(not n for n in names):
        return "Every seat needs a name."
    if len(set(n.lower() for n in names)) != len(names):
        return "Two seats have the same name."
    try:
        new_game(names)
    except RuleViolation as exc:
        return str(exc)
    return None


def page(open_code) -> None:
    st.subheader("Set up a table")
    ruleset = st.selectbox("Ruleset", list(RULESETS), format_func=RULESETS.get, key="setup:ruleset")
    if ruleset != "universalis":
        from app.ui import game_setup

        game_setup.page(ruleset, open_code)
        return
    n = int(st.number_input("Seats", min_value=2, max_value=6, value=4, step=1, key="setup:n"))
    specs = _seat_rows(n)
    c1, c2, c3, c4 = st.columns(4)
    coins = int(c1.number_input("Starting coins", 1, 200, 25, key="setup:coins"))
    refresh = int(c2.number_input("Refreshment", 0, 50, 5, key="setup:refresh"))
    seed = int(c3.number_input("Seed", 0, 10**9, 0, key="setup:seed"))
    dice = c4.radio("Dice", ["virtual", "physical"], key="setup:dice", horizontal=True,
                    help="physical: you roll real d10s and type the faces in")
    premise = st.text_input("Premise (optional)", key="setup:premise",
                            placeholder="e.g. a dying empire on the rim of the galaxy")
    addons, addon_problem = addon_ui.choose([s.name for s in specs])
    kept = st.session_state.get("kept_tenets") or []
    if kept:
        st.markdown("**Tenets kept from the brainstorm** (proposed during preparation, 1 coin each, round the table):")
        st.markdown("\n".join(f"- {safe.text(t.text)}" for t in kept))
    if st.button("Start the table", type="primary", key="do:start"):
        why = problems(specs) or addon_problem
        if why:
            st.error(safe.text(why))
            return
        live = store.create(store.TableConfig(specs, seed, dice), coins, refresh, premise, addons=addons)
        if kept:
            try:
                from agents.brainstorm import seed_tenets

                seed_tenets(live.table, kept)
                live.synced()
            except Exception as exc:  # the table still starts, without them
                st.warning(safe.text(public(f"The kept Tenets could not be proposed: {exc}")))
            st.session_state["kept_tenets"] = []
        open_code(live.code)
