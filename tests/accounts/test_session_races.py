"""Sessions under concurrency: logging out everywhere must not miss a login that
lands while it runs (real Redis, real threads)."""

from __future__ import annotations

import threading

from events import keys
from service.services.accounts import Accounts, hasher
from service.services.callers import token_digest

from .helpers import PASSWORD, unique


def test_logout_all_leaves_no_session_a_racing_login_made(redis_client):
    accounts = Accounts(redis_client, hasher(1, 8, 1))
    name = accounts.create(unique("race"), PASSWORD)["name"]
    made: list[str] = []
    stop = threading.Event()

    def log_in_repeatedly():
        while not stop.is_set():
            made.append(accounts._new_session(name))

    threads = [threading.Thread(target=log_in_repeatedly) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        for _ in range(300):
            accounts.logout_all(accounts._new_session(name))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    accounts.logout_all(accounts._new_session(name))
    alive = [token for token in made if redis_client.hexists(keys.ACCOUNT_SESSIONS, token_digest(token))]
    assert alive == [], f"{len(alive)} of {len(made)} sessions survived logging out everywhere"
