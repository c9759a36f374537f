"""The OpenAPI document is the contract: every answer has its declared schema and
content type, errors are the real ``{"error": {...}}`` body, 405s say ``Allow``; and
schemathesis (every check, fixed seed, bounded examples) finds nothing against the
whole API served over real HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).parent
MAX_EXAMPLES = 8
SEED = 20261123


def test_every_operation_declares_its_success_answer(client):
    spec = client.get("/api/openapi.json").json
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "delete", "patch"):
                continue
            ok = [s for s in operation["responses"] if s.startswith("2")]
            assert ok, (method, path)
            for status in ok:
                content = operation["responses"][status]["content"]
                assert all("schema" in media for media in content.values()), (method, path, status)
    stream = spec["paths"]["/api/games/{game_id}/stream"]["get"]["responses"]["200"]["content"]
    export = spec["paths"]["/api/games/{game_id}/export"]["get"]["responses"]["200"]["content"]
    assert list(stream) == ["text/event-stream"] and list(export) == ["application/x-ndjson"]


def _api_operations(spec):
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method in ("get", "post", "put", "delete", "patch") and path.startswith("/api/"):
                yield method, path, operation


def test_every_operation_declares_its_real_error_answers(client):
    """Tournament routes as well as game routes: storage unavailable (503 with
    Retry-After), rate limited (429), any other error (default), and where a body is
    taken, a body that fails (400) or is too large (413)."""
    spec = client.get("/api/openapi.json").json
    for method, path, operation in _api_operations(spec):
        responses = operation["responses"]
        for status in ("429", "503", "default"):
            assert status in responses, (method, path, status)
            answer = responses[status]
            if "$ref" in answer:
                answer = spec["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
            assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
        assert "Retry-After" in responses["503"]["headers"], (method, path)
        if "requestBody" in operation:
            assert {"400", "413"} <= set(responses), (method, path)
    withdraw = spec["paths"]["/api/tournaments/{tid}/players/{pid}"]["delete"]
    assert "requestBody" in withdraw and "400" in withdraw["responses"]
    r = client.delete("/api/tournaments/nosuch/players/p1", json={"bot": 7})
    assert r.status_code == 400  # the answer the document now declares


def test_the_error_schema_is_the_real_error_body(client):
    spec = client.get("/api/openapi.json").json
    error = spec["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    detail = spec["components"]["schemas"]["ErrorDetail"]
    real = client.get("/api/games/nope").json
    assert set(real) == set(error["properties"])
    assert set(real["error"]) == set(detail["properties"]) == set(detail["required"])


def test_405_says_allow(client):
    r = client.put("/api/games")
    assert r.status_code == 405 and r.json["error"]["code"] == "method_not_allowed"
    assert set(r.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "POST"}


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A server on a Redis of its own: what the fuzzer creates (accounts named after any
    string it saw, such as a game type) must not become other tests' world."""
    from werkzeug.serving import make_server

    from events.connection import start_embedded
    from service.app import create_app

    redis_server, url = start_embedded(str(tmp_path_factory.mktemp("contract-redis")))
    app = create_app(
        {
            "REDIS_URL": url,
            "CLOCK_SWEEP_SECONDS": 0,
            "SSE_SECONDS": 0.5,
            "DATA_DIR": str(tmp_path_factory.mktemp("contract-data")),
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    redis_server.shutdown()


def test_schemathesis_finds_nothing(live, tmp_path):
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.platform.schemathesis_hooks", "PYTHONPATH": os.getcwd()}
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(HERE / "schemathesis.toml"),
        "run",
        f"{live}/api/openapi.json",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--seed",
        str(SEED),
        "--report-dir",
        str(tmp_path),
        "--no-color",
    ]
    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failure" not in done.stdout.splitlines()[-1]
