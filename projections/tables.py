"""Open tables: a game's seats filled before it starts, folded from the table's own log.

A table's log says who opened it and on what terms (the game, its options, the seats,
who is invited, the seats kept for someone (a rematch), when it expires, and the
commitment to the server's seed, the account that referees it if one was named), then each
seat taken (by which account, with which contribution to the deal), each invitation
declined, each free seat the creator gave a computer (``seat.computer``), and how it ended: ``table.started`` names the game made from it (same id,
same seed), ``table.expired`` says nobody is coming. Pure: no I/O, no clock (the
caller says what time it is).
"""

from __future__ import annotations

from typing import Any

from events.shapes import JSON, Envelope

OPEN, STARTED, EXPIRED = "open", "started", "expired"


class TableError(Exception):
    """The entry cannot follow the table as it stands."""


def fold(entries: list[Envelope], state: JSON | None = None) -> JSON | None:
    for entry in entries:
        state = apply(state, entry)
    return state


def apply(state: JSON | None, entry: Envelope) -> JSON:
    """The table after one more entry; never mutates ``state``."""
    kind, p = entry["type"], entry["payload"]
    if state is None:
        if kind != "table.opened":
            raise TableError("a table's log starts with table.opened")
        return {
            "id": p["id"],
            "game": p["game"],
            "options": p["options"],
            "clock": p["clock"],
            "ranked": p["ranked"],
            "creator": p["creator"],
            "invited": list(p["invited"]),
            "declined": [],
            "listed": p["listed"],
            "expires_at": p["expires_at"],
            "seed_commitment": p["seed_commitment"],
            "reserved": dict(p.get("reserved") or {}),
            "rematch_of": p.get("rematch_of"),
            "referee": p.get("referee"),  # an account that takes no seat and referees the game
            "seats": [
                {"seat": i, "bot": p["bots"][str(i)]} if str(i) in p["bots"] else {"seat": i} for i in range(p["seats"])
            ],
            "status": OPEN,
            "game_id": None,
            "created_at": entry["ts"],
            "seq": entry["seq"],
        }
    new = {**state, "seq": entry["seq"]}
    if state["status"] != OPEN:
        raise TableError(f"the table is {state['status']}")
    if kind == "seat.taken":
        seats = [dict(s) for s in state["seats"]]
        if not 0 <= p["seat"] < len(seats) or "bot" in seats[p["seat"]] or "account" in seats[p["seat"]]:
            raise TableError(f"seat {p['seat']} is not free")
        if p["account"] in accounts(state):
            raise TableError(f"{p['account']} already has a seat")
        if state["reserved"].get(str(p["seat"]), p["account"]) != p["account"]:
            raise TableError(f"seat {p['seat']} is kept for {state['reserved'][str(p['seat'])]}")
        seats[p["seat"]].update(account=p["account"], contribution=p["contribution"])
        new["seats"] = seats
    elif kind == "seat.computer":
        seats = [dict(s) for s in state["seats"]]
        if p["seat"] not in free_seats(state) or str(p["seat"]) in state["reserved"]:
            raise TableError(f"seat {p['seat']} is not free")
        seats[p["seat"]]["bot"] = p["strength"]
        new["seats"] = seats
    elif kind == "invitation.declined":
        if p["account"] not in state["invited"]:
            raise TableError(f"{p['account']} is not invited")
        new["invited"] = [a for a in state["invited"] if a != p["account"]]
        new["declined"] = [*state["declined"], p["account"]]
    elif kind == "table.expired":
        new["status"] = EXPIRED
    elif kind == "table.started":
        if free_seats(state):
            raise TableError("a table starts when its seats are full")
        new["status"], new["game_id"] = STARTED, p["game_id"]
    else:
        raise TableError(f"unknown table entry {kind!r}")
    return new


def accounts(state: JSON) -> list[str]:
    return [s["account"] for s in state["seats"] if "account" in s]


def free_seats(state: JSON) -> list[int]:
    return [s["seat"] for s in state["seats"] if "account" not in s and "bot" not in s]


def open_to(state: JSON, account: str) -> list[int]:
    """The free seats this account may take: the one kept for it (a rematch keeps each
    seat for one player), else those kept for nobody."""
    kept = [int(s) for s, a in state["reserved"].items() if a == account]
    free = free_seats(state)
    if kept:
        return [s for s in kept if s in free]
    return [s for s in free if str(s) not in state["reserved"]]


def deal(state: JSON) -> list[JSON]:
    """Each seat's share of the deal, as ``game.created`` records it: a client's value,
    or a computer seat's mark that its share is the server's own."""
    out: list[JSON] = []
    for s in state["seats"]:
        share: dict[str, Any] = {"seat": s["seat"]}
        share.update({"value": s["contribution"]} if "account" in s else {"from": "server"})
        out.append(share)
    return out


def expired(state: JSON, now: float) -> bool:
    return bool(state["status"] == OPEN and now >= float(state["expires_at"]))


def public(state: JSON) -> JSON:
    """What anyone may read of a table: everything in its log (contributions
    included: without the server's seed they predict nothing)."""
    return {**state, "free_seats": free_seats(state)}
