"""Replay at any seq equals the live state at that seq; views and the log are
redacted per caller; the seed stays secret until the game ends."""

from __future__ import annotations

from tests.platform.helpers import GameHandle, auth


def test_replay_at_every_seq_equals_the_live_view_at_that_seq(client):
    g = GameHandle(client, options={"rounds": 8})
    live = {}
    while g.meta()["status"] == "active":
        g.play_first()
        seq = g.meta()["seq"]
        live[seq] = client.get(g.url("/view"), headers=g.ref()).json["view"]
    for seq, view in live.items():
        assert client.get(g.url(f"/view?at={seq}"), headers=g.ref()).json["view"] == view


def test_a_seat_sees_its_own_hand_and_only_counts_of_others(client):
    g = GameHandle(client)
    mine = client.get(g.url("/view"), headers=g.seat(0)).json["view"]["hands"]
    spectator = client.get(g.url("/view")).json["view"]["hands"]
    assert isinstance(mine[0], list) and mine[1] == 2
    assert spectator == [2, 2]


def test_during_the_game_a_seat_replays_only_its_own_past_views(client):
    g = GameHandle(client)
    g.act(0, "roll")
    past = client.get(g.url("/view?at=1"), headers=g.seat(1)).json
    assert past["at"] == 1 and isinstance(past["view"]["hands"][1], list) and past["view"]["hands"][0] == 2


def test_a_replay_step_beyond_the_end_is_clamped(client):
    g = GameHandle(client)
    assert client.get(g.url("/view?at=999")).json["at"] == 1
    assert client.get(g.url("/view?at=-5")).json["at"] == 1


def test_a_secret_payload_is_hidden_in_the_log_from_others_only(client):
    g = GameHandle(client)
    g.act(0, "note", {"text": "b"})
    assert g.events(g.tokens[0])[1]["payload"] == {"text": "b"}
    assert g.events(g.tokens[1])[1]["payload"] == {"text": "?"}
    assert g.events()[1]["payload"] == {"text": "?"}
    assert g.events(g.referee)[1]["payload"] == {"text": "b"}


def test_the_seed_is_secret_until_the_end_then_revealed(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "roll")
    assert '"seed":' not in g.export(g.referee)
    g.act(1, "roll")
    finished = g.events()[-1]
    assert finished["type"] == "game.finished"
    import hashlib

    assert hashlib.sha256(finished["payload"]["seed"].encode()).hexdigest() == g.meta()["seed_commitment"]


def test_a_finished_game_shows_everything_to_everyone(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "note", {"text": "a"})
    g.act(0, "roll")
    g.act(1, "roll")
    view = client.get(g.url("/view")).json["view"]
    assert "deck_order" in view and g.events()[1]["payload"] == {"text": "a"}


def test_the_spectator_view_never_depends_on_a_seats_hidden_cards(client):
    """Two games whose only difference is the hidden hands look the same to a spectator."""
    views = set()
    for _ in range(5):
        g = GameHandle(client)
        v = client.get(g.url("/view")).json["view"]
        views.add(str(v))
    assert len(views) == 1


def test_sse_stream_sends_new_entries_as_the_spectator_sees_them(app):
    client = app.test_client()
    g = GameHandle(client)
    g.act(0, "note", {"text": "b"})
    app.config["SSE_SECONDS"] = 0.5
    body = client.get(g.url("/stream?after=0")).get_data(as_text=True)
    assert "id: 1\nevent: appended" in body and "id: 2\nevent: appended" in body
    assert '"text": "?"' in body and '"text": "b"' not in body


def test_a_stream_opened_at_the_tail_names_where_it_began(app):
    """A stream opened without ``after`` starts at the log's tail and says so (an ``id``
    line with no data: the browser keeps it as its Last-Event-ID without an event), so
    a stream that ended before any move reconnects after that seq and misses nothing
    appended while it was away (browser tests hold a stream 5 s: a move made in the
    second between two streams was lost, and the page waited for it)."""
    client = app.test_client()
    g = GameHandle(client)
    g.act(0, "note", {"text": "b"})
    app.config["SSE_SECONDS"] = 0.3
    seq = g.meta()["seq"]
    body = client.get(g.url("/stream")).get_data(as_text=True)
    assert f"id: {seq}\n\n" in body and "event: appended" not in body
    assert g.play_first().status_code == 201  # between two streams
    again = client.get(g.url("/stream"), headers={"Last-Event-ID": str(seq)}).get_data(as_text=True)
    assert f"id: {seq + 1}\nevent: appended" in again


def test_game_types_lists_metadata_and_options(client):
    types = {t["name"]: t for t in client.get("/api/game-types").json}
    assert types["toy"]["options"]["rounds"] == {"type": "integer", "default": 3}


def test_openapi_document_is_served(client):
    doc = client.get("/api/openapi.json").json
    assert "/api/games/{game_id}/actions" in doc["paths"]


def test_listing_filters_by_game_and_status(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "roll")
    g.act(1, "roll")
    finished = {m["id"] for m in client.get("/api/games?game=toy&status=finished").json["games"]}
    active = {m["id"] for m in client.get("/api/games?status=active").json["games"]}
    assert g.id in finished and g.id not in active


def test_bearer_scheme_is_required(client):
    g = GameHandle(client)
    r = client.get(g.url("/view"), headers={"Authorization": "Token abc"})
    assert r.status_code == 401
    assert client.get(g.url("/view"), headers=auth("wrong")).status_code == 401
