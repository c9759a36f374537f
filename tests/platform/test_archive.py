"""Finished games out of Redis: archived to a directory or to an S3-compatible bucket (a
real moto server), every key and lobby set member naming them deleted (Redis holds the
same keys after 500 more games archived), and the lobby, "my games", a profile, replay,
export, verify, fork and annotations of the game working as before (a fresh app, with no
cached state, reads the archive)."""

from __future__ import annotations

import gzip
import json
import os
import random
import resource
import subprocess
import sys
import time

import boto3
import pytest
from botocore.exceptions import BotoCoreError

from service.adapters import keys
from service.adapters.accounts import RedisAccountRecords
from service.adapters.archive import Archiver, DirectoryArchive
from service.adapters.archive_listing import ArchiveListing
from service.adapters.connection import connect, start_embedded
from service.adapters.lobby import ARCHIVE_DUE, index_key
from service.app import archive_store, create_app
from service.services.summaries import score_of
from tests import s3_server
from tests.accounts.helpers import auth, bound_game, new_account, roll_out
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


@pytest.fixture
def url(tmp_path):
    """A Redis of the test's own."""
    server, url = start_embedded(str(tmp_path / "redis"))
    try:
        yield url
    finally:
        server.shutdown()


def _app(url: str, cfg: dict):
    return create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "TESTING": True, **cfg})


def _finished(client, rounds: int = 1) -> GameHandle:
    g = GameHandle(client, options={"rounds": rounds})
    while client.get(g.url()).json["status"] != "finished":
        g.play_first()
    return g


def _archiver(url: str, cfg: dict) -> Archiver:
    return Archiver(connect(url), archive_store(cfg))


def _naming_games(redis) -> int:
    """Keys, and members of the sorted sets, hashes and sets: what grows with games held."""
    size = {"zset": redis.zcard, "hash": redis.hlen, "set": redis.scard, "stream": redis.xlen}
    return sum(size.get(redis.type(key), lambda _: 1)(key) for key in redis.scan_iter(count=1000))


def test_an_archived_game_leaves_redis_and_reads_as_before(url, settings):
    cfg, read = settings
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
    size = _archiver(url, cfg).archive(g.id)
    assert 0 < size < len(export.encode())
    assert not redis.exists(keys.events(g.id), keys.seed(g.id), keys.idempotency(g.id), keys.tokens(g.id))
    assert not redis.exists(keys.summary(g.id)) and not redis.zscore(keys.GAMES_INDEX, g.id)
    assert redis.zscore(index_key("finished"), g.id) is None and redis.zscore(ARCHIVE_DUE, g.id) is None
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


def test_a_seat_token_of_an_archived_game_still_speaks_for_its_seat(url, settings):
    """The tokens leave Redis with the log: the first request that shows one puts them back."""
    cfg, _ = settings
    client = _app(url, cfg).test_client()
    g = _finished(client)
    seat_view = client.get(g.url("/view"), headers=g.seat(0)).json
    assert _archiver(url, cfg).archive(g.id) > 0
    fresh = _app(url, cfg).test_client()
    fresh_view = fresh.get(g.url("/view"), headers=g.seat(0))
    assert fresh_view.status_code == 200 and fresh_view.json == seat_view
    assert fresh.get(g.url("/view"), headers={"Authorization": "Bearer not-a-token"}).status_code in (401, 403)


