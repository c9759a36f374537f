"""A password is one password whatever Unicode form the keyboard sends (NFKC, as NIST SP
800-63B asks), and accounts whose hash was made from the raw text keep logging in."""

from __future__ import annotations

import json

from argon2 import PasswordHasher

from service.adapters import keys
from service.adapters.accounts import RedisAccountRecords
from service.services.accounts import Accounts

from .helpers import auth, unique

COMPOSED = "caf\u00e9 au lait"  # é as one code point (what NFC and NFKC give)
DECOMPOSED = "cafe\u0301 au lait"  # e followed by a combining acute accent
FULL_WIDTH = "\uff43\uff41\uff46\uff45 \uff41\uff55 \uff4c\uff41\uff49\uff54"  # ｃａｆｅ ａｕ ｌａｉｔ
ASCII = "cafe au lait"


def fast_hasher() -> PasswordHasher:
    return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


HASHER = fast_hasher()


def legacy_account(redis_client, accounts: Accounts, prefix: str, password: str) -> str:
    """An account as made before passwords were normalised: its hash is of the text as
    sent. (Created now, then given the hash the old code would have stored.)"""
    name = accounts.create(unique(prefix), password)["name"]
    record = json.loads(redis_client.hget(keys.ACCOUNTS, name))
    redis_client.hset(keys.ACCOUNTS, name, json.dumps({**record, "password": HASHER.hash(password)}))
    return name


def login(client, name: str, password: str):
    return client.post("/api/sessions", json={"name": name, "password": password})


def test_a_password_logs_in_whichever_form_it_is_typed_in(client):
    for registered, typed in ((COMPOSED, DECOMPOSED), (DECOMPOSED, COMPOSED), (FULL_WIDTH, ASCII), (ASCII, FULL_WIDTH)):
        name = unique("uni")
        created = client.post("/api/accounts", json={"name": name, "password": registered})
        assert created.status_code == 201, created.get_json()
        assert login(client, name, typed).status_code == 201, (registered, typed)
        assert login(client, name, registered).status_code == 201
        wrong = login(client, name, typed + "!")
        assert wrong.status_code == 401 and wrong.get_json()["error"]["code"] == "bad_credentials"


def test_a_changed_password_is_normalised_too(client):
    name = unique("unichange")
    session = client.post("/api/accounts", json={"name": name, "password": ASCII}).get_json()["token"]
    changed = client.post("/api/me/password", json={"old": FULL_WIDTH, "new": DECOMPOSED}, headers=auth(session))
    assert changed.status_code == 200, changed.get_json()
    assert login(client, name, COMPOSED).status_code == 201
    assert login(client, name, ASCII).status_code == 401


def test_a_hash_of_the_raw_text_still_logs_in_and_is_upgraded(redis_client):
    records = RedisAccountRecords(redis_client)
    new = Accounts(records, HASHER)
    name = legacy_account(redis_client, new, "legacy", DECOMPOSED)
    legacy_hash = json.loads(redis_client.hget(keys.ACCOUNTS, name))["password"]
    HASHER.verify(legacy_hash, DECOMPOSED)  # made the way the old code made it

    # before its first login the hash knows only the form typed at registration
    assert _refused(lambda: new.login(name, COMPOSED)) == "bad_credentials"
    assert json.loads(redis_client.hget(keys.ACCOUNTS, name))["password"] == legacy_hash

    assert new.login(name, DECOMPOSED)["name"] == name  # the raw text, tried second
    upgraded = json.loads(redis_client.hget(keys.ACCOUNTS, name))
    assert upgraded["password"] != legacy_hash
    assert HASHER.verify(upgraded["password"], COMPOSED)  # now a hash of the NFKC form
    assert new.login(name, COMPOSED)["name"] == name
    assert new.login(name, DECOMPOSED)["name"] == name
    assert _refused(lambda: new.login(name, "cafe au lait")) == "bad_credentials"


def test_a_raw_text_hash_upgrades_only_the_record_it_was_checked_against(redis_client):
    """The upgrade is a compare-and-set: a record changed since the login read it stays."""
    records = RedisAccountRecords(redis_client)
    new = Accounts(records, HASHER)
    name = legacy_account(redis_client, new, "legacyrace", DECOMPOSED)
    raw = redis_client.hget(keys.ACCOUNTS, name)
    changed = json.dumps({**json.loads(raw), "password": HASHER.hash("another password")})
    redis_client.hset(keys.ACCOUNTS, name, changed)  # a password change landing meanwhile
    stale = json.dumps({**json.loads(raw), "password": HASHER.hash(COMPOSED)})
    assert records.rehash(name, raw, stale) is False
    assert redis_client.hget(keys.ACCOUNTS, name) == changed


def test_a_new_password_is_bounded_after_normalising(client, redis_client):
    before = redis_client.hlen(keys.ACCOUNTS)
    # U+FDFA is one character whose NFKC form is 18: 15 of them pass 256 once normalised
    answer = client.post("/api/accounts", json={"name": unique("long"), "password": "\ufdfa" * 15})
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "bad_password"
    assert redis_client.hlen(keys.ACCOUNTS) == before


def _refused(call) -> str | None:
    try:
        call()
    except Exception as refused:
        return getattr(refused, "code", None)
    return None
