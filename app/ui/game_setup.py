"""Set up a FUBAR, Paganini or Vele table: seats with roles and kinds, the game's table options,
the dice (virtual, or physical typed in), the seed and the premise.

Why the options come from the ruleset's options model: each game's variants (FUBAR's Doom, Vele's
acts and dice points, Paganini's optional rules) are pydantic fields there, so the page offers
exactly what the engine accepts; a refused table says which rule refused it.
"""
from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from app.ui import game_actions as GA
from app.ui import game_store, safe
from engine.core.errors import RuleViolation
from engine.core.ruleset import get_ruleset

DEFAULT_NAMES = ["You", "Gina", "Ann", "Bob", "Cat", "Dan"]


def kinds() -> list[str]:
    out = list(game_store.KINDS)
    if not game_store.llm_available():
        out.remove("llm")  # offered once an endpoint is configured and the LLM game player is installed
    return out


def seat_rows(game: str, n: int) -> list[game_store.GameSeat]:
    rs = get_ruleset(game)
    gm_led = "gm" in rs.roles
    out = []
    ks = kinds()
    for i in range(n):
        c1, c2, c3 = st.columns([2, 2, 2])
        name = c1.text_input("name", value=DEFAULT_NAMES[i] if i < len(DEFAULT_NAMES) else f"P{i + 1}",
                             key=f"gsetup:{game}:name:{i}")
        if gm_led:
            role = c2.selectbox("role", ["player", "gm"], index=1 if i == 1 else 0, key=f"gsetup:{game}:role:{i}",
                                format_func=lambda r: "Game Master" if r == "gm" else "player")
        else:
            role = "player"
            c2.caption("player (the narrator rotates)")
        kind = c3.selectbox("plays", ks, index=0 if i == 0 else 1, format_func=game_store.KINDS.get,
                            key=f"gsetup:{game}:kind:{i}")
        out.append(game_store.GameSeat(name.strip(), role, kind))
    return out


def options_form(game: str) -> dict[str, Any]:
    """The game's table options from its options model (simple fields; the rest keep defaults)."""
    model = get_ruleset(game).options_model
    values: dict[str, Any] = {}
    with st.expander("Table options (the book's variants)", expanded=False):
        cols = st.columns(2)
        for i, f in enumerate(GA.fields(model)):
            key = f"gsetup:{game}:opt:{f.name}"
            col = cols[i % 2]
            desc = (model.model_fields[f.name].description or None)
            if f.kind == "bool":
                values[f.name] = col.checkbox(GA.label(f.name), value=bool(f.default), key=key, help=desc)
            elif f.kind == "choice":
                ch = list(f.choices)
                values[f.name] = col.selectbox(GA.label(f.name), ch, index=ch.index(f.default) if f.default in ch else 0,
                                               key=key, help=desc)
            elif f.kind == "int" and not f.optional:
                values[f.name] = int(col.number_input(GA.label(f.name), value=int(f.default or 0), step=1, key=key,
                                                      help=desc))
    return values


def page(game: str, open_code: Callable[[str], None]) -> None:
    rs = get_ruleset(game)
    gm_led = "gm" in rs.roles
    st.caption(("One seat is the Game Master (a person or an AI); the others are players." if gm_led else
                "No fixed Game Master: the narrator rotates round the table.")
               + " Any seat can switch between a person and an AI during the game.")
    n = int(st.number_input("Seats", min_value=2 if gm_led else 3, max_value=6, value=4, step=1,
                            key=f"gsetup:{game}:n"))
    specs = seat_rows(game, n)
    options = options_form(game)
    c1, c2, c3 = st.columns(3)
    seed = int(c1.number_input("Seed", 0, 10**9, 0, key=f"gsetup:{game}:seed"))
    sizes = ", ".join(f"d{s}" for s in rs.die_sizes)
    dice = c2.radio("Dice", ["virtual", "physical"], key=f"gsetup:{game}:dice", horizontal=True,
                    help=f"physical: you roll real dice ({sizes}) and type the faces in")
    scenes = int(c3.number_input("Scenes an AI Game Master plans", 1, 20, 4, key=f"gsetup:{game}:scenes")) \
        if gm_led else 4
    premise = st.text_input("Premise (optional)", key=f"gsetup:{game}:premise",
                            placeholder="e.g. a western in a railroad town at the end of the line")
    if st.button("Start the table", type="primary", key="do:start"):
        try:
            live = game_store.create(game, specs, options, seed, dice, premise, scenes)
        except (RuleViolation, game_store.ReadOnly) as exc:
            st.error(safe.text(exc))
            return
        open_code(live.code)
