"""Which code folded a state: a content hash of the platform fold and of one game's package.

Snapshots are keyed by this digest, so a snapshot written by other code (a rules fix, a
new data value, a change to the platform fold) is simply never found, and the state is
folded again from the log. Nobody has to remember to bump a constant.

The platform part covers the modules every fold runs through: the fold itself, the
recorded result, the game base class, the envelope and the seeded generator. The game
part covers every file of the game's package, data included (a one-file game: that
file). Digests are computed when a projector starts, once per game type.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from .games.base import Game

ROOT = Path(__file__).resolve().parent.parent
PLATFORM_SOURCES = (
    "projections/fold.py",
    "projections/outcome.py",
    "projections/games/base.py",
    "events/envelope.py",
    "events/rng.py",
)
SKIPPED = {"__pycache__"}
LENGTH = 24
"""Hex digits kept in a key: 96 bits, far beyond any chance collision between releases."""


def digest_files(files: list[Path], root: Path) -> str:
    """SHA-256 over each file's path (relative to ``root``) and bytes, in path order."""
    h = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        name = path.relative_to(root).as_posix().encode()
        body = path.read_bytes()
        h.update(b"%d:%s%d:" % (len(name), name, len(body)))
        h.update(body)
    return h.hexdigest()


def game_sources(game: Game) -> tuple[Path, list[Path]]:
    """(root, files) of the code that defines ``game``: its whole package directory when
    the game is a package's ``GAME``, else the single module that defines it."""
    module = sys.modules[type(game).__module__]
    path = Path(str(module.__file__)).resolve()
    package = sys.modules.get(module.__package__ or "")
    if path.name == "__init__.py" or getattr(package, "GAME", None) is game:
        directory = path.parent
        files = [
            p
            for p in directory.rglob("*")
            if p.is_file() and not SKIPPED & set(p.relative_to(directory).parts) and p.suffix != ".pyc"
        ]
        return directory, files
    return path.parent, [path]


def platform_digest(root: Path = ROOT, sources: tuple[str, ...] = PLATFORM_SOURCES) -> str:
    return digest_files([root / s for s in sources], root)


def fold_version(game: Game, platform: str | None = None) -> str:
    """The snapshot key part for ``game``: platform digest + game digest, shortened."""
    root, files = game_sources(game)
    both = f"{platform or platform_digest()}:{digest_files(files, root)}"
    return hashlib.sha256(both.encode()).hexdigest()[:LENGTH]
