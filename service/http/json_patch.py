"""What changed between two JSON documents, as RFC 6902 operations (add, remove, replace).

Why: the push sends each page what is new, not the whole meta and view again. A game's
meta lists every move that stands and some views keep growing lists (a seat's notes, a
log of a round), so whole documents grew with the game's length (7 KB a frame after
150 s). A move changes a few values and appends to a few lists: the patch is that, and
its size does not depend on how long the game has been going. The page applies it to
the document it holds at the patch's ``from`` seq (static/js/json_patch.js).

Lists are patched at their ends (appended or cut at the tail, or grown at the front)
or, kept at their length, element by element; any other change replaces the list.
Values compare as JSON does (``1``, ``1.0`` and ``true`` differ), not as Python does.
"""

from __future__ import annotations

import json
import marshal
from typing import Any

Op = dict[str, Any]
SMALL = 512


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: Python's == takes 1, 1.0 and True for one another. Containers that
    == finds equal are compared as marshal's bytes, which tag every value's type (and
    are 10-20 times quicker to make than JSON text: the meta's list of moves is compared
    at every batch); equal dicts in another key order only cost a closer look."""
    if a is b:
        return True
    if type(a) is not type(b) or a != b:
        return False
    if isinstance(a, (dict, list)):
        return _bytes(a) == _bytes(b)
    return True


def _bytes(value: Any) -> bytes:
    try:
        # version 2: no back-references, whose flags follow how objects are shared
        # (a slice of a list is another object): equal values give equal bytes
        return marshal.dumps(value, 2)
    except ValueError:  # a type marshal does not take: JSON text then
        return json.dumps(value, sort_keys=True, default=repr).encode()


def _escape(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def diff(old: Any, new: Any, path: str = "") -> list[Op]:
    """The operations that turn ``old`` into ``new``."""
    if same(old, new):
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list[Op] = []
        for key, value in new.items():
            where = f"{path}/{_escape(key)}"
            if key not in old:
                ops.append({"op": "add", "path": where, "value": value})
            else:
                ops.extend(diff(old[key], value, where))
        ops.extend({"op": "remove", "path": f"{path}/{_escape(key)}"} for key in old if key not in new)
        return ops
    if isinstance(old, list) and isinstance(new, list):
        return _list_diff(old, new, path)
    return [{"op": "replace", "path": path, "value": new}]


def _list_diff(old: list[Any], new: list[Any], path: str) -> list[Op]:
    n, m = len(old), len(new)
    if m > n and same(new[:n], old):
        return [{"op": "add", "path": f"{path}/-", "value": value} for value in new[n:]]
    if m > n and same(new[m - n :], old):
        return [{"op": "add", "path": f"{path}/{i}", "value": value} for i, value in enumerate(new[: m - n])]
    if m < n and same(old[:m], new):
        return [{"op": "remove", "path": f"{path}/{i}"} for i in range(n - 1, m - 1, -1)]
    if m == n:
        ops: list[Op] = []
        for i in range(n):
            ops.extend(diff(old[i], new[i], f"{path}/{i}"))
        return ops
    return [{"op": "replace", "path": path, "value": new}]


def smaller(old: Any, new: Any) -> list[Op] | None:
    """The patch from ``old`` to ``new``, or None when sending ``new`` whole is shorter.
    A patch of under ``SMALL`` bytes is taken as it is, without encoding ``new`` to compare."""
    ops = diff(old, new)
    size = len(json.dumps(ops, separators=(",", ":")))
    if size > SMALL and size >= len(json.dumps(new, separators=(",", ":"))):
        return None
    return ops


def apply(doc: Any, ops: list[Op]) -> Any:
    """``doc`` with ``ops`` applied (a copy; ``doc`` is left as it was). For tests and
    clients written in Python; raises ValueError on an operation that does not fit."""
    root: Any = json.loads(json.dumps(doc))
    for op in ops:
        keys = [k.replace("~1", "/").replace("~0", "~") for k in op["path"].split("/")[1:]]
        if not keys:
            if op["op"] == "remove":
                raise ValueError("cannot remove the whole document")
            root = op["value"]
            continue
        parent = root
        for key in keys[:-1]:
            parent = parent[int(key)] if isinstance(parent, list) else parent[key]
        last = keys[-1]
        if isinstance(parent, list):
            i = len(parent) if last == "-" else int(last)
            if not 0 <= i <= len(parent) or (op["op"] != "add" and i == len(parent)):
                raise ValueError(f"index out of range: {op['path']}")
            if op["op"] == "add":
                parent.insert(i, op["value"])
            elif op["op"] == "remove":
                del parent[i]
            else:
                parent[i] = op["value"]
        else:
            if op["op"] != "add" and last not in parent:
                raise ValueError(f"no such member: {op['path']}")
            if op["op"] == "remove":
                del parent[last]
            else:
                parent[last] = op["value"]
    return root
