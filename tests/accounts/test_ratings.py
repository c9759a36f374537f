"""Ratings from recorded results: rated once per result, only ranked games with every
seat bound, casual results a referee decided left out (voided when already rated); numbers equal to OpenSkill's
Plackett-Luce applied to the recorded rankings."""

from __future__ import annotations

import json

from openskill.models import PlackettLuce

from projections import ratings as rfold
from service import wiring
from service.adapters import keys
from service.services.ratings import finished_ts
from tests.platform.test_round_trips import commands_during, fresh_app

from .helpers import auth, bound_game, new_account, roll_out


def stream_length(redis_client) -> int:
    return redis_client.xlen(keys.RATINGS_EVENTS)


def row(client, game, name):
    board = client.get(f"/api/ratings/{game}?min_games=0&limit=500").get_json()["players"]
    return next((r for r in board if r["name"] == name), None)


def players(client, n, prefix="r"):
    return [new_account(client, f"{prefix}{i}") for i in range(n)]


def test_a_finished_ranked_game_moves_its_players_ratings(client, redis_client):
    accounts = players(client, 3)
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 1})
    meta = roll_out(client, created)
    ranking = meta["result"]["ranking"]
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in accounts], ranks=ranking)
    for seat, (name, _) in enumerate(accounts):
        mine = row(client, "toy", name)
        assert mine["games"] == 1 and mine["provisional"]
        assert mine["mu"] == round(expected[seat][0].mu, 9)
        assert mine["sigma"] == round(expected[seat][0].sigma, 9)
        assert mine["rating"] == round(expected[seat][0].ordinal(), 9)
    entry = [e for e in client.get("/api/ratings").get_json()["games"].items() if e[0] == created["id"]]
    assert entry == [(created["id"], meta["head_hash"])]
    recorded = [fields for _, fields in redis_client.xrange(keys.RATINGS_EVENTS) if created["id"] in fields["e"]]
    assert len(recorded) == 1


def test_rating_a_game_twice_is_refused(client, redis_client):
    accounts = players(client, 2)
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 1})
    roll_out(client, created)
    before = stream_length(redis_client)
    again = client.post(f"/api/games/{created['id']}/rating")
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "already_rated"
    assert stream_length(redis_client) == before
    assert row(client, "toy", accounts[0][0])["games"] == 1


def test_unranked_unbound_and_unfinished_games_are_not_rated(client, redis_client):
    accounts = players(client, 2)
    sessions = [s for _, s in accounts]
    unranked = bound_game(client, sessions, options={"rounds": 1}, ranked=False)
    roll_out(client, unranked)
    half = client.post(
        "/api/games",
        json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 1}, "account_seat": 0},
        headers=auth(sessions[0]),
    ).get_json()
    roll_out(client, half)
    playing = bound_game(client, sessions, options={"rounds": 1})
    before = stream_length(redis_client)
    for created, code in ((unranked, "unranked"), (half, "not_rateable"), (playing, "not_finished")):
        answer = client.post(f"/api/games/{created['id']}/rating")
        assert (answer.status_code, answer.get_json()["error"]["code"]) == (409, code)
    assert client.post("/api/games/nosuchgame/rating").status_code == 404
    assert stream_length(redis_client) == before
    assert row(client, "toy", accounts[0][0]) is None


def test_a_casual_forfeit_before_any_move_is_not_rated(client, redis_client):
    """The creator of a casual game holds the referee token: a forfeit they hand out
    decides nothing in the ratings (nobody moved, and a referee decided it)."""
    accounts = players(client, 2, "f")
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 3})
    length = stream_length(redis_client)
    forfeit = client.post(
        f"/api/games/{created['id']}/referee/forfeit",
        json={"seat": 0, "reason": "left"},
        headers=auth(created["referee_token"]),
    )
    assert forfeit.status_code == 201, forfeit.get_json()
    assert client.get(f"/api/games/{created['id']}").get_json()["result"]["ranking"] == [2, 1]
    assert row(client, "toy", accounts[0][0]) is None and row(client, "toy", accounts[1][0]) is None
    again = client.post(f"/api/games/{created['id']}/rating")
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "refereed_result"
    assert again.get_json()["error"]["details"] == {"why": "refereed"}
    assert stream_length(redis_client) == length


def test_a_casual_forfeit_after_moves_is_not_rated_either(client, redis_client):
    accounts = players(client, 2, "g")
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 3})
    moved = client.post(
        f"/api/games/{created['id']}/actions",
        json={"type": "roll", "payload": {}},
        headers=auth(created["seats"][0]["token"]),
    )
    assert moved.status_code == 201, moved.get_json()
    length = stream_length(redis_client)
    forfeit = client.post(
        f"/api/games/{created['id']}/referee/forfeit",
        json={"seat": 1, "reason": "left"},
        headers=auth(created["referee_token"]),
    )
    assert forfeit.status_code == 201, forfeit.get_json()
    assert client.get(f"/api/games/{created['id']}").get_json()["status"] == "finished"
    assert row(client, "toy", accounts[0][0]) is None
    assert stream_length(redis_client) == length


def test_a_casual_referee_correction_takes_the_rated_result_back_out(client, redis_client):
    """Outside tournaments a corrected result is not rated: the earlier rating entry is
    voided and the players' ratings are as if the game had never been rated."""
    accounts = players(client, 2, "c")
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 1})
    meta = roll_out(client, created)
    assert row(client, "toy", accounts[0][0])["games"] == 1
    assert created["id"] in client.get("/api/ratings").get_json()["games"]
    loser = meta["result"]["ranking"].index(max(meta["result"]["ranking"]))
    fix = client.post(
        f"/api/games/{created['id']}/referee/correct",
        json={"adjustments": [{"seat": loser, "points": 100}], "reason": "miscounted"},
        headers=auth(created["referee_token"]),
    )
    assert fix.status_code == 201, fix.get_json()
    for name, _ in accounts:
        assert row(client, "toy", name) is None
    assert created["id"] not in client.get("/api/ratings").get_json()["games"]
    refused = client.post(f"/api/games/{created['id']}/rating")
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "refereed_result"


