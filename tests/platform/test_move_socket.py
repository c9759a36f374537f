"""Moves over a WebSocket (GET /api/games/<id>/socket) through a real gunicorn (its default
gevent workers, two of them): the same service path as POST .../actions — idempotent
action ids, expected_seq, receipts, redacted views — and bad frames answered with the
same JSON errors, never a crash."""

from __future__ import annotations

import json

import pytest
import requests
from simple_websocket import ConnectionClosed

from tests.platform.gunicorn_server import gunicorn
from tests.platform.socket_client import Client

pytestmark = pytest.mark.xdist_group("durability")


@pytest.fixture(scope="module")
def base(redis_url):
    with gunicorn(
        "bench.toy_app:app",
        REDIS_URL=redis_url,
        WEB_CONCURRENCY=2,
        ACCESS_LOG="",
        RATE_LIMITS="off",
        MAX_BODY_BYTES=4096,
        SOCKET_IDLE_SECONDS=20,
    ) as (url, _):
        yield url


def new_game(base: str, rounds: int = 3) -> dict:
    r = requests.post(
        base + "/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": rounds}}, timeout=10
    )
    assert r.status_code == 201, r.text
    return r.json()


def connect(base: str, game_id: str, token: str | None = None, **headers) -> Client:
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return Client.connect(f"{base.replace('http', 'ws', 1)}/games/{game_id}/socket", headers=headers)


def ask(ws: Client, frame) -> dict:
    ws.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))
    return json.loads(ws.receive(timeout=10))


def test_socket_moves_take_the_same_path_as_http(base):
    game = new_game(base)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    ws = connect(base, gid, tokens[0])
    try:
        assert json.loads(ws.receive(timeout=10)) == {"status": 200, "body": {"game": gid, "viewer": {"seat": 0}}}
        for move in range(6):  # seat 0 over its socket, seat 1 over HTTP: the workers' caches go stale in turn
            frame = {"type": "roll", "payload": {}, "action_id": f"m{move}"}
            if move % 2 == 0:
                got = ask(ws, frame)
                status, body = got["status"], got["body"]
            else:
                r = requests.post(f"{base}/games/{gid}/actions", json=frame, headers=auth[1], timeout=10)
                status, body = r.status_code, r.json()
            assert status == 201 and body["seq"] == move + 2, body
            meta = requests.get(f"{base}/games/{gid}", timeout=10).json()
            assert body["receipt"]["seq"] == meta["seq"] and body["receipt"]["head"] == meta["head_hash"]
            if move % 2 == 0:  # the socket's view is the seat's own, redacted as over HTTP
                view = requests.get(f"{base}/games/{gid}/view", headers=auth[0], timeout=10).json()
                if meta["seq"] == body["seq"]:
                    assert body["view"] == view["view"]
                assert isinstance(body["view"]["hands"][1], int), "the other seat's hand is a count"
        retry = ask(ws, {"type": "roll", "payload": {}, "action_id": "m0"})
        assert (retry["status"], retry["body"]["seq"]) == (200, 2), "a retried action id answers its first seq"
        reused = ask(ws, {"type": "note", "payload": {"text": "a"}, "action_id": "m4"})
        assert (reused["status"], reused["body"]["error"]["code"]) == (409, "action_id_reused")
    finally:
        ws.close()
    export = requests.get(f"{base}/games/{gid}/export", timeout=10)
    checked = requests.post(f"{base}/verify", data=export.content, timeout=30).json()
    assert checked["ok"], checked


def test_expected_seq_and_turns_over_the_socket(base):
    game = new_game(base)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    ws = connect(base, gid, tokens[1])
    try:
        ws.receive(timeout=10)
        early = ask(ws, {"type": "roll", "action_id": "x"})
        assert (early["status"], early["body"]["error"]["code"]) == (422, "not_your_turn")
        stale = ask(ws, {"type": "roll", "action_id": "y", "expected_seq": 0})
        assert (stale["status"], stale["body"]["error"]["code"]) == (409, "stale_seq")
        assert requests.get(f"{base}/games/{gid}", timeout=10).json()["seq"] == 1, "nothing was written"
    finally:
        ws.close()


