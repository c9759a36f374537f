"""Requests gunicorn refuses before Flask sees them (a request line or a header over its
limits, a malformed request line or header) get the API's JSON error body, with the
status gunicorn chose, ``Connection: close`` and the security headers, under both
worker classes."""

from __future__ import annotations

import json
import socket
import uuid

import pytest

from service.http.security_headers import HEADERS
from tests.platform.gunicorn_server import gunicorn

pytestmark = pytest.mark.xdist_group("durability")

REFUSED = {
    "a request line over the limit": (
        b"GET /api/" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n",
        414,
        "uri_too_long",
    ),
    "a header over the limit": (
        b"GET /api/game-types HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
        431,
        "headers_too_large",
    ),
    "more than 100 headers": (
        b"GET /api/game-types HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(101)) + b"\r\n",
        431,
        "headers_too_large",
    ),
    "a malformed request line": (b"NOT A REQUEST LINE AT ALL\r\n\r\n", 400, "malformed_request"),
    "an invalid method": (b"G(T /api/game-types HTTP/1.1\r\nHost: t\r\n\r\n", 400, "malformed_request"),
    "an invalid header name": (
        b"GET /api/game-types HTTP/1.1\r\nHost: t\r\nBad Name: x\r\n\r\n",
        400,
        "malformed_request",
    ),
    "a bad Content-Length": (
        b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Length: ten\r\n\r\n",
        400,
        "malformed_request",
    ),
}


@pytest.fixture(scope="module", params=["gevent", "gthread"])
def server(request, tmp_path_factory):
    """(port, worker class) of a gunicorn serving the app."""
    data_dir = tmp_path_factory.mktemp("data")
    with gunicorn(DATA_DIR=data_dir, REDIS_URL=None, WEB_CONCURRENCY=1, GUNICORN_WORKER_CLASS=request.param) as (
        base,
        _,
    ):
        yield int(base.split(":")[2].split("/")[0]), request.param


@pytest.fixture()
def port(server):
    return server[0]


def exchange(port: int, raw: bytes, stop_sending: bool = False) -> tuple[str, dict[str, str], bytes]:
    """Sends ``raw`` (then, with ``stop_sending``, closes the sending half, as a client
    that gives up mid-body) and reads the answer to the end (the server closes): status
    line, headers (lower-cased names), body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        if stop_sending:
            sock.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return status, headers, body


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_request_gunicorn_refuses_gets_the_json_error_body(port, case):
    raw, status, code = REFUSED[case]
    status_line, headers, body = exchange(port, raw)
    assert status_line.startswith(f"HTTP/1.1 {status} "), (status_line, body[:200])
    assert headers["content-type"] == "application/json", headers
    assert headers["connection"] == "close"
    assert int(headers["content-length"]) == len(body)
    error = json.loads(body)["error"]
    assert error["code"] == code and error["message"], error
    for name, value in HEADERS.items():
        assert headers[name.lower()] == value, name


def test_a_good_request_still_gets_its_answer(port):
    status_line, headers, body = exchange(port, b"GET /api/game-types HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    assert status_line.startswith("HTTP/1.1 200 ") and headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    "body",
    [b"zz\r\n{}\r\n0\r\n\r\n", b"2\r\n{}XX0\r\n\r\n"],
    ids=["a chunk size that is not hex", "a chunk without its terminator"],
)
def test_a_malformed_chunked_body_is_a_400_not_a_500(port, body):
    # gunicorn raises while the app reads such a body; the app answers, not gunicorn
    raw = b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    status_line, headers, answer = exchange(
        port, raw + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + body
    )
    assert status_line.startswith("HTTP/1.1 400 "), (status_line, answer[:200])
    assert headers["content-type"] == "application/json"
    assert json.loads(answer)["error"]["code"] == "malformed"


def test_a_chunked_body_cut_short_is_a_400_not_a_500(port):
    raw = b"POST /api/accounts HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    raw += b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n"  # no last chunk: the client stops sending
    status_line, headers, answer = exchange(port, raw, stop_sending=True)
    assert status_line.startswith("HTTP/1.1 400 "), (status_line, answer[:200])
    assert json.loads(answer)["error"]["code"] == "malformed"


def test_a_body_shorter_than_its_content_length_is_refused_and_nothing_written(port):
    name = f"cut{uuid.uuid4().hex[:8]}"
    body = json.dumps({"name": name, "password": "a long enough password"}).encode()
    raw = b"POST /api/accounts HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    raw += b"Content-Length: %d\r\n\r\n%s" % (len(body) + 50, body)  # then the client stops sending
    status_line, headers, answer = exchange(port, raw, stop_sending=True)
    assert status_line.startswith("HTTP/1.1 400 "), (status_line, answer[:200])
    assert headers["content-type"] == "application/json"
    assert json.loads(answer)["error"]["code"] == "malformed"
    lookup = f"GET /api/accounts/{name} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode()
    assert exchange(port, lookup)[0].startswith("HTTP/1.1 404 ")  # no account was made


ZH = b"Accept-Language: zh-TW,zh;q=0.9\r\n"


UNROUTABLE = {
    "OPTIONS *": (b"OPTIONS * HTTP/1.1\r\nHost: t\r\n", 400, "target_not_a_path"),
    "CONNECT to an authority": (b"CONNECT host:443 HTTP/1.1\r\nHost: host:443\r\n", 400, "target_not_a_path"),
    "an unknown method on a page": (b"FOO / HTTP/1.1\r\nHost: t\r\n", 405, "method_not_allowed"),
    "DELETE on a page": (b"DELETE /ratings HTTP/1.1\r\nHost: t\r\n", 405, "method_not_allowed"),
    "CONNECT to a path": (b"CONNECT /api/game-types HTTP/1.1\r\nHost: t\r\n", 405, "method_not_allowed"),
    "a POST to no page": (b"POST /no-such-page HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n", 404, "not_found"),
}


@pytest.mark.parametrize("case", list(UNROUTABLE))
def test_a_method_or_target_nothing_answers_gets_the_json_error(port, case):
    head, status, code = UNROUTABLE[case]
    status_line, headers, body = exchange(port, head + b"Connection: close\r\n\r\n")
    assert status_line.startswith(f"HTTP/1.1 {status} "), (status_line, body[:200])
    assert headers["content-type"] == "application/json", (headers, body[:200])
    error = json.loads(body)["error"]
    assert error["code"] == code and error["message"] and error["details"] == {}, error
    if status == 405:
        assert "GET" in headers["allow"]


def test_a_target_that_is_not_a_path_is_refused_in_the_callers_language(port):
    status_line, _, body = exchange(port, b"OPTIONS * HTTP/1.1\r\nHost: t\r\n" + ZH + b"Connection: close\r\n\r\n")
    assert status_line.startswith("HTTP/1.1 400 ")
    assert json.loads(body)["error"]["message"] == "請求目標不是路徑"


def test_a_browser_asking_for_a_missing_page_still_gets_the_html_page(port):
    status_line, headers, _ = exchange(port, b"GET /no-such-page HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    assert status_line.startswith("HTTP/1.1 404 ") and headers["content-type"].startswith("text/html")
