"""The pending person's panel: exactly the actions legal now, each with its cost and its inputs.

Reaction windows appear as a prompt with a pass button; votes are two buttons; physical dice
are typed in here and sent to the engine as a `Roll`, like the table's dice source would.
"""
from __future__ import annotations

import functools

import streamlit as st
from pydantic import ValidationError

from app.ui import forms, reactions, safe, seats, store
from engine.core.dice import normalize_face
from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import legal_options, pending
from engine.universalis.addon_cards_hand import DEAL, TRAIT
from engine.universalis.addon_cards_play import SPENT
from engine.universalis.addon_individual import pool_label

KIND_TEXT = {
    "prep_turn": "Preparation: propose a Tenet, create a component, add a Trait, or pass.",
    "bid": "Bid in secret for the right to frame the next scene (the highest bid frames; bids are revealed together).",
    "turn": "Your turn: spend coins on the scene, then end your turn.",
    "reaction": "Someone just paid for a statement. Let it stand, or react.",
    "negotiation": "You are challenged: concede to the alternative, or contest it and bid.",
    "fact_vote": "Vote in secret: does the Fact apply to this statement?",
    "challenge_bid": "The Challenge is bid for: back an option with coins, or pass.",
    "fine_vote": "Vote in secret on the Fine.",
    "consent": "A player calls for resolution: agree to roll now, or keep building the Complication.",
    "narration": "Narrate the outcome with your bonus coins, then end your narration.",
    "declare_side": "Before the roll, declare your own Pool for the Complication (C) or the Targets (T).",
    "allocate": "Split Allocation: set your Pool's Successes against the other side's Pools (the Target Pools; "
                "mirrored, the Complication Pools), every one once.",
    "extend": "Before the roll: pay to extend the Complication into stages (each side split into sub-pools that "
              "roll and are narrated one pair at a time, smallest first), or let it roll whole.",
    "dialog_answer": "A character speaks to yours: answer, or refuse (which starts a Complication).",
    "frame_turn": "No scene is active: frame the next one (Open Scene Framing: no bidding).",
    "judgment": "You are the Judge: decide by the Facts and Gimmicks in effect whether the statement stands.",
    "overrule_vote": "The Judge has ruled: only a unanimous vote of the others overrules.",
}


NOTE = "do:note"  # a note from the click callback, shown in the panel on the run it starts


def stale_check(code: str, did: str) -> None:
    """on_click of every action button, bound to the decision the button was drawn for: it runs
    before the next run, so a second click (or one from a tab that had not seen the table move on)
    is noticed even when the page it was drawn on is gone."""
    live = store.open_table(code)
    if live is not None and seats.decision_id(live) != did:
        st.session_state[NOTE] = ("That decision was already answered (a second click, or the table moved on); "
                                  "your answer was not applied.")


def _do(live: store.Live, data: dict, token: str, did: str) -> bool:
    try:
        action = A.parse_action(data)
    except ValidationError as exc:
        missing = ", ".join(str(e["loc"][-1]).replace("_", " ") for e in exc.errors() if e.get("loc"))
        st.error(f"Fill in: {safe.text(missing)}." if missing
                 else f"That action is incomplete: {safe.text(exc.errors()[0]['msg'])}")
        return False
    try:
        seats.act(live, token, action, did)
    except seats.Stale as exc:
        st.info(safe.text(exc))
        return False
    except seats.Refused as exc:
        st.error(f"Refused: {safe.text(exc)}")
        return False
    except RuleViolation as exc:
        st.error(f"Refused: {safe.text(exc)}")
        return False
    return True


