"""Table chat beside the log: who reads and who writes, the rate limit, mutes, the
referee's hidden messages (kept, marked) and the chat in the export's audit section."""

from __future__ import annotations

import json

from service.services.games import CreateGame
from tests.accounts.helpers import auth, new_account, roll_out


def game(client, rounds: int = 1) -> dict:
    created = client.post("/api/games", json={"game": "toy", "seats": ["ann", "bob"], "options": {"rounds": rounds}})
    assert created.status_code == 201
    return created.get_json()


def tokens(created: dict) -> tuple[str, str, str]:
    return created["seats"][0]["token"], created["seats"][1]["token"], created["referee_token"]


def say(client, gid: str, token: str | None, text: str):
    return client.post(f"/api/games/{gid}/chat", json={"text": text}, headers=auth(token))


def read(client, gid: str, token: str | None):
    return client.get(f"/api/games/{gid}/chat", headers=auth(token))


def test_seats_and_the_referee_read_and_write_spectators_only_when_opened(client):
    created = game(client)
    gid, (ann, bob, referee) = created["id"], tokens(created)
    assert say(client, gid, ann, "good luck").status_code == 201
    assert say(client, gid, referee, "play fair").status_code == 201
    for token in (ann, bob, referee):
        messages = read(client, gid, token).get_json()["messages"]
        assert [m["text"] for m in messages] == ["good luck", "play fair"]
    assert messages[0]["seat"] == 0 and messages[0]["name"] == "ann" and messages[1]["role"] == "referee"
    assert read(client, gid, None).status_code == 403
    assert say(client, gid, None, "hi").status_code == 401  # every write names its writer
    assert client.post(f"/api/games/{gid}/chat/settings", json={"spectators": True}).status_code == 401
    _, watcher = new_account(client, "watcher")
    assert say(client, gid, watcher, "hi").status_code == 403
    assert read(client, gid, "nonsense").status_code == 401

    assert (
        client.post(f"/api/games/{gid}/chat/settings", json={"spectators": True}, headers=auth(ann)).status_code == 403
    )
    opened = client.post(f"/api/games/{gid}/chat/settings", json={"spectators": True}, headers=auth(referee))
    assert opened.get_json() == {"seats": True, "spectators": True}
    assert read(client, gid, None).status_code == 200
    anonymous = say(client, gid, None, "hi")
    assert anonymous.status_code == 401 and anonymous.get_json()["error"]["code"] == "no_session"
    named = say(client, gid, watcher, "nice move")
    assert named.status_code == 201 and named.get_json()["role"] == "spectator" and named.get_json()["name"]


def test_a_tournament_games_chat_is_closed_until_its_director_opens_it(client, services):
    created = services.games.create(CreateGame("toy", ["ann", "bob"], tournament="t-chat"))
    gid, (ann, _, referee) = created["id"], tokens(created)
    closed = say(client, gid, ann, "hello")
    assert closed.status_code == 403 and closed.get_json()["error"]["code"] == "chat_closed"
    assert read(client, gid, ann).status_code == 403
    client.post(f"/api/games/{gid}/chat/settings", json={"seats": True}, headers=auth(referee))
    assert say(client, gid, ann, "hello").status_code == 201


def test_writers_are_rate_limited_and_bad_messages_refused(client):
    created = game(client)
    gid, (ann, bob, _) = created["id"], tokens(created)
    for i in range(5):
        assert say(client, gid, ann, f"m{i}").status_code == 201
    limited = say(client, gid, ann, "one too many")
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert say(client, gid, bob, "my own limit").status_code == 201  # per writer
    for body in ({"text": ""}, {"text": "x" * 501}, {}, {"text": 5}):
        r = client.post(f"/api/games/{gid}/chat", json=body, headers=auth(bob))
        assert r.status_code == 400, body
    blank = say(client, gid, bob, "   ")
    assert blank.status_code == 400 and blank.get_json()["error"]["code"] == "bad_text"
    assert client.get(f"/api/games/{gid}/chat?after=nonsense", headers=auth(bob)).status_code == 400
    assert len(read(client, gid, bob).get_json()["messages"]) == 6  # nothing refused was written
    assert read(client, "nosuchgame", None).status_code == 404


def test_a_seat_mutes_another_for_itself_only(client):
    created = game(client)
    gid, (ann, bob, referee) = created["id"], tokens(created)
    say(client, gid, ann, "annoying")
    muted = client.post(f"/api/games/{gid}/chat/mute", json={"seat": 0}, headers=auth(bob))
    assert muted.get_json() == {"muted": [0]}
    assert read(client, gid, bob).get_json()["messages"] == []
    assert [m["text"] for m in read(client, gid, ann).get_json()["messages"]] == ["annoying"]
    assert len(read(client, gid, referee).get_json()["messages"]) == 1
    assert client.post(f"/api/games/{gid}/chat/mute", json={"seat": 7}, headers=auth(bob)).status_code == 400
    client.post(f"/api/games/{gid}/chat/mute", json={"seat": 0, "muted": False}, headers=auth(bob))
    assert len(read(client, gid, bob).get_json()["messages"]) == 1


def test_the_referee_hides_a_message_which_stays_marked_and_in_the_export(client):
    created = game(client)
    gid, (ann, bob, referee) = created["id"], tokens(created)
    rude = say(client, gid, bob, "something rude").get_json()
    say(client, gid, ann, "let us play")
    assert (
        client.post(f"/api/games/{gid}/chat/{rude['id']}/hide", json={"reason": "rude"}, headers=auth(ann)).status_code
        == 403
    )
    for bad in ("nonsense", "99999999-0"):
        r = client.post(f"/api/games/{gid}/chat/{bad}/hide", json={"reason": "x"}, headers=auth(referee))
        assert r.status_code == 404, bad
    hidden = client.post(f"/api/games/{gid}/chat/{rude['id']}/hide", json={"reason": "rude"}, headers=auth(referee))
    assert hidden.status_code == 200 and hidden.get_json()["hidden"]["reason"] == "rude"
    seen = read(client, gid, ann).get_json()["messages"]
    assert "text" not in seen[0] and seen[0]["hidden"]["by"] == "referee" and seen[0]["seat"] == 1
    assert read(client, gid, referee).get_json()["messages"][0]["text"] == "something rude"

    roll_out(client, created)
    exported = client.get(f"/api/games/{gid}/export", headers=auth(ann)).data.decode()
    lines = [json.loads(line) for line in exported.splitlines()]
    chat = lines[-2]["audit"]["chat"]
    assert [m.get("text") for m in chat] == [None, "let us play"] and chat[0]["hidden"]["reason"] == "rude"
    assert "audit" not in client.get(f"/api/games/{gid}/export").data.decode()  # spectators may not read it
    verified = client.post("/api/verify", data=exported, headers={"Content-Type": "application/x-ndjson"})
    assert verified.get_json()["ok"], verified.get_json()


def test_a_game_nobody_chatted_in_exports_as_before(client):
    created = game(client)
    roll_out(client, created)
    lines = client.get(f"/api/games/{created['id']}/export", headers=auth(created["seats"][0]["token"])).data
    assert b'"audit"' not in lines
