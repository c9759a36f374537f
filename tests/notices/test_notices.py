"""Notices: a real SMTP server (aiosmtpd, in-process) and a Web Push endpoint that checks
the VAPID signature receive what the sender process sends; time is the sender's ``now``."""

from __future__ import annotations

import time
import uuid

import pytest

from service.adapters.delivery import SmtpMailer, WebPusher
from service.vapid import application_server_key, load_vapid
from tests.notices.inbox import serving
from tests.notices.push_endpoint import PushEndpoint

LATER = 61  # past the digest window


@pytest.fixture()
def inbox():
    with serving() as box:
        yield box


@pytest.fixture()
def vapid(app):
    return load_vapid(app.config["DATA_DIR"])


@pytest.fixture()
def push(vapid):
    endpoint = PushEndpoint(application_server_key(vapid))
    yield endpoint
    endpoint.close()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def account(client, email_address=None):
    name = "n" + uuid.uuid4().hex[:10]
    token = client.post("/api/accounts", json={"name": name, "password": "a good long password"}).json["token"]
    if email_address:
        r = client.put("/api/me/notices", json={"email": email_address}, headers=bearer(token))
        assert r.status_code == 200, r.json
    return name, token


def two_player_game(client, ann, bob, options=None):
    r = client.post(
        "/api/games",
        json={"game": "toy", "seats": ["ann", "bob"], "options": options or {}, "account_seat": 0},
        headers=bearer(ann),
    )
    assert r.status_code == 201, r.json
    game = r.json
    claimed = client.post(
        f"/api/games/{game['id']}/claim", json={"seat_token": game["seats"][1]["token"]}, headers=bearer(bob)
    )
    assert claimed.status_code in (200, 201), claimed.json
    game["players"] = [ann, bob]  # a bound seat acts with its account's session
    return game


def act(client, game, seat, type_, payload=None):
    r = client.post(
        f"/api/games/{game['id']}/actions",
        json={"type": type_, "payload": payload or {}},
        headers=bearer(game["players"][seat]),
    )
    assert r.status_code == 201, r.json


def sender(services, inbox_port, vapid):
    return services.notice_sender(
        SmtpMailer("127.0.0.1", inbox_port, "notices@example.test"),
        WebPusher(vapid, "mailto:ops@example.test"),
        "http://games.test",
    )


def to(inbox, address):
    return inbox.to(address)


def test_moves_and_the_end_reach_each_player_as_one_digest_by_mail_and_push(client, services, inbox, push, vapid):
    ann_name, ann = account(client, "ann@example.test")
    bob_name, bob = account(client, "bob@example.test")
    # the API takes https endpoints only; this loopback endpoint is filed as the route files one
    assert client.post("/api/me/notices/push", json=push.subscription(), headers=bearer(bob)).status_code == 400
    services.notice_settings.subscribe(bob_name, push.subscription())
    game = two_player_game(client, ann, bob, {"rounds": 1})
    act(client, game, 0, "roll")
    act(client, game, 1, "roll")
    assert client.get(f"/api/games/{game['id']}").json["status"] == "finished"
    sender(services, inbox.port, vapid).send_due(now=time.time() - 1)
    assert not to(inbox, "bob@example.test")  # nothing before the digest window closes
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    [mail] = to(inbox, "bob@example.test")
    body = mail.get_content()
    # his move came and went within the window: the digest says only what still holds
    assert "has ended" in body and game["id"] in body and "your move" not in body
    assert "roll" not in body  # what was played is never told
    assert mail["List-Unsubscribe"].strip().startswith("<http://games.test/api/notices/unsubscribe/")
    assert len(to(inbox, "ann@example.test")) == 1
    [pushed] = push.received  # signed with the server's VAPID key, decrypted with bob's keys
    assert "ended" in pushed["body"] and pushed["url"].endswith(game["id"]) and push.refused == 0


def test_a_failed_send_is_retried_and_counted_in_metrics(client, services, inbox, vapid):
    _, ann = account(client, "retry-ann@example.test")
    _, bob = account(client, "retry-bob@example.test")
    two_player_game(client, ann, bob)
    dead = services.notice_sender(SmtpMailer("127.0.0.1", 9, "notices@example.test"), None, "http://games.test")
    before = services.notices.stats().get("retried", 0)
    dead.send_due(now=time.time() + LATER)
    assert services.notices.stats()["retried"] > before
    assert not to(inbox, "retry-ann@example.test")
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER + 3600)
    assert to(inbox, "retry-ann@example.test")
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'boardgames_notices{outcome="retried"}' in metrics and 'boardgames_notices{outcome="sent"}' in metrics


