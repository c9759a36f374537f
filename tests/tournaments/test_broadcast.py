"""The broadcast of a round: the director's feed delay (audited in the tournament
stream) and the delayed omniscient feed, signed, never ahead of the delay."""

from __future__ import annotations

import hashlib
import random
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.envelope import canonical_json, parse_ts
from events.signing import check, keyring, trusted
from projections import fold
from projections.games.base import REFEREE

from .bots import bearer


def paired_cup(client):
    created = client.post(
        "/api/tournaments", json={"game": "toy", "name": "Cup", "options": {"table_size": 2, "rounds": 1}}
    ).get_json()
    tid, director = created["id"], created["director_token"]
    for name in ("Ann", "Bob"):
        client.post(f"/api/tournaments/{tid}/players", json={"name": name})
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    return tid, director, pairing


def play(client, game_id, tokens, moves, rand):
    for _ in range(moves):
        meta = client.get(f"/api/games/{game_id}").get_json()
        for seat in meta["to_act"]:
            offer = client.get(f"/api/games/{game_id}/actions", headers=bearer(tokens[seat])).get_json()
            action = rand.choice([a for a in offer["actions"] if a["type"] == "play"] or offer["actions"])
            answer = client.post(
                f"/api/games/{game_id}/actions",
                headers=bearer(tokens[seat]),
                json={**action, "action_id": str(uuid.uuid4()), "expected_seq": offer["seq"]},
            )
            assert answer.status_code in (200, 201), answer.get_json()


def test_the_feed_shows_the_referee_view_held_back_by_the_directors_delay_and_signed(client):
    tid, director, pairing = paired_cup(client)
    table = pairing["tables"][0]
    game_id = table["game_id"]
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    referee = client.get(f"/api/tournaments/{tid}/rounds/1", headers=bearer(director)).get_json()["tables"][0]
    url = f"/api/tournaments/{tid}/games/{game_id}/omniscient"

    before = client.get(url).get_json()  # the default: nothing until the game is over
    assert before["seq"] is None and before["position"] is None and before["delay"] == {"after_game": True}

    set_ = client.post(
        f"/api/tournaments/{tid}/feed-delay", headers=bearer(director), json={"delay": {"entries": 2}, "reason": "tv"}
    )
    assert set_.status_code == 200, set_.get_json()
    play(client, game_id, tokens, 4, random.Random(3))
    head = client.get(f"/api/games/{game_id}").get_json()["seq"]

    frame = client.get(url).get_json()
    assert frame["seq"] == head - 2
    at = client.get(f"/api/games/{game_id}/view?at={frame['seq']}", headers=bearer(referee["referee_token"]))
    assert frame["position"]["view"] == at.get_json()["view"]
    assert "deck_order" in frame["position"]["view"]  # the omniscient part: the referee's view
    spectator = client.get(f"/api/games/{game_id}/view").get_json()["view"]
    assert isinstance(spectator["hands"][0], int)  # a spectator still sees only counts

    keys = keyring(trusted(client.get("/api/keys").get_json()))
    signature = frame["signature"]
    assert check(signature, keys) == "ok"
    body = canonical_json({k: v for k, v in frame.items() if k != "signature"})
    assert signature["digest"] == hashlib.sha256(body.encode()).hexdigest()
    assert (signature["tournament"], signature["game_id"], signature["seq"]) == (tid, game_id, frame["seq"])

    audit = client.get(f"/api/tournaments/{tid}/feed-delay").get_json()
    assert audit["feed_delay"] == {"entries": 2}
    [change] = audit["changes"]
    assert change["delay"] == {"entries": 2} and change["reason"] == "tv"
    assert change["actor"]["name"] == "tournament director" and change["ts"]


def test_a_bad_delay_or_caller_is_refused_and_nothing_is_written(client):
    tid, director, pairing = paired_cup(client)
    events = client.get(f"/api/tournaments/{tid}").get_json()
    url = f"/api/tournaments/{tid}/feed-delay"
    for body in (
        {"delay": {"minutes": -1}},
        {"delay": {"entries": 1, "minutes": 1}},
        {"delay": 5},
        {},
        {"delay": {"after_game": False}},
    ):
        answer = client.post(url, headers=bearer(director), json=body)
        assert answer.status_code == 400, (body, answer.get_json())
        assert answer.get_json()["error"]["code"] == "bad_request"
    assert client.post(url, json={"delay": {"entries": 1}}).status_code == 401
    player = pairing["tables"][0]["seats"][0]["token"]
    assert client.post(url, headers=bearer(player), json={"delay": {"entries": 1}}).status_code in (401, 403)
    assert client.post(
        "/api/tournaments/nope/feed-delay", headers=bearer(director), json={"delay": {"entries": 1}}
    ).status_code in (401, 403, 404)
    assert client.get(f"/api/tournaments/{tid}").get_json() == events
    assert client.get(f"/api/tournaments/{tid}/games/other/omniscient").status_code == 404
    assert client.get("/api/tournaments/nope/games/other/omniscient").status_code == 404


def test_at_any_moment_the_frame_is_the_referee_view_of_the_latest_entry_older_than_the_delay(client, services):
    tid, _, pairing = paired_cup(client)
    table = pairing["tables"][0]
    game_id = table["game_id"]
    play(client, game_id, {s["seat"]: s["token"] for s in table["seats"]}, 5, random.Random(5))
    assert services.log.state(game_id)["status"] == "active"
    entries = services.log.read(game_id)
    times = [parse_ts(e["ts"]) for e in entries]

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(
        delay=st.one_of(
            st.builds(lambda n: {"entries": n}, st.integers(0, len(entries) + 1)),
            st.builds(lambda m: {"minutes": m}, st.floats(0, 2)),
            st.just({"after_game": True}),
        ),
        now=st.floats(times[0] - 5, times[-1] + 180),
    )
    def at(delay: dict, now: float) -> None:
        services.tournaments.set_feed_delay(tid, delay)
        frame = services.broadcast.frame(tid, game_id, now)
        written = [e for e, ts in zip(entries, times) if ts <= now]
        if "entries" in delay:
            older = written[: max(0, len(written) - delay["entries"])]
        elif "minutes" in delay:
            older = [e for e, ts in zip(entries, times) if ts <= now - delay["minutes"] * 60]
        else:
            older = []  # the game is still being played
        if not older:
            assert frame["seq"] is None and frame["position"] is None
            return
        assert frame["seq"] == older[-1]["seq"]
        p = services.log.state_at(game_id, frame["seq"])
        assert frame["position"]["view"] == fold.game_of(p).view(p["state"], REFEREE)

    at()


def test_a_bundle_with_delay_changes_still_verifies(client):
    from service.audit.bundles import verify_tournament

    from .bots import play_round

    tid, director, pairing = paired_cup(client)
    for delay in ({"minutes": 2}, {"entries": 3}):
        assert (
            client.post(
                f"/api/tournaments/{tid}/feed-delay", headers=bearer(director), json={"delay": delay}
            ).status_code
            == 200
        )
    play_round(client, tid, pairing, random.Random(2))
    bundle = client.get(f"/api/tournaments/{tid}/export").get_json()
    assert [e["payload"]["delay"] for e in bundle["tournament"] if e["type"] == "feed.delay_set"] == [
        {"minutes": 2},
        {"entries": 3},
    ]
    report = verify_tournament(bundle)
    assert report["ok"], report
