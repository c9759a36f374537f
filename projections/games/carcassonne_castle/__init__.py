"""Carcassonne: The Castle (Knizia & Wrede, 2003) for two players, as a pure fold."""

from .game import GAME

__all__ = ["GAME"]
