"""Read-only views of a state: the summary `storytable replay` prints, and the canon sheet."""
from __future__ import annotations

from typing import Any

from engine.universalis.components import importance
from engine.universalis.decisions import pending
from engine.universalis.facts import SECRET_TRAIT
from engine.universalis.state import GameState


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
