"""AI seats for Paganini: a heuristic Game Master and heuristic players (offline, seeded)."""
from agents.paganini.heuristic import PaganiniGM, PaganiniPlayer, heuristic_seat

__all__ = ["PaganiniGM", "PaganiniPlayer", "heuristic_seat"]