@pytest.mark.parametrize(
    "frame, status, code",
    [
        ("not json", 400, "malformed"),
        ("[1, 2]", 400, "malformed"),
        (b"\x00\x01", 400, "malformed"),
        ('{"type": "roll", "bogus": 1}', 400, "bad_request"),
        ('{"payload": {}}', 400, "bad_request"),
        ('{"type": "roll", "action_id": "sys:clock"}', 400, "bad_request"),
        ('{"type": "fly"}', 400, "unknown_action"),
        ('{"type": "play", "payload": {"card": "x"}}', 400, "bad_payload"),
        ('{"type": "roll", "expected_seq": -1}', 400, "bad_request"),
    ],
)
def test_bad_frames_are_clear_errors_and_the_socket_goes_on(base, frame, status, code):
    game = new_game(base)
    gid, token = game["id"], game["seats"][0]["token"]
    ws = connect(base, gid, token)
    try:
        ws.receive(timeout=10)
        got = ask(ws, frame)
        assert (got["status"], got["body"]["error"]["code"]) == (status, code), got
        assert got["body"]["error"]["message"]
        assert requests.get(f"{base}/games/{gid}", timeout=10).json()["seq"] == 1, "nothing was written"
        assert ask(ws, {"type": "roll", "action_id": "after"})["status"] == 201, "the socket still plays"
    finally:
        ws.close()


def test_a_frame_over_the_size_limit_closes_the_socket(base):
    game = new_game(base)
    ws = connect(base, game["id"], game["seats"][0]["token"])
    ws.receive(timeout=10)
    ws.send(json.dumps({"type": "note", "payload": {"text": "a" * 10000}}))
    with pytest.raises(ConnectionClosed) as closed:
        ws.receive(timeout=10)
    assert closed.value.reason == 1009  # message too big
    assert requests.get(f"{base}/games/{game['id']}", timeout=10).json()["seq"] == 1


def test_who_may_open_a_socket(base):
    game = new_game(base)
    gid = game["id"]
    cases = [
        (connect(base, gid, "not-a-token"), None, 401, "bad_token"),
        (connect(base, gid, game["referee_token"]), None, 403, "not_a_seat"),
        (connect(base, "0123456789abcdef", game["seats"][0]["token"]), None, 404, "not_found"),
        (connect(base, gid), "not json", 401, "bad_token"),
        (connect(base, gid), json.dumps({"token": 5}), 401, "bad_token"),
    ]
    for ws, first, status, code in cases:
        if first is not None:
            ws.send(first)
        got = json.loads(ws.receive(timeout=10))
        assert (got["status"], got["body"]["error"]["code"]) == (status, code), got
        with pytest.raises(ConnectionClosed) as closed:
            ws.receive(timeout=10)
        assert closed.value.reason == 1008
    # a browser cannot set headers: the token comes in the first frame
    ws = connect(base, gid)
    try:
        ws.send(json.dumps({"token": game["seats"][0]["token"]}))
        assert json.loads(ws.receive(timeout=10))["body"]["viewer"] == {"seat": 0}
        assert ask(ws, {"type": "roll", "action_id": "first"})["status"] == 201
    finally:
        ws.close()


@pytest.mark.parametrize("first", ['{"token": "\\ud800"}', '{"token": "a\\udfffb"}', '{"token": NaN}'])
def test_a_token_frame_that_is_not_valid_text_is_a_bad_token(base, first):
    """A token frame is JSON like any body: a lone surrogate (no UTF-8 spelling, so no
    digest) is a malformed token, 401, never an internal error."""
    game = new_game(base)
    ws = connect(base, game["id"])
    ws.send(first)
    got = json.loads(ws.receive(timeout=10))
    assert (got["status"], got["body"]["error"]["code"]) == (401, "bad_token"), got
    with pytest.raises(ConnectionClosed) as closed:
        ws.receive(timeout=10)
    assert closed.value.reason == 1008


