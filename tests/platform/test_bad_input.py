"""Malformed input answers 4xx with the error body and writes nothing (each case was a
500 before, some leaving a seed or token digest behind)."""

from __future__ import annotations

import json

import pytest

from tests.platform.helpers import GameHandle

HUGE = str(2**64)


def raw_post(client, url, text, headers=None):
    return client.post(url, data=text, content_type="application/json", headers=headers or {})


def error_of(response, status=400):
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    body = response.get_json()
    assert set(body) == {"error"} and {"code", "message", "details"} <= set(body["error"])
    return body["error"]


@pytest.fixture()
def unchanged(redis_client):
    """Asserts that the test wrote no key and no stream entry."""

    def snapshot():
        return {key: redis_client.type(key) for key in redis_client.scan_iter(count=1000)}, {
            key: redis_client.xlen(key) for key in redis_client.scan_iter(match="*:events", count=1000)
        }

    before = snapshot()
    yield
    assert snapshot() == before


def test_events_after_beyond_2_64(client):
    g = GameHandle(client)
    error_of(client.get(g.url(f"/events?after={HUGE}")))


def test_stream_last_event_id_beyond_2_64(client):
    g = GameHandle(client)
    error_of(client.get(g.url("/stream"), headers={"Last-Event-ID": HUGE}))


def test_integer_over_4300_digits_in_a_body(client, unchanged):
    text = '{"game": "toy", "seats": ["a", "b"], "options": {"x": ' + "1" * 5000 + "}}"
    assert error_of(raw_post(client, "/api/games", text))["code"] == "malformed"


def test_integer_over_4300_digits_in_an_export(client):
    assert error_of(client.post("/api/verify", data='{"seq": ' + "1" * 5000 + "}"))["code"] == "malformed"


def test_json_30000_deep(client, unchanged):
    assert error_of(raw_post(client, "/api/games", "[" * 30000))["code"] == "malformed"
    assert error_of(client.post("/api/verify", data="[" * 30000))["code"] == "malformed"


def test_lone_surrogate_in_a_seat_name_writes_nothing(client, unchanged):
    text = '{"game": "toy", "seats": ["\\ud800", "bob"]}'
    assert error_of(raw_post(client, "/api/games", text))["code"] == "malformed"


def test_lone_surrogate_in_an_action_id(client):
    g = GameHandle(client)
    seq, seat = g.meta()["seq"], g.meta()["to_act"][0]
    action = g.legal(seat)[0]
    text = json.dumps({**action, "action_id": "SURROGATE"}).replace("SURROGATE", "\\udc00")
    error_of(raw_post(client, g.url("/actions"), text, g.seat(seat)))
    assert g.meta()["seq"] == seq


def test_verify_lines_that_are_not_objects(client):
    for text in ("1\n", "[]\n", '"x"\n', "null\n"):
        assert error_of(client.post("/api/verify", data=text))["code"] == "malformed"


def test_first_emperor_beyond_the_seats(client, unchanged):
    r = client.post(
        "/api/games", json={"game": "shadow_of_the_emperor", "seats": ["a", "b"], "options": {"first_emperor": 3}}
    )
    assert error_of(r)["code"] == "bad_options"


def test_an_adjustment_of_10_to_the_400_points(client):
    g = GameHandle(client)
    seq = g.meta()["seq"]
    text = '{"seat": 0, "points": 1' + "0" * 400 + ', "reason": "x"}'
    error_of(raw_post(client, g.url("/referee/adjust"), text, g.ref()))
    r = client.post(g.url("/referee/adjust"), json={"seat": 0, "points": 10**30, "reason": "x"}, headers=g.ref())
    error_of(r)
    assert g.meta()["seq"] == seq


def test_a_house_limit_of_10_to_the_30(client, unchanged):
    r = client.post("/api/games", json={"game": "caylus", "seats": ["a", "b"], "options": {"house_limit": 10**30}})
    assert error_of(r)["code"] == "bad_options"


def test_non_finite_numbers_are_not_json(client, unchanged):
    for literal in ("NaN", "Infinity", "1e400"):
        text = '{"game": "toy", "seats": ["a", "b"], "clock": {"base": ' + literal + "}}"
        assert error_of(raw_post(client, "/api/games", text))["code"] == "malformed"


def test_a_failed_creation_leaves_no_seed(client, unchanged):
    """The seed is written before the creating append: when that append is refused by
    the game's setup, the seed goes too."""
    r = client.post(
        "/api/games", json={"game": "shadow_of_the_emperor", "seats": ["a", "b", "c"], "options": {"first_emperor": 3}}
    )
    error_of(r)


def test_tournament_bodies_use_the_strict_parser(client, unchanged):
    r = raw_post(client, "/api/tournaments", '{"game": "toy", "name": "\\ud800"}')
    assert error_of(r)["code"] == "malformed"


def test_seq_bounds_are_those_of_the_document(client):
    g = GameHandle(client)
    for body in ({"to_seq": 2**53}, {"to_seq": "1"}, {"to_seq": True}):
        error_of(client.post(g.url("/undo"), json=body, headers=g.seat(0)))
    error_of(client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "ranked": 1}))
    assert json.loads(json.dumps(g.meta()))["seq"] == 1