def person_panel(live: store.Live, player: str, token: str) -> None:
    s = live.table.state
    pend = pending(s)
    did = seats.decision_id(live)
    end = f"@{did}"
    clicked = functools.partial(stale_check, live.code)
    do = functools.partial(_do, live, token=token, did=did)
    opts = [o for o in legal_options(s, player) if forms.available(s, o, player)]
    st.markdown(f"#### {safe.text(player)}, it is your decision")
    st.caption(KIND_TEXT.get(pend.kind, pend.kind))
    if pend.note:
        (st.warning if pend.kind in ("reaction", "negotiation", "fine_vote") else st.info)(safe.text(pend.note))
    if pend.kind == "reaction" and live.config.reaction_mode(player) == "concerns":
        why = reactions.concern(live.table, player)
        if why:
            st.caption(f"You are asked because {safe.text(why)}.")
    quick = [o for o in opts if forms.is_quick(o)]
    votes = [o for o in opts if not forms.is_quick(o) and forms.vote_field(o)]
    rest = [o for o in opts if o not in quick and o not in votes]
    buttons = [(o, {}, forms.LABELS.get(o.type, o.type) if o.type == "end_scene" else forms.label(o), "")
               for o in quick]
    if any(o.type == "end_scene" for o in quick):
        o = next(o for o in quick if o.type == "end_scene")
        buttons.append((o, {"fade": True}, "End the scene, fade to black · cost 1", ":fade"))
    if buttons:
        cols = st.columns(len(buttons))
        for col, (o, extra, text, tail) in zip(cols, buttons):
            if col.button(text, key=f"do:{player}:{o.type}{tail}{end}", width="stretch", on_click=clicked,
                          args=(did,), type="primary" if o.type in ("pass", "end_turn", "pass_prep", "end_scene")
                          and not tail else "secondary"):
                if do({"type": o.type, "player": player, **extra}):
                    st.rerun()
    for o in votes:
        name = forms.vote_field(o)
        assert name
        yes, no = forms.BOOL_WORDS[name]
        extra = {}
        if o.type == "answer_dialog":
            line = st.text_input("your reply", key=f"f:{player}:answer_dialog:line{end}")
            extra = {"line": line} if line else {}
        c1, c2 = st.columns(2)
        for col, word, val in ((c1, yes, True), (c2, no, False)):
            if col.button(word, key=f"do:{player}:{o.type}:{str(val).lower()}{end}", width="stretch",
                          on_click=clicked, args=(did,)):
                if do({"type": o.type, "player": player, name: val, **extra}):
                    st.rerun()
    if rest:
        # in a reaction window most people let it stand: the reactions fold away under the pass button
        holder = st.expander("…or react: " + ", ".join(forms.LABELS.get(o.type, o.type).split(" (")[0].lower()
                                                      for o in rest)) if pend.kind == "reaction" else st.container()
        with holder:
            by_type = {o.type: o for o in rest}
            if st.session_state.get(f"pick:{player}") not in by_type:
                st.session_state.pop(f"pick:{player}", None)
            chosen = st.selectbox("Or choose an action", list(by_type),
                                  index=list(by_type).index(_default(s, pend.kind, rest)),
                                  format_func=lambda t: forms.menu_label(by_type[t]), key=f"pick:{player}")
            with st.container(border=True):
                forms.action_form(s, by_type[chosen], player, do, did, on_click=clicked)


def _default(s, kind: str, rest: list) -> str:
    """The action a newcomer most likely wants next: the location when framing, else an Event."""
    types = [o.type for o in rest]
    sc = s.scene()
    for want in (("establish_location",) if kind == "turn" and sc is not None and sc.location is None else ()) + \
            ("propose_tenet", "bid", "narrate_event", "challenge_bid", "draw_trait"):
        if want in types:
            return want
    return types[0]


CARD_LETTERS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def card_faces(text: str, face_cards: bool) -> list[int]:
    """Typed card values: numbers (0 or 10 for a ten), A for an Ace and, with face cards kept (UA-CDICE-5),
    J, Q, K; ValueError says what is wrong."""
    high = 13 if face_cards else 10
    out = []
    for word in str(text).replace(",", " ").split():
        w = word.upper()
        v = CARD_LETTERS.get(w) if not w.isdigit() else int(w)
        v = 10 if v == 0 else v
        if v is None or not 1 <= v <= high:
            raise ValueError(f"{word!r} is not a card here (Ace = 1 to " + ("King: J, Q, K" if face_cards else "10") + ")")
        out.append(v)
    return out


def _drawer(key: str) -> str:
    """The player a deal key ("deal:<player>", "trait:<player>") draws for."""
    return key.split(":", 1)[1]


def typed_deal(live: store.Live, token: str) -> None:
    """Cards instead of Dice with real cards (UA-CDICE-1): each person draws from his own deck and types
    the cards he drew, for the seats this browser holds (and for AI seats, whose cards someone at the table
    draws). Another person's hand is never asked for or shown here: he types it in his own browser, and
    each entry is sent alone (the engine deals some of the hands owed and waits for the rest)."""
    s = live.table.state
    pend = pending(s)
    keys = [k for k in pend.dice if not seats.may_type_deal(live, token, _drawer(k))]
    others = list(dict.fromkeys(_drawer(k) for k in pend.dice if k not in keys))
    st.markdown("#### Draw your cards")
    if others:
        st.caption("Waiting for " + ", ".join(safe.text(n) for n in others) + " to draw and type their own cards "
                   "in their own browser; nobody else sees them.")
    if not keys:
        if st.button("Refresh", key="do:refresh-deal"):
            st.rerun()
        return
    st.caption("Draw from your own deck and type the values of the cards you drew (Ace = 1, 10 = 10 or 0"
               + (", J, Q, K" if s.config.addons.cards_with_face_cards else "") + "), "
               "separated by spaces. Only you see them: the others see how many cards you hold.")
    typed: dict[str, str] = {}
    for key in keys:
        h = s.extra.hands[_drawer(key)]
        n = pend.dice[key]
        stamp = f"{len(h.hand)}.{len(h.discards)}.{h.owed}.{h.trait_owed}.{h.reshuffles}"  # this draw only
        where = "from the Trait Deck (kept bonus)" if key.startswith(TRAIT) else "from your own deck"
        typed[key] = st.text_input(f"{safe.text(_drawer(key))}'s cards drawn {where}: {n} {'card' if n == 1 else 'cards'}",
                                   key=f"roll:{key}@{stamp}", type="password")
    if st.button("Enter my cards", key="do:deal", type="primary"):
        faces: dict[str, list[int]] = {}
        try:
            for key in keys:
                got = card_faces(typed[key], s.config.addons.cards_with_face_cards)
                if len(got) != pend.dice[key]:
                    raise ValueError(f"{_drawer(key)} draws {pend.dice[key]} cards, {len(got)} were typed")
                faces[key] = got
        except ValueError as exc:
            st.error(f"Not a draw: {safe.text(exc)}.")
            return
        _enter(lambda: seats.deal(live, token, A.Roll(faces=faces)))


