"""Accounts through the API: creation, names, passwords, sessions, and every refusal
of the issue (wrong password, taken or look-alike names) with nothing written."""

from __future__ import annotations

from service.adapters import keys

from .helpers import PASSWORD, auth, new_account, unique


def count_accounts(redis_client) -> int:
    return redis_client.hlen(keys.ACCOUNTS)


def test_create_login_me_logout(client):
    name, first = new_account(client, "ann")
    assert client.get("/api/me", headers=auth(first)).get_json()["name"] == name
    login = client.post("/api/sessions", json={"name": name, "password": PASSWORD})
    assert login.status_code == 201
    second = login.get_json()["token"]
    assert second != first
    assert client.delete("/api/sessions/current", headers=auth(first)).get_json() == {"name": name, "revoked": 1}
    refused = client.get("/api/me", headers=auth(first))
    assert refused.status_code == 401 and refused.get_json()["error"]["code"] == "bad_session"
    assert client.get("/api/me", headers=auth(second)).status_code == 200  # the other session lives on


def test_logout_everywhere_revokes_every_session(client):
    name, first = new_account(client, "bea")
    others = [
        client.post("/api/sessions", json={"name": name, "password": PASSWORD}).get_json()["token"] for _ in range(2)
    ]
    answer = client.delete("/api/sessions", headers=auth(others[0]))
    assert answer.get_json() == {"name": name, "revoked": 3}
    for token in [first, *others]:
        assert client.get("/api/me", headers=auth(token)).status_code == 401


def test_login_by_look_of_the_name(client):
    name, _ = new_account(client, "Cleo")
    assert client.post("/api/sessions", json={"name": name.upper(), "password": PASSWORD}).status_code == 201


def test_wrong_password_and_unknown_name_answer_alike(client, redis_client):
    name, _ = new_account(client, "dan")
    sessions = redis_client.hlen(keys.ACCOUNT_SESSIONS)
    wrong = client.post("/api/sessions", json={"name": name, "password": "not the password"})
    unknown = client.post("/api/sessions", json={"name": unique("nobody"), "password": PASSWORD})
    for answer in (wrong, unknown):
        assert answer.status_code == 401
        assert answer.get_json()["error"]["code"] == "bad_credentials"
    assert wrong.get_json()["error"]["message"] == unknown.get_json()["error"]["message"]
    assert redis_client.hlen(keys.ACCOUNT_SESSIONS) == sessions


def test_taken_and_look_alike_names_are_refused_and_nothing_written(client, redis_client):
    name, _ = new_account(client, "eve")
    before = count_accounts(redis_client)
    for other in (name, name.upper(), " " + name + " ", name.replace("e", "\uff45"), name.replace("l", "I")):
        answer = client.post("/api/accounts", json={"name": other, "password": PASSWORD})
        assert answer.status_code == 409, (other, answer.get_json())
        assert answer.get_json()["error"]["code"] == "name_taken"
        assert answer.get_json()["error"]["details"]["taken"] == name
    mixed = client.post("/api/accounts", json={"name": "\u0435ve" + name[3:] + "x", "password": PASSWORD})  # Cyrillic е
    assert mixed.status_code == 400 and mixed.get_json()["error"]["code"] == "confusable_name"
    assert count_accounts(redis_client) == before


def test_bad_names_and_passwords(client, redis_client):
    before = count_accounts(redis_client)
    cases = [
        ({"name": "\u200b ", "password": PASSWORD}, "bad_name"),
        ({"name": "x" * 41, "password": PASSWORD}, "bad_name"),
        ({"name": unique("fay"), "password": "short"}, "bad_password"),
        ({"name": unique("fay"), "password": "p" * 257}, "bad_password"),
        ({"name": unique("fay")}, "bad_request"),
        ({"name": 5, "password": PASSWORD}, "bad_request"),
    ]
    for body, code in cases:
        answer = client.post("/api/accounts", json=body)
        assert answer.status_code == 400, (body, answer.get_json())
        assert answer.get_json()["error"]["code"] == code
    assert count_accounts(redis_client) == before


def test_sessions_need_a_bearer_header(client):
    assert client.get("/api/me").get_json()["error"]["code"] == "no_session"
    assert client.get("/api/me", headers={"Authorization": "Basic abc"}).status_code == 401
    assert client.get("/api/me?token=abc").status_code == 401  # never read from the URL


def test_passwords_are_stored_as_argon2id_hashes(client, redis_client):
    import json

    name, _ = new_account(client, "gus")
    record = json.loads(redis_client.hget(keys.ACCOUNTS, name))
    assert record["password"].startswith("$argon2id$")
    assert PASSWORD not in json.dumps(record)
    for key in (keys.ACCOUNTS, keys.ACCOUNT_SKELETONS, keys.ACCOUNT_SESSIONS, keys.account_sessions(name)):
        assert "{accounts}" in key  # one hash tag: one slot on a Redis Cluster


