"""The registry of real games. Each package exposes ``GAME``, a ``base.Game``."""

from __future__ import annotations

import importlib

from .base import Game

GAME_PACKAGES = ("caylus", "carcassonne_castle", "shadow_of_the_emperor", "sultans_of_karaya", "age_of_rome")
"""Package names under projections.games; the package name is the game's API name."""

_registry: dict[str, Game] | None = None


def registry() -> dict[str, Game]:
    global _registry
    if _registry is None:
        games = {}
        for package in GAME_PACKAGES:
            game = importlib.import_module(f"{__name__}.{package}").GAME
            assert game.name == package, (game.name, package)
            games[package] = game
        _registry = games
    return _registry


def get(name: str) -> Game | None:
    return registry().get(name)
