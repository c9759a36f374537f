"""What a page draws arrives with the move's answer and with the live push, so no page
reads anything per entry: the answer carries the mover's position and legal actions,
the spectators' stream the meta and the spectator's position, and a following socket
(seat or referee) the viewer's own position, computed once per (viewer, seq) per worker."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
import requests
from simple_websocket import ConnectionClosed

from service.http import json_patch
from tests.platform.gunicorn_server import gunicorn
from tests.platform.helpers import GameHandle
from tests.platform.socket_client import Client
from tests.sse import entries

pytestmark = pytest.mark.xdist_group("durability")


def test_a_moves_answer_carries_the_movers_position_and_actions(client):
    g = GameHandle(client)
    r = g.act(0, "roll")
    assert r.status_code == 201, r.json
    answer = r.json
    view = client.get(g.url("/view"), headers=g.seat(0)).json
    assert {k: answer[k] for k in view} == {**view, "seq": answer["seq"]}, "the answer is the GET /view document"
    assert answer["actions"] == g.legal(0)
    assert answer["at"] == answer["seq"] == g.meta()["seq"]


def test_a_retried_move_answers_the_position_as_it_is_now(client):
    g = GameHandle(client)
    assert g.act(0, "roll", action_id="once").status_code == 201
    assert g.act(1, "roll").status_code == 201
    again = g.act(0, "roll", action_id="once")
    assert again.status_code == 200
    assert again.json["seq"] == 2 and again.json["at"] == 3, "the first seq, the position now"
    assert again.json["actions"] == g.legal(0)


def sse_frames(body: str) -> list[dict]:
    return [json.loads(m) for m in re.findall(r"^data: (.*)$", body, flags=re.M)]


def test_the_stream_carries_the_spectators_position_and_the_meta(app):
    client = app.test_client()
    g = GameHandle(client)
    g.act(0, "note", {"text": "b"})
    g.act(0, "roll")
    app.config["SSE_SECONDS"] = 0.5
    frames = sse_frames(client.get(g.url("/stream?after=1")).get_data(as_text=True))
    assert [f["seq"] for f in frames] == [2, 3]
    assert "position" not in frames[0], "the state after a batch rides on its last entry"
    last = frames[-1]
    assert last["meta"] == {k: v for k, v in g.meta().items() if k != "now"}  # GET adds its answer's time
    spectator = client.get(g.url("/view")).json
    assert {k: v for k, v in last["position"].items() if k != "actions"} == spectator
    assert last["position"]["actions"] == []
    assert frames[0]["payload"] == {"text": "?"}, "entries stay redacted for spectators"


@pytest.fixture(scope="module")
def base(redis_url):
    with gunicorn(
        "bench.toy_app:app",
        REDIS_URL=redis_url,
        WEB_CONCURRENCY=1,
        ACCESS_LOG="",
        RATE_LIMITS="off",
        SOCKET_IDLE_SECONDS=20,
    ) as (url, _):
        yield url


def follow(base: str, game_id: str, token: str, after: int = 0) -> tuple[Client, dict]:
    ws = Client.connect(f"{base.replace('http', 'ws', 1)}/games/{game_id}/socket")
    ws.send(json.dumps({"token": token, "follow": after}))
    hello = json.loads(ws.receive(timeout=10))
    assert hello["status"] == 200, hello
    return ws, hello["body"]


def pushed(ws: Client) -> dict:
    frame = json.loads(ws.receive(timeout=10))
    assert "push" in frame, frame
    return frame["push"]


def held(hello: dict, push: dict, part: str) -> dict:
    """The meta or position a page holds after ``push``: whole, or its patch applied to the
    hello's (whichever is shorter; a patch names the seq it applies to)."""
    if part in push:
        return push[part]
    patch = push[f"{part}_patch"]
    assert patch["from"] == (hello["meta"]["seq"] if part == "meta" else hello["position"]["at"]), patch
    return json_patch.apply(hello[part], patch["ops"])


def computed(base: str) -> float:
    text = requests.get(base.removesuffix("/api") + "/metrics", timeout=10).text
    return sum(float(v) for v in re.findall(r"^boardgames_live_positions_total(?:\{[^}]*\})? (\S+)$", text, flags=re.M))


