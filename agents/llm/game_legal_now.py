"""What an LLM seat of FUBAR or Paganini may write now: fields the table's options leave out, ids as enums.

Why: a small model held by a grammar fills every field the schema offers. SmolLM2 on llama-cpp-python's
server, as FUBAR's GM, ruled exchanges and automatic fire at a table without the weapons option (F-20);
as a player it named a Goal its character does not have (F-11), rerolled another seat's dice (F-7) and
made a character with one Trademark (F-10); as Paganini's GM it put "A1" in a scene (P-SCENE). Each such
answer is refused and the decision lost (so were a FUBAR scene's unknown opposition, F-14; a risky
ruling nobody asked for, F-14; a Descriptor or Condition the character lacks, F-4, F-7, F-19; the GM's
award to a seat without a character, F-11; a Paganini ruling kept up over rounds outside combat, P-13).
The Universalis seat has agents/llm/legal_now.py for this; here the same idea for the other games, read from the seat's own view (the only state it is shown). The engine
still judges every answer; this only stops offering what it refuses.

A narrowing is (field, how, values): "omit" leaves the field out (its default applies), "enum" offers only
`values` (for a list field: its items), "count" asks for exactly values[0] items, "split" (name, a, b, ...)
asks for one item per value, item i with its field `name` fixed to the i-th value.
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["Narrowing", "narrowing"]

Narrowing = tuple[tuple[str, str, tuple[Any, ...]], ...]

# FUBAR's weapons and armour option (F-20, F-21): without it these fields are refused
FUBAR_WEAPON_FIELDS = {
    "rule_conflict": ("exchange", "cramped", "sprays", "pc_range_disadvantage", "opposition_range_disadvantage",
                      "pc_auto_fire", "opposition_auto_fire"),
    "create_character": ("armour", "partial_armour", "shield", "weapon_rating"),
    "add_opposition": ("armour", "partial_armour", "weapon_rating"),
}
# the GM's actions on one player's character (F-11, F-12, F-22, F-23)
FUBAR_SEAT_ACTIONS = ("award_resolve", "goal_setback", "goal_resolved", "level_up", "recharge_powers", "lose_asset")
# F-10 (@18326 "Each character starts with 8 Descriptors"): a new character has 4 Trademarks, 2 Flaws and 2 Relationships, one positive and one negative
FUBAR_NEW_CHARACTER = (("trademarks", "count", (4,)), ("flaws", "count", (2,)),
                       ("relationships", "split", ("positive", True, False)))


def _fubar(view: dict[str, Any], seat: str, action_type: str) -> list[tuple[str, str, tuple[Any, ...]]]:
    opts = view.get("options") or {}
    out: list[tuple[str, str, tuple[Any, ...]]] = []
    if not opts.get("weapons_armour"):
        out += [(f, "omit", ()) for f in FUBAR_WEAPON_FIELDS.get(action_type, ())]
    if not opts.get("scale") and action_type in ("create_character", "add_opposition"):
        out.append(("scale", "omit", ()))
    if action_type == "create_character":
        out += list(FUBAR_NEW_CHARACTER)
        if not opts.get("super_descriptors"):
            out.append(("super_descriptor", "omit", ()))
        if not opts.get("broad_power_cost"):
            out.append(("broad_power", "omit", ()))
    me = next((c for c in view.get("characters") or [] if isinstance(c, dict) and c.get("seat") == seat), None)
    if action_type == "attempt" and me is not None:
        goals = tuple(str(g) for g in me.get("goals") or [])
        out += [("goal", "enum", goals)] if goals else [("goal", "omit", ()), ("goal_step", "omit", ())]
    foes = tuple(str(o["id"]) for o in view.get("opposition") or []
                 if isinstance(o, dict) and o.get("id") and not o.get("defeated"))
    if action_type == "frame_scene":  # F-14: the scene's opposition by id
        out.append(("present", "enum", foes) if foes else ("present", "omit", ()))
    if action_type == "attempt":  # F-14: an opposition still standing, or another player's seat
        rivals = tuple(str(c["seat"]) for c in view.get("characters") or []
                       if isinstance(c, dict) and c.get("seat") and c.get("seat") != seat and not c.get("out"))
        out.append(("against", "enum", foes + rivals) if foes + rivals else ("against", "omit", ()))
    if me is not None:
        # F-4: an attempt claims own Trademarks, Concept abilities and positive Relationships; F-7: a fact names
        # any own Descriptor; F-19: downtime eases an own Condition
        own = [*(me.get("trademarks") or []), *(me.get("concept_abilities") or []),
               *(r.get("target") for r in (me.get("relationships") or []) if isinstance(r, dict) and r.get("positive"))]
        every = [*own, *(me.get("flaws") or []),
                 *(r.get("target") for r in (me.get("relationships") or []) if isinstance(r, dict) and not r.get("positive"))]
        conditions = tuple(str(c["id"]) for c in me.get("conditions") or [] if isinstance(c, dict) and c.get("id"))
        if action_type == "attempt":  # F-22: an aiding asset's Trademarks count too
            aids = [t for x in me.get("assets") or [] if isinstance(x, dict) and not x.get("lost")
                    for t in x.get("trademarks") or []]
            claims = [*own, *aids]
            out.append(("descriptors", "enum", tuple(dict.fromkeys(str(d) for d in claims if d))) if claims
                       else ("descriptors", "omit", ()))
        if action_type == "narrate_fact" and every:
            out.append(("descriptor", "enum", tuple(dict.fromkeys(str(d) for d in every if d))))
        if action_type == "downtime":
            out.append(("condition_id", "enum", conditions) if conditions else ("condition_id", "omit", ()))
    players = tuple(str(c["seat"]) for c in view.get("characters") or []
                    if isinstance(c, dict) and c.get("seat") and not c.get("out"))
    if action_type == "replace_goal" and me is not None and me.get("goals"):
        out.append(("old", "enum", tuple(str(g) for g in me["goals"])))  # F-11: a Goal the character has
    if action_type == "goal_resolved":  # F-11: a Goal some character has (the schema cannot tie it to `seat`)
        goals = tuple(dict.fromkeys(str(g) for c in view.get("characters") or [] if isinstance(c, dict)
                                    for g in c.get("goals") or []))
        if goals:
            out.append(("goal", "enum", goals))
    if action_type in FUBAR_SEAT_ACTIONS and players:  # F-11: the GM names a seat that has a character
        out.append(("seat", "enum", players))
    if action_type == "attempt":  # F-25: others join with their own characters
        rivals = tuple(p for p in players if p != seat)
        out += [(f, "enum", rivals) if rivals else (f, "omit", ()) for f in ("aligned", "helpers")]
    if action_type == "rule_conflict":
        conflict = view.get("conflict") or {}
        if not conflict.get("risky_asked"):
            out.append(("risky", "omit", ()))  # F-14: the risky approach is the player's to ask for
        if not (opts.get("level_option") and opts.get("scale")):
            out.append(("level_bump", "omit", ()))  # F-12
    if action_type == "reroll":
        conflict = view.get("conflict") or {}
        keys = tuple(str(r.get("key")) for r in conflict.get("rolls") or [] if isinstance(r, dict) and r.get("key"))
        mine = tuple(k for k in keys if k == seat) or keys  # one's own dice; the roller's in a PC-vs-PC conflict
        if mine:
            out.append(("key", "enum", mine))
    return out


# Paganini's fields that name a character by id (P-6, P-13, P-17): what else a model writes there is refused
PAGANINI_ID_FIELDS = {"attempt": ("against", "actor"), "attack": ("actor", "target"), "hold": ("actor",),
                      "passive_check": ("who",), "start_combat": ("combatants",), "record_training": ("character",),
                      "heal": ("character",), "alter_character": ("character",), "end_day": ("withhold",),
                      "end_week": ("withhold",)}

PAGANINI_ATTRIBUTE_FIELDS = {"attempt": ("attribute",), "passive_check": ("attribute",), "attack": ("attribute",),
                             "defend": ("attribute",), "call_check": ("opposed_attribute",)}


def _paganini(view: dict[str, Any], seat: str, action_type: str) -> list[tuple[str, str, tuple[Any, ...]]]:
    living = tuple(str(c["id"]) for c in view.get("characters") or []
                   if isinstance(c, dict) and c.get("id") and not c.get("dead"))
    out: list[tuple[str, str, tuple[Any, ...]]] = [(f, "enum", living) for f in PAGANINI_ID_FIELDS.get(action_type, ())
                                                   if living]
    attributes = tuple(dict.fromkeys(str(a) for c in view.get("characters") or [] if isinstance(c, dict)
                                     for a in (c.get("attributes") or {})))
    for f in PAGANINI_ATTRIBUTE_FIELDS.get(action_type, ()):
        if attributes:  # P-6: one of the six attributes, by name
            out.append((f, "enum", attributes))
    if action_type == "call_check" and not view.get("combat"):
        out.append(("rounds", "omit", ()))  # P-13: only in combat is a long action kept up over rounds
    if action_type != "frame_scene":
        return out
    npcs = tuple(str(c["id"]) for c in view.get("characters") or []
                 if isinstance(c, dict) and c.get("npc") and c.get("id") and not c.get("dead"))
    # P-SCENE: only NPCs are placed in a scene (the players' characters always are)
    return [("present", "enum", npcs)] if npcs else [("present", "omit", ())]


RULESETS: dict[str, Callable[[dict[str, Any], str, str], list[tuple[str, str, tuple[Any, ...]]]]] = {
    "fubar": _fubar, "paganini": _paganini}  # a Vele build is asked in words only (agents/llm/build_words.py)


def narrowing(ruleset_name: str, view: dict[str, Any], seat: str, action_type: str) -> Narrowing:
    """The narrowings of `action_type`'s fields for `seat` now (empty for a game without any)."""
    make = RULESETS.get(ruleset_name)
    return tuple(make(view, seat, action_type)) if make is not None else ()
