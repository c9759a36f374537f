"""Driving the live server over HTTP: creating games and playing the bots' seats."""

from __future__ import annotations

import random
import time

import requests

from projections.games import GAME_PACKAGES

GAMES = list(GAME_PACKAGES)


class Server:
    def __init__(self, url: str):
        self.url = url
        self.http = requests.Session()

    def api(self, method: str, path: str, token: str | None = None, **kw):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.http.request(method, f"{self.url}/api{path}", headers=headers, timeout=30, **kw)
        return r

    def ok(self, method: str, path: str, token: str | None = None, **kw):
        r = self.api(method, path, token, **kw)
        assert r.status_code < 300, (method, path, r.status_code, r.text)
        return r.json()

    def create(self, game: str, seats: int | list[str], **extra) -> dict:
        names = seats if isinstance(seats, list) else [f"Player {i + 1}" for i in range(seats)]
        return self.ok("POST", "/games", json={"game": game, "seats": names, **extra})

    def meta(self, game_id: str) -> dict:
        return self.ok("GET", f"/games/{game_id}")

    def actions(self, game_id: str, token: str) -> list[dict]:
        return self.ok("GET", f"/games/{game_id}/actions", token)["actions"]

    def bot_move(self, game_id: str, tokens: list[str], seats: list[int], rand: random.Random, refused: list) -> bool:
        """One random legal move by one of ``seats`` (those of them the game waits for).

        Returns False when none of them has anything to do. A listed action the server
        refuses is recorded in ``refused`` and another is tried.
        """
        meta = self.meta(game_id)
        if meta["status"] != "active":
            return False
        order = [s for s in meta["to_act"] if s in seats]
        rand.shuffle(order)
        for seat in order:
            actions = self.actions(game_id, tokens[seat])
            rand.shuffle(actions)
            for action in actions[:5]:
                r = self.api(
                    "POST", f"/games/{game_id}/actions", tokens[seat], json={**action, "expected_seq": meta["seq"]}
                )
                if r.status_code == 201:
                    return True
                if r.status_code == 409:  # someone moved meanwhile: look again
                    return True
                refused.append((seat, action, r.status_code, r.text[:300]))
        return False


def wait_for(predicate, timeout: float = 10.0, step: float = 0.05, what: str = "condition", page=None):
    """Polls ``predicate``. Pass the ``page`` when it reads what Playwright's events
    record: the sync API delivers them only while it runs, so the wait then sleeps in
    the page rather than in Python."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        if page is None:
            time.sleep(step)
        else:
            page.wait_for_timeout(step * 1000)
    raise AssertionError(f"timed out waiting for {what}")


def hold_session(page, name: str, token: str) -> None:
    """The page (on the server's origin) holds ``name``'s session, as after logging in."""
    page.evaluate(
        "([n, t]) => localStorage.setItem('boardroom:session', JSON.stringify({name: n, token: t}))", [name, token]
    )
