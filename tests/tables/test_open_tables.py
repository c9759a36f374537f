"""Open tables: opened by an account, found in the lobby's list, joined with one request,
started as a game of the same id when full; invitations declined; tables expire."""

from __future__ import annotations

import secrets
import time

from events.writer import StreamWriter
from service.adapters.tables import RedisTableIndex
from service.services.tables import Tables
from tests.accounts.helpers import auth, new_account, roll_out
from tests.services import services_over


def share() -> str:
    return secrets.token_hex(32)


def open_table(client, session: str, **body) -> dict:
    answer = client.post(
        "/api/tables", json={"game": "toy", "seats": 2, "contribution": share(), **body}, headers=auth(session)
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_an_open_table_is_listed_joined_and_started_with_each_account_in_its_seat(client):
    alice, alice_session = new_account(client, "alice")
    bob, bob_session = new_account(client, "bob")
    table = open_table(client, alice_session, options={"rounds": 1})
    assert table["status"] == "open" and table["free_seats"] == [1]
    assert table["seats"][0]["account"] == alice
    listed = client.get("/api/tables").get_json()["tables"]
    assert table["id"] in [t["id"] for t in listed]

    joined = client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob_session))
    assert joined.status_code == 201, joined.get_json()
    started = joined.get_json()
    assert started["status"] == "started" and started["game_id"] == table["id"]
    assert table["id"] not in [t["id"] for t in client.get("/api/tables").get_json()["tables"]]

    meta = client.get(f"/api/games/{table['id']}").get_json()
    assert meta["accounts"] == {"0": alice, "1": bob}
    assert [s["name"] for s in meta["seats"]] == [alice, bob]
    assert meta["seed_commitment"] == table["seed_commitment"]  # committed before anyone contributed
    # each account's session speaks for its seat: no seat token, no claim
    finished = roll_out(client, {"id": table["id"], "seats": [{"token": alice_session}, {"token": bob_session}]})
    assert finished["status"] == "finished"

    log = client.get(f"/api/tables/{table['id']}").get_json()
    assert log["status"] == "started"


def test_every_change_to_the_table_is_an_entry_of_its_log(client, services):
    _, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    table = open_table(client, alice_session)
    client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob_session))
    from events.store import table_stream

    kinds = [e["type"] for e in services.store.read(table_stream(table["id"]))]
    assert kinds == ["table.opened", "seat.taken", "seat.taken", "table.started"]
    created = services.log.read(table["id"], upto=1)[0]
    assert [c["seat"] for c in created["payload"]["deal"]["contributions"]] == [0, 1]


def test_computer_seats_fill_the_rest_and_say_their_share_is_the_servers(client, services):
    _, alice_session = new_account(client, "alice")
    table = open_table(client, alice_session, game="carcassonne_castle", bots=[{"seat": 1, "strength": 1}])
    assert table["status"] == "started"  # the creator's seat was the only free one
    deal = services.log.read(table["id"], upto=1)[0]["payload"]["deal"]["contributions"]
    assert deal[1] == {"seat": 1, "from": "server"} and len(deal[0]["value"]) == 64


def test_a_seat_is_taken_once_and_an_account_sits_once(client):
    _, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    _, carol_session = new_account(client, "carol")
    table = open_table(client, alice_session, seats=3)
    again = client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(alice_session))
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "already_seated"
    taken = client.post(
        f"/api/tables/{table['id']}/seats", json={"contribution": share(), "seat": 0}, headers=auth(bob_session)
    )
    assert taken.status_code == 409 and taken.get_json()["error"]["code"] == "seat_taken"
    client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob_session))
    client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(carol_session))
    _, dave_session = new_account(client, "dave")
    late = client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(dave_session))
    assert late.status_code == 409 and late.get_json()["error"]["code"] == "table_closed"


