"""Results a referee or a throwaway account could decide stay out of the ratings: a
casual game's withdrawn computer or rewind unrates it, a rewind restores every clock as
it stood, a seat that hardly moved makes a game unrated, repeated meetings in one day
weigh less, and a rating seeds a tournament only once it was earned against several
opponents. The live side and ``verify-ratings`` share the rule (projections/ratings.py)."""

from __future__ import annotations

import random
import time

from projections import ratings as rfold
from service.audit.exports import parse_lines, split_trailer
from tests.accounts.helpers import auth, bound_game, new_account, roll_out
from tests.accounts.test_tournaments import tournament
from tests.bots.test_bot_seats import runner
from tests.platform.helpers import GameHandle


def row(client, game, name):
    board = client.get(f"/api/ratings/{game}?min_games=0&limit=500").get_json()["players"]
    return next((r for r in board if r["name"] == name), None)


def refused_rating(client, gid) -> dict:
    answer = client.post(f"/api/games/{gid}/rating")
    assert answer.status_code == 409, answer.get_json()
    return answer.get_json()["error"]


def test_a_casual_withdrawn_computer_unrates_the_game(client, services):
    """The creator seats a "withdrawn" computer on the claimant's seat: the computer
    plays, the claimant ranks last. Outside a tournament that result is not rated."""
    (a, a_session), (b, b_session) = new_account(client, "wa"), new_account(client, "wb")
    created = bound_game(client, [a_session, b_session], game="caylus")
    gid = created["id"]
    seated = client.post(
        f"/api/games/{gid}/referee/bot",
        json={"seat": 1, "strength": 1, "withdrawn": True, "reason": "left"},
        headers=auth(created["referee_token"]),
    )
    assert seated.status_code == 201, seated.get_json()
    bot, rand, token = runner(services), random.Random(3), created["seats"][0]["token"]
    for _ in range(3000):
        bot.run_until_idle()
        meta = client.get(f"/api/games/{gid}").get_json()
        if meta["status"] == "finished":
            break
        actions = client.get(f"/api/games/{gid}/actions", headers=auth(token)).get_json()["actions"]
        moved = client.post(
            f"/api/games/{gid}/actions", json={**rand.choice(actions), "expected_seq": meta["seq"]}, headers=auth(token)
        )
        assert moved.status_code == 201, moved.get_json()
    assert client.get(f"/api/games/{gid}").get_json()["status"] == "finished"
    assert row(client, "caylus", a) is None and row(client, "caylus", b) is None
    assert refused_rating(client, gid)["details"] == {"why": "refereed"}


def test_a_rewind_restores_every_clock_as_it_stood_at_the_target(client):
    """Seat 1 moved at once, seat 0 thought for a while, then the referee rewound to
    where seat 1 was to move: seat 1 is not charged for seat 0's thinking."""
    g = GameHandle(client, options={"rounds": 3}, clock={"base": 30, "increment": 0})
    assert g.act(0, "roll").status_code == 201  # seq 2: seat 1 to move
    at_target = g.meta()["clocks"]["remaining"]
    assert g.act(1, "roll").status_code == 201  # seat 0 to move, and it thinks
    time.sleep(1.5)
    rewound = client.post(g.url("/referee/rewind"), json={"to_seq": 2, "reason": "misclick"}, headers=g.ref())
    assert rewound.status_code == 201, rewound.json
    after = g.meta()["clocks"]["remaining"]
    client.post(g.url("/referee/forfeit"), json={"seat": 0, "reason": "end of test"}, headers=g.ref())
    assert after[1] > at_target[1] - 0.5, (at_target, after)
    assert abs(after[0] - at_target[0]) < 0.5, (at_target, after)


def finish_toy(client, gid, tokens) -> None:
    meta = client.get(f"/api/games/{gid}").get_json()
    while meta["status"] != "finished":
        seat = meta["to_act"][0]
        client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(tokens[seat]))
        meta = client.get(f"/api/games/{gid}").get_json()


