"""Lua scripts run on the node of their keys, loaded there and nowhere else.

redis-py's ``register_script`` answers NOSCRIPT (a node restarted, a replica promoted,
a script first used) with ``SCRIPT LOAD``, which a Redis Cluster client sends to every
master: with one master down, every script call on the healthy ones then failed (503),
first moves included. Here the script's text goes with ``EVAL`` to the node of its
keys only, which caches it there for the next ``EVALSHA``."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from redis.exceptions import NoScriptError


class NodeScript:
    def __init__(self, redis: Any, text: str) -> None:
        self._redis = redis
        self._text = text
        self._sha = hashlib.sha1(text.encode("utf-8")).hexdigest()  # what Redis names it by

    def __call__(self, keys: Sequence[Any] = (), args: Sequence[Any] = ()) -> Any:
        try:
            return self._redis.evalsha(self._sha, len(keys), *keys, *args)
        except NoScriptError:
            return self._redis.eval(self._text, len(keys), *keys, *args)


def register(redis: Any, text: str) -> NodeScript:
    return NodeScript(redis, text)
