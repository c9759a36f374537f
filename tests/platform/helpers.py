"""Small helpers for API tests: create a game, headers, play a seat's first legal action."""

from __future__ import annotations


def auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


class GameHandle:
    def __init__(self, client, game="toy", seats=("ann", "bob"), options=None, clock=None):
        body = {"game": game, "seats": list(seats), "options": options or {}}
        if clock:
            body["clock"] = clock
        r = client.post("/api/games", json=body)
        assert r.status_code == 201, r.json
        self.client = client
        self.id = r.json["id"]
        self.tokens = [s["token"] for s in r.json["seats"]]
        self.referee = r.json["referee_token"]
        self.created = r.json

    def url(self, tail=""):
        return f"/api/games/{self.id}{tail}"

    def meta(self):
        return self.client.get(self.url()).json

    def seat(self, n):
        return auth(self.tokens[n])

    def ref(self):
        return auth(self.referee)

    def act(self, seat, type_, payload=None, **extra):
        body = {"type": type_, "payload": payload or {}, **extra}
        return self.client.post(self.url("/actions"), json=body, headers=self.seat(seat))

    def legal(self, seat):
        return self.client.get(self.url("/actions"), headers=self.seat(seat)).json["actions"]

    def play_first(self):
        """The seat to act plays its first legal action; returns the response."""
        seat = self.meta()["to_act"][0]
        action = self.legal(seat)[0]
        return self.act(seat, action["type"], action["payload"])

    def events(self, token=None, after=0):
        return self.client.get(self.url(f"/events?after={after}"), headers=auth(token)).json["events"]

    def export(self, token=None):
        return self.client.get(self.url("/export"), headers=auth(token)).get_data(as_text=True)