def test_an_undo_the_casual_referee_approves_unrates_the_game(client):
    """Approving an undo for the other seats is a rewind by another name."""
    (a, a_session), (b, b_session) = new_account(client, "ua"), new_account(client, "ub")
    created = bound_game(client, [a_session, b_session], options={"rounds": 2})
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    first = client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(tokens[0]))
    client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(tokens[1]))
    asked = client.post(f"/api/games/{gid}/undo", json={"to_seq": first.get_json()["seq"]}, headers=auth(tokens[0]))
    assert asked.get_json()["status"] == "requested", asked.get_json()
    approved = client.post(
        f"/api/games/{gid}/undo/{asked.get_json()['request_id']}/approve", headers=auth(created["referee_token"])
    )
    assert approved.get_json()["status"] == "done", approved.get_json()
    finish_toy(client, gid, tokens)
    assert row(client, "toy", a) is None and row(client, "toy", b) is None
    assert refused_rating(client, gid)["details"] == {"why": "refereed"}


def test_a_casual_rewind_unrates_the_game(client):
    (a, a_session), (b, b_session) = new_account(client, "ra"), new_account(client, "rb")
    created = bound_game(client, [a_session, b_session], options={"rounds": 2})
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    first = client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(tokens[0]))
    assert first.status_code == 201
    client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(tokens[1]))
    rewound = client.post(
        f"/api/games/{gid}/referee/rewind",
        json={"to_seq": first.get_json()["seq"], "reason": "again"},
        headers=auth(created["referee_token"]),
    )
    assert rewound.status_code == 201, rewound.get_json()
    finish_toy(client, gid, tokens)
    assert row(client, "toy", a) is None and row(client, "toy", b) is None
    assert refused_rating(client, gid)["details"] == {"why": "refereed"}


def test_a_throwaway_that_never_moves_farms_nothing(client, services):
    """The farmer moves, the throwaway never does: the game is cancelled at the end of
    its first-move allowance (no clock runs before a seat's first move), not rated."""
    (farmer, f_session), (_, t_session) = new_account(client, "farm"), new_account(client, "throw")
    clocked = client.post(
        "/api/games",
        json={
            "game": "toy",
            "seats": ["f", "t"],
            "options": {"rounds": 3},
            "account_seat": 0,
            "clock": {"base": 2, "increment": 0, "first_move": 2},
        },
        headers=auth(f_session),
    ).get_json()
    gid = clocked["id"]
    claim = client.post(
        f"/api/games/{gid}/claim", json={"seat_token": clocked["seats"][1]["token"]}, headers=auth(t_session)
    )
    assert claim.status_code == 201, claim.get_json()
    moved = client.post(
        f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(clocked["seats"][0]["token"])
    )
    assert moved.status_code == 201, moved.get_json()
    time.sleep(2.1)
    assert gid in services.clocks.expire(now=time.time())
    meta = client.get(f"/api/games/{gid}").get_json()
    assert meta["status"] == "finished" and meta["result"]["cancelled"] and meta["result"]["forfeited"] == []
    assert row(client, "toy", farmer) is None
    assert refused_rating(client, gid)["code"] in ("too_few_moves", "not_rateable")
    export = client.get(f"/api/games/{gid}/export").get_data(as_text=True)
    assert rfold.results_from_export(split_trailer(parse_lines(export))[0]) is None  # verify-ratings agrees


def test_repeated_meetings_in_one_day_weigh_less():
    one = {"game": "toy", "head": "h", "seq": 9, "accounts": ["a", "b"], "ranking": [1, 2], "rules": 2}
    same_day = [{**one, "game_id": f"g{i}", "finished_at": f"2026-11-27T10:0{i}:00Z"} for i in range(4)]
    apart = [{**one, "game_id": f"g{i}", "finished_at": f"2026-11-2{i}T10:00:00Z"} for i in range(4)]
    farmed, earned = rfold.fold(same_day)["toy"]["a"], rfold.fold(apart)["toy"]["a"]
    assert farmed["games"] == earned["games"] == 4
    assert farmed["mu"] < earned["mu"]
    steps = [h["mu"] for h in farmed["history"]]
    gains = [later - earlier for earlier, later in zip([25.0, *steps], steps)]
    assert all(g2 < g1 for g1, g2 in zip(gains, gains[1:]))
    old = [{k: v for k, v in r.items() if k != "rules"} for r in same_day]  # rules 1: refolds as rated then
    assert rfold.fold(old)["toy"]["a"]["mu"] == earned["mu"]


