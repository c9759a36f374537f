"""Failed logins are limited per account name and address, and per account name from
every address it has not logged in from: a guesser spreading over many addresses meets
the name's ceiling, the owner's own address stays open, the refusals cost no Argon2, and
a name without an account is refused exactly like one with."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from .helpers import PASSWORD, auth, new_account, unique

FAILURES = 3  # per name and address
CEILING = 5  # per name, from the addresses it has not logged in from


class CountingHasher(PasswordHasher):
    """A real Argon2id hasher that counts its verifications."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verifies = 0

    def verify(self, hash, password):  # type: ignore[override]
        self.verifies += 1
        return super().verify(hash, password)


def clear_limits(redis_client) -> None:
    for key in redis_client.scan_iter(match="LIMITS*"):
        redis_client.delete(key)


@pytest.fixture()
def limited(redis_url, redis_client, tmp_path, monkeypatch):
    """An app with rate limits on: the per-address login limit out of the way, at most
    FAILURES failed logins per account name and address per 15 minutes, CEILING per
    name from addresses it has not logged in from."""
    import service.app
    from service.app import create_app

    clear_limits(redis_client)
    counting = CountingHasher()
    monkeypatch.setattr(service.app, "hasher", lambda *costs: counting)  # the app's hasher is this one
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "CLOCK_SWEEP_SECONDS": 0,
            "RATE_LIMITS_ENABLED": True,
            "RATE_LIMIT_LOGIN": "1000 per minute",
            "RATE_LIMIT_LOGIN_FAILURES": f"{FAILURES} per 15 minutes",
            "RATE_LIMIT_LOGIN_FAILURES_NAME": f"{CEILING} per 15 minutes",
            "DATA_DIR": str(tmp_path),
        }
    )
    app.counting = counting  # type: ignore[attr-defined]
    yield app
    clear_limits(redis_client)


def attempt(client, name: str, password: str, n: int):
    """A login from address 10.1.<n // 250>.<n % 250>: one guesser among many."""
    env = {"REMOTE_ADDR": f"10.1.{n // 250}.{n % 250 + 1}"}
    return client.post("/api/sessions", json={"name": name, "password": password}, environ_base=env)


def test_failures_from_many_addresses_lock_the_name_without_hashing(limited):
    client, counting = limited.test_client(), limited.counting
    name, _ = new_account(client, "flood")
    for n in range(CEILING):
        assert attempt(client, name, f"guess number {n}", n).status_code == 401
    verifies = counting.verifies
    for n in range(CEILING, CEILING + 20):
        refused = attempt(client, name, f"guess number {n}", n)
        assert refused.status_code == 429
        error = refused.get_json()["error"]
        assert error["code"] == "rate_limited"
        assert 0 < int(refused.headers["Retry-After"]) <= 15 * 60
        assert error["details"]["retry_after"] == int(refused.headers["Retry-After"])
    assert counting.verifies == verifies  # the flood cost no Argon2
    assert attempt(client, name, PASSWORD, 99).status_code == 429  # the right password waits too
    assert attempt(client, name.upper(), PASSWORD, 98).status_code == 429  # and so does the name by look
    other, _ = new_account(client, "bystander")
    assert attempt(client, other, PASSWORD, 97).status_code == 201  # other accounts are untouched


def test_a_name_without_an_account_is_refused_alike(limited):
    client, counting = limited.test_client(), limited.counting
    name, _ = new_account(client, "real")
    nobody = unique("nobody")
    answers = {}
    for who in (name, nobody):
        before = counting.verifies
        statuses = [attempt(client, who, f"guess {n} \uff41", n).status_code for n in range(CEILING + 2)]
        answers[who] = (statuses, counting.verifies - before)
    # same statuses, and as many Argon2 verifications (two per guess: its NFKC form, then as sent)
    assert answers[name] == answers[nobody] == ([401] * CEILING + [429, 429], 2 * CEILING)
    real, unknown = attempt(client, name, "x" * 9, 50), attempt(client, nobody, "x" * 9, 51)
    assert real.get_json()["error"]["message"] == unknown.get_json()["error"]["message"]
    assert real.get_json()["error"]["details"].keys() == unknown.get_json()["error"]["details"].keys()


def test_right_passwords_do_not_count(limited):
    client = limited.test_client()
    name, _ = new_account(client, "regular")
    for n in range(CEILING - 1):
        assert attempt(client, name, "not it at all", n).status_code == 401
    for n in range(10):
        assert attempt(client, name, PASSWORD, 100 + n).status_code == 201
    assert attempt(client, name, "not it at all", 200).status_code == 401  # the last failure allowed
    assert attempt(client, name, PASSWORD, 201).status_code == 429


def test_wrong_current_passwords_count_against_the_account(limited):
    """A stolen session guessing the current password is a guesser too."""
    client = limited.test_client()
    name, session = new_account(client, "changer")
    for n in range(FAILURES):
        answer = client.post(
            "/api/me/password", json={"old": f"guess {n}!", "new": "whatever new"}, headers=auth(session)
        )
        assert answer.status_code == 401
    answer = client.post("/api/me/password", json={"old": PASSWORD, "new": "whatever new"}, headers=auth(session))
    assert answer.status_code == 429 and answer.get_json()["error"]["code"] == "rate_limited"
    assert client.post("/api/sessions", json={"name": name, "password": PASSWORD}).status_code == 429
    # and they weigh on the name's ceiling: fewer tries are left to everyone else
    for n in range(CEILING - FAILURES):
        assert attempt(client, name, f"guess {n}", n).status_code == 401
    assert attempt(client, name, PASSWORD, 5).status_code == 429


def test_failed_logins_are_not_limited_when_rate_limits_are_off(client):
    name, _ = new_account(client, "unlimited")
    for _ in range(15):
        assert client.post("/api/sessions", json={"name": name, "password": "wrong password"}).status_code == 401
    assert client.post("/api/sessions", json={"name": name, "password": PASSWORD}).status_code == 201


def test_a_stranger_spending_the_ceiling_does_not_lock_the_owner_out_of_their_own_address(limited):
    client = limited.test_client()
    name, _ = new_account(client, "owner")
    home = 7
    assert attempt(client, name, PASSWORD, home).status_code == 201  # the owner's address
    for n in range(100, 100 + CEILING):
        assert attempt(client, name, f"stranger {n}", n).status_code == 401
    assert attempt(client, name, "stranger again", 200).status_code == 429  # new addresses wait
    assert attempt(client, name, PASSWORD, 201).status_code == 429  # the right password too, from there
    assert attempt(client, name, PASSWORD, home).status_code == 201  # from home, the owner logs in
    for n in range(FAILURES):  # and a guesser at the owner's address meets the per-address limit
        assert attempt(client, name, f"mistyped {n}", home).status_code == 401
    assert attempt(client, name, PASSWORD, home).status_code == 429


def test_one_address_is_held_to_its_own_few_tries(limited):
    client = limited.test_client()
    name, _ = new_account(client, "single")
    for _ in range(FAILURES):
        assert attempt(client, name, "wrong guess", 1).status_code == 401
    assert attempt(client, name, "wrong guess", 1).status_code == 429
    assert attempt(client, name, PASSWORD, 2).status_code == 201  # another address is not held by it
