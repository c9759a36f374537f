"""Ratings from recorded results: rated once per result, only ranked games with every
seat bound, forfeits and referee corrections flowing in; numbers equal to OpenSkill's
Plackett-Luce applied to the recorded rankings."""

from __future__ import annotations

from openskill.models import PlackettLuce

from events import keys

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


def test_a_forfeit_is_a_result_like_any_other(client):
    accounts = players(client, 2, "f")
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 3})
    forfeit = client.post(
        f"/api/games/{created['id']}/referee/forfeit",
        json={"seat": 0, "reason": "left"},
        headers=auth(created["referee_token"]),
    )
    assert forfeit.status_code == 201, forfeit.get_json()
    assert client.get(f"/api/games/{created['id']}").get_json()["result"]["ranking"] == [2, 1]
    loser, winner = row(client, "toy", accounts[0][0]), row(client, "toy", accounts[1][0])
    assert winner["mu"] > 25 > loser["mu"]


def test_a_referee_correction_re_rates_the_game_in_its_place(client):
    accounts = players(client, 2, "c")
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 1})
    meta = roll_out(client, created)
    loser = meta["result"]["ranking"].index(max(meta["result"]["ranking"]))
    fix = client.post(
        f"/api/games/{created['id']}/referee/correct",
        json={"adjustments": [{"seat": loser, "points": 100}], "reason": "miscounted"},
        headers=auth(created["referee_token"]),
    )
    assert fix.status_code == 201, fix.get_json()
    corrected = client.get(f"/api/games/{created['id']}").get_json()
    ranking = corrected["result"]["ranking"]
    assert ranking[loser] == 1
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranking)
    for seat, (name, _) in enumerate(accounts):
        mine = row(client, "toy", name)
        assert mine["games"] == 1  # replaced, not counted twice
        assert mine["mu"] == round(expected[seat][0].mu, 9)
    profile = client.get(f"/api/accounts/{accounts[loser][0]}").get_json()
    assert [h["rank"] for h in profile["ratings"]["toy"]["history"]] == [1]
    assert client.get("/api/ratings").get_json()["games"][created["id"]] == corrected["head_hash"]


def test_a_lost_ratings_write_never_fails_the_move_and_is_recorded_later(client, platform, monkeypatch):
    accounts = players(client, 2, "l")
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 1})

    def broken(*args, **kwargs):
        raise RuntimeError("the ratings stream is out of reach")

    monkeypatch.setattr(platform.ratings, "record", broken)
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