def test_bad_requests_are_refused_and_write_nothing(client, services):
    _, alice_session = new_account(client, "alice")
    before = client.get("/api/tables").get_json()["tables"]
    cases = [
        ({"game": "toy", "seats": 2, "contribution": "nothex"}, alice_session, 400),
        ({"game": "toy", "seats": 2, "contribution": share().upper()}, alice_session, 400),
        ({"game": "toy", "seats": 2}, alice_session, 400),
        ({"game": "nosuch", "seats": 2, "contribution": share()}, alice_session, 400),
        ({"game": "toy", "seats": 9, "contribution": share()}, alice_session, 400),
        ({"game": "toy", "seats": 2, "contribution": share(), "seat": 5}, alice_session, 400),
        ({"game": "toy", "seats": 2, "contribution": share(), "invited": ["nobody-here-x"]}, alice_session, 404),
        ({"game": "toy", "seats": 2, "contribution": share()}, None, 401),
    ]
    for body, session, status in cases:
        answer = client.post("/api/tables", json=body, headers=auth(session))
        assert answer.status_code == status, (body, answer.get_json())
        assert "error" in answer.get_json()
    assert client.get("/api/tables").get_json()["tables"] == before
    assert client.get("/api/tables/nosuchtable").status_code == 404
    r = client.post("/api/tables/nosuchtable/seats", json={"contribution": share()}, headers=auth(alice_session))
    assert r.status_code == 404


def test_an_invitee_sees_the_table_and_may_decline(client):
    _, alice_session = new_account(client, "alice")
    carol, carol_session = new_account(client, "carol")
    _, dave_session = new_account(client, "dave")
    table = open_table(client, alice_session, invited=[carol.upper()], listed=False)
    assert table["invited"] == [carol]  # as the account spells its name
    assert table["id"] not in [t["id"] for t in client.get("/api/tables").get_json()["tables"]]
    mine = client.get("/api/me/tables", headers=auth(carol_session)).get_json()["tables"]
    assert table["id"] in [t["id"] for t in mine]
    stranger = client.post(f"/api/tables/{table['id']}/decline", headers=auth(dave_session))
    assert stranger.status_code == 403
    declined = client.post(f"/api/tables/{table['id']}/decline", headers=auth(carol_session))
    assert declined.status_code == 200
    assert declined.get_json()["invited"] == [] and declined.get_json()["declined"] == [carol]


def test_an_open_table_expires_and_says_so(client, services, redis_client):
    _, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    table = open_table(client, alice_session, expires_in=60)
    later = Tables(
        services.store,
        StreamWriter(services.store),
        RedisTableIndex(redis_client),
        services.games,
        services.accounts,
        now=lambda: time.time() + 61,
    )
    assert table["id"] not in [t["id"] for t in later.open_tables(500)]
    assert later.state(table["id"])["status"] == "expired"
    joined = client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob_session))
    assert joined.status_code == 409 and joined.get_json()["error"]["details"]["status"] == "expired"
    assert not services_over(redis_client).games.exists(table["id"])


def test_the_draws_mix_every_share_and_verify_checks_the_deal(client, services):
    from events.rng import SeededRng, mixed
    from projections import fold
    from service.audit.exports import verify
    from tests.toygame import TOY

    _, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    table = open_table(client, alice_session, options={"rounds": 1})
    client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob_session))
    roll_out(client, {"id": table["id"], "seats": [{"token": alice_session}, {"token": bob_session}]})
    lines = [
        __import__("json").loads(line) for line in client.get(f"/api/games/{table['id']}/export").data.splitlines()
    ]
    envelopes = [e for e in lines if "seq" in e]
    seed = envelopes[-1]["payload"]["seed"]
    values = [c["value"] for c in envelopes[0]["payload"]["deal"]["contributions"]]
    state = fold.InMemoryHistory(envelopes, seed).state_at(1)["state"]
    options = {"rounds": 1, "rules_version": 1}
    assert state == TOY.setup(options, 2, SeededRng(mixed(seed, values)))
    assert state != TOY.setup(options, 2, SeededRng(seed))  # the server's seed alone does not make the deal

    report = verify(lines, require_signature=False)
    assert report["ok"] and report["checks"]["deal"] == "ok" and report["checks"]["refold"] == "ok"

    # a value changed after the fact (re-hashed by a forger) no longer gives the recorded rolls
    forged = [dict(e) for e in envelopes]
    created = dict(forged[0]["payload"])
    shares = [dict(c) for c in created["deal"]["contributions"]]
    shares[1]["value"] = share()
    created["deal"] = {**created["deal"], "contributions": shares}
    forged[0]["payload"] = created
    refolded = fold.InMemoryHistory(forged, seed).state_at(1)["state"]
    assert refolded != state


