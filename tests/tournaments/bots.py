"""Bot players for tournament API tests: they play through the public HTTP API only,
posting random legal actions from GET /actions until their games end."""

from __future__ import annotations

import random
import uuid


def bearer(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def play_game(client, game_id: str, tokens: dict[int, str], rand: random.Random, max_posts: int = 20000) -> dict:
    """Play ``game_id`` to its end with the seat tokens given; returns the final meta."""
    for _ in range(max_posts):
        meta = client.get(f"/api/games/{game_id}").get_json()
        if meta["status"] == "finished":
            return meta
        seats = list(meta["to_act"]) or list(tokens)
        rand.shuffle(seats)
        for seat in seats:
            offer = client.get(f"/api/games/{game_id}/actions", headers=bearer(tokens[seat])).get_json()
            if offer["actions"]:
                action = rand.choice(offer["actions"])
                answer = client.post(
                    f"/api/games/{game_id}/actions",
                    headers=bearer(tokens[seat]),
                    json={**action, "action_id": str(uuid.uuid4()), "expected_seq": offer["seq"]},
                )
                assert answer.status_code in (200, 201, 409), answer.get_json()
                break
        else:
            raise AssertionError(f"nobody can act in {game_id}: {meta}")
    raise AssertionError(f"game {game_id} did not finish")


def play_round(client, tid: str, pairing: dict, rand: random.Random) -> None:
    for table in pairing["tables"]:
        tokens = {s["seat"]: s["token"] for s in table["seats"]}
        play_game(client, table["game_id"], tokens, rand)


def played_cup(client, seed: int) -> tuple[str, dict]:
    """A one-round toy cup for Ann and Bob, played out by random bots: (id, pairing)."""
    created = client.post(
        "/api/tournaments", json={"game": "toy", "name": "Cup", "options": {"table_size": 2, "rounds": 1}}
    ).get_json()
    tid, director = created["id"], created["director_token"]
    for name in ("Ann", "Bob"):
        client.post(f"/api/tournaments/{tid}/players", json={"name": name})
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    play_round(client, tid, pairing, random.Random(seed))
    return tid, pairing
