"""Whether the Redis we write to keeps what it acknowledges, as ``APPENDFSYNC`` promises.

An action is answered 201 once Redis has executed its append; that answer means
"durable" only if Redis writes an append-only file (``appendonly yes``), fsyncs it at
least as often as promised (``appendfsync``), and never evicts keys to make room
(``maxmemory-policy noeviction``: an evicted stream is a lost game). Debian's stock
Redis has ``appendonly no``: an app started on it silently lost the promise, so the
app reads the settings and refuses (``service/app.py``) unless the operator opts out
with ``REDIS_DURABILITY_CHECK=off`` (a test's throwaway Redis, or a managed Redis that
hides ``CONFIG`` but persists by contract).
"""

from __future__ import annotations

from typing import Any

from redis import exceptions
from redis.cluster import RedisCluster

# From the fewest losses to the most (docs/DEPLOY.md, "Durability").
FSYNC_ORDER = ("always", "everysec", "no")
SETTINGS = ("appendonly", "appendfsync", "maxmemory-policy")


class NotDurable(RuntimeError):
    """The Redis would acknowledge writes it can lose."""


def settings_of(client: Any) -> list[dict[str, str]]:
    """The persistence settings of every node that takes writes (one for a standalone
    Redis, each primary of a cluster)."""
    found: list[dict[str, str]] = []
    try:
        if isinstance(client, RedisCluster):
            for node in client.get_primaries():  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
                found.append(_settings(client.get_redis_connection(node)))
        else:
            found.append(_settings(client))
    except exceptions.ResponseError as exc:  # CONFIG renamed or refused (managed Redis, ACLs)
        raise NotDurable(
            f"cannot read Redis's persistence settings ({exc}); set REDIS_DURABILITY_CHECK=off "
            "only if this Redis persists every acknowledged write by other means"
        ) from exc
    return found


def _settings(node: Any) -> dict[str, str]:
    values: dict[str, str] = {}
    for name in SETTINGS:
        values.update({str(k): str(v) for k, v in node.config_get(name).items()})
    return values


def problems(found: list[dict[str, str]], appendfsync: str) -> list[str]:
    """What in ``found`` breaks the promise of ``appendfsync`` (empty: nothing)."""
    wanted = FSYNC_ORDER.index(appendfsync) if appendfsync in FSYNC_ORDER else 0
    out: list[str] = []
    for node in found:
        if node.get("appendonly") != "yes":
            out.append(f"appendonly is {node.get('appendonly')!r}, not 'yes': a restart loses what the RDB lacks")
        fsync = node.get("appendfsync", "")
        if fsync not in FSYNC_ORDER or FSYNC_ORDER.index(fsync) > wanted:
            out.append(f"appendfsync is {fsync!r}, weaker than the promised {appendfsync!r} (APPENDFSYNC)")
        if node.get("maxmemory-policy") != "noeviction":
            out.append(f"maxmemory-policy is {node.get('maxmemory-policy')!r}, not 'noeviction': keys can be evicted")
    return sorted(set(out))


def check(client: Any, appendfsync: str) -> list[str]:
    """The reasons this Redis breaks the promise (empty: it keeps it).

    Raises a storage error when Redis is unreachable: then nothing is known yet."""
    try:
        return problems(settings_of(client), appendfsync)
    except NotDurable as exc:
        return [str(exc)]


class DurabilityCheck:
    """The check as the app runs it: at start (``refuse_unless_kept``) and on each
    ``/readyz`` (``reasons``), so a Redis restarted with another configuration shows."""

    def __init__(self, client: Any, appendfsync: str, enabled: bool = True) -> None:
        self._client, self._appendfsync, self._enabled = client, appendfsync, enabled

    @property
    def enabled(self) -> bool:
        return self._enabled

    def reasons(self) -> list[str]:
        """Empty when Redis keeps the promise or the check is off; raises a storage
        error when Redis is unreachable."""
        return check(self._client, self._appendfsync) if self._enabled else []

    def refuse_unless_kept(self) -> None:
        """Raise ``NotDurable`` when a reachable Redis breaks the promise; an unreachable
        one is let through (``/readyz`` reports it, and checks again once it answers)."""
        from service.adapters.connection import UNAVAILABLE

        try:
            found = self.reasons()
        except UNAVAILABLE:
            return
        if found:
            raise NotDurable(
                "Redis does not keep what it acknowledges: "
                + "; ".join(found)
                + ". Fix its configuration (deploy/redis.conf) or set REDIS_DURABILITY_CHECK=off to run anyway"
            )
