"""A rated casual game's creator holds its referee token and may also play a seat: that
token must not read what the seats cannot (the other seat's hand, the tile pile) while
the game is being played, or the creator plays a rated game with the cards face up."""

from __future__ import annotations

from tests.accounts.helpers import auth, bound_game, new_account


def test_the_creators_referee_token_does_not_see_a_rated_games_hidden_state(client):
    (_, mallory), (_, victim) = new_account(client, "cm"), new_account(client, "cv")
    created = bound_game(client, [mallory, victim], game="age_of_rome")
    gid, referee = created["id"], auth(created["referee_token"])
    seat0 = client.get(f"/api/games/{gid}/view", headers=auth(created["seats"][0]["token"])).get_json()["view"]
    as_referee = client.get(f"/api/games/{gid}/view", headers=referee).get_json()["view"]
    assert as_referee["players"][1]["dealt"] is None  # the claimant's missions, as seat 0 sees them
    assert as_referee["players"][1] == seat0["players"][1]
    events = client.get(f"/api/games/{gid}/events", headers=referee).get_json()["events"]
    spectator = client.get(f"/api/games/{gid}/events").get_json()["events"]
    assert events == spectator
    assert client.post(f"/api/games/{gid}/fork", json={"at_seq": 1}, headers=referee).status_code == 403
    assert client.post(f"/api/games/{gid}/analysis", headers=referee).status_code == 403
    assert client.get(f"/api/games/{gid}").get_json()["ranked"] is True


def test_an_unrated_games_referee_still_sees_everything(client):
    (_, a), (_, b) = new_account(client, "ca"), new_account(client, "cb")
    created = bound_game(client, [a, b], game="age_of_rome", ranked=False)
    view = client.get(f"/api/games/{created['id']}/view", headers=auth(created["referee_token"])).get_json()["view"]
    assert view["players"][1]["dealt"]
