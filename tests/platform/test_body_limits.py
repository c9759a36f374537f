"""One body limit for every route (MAX_BODY_BYTES), except the export upload
(/api/verify, VERIFY_MAX_BYTES); refused from the announced length, before the body
is read, and for chunked bodies as soon as they pass it."""

from __future__ import annotations

import socket
import time

import pytest

from tests import redis_servers
from tests.platform.gunicorn_server import gunicorn

# every route that takes a body, with a body just over the limit
BODY_ROUTES = [
    ("POST", "/api/games"),
    ("POST", "/api/games/nosuch/actions"),
    ("POST", "/api/games/nosuch/annotations"),
    ("POST", "/api/tournaments"),
    ("POST", "/api/tournaments/nosuch/players"),
    ("POST", "/api/tournaments/nosuch/registration"),
    ("POST", "/api/tournaments/nosuch/results"),
    ("POST", "/api/tournaments/nosuch/finish"),
    ("DELETE", "/api/tournaments/nosuch/players/p1"),
]


@pytest.mark.parametrize("method,path", BODY_ROUTES)
def test_every_route_refuses_a_body_over_the_limit(client, app, method, path):
    body = b'{"name": "' + b"a" * app.config["MAX_BODY_BYTES"] + b'"}'
    r = client.open(path, method=method, data=body, content_type="application/json")
    assert r.status_code == 413, (r.status_code, r.json)
    assert r.json["error"]["code"] == "too_large"


def test_the_export_upload_takes_more_than_the_body_limit(client, app):
    body = b'{"seq": 1}\n' * (app.config["MAX_BODY_BYTES"] // 10)
    assert len(body) > app.config["MAX_BODY_BYTES"]
    r = client.post("/api/verify", data=body, content_type="application/x-ndjson")
    assert r.status_code in (200, 400, 422), r.json  # judged, not refused for its size
    assert r.json.get("error", {}).get("code") != "too_large"


def test_a_verify_body_that_is_not_utf8_is_400(client):
    r = client.post("/api/verify", data=b"\xff\xfe\x00", content_type="application/x-ndjson")
    assert r.status_code == 400 and r.json["error"]["code"] == "malformed"


def _answer(sock: socket.socket, seconds: float) -> bytes:
    sock.settimeout(seconds)
    data = b""
    try:
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        pass
    return data


@pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed")
def test_under_gunicorn_a_large_announced_body_is_refused_before_it_is_sent(tmp_path):
    """30 MiB announced to a tournament route, none of it sent: the answer is a 413
    at once (the server does not wait to read it)."""
    with gunicorn(DATA_DIR=tmp_path, REDIS_URL=None) as (base, _):
        port = int(base.split(":")[2].split("/")[0])
        for path in ("/api/tournaments/nosuch/results", "/api/tournaments", "/api/games/nosuch/actions"):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(
                f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                f"Content-Length: {30 * 1024 * 1024}\r\n\r\n".encode()
            )
            started = time.monotonic()
            answer = _answer(sock, 5)
            sock.close()
            assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:200])
            assert b'"too_large"' in answer
            assert time.monotonic() - started < 3

        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(
            b"POST /api/tournaments HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b'{"name": "' + b"a" * 8192
        for _ in range(25):  # 200 KiB, chunked
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        sock.sendall(b"0\r\n\r\n")
        answer = _answer(sock, 5)
        sock.close()
        assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
        assert b'"too_large"' in answer


def test_an_unknown_docs_asset_is_a_json_404(client):
    for name in ("%00", "nope.js"):
        r = client.get(f"/api/docs/assets/{name}")
        assert r.status_code == 404 and r.json["error"]["code"] == "not_found", (name, r.data)
