"""Binding seats to accounts: a seat.bound entry in the game's own log, at creation or
claimed with the seat's token; every refusal is a 4xx with nothing written."""

from __future__ import annotations

from service.audit.exports import parse_lines

from .helpers import auth, bound_game, new_account, roll_out


def seq_of(client, gid):
    return client.get(f"/api/games/{gid}").get_json()["seq"]


def test_creation_and_claim_are_entries_of_the_log(client):
    (ann, s_ann), (bob, s_bob) = new_account(client, "ann"), new_account(client, "bob")
    created = bound_game(client, [s_ann, s_bob], options={"rounds": 1})
    gid = created["id"]
    meta = client.get(f"/api/games/{gid}").get_json()
    assert meta["accounts"] == {"0": ann, "1": bob}
    bound = [e for e in client.get(f"/api/games/{gid}/events").get_json()["events"] if e["type"] == "seat.bound"]
    assert [(e["seq"], e["actor"], e["payload"]) for e in bound] == [
        (2, {"role": "system"}, {"seat": 0, "account": ann}),
        (3, {"seat": 1}, {"seat": 1, "account": bob}),
    ]
    roll_out(client, created)
    export = client.get(f"/api/games/{gid}/export").get_data(as_text=True)
    verdict = client.post("/api/verify", data=export, content_type="application/x-ndjson").get_json()
    assert verdict["ok"] and verdict["verdict"] == "verified"
    assert [e["payload"]["account"] for e in parse_lines(export) if e.get("type") == "seat.bound"] == [ann, bob]
    profile = client.get(f"/api/accounts/{bob}").get_json()
    assert [g["id"] for g in profile["games"]] == [gid]
    assert profile["games"][0]["seat"] == 1 and profile["games"][0]["replay"] == f"/games/{gid}/replay"


def test_a_claim_of_ones_own_seat_again_is_answered_without_writing(client):
    (_, s_ann), (_, s_bob) = new_account(client, "cy"), new_account(client, "di")
    created = bound_game(client, [s_ann, s_bob])
    before = seq_of(client, created["id"])
    again = client.post(
        f"/api/games/{created['id']}/claim", json={"seat_token": created["seats"][1]["token"]}, headers=auth(s_bob)
    )
    assert again.status_code == 200 and again.get_json()["seq"] == before
    assert seq_of(client, created["id"]) == before


def test_refusals_write_nothing(client):
    (_, s_ann), (_, s_bob), (_, s_cat) = (new_account(client, n) for n in ("el", "fo", "gi"))
    created = client.post(
        "/api/games",
        json={"game": "toy", "seats": ["a", "b", "c"], "options": {"rounds": 1}, "account_seat": 0},
        headers=auth(s_ann),
    ).get_json()
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    first = client.post(f"/api/games/{gid}/claim", json={"seat_token": tokens[1]}, headers=auth(s_bob))
    assert first.status_code == 201
    before = seq_of(client, gid)

    def claim(token, session):
        return client.post(f"/api/games/{gid}/claim", json={"seat_token": token}, headers=auth(session))

    cases = [
        (claim(tokens[1], s_cat), 409, "seat_taken"),  # someone else holds it
        (claim(tokens[2], s_ann), 409, "account_seated"),  # one account, one seat
        (claim("not-a-token", s_cat), 403, "bad_seat_token"),
        (claim(created["referee_token"], s_cat), 403, "bad_seat_token"),
        (claim(tokens[2], None), 401, "no_session"),
        (claim(tokens[2], "made-up"), 401, "bad_session"),
        (client.post(f"/api/games/{gid}/claim", json={}, headers=auth(s_cat)), 400, "bad_request"),
        (
            client.post("/api/games/nosuchgame/claim", json={"seat_token": tokens[2]}, headers=auth(s_cat)),
            404,
            "not_found",
        ),
    ]
    for answer, status, code in cases:
        assert (answer.status_code, answer.get_json()["error"]["code"]) == (status, code), answer.get_json()
    assert seq_of(client, gid) == before
    for token in (tokens[0], first.get_json()["seat_token"], tokens[2]):
        client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(token))
    finished = seq_of(client, gid)
    late = claim(tokens[2], s_cat)
    assert (late.status_code, late.get_json()["error"]["code"]) == (409, "game_finished")
    assert seq_of(client, gid) == finished