def test_a_sweep_archives_idle_finished_and_abandoned_unrated_games_only(url, settings):
    cfg, read = settings
    client = _app(url, cfg).test_client()
    finished = GameHandle(client, options={"rounds": 2})
    for _ in range(4):
        finished.play_first()
    rated = GameHandle(client, options={"rounds": 2})  # rated games are never expired
    rated.play_first()
    body = {"game": "toy", "seats": ["ann", "bob"], "options": {"rounds": 2}, "ranked": False}
    abandoned = client.post("/api/games", json=body).json
    abandoned_id = abandoned["id"]
    redis = connect(url)
    archiver = _archiver(url, cfg)  # the app's archive
    assert archiver.sweep(3600, 7200, time.time()) == {"finished": 0, "abandoned": 0, "bytes": 0, "lines_moved": 0}
    assert archiver.sweep(3600, 7200, time.time() + 3601)["finished"] == 1
    assert not redis.exists(keys.events(finished.id)) and redis.exists(keys.events(abandoned_id))
    assert redis.zscore(ARCHIVE_DUE, finished.id) is None
    done = archiver.sweep(3600, 7200, time.time() + 7201)
    assert done["abandoned"] == 1 and done["bytes"] > 0 and read(abandoned_id)
    assert not redis.exists(keys.events(abandoned_id)) and redis.exists(keys.events(rated.id))
    assert client.get(f"/api/games/{abandoned_id}").json["status"] == "active"  # read back from the archive
    assert client.get(finished.url()).json["status"] == "finished"  # read back: due again
    assert redis.zscore(ARCHIVE_DUE, finished.id) is not None
    assert redis.zscore(index_key("active"), abandoned_id) is not None  # a candidate again
    move = {"type": "roll", "payload": {}}
    seat = auth(abandoned["seats"][0]["token"])
    assert client.post(f"/api/games/{abandoned_id}/actions", json=move, headers=seat).status_code == 201
    again = archiver.sweep(3600, 7200, time.time() + 7201)
    assert (again["finished"], again["abandoned"]) == (1, 1)
    assert redis.zrange(index_key("finished"), 0, -1) == [] and redis.zrange(index_key("active"), 0, -1) == [rated.id]
    games = _app(url, cfg).test_client().get("/api/games").json["games"]
    assert sorted(g["id"] for g in games) == sorted([finished.id, rated.id, abandoned_id])  # each once
    listed = {g["id"]: g for g in games}
    assert listed[abandoned_id]["seq"] == 2  # its line as archived the second time, after the move


def test_redis_holds_nothing_more_after_500_more_games_archived(url, settings):
    """What stays in Redis does not grow with the games archived: the same keys and set
    members after 50 games as after 550, and used_memory within a few kilobytes."""
    cfg, _ = settings
    client, redis = _app(url, cfg).test_client(), connect(url)
    archiver = _archiver(url, cfg)
    counts, memory = [], []
    for games in (50, 500):
        for _ in range(games):
            _finished(client)
        done = archiver.sweep(0, 10**9, time.time() + 1)
        assert done["finished"] == games
        counts.append(_naming_games(redis))
        memory.append(redis.info("memory")["used_memory_dataset"])  # used_memory less clients' buffers
    print(f"keys and members {counts}, used_memory_dataset {memory}")
    assert counts[1] == counts[0]
    assert memory[1] - memory[0] < 50_000  # 500 games at 614 B each stayed before: 307 kB
    assert len(client.get("/api/games?status=finished&limit=100").json["games"]) == 100


def test_the_lobby_my_games_and_a_profile_list_archived_games(url, settings):
    """Archived in two passes and mixed with games still in Redis: the lobby's pages list
    every game once, newest first, by status and type; an account's "my games" and its
    profile show its archived game as before."""
    cfg, _ = settings
    client = _app(url, cfg).test_client()
    alice, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    bound = bound_game(client, [alice_session, bob_session], options={"rounds": 1})
    roll_out(client, bound)
    mine = next(
        g for g in client.get("/api/me/games", headers=auth(alice_session)).json["games"] if g["kind"] == "game"
    )
    profile = client.get(f"/api/accounts/{alice}").json["games"]
    first = [_finished(client).id for _ in range(3)]
    archiver = _archiver(url, cfg)
    archiver.sweep(0, 10**9, time.time() + 1)
    second = [_finished(client).id for _ in range(3)]
    archiver.sweep(0, 10**9, time.time() + 1)
    kept = [_finished(client).id for _ in range(2)] + [GameHandle(client, options={"rounds": 1}).id]
    newest_first = [*reversed(kept), *reversed(second), *reversed(first), bound["id"]]

    fresh = _app(url, cfg).test_client()
    for query, expected in (("", newest_first), ("&status=finished", newest_first[1:]), ("&game=toy", newest_first)):
        pages, cursor = [], ""
        while cursor is not None:
            page = fresh.get(f"/api/games?limit=2{query}" + (f"&cursor={cursor}" if cursor else "")).json
            pages += [g["id"] for g in page["games"]]
            cursor = page["next"]
        assert pages == expected, query
    assert fresh.get("/api/games?game=other-game").json["games"] == []
    assert (
        next(g for g in fresh.get("/api/me/games", headers=auth(alice_session)).json["games"] if g["kind"] == "game")
        == mine
    )
    assert fresh.get(f"/api/accounts/{alice}").json["games"] == profile
    assert not connect(url).exists(keys.summary(bound["id"]))  # listed from the archive, not read back


