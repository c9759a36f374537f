"""A live stream tells spectators when the chat changed, as a mark (``Chat.mark``), so
their pages read the chat only then instead of every 4 s. The mark says only what a
spectator may know: seats talking at a chat closed to spectators changes nothing sent."""

from __future__ import annotations

import json
import threading
import time

import pytest
import requests

from tests.platform.gunicorn_server import gunicorn
from tests.sse import messages

pytestmark = pytest.mark.xdist_group("durability")


class Marks(threading.Thread):
    """A spectator's stream: every chat mark it is sent."""

    def __init__(self, base: str, gid: str) -> None:
        super().__init__(daemon=True)
        self.response = requests.get(f"{base}/games/{gid}/stream", stream=True, timeout=30)
        self.marks: list[str] = []
        self.changed = threading.Condition()

    def run(self) -> None:
        try:
            for event, data in messages(self.response.iter_lines()):
                if event == "chat":
                    with self.changed:
                        self.marks.append(json.loads(data)["mark"])
                        self.changed.notify_all()
        except (requests.RequestException, AttributeError):  # closed at the end
            pass

    def wait(self, count: int, timeout: float = 8) -> list[str]:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.marks) >= count, timeout=timeout), self.marks
            return list(self.marks)


def test_spectators_are_told_of_chat_changes_they_may_see_and_of_no_other(redis_url):
    with gunicorn("bench.toy_app:app", REDIS_URL=redis_url, WEB_CONCURRENCY=1) as (base, _):
        game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
        gid = game["id"]
        seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        referee = {"Authorization": f"Bearer {game['referee_token']}"}
        stream = Marks(base, gid)
        stream.start()
        try:
            assert stream.wait(1) == ["closed"]  # the chat is closed to spectators at first
            r = requests.post(f"{base}/games/{gid}/chat", json={"text": "between us"}, headers=seat, timeout=10)
            assert r.status_code == 201, r.text
            time.sleep(4.5)  # two of the tail's looks at the chat
            assert stream.marks == ["closed"]  # the seats' talk is not even a signal
            assert requests.get(f"{base}/games/{gid}/chat", timeout=10).status_code == 403

            r = requests.post(
                f"{base}/games/{gid}/chat/settings", json={"spectators": True}, headers=referee, timeout=10
            )
            assert r.status_code == 200, r.text
            opened = stream.wait(2)[-1]
            assert opened.startswith("open:")
            said = requests.post(f"{base}/games/{gid}/chat", json={"text": "hello all"}, headers=seat, timeout=10)
            newer = stream.wait(3)[-1]
            assert newer.startswith("open:") and newer != opened
            read = requests.get(f"{base}/games/{gid}/chat", timeout=10).json()
            assert read["mark"] == newer and read["messages"][-1]["id"] == said.json()["id"]

            hidden = requests.post(
                f"{base}/games/{gid}/chat/{said.json()['id']}/hide",
                json={"reason": "spam"},
                headers=referee,
                timeout=10,
            )
            assert hidden.status_code == 200, hidden.text
            assert stream.wait(4)[-1] not in (opened, newer)
            assert "text" not in requests.get(f"{base}/games/{gid}/chat", timeout=10).json()["messages"][-1]
        finally:
            stream.response.close()
