"""AI seats for FUBAR: a heuristic Game Master and heuristic players (offline, seeded)."""
from agents.fubar.heuristic import FubarGM, FubarPlayer, heuristic_seat

__all__ = ["FubarGM", "FubarPlayer", "heuristic_seat"]