def test_a_pass_moves_the_lines_older_versions_left_in_redis_into_the_listing(url, settings):
    """A game archived by an older version: its compact line and lobby sets' entries in
    Redis, no line in its archive object. The first pass moves the line out (once)."""
    cfg, read = settings
    client, redis = _app(url, cfg).test_client(), connect(url)
    g, kept = _finished(client), _finished(client)
    line = next(s for s in client.get("/api/games").json["games"] if s["id"] == g.id)
    archiver = _archiver(url, cfg)
    assert archiver.archive(g.id) > 0
    *entries, trailer = gzip.decompress(read(g.id)).decode().splitlines()
    old_trailer = {k: v for k, v in json.loads(trailer).items() if k != "summary"}
    archive_store(cfg).put(g.id, gzip.compress(("\n".join([*entries, json.dumps(old_trailer)]) + "\n").encode()))
    redis.set(keys.summary(g.id), "~" + json.dumps({k: v for k, v in line.items() if k != "id"}))
    for key in (index_key("finished"), index_key("finished", "toy")):
        redis.zadd(key, {g.id: 1})
    redis.delete("archive:lines-moved", "archive:listing")

    assert archiver.sweep(10**6, 10**9, time.time())["lines_moved"] == 1
    assert not redis.exists(keys.summary(g.id)) and redis.zrange(index_key("finished"), 0, -1) == [kept.id]
    assert json.loads(gzip.decompress(read(g.id)).decode().splitlines()[-1])["summary"] == json.dumps(line)
    fresh = _app(url, cfg).test_client()
    assert [s for s in fresh.get("/api/games").json["games"] if s["id"] == g.id] == [line]
    assert archiver.sweep(10**6, 10**9, time.time())["lines_moved"] == 0
    assert redis.exists(keys.summary(kept.id))


def test_an_unreachable_bucket_answers_503_and_an_archiving_pass_deletes_nothing(url, tmp_path, monkeypatch):
    """The S3 server killed: reading a game archived there answers 503 storage_unavailable
    + Retry-After (as a storage outage does), and a pass that cannot write leaves its
    games in Redis, readable."""
    if s3_server.executable() is None:
        pytest.skip("moto_server is not installed (requirements-dev.txt)")
    for name, value in s3_server.ACCESS.items():
        monkeypatch.setenv(name, value)
    proc, s3_url = s3_server.start(tmp_path)
    try:
        boto3.client("s3", endpoint_url=s3_url).create_bucket(Bucket=BUCKET)
        cfg = {"DATA_DIR": str(tmp_path / "data"), "ARCHIVE_S3_BUCKET": BUCKET, "ARCHIVE_S3_ENDPOINT": s3_url}
        client = _app(url, cfg).test_client()
        archived, kept = _finished(client), _finished(client)
        redis = connect(url)
        assert _archiver(url, cfg).archive(archived.id) > 0
        s3_server.stop(proc)

        fresh = _app(url, cfg).test_client()
        answer = fresh.get(archived.url("/view"))
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
        assert answer.json["error"]["code"] == "storage_unavailable"
        with pytest.raises(BotoCoreError):  # nothing written, nothing deleted
            _archiver(url, cfg).sweep(0, 10**9, time.time() + 1)
        assert redis.exists(keys.events(kept.id), keys.tokens(kept.id), keys.summary(kept.id)) == 3
        assert fresh.get(kept.url()).json["status"] == "finished"
        assert fresh.get("/api/games").status_code == 503  # the archived games' listing is not there
    finally:
        if proc.poll() is None:
            s3_server.stop(proc)


