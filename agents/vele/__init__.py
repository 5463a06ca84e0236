"""Heuristic seats for Death of the Vele: any seat can narrate when the role comes round."""
from agents.vele.heuristic import VeleSeat, heuristic_seat

__all__ = ["VeleSeat", "heuristic_seat"]
