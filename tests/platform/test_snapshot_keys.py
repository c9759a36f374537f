"""Snapshot keys name the code that folded them: a content hash of the platform fold and
of the game's package (sources and data). A snapshot written by other code is never read,
so a rules fix or a changed data value can never resume from a state the new code would
not produce. Real Redis; the changed game is a copy of a real package in a temporary folder."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path

import pytest

from events.store import game_stream
from projections import fold, games
from projections.code_digest import (
    PLATFORM_SOURCES,
    ROOT,
    fold_version,
    game_sources,
    platform_digest,
)
from projections.games import registry
from projections.projector import Projector
from service.adapters import keys
from service.services.games import CreateGame
from tests.services import services_over
from tests.toygame import TOY

COPY = "caylus_golden_copy"


@pytest.fixture()
def copied_game(tmp_path):
    """A copy of the Caylus package in a temporary folder, importable as a sibling package
    (``projections.games.<copy>``, so its relative imports resolve) and registered as a game."""
    shutil.copytree(ROOT / "projections/games/caylus", tmp_path / COPY, ignore=shutil.ignore_patterns("__pycache__"))
    games.__path__.append(str(tmp_path))
    module = f"{games.__name__}.{COPY}"
    try:
        game = importlib.import_module(module).GAME
        registry()[COPY] = game
        yield tmp_path / COPY, game
    finally:
        registry().pop(COPY, None)
        games.__path__.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
            del sys.modules[name]


def bump_first_number(node):
    """Add 1 to the first integer found in a JSON document (a cost, a count, a score)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, value in items:
        if isinstance(value, int) and not isinstance(value, bool):
            node[key] = value + 1
            return True
        if bump_first_number(value):
            return True
    return False


def play(services, created, moves):
    gid = created["id"]
    callers = [services.games.caller(gid, s["token"]) for s in created["seats"]]
    for _ in range(moves):
        p = services.log.state(gid)
        game = registry()[p["game"]]
        seat = sorted(game.to_act(p["state"]))[0]
        action = game.legal_actions(p["state"], seat)[0]
        services.games.act(gid, callers[seat], action["type"], action["payload"])


def test_snapshots_written_under_other_code_are_not_used(redis_client, copied_game):
    folder, _ = copied_game
    services = services_over(redis_client, snapshot_every=5)
    created = services.games.create(CreateGame(COPY, ["ann", "bob"]))
    gid = created["id"]
    play(services, created, 12)
    services.log.forget(gid)
    services.log.state(gid)  # a cold fold from the log writes snapshots
    (old_key,) = redis_client.keys(keys.snapshots(gid, "*"))
    assert {"5", "10"} <= set(redis_client.hkeys(old_key))

    # The same code started again finds them: mark one to see it read.
    marked = json.loads(redis_client.hget(old_key, 10))
    redis_client.hset(old_key, 10, json.dumps({**marked, "marker": "read from the snapshot"}))
    same = Projector(services.store, snapshot_every=5)
    assert same.latest(gid)["marker"] == "read from the snapshot"

    # One data value changed: a start on that code has another key and folds from the log.
    data = folder / "data" / "caylus.json"
    document = json.loads(data.read_text())
    assert bump_first_number(document)
    data.write_text(json.dumps(document))
    changed = Projector(services.store, snapshot_every=5)
    state = changed.latest(gid)
    assert "marker" not in state
    entries = services.store.read(game_stream(gid))
    assert state == json.loads(json.dumps(fold.InMemoryHistory(entries, services.log.seed(gid)).final()))
    (new_key,) = set(redis_client.keys(keys.snapshots(gid, "*"))) - {old_key}  # its own, beside the old ones
    assert redis_client.hget(new_key, 10) is not None
    assert "marker" in json.loads(redis_client.hget(old_key, 10))


def test_the_platform_fold_is_part_of_every_key(tmp_path):
    for source in PLATFORM_SOURCES:
        (tmp_path / source).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / source, tmp_path / source)
    assert platform_digest(tmp_path) == platform_digest()
    game = registry()["carcassonne_castle"]
    before = fold_version(game, platform_digest(tmp_path))
    with open(tmp_path / "projections/fold.py", "a") as handle:
        handle.write("\n# a change\n")
    assert platform_digest(tmp_path) != platform_digest()
    assert fold_version(game, platform_digest(tmp_path)) != before
    assert fold_version(game) == before


def test_a_game_package_is_hashed_with_its_data_and_a_one_file_game_alone():
    root, files = game_sources(registry()["caylus"])
    names = {f.relative_to(root).as_posix() for f in files}
    assert {"__init__.py", "game.py", "data/caylus.json"} <= names
    assert not any("__pycache__" in n for n in names)
    root, files = game_sources(TOY)
    assert files == [Path(sys.modules[type(TOY).__module__].__file__).resolve()]
    versions = {name: fold_version(game) for name, game in registry().items()}
    assert len(set(versions.values())) == len(versions)