def test_creation_binding_needs_a_session_and_a_persons_seat(client):
    _, s_ann = new_account(client, "hu")
    no_session = client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "account_seat": 0})
    assert no_session.status_code == 401
    bot_seat = client.post(
        "/api/games", json={"game": "toy", "seats": ["a", "b"], "account_seat": 5}, headers=auth(s_ann)
    )
    assert bot_seat.status_code == 400 and bot_seat.get_json()["error"]["code"] == "bad_seat"


def test_account_seat_is_a_strict_integer(client):
    _, s_ann = new_account(client, "si")
    for seat in ("0", 0.5, "x"):
        answer = client.post(
            "/api/games", json={"game": "toy", "seats": ["a", "b"], "account_seat": seat}, headers=auth(s_ann)
        )
        assert answer.status_code == 400, (seat, answer.get_json())
        assert answer.get_json()["error"]["code"] == "bad_request"


def test_the_same_claim_sent_many_times_at_once_binds_once_and_answers_alike(app, client):
    """A client retrying its claim (or two tabs) must not see 409: the seat ends bound to
    this account either way, so each answer is 201 (bound by it) or 200 (already)."""
    import threading

    name, session = new_account(client, "twin")
    created = client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "options": {}}).get_json()
    seat_token = created["seats"][1]["token"]
    barrier, answers = threading.Barrier(8), []

    def claim():
        mine = app.test_client()
        barrier.wait()
        r = mine.post(f"/api/games/{created['id']}/claim", json={"seat_token": seat_token}, headers=auth(session))
        answers.append((r.status_code, r.get_json()))

    threads = [threading.Thread(target=claim) for _ in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(s for s, _ in answers).count(201) == 1, answers
    assert all(s in (200, 201) for s, _ in answers), answers
    events = client.get(f"/api/games/{created['id']}/events").get_json()["events"]
    assert [e["payload"] for e in events if e["type"] == "seat.bound"] == [{"seat": 1, "account": name}]


def test_a_claim_takes_the_seat_from_whoever_else_holds_its_token(client):
    """Trust round three, 2: Mallory creates a game and keeps her copy of seat 1's token;
    Victim claims seat 1. The claim answers a new token; Mallory's copy no longer plays,
    writes notes, asks for undos or reads the seat's view, while Victim's new token and
    his session do."""
    (_, s_mallory), (victim, s_victim) = new_account(client, "mal"), new_account(client, "vic")
    created = client.post(
        "/api/games",
        json={"game": "toy", "seats": ["m", "v"], "options": {"rounds": 2}, "account_seat": 0},
        headers=auth(s_mallory),
    ).get_json()
    gid, old = created["id"], created["seats"][1]["token"]
    claimed = client.post(f"/api/games/{gid}/claim", json={"seat_token": old}, headers=auth(s_victim))
    assert claimed.status_code == 201
    new = claimed.get_json()["seat_token"]
    assert new and new != old
    assert (
        client.post(
            f"/api/games/{gid}/actions",
            json={"type": "roll", "payload": {}},
            headers=auth(created["seats"][0]["token"]),
        ).status_code
        == 201
    )
    before = seq_of(client, gid)
    for method, path, body in (
        ("post", "/actions", {"type": "roll", "payload": {}}),
        ("post", "/annotations", {"seq": 1, "text": "I resign", "kind": "comment"}),
        ("post", "/undo", {"to_seq": 1}),
        ("get", "/view", None),
        ("get", "/actions", None),
    ):
        answer = getattr(client, method)(f"/api/games/{gid}{path}", json=body, headers=auth(old))
        assert answer.status_code == 401 and answer.get_json()["error"]["code"] == "token_revoked", (path, answer.json)
    assert seq_of(client, gid) == before
    view = client.get(f"/api/games/{gid}/view", headers=auth(s_victim)).get_json()
    assert view["viewer"] == {"seat": 1}
    assert (
        client.post(f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(new)).status_code
        == 201
    )
    assert (
        client.post(
            f"/api/games/{gid}/actions",
            json={"type": "roll", "payload": {}},
            headers=auth(created["seats"][0]["token"]),
        ).status_code
        == 201
    )
    assert (
        client.post(
            f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(s_victim)
        ).status_code
        == 201
    )
    again = client.post(f"/api/games/{gid}/claim", json={"seat_token": old}, headers=auth(s_victim))
    assert again.status_code == 200 and again.get_json()["seat_token"] not in (old, new)
    assert client.post(f"/api/games/{gid}/claim", json={"seat_token": old}, headers=auth(s_mallory)).status_code == 409
    assert client.get(f"/api/accounts/{victim}").get_json()["games"][0]["id"] == gid