def test_the_fold_drops_a_voided_result():
    one = {"game_id": "g1", "game": "toy", "finished_at": "1", "head": "h", "seq": 3, "accounts": ["a", "b"]}
    rated = {**one, "ranking": [1, 2]}
    assert rfold.fold([rated, {**one, "head": "h2", "ranking": None, "void": "refereed"}]) == {}
    live = rfold.Fold()
    live.add(rated)
    assert live.out["toy"]["a"]["games"] == 1
    live.add({**one, "head": "h2", "ranking": None, "void": "refereed"})
    assert live.out == {}


def test_a_lost_ratings_write_never_fails_the_move_and_is_recorded_later(client, services, monkeypatch):
    accounts = players(client, 2, "l")
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 1})

    def broken(*args, **kwargs):
        raise RuntimeError("the ratings stream is out of reach")

    monkeypatch.setattr(services.ratings, "record", broken)
    meta = roll_out(client, created)  # every move answered 201
    assert meta["status"] == "finished"
    monkeypatch.undo()
    assert row(client, "toy", accounts[0][0]) is None
    recorded = client.post(f"/api/games/{created['id']}/rating")
    assert recorded.status_code == 201, recorded.get_json()
    assert row(client, "toy", accounts[0][0])["games"] == 1


def test_leaderboard_marks_provisional_ratings_and_filters_by_games(client):
    accounts = players(client, 2, "p")
    sessions = [s for _, s in accounts]
    for _ in range(5):
        roll_out(client, bound_game(client, sessions, options={"rounds": 1}))
    mine = row(client, "toy", accounts[0][0])
    assert mine["games"] == 5 and mine["provisional"] is False
    board = client.get("/api/ratings/toy?min_games=5").get_json()
    assert all(r["games"] >= 5 for r in board["players"])
    assert [r["rank"] for r in board["players"]] == list(range(1, len(board["players"]) + 1))
    assert board["parameters"]["model"] == "PlackettLuce"
    assert client.get("/api/ratings/nosuchgame").status_code == 404
    assert client.get("/api/ratings/toy?min_games=-1").status_code == 400


def test_a_correction_that_changes_nothing_is_refused_and_nothing_written(client, redis_client):
    """Correction spam: each would append an entry and a rating result for nothing."""
    accounts = players(client, 2, "n")
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 1})
    meta = roll_out(client, created)
    length = stream_length(redis_client)
    for adjustments in ([], [{"seat": 0, "points": 0}]):
        answer = client.post(
            f"/api/games/{created['id']}/referee/correct",
            json={"adjustments": adjustments, "reason": "again"},
            headers=auth(created["referee_token"]),
        )
        assert answer.status_code == 409, answer.get_json()
        assert answer.get_json()["error"]["code"] == "unchanged_result"
    after = client.get(f"/api/games/{created['id']}").get_json()
    assert after["head_hash"] == meta["head_hash"] and after["seq"] == meta["seq"]
    assert stream_length(redis_client) == length
    assert row(client, "toy", accounts[0][0])["games"] == 1


def _finished_unrecorded(client, services, monkeypatch, sessions) -> tuple[dict, str]:
    """A rated game played to its end with its ratings write lost: (its state, its end's ts)."""
    created = bound_game(client, sessions, options={"rounds": 1})
    monkeypatch.setattr(services.ratings, "record", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("lost")))
    roll_out(client, created)
    monkeypatch.undo()
    return services.log.state(created["id"]), finished_ts(services.log, created["id"])


def test_recording_a_result_is_one_round_trip(client, services, redis_client, monkeypatch):
    accounts = players(client, 2, "o")
    pstate, finished_at = _finished_unrecorded(client, services, monkeypatch, [s for _, s in accounts])
    services.ratings.entries()  # this worker has read the stream so far
    sent = commands_during(redis_client, lambda: services.ratings.record(pstate, finished_at))
    assert sent == ["EVALSHA"]
    assert row(client, "toy", accounts[0][0])["games"] == 1


def test_a_lost_race_catches_up_from_the_scripts_answer(client, services, redis_client, redis_url, monkeypatch):
    (a, a_session), (b, b_session), (c, c_session) = players(client, 3, "w")
    first = _finished_unrecorded(client, services, monkeypatch, [a_session, b_session])
    second = _finished_unrecorded(client, services, monkeypatch, [a_session, c_session])
    other = wiring.of(fresh_app(redis_url)).ratings
    other.entries()  # the other worker has read the stream so far, then falls behind:
    assert services.ratings.record(*first) == "ok"
    sent = commands_during(redis_client, lambda: other.record(*second))
    assert sent == ["EVALSHA", "EVALSHA"]  # the conflict's answer carried the missed entry: no read
    last_two = [json.loads(fields["e"]) for _, fields in redis_client.xrange(keys.RATINGS_EVENTS)][-2:]
    one, two = (e["payload"] for e in last_two)
    assert (one["game_id"], two["game_id"]) == (first[0]["game_id"], second[0]["game_id"])
    assert last_two[1]["prev"] == last_two[0]["hash"]
    assert two["before"][a] == one["after"][a]  # rated on the fold that includes the first result
