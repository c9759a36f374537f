"""A casual rated game's referee is its creator, who may play a seat: pausing the game
on their own turn (or, with ``pause_on_dispute``, raising a dispute and dismissing it)
holds their clock while they think, as long as they like, and the result stays rated."""

from __future__ import annotations

import time

from tests.accounts.helpers import auth, bound_game, new_account
from tests.trust.test_rated_results import finish_toy, row


def test_a_pause_on_the_creators_own_turn_unrates_the_game(client):
    (a, a_session), (b, b_session) = new_account(client, "pa"), new_account(client, "pb")
    created = bound_game(client, [a_session, b_session], options={"rounds": 2}, clock={"base": 30, "increment": 0})
    gid, tokens, referee = created["id"], [s["token"] for s in created["seats"]], auth(created["referee_token"])
    for token in tokens:  # each seat's first move: the clocks run from here
        client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(token))
    before = client.get(f"/api/games/{gid}").get_json()
    assert before["to_act"] == [0]
    assert client.post(f"/api/games/{gid}/referee/pause", json={"reason": "x"}, headers=referee).status_code == 201
    time.sleep(1.5)  # seat 0 thinks, off the clock
    assert client.post(f"/api/games/{gid}/referee/resume", json={"reason": "x"}, headers=referee).status_code == 201
    after = client.get(f"/api/games/{gid}").get_json()["clocks"]["remaining"][0]
    assert after > before["clocks"]["remaining"][0] - 1.0  # the thinking was not charged
    finish_toy(client, gid, tokens)
    assert row(client, "toy", a) is None and row(client, "toy", b) is None, "the paused game was rated"
