"""A push frame does not grow with the game: each carries the new entries and what
changed in the meta and the viewer's position since the page's last frame (patches),
so the frame of entry 200 is the size of the frame of entry 5, for a spectator on the
SSE stream and for a seat and the referee on their sockets. The patches applied to what
the page read on load give what a read gives at the end (the whole list of moves)."""

from __future__ import annotations

import contextlib
import json
import threading

import pytest
import requests
from simple_websocket import ConnectionClosed

from service.http import json_patch
from tests.platform.gunicorn_server import gunicorn, note
from tests.platform.socket_client import Client
from tests.sse import messages

pytestmark = pytest.mark.xdist_group("durability")

ENTRIES = 200
GROWTH = 48  # bytes a frame may gain from longer numbers (seq 5 -> 200, counts 3 -> 198)


@pytest.fixture(scope="module")
def base(redis_url):
    with gunicorn("bench.toy_app:app", REDIS_URL=redis_url, WEB_CONCURRENCY=1, ACCESS_LOG="", RATE_LIMITS="off") as (
        url,
        _,
    ):
        yield url


class Page:
    """What a page holds: the meta and position it was given, patched by each frame."""

    def __init__(self, meta: dict, position: dict) -> None:
        self.meta, self.position = meta, position
        self.sizes: dict[int, int] = {}  # the seq of a frame's last entry -> the frame's bytes

    def take(self, frame: dict, seq: int, size: int) -> None:
        self.sizes[seq] = size
        if "meta" in frame:
            self.meta = frame["meta"]
        if "position" in frame:
            self.position = frame["position"]
        for key, held in (("meta_patch", "meta"), ("position_patch", "position")):
            if key in frame:
                patch = frame[key]
                assert patch["from"] == (self.meta["seq"] if held == "meta" else self.position["at"]), patch
                setattr(self, held, json_patch.apply(getattr(self, held), patch["ops"]))


class Socket(threading.Thread):
    def __init__(self, base: str, gid: str, token: str) -> None:
        super().__init__(daemon=True)
        self.ws = Client.connect(f"{base.replace('http', 'ws', 1)}/games/{gid}/socket")
        self.ws.send(json.dumps({"token": token, "follow": 0}))
        hello = json.loads(self.ws.receive(timeout=10))["body"]
        self.page = Page(hello["meta"], hello["position"])
        self.seq = max(e["seq"] for e in hello["entries"])
        self.changed = threading.Condition()

    def run(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while (text := self.ws.receive(timeout=30)) is not None:
                push = json.loads(text)["push"]
                with self.changed:
                    self.seq = push["entries"][-1]["seq"]
                    self.page.take(push, self.seq, len(text))
                    self.changed.notify_all()


class Stream(threading.Thread):
    def __init__(self, base: str, gid: str) -> None:
        super().__init__(daemon=True)
        self.response = requests.get(f"{base}/games/{gid}/stream?after=1", stream=True, timeout=30)
        meta = requests.get(f"{base}/games/{gid}", timeout=10).json()
        del meta["now"]  # the server's time as it answered: the meta has none
        self.page = Page(meta, {})
        self.page.position = {**requests.get(f"{base}/games/{gid}/view", timeout=10).json(), "actions": []}
        self.seq = 1
        self.changed = threading.Condition()

    def run(self) -> None:
        with contextlib.suppress(requests.RequestException, AttributeError):  # closed at the end
            self.read()

    def read(self) -> None:
        for event, text in messages(self.response.iter_lines()):
            if event == "appended":
                data = json.loads(text)
                with self.changed:
                    self.seq = data["seq"]
                    self.page.take(data, data["seq"], len(text))
                    self.changed.notify_all()


def wait_for(follower: Socket | Stream, seq: int) -> None:
    with follower.changed:
        assert follower.changed.wait_for(lambda: follower.seq >= seq, timeout=30), (follower, seq)


def test_a_frame_does_not_grow_with_the_game(base):
    game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    mover = {"Authorization": f"Bearer {tokens[0]}"}
    # seat 0's notes: its own view lists every note (a list that grows), the others count them
    seat, other, referee = (
        Socket(base, gid, tokens[0]),
        Socket(base, gid, tokens[1]),
        Socket(base, gid, game["referee_token"]),
    )
    stream = Stream(base, gid)
    followers = [seat, other, referee, stream]
    for follower in followers:
        follower.start()
    try:
        for seq in range(2, ENTRIES + 1):
            assert note(base, gid, mover) == seq
            for follower in followers:  # one entry per frame: each frame is the entry's own
                wait_for(follower, seq)
        for name, follower in zip(("seat", "other seat", "referee", "spectator"), followers):
            sizes = follower.page.sizes
            assert sorted(sizes) == list(range(2, ENTRIES + 1)), name
            assert sizes[ENTRIES] <= sizes[5] + GROWTH, (name, sizes[5], sizes[ENTRIES])
        meta = requests.get(f"{base}/games/{gid}", timeout=10).json()
        del meta["now"]
        assert len(meta["moves"]) == ENTRIES - 1
        for follower, token in zip(followers, [*tokens, game["referee_token"], None]):
            assert follower.page.meta == meta, "the patched meta is the meta read, every move in it"
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            view = requests.get(f"{base}/games/{gid}/view", headers=headers, timeout=10).json()
            assert {k: follower.page.position[k] for k in view} == view, "the patched view is the view read"
        assert len(seat.page.position["view"]["notes"][0]) == ENTRIES - 1
    finally:
        stream.response.close()
        for follower in (seat, other, referee):
            follower.ws.close()