def test_login_is_rate_limited(redis_url, redis_client, tmp_path):
    from service.app import create_app

    for key in redis_client.scan_iter(match="*ratelimit*"):
        redis_client.delete(key)
    limited = create_app(
        {
            "REDIS_URL": redis_url,
            "CLOCK_SWEEP_SECONDS": 0,
            "RATE_LIMITS_ENABLED": True,
            "RATE_LIMIT_LOGIN": "3 per minute",
            "DATA_DIR": str(tmp_path),
        }
    ).test_client()
    name, _ = new_account(limited, "hal")
    env = {"REMOTE_ADDR": "10.0.9.1"}
    codes = [
        limited.post("/api/sessions", json={"name": name, "password": "guess " * 2}, environ_base=env).status_code
        for _ in range(5)
    ]
    assert codes == [401, 401, 401, 429, 429]
    refused = limited.post("/api/sessions", json={"name": name, "password": PASSWORD}, environ_base=env)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "rate_limited"
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    for key in redis_client.scan_iter(match="*ratelimit*"):
        redis_client.delete(key)


def test_role_words_and_path_unsafe_names_are_refused(client, redis_client):
    """An account may not pass for the referee or the director, and its name must
    make a reachable profile address."""
    before = count_accounts(redis_client)
    for word in ("referee", "Admin", "DIRECTOR", "judge"):
        answer = client.post("/api/accounts", json={"name": word, "password": PASSWORD})
        assert answer.status_code == 403, (word, answer.get_json())
        assert answer.get_json()["error"]["code"] == "reserved_name"
    for name in (
        "a/" + unique("b"),
        unique("c") + "\\d",
        unique("e") + "?f",
        unique("g") + "#",
        unique("h") + "%2F",
        "..",
        ".",
    ):
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 400, (name, answer.get_json())
        assert answer.get_json()["error"]["code"] == "bad_name"
    assert count_accounts(redis_client) == before
    name, _ = new_account(client, "dots.and-dashes_")
    assert client.get(f"/api/accounts/{name}").status_code == 200


def test_a_session_expires_after_its_lifetime_and_is_forgotten(client, services, redis_client):
    """A stolen session token does not work forever: after SESSION_DAYS it is refused
    (401 ``session_expired``) and removed; logging in again gives a fresh one."""
    name, token = new_account(client, "exp")
    accounts = services.accounts
    assert client.get("/api/me", headers=auth(token)).status_code == 200
    lifetime = 30 * 86400  # SESSION_DAYS, as the app is configured
    real_clock = accounts._clock
    accounts._clock = lambda: real_clock() + lifetime + 1
    try:
        refused = client.get("/api/me", headers=auth(token))
        assert refused.status_code == 401 and refused.get_json()["error"]["code"] == "session_expired"
        assert redis_client.scard(keys.account_sessions(name)) == 0
        fresh = client.post("/api/sessions", json={"name": name, "password": PASSWORD}).get_json()["token"]
        assert client.get("/api/me", headers=auth(fresh)).status_code == 200
    finally:
        accounts._clock = real_clock
    assert client.get("/api/me", headers=auth(token)).status_code == 401  # gone for good


def test_changing_the_password_needs_the_old_one_and_ends_every_other_session(client, redis_client):
    """A player who fears a session was stolen changes the password: the old password
    is asked (a stolen session alone cannot lock the owner out), every session ends,
    and the answer carries a fresh one."""
    name, first = new_account(client, "pw")
    second = client.post("/api/sessions", json={"name": name, "password": PASSWORD}).get_json()["token"]
    record = redis_client.hget(keys.ACCOUNTS, name)
    wrong = client.post(
        "/api/me/password", json={"old": "not it at all", "new": "a new long password"}, headers=auth(first)
    )
    assert wrong.status_code == 401 and wrong.get_json()["error"]["code"] == "bad_credentials"
    short = client.post("/api/me/password", json={"old": PASSWORD, "new": "short"}, headers=auth(first))
    assert short.status_code == 400 and short.get_json()["error"]["code"] == "bad_password"
    nobody = client.post("/api/me/password", json={"old": PASSWORD, "new": "a new long password"})
    assert nobody.status_code == 401
    assert redis_client.hget(keys.ACCOUNTS, name) == record  # nothing written by a refusal
    changed = client.post("/api/me/password", json={"old": PASSWORD, "new": "a new long password"}, headers=auth(first))
    assert changed.status_code == 200, changed.get_json()
    fresh = changed.get_json()["token"]
    assert changed.get_json()["name"] == name and changed.get_json()["revoked"] == 2
    for token in (first, second):
        assert client.get("/api/me", headers=auth(token)).status_code == 401
    assert client.get("/api/me", headers=auth(fresh)).status_code == 200
    assert client.post("/api/sessions", json={"name": name, "password": PASSWORD}).status_code == 401
    assert client.post("/api/sessions", json={"name": name, "password": "a new long password"}).status_code == 201