@pytest.mark.parametrize("replaces", [True, False], ids=["replaces", "no-replaces"])
def test_the_listing_pages_overlapping_segments_as_one_sorted_list(url, tmp_path, replaces):
    """Passes archive games in any order of creation (an abandoned game late, a game read
    back and archived again): pages of every filter, walked by cursor, list each game
    once, newest first, as one sorted list of them would, the newer segment's line kept
    (also when the index does not say it replaces one: as passes before issue 30 left it)."""
    rand = random.Random(7)
    listing = ArchiveListing(connect(url), DirectoryArchive(tmp_path / "archive"))
    lines: dict[str, dict] = {}
    for _ in range(6):  # passes
        batch: dict[str, dict] = {}
        for _ in range(rand.randint(1, 40)):
            game_id = rand.choice(list(lines)) if lines and rand.random() < 0.2 else f"g{len(lines) + len(batch):04d}"
            created = f"2026-11-{rand.randint(1, 9):02d}T00:00:{rand.randint(0, 3):02d}Z"  # ties in score
            line = {"id": game_id, "game": rand.choice(["toy", "dice"]), "status": rand.choice(["finished", "active"])}
            batch[game_id] = {**line, "created_at": lines.get(game_id, {}).get("created_at", created)}
        assert listing.add(list(batch.values()), [i for i in batch if i in lines and replaces]) == 1
        lines |= batch
    for game in (None, "toy", "dice"):
        for status in (None, "finished", "active"):
            expected = sorted(
                (line for line in lines.values() if game in (None, line["game"]) and status in (None, line["status"])),
                key=lambda line: (score_of(line), line["id"]),
                reverse=True,
            )
            for limit in (1, 3, 50):
                walked, cursor, more = [], None, True
                while more:
                    page, more = listing.page(game, status, limit, cursor)
                    walked += [line for _, _, line in page]
                    cursor = (page[-1][0], page[-1][1]) if page else None
                assert walked == expected, (game, status, limit)


def test_an_account_keeps_its_newest_200_games(url):
    """What "my games" shows, and no more: an account's key does not grow with its games."""
    records, redis = RedisAccountRecords(connect(url)), connect(url)
    for n in range(250):
        records.add_game("ann", f"g{n}", float(n))
    assert redis.zcard(keys.account_games("ann")) == 200
    assert records.games("ann", 200) == [f"g{n}" for n in range(249, 49, -1)]


def _unranked(client) -> GameHandle:
    """A game the sweep takes for abandoned once idle: unrated, not finished."""
    body = {"game": "toy", "seats": ["ann", "bob"], "options": {"rounds": 1}, "ranked": False}
    created = client.post("/api/games", json=body).json
    g = GameHandle.__new__(GameHandle)
    g.client, g.id, g.tokens = client, created["id"], [s["token"] for s in created["seats"]]
    return g


class _FinishingListing(ArchiveListing):
    """A listing whose games finish (real moves) right after the pass lists them, before
    its drops; ``die``: the pass dies there, as one killed between listing and drops."""

    def __init__(self, redis, store, finish, die: bool) -> None:
        super().__init__(redis, store)
        self._finish, self._die = finish, die

    def add(self, lines, replaced=()):
        written = super().add(lines, replaced)
        finish, self._finish = (self._finish, None) if written else (None, self._finish)
        if finish:
            finish()
            if self._die:
                raise SystemExit("killed")
        return written


@pytest.mark.parametrize("die", [False, True], ids=["drop-refused", "pass-killed"])
def test_a_game_finished_during_a_pass_is_listed_once_under_its_last_status(url, settings, die):
    """Listed as abandoned ("active") by a pass, finished before its drop: the next pass
    lists it as finished, and no page (of any status) shows its older line again."""
    cfg, _ = settings
    client, redis = _app(url, cfg).test_client(), connect(url)
    games = [_unranked(client) for _ in range(3)]

    def finish() -> None:
        for g in games[:2]:
            while client.get(g.url()).json["status"] != "finished":
                g.play_first()

    store = archive_store(cfg)
    archiver = Archiver(redis, store, _FinishingListing(redis, store, finish, die))
    try:
        archiver.sweep(0, 0, time.time() + 1)
    except SystemExit:
        pass
    assert all(redis.exists(keys.events(g.id)) for g in games[:2])  # the drops were refused
    archiver.sweep(0, 0, time.time() + 1)
    assert not any(redis.exists(keys.events(g.id)) for g in games)
    fresh = _app(url, cfg).test_client()
    for status, expected in (("active", [games[2].id]), ("finished", [games[1].id, games[0].id])):
        for limit in (1, 50):
            walked, cursor = [], ""
            while cursor is not None:
                page = fresh.get(f"/api/games?limit={limit}&status={status}" + (f"&cursor={cursor}" if cursor else ""))
                walked += [(g["id"], g["status"]) for g in page.json["games"]]
                cursor = page.json["next"]
            assert walked == [(i, status) for i in expected], (status, limit)
    every = [g["id"] for g in fresh.get("/api/games").json["games"]]
    assert every == [g.id for g in reversed(games)]
    listing = ArchiveListing(redis, store)
    assert [line["status"] for _, _, line in listing.page(None, "active", 50, None)[0]] == ["active"]
    assert json.loads(listing.lines([games[0].id])[0])["status"] == "finished"  # the cached line is the newest


