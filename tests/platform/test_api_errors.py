"""Bad input gets a clear JSON error with the right status and changes nothing."""

from tests.platform.helpers import GameHandle, auth


def test_malformed_json_is_400_and_changes_nothing(client):
    g = GameHandle(client)
    r = client.post(g.url("/actions"), data="{not json", headers={**g.seat(0), "Content-Type": "application/json"})
    assert r.status_code == 400
    assert r.json["error"]["code"] == "malformed"
    assert g.meta()["seq"] == 1


def test_unknown_game_is_400(client):
    r = client.post("/api/games", json={"game": "chess", "seats": ["a", "b"]})
    assert r.status_code == 400 and r.json["error"]["code"] == "unknown_game"


def test_wrong_seat_count_is_400(client):
    r = client.post("/api/games", json={"game": "toy", "seats": ["a"] * 5})
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_seat_count"


def test_bad_options_are_400_with_field_errors(client):
    r = client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 0}})
    assert r.status_code == 400 and "rounds" in r.json["error"]["details"]["options"]


def test_unknown_action_is_400(client):
    g = GameHandle(client)
    r = g.act(0, "castle")
    assert r.status_code == 400 and r.json["error"]["code"] == "unknown_action"
    assert g.meta()["seq"] == 1


def test_payload_failing_its_schema_is_400_with_field_errors(client):
    g = GameHandle(client)
    r = g.act(0, "play", {"card": "seven"})
    assert r.status_code == 400
    assert r.json["error"]["details"]["payload"] == {"card": ["Not a valid integer."]}


def test_missing_body_fields_are_400(client):
    g = GameHandle(client)
    r = client.post(g.url("/actions"), json={"payload": {}}, headers=g.seat(0))
    assert r.status_code == 400 and "type" in r.json["error"]["details"]["json"]


def test_forged_token_is_401(client):
    g = GameHandle(client)
    r = client.post(g.url("/actions"), json={"type": "roll"}, headers=auth("forged-token"))
    assert r.status_code == 401 and r.json["error"]["code"] == "bad_token"
    assert g.meta()["seq"] == 1


def test_a_token_of_another_game_is_401(client):
    g, other = GameHandle(client), GameHandle(client)
    r = client.post(g.url("/actions"), json={"type": "roll"}, headers=other.seat(0))
    assert r.status_code == 401


def test_no_token_cannot_act(client):
    g = GameHandle(client)
    r = client.post(g.url("/actions"), json={"type": "roll"})
    assert r.status_code == 403 and r.json["error"]["code"] == "not_a_seat"


def test_another_seats_turn_is_422_not_your_turn(client):
    g = GameHandle(client)
    r = g.act(1, "roll")
    assert r.status_code == 422 and r.json["error"]["code"] == "not_your_turn"
    assert g.meta()["seq"] == 1


def test_stale_expected_seq_is_409_with_current_seq(client):
    g = GameHandle(client)
    assert g.act(0, "roll", expected_seq=1).status_code == 201
    r = g.act(1, "roll", expected_seq=1)
    assert r.status_code == 409 and r.json["error"]["details"]["seq"] == 2
    assert g.meta()["seq"] == 2


def test_illegal_by_the_rules_is_422_with_the_games_code(client):
    g = GameHandle(client)
    r = g.act(0, "play", {"card": 999})
    assert r.status_code == 422
    assert r.json["error"] == {"code": "not_in_hand", "message": "that card is not in your hand", "details": {}}


def test_oversized_body_is_413(client, app):
    g = GameHandle(client)
    big = {"type": "note", "payload": {"text": "a" * (app.config["MAX_BODY_BYTES"] + 10)}}
    r = client.post(g.url("/actions"), json=big, headers=g.seat(0))
    assert r.status_code == 413 and r.json["error"]["code"] == "too_large"
    assert g.meta()["seq"] == 1


def test_acting_in_a_finished_game_is_409(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "roll")
    g.act(1, "roll")
    assert g.meta()["status"] == "finished"
    r = g.act(0, "roll")
    assert r.status_code == 409 and r.json["error"]["code"] == "game_finished"


def test_acting_in_a_paused_game_is_409(client):
    g = GameHandle(client)
    assert client.post(g.url("/referee/pause"), json={"reason": "break"}, headers=g.ref()).status_code == 201
    r = g.act(0, "roll")
    assert r.status_code == 409 and r.json["error"]["code"] == "game_paused"


def test_unknown_game_id_is_404(client):
    r = client.get("/api/games/doesnotexist")
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"


def test_a_seat_cannot_use_referee_endpoints(client):
    g = GameHandle(client)
    r = client.post(g.url("/referee/pause"), json={}, headers=g.seat(0))
    assert r.status_code == 403 and r.json["error"]["code"] == "not_referee"
