"""Read-only views of a state: the summary `storytable replay` prints, and the canon sheet."""
from __future__ import annotations

from typing import Any

from engine.universalis.components import importance
from engine.universalis.decisions import pending
from engine.universalis.facts import SECRET_TRAIT, hidden_from
from engine.universalis.state import GameState, HandState, Trait

UNSEEN_CARD = 0  # a card face `seat_state` does not show: another player's card in hand or played face down


def component_view(s: GameState, cid: str) -> dict[str, Any]:
    c = s.components[cid]
    sc = s.scene()
    return {
        "id": c.id, "name": c.label, "kind": c.kind, "importance": importance(s, c.id),
        "master": c.is_master, "sub_of": list(c.masters), "owner": c.owner,
        "eliminated": c.eliminated, "reduced": c.reduced,
        "controller": sc.control.get(c.id) if sc else None,
        "traits": [{"id": t.id, "text": SECRET_TRAIT if t.secret else t.text, "kind": t.kind,
                    "removed": t.removed, **({"secret": True, "by": t.by} if t.secret else {})} for t in c.traits],
    }


def summary(s: GameState) -> dict[str, Any]:
    """Players with wealth and stake, the Bank, scenes, components, the open Complication."""
    pend = pending(s)
    comp = s.complication
    return {
        "phase": s.phase,
        "actions": s.seq,
        "pending": {"kind": pend.kind, "players": list(pend.players)},
        "players": [{"name": p.name, "wealth": p.wealth, "stake": p.stake, "ledger": p.ledger.model_dump()}
                    for p in s.players],
        "bank": {"paid_in": s.bank_in, "paid_out": s.bank_out},
        "tenets": [{"id": t.id, "kind": t.kind, "text": t.text, "by": t.by} for t in s.tenets if not t.removed],
        "scenes": [{"number": sc.number, "framer": sc.framer, "mini": sc.mini,
                    "location": s.components[sc.location].label if sc.location else None,
                    "time": sc.time, "present": [s.components[x].label for x in sc.present],
                    "control": {s.components[k].label: v for k, v in sc.control.items()},
                    "ended": sc.ended, "faded": sc.faded} for sc in s.scenes],
        "components": [component_view(s, cid) for cid in s.components],
        "complication": None if comp is None else {
            "originator": comp.originator, "source": comp.source,
            "targets": [s.components[t].label for t in comp.targets],
            "pools": [{"pool": p.key, "owner": p.owner, "dice": p.dice, "edge": p.edge} for p in comp.pools],
            "rolls": [r.model_dump() for r in comp.rolls],
        },
        # Nested Complications (UA-NEST-1): the ones waiting under the open one, outermost first
        **({"suspended": [{"id": x.id, "originator": x.originator, "source": x.source,
                           "pools": [{"pool": p.key, "owner": p.owner, "dice": p.dice, "edge": p.edge} for p in x.pools]}
                          for x in s.suspended]} if s.suspended else {}),
        "complications_resolved": s.complications_resolved,
        "scenes_ended": s.scenes_ended,
    }


def seat_state(s: GameState, seat: str) -> GameState:
    """The state as `seat` may know it, for an AI seat deciding there (A seat acts only for what it sees):
    the other players' sealed bids gone (U-BID-1), and their votes while a vote is in secret (U-FACT-2,
    U-FINE-1), their unrevealed Enigma Traits' words read SECRET_TRAIT (UA-ENIGMA-1, L2182) and their cards in hand or played face down show UNSEEN_CARD, as many as they hold
    (Cards instead of Dice, UA-CDICE-1). A shallow copy: the parts hiding nothing are shared, never to be
    changed through it. Why: the heuristic reads Trait words and the state's every part; given this view it
    cannot use what its player would not know."""
    update: dict[str, Any] = {}
    if any(k != seat for k in s.bids):
        update["bids"] = {k: v for k, v in s.bids.items() if k == seat}

    def told(t: Trait) -> Trait:
        return t.model_copy(update={"text": SECRET_TRAIT}) if hidden_from(t, (seat,)) else t
    masked = {cid: c.model_copy(update={"traits": [told(t) for t in c.traits]})
              for cid, c in s.components.items() if any(hidden_from(t, (seat,)) for t in c.traits)}
    if masked:
        update["components"] = {cid: masked.get(cid, c) for cid, c in s.components.items()}
    kind = pending(s).kind  # a vote in secret (U-FACT-2, U-FINE-1): the others' votes are not told until all are in
    for key, box, vote in (("challenge", s.challenge, "fact_vote"), ("fine", s.fine, "fine_vote")):
        if kind == vote and box is not None and any(k != seat for k in box.votes):
            update[key] = box.model_copy(update={"votes": {k: v for k, v in box.votes.items() if k == seat}})
    if any(n != seat for n in s.extra.hands):
        hands = {n: h if n == seat else unseen_hand(h) for n, h in s.extra.hands.items()}
        update["extra"] = s.extra.model_copy(update={"hands": hands})
    return s.model_copy(update=update) if update else s


def unseen_hand(h: HandState) -> HandState:
    """Another player's hand as the table sees it: how many cards, not their faces; his discards are face up."""
    def unseen(cards: list[int]) -> list[int]:
        return [UNSEEN_CARD] * len(cards)
    return h.model_copy(update={"hand": unseen(h.hand), "trait_cards": unseen(h.trait_cards),
                                "played": {k: unseen(v) for k, v in h.played.items()}})
