"""Healing and repair in play (V-40, L669), on engine/vele/healing.py's arithmetic.

Why a module: a heal is a component's action on its turn with its own roll (the healer's trait die
against every wounded trait together) and its own cost (dice points spent to the bowl, a rule that
says so, V-9). Registered on rules.HANDLERS when engine.vele.rules is imported.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele import economy as E
from engine.vele import healing as H
from engine.vele.rules import Ctx, advance_turn, comp, current_turn, handles, need_phase, player_of, pool_of, to_bowl
from engine.vele.state import Healing
from engine.vele.struggle import Side, decide


@handles(A.Heal)
def heal(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "scene")
    if a.player != current_turn(s):
        raise RuleViolation("V-25", f"you heal on your turn; it is {current_turn(s)}'s")
    healer, patient = comp(s, a.healer, "V-40"), comp(s, a.patient, "V-40")
    sc = s.scene
    if player_of(s, healer) != a.player:
        raise RuleViolation("V-53", f"{healer.name} is not yours to play")
    if sc is None or healer.id not in sc.present or patient.id not in sc.present or healer.out:
        raise RuleViolation("V-40", "the healer and the patient must both be in the scene, the healer able to act")
    if healer.id in s.forfeit:
        raise RuleViolation("V-43", f"{healer.name} allied earlier and may do nothing during its next struggle")
    tr = healer.trait(a.trait)
    if tr is None or not tr.healthy:
        raise RuleViolation("V-40", f"{healer.name} has no healthy trait {a.trait!r}")
    ab = next((x for x in healer.abilities if x.effect == "heal" and x.trait == a.trait), None)
    cap = H.heal_capacity(ab.size if ab else None, tr.size, s.options.heal_without_ability)
    wounded = {t.name: t.size for t in patient.traits if t.damage}
    prior = s.healed.get(patient.id, [])
    if prior:
        raise RuleViolation("V-40", f"{patient.name} has had its healing attempt since the last conflict or sleep "
                                    "(a further healer joins the first attempt as its ally)")
    H.heal_plan(wounded, a.count, cap, a.paid)  # checks the count, the capacity and the cost
    pool = pool_of(s, healer)
    p = s.players[a.player]
    setattr(p, pool, E.remove_dice(getattr(p, pool), a.paid, "V-40", f"your {pool} pool"))
    to_bowl(s, a.paid)  # V-40: the cost is spent; spent dice go back to the bowl (V-9)
    s.healed[patient.id] = [healer.id]
    s.healing = Healing(healer=healer.id, trait=a.trait, patient=patient.id, count=a.count, wounded=wounded)
    s.phase = "heal_roll"
    c.emit("heal", f"{healer.name} tries to mend {a.count} of {patient.name}'s traits with {a.trait}, paying "
           + ", ".join(f"d{d}" for d in a.paid), a.player)


def heal_roll(c: Ctx) -> None:
    """V-40 (L669): the healer's trait die against every wounded trait together (the highest counts); the
    healer is the actor, so a tie fails (V-27 step 7). On a win the smallest traits are mended."""
    s, f = c.s, c.a.faces
    h = s.healing
    assert h is not None
    healer = s.components[h.healer]
    size = healer.trait(h.trait).size  # type: ignore[union-attr]
    names = sorted(h.wounded)
    hf = f.get("healer", [])
    wf = [f.get(f"wound:{i}", []) for i in range(len(names))]
    if len(hf) != 1 or not 1 <= hf[0] <= size or any(len(x) != 1 or not 1 <= x[0] <= h.wounded[n]
                                                       for x, n in zip(wf, names)):
        raise RuleViolation("V-40", "the heal roll needs the healer's die and one die per wounded trait")
    out = decide("offensive", Side((hf[0],)), Side(tuple(x[0] for x in wf)))
    patient = s.components[h.patient]
    s.healing = None
    s.phase = "scene"
    if out.winner == "actor":
        mended = H.mend_order(h.wounded, h.count)
        for name in mended:
            patient.trait(name).damage = ""  # type: ignore[union-attr]
        if patient.out and patient.healthy():
            patient.out = False
        c.emit("healed", f"heal roll {hf[0]} against {out.opponent_result}: {patient.name} recovers {', '.join(mended)}",
               player_of(s, healer))
    else:
        c.emit("heal_failed", f"heal roll {hf[0]} against {out.opponent_result}: the wounds hold", player_of(s, healer))
    advance_turn(s)
