"""Accounts: optional, for players who want their games, ratings and notes to follow them.

- Passwords are hashed with Argon2id by ``argon2-cffi`` (its ``PasswordHasher``, the
  RFC 9106 low-memory profile); the hash carries its own parameters, so raising them
  later re-hashes a password at its next login (``check_needs_rehash``).
- A password is normalised to Unicode NFKC before it is checked or hashed (NIST SP
  800-63B, 5.1.1.2), so "café" typed with a precomposed é or with e and a combining
  accent, or in full-width letters, is one password. Hashes made before that from the
  raw text still verify: a login whose normalised form fails tries the raw text, and on
  success the hash is replaced by one of the normalised form.
- Failed logins are counted per account name (``FailedLogins``, on the ``limits``
  library's Redis storage); past the limit a login is refused before any Argon2 runs.
- Sessions are random bearer tokens, answered once; Redis keeps their SHA-256 only
  (like seat tokens). Logout revokes one, logout-all every one of the account's, in one Lua
  script (a login racing it cannot slip between its read and its delete).
- Names follow the tournament names' rules (``service/services/names.py``: ``check_new``):
  normalised, no mixed look-alike scripts, no role words, unique by look; and no
  character that would break the profile's address (``/ \\ ? # %``, only dots).
  Creating an account checks and claims every look-alike key of the name in one Lua
  script, so two look-alike names racing cannot both win.

Every key lives under the hash tag ``{accounts}`` (one slot on a Redis Cluster).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from events import keys
from events.envelope import now_rfc3339
from service.services import names
from service.services.callers import new_token, token_digest
from service.services.errors import Conflict, Invalid, NotFound, RateLimited, Refusal, Unauthenticated

MAX_NAME = 40
PATH_UNSAFE = re.compile(r"[/\\?#%]")  # a name is a path segment of /accounts/<name>
MIN_PASSWORD = 8
MAX_PASSWORD = 256  # Argon2 takes any length; a bound keeps a request's cost bounded

CREATE_LUA = """
for i = 3, #ARGV do
  local holder = redis.call('HGET', KEYS[2], ARGV[i])
  if holder then return {'taken', holder} end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