def test_errors_in_the_handshake_language(base):
    game = new_game(base)
    ws = connect(base, game["id"], game["seats"][1]["token"], **{"Accept-Language": "zh-Hant"})
    try:
        ws.receive(timeout=10)
        got = ask(ws, "not json")
        english = "the body is not valid JSON"
        assert got["body"]["error"]["code"] == "malformed" and got["body"]["error"]["message"] != english
    finally:
        ws.close()


def test_a_token_frame_names_the_language(base):
    """A browser cannot set Accept-Language on the handshake either: the token frame may
    carry the page's, and the answers follow it, as a POST with that header would."""
    game = new_game(base)
    gid = game["id"]
    english = "the body is not valid JSON"
    for header, frame_language, chinese in [("en", "zh-Hant", True), ("zh-Hant", "en", False), ("zh-Hant", None, True)]:
        ws = connect(base, gid, **{"Accept-Language": header})
        try:
            first = {"token": game["seats"][1]["token"]}
            if frame_language is not None:
                first["accept_language"] = frame_language
            ws.send(json.dumps(first))
            assert json.loads(ws.receive(timeout=10))["status"] == 200
            message = ask(ws, "not json")["body"]["error"]["message"]
            assert (message != english) is chinese, (header, frame_language, message)
        finally:
            ws.close()
    ws = connect(base, gid)
    ws.send(json.dumps({"token": game["seats"][1]["token"], "accept_language": 7}))
    got = json.loads(ws.receive(timeout=10))
    assert (got["status"], got["body"]["error"]["code"]) == (401, "bad_token"), got


def test_frames_count_against_the_rate_limit(redis_url):
    """Frames are counted per seat in the worker (no Redis round trip per frame): another
    seat behind the same address is not held back."""
    with gunicorn(
        "bench.toy_app:app",
        REDIS_URL=redis_url,
        WEB_CONCURRENCY=1,
        ACCESS_LOG="",
        RATE_LIMITS="on",
        RATE_LIMIT_DEFAULT="4 per minute",
    ) as (base, _):
        game = new_game(base, rounds=10)
        ws = connect(base, game["id"], game["seats"][1]["token"])
        try:
            ws.receive(timeout=10)
            answers = [ask(ws, {"type": "note", "payload": {"text": "a"}, "action_id": f"n{i}"}) for i in range(5)]
            assert [a["status"] for a in answers[:4]] == [422] * 4, "not seat 1's turn, but counted"
            assert answers[4]["status"] == 429 and answers[4]["body"]["error"]["code"] == "rate_limited"
            wait = answers[4]["body"]["error"]["details"]["retry_after"]
            assert (
                wait >= 1
                and answers[4]["body"]["error"]["message"] == f"too many actions from this seat; try again in {wait} s"
            )
            other = connect(base, game["id"], game["seats"][0]["token"])  # the same address, another seat
            try:
                other.receive(timeout=10)
                mine = ask(other, {"type": "note", "payload": {"text": "b"}, "action_id": "m0"})
                assert mine["status"] != 429, mine
            finally:
                other.close()
        finally:
            ws.close()


@pytest.mark.parametrize(
    "headers",
    [
        {},  # a plain GET
        {"Upgrade": "websocket", "Connection": "Upgrade"},  # no key, no version
        {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13"},
        {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "abc", "Sec-WebSocket-Version": "99"},
    ],
)
def test_a_request_that_is_not_a_valid_handshake_is_a_400(base, headers):
    game = new_game(base)
    r = requests.get(f"{base}/games/{game['id']}/socket", headers=headers, timeout=10)
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "bad_handshake"
    zh = requests.get(f"{base}/games/{game['id']}/socket", headers={**headers, "Accept-Language": "zh-TW"}, timeout=10)
    assert zh.json()["error"]["message"] != r.json()["error"]["message"]