def test_a_game_created_without_a_table_draws_from_the_servers_seed_alone(client, services):
    from events.rng import SeededRng
    from tests.toygame import TOY

    created = client.post("/api/games", json={"game": "toy", "seats": ["a", "b"]}).get_json()
    assert "deal" not in services.log.read(created["id"], upto=1)[0]["payload"]
    seed = services.log.seed(created["id"])
    state = services.log.state(created["id"])
    assert "deal" not in state
    assert state["state"] == TOY.setup({"rounds": 3, "rules_version": 1}, 2, SeededRng(seed))


def test_the_creator_fills_the_free_seats_with_computers_and_the_game_starts(client, services):
    _, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    table = open_table(client, alice_session, game="carcassonne_castle")
    url = f"/api/tables/{table['id']}/computers"
    assert client.post(url, json={"strength": 1}, headers=auth(bob_session)).status_code == 403
    assert client.post(url, json={"strength": 9}, headers=auth(alice_session)).status_code == 400
    filled = client.post(url, json={"strength": 1}, headers=auth(alice_session))
    assert filled.status_code == 200 and filled.get_json()["status"] == "started"
    meta = client.get(f"/api/games/{table['id']}").get_json()
    assert meta["seats"][1]["bot"] == 1
    deal = services.log.read(table["id"], upto=1)[0]["payload"]["deal"]["contributions"]
    assert deal[1] == {"seat": 1, "from": "server"}
    again = client.post(url, json={"strength": 1}, headers=auth(alice_session))
    assert again.status_code == 409


def test_a_game_without_computer_players_refuses_them(client):
    _, alice_session = new_account(client, "alice")
    table = open_table(client, alice_session)  # toy plays by no computer
    r = client.post(f"/api/tables/{table['id']}/computers", json={}, headers=auth(alice_session))
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "no_computer_player"
    assert client.get(f"/api/tables/{table['id']}").get_json()["status"] == "open"


def test_a_start_cut_short_is_finished_by_the_next_look_and_only_once(client, services, redis_client):
    """The last seat taken and the worker gone before the game was made: while another
    request holds the start nobody else makes the game (a second creation would take the
    game's seed with it); once the claim lapses, the next look makes it."""
    from events.store import game_stream, table_stream

    _, alice_session = new_account(client, "alice")
    bob, _ = new_account(client, "bob")
    table = open_table(client, alice_session)
    index = RedisTableIndex(redis_client)
    stalled = Tables(services.store, StreamWriter(services.store), index, services.games, services.accounts)
    assert index.claim_start(table["id"], 60)  # a start under way in another worker
    taken = {"seat": 1, "account": bob, "contribution": share()}
    stalled._append(table["id"], lambda s: [("seat.taken", {"role": "system"}, taken)])  # noqa: SLF001
    waiting = client.get(f"/api/tables/{table['id']}").get_json()
    assert waiting["status"] == "open" and waiting["free_seats"] == []
    assert not services.games.exists(table["id"])

    redis_client.delete(f"table:{{{table['id']}}}:starting")  # that worker died: its claim lapses
    started = client.get(f"/api/tables/{table['id']}").get_json()
    assert started["status"] == "started" and started["game_id"] == table["id"]
    seed = services.store.seed(game_stream(table["id"]))
    assert seed is not None and seed == services.store.seed(table_stream(table["id"]))
    assert client.get(f"/api/games/{table['id']}").get_json()["seed_commitment"] == table["seed_commitment"]