def test_the_unsubscribe_link_stops_e_mail(client, services, inbox, vapid):
    _, ann = account(client, "unsub-ann@example.test")
    _, bob = account(client, "unsub-bob@example.test")
    game = two_player_game(client, ann, bob, {"rounds": 5})
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    [mail] = to(inbox, "unsub-ann@example.test")
    link = mail["List-Unsubscribe"].strip().strip("<>").removeprefix("http://games.test")
    assert client.post(link).json["email_on"] is False
    assert client.get("/api/me/notices", headers=bearer(ann)).json["email_on"] is False
    act(client, game, 0, "roll")
    act(client, game, 1, "roll")
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    assert len(to(inbox, "unsub-ann@example.test")) == 1
    assert client.get("/api/notices/unsubscribe/nope").status_code == 404


def test_bad_settings_are_refused_with_nothing_written(client, services):
    name, token = account(client, "kept@example.test")
    for body in ({"email": "not an address"}, {"kinds": ["fireworks"]}, {"email_on": "yes"}):
        r = client.put("/api/me/notices", json=body, headers=bearer(token))
        assert r.status_code == 400, r.json
    assert client.get("/api/me/notices", headers=bearer(token)).json["email"] == "kept@example.test"
    assert client.put("/api/me/notices", json={"email": "x@example.test"}).status_code == 401
    r = client.post("/api/me/notices/push", json={"endpoint": "not a url", "keys": {}}, headers=bearer(token))
    assert r.status_code == 400
    good = {"endpoint": "https://push.example.test/sub/1", "keys": {"p256dh": "B" * 87, "auth": "A" * 22}}
    r = client.post("/api/me/notices/push", json=good, headers=bearer(token))
    assert r.status_code == 201 and r.json["push_subscriptions"] == 1
    services.notice_settings.unsubscribe_push(name, good["endpoint"])  # nothing is ever sent off this machine


def test_the_vapid_key_is_kept_beside_the_signing_key(client, app, vapid):
    key = client.get("/api/notices/key").json["key"]
    assert key == application_server_key(vapid) == application_server_key(load_vapid(app.config["DATA_DIR"]))


def test_an_undo_asked_reaches_the_seat_asked_and_only_it(client, services, inbox, vapid):
    _, ann = account(client, "undo-ann@example.test")
    _, bob = account(client, "undo-bob@example.test")
    game = two_player_game(client, ann, bob, {"rounds": 5})
    act(client, game, 0, "roll")
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)  # the moves' notices go first
    asked = client.post(f"/api/games/{game['id']}/undo", json={"to_seq": 1}, headers=bearer(ann))
    assert asked.json["status"] == "requested", asked.json
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    assert "An undo is asked" in to(inbox, "undo-bob@example.test")[-1].get_content()
    assert not any("undo" in m.get_content() for m in to(inbox, "undo-ann@example.test"))


def test_the_site_installs_as_an_app_with_a_service_worker(client):
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert "showNotification" in worker.get_data(as_text=True)
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json" and manifest.json["start_url"] == "/"
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_the_sender_process_is_built_from_the_settings(app, client, inbox):
    """``python -m service notices`` builds its sender this way: SMTP from SMTP_*, links
    from PUBLIC_URL, pushes signed with the VAPID key of DATA_DIR."""
    from types import SimpleNamespace

    from service.entrypoints.notices import sender_of

    settings = {**app.config, "SMTP_HOST": "127.0.0.1", "SMTP_PORT": inbox.port, "PUBLIC_URL": "https://play.test"}
    _, ann = account(client, "proc-ann@example.test")
    _, bob = account(client)
    two_player_game(client, ann, bob)
    sender_of(SimpleNamespace(config=settings, extensions=app.extensions)).send_due(now=time.time() + LATER)
    [mail] = to(inbox, "proc-ann@example.test")
    assert "https://play.test/games/" in mail.get_content()


