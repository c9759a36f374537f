"""Finished games out of Redis: archived to a directory or to an S3-compatible bucket (a
real moto server), their log's keys deleted, what stays compact, and replay, export,
verify, fork and annotations of the game working as before (a fresh app, with no cached
state, reads the archive)."""

from __future__ import annotations

import gzip
import time

import boto3
import pytest
from botocore.exceptions import BotoCoreError

from service.adapters import keys
from service.adapters.archive import Archiver
from service.adapters.connection import connect, start_embedded
from service.adapters.lobby import ARCHIVE_DUE, index_key
from service.app import archive_store, create_app
from tests import s3_server
from tests.platform.helpers import GameHandle

BUCKET = "games-archive"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    if s3_server.executable() is None:
        pytest.skip("moto_server is not installed (requirements-dev.txt)")
    proc, url = s3_server.start(tmp_path_factory.mktemp("moto"))
    try:
        yield url
    finally:
        s3_server.stop(proc)


@pytest.fixture(params=["directory", "s3"])
def settings(request, tmp_path, monkeypatch):
    """The app's archive settings, one store each: the archive's bytes are read back by ``read``."""
    data = str(tmp_path / "data")
    if request.param == "directory":
        yield {"DATA_DIR": data}, lambda game_id: (tmp_path / "data" / "archive" / f"{game_id}.jsonl.gz").read_bytes()
        return
    url = request.getfixturevalue("s3")
    for name, value in s3_server.ACCESS.items():
        monkeypatch.setenv(name, value)
    bucket = f"{BUCKET}-{time.monotonic_ns()}"
    client = boto3.client("s3", endpoint_url=url)
    client.create_bucket(Bucket=bucket)
    cfg = {"DATA_DIR": data, "ARCHIVE_S3_BUCKET": bucket, "ARCHIVE_S3_ENDPOINT": url, "ARCHIVE_S3_PREFIX": "g/"}
    yield cfg, lambda game_id: client.get_object(Bucket=bucket, Key=f"g/{game_id}.jsonl.gz")["Body"].read()


def _app(url: str, cfg: dict):
    return create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "TESTING": True, **cfg})


def test_an_archived_game_leaves_redis_and_reads_as_before(tmp_path, settings):
    cfg, read = settings
    server, url = start_embedded(str(tmp_path / "redis"))
    try:
        client = _app(url, cfg).test_client()
        g = GameHandle(client, options={"rounds": 2})
        for _ in range(3):
            g.play_first()
        seat = client.get(g.url()).json["to_act"][0]
        last = g.act(seat, "roll", action_id="last-move")
        assert last.status_code == 201 and client.get(g.url()).json["status"] == "finished"
        assert client.post(g.url("/annotations"), json={"seq": 2, "text": "good", "author": "Cam"}).status_code == 201
        export = g.export()
        view = client.get(g.url("/view?at=3")).json
        line = next(s for s in client.get("/api/games").json["games"] if s["id"] == g.id)
        redis = connect(url)
        size = Archiver(redis, archive_store(cfg)).archive(g.id)
        assert 0 < size < len(export.encode())
        assert not redis.exists(keys.events(g.id), keys.seed(g.id), keys.idempotency(g.id), keys.tokens(g.id))
        assert not redis.zscore(keys.GAMES_INDEX, g.id) and redis.get(keys.summary(g.id)).startswith("~")
        assert gzip.decompress(read(g.id))

        fresh = _app(url, cfg).test_client()
        assert next(s for s in fresh.get("/api/games").json["games"] if s["id"] == g.id) == line
        assert fresh.get(g.url()).json["status"] == "finished"
        assert fresh.get(g.url("/view?at=3")).json == view
        assert fresh.get(g.url("/export")).get_data(as_text=True) == export
        assert fresh.post("/api/verify", data=export).json["ok"]
        assert [a["text"] for a in fresh.get(g.url("/annotations")).json["annotations"]] == ["good"]
        assert fresh.post(g.url("/fork"), json={"at_seq": 3}).status_code == 201
        retry = fresh.post(g.url("/actions"), json={"type": "roll", "action_id": "last-move"}, headers=g.seat(seat))
        assert (retry.status_code, retry.json["seq"]) == (200, last.json["seq"])
    finally:
        server.shutdown()


