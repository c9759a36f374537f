"""Backups that restore: ``python -m service backup DIR`` copies a running server's store
(a point-in-time snapshot) and its signing keys; after the data directory is destroyed,
``restore DIR`` rebuilds a fresh one, checks every game, tournament and rating with the
audit code, and every game continues where it stood, its old exports still verifying."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from projections.games import GAME_PACKAGES
from projections.games import get as get_game
from service.adapters.connection import start_embedded
from service.app import create_app
from service.entrypoints import cli
from tests.platform.helpers import GameHandle
from tests.tournaments.bots import bearer, play_round
from tests.tournaments.test_api import create as create_tournament

pytestmark = pytest.mark.xdist_group("durability")


def command(*args: str, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "PYTHONPATH": os.getcwd(), **env}
    full.pop("REDIS_URL", None)
    return subprocess.run([sys.executable, "-m", "service", *args], capture_output=True, text=True, env=full)


def app_on(url: str, data_dir) -> object:
    return create_app({"REDIS_URL": url, "DATA_DIR": str(data_dir), "CLOCK_SWEEP_SECONDS": 0, "TESTING": True})


@pytest.mark.skipif(not shutil.which("redis-cli"), reason="redis-cli is not installed")
def test_play_back_up_destroy_restore_and_every_game_continues(tmp_path, monkeypatch):
    data, saved, fresh = tmp_path / "data", tmp_path / "backup", tmp_path / "restored"
    server, url = start_embedded(str(data))
    client = app_on(url, data).test_client()
    games = [GameHandle(client, options={"rounds": 20}) for _ in range(3)]
    for name in GAME_PACKAGES[:2]:  # real games too: their folds run in the restore's check
        games.append(GameHandle(client, game=name, seats=[f"p{n}" for n in range(get_game(name).min_seats)]))
    for g in games:
        for _ in range(3):
            assert g.play_first().status_code == 201
    tid, director, _ = create_tournament(client, "toy", 2, 2, ["p1", "p2", "p3", "p4"])
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    play_round(client, tid, pairing, random.Random(7))
    exported = games[0].export(games[0].referee)
    heads = {g.id: g.meta()["seq"] for g in games}
    keys_before = client.get("/api/keys").get_json()

    done = command("backup", str(saved), DATA_DIR=str(data))  # the server is running
    assert done.returncode == 0, done.stderr
    assert f"data directory: {data}" in done.stderr
    assert sorted(os.listdir(saved)) == ["keys", "manifest.json", "redis.rdb"]

    server.shutdown()
    shutil.rmtree(data)  # the machine is gone

    monkeypatch.setenv("DATA_DIR", str(fresh))
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("REDIS_DURABILITY_CHECK", "on")
    assert cli.main(["restore", str(saved)]) == 0
    server, url = start_embedded(str(fresh))
    try:
        client = app_on(url, fresh).test_client()
        assert client.get("/api/keys").get_json() == keys_before
        verified = client.post("/api/verify", data=exported, content_type="application/x-ndjson").get_json()
        assert verified["checks"]["signature"] == "ok" and verified["verdict"] == "sealed", verified
        for g in games:
            g.client = client
            assert g.meta()["seq"] == heads[g.id]
            assert g.play_first().status_code == 201, f"{g.id} continues"
        assert client.get(f"/api/tournaments/{tid}").get_json()["id"] == tid
    finally:
        server.shutdown()


def test_restore_reports_what_it_restored(tmp_path, monkeypatch, capsys):
    if not shutil.which("redis-cli"):
        pytest.skip("redis-cli is not installed")
    data, saved, fresh = tmp_path / "data", tmp_path / "backup", tmp_path / "restored"
    server, url = start_embedded(str(data))
    client = app_on(url, data).test_client()
    g = GameHandle(client, options={"rounds": 20})
    g.play_first()
    assert command("backup", str(saved), DATA_DIR=str(data)).returncode == 0
    server.shutdown()
    monkeypatch.setenv("DATA_DIR", str(fresh))
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert cli.main(["restore", str(saved)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["games"] == 1 and report["problems"] == []
    assert report["restored_keys"] > 0 and report["data_dir"] == str(fresh) and "clocks" in report
    # a second restore onto the same data directory is refused, nothing overwritten
    assert cli.main(["restore", str(saved)]) == 2


def test_a_damaged_backup_is_refused(tmp_path, monkeypatch):
    if not shutil.which("redis-cli"):
        pytest.skip("redis-cli is not installed")
    data, saved = tmp_path / "data", tmp_path / "backup"
    server, url = start_embedded(str(data))
    GameHandle(app_on(url, data).test_client(), options={"rounds": 20})
    assert command("backup", str(saved), DATA_DIR=str(data)).returncode == 0
    server.shutdown()
    with open(saved / "redis.rdb", "ab") as handle:
        handle.write(b"x")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "fresh"))
    assert cli.main(["restore", str(saved)]) == 2
    assert not (tmp_path / "fresh").exists()


def test_key_rotation_without_data_dir_refuses_to_guess(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    env.pop("DATA_DIR", None)
    done = subprocess.run(
        [sys.executable, "-m", "service", "key", "--rotate"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 2 and "set DATA_DIR" in done.stderr and "data directory:" in done.stderr
    assert not (tmp_path / "data").exists()


WRITE_A_GAME = """
import sys
from service.adapters.connection import start_embedded
from service.app import create_app
server, url = start_embedded(sys.argv[1])
client = create_app({"REDIS_URL": url, "DATA_DIR": sys.argv[1], "CLOCK_SWEEP_SECONDS": 0}).test_client()
game = client.post("/api/games", json={"game": sys.argv[2], "seats": ["a", "b", "c", "d"][: int(sys.argv[3])]})
assert game.status_code == 201, game.get_json()
print(game.get_json()["id"])
server.shutdown()
"""


@pytest.mark.skipif(not GAME_PACKAGES or not shutil.which("redis-cli"), reason="needs a game and redis-cli")
def test_a_stopped_server_is_backed_up_from_its_data_directory(tmp_path, monkeypatch, capsys):
    """No server runs: backup starts the data directory's embedded Redis itself, and stops it."""
    data, saved = tmp_path / "data", tmp_path / "backup"
    name = GAME_PACKAGES[0]
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    made = subprocess.run(
        [sys.executable, "-c", WRITE_A_GAME, str(data), name, str(get_game(name).min_seats)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert made.returncode == 0, made.stderr
    done = command("backup", str(saved), DATA_DIR=str(data))
    assert done.returncode == 0, done.stderr
    assert not (data / "redis.sock").exists(), "the Redis it started is stopped again"
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "fresh"))
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert cli.main(["restore", str(saved)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 1 and report["ok"], report


@pytest.mark.skipif(not shutil.which("redis-cli"), reason="redis-cli is not installed")
def test_restore_into_an_external_redis_needs_it_empty_and_durable(tmp_path, monkeypatch, capsys):
    from tests import redis_servers

    data, saved = tmp_path / "data", tmp_path / "backup"
    server, url = start_embedded(str(data))
    g = GameHandle(app_on(url, data).test_client(), options={"rounds": 20})
    assert command("backup", str(saved), DATA_DIR=str(data)).returncode == 0
    server.shutdown()
    durable = ("--appendonly", "yes", "--appendfsync", "always")
    (tmp_path / "volatile").mkdir()
    (tmp_path / "durable").mkdir()
    volatile, volatile_url = redis_servers.standalone(tmp_path / "volatile")  # appendonly no
    target, target_url = redis_servers.standalone(tmp_path / "durable", *durable)
    try:
        monkeypatch.setenv("REDIS_DURABILITY_CHECK", "on")
        monkeypatch.setenv("DATA_DIR", str(tmp_path / "one"))
        monkeypatch.setenv("REDIS_URL", volatile_url)
        assert cli.main(["restore", str(saved)]) == 2
        assert "would not keep the restored data" in capsys.readouterr().err
        assert not (tmp_path / "one").exists(), "nothing written"
        monkeypatch.setenv("DATA_DIR", str(tmp_path / "two"))
        monkeypatch.setenv("REDIS_URL", target_url)
        assert cli.main(["restore", str(saved)]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["ok"] and report["games"] == 1
        client = app_on(target_url, tmp_path / "two").test_client()
        g.client = client
        assert g.play_first().status_code == 201
        monkeypatch.setenv("DATA_DIR", str(tmp_path / "three"))
        assert cli.main(["restore", str(saved)]) == 2, "a Redis holding data is not overwritten"
        assert "not empty" in capsys.readouterr().err
    finally:
        redis_servers.stop([volatile, target])