def test_a_rating_farmed_from_one_opponent_does_not_seed_a_tournament(client):
    (farmer, f_session), (_, t_session) = new_account(client, "seed"), new_account(client, "mate")
    for _ in range(5):
        roll_out(client, bound_game(client, [f_session, t_session], options={"rounds": 1}))
    mine = row(client, "toy", farmer)
    assert mine["games"] == 5 and mine["opponents"] == 1 and mine["seeds"] is False
    tid, _ = tournament(client, 2)
    registered = client.post(f"/api/tournaments/{tid}/players", json={}, headers=auth(f_session))
    assert registered.status_code == 201, registered.get_json()
    assert registered.get_json()["rating"] is None


def test_a_tournament_computer_seat_rates_nobody_under_rules_2():
    """A withdrawn tournament player's seat, played on by a computer, leaves the rated
    result; the people left are rated on the ranks they earned."""
    pstate = {
        "game_id": "w2",
        "game": "toy",
        "status": "finished",
        "ranked": True,
        "tournament": {"id": "t1"},
        "bots": {"1": 1},
        "withdrawn": [1],
        "forfeits": [],
        "result": {"ranking": [2, 3, 1]},
        "accounts": {"0": "ann", "1": "bob", "2": "cy"},
        "seats": ["a", "b", "c"],
        "history": [[4, 0, False], [5, 1, False], [6, 2, False]],
        "head": "h",
        "seq": 9,
        "ratings_rules": 2,
    }
    assert rfold.unrated_because(pstate, []) is None
    result = rfold.result_of(pstate, "2026-11-27T10:00:00Z")
    assert (result["accounts"], result["ranking"], result["rules"]) == (["ann", "cy"], [2, 1], 2)
    two = {**pstate, "seats": ["a", "b"], "accounts": {"0": "ann", "1": "bob"}, "result": {"ranking": [1, 2]}}
    assert rfold.unrated_because(two, []) == "not_rateable"  # one person left: nothing to rate
    assert rfold.unrated_because({**pstate, "ratings_rules": 1}, []) is None
    assert rfold.result_of({**pstate, "ratings_rules": 1}, "t")["accounts"] == ["ann", "bob", "cy"]


def test_six_caylus_games_against_a_throwaway_on_a_3s_clock_rate_nothing(client, services):
    """The reported farm: a throwaway that makes at most one move per game and lets its
    3-second clock run out. Then: 6 of 6 rated, the farmer first on the leaderboard."""
    (farmer, f_session), (_, t_session) = new_account(client, "cfarm"), new_account(client, "cthrow")
    rand, codes = random.Random(6), []
    for n in range(6):
        created = client.post(
            "/api/games",
            json={
                "game": "caylus",
                "seats": ["f", "t"],
                "account_seat": 0,
                "clock": {"base": 3, "increment": 0, "first_move": 3},
            },
            headers=auth(f_session),
        ).get_json()
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        claim = client.post(f"/api/games/{gid}/claim", json={"seat_token": tokens[1]}, headers=auth(t_session))
        tokens[1] = claim.get_json()["seat_token"]
        throwaway_moved = n % 2  # every other game the throwaway makes its one move
        for _ in range(200):
            meta = client.get(f"/api/games/{gid}").get_json()
            if meta["status"] == "finished" or meta["to_act"] == [1] and not throwaway_moved:
                break
            seat = meta["to_act"][0]
            actions = client.get(f"/api/games/{gid}/actions", headers=auth(tokens[seat])).get_json()["actions"]
            client.post(f"/api/games/{gid}/actions", json=rand.choice(actions), headers=auth(tokens[seat]))
            if seat == 1:
                throwaway_moved = 0
        time.sleep(3.1)
        services.clocks.expire(now=time.time())
        meta = client.get(f"/api/games/{gid}").get_json()
        result = meta["result"]
        assert meta["status"] == "finished" and (1 in result["forfeited"] or result.get("cancelled")), result
        codes.append(refused_rating(client, gid)["code"])
    # a throwaway that never moves cancels the game (its first-move allowance ran out)
    assert set(codes) <= {"too_few_moves", "refereed_result", "not_rateable"} and "too_few_moves" in codes, codes
    assert row(client, "caylus", farmer) is None
