"""The OpenAPI document is one a generator accepts: openapi-python-client builds a
package from it that imports whole, and a game is played through that package alone
against the server over real HTTP."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.live_server import served

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture(scope="module")
def generated(app, tmp_path_factory):
    """The client package, generated into a directory of its own and importable as
    ``board_client``."""
    if not GENERATOR.exists():
        pytest.skip("openapi-python-client is not installed (requirements-dev.txt)")
    root = tmp_path_factory.mktemp("generated")
    document = root / "openapi.json"
    document.write_text(json.dumps(app.test_client().get("/api/openapi.json").json))
    done = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(document), "--meta", "none", "--output-path", "board_client"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Unable to process schema" not in done.stdout, done.stdout[-4000:]
    sys.path.insert(0, str(root))
    yield importlib.import_module("board_client"), done.stdout
    sys.path.remove(str(root))
    for name in [m for m in sys.modules if m == "board_client" or m.startswith("board_client.")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def base_url(app):
    with served(app) as url:
        yield url


def test_every_generated_module_imports(generated):
    package, _ = generated
    for module in pkgutil.walk_packages(package.__path__, "board_client."):
        importlib.import_module(module.name)


def test_a_game_is_played_through_the_generated_client(generated, base_url):
    package, _ = generated
    client_module = importlib.import_module("board_client.client")
    api = "board_client.api.games."
    create = importlib.import_module(api + "post_api_games")
    meta = importlib.import_module(api + "get_api_games_game_id")
    legal = importlib.import_module(api + "get_api_games_game_id_actions")
    act = importlib.import_module(api + "post_api_games_game_id_actions")
    forfeit = importlib.import_module(api + "post_api_games_game_id_referee_forfeit")
    events = importlib.import_module(api + "get_api_games_game_id_events")
    models = importlib.import_module("board_client.models")

    anyone = client_module.Client(base_url=base_url, raise_on_unexpected_status=True)
    body = models.CreateCarcassonneCastleGame.from_dict({"game": "carcassonne_castle", "seats": ["ann", "bob"]})
    created = create.sync(client=anyone, body=body)
    assert isinstance(created, models.GameCreated), created
    seat_client = {
        s.seat: client_module.AuthenticatedClient(base_url=base_url, token=s.token, raise_on_unexpected_status=True)
        for s in created.seats
    }
    played = 0
    for _ in range(6):
        to_act = meta.sync(created.id, client=anyone).to_act
        seat = to_act[0]
        choices = legal.sync(created.id, client=seat_client[seat]).actions
        choice = choices[0].to_dict()
        action = models.Action.from_dict({"type": choice["type"], "payload": choice.get("payload", {})})
        answer = act.sync(created.id, client=seat_client[seat], body=action)
        assert isinstance(answer, models.Acted), answer
        played += 1
    referee = client_module.AuthenticatedClient(
        base_url=base_url, token=created.referee_token, raise_on_unexpected_status=True
    )
    ended = forfeit.sync(
        created.id, client=referee, body=models.Forfeit.from_dict({"seat": 0, "reason": "left the table"})
    )
    assert isinstance(ended, models.Seq), ended
    finished = meta.sync(created.id, client=anyone)
    assert finished.status == "finished" and finished.seq >= played
    log = events.sync(created.id, client=anyone)
    assert len(log.events) >= played + 2  # the creation, the moves, the forfeit
