"""Accounts: optional, for players who want their games, ratings and notes to follow them.

- Passwords are hashed with Argon2id by ``argon2-cffi`` (its ``PasswordHasher``, the
  RFC 9106 low-memory profile); the hash carries its own parameters, so raising them
  later re-hashes a password at its next login (``check_needs_rehash``).
- A password is normalised to Unicode NFKC before it is checked or hashed (NIST SP
  800-63B, 5.1.1.2), so "café" typed with a precomposed é or with e and a combining
  accent, or in full-width letters, is one password. Hashes made before that from the
  raw text still verify: a login whose normalised form fails tries the raw text, and on
  success the hash is replaced by one of the normalised form.
- Failed logins are counted per account name and address, with a higher ceiling per
  name that spares the addresses the name logged in from (``FailedLogins``, on the
  ``limits`` library's Redis storage); past a limit a login is refused before any
  Argon2 runs.
- Sessions are random bearer tokens, answered once; Redis keeps their SHA-256 only
  (like seat tokens). Logout revokes one, logout-all every one of the account's, in one Lua
  script (a login racing it cannot slip between its read and its delete).
- Names follow the tournament names' rules (``service/services/names.py``: ``check_new``):
  normalised, no mixed look-alike scripts, no role words, unique by look; and no
  character that would break the profile's address (``/ \\ ? # %``, only dots).
  Creating an account checks and claims every look-alike key of the name in one Lua
  script, so two look-alike names racing cannot both win.

The records and sessions are kept behind ``ports.AccountRecords`` (``service/adapters/accounts.py``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar, cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItem, parse
from limits.strategies import RateLimiter

from events.envelope import now_rfc3339
from events.shapes import JSON
from service.ports import AccountRecords
from service.services import names
from service.services.callers import new_token, token_digest
from service.services.errors import Conflict, Invalid, NotFound, RateLimited, Refusal, Unauthenticated

MAX_NAME = 40
PATH_UNSAFE = re.compile(r"[/\\?#%]")  # a name is a path segment of /accounts/<name>
MIN_PASSWORD = 8
MAX_PASSWORD = 256  # Argon2 takes any length; a bound keeps a request's cost bounded

T = TypeVar("T")
Counted = list[tuple[RateLimitItem, tuple[str, str]]]
"""The windows and keys one login attempt was counted under (given back on success)."""


def password_form(password: str) -> str:
    """What is hashed and checked: the password in Unicode NFKC (NIST SP 800-63B)."""
    return unicodedata.normalize("NFKC", password)


class FailedLogins:
    """Failed logins per account name *and address*, with a higher ceiling per name from
    every address a name was not logged into from, in sliding windows of the ``limits``
    library on the server's Redis (shared by every worker, one Lua call per window and key).

    - ``per_address`` (e.g. 10 per 15 minutes) counts one address's failures on one name:
      a person mistyping, or one guesser.
    - ``per_name`` (higher, e.g. 50 per 15 minutes) counts the failures on one name from
      every address where that name has not logged in lately, together: many addresses
      guessing one account stay under their own limits, this one holds them.
    - An address where the name logged in within ``KNOWN_FOR`` is the owner's: the
      ceiling neither counts nor refuses it, so a stranger who spends the ceiling does not
      lock the owner out from their own address (only from new ones).

    An attempt is counted *before* its password is checked, so a burst of parallel
    guesses cannot all pass while the first ones are still hashing; a right password
    gives its count back (``cost=-1``), so only failures stay counted. The counters are
    keyed by the name's looks (its one or two look-alike keys) and, per address, the
    address, hashed together: computed from what was sent alone, so a name with an
    account and one without are counted, and refused, alike, and "alice", "ALICE" and a
    full-width "ａｌｉｃｅ" share a counter. An attempt counts under each of its name's
    looks and is refused when any is spent. (A count given back after its window moved
    on returns a little more than the attempt still weighed there: at most one failure
    per right password.)"""

    NAMESPACE = "login-failures"
    KNOWN = "login-known"
    KNOWN_FOR = parse("1 per 30 days")

    def __init__(
        self, limiter: RateLimiter, per_address: Iterable[RateLimitItem], per_name: Iterable[RateLimitItem] = ()
    ) -> None:
        self._limiter = limiter
        self._per_address = list(per_address)  # e.g. parse_many("10 per 15 minutes")
        self._per_name = list(per_name)

    @staticmethod
    def _keys(namespace: str, name: str, address: str | None) -> list[tuple[str, str]]:
        tail = "" if address is None else "\0" + address
        return sorted(
            (namespace, hashlib.sha256((look + tail).encode("utf-8", "surrogatepass")).hexdigest()[:32])
            for look in names.skeletons(name)
        )

    def known(self, name: str, address: str) -> bool:
        """Whether ``name`` logged in from ``address`` within ``KNOWN_FOR``."""
        return any(not self._limiter.test(self.KNOWN_FOR, *key) for key in self._keys(self.KNOWN, name, address))

    def attempt(self, name: str, address: str) -> Counted:
        """Count one attempt for ``name`` from ``address``; 429 ``rate_limited`` (with
        ``retry_after``) when a limit is spent. Answers what ``succeeded`` gives back."""
        counters = [(item, key) for item in self._per_address for key in self._keys(self.NAMESPACE, name, address)]
        if self._per_name and not self.known(name, address):
            counters += [(item, key) for item in self._per_name for key in self._keys(self.NAMESPACE, name, None)]
        counted: Counted = []
        for item, key in counters:
            if not self._limiter.hit(item, *key):
                self._give_back(counted)
                stats = self._limiter.get_window_stats(item, *key)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                raise RateLimited(
                    "rate_limited",
                    f"too many failed logins for this name; try again in {wait} s",
                    retry_after=wait,
                )
            counted.append((item, key))
        return counted

    def succeeded(self, counted: Counted, name: str, address: str) -> None:
        """A right password: its attempt does not count, and its address is the owner's."""
        self._give_back(counted)
        for key in self._keys(self.KNOWN, name, address):
            self._limiter.hit(self.KNOWN_FOR, *key)

    def _give_back(self, counted: Counted) -> None:
        for item, key in counted:
            self._limiter.hit(item, *key, cost=-1)