def test_the_listing_shows_a_games_newest_line_whatever_the_filter(url, tmp_path):
    """A game listed twice without ``replaces`` (as passes before this fix did): its
    newer line hides the older one in every status's pages."""
    listing = ArchiveListing(connect(url), DirectoryArchive(tmp_path / "archive"))
    line = {"id": "g1", "game": "toy", "created_at": "2026-11-01T00:00:00Z"}
    listing.add([{**line, "status": "active"}, {**line, "id": "g0", "status": "active"}])
    listing.add([{**line, "status": "finished"}])
    assert [(i, r["status"]) for _, i, r in listing.page(None, "active", 1, None)[0]] == [("g0", "active")]
    assert [(i, r["status"]) for _, i, r in listing.page(None, "finished", 50, None)[0]] == [("g1", "finished")]
    assert [(i, r["status"]) for _, i, r in listing.page(None, None, 50, None)[0]] == [
        ("g1", "finished"),
        ("g0", "active"),
    ]


def test_an_archived_game_leaves_the_clocks_and_computer_seats_schedules(url, settings):
    """Abandoned games with a computer seat and a clock (one whose person is to move, one
    whose computer is): archived, no schedule names them, and the clock sweeper, past
    their deadlines, leaves them in the archive."""
    from service import wiring
    from service.adapters import bot_queue

    cfg, _ = settings
    app = _app(url, cfg)
    client, redis = app.test_client(), connect(url)
    clock = {"base": 60, "increment": 0, "first_move": 60}
    body = {"game": "caylus", "seats": ["ann", "bob"], "bots": [{"seat": 1, "strength": 1}], "ranked": False}
    scheduled: dict[str, list[str]] = {}
    every = [keys.DEADLINES, bot_queue.QUEUE, bot_queue.OWNER_OF_QUEUED, bot_queue.OWNERS, bot_queue.TAKEN]
    while len({tuple(found) for found in scheduled.values()}) < 2:  # who moves first is dealt
        created = client.post("/api/games", json=body | {"clock": clock})
        assert created.status_code == 201, created.json
        owner = redis.hget(bot_queue.OWNERS, created.json["id"])
        every = [*every[:5], bot_queue.in_play(owner)]
        scheduled[created.json["id"]] = [k for k in every if _names(redis, k, created.json["id"])]
    ids = list(scheduled)
    assert sorted({tuple(found) for found in scheduled.values()}) == [
        (keys.DEADLINES, bot_queue.OWNERS, bot_queue.in_play(owner)),  # its person's clock runs
        (bot_queue.QUEUE, bot_queue.OWNER_OF_QUEUED, bot_queue.OWNERS, bot_queue.in_play(owner)),  # its computer's turn
    ]

    assert _archiver(url, cfg).sweep(10**9, 0, time.time() + 1)["abandoned"] == len(ids)
    assert {i: [k for k in every if _names(redis, k, i)] for i in ids} == {i: [] for i in ids}
    assert not redis.exists(bot_queue.QUEUED, bot_queue.FINISH)  # its creator has nothing queued
    assert wiring.of(app).clocks.expire(now=time.time() + 10**6) == []
    assert not redis.exists(*[keys.events(i) for i in ids])  # not read back


def _names(redis, key: str, game_id: str) -> bool:
    kind = redis.type(key)
    return bool(redis.zscore(key, game_id) if kind == "zset" else kind == "hash" and redis.hexists(key, game_id))


