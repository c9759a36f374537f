"""The lobby is paginated and served from indexes: pages of ``limit`` games, newest
first, walked with the ``next`` cursor; filters read their own index."""

from __future__ import annotations

from tests.platform.helpers import GameHandle


def walk(client, query):
    seen, cursor = [], None
    for _ in range(100):
        url = f"/api/games?{query}" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(url).json
        seen.extend(g["id"] for g in page["games"])
        cursor = page["next"]
        if cursor is None:
            return seen
    raise AssertionError("the cursor never ended")


def test_pages_walk_every_game_once_newest_first(client):
    made = [GameHandle(client, seats=("p", "q")).id for _ in range(7)]
    first = client.get("/api/games?game=toy&limit=3").json
    assert len(first["games"]) == 3 and first["next"]
    seen = walk(client, "game=toy&limit=3")
    assert seen[:7] == made[::-1]
    assert len(seen) == len(set(seen))


def test_games_created_between_pages_do_not_shift_them(client):
    for _ in range(5):
        GameHandle(client)
    first = client.get("/api/games?game=toy&limit=2").json
    GameHandle(client)  # newer than every listed game
    second = client.get(f"/api/games?game=toy&limit=2&cursor={first['next']}").json
    ids = [g["id"] for g in first["games"] + second["games"]]
    assert len(set(ids)) == 4
    newest = client.get("/api/games?game=toy&limit=10").json["games"]
    order = [g["id"] for g in newest]
    assert [order.index(i) for i in ids] == sorted(order.index(i) for i in ids)


def test_status_filter_follows_the_game(client):
    g = GameHandle(client)
    assert g.id in [x["id"] for x in client.get("/api/games?status=active&limit=100").json["games"]]
    assert client.post(g.url("/referee/pause"), json={}, headers=g.ref()).status_code == 201
    paused = [x["id"] for x in client.get("/api/games?status=paused&limit=100").json["games"]]
    active = [x["id"] for x in client.get("/api/games?status=active&limit=100").json["games"]]
    assert g.id in paused and g.id not in active


def test_a_page_touches_only_its_own_games(client, redis_client):
    """Served from an index: the commands of a lobby request (Redis's slow log, set to
    record everything) never name a game outside the page, nor read a whole index."""
    old = GameHandle(client)
    for _ in range(3):
        GameHandle(client)
    client.get("/api/games?game=toy&limit=3")  # any one-time work done first
    before = redis_client.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"]
    redis_client.config_set("slowlog-log-slower-than", 0)
    redis_client.slowlog_reset()
    try:
        page = client.get("/api/games?game=toy&limit=3")
        log = redis_client.slowlog_get(128)
    finally:
        redis_client.config_set("slowlog-log-slower-than", before)
    assert page.status_code == 200 and old.id not in [g["id"] for g in page.json["games"]]
    commands = [
        [a.decode() if isinstance(a, bytes) else str(a) for a in entry["command"].split()]
        if isinstance(entry["command"], (bytes, str))
        else entry["command"]
        for entry in log
    ]
    flat = [" ".join(c) if isinstance(c, list) else str(c) for c in commands]
    assert not any(old.id in c for c in flat), flat
    assert not any(c.upper().startswith("ZREVRANGE") and c.endswith(" 0 -1") for c in flat), flat


def test_bad_cursors_and_limits_are_400(client):
    for query in ("cursor=nonsense", "cursor=1e999:abc", "limit=0", "limit=101"):
        r = client.get(f"/api/games?{query}")
        assert r.status_code == 400 and "error" in r.json


def test_a_page_of_every_status_merges_them_newest_first(client):
    """Unfiltered by status, the pages merge the three status sets: every game once, in
    creation order, however the statuses fall across a page's edge."""
    games = [GameHandle(client, seats=("p", "q"), options={"rounds": 1}) for _ in range(7)]
    for g in games[1::3]:
        assert client.post(g.url("/referee/pause"), json={}, headers=g.ref()).status_code == 201
    for g in games[2::3]:
        while client.get(g.url()).json["status"] != "finished":
            g.play_first()
    statuses = {x["id"]: x["status"] for x in client.get("/api/games?game=toy&limit=100").json["games"]}
    assert {statuses[g.id] for g in games} == {"active", "paused", "finished"}
    for query in ("game=toy&limit=2", "limit=3"):
        seen = walk(client, query)
        assert [i for i in seen if i in statuses][:7] == [g.id for g in games][::-1]
        assert len(seen) == len(set(seen))