def hasher(time_cost: int = 3, memory_kib: int = 65536, parallelism: int = 4) -> PasswordHasher:
    """Argon2id; the defaults are RFC 9106's second recommended profile (64 MiB)."""
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)


HASH_SLOTS = 2  # Argon2 hashes at once per worker (the machine's cores); more wait their turn


class _HashPool:
    """Where Argon2 runs. Under gevent a hash in the loop would stall every greenlet of
    the worker for its whole cost, so it goes to a small pool of real threads (argon2-cffi
    releases the GIL); without gevent it runs inline, bounded by a semaphore. Either way
    at most ``HASH_SLOTS`` hashes run at once. Chosen on first use, after gevent's
    monkey-patching (gunicorn patches before it loads the app)."""

    def __init__(self, slots: int = HASH_SLOTS) -> None:
        self._slots = slots
        self._run: _Run | None = None

    def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        if self._run is None:
            self._run = self._choose()
        return self._run(fn, *args)

    def _choose(self) -> _Run:
        try:
            from gevent import monkey
        except ImportError:
            monkey = None
        if monkey is not None and monkey.is_module_patched("threading"):
            from gevent.threadpool import ThreadPool

            pool = ThreadPool(self._slots)

            def in_pool(fn: Callable[..., T], *args: Any) -> T:
                # an exception raised in the pool's thread is printed by gevent's hub
                # (a traceback per wrong password): carry it back and raise it here
                ok, value = pool.apply(_caught, (fn, *args))
                if not ok:
                    raise value
                return cast(T, value)  # gevent's pool is untyped: it answers what fn returned

            return in_pool
        import threading

        gate = threading.BoundedSemaphore(self._slots)

        def inline(fn: Callable[..., T], *args: Any) -> T:
            with gate:
                return fn(*args)

        return inline


class _Run(Protocol):
    """How a hash is run: ``fn(*args)``, somewhere."""

    def __call__(self, fn: Callable[..., T], *args: Any) -> T: ...


def _caught(fn: Callable[..., T], *args: Any) -> tuple[bool, T | Exception]:
    try:
        return True, fn(*args)
    except Exception as exc:
        return False, exc