def _archive_cli(url: str, cfg: dict, *extra: str, max_file_bytes: int | None = None):
    """``python -m service archive`` over the test's Redis and store, as cron runs it;
    ``max_file_bytes``: no file it writes may grow past that (RLIMIT_FSIZE: each write
    past it fails as on a full disk)."""
    env = {**os.environ, "REDIS_URL": url, **{k: str(v) for k, v in cfg.items()}}

    def limit() -> None:
        if max_file_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (max_file_bytes, max_file_bytes))

    return subprocess.run(
        [sys.executable, "-m", "service", "archive", "--finished-days", "0", *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
    )


def test_the_pass_lock_is_its_own_short_and_renewed_and_a_blocked_pass_exits_75(url, tmp_path):
    """A pass killed -9 leaves its lock for a minute, not an hour; the pass started
    meanwhile exits 75 (EX_TEMPFAIL) saying so, not 0 as if nothing were due; a pass frees
    only its own lock, and renews it while it holds it."""
    from service.adapters import archive_listing
    from service.adapters.archive_listing import LOCK, PassRunning

    cfg = {"DATA_DIR": str(tmp_path / "data")}
    client, redis = _app(url, cfg).test_client(), connect(url)
    g = _finished(client)
    dead = ArchiveListing(redis, archive_store(cfg))
    assert dead.lock()  # a pass killed -9 after it took the lock
    assert 0 < redis.ttl(LOCK) <= 60
    blocked = _archive_cli(url, cfg)
    assert blocked.returncode == 75, blocked.stderr
    assert "another archiving pass" in blocked.stderr and "Traceback" not in blocked.stderr
    assert redis.exists(keys.events(g.id))

    redis.delete(LOCK)  # its lock expired
    mine = ArchiveListing(redis, archive_store(cfg))
    assert mine.lock() and not dead.lock()
    dead.unlock()  # the dead pass's late unlock frees nothing of another's
    assert redis.get(LOCK) == mine._token
    redis.expire(LOCK, 5)
    mine._renewed -= archive_listing.RENEW_SECONDS
    mine.hold()
    assert redis.ttl(LOCK) > 5  # renewed
    dead._renewed -= archive_listing.RENEW_SECONDS
    with pytest.raises(PassRunning):
        dead.hold()  # a pass whose lock another took stops
    mine.unlock()
    assert not redis.exists(LOCK)

    done = _archive_cli(url, cfg)
    assert done.returncode == 0 and json.loads(done.stdout)["finished"] == 1, done.stderr
    assert not redis.exists(keys.events(g.id), LOCK)


def test_a_pass_that_cannot_write_its_files_says_so_in_one_line_and_leaves_no_part_files(url, tmp_path):
    """The disk fills (each file the pass writes fails past 100 bytes): the pass exits 74
    (EX_IOERR) with one line on stderr, no traceback, no ``*.part`` file left taking the
    space that is short, and the games still whole in Redis."""
    cfg = {"DATA_DIR": str(tmp_path / "data")}
    client, redis = _app(url, cfg).test_client(), connect(url)
    games = [_finished(client) for _ in range(2)]
    failed = _archive_cli(url, cfg, max_file_bytes=100)
    assert failed.returncode == 74, failed.stderr
    assert failed.stderr.count("\n") == 1 and "the archive store failed" in failed.stderr, failed.stderr
    assert [p.name for p in (tmp_path / "data" / "archive").rglob("*") if p.is_file()] == []
    for g in games:
        assert redis.exists(keys.events(g.id), keys.tokens(g.id), keys.summary(g.id)) == 3
        assert client.get(g.url()).json["status"] == "finished"
    done = _archive_cli(url, cfg)
    assert done.returncode == 0 and json.loads(done.stdout)["finished"] == 2, done.stderr


def test_a_bucket_that_fails_is_tried_twice_in_all(tmp_path):
    """A server answering 503 to everything: a read of it makes two requests, as
    docs/DEPLOY.md says (two tries of at most 10 s each for one that hangs), not three."""
    import http.server
    import threading

    from botocore.exceptions import ClientError

    from service.adapters.s3_archive import S3Archive

    seen = []

    class Failing(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Failing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        store = S3Archive(
            BUCKET,
            endpoint_url=f"http://127.0.0.1:{server.server_address[1]}",
            region="us-east-1",
            access_key="k",
            secret_key="s",
        )
        with pytest.raises(ClientError):
            store.get("g1")
    finally:
        server.shutdown()
    assert len(seen) == 2


def test_a_page_reads_on_past_its_limit_when_a_later_read_segment_may_hide_a_line(url, tmp_path):
    """The older segment holds a game's old line among newer games; the newer segment
    (read after it: its newest game is older) hides that line: the page must not stop
    after ``limit`` lines of the older segment, one of which is hidden."""
    listing = ArchiveListing(connect(url), DirectoryArchive(tmp_path / "archive"))

    def line(game_id: str, day: int, status: str) -> dict:
        return {"id": game_id, "game": "toy", "status": status, "created_at": f"2026-11-0{day}T00:00:00Z"}

    listing.add([line("top", 9, "active"), line("x", 5, "active"), line("low", 1, "active")])
    listing.add([line("x", 5, "finished")])
    walked, cursor, more = [], None, True
    while more:
        page, more = listing.page(None, "active", 1, cursor)
        walked += [game_id for _, game_id, _ in page]
        cursor = (page[-1][0], page[-1][1]) if page else None
    assert walked == ["top", "low"]
