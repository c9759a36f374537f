"""Sultans of Karaya (Alex Weldon, 2011): hidden roles that change hands, 5 to 15 players."""

from .game import GAME

__all__ = ["GAME"]