for i = 3, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], ARGV[1]) end
return {'ok', ARGV[1]}
"""

# Ends every session of an account: ``sessions`` is the digest -> name hash, ``mine`` the
# account's set of digests. Read and delete in one step: a login landing between a read
# and a delete would keep a session that no later logout-all could find.
END_SESSIONS_LUA = """
local digests = redis.call('SMEMBERS', mine)
for i = 1, #digests, 1000 do
  redis.call('HDEL', sessions, unpack(digests, i, math.min(i + 999, #digests)))
end
redis.call('DEL', mine)
return #digests
"""
LOGOUT_ALL_LUA = "local sessions, mine = KEYS[1], KEYS[2]\n" + END_SESSIONS_LUA

# The new password is written only onto the record the old one was checked against, and
# only while the session asking still exists; every session then ends, in the same step.
# Two changes racing (or a change racing one that ended its session) cannot both win.
CHANGE_PASSWORD_LUA = (
    """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return -1 end
if not redis.call('HGET', KEYS[2], ARGV[4]) then return -2 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
local sessions, mine = KEYS[2], KEYS[3]
"""
    + END_SESSIONS_LUA
)


# A password's hash replaced (a re-hash at login) only on the record it was checked
# against: a password change landing meanwhile must not be undone by the old password.
REHASH_LUA = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""


def password_form(password: str) -> str:
    """What is hashed and checked: the password in Unicode NFKC (NIST SP 800-63B)."""
    return unicodedata.normalize("NFKC", password)


class FailedLogins:
    """Failed logins per account name, in sliding windows of the ``limits`` library on
    the server's Redis (shared by every worker, one Lua call per window and key).

    An attempt is counted *before* its password is checked, so a burst of parallel
    guesses cannot all pass while the first ones are still hashing; a right password
    gives its count back (``cost=-1``), so only failures stay counted. The counters are
    keyed by the name's looks (its one or two look-alike keys, hashed), computed from
    the name sent alone: a name with an account and one without are counted, and
    refused, alike, and "alice", "ALICE" and a full-width "ａｌｉｃｅ" share a counter. An
    attempt counts under each of its name's looks and is refused when any is spent.
    (A count given back after its window moved on returns a little more than the
    attempt still weighed there: at most one failure per right password.)"""

    NAMESPACE = "login-failures"

    def __init__(self, limiter, items):
        self.limiter = limiter  # a limits.strategies.RateLimiter
        self.items = list(items)  # limits.RateLimitItem, e.g. parse_many("10 per 15 minutes")

    @staticmethod
    def counters(name: str) -> list[tuple[str, str]]:
        return sorted(
            (FailedLogins.NAMESPACE, hashlib.sha256(look.encode("utf-8", "surrogatepass")).hexdigest()[:32])
            for look in names.skeletons(name)
        )

    def attempt(self, name: str) -> list:
        """Count one attempt for ``name``; 429 ``rate_limited`` (with ``retry_after``)
        when its failures have reached a limit. Answers what ``succeeded`` gives back."""
        counted: list = []
        for item in self.items:
            for key in self.counters(name):
                if not self.limiter.hit(item, *key):
                    self._give_back(counted)
                    stats = self.limiter.get_window_stats(item, *key)
                    wait = max(1, math.ceil(stats.reset_time - time.time()))
                    raise RateLimited(
                        "rate_limited",
                        "too many failed logins for this name; try again later",
                        retry_after=wait,
                    )
                counted.append((item, key))
        return counted

    def succeeded(self, counted: list) -> None:
        """A right password: its attempt does not count."""
        self._give_back(counted)

    def _give_back(self, counted: list) -> None:
        for item, key in counted:
            self.limiter.hit(item, *key, cost=-1)


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

    def __init__(self, slots: int = HASH_SLOTS):
        self.slots = slots
        self._run = None

    def __call__(self, fn, *args):
        if self._run is None:
            self._run = self._choose()
        return self._run(fn, *args)

    def _choose(self):
        try:
            from gevent import monkey
        except ImportError:
            monkey = None
        if monkey is not None and monkey.is_module_patched("threading"):
            from gevent.threadpool import ThreadPool

            pool = ThreadPool(self.slots)

            def in_pool(fn, *args):
                # an exception raised in the pool's thread is printed by gevent's hub
                # (a traceback per wrong password): carry it back and raise it here
                ok, value = pool.apply(_caught, (fn, *args))
                if not ok:
                    raise value
                return value

            return in_pool
        import threading

        gate = threading.BoundedSemaphore(self.slots)

        def inline(fn, *args):
            with gate:
                return fn(*args)

        return inline


def _caught(fn, *args):
    try:
        return True, fn(*args)
    except Exception as exc:
        return False, exc


SESSION_SEP = "\x1f"  # never in a name (control characters are refused)


class Accounts:
    def __init__(self, redis, password_hasher: PasswordHasher | None = None, session_days: float = 30):
        self.redis = redis
        self.session_seconds = session_days * 86400
        self.clock = time.time
        self._create = redis.register_script(CREATE_LUA)
        self._logout_all = redis.register_script(LOGOUT_ALL_LUA)
        self._change_password = redis.register_script(CHANGE_PASSWORD_LUA)
        self._rehash = redis.register_script(REHASH_LUA)
        self._hashing = _HashPool()
        self.failed_logins: FailedLogins | None = None  # set by the HTTP edge when rate limits are on
        self.use_hasher(password_hasher or hasher())

    def use_hasher(self, password_hasher: PasswordHasher) -> None:
        self.hasher = password_hasher
        self._dummy_hash: str | None = None

    @property
    def _dummy(self) -> str:
        """Verified against when the name is unknown, so a wrong name costs as long as a
        wrong password (made on first use: building an app hashes nothing)."""
        if self._dummy_hash is None:
            self._dummy_hash = self._hashing(self.hasher.hash, "not a password of anyone")
        return self._dummy_hash

    # -- records -------------------------------------------------------------------------
    def create(self, name: str, password: str) -> dict:
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
            password_hash = self._hashing(self.hasher.hash, password)
            record = {"name": clean, "password": password_hash, "created_at": now_rfc3339()}
            status, found = self._create(
                keys=[keys.ACCOUNTS, keys.ACCOUNT_SKELETONS], args=[clean, json.dumps(record), *looks]
            )
            holder = found if status == "taken" else None
        if holder is not None:
            raise Conflict("name_taken", f"this name looks the same as {holder!r}", {"name": clean, "taken": holder})
        return {"name": clean, "created_at": record["created_at"], "token": self._new_session(clean)}

    def record(self, name: str) -> dict | None:
        """The account called ``name`` (exactly, or by look: "alice" finds "Alice")."""
        raw = self._stored(name)
        return None if raw is None else json.loads(raw)

    def _stored(self, name: str) -> str | None:
        """The account's record as stored (JSON text), found as ``record`` finds it."""
        try:
            clean = names.normalise(name, max_length=MAX_NAME)
        except Refusal:
            return None
        raw = self.redis.hget(keys.ACCOUNTS, clean)
        if raw is None:
            holders = {self.redis.hget(keys.ACCOUNT_SKELETONS, k) for k in names.skeletons(clean)} - {None}
            if len(holders) != 1:
                return None
            raw = self.redis.hget(keys.ACCOUNTS, holders.pop())
        return raw

    def holder_of_look(self, name: str) -> str | None:
        """The account whose name ``name`` looks like, if any (by the look-alike keys)."""
        looks = sorted(names.skeletons(name))
        return next(filter(None, self.redis.hmget(keys.ACCOUNT_SKELETONS, looks)), None)

    def require(self, name: str) -> dict:
        found = self.record(name)
        if found is None:
            raise NotFound("not_found", "account not found", {"what": "account"})
        return found

    # -- sessions ------------------------------------------------------------------------
    def login(self, name: str, password: str) -> dict:
        """A new session for the right password; 401 ``bad_credentials`` for a wrong name
        or password alike (which one is not said). With failed logins counted, 429
        ``rate_limited`` once the name's failures reach the limit, before any hashing."""
        name = name if isinstance(name, str) else ""
        guard = self.failed_logins
        counted = guard.attempt(name) if guard else None
        raw = self._stored(name)
        found = json.loads(raw) if raw is not None else None
        matched = self._verify(found["password"] if found else None, password)
        if found is None or raw is None or matched is None:
            raise Unauthenticated("bad_credentials", "wrong name or password")
        if guard and counted:
            guard.succeeded(counted)
        normal = password_form(password)
        if matched != normal or self.hasher.check_needs_rehash(found["password"]):
            # a hash of the raw text (made before passwords were normalised) or of old
            # parameters: replaced by one of the NFKC form, on this record only (a
            # password change landing meanwhile wins)
            upgraded = json.dumps({**found, "password": self._hashing(self.hasher.hash, normal)})
            self._rehash(keys=[keys.ACCOUNTS], args=[found["name"], raw, upgraded])
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
                self._hashing(self.hasher.verify, stored or self._dummy, candidate)
            except (VerificationError, InvalidHashError):
                continue
            return candidate if stored else None
        return None

    def _new_session(self, name: str) -> str:
        """A session lives ``session_seconds`` from login; its expiry is stored beside
        the name (``name SEP expires``), so one read says both who and whether still."""
        token = new_token()
        digest = token_digest(token)
        expires = int(self.clock() + self.session_seconds)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(keys.ACCOUNT_SESSIONS, digest, f"{name}{SESSION_SEP}{expires}")
        pipe.sadd(keys.account_sessions(name), digest)
        pipe.execute()
        return token

    def session(self, token: str | None) -> str:
        """The account name a session token belongs to; 401 without a valid one."""
        if not token:
            raise Unauthenticated("no_session", "log in first: 'Authorization: Bearer <session token>'")
        digest = token_digest(token)
        found = self.redis.hget(keys.ACCOUNT_SESSIONS, digest)
        if found is None:
            raise Unauthenticated("bad_session", "this session is not valid (logged out?)")
        name, _, expires = found.partition(SESSION_SEP)
        if expires and int(expires) <= self.clock():
            self._forget_session(name, digest)
            raise Unauthenticated("session_expired", "this session has expired: log in again")
        return name

    def logout(self, token: str | None) -> dict:
        name = self.session(token)
        self._forget_session(name, token_digest(token or ""))
        return {"name": name, "revoked": 1}

    def _forget_session(self, name: str, digest: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hdel(keys.ACCOUNT_SESSIONS, digest)
        pipe.srem(keys.account_sessions(name), digest)
        pipe.execute()

    def logout_all(self, token: str | None) -> dict:
        name = self.session(token)
        revoked = self._logout_all(keys=[keys.ACCOUNT_SESSIONS, keys.account_sessions(name)])
        return {"name": name, "revoked": int(revoked)}

    def change_password(self, token: str | None, old: str, new: str) -> dict:
        """A new password, given the current one (a stolen session alone cannot lock the
        owner out). Every session of the account ends, a stolen one with them; the
        answer carries a fresh session. Nothing is written on a refusal."""
        name = self.session(token)
        guard = self.failed_logins
        counted = guard.attempt(name) if guard else None
        raw = self.redis.hget(keys.ACCOUNTS, name)
        if raw is None:
            raise NotFound("not_found", "account not found", {"what": "account"})
        found = json.loads(raw)
        if self._verify(found["password"], old) is None:
            raise Unauthenticated("bad_credentials", "the current password is not right")
        if guard and counted:
            guard.succeeded(counted)
        new = _checked_password(new)
        changed = json.dumps({**found, "password": self._hashing(self.hasher.hash, new)})
        revoked = self._change_password(
            keys=[keys.ACCOUNTS, keys.ACCOUNT_SESSIONS, keys.account_sessions(name)],
            args=[name, raw, changed, token_digest(token or "")],
        )
        if revoked == -1:  # another change landed since the old password was checked
            raise Unauthenticated("bad_credentials", "the current password is not right")
        if revoked == -2:  # this session ended meanwhile (a change, a logout everywhere)
            raise Unauthenticated("bad_session", "this session is not valid (logged out?)")
        return {"name": name, "token": self._new_session(name), "revoked": int(revoked)}

    # -- games ---------------------------------------------------------------------------
    def add_game(self, name: str, game_id: str, when: float) -> None:
        self.redis.zadd(keys.account_games(name), {game_id: when}, nx=True)

    def games(self, name: str, limit: int = 200) -> list[str]:
        return list(self.redis.zrevrange(keys.account_games(name), 0, limit - 1))


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