def _enter(send) -> None:
    """Send typed dice or cards; a refusal or a stale entry is said on the page, else the page reruns."""
    try:
        send()
    except seats.Stale as exc:
        st.info(safe.text(exc))
        return
    except (seats.Refused, RuleViolation) as exc:
        st.error(f"Refused: {safe.text(exc)}")
        return
    st.rerun()


def typed_roll(live: store.Live, token: str) -> None:
    """Physical dice: people roll real d10s and type the faces (0 reads as 10)."""
    pend = pending(live.table.state)
    if pend.dice and all(k.startswith((DEAL, TRAIT)) for k in pend.dice):  # each person draws his own cards
        typed_deal(live, token)
        return
    did = seats.decision_id(live)
    st.markdown("#### Roll the real dice")
    d6 = live.table.state.config.addons.die == "d6"  # the d6 add-on (UA-SIX-1): odd faces succeed
    sides = pend.sides or (6 if d6 else 10)  # a new Judge (UA-JUDGE-3): one face per candidate
    ad = live.table.state.config.addons
    faces13 = ad.cards_with_face_cards or ad.face_card_gimmick is not None  # J, Q, K kept (UA-CDICE-5, UA-CARDS-4)
    if ad.currency != "coins" and not pend.sides:  # cards in place of dice
        st.caption("Cards: turn over each Pool's cards and type their values (Ace = 1, 10 = 10 or 0"
                   + (", J, Q, K" if faces13 else "") + ").")
    if any(k.startswith(SPENT) for k in pend.dice):  # Cards as Coins with face cards kept (UA-CARDS-4)
        st.caption("Turn over the top card each player just spent: a Jack, Queen or King makes another player "
                   "pay that coin (the table's face-card Gimmick).")
    if pend.sides:
        st.caption(f"Judgment: roll one d{pend.sides} to draw the new Judge ({safe.text(pend.note)}); 1 is the "
                   "first named.")
    st.caption("Roll a d6 for every die of each Pool (normal dice first, then Edge dice) and type the faces, "
               "separated by spaces. 1, 3 and 5 are successes." if d6 else
               "Roll a d10 for every die of each Pool (normal dice first, then Edge dice) and type the faces, "
               "separated by spaces. A 0 counts as 10; 1 to 5 are successes.")
    typed: dict[str, str] = {}
    for key, n in pend.dice.items():
        if n == 0:  # an empty Pool (Own Pool per Participant: a bystander who built none) rolls nothing
            typed[key] = ""
            continue
        name = "New Judge" if pend.sides and key == "judge" else pool_label(key, safe.text)
        if key.startswith(SPENT):
            name = f"{safe.text(key[len(SPENT):])}'s spent {'card' if n == 1 else 'cards'}"
        typed[key] = st.text_input(f"{name}: {n} {'die' if n == 1 else 'dice'}" if not key.startswith(SPENT)
                                   else name + f": {n}", key=f"roll:{key}@{did}")
    if st.button("Enter the roll", key=f"do:roll@{did}", type="primary",
                 on_click=functools.partial(stale_check, live.code), args=(did,)):
        faces: dict[str, list[int]] = {}
        try:
            hand = (ad.currency == "cards_hand" or (ad.currency != "coins" and faces13)) and not pend.sides
            for key, n in pend.dice.items():
                got = (card_faces(typed[key], faces13) if hand else
                       [normalize_face(int(x), sides) for x in typed[key].replace(",", " ").split()])
                if len(got) != n:
                    raise ValueError(f"the {key} Pool needs {n} faces, {len(got)} were typed")
                faces[key] = got
        except ValueError as exc:
            st.error(f"Not a roll: {safe.text(exc)}.")
            return
        _enter(lambda: seats.roll(live, token, A.Roll(faces=faces), did))
