"""Valid Paganini sheets for the heuristic seats: four player archetypes and two kinds of NPC.

Each follows the book's creation steps (@23683-@24720) the way Richaz is built (@25555): three free
attribute levels and one traded level; half the skills (rounded up) in free skill levels and one
level traded from a weak General skill. The engine validates them like any sheet.
"""
from __future__ import annotations

from typing import Any

from agents.paganini.words import gear_for, skills_for

ARCHETYPES = ("fighter", "shooter", "talker", "scholar")


def _attrs(**kw: int) -> dict[str, int]:
    base = {"Fitness": 0, "Coordination": 0, "Quickness": 0, "Intellect": 0, "Focus": 0, "Wits": 0}
    base.update(kw)
    return base


def _sk(name: str, kind: str, level: int) -> dict[str, Any]:
    return {"name": name, "kind": kind, "level": level}


def player_sheet(name: str, concept: str, archetype: str, premise: str, description: str = "") -> dict[str, Any]:
    """A starting character of `archetype` in the premise's genre."""
    g, sk = gear_for(premise), skills_for(premise)
    if archetype == "fighter":
        attrs = _attrs(Fitness=2, Coordination=1, Intellect=-1, Quickness=1)
        skills = [_sk(sk["melee"], "experience", -2), _sk(sk["ranged"], "experience", -3), _sk("Dodge", "general", 0),
                  _sk("Alertness", "general", 1), _sk("Etiquette", "general", -1)]
        gear = {"weapons": [g["melee"]], "armour": g["heavy"]}
    elif archetype == "shooter":
        attrs = _attrs(Focus=2, Coordination=1, Intellect=-1, Wits=1)
        skills = [_sk(sk["ranged"], "experience", -2), _sk(sk["light"], "experience", -3), _sk("Dodge", "general", 0),
                  _sk("Alertness", "general", 1), _sk("Etiquette", "general", -1)]
        gear = {"weapons": [g["ranged"], g["light"]], "armour": g["armour"]}
    elif archetype == "talker":
        attrs = _attrs(Wits=2, Focus=1, Fitness=-1, Quickness=1)
        skills = [_sk("Persuasion", "general", 1), _sk("Streetwise", "experience", -3), _sk("Stealth", "experience", -3),
                  _sk("Alertness", "general", 1), _sk("Swimming", "general", -1), _sk(sk["light"], "experience", -4),
                  _sk("Dodge", "general", 1)]
        gear = {"weapons": [g["light"]]}
    else:  # scholar
        attrs = _attrs(Intellect=2, Wits=1, Fitness=-1, Focus=1)
        skills = [_sk(sk["lore"], "special", -3), _sk("Alertness", "general", 1), _sk("Persuasion", "general", 0),
                  _sk("Dodge", "general", 0), _sk(sk["light"], "experience", -4)]
        gear = {"weapons": [g["light"]]}
    return {"name": name, "concept": concept, "description": description, "attributes": attrs, "skills": skills,
            **gear}


def npc_sheet(name: str, concept: str, kind: str, premise: str) -> dict[str, Any]:
    """A boss (Richaz's attributes, a trained weapon, armour) or a minion."""
    g, sk = gear_for(premise), skills_for(premise)
    if kind == "boss":
        return {"name": name, "concept": concept, "attributes": _attrs(Fitness=2, Coordination=1, Intellect=-1, Wits=1),
                "skills": [_sk(sk["melee"], "experience", -2), _sk("Dodge", "general", 1),
                           _sk("Alertness", "general", 1), _sk("Etiquette", "general", -1),
                           _sk("Intimidation", "general", 0)],
                "weapons": [g["melee"]], "armour": g["heavy"]}
    return {"name": name, "concept": concept, "attributes": _attrs(Fitness=1, Coordination=1, Quickness=1),
            "skills": [_sk(sk["light"], "experience", -3), _sk("Dodge", "general", 0), _sk("Alertness", "general", 1)],
            "weapons": [g["light"]]}
