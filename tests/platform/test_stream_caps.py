"""Live-stream caps (service/http/live.py StreamSlots) refuse with the error body and a
``Retry-After`` a client can follow: per client 429 (when its oldest stream ends), per
game and per worker 503; the OpenAPI document declares both answers and the header."""

from __future__ import annotations

import pytest

from tests.platform.helpers import GameHandle


@pytest.fixture()
def capped(redis_url, tmp_path):
    from service.app import create_app

    def make(**caps):
        config = {
            "REDIS_URL": redis_url,
            "CLOCK_SWEEP_SECONDS": 0,
            "TESTING": True,
            "DATA_DIR": str(tmp_path),
            "SSE_SECONDS": 20,
            "SSE_MAX_STREAMS": 100,
            "SSE_MAX_PER_CLIENT": 100,
            "SSE_MAX_PER_GAME": 100,
            **caps,
        }
        return create_app(config).test_client()

    return make


def open_streams(client, game, n, addr):
    """Streams held open by the test client (close them last-opened first: each holds a
    request context of this one thread)."""
    return [client.get(game.url("/stream"), environ_base={"REMOTE_ADDR": addr}) for _ in range(n)]


def assert_retry_after(refused, status, at_most):
    assert refused.status_code == status, refused.get_data(as_text=True)
    assert refused.json["error"]["code"] == "too_many_streams"
    seconds = int(refused.headers["Retry-After"])
    assert 1 <= seconds <= at_most
    assert refused.json["error"]["details"]["retry_after"] == seconds


def test_a_client_over_its_cap_is_told_when_its_oldest_stream_ends(capped):
    client = capped(SSE_MAX_PER_CLIENT=2)
    game = GameHandle(client)
    held = open_streams(client, game, 2, "10.1.0.1")
    try:
        assert [r.status_code for r in held] == [200, 200]
        refused = open_streams(client, game, 1, "10.1.0.1")[0]
        assert_retry_after(refused, 429, at_most=20)  # SSE_SECONDS: its streams have ended by then
        assert int(refused.headers["Retry-After"]) >= 19  # they were opened just now
        wait = refused.headers["Retry-After"]
        assert refused.json["error"]["message"] == f"this client has too many live streams open; try again in {wait} s"
        other = open_streams(client, game, 1, "10.1.0.2")[0]
        assert other.status_code == 200, "another client is not refused"
        other.close()
    finally:
        for r in reversed(held):
            r.close()
    again = open_streams(client, game, 1, "10.1.0.1")[0]
    assert again.status_code == 200, "a slot frees when a stream closes"
    again.close()


def test_a_trusted_venue_network_is_not_capped_per_client(capped):
    """A room behind one venue address holds a stream per player and spectator: its
    address is not one client (the per-game and per-worker caps still hold)."""
    client = capped(SSE_MAX_PER_CLIENT=1, TRUSTED_VENUE_NETWORKS="10.9.0.0/16")
    game = GameHandle(client)
    held = open_streams(client, game, 3, "10.9.1.1")
    outside = open_streams(client, game, 2, "10.1.0.9")
    try:
        assert [r.status_code for r in held] == [200, 200, 200]
        assert [r.status_code for r in outside] == [200, 429]
    finally:
        for r in reversed(held + outside):
            r.close()


@pytest.mark.parametrize("cap", ["SSE_MAX_PER_GAME", "SSE_MAX_STREAMS"])
def test_a_full_game_or_worker_says_retry_shortly(capped, cap):
    client = capped(**{cap: 1})
    game = GameHandle(client)
    held = open_streams(client, game, 1, "10.1.0.3")
    try:
        assert held[0].status_code == 200
        assert_retry_after(open_streams(client, game, 1, "10.1.0.4")[0], 503, at_most=5)
    finally:
        held[0].close()


def test_the_openapi_document_declares_the_stream_refusals(client):
    spec = client.get("/api/openapi.json").json
    operation = spec["paths"]["/api/games/{game_id}/stream"]["get"]
    for status in ("429", "503"):
        name = operation["responses"][status]["$ref"].rsplit("/", 1)[1]  # the stream's own, shared answer
        response = spec["components"]["responses"][name]
        assert "too_many_streams" in response["description"] and "Retry-After" in response["headers"], status
        assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
