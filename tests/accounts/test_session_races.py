"""Sessions under concurrency: logging out everywhere must not miss a login that
lands while it runs (real Redis, real threads)."""

from __future__ import annotations

import threading

from service.adapters import keys
from service.adapters.accounts import RedisAccountRecords
from service.services.accounts import Accounts, hasher
from service.services.callers import token_digest
from service.services.errors import Refusal, Unauthenticated

from .helpers import PASSWORD, unique


def test_logout_all_leaves_no_session_a_racing_login_made(redis_client):
    accounts = Accounts(RedisAccountRecords(redis_client), hasher(1, 8, 1))
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


def test_of_password_changes_racing_one_wins_and_the_others_change_nothing(redis_client):
    """Six changes sent at once, each from a session and the current password: exactly one
    is answered 200 and its password is the account's; the others are refused (their
    session ended, or the password they named is no longer the current one) and every
    token handed out works."""
    accounts = Accounts(RedisAccountRecords(redis_client), hasher(1, 8, 1))
    name = accounts.create(unique("pwrace"), PASSWORD)["name"]
    tokens = [accounts._new_session(name) for _ in range(6)]
    barrier = threading.Barrier(len(tokens))
    answers: list[tuple[str, object]] = []

    def change(i: int, token: str) -> None:
        barrier.wait()
        try:
            answers.append((f"new password {i}", accounts.change_password(token, PASSWORD, f"new password {i}")))
        except Refusal as exc:
            answers.append((f"new password {i}", exc))

    threads = [threading.Thread(target=change, args=(i, t)) for i, t in enumerate(tokens)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    won = [(pw, a) for pw, a in answers if isinstance(a, dict)]
    assert len(won) == 1, answers
    password, answer = won[0]
    assert accounts.login(name, password)["name"] == name
    assert accounts.session(answer["token"]) == name  # the winner's fresh session is live
    refused = [a for _, a in answers if not isinstance(a, dict)]
    assert all(isinstance(a, Unauthenticated) for a in refused), refused