def test_opening_tables_counts_against_the_creation_budget(redis_url, redis_client):
    """Opening a table makes a game as creating one does: the same per-address budget."""
    from service.app import create_app

    for key in redis_client.scan_iter(match="*ratelimit*"):
        redis_client.delete(key)
    limited = create_app(
        {
            "REDIS_URL": redis_url,
            "CLOCK_SWEEP_SECONDS": 0,
            "RATE_LIMITS_ENABLED": True,
            "RATE_LIMIT_CREATE": "2 per minute",
        }
    ).test_client()
    _, session = new_account(limited, "opener")
    body = {"game": "toy", "seats": 2}
    codes = [
        limited.post("/api/tables", json={**body, "contribution": share()}, headers=auth(session)).status_code
        for _ in range(3)
    ]
    assert codes == [201, 201, 429]
    for key in redis_client.scan_iter(match="*ratelimit*"):
        redis_client.delete(key)


def test_the_tables_log_is_exported_and_shows_the_commitment_came_first(client):
    from events.chain import check_links
    from events.rng import commitment

    _, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    table = open_table(client, alice_session, options={"rounds": 1})
    client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob_session))
    roll_out(client, {"id": table["id"], "seats": [{"token": alice_session}, {"token": bob_session}]})
    answer = client.get(f"/api/tables/{table['id']}/export")
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    entries = [__import__("json").loads(line) for line in answer.data.splitlines()]
    check_links(entries)  # every entry linked and re-hashed
    assert [e["type"] for e in entries] == ["table.opened", "seat.taken", "seat.taken", "table.started"]
    game = [__import__("json").loads(line) for line in client.get(f"/api/games/{table['id']}/export").data.splitlines()]
    seed = next(e for e in game if e.get("type") == "game.finished")["payload"]["seed"]
    assert commitment(seed) == entries[0]["payload"]["seed_commitment"]  # committed before the first share
    shares = [e["payload"]["contribution"] for e in entries if e["type"] == "seat.taken"]
    assert [c["value"] for c in game[0]["payload"]["deal"]["contributions"]] == shares
    assert client.get("/api/tables/nosuchtable/export").status_code == 404


def test_a_table_names_a_referee_who_takes_no_seat_and_alone_gets_the_games_referee_token(client):
    """A game from an open table had no referee at all (its token was dropped at the
    start): no chat message could be hidden, no dispute settled. A table may name one."""
    _, alice = new_account(client, "alice")
    bob_name, bob = new_account(client, "bob")
    cara_name, cara = new_account(client, "cara")
    for refused in ({"referee": "nobody-of-that-name"}, {"referee": bob_name, "invited": [bob_name]}):
        r = client.post(
            "/api/tables", json={"game": "toy", "seats": 2, "contribution": share(), **refused}, headers=auth(alice)
        )
        assert r.status_code in (400, 404), r.get_json()
    table = open_table(client, alice, referee=cara_name)
    assert table["referee"] == cara_name
    sit = client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(cara))
    assert sit.status_code == 403 and sit.get_json()["error"]["code"] == "referee_takes_no_seat"
    early = client.get(f"/api/tables/{table['id']}/referee", headers=auth(cara))
    assert early.status_code == 409 and early.get_json()["error"]["code"] == "not_started"
    client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob))
    for other in (alice, bob):
        r = client.get(f"/api/tables/{table['id']}/referee", headers=auth(other))
        assert r.status_code == 403 and r.get_json()["error"]["code"] == "not_the_referee"
    assert client.get(f"/api/tables/{table['id']}/referee").status_code == 401
    given = client.get(f"/api/tables/{table['id']}/referee", headers=auth(cara)).get_json()
    assert given["game_id"] == table["id"] and given["link"].endswith(given["token"])
    view = client.get(f"/api/games/{table['id']}/view", headers=auth(given["token"])).get_json()
    assert view["viewer"]["role"] == "referee"
    said = client.post(f"/api/games/{table['id']}/chat", json={"text": "hello"}, headers=auth(bob)).get_json()
    hidden = client.post(
        f"/api/games/{table['id']}/chat/{said['id']}/hide", json={"reason": "test"}, headers=auth(given["token"])
    )
    assert hidden.status_code == 200, hidden.get_json()