def test_a_following_seat_is_pushed_its_own_position_once_per_seq(base):
    game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
    first, hello = follow(base, gid, tokens[1])
    second, again = follow(base, gid, tokens[1])
    try:
        mine = requests.get(f"{base}/games/{gid}/view", headers=headers[1], timeout=10).json()
        assert {k: hello["position"][k] for k in mine} == mine, "the hello carries the whole position"
        assert [e["seq"] for e in hello["entries"]] == [1] and hello["meta"]["seq"] == 1
        before = computed(base)
        r = requests.post(f"{base}/games/{gid}/actions", json={"type": "roll"}, headers=headers[0], timeout=10)
        assert r.status_code == 201
        one, two = pushed(first), pushed(second)
        assert one == two
        assert [e["seq"] for e in one["entries"]] == [2]
        assert held(hello, one, "meta")["seq"] == 2
        position = held(hello, one, "position")
        actions = requests.get(f"{base}/games/{gid}/actions", headers=headers[1], timeout=10).json()["actions"]
        assert position["actions"] == actions and actions, "seat 1 is to move: its moves are pushed"
        assert computed(base) - before == 2, "the spectator's and seat 1's, once each for two sockets"
    finally:
        first.close()
        second.close()


def test_the_movers_push_reuses_its_answer_and_a_referee_may_follow(base):
    game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
    gid, token = game["id"], game["seats"][0]["token"]
    ws, _ = follow(base, gid, token)
    referee, hello = follow(base, gid, game["referee_token"])
    try:
        assert hello["viewer"] == {"role": "referee"}
        before = computed(base)
        ws.send(json.dumps({"type": "roll", "action_id": "a"}))
        frames = [json.loads(ws.receive(timeout=10)), json.loads(ws.receive(timeout=10))]
        answer = next(f for f in frames if "status" in f)
        push = next(f["push"] for f in frames if "push" in f)
        assert answer["status"] == 201 and answer["body"]["at"] == 2
        if frames[0] is answer:  # the page holds the position at 2 already: the push does not repeat it
            assert "position" not in push and "position_patch" not in push, push
        assert held(hello, pushed(referee), "position")["viewer"] == {"role": "referee"}
        assert computed(base) - before == 2, "the spectator's and the referee's; the mover's came with its answer"
        referee.send(json.dumps({"type": "roll", "action_id": "r"}))
        refused = json.loads(referee.receive(timeout=10))
        assert (refused["status"], refused["body"]["error"]["code"]) == (403, "not_a_seat")
    finally:
        ws.close()
        referee.close()


def test_a_bad_follow_is_refused_clearly(base):
    game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
    ws = Client.connect(f"{base.replace('http', 'ws', 1)}/games/{game['id']}/socket")
    ws.send(json.dumps({"token": game["seats"][0]["token"], "follow": "x"}))
    got = json.loads(ws.receive(timeout=10))
    assert (got["status"], got["body"]["error"]["code"]) == (400, "bad_follow")


def test_a_reconnecting_socket_gets_the_entries_it_missed(base):
    game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    for seat in (0, 1):
        r = requests.post(
            f"{base}/games/{gid}/actions",
            json={"type": "roll"},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
            timeout=10,
        )
        assert r.status_code == 201
    ws, hello = follow(base, gid, tokens[0], after=1)
    ws.close()
    assert [e["seq"] for e in hello["entries"]] == [2, 3] and hello["position"]["at"] == 3


def test_a_claim_ends_the_pushes_to_the_token_from_before_it(base):
    """Claiming a seat revokes the token it was claimed with: a page following with a
    copy of it is told so (401 ``token_revoked``) and its socket closes; the seat's view
    is never pushed to it again."""
    game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    ws, _ = follow(base, gid, tokens[0])
    try:
        name = f"claimer{gid[:8]}"
        assert requests.post(base + "/accounts", json={"name": name, "password": "long enough"}, timeout=30).ok
        session = requests.post(base + "/sessions", json={"name": name, "password": "long enough"}, timeout=30)
        r = requests.post(
            f"{base}/games/{gid}/claim",
            json={"seat_token": tokens[0]},
            headers={"Authorization": f"Bearer {session.json()['token']}"},
            timeout=10,
        )
        assert r.status_code == 201, r.text
        frames = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                frames.append(json.loads(ws.receive(timeout=10)))
        assert closed.value.reason == 1008
        assert all("push" not in f for f in frames), "the seat's view is not pushed to a revoked token"
        assert [(f["status"], f["body"]["error"]["code"]) for f in frames] in ([], [(401, "token_revoked")])
    finally:
        with contextlib.suppress(ConnectionClosed):
            ws.close()


def test_the_spectators_position_is_computed_once_however_many_watch(base):
    game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
    gid, token = game["id"], game["seats"][0]["token"]
    streams = [requests.get(f"{base}/games/{gid}/stream", stream=True, timeout=30) for _ in range(3)]
    try:
        lines = [s.iter_lines() for s in streams]
        for each in lines:
            assert next(each).startswith(b"retry:")
        before = computed(base)
        r = requests.post(
            f"{base}/games/{gid}/actions",
            json={"type": "roll"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert r.status_code == 201
        for each in lines:
            assert next(entries(each))["position"]["at"] == 2
        assert computed(base) - before == 1, "three spectators, one position"
    finally:
        for s in streams:
            s.close()
