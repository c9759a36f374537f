"""One rule decides who sees a game's hidden state: its referee, or anyone once the game
and every game it was forked from have ended. Views, events, forks and analysis all ask it."""

from __future__ import annotations

from tests.platform.helpers import GameHandle, auth


def finished_fork_of_live_game(client):
    source = GameHandle(client, options={"rounds": 2})
    source.act(0, "roll")
    fork = client.post(source.url("/fork"), json={"at_seq": 2}, headers=source.ref()).json
    url = f"/api/games/{fork['id']}"
    assert (
        client.post(
            f"{url}/referee/forfeit", json={"seat": 0, "reason": "x"}, headers=auth(fork["referee_token"])
        ).status_code
        == 201
    )
    assert client.get(url).json["status"] == "finished"
    return source, fork, url


def test_a_finished_fork_of_a_live_game_cannot_be_forked_by_anyone(client):
    source, fork, url = finished_fork_of_live_game(client)
    assert client.post(f"{url}/fork", json={"at_seq": 1}).status_code == 403
    assert client.post(f"{url}/fork", json={"at_seq": 1}, headers=auth(fork["seats"][1]["token"])).status_code == 403
    # its own referee (who may see the source's state anyway) may
    assert client.post(f"{url}/fork", json={"at_seq": 1}, headers=auth(fork["referee_token"])).status_code == 201
    while source.meta()["status"] == "active":
        source.act(source.meta()["to_act"][0], "roll")
    forked = client.post(f"{url}/fork", json={"at_seq": 1})
    assert forked.status_code == 201
    events = client.get(f"/api/games/{forked.json['id']}/events", headers=auth(forked.json["referee_token"])).json
    assert "deck" in events["events"][0]["payload"]["fork"]["state"]


def test_nobody_but_the_referee_may_ask_for_analysis_of_a_finished_fork_of_a_live_game(client):
    source, fork, url = finished_fork_of_live_game(client)
    assert client.post(f"{url}/analysis").status_code == 403
    assert client.get(f"{url}/analysis").status_code == 403
    assert client.post(f"{url}/analysis", headers=auth(fork["referee_token"])).status_code == 202
    assert client.get(f"{url}/analysis").status_code == 403
    while source.meta()["status"] == "active":
        source.act(source.meta()["to_act"][0], "roll")
    assert client.get(f"{url}/analysis").status_code == 200
