"""Accounts and seats through the API, for the account and rating tests."""

from __future__ import annotations

import random
import uuid

PASSWORD = "correct horse battery"


def auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def unique(prefix: str) -> str:
    """A name no other test of the session takes (they share one Redis)."""
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def new_account(client, prefix: str = "player") -> tuple[str, str]:
    """(name, session token) of a new account."""
    answer = client.post("/api/accounts", json={"name": unique(prefix), "password": PASSWORD})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["name"], answer.get_json()["token"]


def bound_game(
    client,
    sessions: list[str],
    game: str = "toy",
    options: dict | None = None,
    ranked: bool = True,
    clock: dict | None = None,
) -> dict:
    """A game whose seat n is claimed by ``sessions[n]`` (seat 0 at creation), with each
    claimed seat's new token in place of the one claimed with."""
    body = {
        "game": game,
        "seats": [f"s{i}" for i in range(len(sessions))],
        "options": options or {},
        "ranked": ranked,
        "account_seat": 0,
    }
    if clock:
        body["clock"] = clock
    created = client.post("/api/games", json=body, headers=auth(sessions[0]))
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    for seat, session in enumerate(sessions[1:], start=1):
        claim = client.post(
            f"/api/games/{created['id']}/claim",
            json={"seat_token": created["seats"][seat]["token"]},
            headers=auth(session),
        )
        assert claim.status_code == 201, claim.get_json()
        created["seats"][seat]["token"] = claim.get_json()["seat_token"]  # the copy from before is revoked
    return created


def play_out(client, created: dict, rand: random.Random, limit: int = 5000) -> dict:
    """Random legal actions through the API until the game ends; its meta."""
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    for _ in range(limit):
        meta = client.get(f"/api/games/{gid}").get_json()
        if meta["status"] == "finished":
            return meta
        seat = meta["to_act"][0]
        actions = client.get(f"/api/games/{gid}/actions", headers=auth(tokens[seat])).get_json()["actions"]
        action = rand.choice(actions)
        answer = client.post(
            f"/api/games/{gid}/actions",
            json={"type": action["type"], "payload": action["payload"]},
            headers=auth(tokens[seat]),
        )
        assert answer.status_code == 201, answer.get_json()
    raise AssertionError("the game did not end")


def roll_out(client, created: dict) -> dict:
    """A one-round toy game: every seat rolls once; its meta (finished)."""
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    for token in tokens:
        answer = client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(token))
        assert answer.status_code == 201, answer.get_json()
    meta = client.get(f"/api/games/{gid}").get_json()
    assert meta["status"] == "finished"
    return meta