class Accounts:
    def __init__(
        self,
        records: AccountRecords,
        password_hasher: PasswordHasher | None = None,
        session_days: float = 30,
        failed_logins: FailedLogins | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``failed_logins``: the per-name limit of failed logins (None when rate limits are off)."""
        self._records = records
        self._session_seconds = session_days * 86400
        self._clock = clock
        self._hashing = _HashPool()
        self._failed_logins = failed_logins
        self._hasher = password_hasher or hasher()
        self._dummy_hash: str | None = None
        self._looks_indexed = False

    @property
    def _dummy(self) -> str:
        """Verified against when the name is unknown, so a wrong name costs as long as a
        wrong password (made on first use: building an app hashes nothing)."""
        if self._dummy_hash is None:
            self._dummy_hash = self._hashing(self._hasher.hash, "not a password of anyone")
        return self._dummy_hash

    # -- records -------------------------------------------------------------------------
    def create(self, name: str, password: str) -> JSON:
        """A new account and a first session; 409 ``name_taken`` for a name that looks
        like another, 400 for a bad name or password. Nothing is written on refusal."""
        clean = names.check_new(name, what="name", max_length=MAX_NAME)
        if PATH_UNSAFE.search(clean) or not clean.strip("."):
            raise Invalid(
                "bad_name",
                "an account name may not contain / \\ ? # or a percent sign, or be only dots: it is part of its page's address",
                {"name": clean},
            )
        password = _checked_password(password)
        looks = sorted(names.skeletons(clean))
        holder = self.holder_of_look(clean)
        if holder is None:  # hashing costs: a taken name is refused before (the script checks again)
            password_hash = self._hashing(self._hasher.hash, password)
            record = {"name": clean, "password": password_hash, "created_at": now_rfc3339()}
            holder = self._records.create(clean, json.dumps(record), looks)
        if holder is not None:
            raise Conflict("name_taken", f"this name looks the same as {holder!r}", {"name": clean, "taken": holder})
        return {"name": clean, "created_at": record["created_at"], "token": self._new_session(clean)}

    def record(self, name: str) -> JSON | None:
        """The account called ``name`` (exactly, or by look: "alice" finds "Alice")."""
        raw = self._stored(name)
        return None if raw is None else json.loads(raw)

    def _stored(self, name: str) -> str | None:
        """The account's record as stored (JSON text), found as ``record`` finds it."""
        try:
            clean = names.normalise(name, max_length=MAX_NAME)
        except Refusal:
            return None
        raw = self._records.record(clean)
        if raw is None:
            holders = set(self._holders(clean)) - {None}
            if len(holders) != 1:
                return None
            raw = self._records.record(str(holders.pop()))
        return raw

    def holder_of_look(self, name: str) -> str | None:
        """The account whose name ``name`` looks like, if any (by the look-alike keys)."""
        return next(filter(None, self._holders(name)), None)

    def _holders(self, name: str) -> list[str | None]:
        """The holders of ``name``'s looks. The first time a worker asks, the accounts
        made under an older skeleton (another ICU) are indexed under this one's looks."""
        if not self._looks_indexed:
            self._records.index_looks(names.SKELETON_SOURCE, lambda held: sorted(names.skeletons(held)))
            self._looks_indexed = True
        return self._records.holders(sorted(names.skeletons(name)))

    def require(self, name: str) -> JSON:
        found = self.record(name)
        if found is None:
            raise NotFound("not_found", "account not found", {"what": "account"})
        return found

    # -- sessions ------------------------------------------------------------------------
    def login(self, name: str, password: str, address: str = "") -> JSON:
        """A new session for the right password; 401 ``bad_credentials`` for a wrong name
        or password alike (which one is not said). With failed logins counted, 429
        ``rate_limited`` once the name's failures from ``address`` (or, from an address
        it never logged in from, from everywhere) reach a limit, before any hashing."""
        name = name if isinstance(name, str) else ""
        guard = self._failed_logins
        counted = guard.attempt(name, address) if guard else None
        raw = self._stored(name)
        found = json.loads(raw) if raw is not None else None
        matched = self._verify(found["password"] if found else None, password)
        if found is None or raw is None or matched is None:
            raise Unauthenticated("bad_credentials", "wrong name or password")
        if guard and counted is not None:
            guard.succeeded(counted, name, address)
        normal = password_form(password)
        if matched != normal or self._hasher.check_needs_rehash(found["password"]):
            # a hash of the raw text (made before passwords were normalised) or of old
            # parameters: replaced by one of the NFKC form, on this record only (a
            # password change landing meanwhile wins)
            upgraded = json.dumps({**found, "password": self._hashing(self._hasher.hash, normal)})
            self._records.rehash(found["name"], raw, upgraded)
        return {"name": found["name"], "token": self._new_session(found["name"])}

    def _verify(self, stored: str | None, password: str) -> str | None:
        """The form of ``password`` that ``stored`` was made from, or None (``stored``
        None: no account, checked against the dummy hash at the same cost). Its NFKC
        form is tried first, then, when that differs, the text as sent (a hash made
        before passwords were normalised): for an unknown name too, so the cost never
        says whether the name has an account."""
        if not isinstance(password, str):
            return None
        normal = password_form(password)
        for candidate in [normal] if normal == password else [normal, password]:
            try:
                self._hashing(self._hasher.verify, stored or self._dummy, candidate)
            except (VerificationError, InvalidHashError):
                continue
            return candidate if stored else None
        return None

    def _new_session(self, name: str) -> str:
        """A session lives ``session_seconds`` from login; its expiry is stored beside
        the name (``name SEP expires``), so one read says both who and whether still."""
        token = new_token()
        self._records.add_session(name, token_digest(token), int(self._clock() + self._session_seconds))
        return token

    def session(self, token: str | None) -> str:
        """The account name a session token belongs to; 401 without a valid one."""
        if not token:
            raise Unauthenticated("no_session", "log in first: 'Authorization: Bearer <session token>'")
        digest = token_digest(token)
        found = self._records.session(digest)
        if found is None:
            raise Unauthenticated("bad_session", "this session is not valid (logged out?)")
        name, expires = found
        if expires is not None and expires <= self._clock():
            self._records.drop_session(name, digest)
            raise Unauthenticated("session_expired", "this session has expired: log in again")
        return name

    def logout(self, token: str | None) -> JSON:
        name = self.session(token)
        self._records.drop_session(name, token_digest(token or ""))
        return {"name": name, "revoked": 1}

    def logout_all(self, token: str | None) -> JSON:
        name = self.session(token)
        return {"name": name, "revoked": self._records.drop_sessions(name)}

    def change_password(self, token: str | None, old: str, new: str, address: str = "") -> JSON:
        """A new password, given the current one (a stolen session alone cannot lock the
        owner out). Every session of the account ends, a stolen one with them; the
        answer carries a fresh session. Nothing is written on a refusal."""
        name = self.session(token)
        guard = self._failed_logins
        counted = guard.attempt(name, address) if guard else None
        raw = self._records.record(name)
        if raw is None:
            raise NotFound("not_found", "account not found", {"what": "account"})
        found = json.loads(raw)
        if self._verify(found["password"], old) is None:
            raise Unauthenticated("bad_credentials", "the current password is not right")
        if guard and counted is not None:
            guard.succeeded(counted, name, address)
        new = _checked_password(new)
        changed = json.dumps({**found, "password": self._hashing(self._hasher.hash, new)})
        revoked = self._records.change_password(name, raw, changed, token_digest(token or ""))
        if revoked == -1:  # another change landed since the old password was checked
            raise Unauthenticated("bad_credentials", "the current password is not right")
        if revoked == -2:  # this session ended meanwhile (a change, a logout everywhere)
            raise Unauthenticated("bad_session", "this session is not valid (logged out?)")
        return {"name": name, "token": self._new_session(name), "revoked": int(revoked)}

    # -- games ---------------------------------------------------------------------------
    def add_game(self, name: str, game_id: str, when: float) -> None:
        self._records.add_game(name, game_id, when)

    def games(self, name: str, limit: int = 200) -> list[str]:
        return self._records.games(name, limit)


def _checked_password(password: str) -> str:
    """A new password's NFKC form, as hashed; 400 ``bad_password`` when it is not 8 to
    256 characters (counted after normalising: what is hashed is what is bounded)."""
    normal = password_form(password) if isinstance(password, str) else ""
    if not MIN_PASSWORD <= len(normal) <= MAX_PASSWORD:
        raise Invalid(
            "bad_password",
            f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
            {"min": MIN_PASSWORD, "max": MAX_PASSWORD},
        )
    return normal
