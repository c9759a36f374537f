"""What operators see: liveness and readiness, Prometheus metrics summed over the
gunicorn workers (multiprocess mode), JSON logs carrying the request id, echoed."""

from __future__ import annotations

import json
import time

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
        health = requests.get(root + "/healthz", timeout=5).json()
        assert health["status"] == "ok" and health["version"] and health["revision"]
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
    assert sample(text, "boardgames_event_appends_total", result="ok") >= 7  # created + six moves
    assert (
        sample(
            text, "boardgames_http_requests_total", route="/api/games/<game_id>/actions", method="POST", status="201"
        )
        == 6
    )
    assert (
        sample(text, "boardgames_http_requests_total", route="/api/games/<game_id>", method="GET", status="200") >= 12
    )
    assert (
        sample(
            text, "boardgames_http_request_duration_seconds_count", route="/api/games/<game_id>/actions", method="POST"
        )
        == 6
    )
    assert sample(text, "boardgames_state_cache_lookups_total", result="hit") > 0
    assert sample(text, "boardgames_events_folded_total") > 0
    assert sample(text, "boardgames_live_streams") == 0
    assert sample(text, "boardgames_build_info", version=health["version"]) == 1
    assert sample(text, "boardgames_clock_sweeps_total", result="ok") == 0  # CLOCK_SWEEP_SECONDS=0: no sweeper
    assert not [line for line in text.splitlines() if line[:1] not in ("#", "b")], "every series is namespaced"
    assert any(f"Listening at: http://127.0.0.1:{base.split(':')[2].split('/')[0]}" in line for line in output)
    assert not any("gunicorn.ctl" in line for line in output), "no control socket shared by every instance"
    assert not any("Listening at:  (" in line for line in output), "no line without an address"
    logged = [json.loads(line) for line in output if line.startswith("{")]
    traced = [entry for entry in logged if entry.get("request_id") == "trace-42"]
    assert traced and traced[0]["route"] == "/api/games/<game_id>" and traced[0]["status"] == 200
    assert traced[0]["path"] == f"/api/games/{game['id']}" and traced[0]["client"] == "127.0.0.1"
    assert isinstance(traced[0]["worker"], int)
    assert len(traced) == 1 and not any("trace-42" in line for line in output if not line.startswith("{")), (
        "one line per request as shipped: gunicorn's access log, which said the same, is off"
    )


def test_the_clock_sweeper_reports_its_sweeps(redis_url):
    from service.app import create_app

    app = create_app({"REDIS_URL": redis_url, "CLOCK_SWEEP_SECONDS": 0.05})
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            text = app.test_client().get("/metrics").text
            if sample(text, "boardgames_clock_sweeps_total", result="ok") >= 2:
                break
            time.sleep(0.05)
    finally:
        app.extensions["clock_sweeper_stop"].set()
    assert sample(text, "boardgames_clock_sweeps_total", result="ok") >= 2
    assert sample(text, "boardgames_clock_sweep_duration_seconds_count") >= 2
    assert sample(text, "boardgames_clock_sweep_last_success_timestamp_seconds") > time.time() - 60


def test_tournament_steps_are_counted(client):
    from tests.tournaments.bots import bearer
    from tests.tournaments.test_api import create as create_tournament

    def steps(step: str) -> float:
        text = client.get("/metrics").get_data(as_text=True)
        return sample(text, "boardgames_tournament_steps_total", step=step)

    before = {step: steps(step) for step in ("created", "round_paired", "finished")}
    tid, director, _ = create_tournament(client, "toy", 2, 2, ["p1", "p2"])
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).status_code == 201
    assert {step: steps(step) - before[step] for step in before} == {"created": 1, "round_paired": 1, "finished": 0}
