"""Notices on Redis: each account's waiting notices, when its digest is due, its settings
and push subscriptions, and the sender's counts for /metrics.

A notice joins its account's list (``notices:{account}:waiting``); the first one of a
quiet spell files the account in ``notices:due`` at now + the digest window, so what
comes meanwhile leaves in the same message. ``take`` moves one due account's notices out;
a failed send puts them back with a later time (``retry``). Each account's keys share a
hash tag, and no command spans two slots, so it runs on a Redis Cluster as it does on one
node."""

from __future__ import annotations

import json
import secrets
from typing import Any

from events.shapes import JSON

DUE = "notices:due"  # account -> when its digest leaves
STATS = "notices:stats"  # sent / failed / retried / dropped -> count
UNSUBSCRIBE = "notices:unsubscribe"  # token -> account


def waiting(account: str) -> str:
    return f"notices:{{{account}}}:waiting"


def attempts(account: str) -> str:
    return f"notices:{{{account}}}:attempts"


def settings(account: str) -> str:
    return f"notices:{{{account}}}:settings"


def pushes(account: str) -> str:
    return f"notices:{{{account}}}:push"


class RedisNoticeQueue:
    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def add(self, account: str, notice: JSON, due: float) -> None:
        """The notice first, then the due time (kept if one is filed): a sender taking the
        account in between takes the notice with the rest."""
        self._redis.rpush(waiting(account), json.dumps(notice))
        self._redis.zadd(DUE, {account: due}, nx=True)

    def take(self, now: float) -> tuple[str, int, list[JSON]] | None:
        """One due account and its notices. Whoever removes it from ``notices:due`` takes
        it (two senders never send one digest); its list and tries share one hash slot, so
        this holds on a cluster too."""
        for account in self._redis.zrangebyscore(DUE, "-inf", now, start=0, num=5):
            name = account.decode() if isinstance(account, bytes) else str(account)
            if not self._redis.zrem(DUE, name):
                continue  # another sender took it
            pipe = self._redis.pipeline(transaction=True)
            pipe.lrange(waiting(name), 0, -1)
            pipe.delete(waiting(name))
            pipe.get(attempts(name))
            items, _, tries = pipe.execute()
            return name, int(tries or 0), [json.loads(i) for i in items]
        return None

    def retry(self, account: str, notices: list[JSON], when: float) -> None:
        """Put a failed digest back, ahead of anything that came since, due at ``when``."""
        pipe = self._redis.pipeline(transaction=True)
        for notice in reversed(notices):
            pipe.lpush(waiting(account), json.dumps(notice))
        pipe.incr(attempts(account))
        pipe.execute()
        self._redis.zadd(DUE, {account: when})

    def done(self, account: str) -> None:
        self._redis.delete(attempts(account))

    def count(self, outcome: str, n: int = 1) -> None:
        self._redis.hincrby(STATS, outcome, n)

    def stats(self) -> dict[str, int]:
        raw = self._redis.hgetall(STATS)
        return {(k.decode() if isinstance(k, bytes) else k): int(v) for k, v in raw.items()}

    def length(self) -> int:
        return int(self._redis.zcard(DUE))


class RedisNoticeSettings:
    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def get(self, account: str) -> JSON:
        raw = self._redis.get(settings(account))
        return json.loads(raw) if raw else {}

    def put(self, account: str, values: JSON) -> None:
        self._redis.set(settings(account), json.dumps(values))

    def unsubscribe_token(self, account: str) -> str:
        """The account's unsubscribe token (made on first use)."""
        current = self.get(account).get("unsubscribe")
        if current:
            return str(current)
        token = secrets.token_urlsafe(24)
        self._redis.hset(UNSUBSCRIBE, token, account)
        self.put(account, {**self.get(account), "unsubscribe": token})
        return token

    def account_of_unsubscribe(self, token: str) -> str | None:
        found = self._redis.hget(UNSUBSCRIBE, token)
        return None if found is None else (found.decode() if isinstance(found, bytes) else str(found))

    def subscribe(self, account: str, subscription: JSON) -> None:
        self._redis.hset(pushes(account), subscription["endpoint"], json.dumps(subscription))

    def unsubscribe_push(self, account: str, endpoint: str) -> None:
        self._redis.hdel(pushes(account), endpoint)

    def subscriptions(self, account: str) -> list[JSON]:
        return [json.loads(v) for v in self._redis.hvals(pushes(account))]
