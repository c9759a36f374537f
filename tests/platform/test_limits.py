"""Per-client rate limits (Flask-Limiter on the server's Redis): 429 with Retry-After and
the error body, counted per client address across workers (the counters live in Redis)."""

from __future__ import annotations

import pytest

from tests.platform.helpers import GameHandle


@pytest.fixture()
def limited(redis_url, redis_client):
    from service.app import create_app

    for key in redis_client.scan_iter(match="*ratelimit*"):
        redis_client.delete(key)

    def make(**limits):
        config = {"REDIS_URL": redis_url, "CLOCK_SWEEP_SECONDS": 0, "RATE_LIMITS_ENABLED": True, **limits}
        return create_app(config).test_client()

    yield make
    for key in redis_client.scan_iter(match="*ratelimit*"):
        redis_client.delete(key)


def create(client, addr="10.0.0.1"):
    return client.post("/api/games", json={"game": "toy", "seats": ["a", "b"]}, environ_base={"REMOTE_ADDR": addr})


def test_one_client_cannot_create_games_without_limit(limited):
    client = limited(RATE_LIMIT_CREATE="5 per minute")
    answers = [create(client) for _ in range(8)]
    assert [r.status_code for r in answers] == [201] * 5 + [429] * 3
    refused = answers[-1]
    assert refused.json["error"]["code"] == "rate_limited"
    assert set(refused.json["error"]) == {"code", "message", "details"}
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert create(client, addr="10.0.0.2").status_code == 201  # another client is not affected


def test_the_count_is_shared_between_workers(limited):
    """Two app instances (two workers) count in the same Redis."""
    first, second = limited(RATE_LIMIT_CREATE="3 per minute"), limited(RATE_LIMIT_CREATE="3 per minute")
    codes = [create(c).status_code for c in (first, second, first, second)]
    assert codes == [201, 201, 201, 429]


def test_annotations_are_limited_per_client(limited, app):
    client = limited(RATE_LIMIT_ANNOTATE="3 per minute")
    g = GameHandle(client)
    codes = [
        client.post(
            g.url("/annotations"), json={"seq": 1, "text": f"note {i}"}, environ_base={"REMOTE_ADDR": "10.0.0.3"}
        ).status_code
        for i in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]


def test_every_api_request_counts_against_the_default_limit(limited):
    client = limited(RATE_LIMIT_DEFAULT="4 per minute")
    codes = [client.get("/api/game-types", environ_base={"REMOTE_ADDR": "10.0.0.4"}).status_code for _ in range(6)]
    assert codes == [200] * 4 + [429] * 2
    assert client.get("/", environ_base={"REMOTE_ADDR": "10.0.0.4"}).status_code == 200  # pages are not limited


def redis_calls(redis_client) -> int:
    """Round trips of the limiter: its sliding-window counters are Lua scripts (EVALSHA;
    the commands a script runs inside are counted apart by Redis)."""
    stats = redis_client.info("commandstats")
    return sum(stats.get(name, {}).get("calls", 0) for name in ("cmdstat_evalsha", "cmdstat_eval"))


def test_a_refusal_costs_one_redis_call_and_successes_carry_no_retry_after(limited, redis_client):
    """A flood of refused requests must cost the server less than served ones: a 429 is
    one counter call plus one read of when the window frees; a 200 is one counter call,
    and says nothing of retrying."""
    client = limited(RATE_LIMIT_DEFAULT="2 per minute")
    env = {"REMOTE_ADDR": "10.0.0.5"}
    client.get("/api/game-types", environ_base=env)
    before = redis_calls(redis_client)
    ok = client.get("/api/game-types", environ_base=env)
    served = redis_calls(redis_client) - before
    assert ok.status_code == 200 and "Retry-After" not in ok.headers
    client.get("/api/game-types", environ_base=env)  # the first refusal loads the read's script
    before = redis_calls(redis_client)
    refused = client.get("/api/game-types", environ_base=env)
    refusal = redis_calls(redis_client) - before
    assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= 60
    assert served == 1, served
    assert refusal <= 2, refusal


def test_one_address_gets_a_bounded_number_of_requests_in_progress(limited):
    """Requests of one address beyond MAX_INFLIGHT_PER_CLIENT in progress at once are
    refused before Flask (429, Retry-After 1, the error body); other addresses and
    the same address once its requests are done are served."""
    import threading

    client = limited(MAX_INFLIGHT_PER_CLIENT=2)
    app = client.application
    entered, release = threading.Semaphore(0), threading.Event()

    @app.get("/api/test-hold")
    def hold():
        entered.release()
        release.wait(10)
        return {"ok": True}

    env = {"REMOTE_ADDR": "10.0.0.6"}
    answers = []
    holders = [
        threading.Thread(target=lambda: answers.append(client.get("/api/test-hold", environ_base=env)))
        for _ in range(2)
    ]
    for t in holders:
        t.start()
    assert entered.acquire(timeout=10) and entered.acquire(timeout=10)
    refused = client.get("/api/game-types", environ_base=env)
    chinese = client.get("/api/game-types", environ_base=env, headers={"Accept-Language": "zh-Hant"})
    other = client.get("/api/game-types", environ_base={"REMOTE_ADDR": "10.0.0.7"})
    release.set()
    for t in holders:
        t.join(10)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert refused.json["error"]["code"] == "too_many_requests_in_flight"
    assert refused.json["error"]["message"] == "too many requests from this address at once; try again in 1 s"
    assert (
        chinese.status_code == 429 and chinese.json["error"]["message"] == "這個位址同時送出的請求太多；請於 1 秒後再試"
    )
    assert other.status_code == 200
    assert [a.status_code for a in answers] == [200, 200]
    assert client.get("/api/game-types", environ_base=env).status_code == 200


