"""Argon2's cost kept where it belongs: never on the gevent loop, never spent on a name
that is refused anyway."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from argon2 import PasswordHasher

from service.adapters.accounts import RedisAccountRecords
from service.services.accounts import Accounts

from .helpers import PASSWORD, unique


class CountingHasher(PasswordHasher):
    """A real Argon2id hasher that counts its hashes."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.hashes = 0

    def hash(self, password, *, salt=None):  # type: ignore[override]
        self.hashes += 1
        return super().hash(password, salt=salt)


def test_a_taken_name_is_refused_before_any_hashing(redis_client):
    counting = CountingHasher()
    accounts = Accounts(RedisAccountRecords(redis_client), counting)
    name = accounts.create(unique("hash"), PASSWORD)["name"]
    assert counting.hashes == 1
    for other in (name, name.upper()):
        try:
            accounts.create(other, PASSWORD)
        except Exception as refused:
            assert getattr(refused, "code", None) == "name_taken"
        else:
            raise AssertionError("a taken name was accepted")
    assert counting.hashes == 1


GEVENT_PROBE = textwrap.dedent(
    """
    from gevent import monkey; monkey.patch_all()
    import sys, gevent
    from argon2 import PasswordHasher
    sys.path.insert(0, ".")
    from service.services.accounts import _HashPool
    hasher = PasswordHasher(time_cost=4, memory_cost=65536, parallelism=1)
    pool = _HashPool()
    ticks, done = [], []
    def hashing():
        pool(hasher.hash, "a password of someone")
        done.append(len(ticks))
    def ticking():
        while not done:
            ticks.append(1)
            gevent.sleep(0)
    gevent.joinall([gevent.spawn(hashing), gevent.spawn(ticking)])
    print(done[0])
    """
)


def test_under_gevent_a_hash_leaves_the_loop_free():
    """While one greenlet hashes, another keeps running (it would not get a single turn
    if the hash ran on the loop)."""
    out = subprocess.run([sys.executable, "-c", GEVENT_PROBE], capture_output=True, text=True, timeout=60, check=True)
    assert int(out.stdout.strip()) > 1, out


WRONG_PASSWORD_PROBE = textwrap.dedent(
    """
    from gevent import monkey; monkey.patch_all()
    import sys
    from argon2 import PasswordHasher
    from argon2.exceptions import VerifyMismatchError
    sys.path.insert(0, ".")
    from service.services.accounts import _HashPool
    hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    stored = hasher.hash("the password")
    pool = _HashPool()
    for _ in range(3):
        try:
            pool(hasher.verify, stored, "not the password")
        except VerifyMismatchError:
            print("refused")
    """
)


def test_a_wrong_password_under_gevent_is_a_refusal_not_a_logged_traceback():
    """gevent's thread pool reports an exception raised in its thread to the hub, which
    prints it: every wrong password would put a traceback in the server's log."""
    out = subprocess.run(
        [sys.executable, "-c", WRONG_PASSWORD_PROBE], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.split() == ["refused"] * 3, out
    assert "Traceback" not in out.stderr, out.stderr
