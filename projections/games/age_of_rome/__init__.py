"""Age of Rome (Teetotum, 2023) for 1 to 4 players, the solo automaton included."""

from .game import AgeOfRome

GAME = AgeOfRome()

__all__ = ["GAME", "AgeOfRome"]
