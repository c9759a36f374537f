"""Caylus (William Attia, 2005) as a pure rules package: ``GAME`` is the entry point."""

from .game import Caylus

GAME = Caylus()

__all__ = ["GAME"]
