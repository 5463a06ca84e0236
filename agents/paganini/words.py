"""Words and gear for Paganini's heuristic seats: each genre's weapons, armour and skill names, and
phrases for what a success tier means in the story. The genre comes from the premise, through the
same lexicon the other games' players use (agents/fubar/words.py)."""
from __future__ import annotations

from typing import Any

from agents.fubar.words import genre_for, lex, lower_first, premise_people, premise_places

__all__ = ["GEAR", "SKILLS", "TIER_WORDS", "gear_for", "genre_for", "lex", "lower_first", "premise_people",
           "premise_places", "skills_for"]

# genre -> melee weapon, ranged weapon, armour (setting data the GM approves, @24800)
GEAR: dict[str, dict[str, Any]] = {
    "fantasy": {
        "melee": {"name": "longsword", "quality": 0, "damage": 1, "types": ["cutting", "piercing"],
                  "skill": "Sword"},
        "light": {"name": "dagger", "quality": 1, "damage": 0, "types": ["piercing", "cutting"], "skill": "Knife"},
        "ranged": {"name": "short bow", "quality": 0, "damage": 1, "types": ["piercing"], "mode": "fired",
                   "skill": "Bow"},
        "armour": {"name": "boiled leather", "ratings": {"cutting": 1, "piercing": 1, "blunt": 1}},
        "heavy": {"name": "chain mail", "ratings": {"cutting": 2, "piercing": 1, "blunt": 1}, "heavy": True},
    },
    "western": {
        "melee": {"name": "bowie knife", "quality": 0, "damage": 0, "types": ["cutting", "piercing"],
                  "skill": "Knife"},
        "light": {"name": "bowie knife", "quality": 0, "damage": 0, "types": ["cutting", "piercing"],
                  "skill": "Knife"},
        "ranged": {"name": "revolver", "quality": 0, "damage": 2, "types": ["piercing"], "mode": "fired",
                   "skill": "Pistol"},
        "armour": {"name": "duster coat", "ratings": {"cutting": 1}},
        "heavy": {"name": "duster coat", "ratings": {"cutting": 1}},
    },
    "noir": {
        "melee": {"name": "blackjack", "quality": 0, "damage": 0, "types": ["blunt"], "skill": "Brawling",
                  "strength": "full"},
        "light": {"name": "switchblade", "quality": 0, "damage": 0, "types": ["cutting", "piercing"],
                  "skill": "Knife"},
        "ranged": {"name": ".38 revolver", "quality": 0, "damage": 1, "types": ["piercing"], "mode": "fired",
                   "skill": "Pistol"},
        "armour": {"name": "heavy overcoat", "ratings": {"cutting": 1}},
        "heavy": {"name": "heavy overcoat", "ratings": {"cutting": 1}},
    },
    "space opera": {
        "melee": {"name": "vibroblade", "quality": 0, "damage": 1, "types": ["cutting"], "skill": "Blade"},
        "light": {"name": "stun baton", "quality": 1, "damage": -1, "types": ["energy", "blunt"], "skill": "Blade"},
        "ranged": {"name": "blaster", "quality": 0, "damage": 2, "types": ["energy"], "mode": "fired",
                   "skill": "Blaster"},
        "armour": {"name": "flak vest", "ratings": {"energy": 1, "piercing": 1}},
        "heavy": {"name": "marine plate", "ratings": {"energy": 2, "piercing": 2, "cutting": 2}, "heavy": True},
    },
    "horror": {
        "melee": {"name": "hatchet", "quality": 0, "damage": 1, "types": ["cutting"], "skill": "Axe"},
        "light": {"name": "kitchen knife", "quality": 0, "damage": 0, "types": ["cutting", "piercing"],
                  "skill": "Knife"},
        "ranged": {"name": "shotgun", "quality": -1, "damage": 2, "types": ["piercing"], "mode": "fired",
                   "skill": "Shotgun"},
        "armour": {"name": "thick coat", "ratings": {"cutting": 1}},
        "heavy": {"name": "thick coat", "ratings": {"cutting": 1}},
    },
}

# genre -> (lore skill, Special); the rest are common to all genres
SKILLS: dict[str, str] = {"fantasy": "Herb Lore", "western": "Doctoring", "noir": "Forensics",
                          "space opera": "Astrogation", "horror": "Occult Lore"}

# what a tier means in the story, said by whoever narrates it (P-5, section 3)
TIER_WORDS: dict[str, str] = {
    "Critical Success": "beyond all hope",
    "Great Success": "cleanly and with style",
    "Normal Success": "as planned",
    "Marginal Success": "only just",
    "Marginal Failure": "so nearly",
    "Normal Failure": "plainly",
    "Great Failure": "badly",
    "Critical Failure": "disastrously",
}


def gear_for(premise: str) -> dict[str, Any]:
    return GEAR[genre_for(premise)]


def skills_for(premise: str) -> dict[str, str]:
    g = gear_for(premise)
    return {"melee": g["melee"]["skill"], "light": g["light"]["skill"], "ranged": g["ranged"]["skill"],
            "lore": SKILLS[genre_for(premise)]}