def test_a_seat_token_of_an_archived_game_still_speaks_for_its_seat(tmp_path, settings):
    """The tokens leave Redis with the log: the first request that shows one puts them back."""
    cfg, _ = settings
    server, url = start_embedded(str(tmp_path / "redis"))
    try:
        client = _app(url, cfg).test_client()
        g = GameHandle(client, options={"rounds": 1})
        while client.get(g.url()).json["status"] != "finished":
            g.play_first()
        seat_view = client.get(g.url("/view"), headers=g.seat(0)).json
        redis = connect(url)
        assert Archiver(redis, archive_store(cfg)).archive(g.id) > 0
        fresh = _app(url, cfg).test_client()
        fresh_view = fresh.get(g.url("/view"), headers=g.seat(0))
        assert fresh_view.status_code == 200 and fresh_view.json == seat_view
        assert fresh.get(g.url("/view"), headers={"Authorization": "Bearer not-a-token"}).status_code in (401, 403)
    finally:
        server.shutdown()


def test_a_sweep_archives_idle_finished_and_abandoned_unrated_games_only(tmp_path, settings):
    cfg, read = settings
    server, url = start_embedded(str(tmp_path / "redis"))
    try:
        client = _app(url, cfg).test_client()
        finished = GameHandle(client, options={"rounds": 2})
        for _ in range(4):
            finished.play_first()
        rated = GameHandle(client, options={"rounds": 2})  # rated games are never expired
        rated.play_first()
        body = {"game": "toy", "seats": ["ann", "bob"], "options": {"rounds": 2}, "ranked": False}
        abandoned_id = client.post("/api/games", json=body).json["id"]
        redis = connect(url)
        archiver = Archiver(redis, archive_store(cfg))  # the app's archive
        assert archiver.sweep(3600, 7200, time.time()) == {"finished": 0, "abandoned": 0, "bytes": 0}
        assert archiver.sweep(3600, 7200, time.time() + 3601)["finished"] == 1
        assert not redis.exists(keys.events(finished.id)) and redis.exists(keys.events(abandoned_id))
        assert redis.zscore(ARCHIVE_DUE, finished.id) is None
        done = archiver.sweep(3600, 7200, time.time() + 7201)
        assert done["abandoned"] == 1 and done["bytes"] > 0 and read(abandoned_id)
        assert not redis.exists(keys.events(abandoned_id)) and redis.exists(keys.events(rated.id))
        assert client.get(f"/api/games/{abandoned_id}").json["status"] == "active"  # read back from the archive
        assert client.get(finished.url()).json["status"] == "finished"  # read back: due again
        assert redis.zscore(ARCHIVE_DUE, finished.id) is not None
        again = archiver.sweep(3600, 7200, time.time() + 7201)
        assert (again["finished"], again["abandoned"]) == (1, 1)
        assert redis.zrange(index_key("finished"), 0, -1) == [finished.id]
    finally:
        server.shutdown()


def test_an_unreachable_bucket_answers_503_and_an_archiving_pass_deletes_nothing(tmp_path, monkeypatch):
    """The S3 server killed: reading a game archived there answers 503 storage_unavailable
    + Retry-After (as a storage outage does), and a pass that cannot write leaves its
    games in Redis, readable."""
    if s3_server.executable() is None:
        pytest.skip("moto_server is not installed (requirements-dev.txt)")
    for name, value in s3_server.ACCESS.items():
        monkeypatch.setenv(name, value)
    proc, s3_url = s3_server.start(tmp_path)
    server, url = start_embedded(str(tmp_path / "redis"))
    try:
        boto3.client("s3", endpoint_url=s3_url).create_bucket(Bucket=BUCKET)
        cfg = {"DATA_DIR": str(tmp_path / "data"), "ARCHIVE_S3_BUCKET": BUCKET, "ARCHIVE_S3_ENDPOINT": s3_url}
        client = _app(url, cfg).test_client()
        archived, kept = GameHandle(client, options={"rounds": 1}), GameHandle(client, options={"rounds": 1})
        for g in (archived, kept):
            while client.get(g.url()).json["status"] != "finished":
                g.play_first()
        redis = connect(url)
        assert Archiver(redis, archive_store(cfg)).archive(archived.id) > 0
        s3_server.stop(proc)

        fresh = _app(url, cfg).test_client()
        answer = fresh.get(archived.url("/view"))
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
        assert answer.json["error"]["code"] == "storage_unavailable"
        with pytest.raises(BotoCoreError):  # nothing written, nothing deleted
            Archiver(redis, archive_store(cfg)).sweep(0, 10**9, time.time() + 1)
        assert redis.exists(keys.events(kept.id), keys.tokens(kept.id)) == 2
        assert fresh.get(kept.url()).json["status"] == "finished"
    finally:
        if proc.poll() is None:
            s3_server.stop(proc)
        server.shutdown()
