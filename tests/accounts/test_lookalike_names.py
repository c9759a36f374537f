"""Names are compared by the Unicode confusables skeleton (UTS #39, ICU's SpoofChecker):
"rn" passes for "m", "ǉ" for "lj", a letter with a faint dot under it for the letter;
names a reader tells apart stay apart. Accounts made before the skeleton changed are
found by their new look too."""

from __future__ import annotations

import json

import pytest

from service.adapters import keys
from service.services import names

from .helpers import PASSWORD, unique

LOOKALIKES = [
    ("rn", "m"),  # r n drawn close is an m
    ("\u01c9", "lj"),  # ǉ
    ("\u01c8", "Lj"),  # ǈ
    ("b\u1ecdb", "bob"),  # ọ: a dot below
    ("x\u0323", "x"),  # the same with a combining dot below
    ("\u1e45", "n"),  # ṅ: a dot above
    ("i\u0307", "i"),  # a dot above an i shows nothing new
    ("\u0131", "i"),  # dotless i
    ("paypa1", "paypal"),
]
DISTINCT = [
    ("anna", "anne"),
    ("Michael", "Micheal"),
    ("Jan", "Jon"),
    ("Nguy\u1ec5n", "Nguyen"),  # a tilde and a circumflex show
    ("Jos\u00e9", "Jose"),  # an acute shows
    ("Bj\u00f6rn", "Bjorn"),
    ("Lee", "Li"),
    ("\u674e", "\u674f"),
]


@pytest.mark.parametrize(("one", "other"), LOOKALIKES)
def test_look_alike_names_collide(one, other):
    assert names.skeletons(one) & names.skeletons(other), (one, other)


@pytest.mark.parametrize(("one", "other"), DISTINCT)
def test_names_a_reader_tells_apart_do_not(one, other):
    assert not names.skeletons(one) & names.skeletons(other), (one, other)


def test_an_account_name_of_rn_is_taken_by_m(client):
    name = unique("ma") + "m"
    assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    copy = client.post("/api/accounts", json={"name": name[:-1] + "rn", "password": PASSWORD})
    assert copy.status_code == 409 and copy.get_json()["error"]["details"]["taken"] == name
    login = client.post("/api/sessions", json={"name": name[:-1] + "rn", "password": PASSWORD})
    assert login.status_code == 201 and login.get_json()["name"] == name


def test_accounts_written_under_older_looks_are_found_by_the_new_ones(app, redis_client):
    """An account whose look-alike keys were written by an older skeleton (or none at
    all) is indexed under the current one on first use."""
    from service.adapters.accounts import RedisAccountRecords
    from service.services.accounts import Accounts

    name = unique("old") + "m"
    redis_client.hset(
        keys.ACCOUNTS, name, json.dumps({"name": name, "password": "x", "created_at": "2026-01-01T00:00:00Z"})
    )
    redis_client.delete(keys.ACCOUNT_LOOKS_INDEXED)
    accounts = Accounts(RedisAccountRecords(redis_client))
    assert accounts.holder_of_look(name[:-1] + "rn") == name