def test_a_settled_dispute_reaches_the_one_who_raised_it(client, services, inbox, vapid):
    _, ann = account(client, "dispute-ann@example.test")
    _, bob = account(client, "dispute-bob@example.test")
    game = two_player_game(client, ann, bob, {"rounds": 5})
    act(client, game, 0, "roll")
    raised = client.post(
        f"/api/games/{game['id']}/annotations",
        json={"seq": 2, "text": "wrong roll", "kind": "dispute"},
        headers=bearer(bob),
    )
    assert raised.status_code == 201, raised.json
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    settled = client.post(
        f"/api/games/{game['id']}/referee/dismiss",
        json={"dispute": raised.json["id"], "reason": "the roll stands"},
        headers=bearer(game["referee_token"]),
    )
    assert settled.status_code == 201, settled.json
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    assert "dispute you raised" in to(inbox, "dispute-bob@example.test")[-1].get_content()
    assert not any("dispute" in m.get_content() for m in to(inbox, "dispute-ann@example.test"))


def test_an_invitation_and_a_rematch_reach_the_accounts_asked(client, services, inbox, vapid):
    import secrets

    ann_name, ann = account(client, "inv-ann@example.test")
    bob_name, bob = account(client, "inv-bob@example.test")
    opened = client.post(
        "/api/tables",
        json={
            "game": "toy",
            "seats": 2,
            "contribution": secrets.token_hex(32),
            "invited": [bob_name],
            "options": {"rounds": 1},
        },
        headers=bearer(ann),
    )
    assert opened.status_code == 201, opened.json
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    assert "You are invited" in to(inbox, "inv-bob@example.test")[-1].get_content()
    assert not to(inbox, "inv-ann@example.test")  # the creator is not invited to her own table
    joined = client.post(
        f"/api/tables/{opened.json['id']}/seats", json={"contribution": secrets.token_hex(32)}, headers=bearer(bob)
    )
    game_id = joined.json["game_id"]
    game = {"id": game_id, "players": [ann, bob]}
    seats = client.get(f"/api/games/{game_id}").json["accounts"]
    game["players"] = [ann if seats[str(s)] == ann_name else bob for s in range(2)]
    while client.get(f"/api/games/{game_id}").json["status"] != "finished":
        seat = client.get(f"/api/games/{game_id}").json["to_act"][0]
        act(client, game, seat, "roll")
    offered = client.post(
        f"/api/games/{game_id}/rematch", json={"contribution": secrets.token_hex(32)}, headers=bearer(ann)
    )
    assert offered.status_code == 201, offered.json
    sender(services, inbox.port, vapid).send_due(now=time.time() + 2 * LATER)
    assert "A rematch of" in to(inbox, "inv-bob@example.test")[-1].get_content()


def test_a_player_going_on_with_a_turn_is_not_told_it_is_their_move(client, services, inbox, vapid):
    """A seat that acts and is still awaited (a step of a longer turn; the toy game's note)
    gets no new "your move": it is at the table. The next player is told once."""
    _, ann = account(client, "turn-ann@example.test")
    _, bob = account(client, "turn-bob@example.test")
    game = two_player_game(client, ann, bob, {"rounds": 5})
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    assert len(to(inbox, "turn-ann@example.test")) == 1
    act(client, game, 0, "note", {"text": "a"})
    act(client, game, 0, "note", {"text": "b"})
    sender(services, inbox.port, vapid).send_due(now=time.time() + 2 * LATER)
    assert len(to(inbox, "turn-ann@example.test")) == 1
    act(client, game, 0, "roll")
    sender(services, inbox.port, vapid).send_due(now=time.time() + 3 * LATER)
    assert len(to(inbox, "turn-ann@example.test")) == 1
    assert "your move" in to(inbox, "turn-bob@example.test")[-1].get_content()


def test_a_your_move_no_longer_true_when_the_digest_leaves_is_not_sent(client, services, inbox, vapid):
    """Ann is awaited, and moves within her digest window: "It is your move" would be
    wrong by the time it leaves, so it does not; Bob, awaited now, is told."""
    _, ann = account(client, "stale-ann@example.test")
    _, bob = account(client, "stale-bob@example.test")
    game = two_player_game(client, ann, bob, {"rounds": 5})
    act(client, game, 0, "roll")
    stale = services.notices.stats().get("stale", 0)
    sender(services, inbox.port, vapid).send_due(now=time.time() + LATER)
    assert not to(inbox, "stale-ann@example.test")
    assert "your move" in to(inbox, "stale-bob@example.test")[-1].get_content()
    assert services.notices.stats()["stale"] == stale + 1
    assert 'boardgames_notices{outcome="stale"}' in client.get("/metrics").get_data(as_text=True)
