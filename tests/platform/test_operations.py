"""What operators see: liveness and readiness, Prometheus metrics summed over the
gunicorn workers (multiprocess mode), JSON logs carrying the request id, echoed."""

from __future__ import annotations

import json

import pytest
import requests

from tests.platform.gunicorn_server import create, gunicorn, play

pytestmark = pytest.mark.xdist_group("durability")


def sample(metrics: str, name: str, **labels) -> float:
    """The value of one sample of the text exposition."""
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    for line in metrics.splitlines():
        head, _, value = line.rpartition(" ")
        if head == name or (head.startswith(name + "{") and all(f'{k}="{v}"' in head for k, v in labels.items())):
            return float(value)
    raise AssertionError(f"no sample {name}{{{want}}}")


def test_health_readiness_metrics_and_request_ids_under_gunicorn(redis_url):
    with gunicorn(REDIS_URL=redis_url, WEB_CONCURRENCY=2) as (base, output):
        root = base[: -len("/api")]
        assert requests.get(root + "/healthz", timeout=5).json() == {"status": "ok"}
        assert requests.get(root + "/readyz", timeout=5).json() == {"status": "ready"}
        game = create(base)
        for _ in range(6):
            assert play(base, game).status_code == 201
        r = requests.get(f"{base}/games/{game['id']}", headers={"X-Request-Id": "trace-42"}, timeout=5)
        assert r.headers["X-Request-Id"] == "trace-42"
        fresh = requests.get(f"{base}/games/{game['id']}", headers={"X-Request-Id": "bad id\u00e9"}, timeout=5)
        assert len(fresh.headers["X-Request-Id"]) == 32 and fresh.headers["X-Request-Id"] != "bad id"
        # several connections, so both workers answer some
        for _ in range(10):
            requests.get(f"{base}/games/{game['id']}", headers={"Connection": "close"}, timeout=5)
        metrics = requests.get(root + "/metrics", timeout=5)
        assert metrics.headers["Content-Type"].startswith("text/plain")
        text = metrics.text
    assert sample(text, "event_appends_total", result="ok") >= 7  # created + six moves
    assert sample(text, "http_requests_total", route="/api/games/<game_id>/actions", method="POST", status="201") == 6
    assert sample(text, "http_requests_total", route="/api/games/<game_id>", method="GET", status="200") >= 12
    assert sample(text, "http_request_duration_seconds_count", route="/api/games/<game_id>/actions", method="POST") == 6
    assert sample(text, "state_cache_lookups_total", result="hit") > 0
    assert sample(text, "events_folded_total") > 0
    assert sample(text, "live_streams") == 0
    logged = [json.loads(line) for line in output if line.startswith("{")]
    traced = [entry for entry in logged if entry.get("request_id") == "trace-42"]
    assert traced and traced[0]["route"] == "/api/games/<game_id>" and traced[0]["status"] == 200
    assert any("rid=trace-42" in line for line in output), "the access log names it too"