def test_a_refusal_says_the_wait_in_the_request_language(limited):
    """The limiter's own text ("5 per 1 minute") never reaches a player: a sentence with
    the wait, in English or zh-Hant, and the same wait in Retry-After and details."""
    client = limited(RATE_LIMIT_DEFAULT="1 per minute")
    env = {"REMOTE_ADDR": "10.0.1.1"}
    client.get("/api/game-types", environ_base=env)
    english = client.get("/api/game-types", environ_base=env)
    chinese = client.get("/api/game-types", environ_base=env, headers={"Accept-Language": "zh-Hant"})
    for refused in (english, chinese):
        assert refused.status_code == 429
        wait = int(refused.headers["Retry-After"])
        assert 0 < wait <= 60 and refused.json["error"]["details"] == {"retry_after": wait}
        assert "per 1 minute" not in refused.json["error"]["message"]
    assert english.json["error"]["message"] == f"too many requests; try again in {english.headers['Retry-After']} s"
    assert chinese.json["error"]["message"] == f"請求太多；請於 {chinese.headers['Retry-After']} 秒後再試"


def test_the_default_budget_is_one_for_all_routes(limited):
    """One budget per kind of request, not one per route by accident: reads of a
    game's meta and of the game types draw on the same budget."""
    client = limited(RATE_LIMIT_DEFAULT="4 per minute")
    env = {"REMOTE_ADDR": "10.0.1.2"}
    first = GameHandle(client)  # created from another address
    codes = [client.get(first.url(), environ_base=env).status_code for _ in range(4)]
    assert codes == [200] * 4
    assert client.get("/api/game-types", environ_base=env).status_code == 429


def test_requests_with_a_token_are_counted_per_token(limited):
    """Two seats behind one address each have the whole budget; anonymous requests of
    that address have theirs; made-up tokens meet the address's ceiling."""
    client = limited(RATE_LIMIT_DEFAULT="3 per minute", RATE_LIMIT_ADDRESS="6 per minute")
    g = GameHandle(client)
    env = {"REMOTE_ADDR": "10.0.1.3"}
    for seat in (0, 1):
        codes = [client.get(g.url("/view"), headers=g.seat(seat), environ_base=env).status_code for _ in range(3)]
        assert codes == [200] * 3
        assert client.get(g.url("/view"), headers=g.seat(seat), environ_base=env).status_code == 429
    assert [client.get(g.url(), environ_base=env).status_code for _ in range(2)] == [200, 200]
    # 6 token-carrying requests served from the address so far: a made-up token finds the ceiling
    refused = client.get(g.url(), headers={"Authorization": "Bearer made-up"}, environ_base=env)
    assert refused.status_code == 429 and refused.json["error"]["code"] == "rate_limited"


def test_the_routes_without_a_token_count_the_address_whatever_the_request_carries(limited):
    client = limited(RATE_LIMIT_CREATE="2 per minute")
    env = {"REMOTE_ADDR": "10.0.1.4"}
    body = {"game": "toy", "seats": ["a", "b"]}
    codes = [
        client.post(
            "/api/games", json=body, headers={"Authorization": f"Bearer fresh{i}"}, environ_base=env
        ).status_code
        for i in range(3)
    ]
    assert codes == [201, 201, 429]


def test_a_trusted_venue_network_is_not_limited_per_address(limited):
    """TRUSTED_VENUE_NETWORKS: a room behind one address is not one client; per-token
    budgets still hold there."""
    client = limited(
        RATE_LIMIT_DEFAULT="2 per minute", RATE_LIMIT_CREATE="1 per minute", TRUSTED_VENUE_NETWORKS="10.9.0.0/16"
    )
    venue, outside = {"REMOTE_ADDR": "10.9.3.4"}, {"REMOTE_ADDR": "10.8.0.1"}
    assert [create(client, addr="10.9.3.4").status_code for _ in range(3)] == [201] * 3
    assert [client.get("/api/game-types", environ_base=venue).status_code for _ in range(5)] == [200] * 5
    assert [client.get("/api/game-types", environ_base=outside).status_code for _ in range(3)] == [200, 200, 429]
    g = GameHandle(client)
    seat = [client.get(g.url("/view"), headers=g.seat(0), environ_base=venue).status_code for _ in range(3)]
    assert seat == [200, 200, 429]
