"""A sixth game added the way CONTRIBUTING.md says: a package under projections.games
(here written to a temporary folder on the package's search path) and its name in
``GAME_PACKAGES``. Nothing else is edited; every other list derives from the registry.
Its class names only its name and title; the rest comes from the toy game it extends."""

from __future__ import annotations

import projections.games as games

PACKAGE = "sixth"
INIT = 'from .game import GAME\n\n__all__ = ["GAME"]\n'
GAME = """from tests.toygame import ToyGame


class Sixth(ToyGame):
    name = "sixth"
    title = "The Sixth Game"


GAME = Sixth()
"""


def add_sixth_game(monkeypatch, folder) -> None:
    """Register the sixth game for one test; monkeypatch puts everything back after it."""
    package = folder / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text(INIT)
    (package / "game.py").write_text(GAME)
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(folder)])
    monkeypatch.setattr(games, "GAME_PACKAGES", (*games.GAME_PACKAGES, PACKAGE))
    toy = games.registry().get("toy")
    monkeypatch.setattr(games, "_registry", None)  # rebuilt from GAME_PACKAGES on next use
    if toy is not None:
        games.registry()["toy"] = toy  # the platform tests' toy stays registered meanwhile
