"""The tournament state: a fold of the tournament stream's events.

An event here is ``{"seq", "type", "payload", "actor"?, "ts"?}``. ``apply`` checks
that an event may happen now before building the new state, and raises
``TournamentError`` otherwise, so the service validates a command by applying the
events it would append, and a verifier refolds an exported stream with the same code.

State shape (JSON-serialisable)::

    {"id", "game", "name", "format": "swiss"|"tables", "options": {...},
     "min_seats", "max_seats", "status": "registration"|"running"|"finished",
     "registration": "open"|"closed" (the director's switch),
     "players": {pid: {"pid", "name", "withdrawn", "registered_seq"}}, "order": [pid],
     "rounds": [{"round", "status": "paired"|"finished", "byes": [pid],
                 "tables": [{"table", "game_id", "seats": [pid | None], "result", "head_hash",
                             "computers"?: {seat: strength}}]}],
     "games": {game_id: [round index, table index]}, "seq", "created_at", "finished_at",
     "feed_delay"?: the omniscient feed's delay (projections/tournaments/feed_delay.py)}
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from events.refusal import Refusal
from events.shapes import JSON
from projections.tournaments import feed_delay

Event = Mapping[str, Any]
"""A tournament event as folded: an entry of the stream (an ``Envelope``) or one the
service is about to append, read and never changed."""


class TournamentError(Refusal):
    """A command or event the tournament refuses: not acceptable as it stands."""


class TournamentConflict(TournamentError):
    """Acceptable in another state of the tournament, not in this one."""


class TournamentUnknown(TournamentError):
    """It names a player the tournament does not have."""


def fold(events: Iterable[Event], start: JSON | None = None) -> JSON | None:
    """The state after ``events``, folded onto ``start`` (None: from the beginning)."""
    state = start
    for event in events:
        state = apply(state, event)
    return state


def apply(state: dict[str, Any] | None, event: Event) -> dict[str, Any]:
    handler = _HANDLERS.get(event["type"])
    if handler is None:
        raise TournamentError("unknown_event", f"unknown tournament event {event['type']!r}")
    if state is None and event["type"] != "tournament.created":
        raise TournamentError("not_created", "the stream must start with tournament.created")
    if state is not None and event["type"] == "tournament.created":
        raise TournamentConflict("already_created", "the tournament already exists")
    new: JSON = handler(state, event["payload"], event)
    new["seq"] = event.get("seq", (state or {}).get("seq", 0) + 1)
    return new


def active_players(state: dict[str, Any]) -> list[str]:
    return [pid for pid in state["order"] if not state["players"][pid]["withdrawn"]]


def seat_names(state: dict[str, Any], table: dict[str, Any]) -> list[str]:
    """The names a table's game is created with: each player's, and for a seat a
    computer fills (a bye filled by the director: ``None`` in ``seats``) its strength."""
    computers = table.get("computers") or {}
    return [
        state["players"][pid]["name"] if pid is not None else f"Computer (strength {computers[str(s)]})"
        for s, pid in enumerate(table["seats"])
    ]


def current_round(state: dict[str, Any]) -> dict[str, Any] | None:
    return state["rounds"][-1] if state["rounds"] else None


def unreported_tables(state: dict[str, Any]) -> list[dict[str, Any]]:
    rnd = current_round(state)
    if rnd is None:
        return []
    return [t for t in rnd["tables"] if t["result"] is None]


def player_by_name(state: dict[str, Any], name: str) -> dict[str, Any] | None:
    key = name.strip().casefold()
    return next((p for p in state["players"].values() if p["name"].strip().casefold() == key), None)


Handler = Callable[[Any, JSON, Event], JSON]


# -- handlers: check, then build the new state ---------------------------------------


def _created(state: Any, p: JSON, event: Event) -> JSON:
    return {
        "id": p["id"],
        "game": p["game"],
        "name": p["name"],
        "format": p["format"],
        "options": p["options"],
        "min_seats": p["min_seats"],
        "max_seats": p["max_seats"],
        "status": "registration",
        "registration": "open",
        "players": {},
        "order": [],
        "rounds": [],
        "games": {},
        "created_at": event.get("ts"),
        "finished_at": None,
    }


def _not_finished(state: JSON) -> None:
    if state["status"] == "finished":
        raise TournamentConflict("tournament_finished", "the tournament is finished")


def _registered(state: Any, p: JSON, event: Event) -> JSON:
    _not_finished(state)
    if state.get("registration") == "closed":
        raise TournamentConflict("registration_closed", "the director has closed registration")
    if p["pid"] in state["players"]:
        raise TournamentConflict("already_registered", f"player {p['pid']} is already registered")
    if player_by_name(state, p["name"]) is not None:
        raise TournamentConflict(
            "already_registered", f"a player named {p['name']!r} is already registered", {"name": p["name"]}
        )
    if p.get("account") and any(o.get("account") == p["account"] for o in state["players"].values()):
        raise TournamentConflict(
            "already_registered", f"the account {p['account']!r} is already registered", {"account": p["account"]}
        )
    new = dict(state)
    new["players"] = dict(state["players"])
    new["players"][p["pid"]] = {
        "pid": p["pid"],
        "name": p["name"],
        "withdrawn": False,
        "registered_seq": event.get("seq"),
    }
    if p.get("account"):  # an account's registration: its binding and the rating that seeds round 1
        new["players"][p["pid"]].update(account=p["account"], rating=p.get("rating"))
    new["order"] = [*state["order"], p["pid"]]
    return new


def _withdrawn(state: Any, p: JSON, event: Event) -> JSON:
    _not_finished(state)
    player = state["players"].get(p["pid"])
    if player is None:
        raise TournamentUnknown("unknown_player", f"no player {p['pid']} in this tournament")
    if player["withdrawn"]:
        raise TournamentConflict("already_withdrawn", f"player {p['pid']} has already withdrawn")
    new = dict(state)
    new["players"] = dict(state["players"])
    new["players"][p["pid"]] = {**player, "withdrawn": True, "withdrawn_round": len(state["rounds"])}
    return new


def check_next_round(state: dict[str, Any]) -> int:
    """The number of the next round, or the reason it may not be paired now."""
    _not_finished(state)
    rnd = current_round(state)
    if rnd is not None and rnd["status"] != "finished":
        raise TournamentConflict(
            "round_in_progress",
            f"round {rnd['round']} is not finished yet",
            {"round": rnd["round"], "unreported": [t["game_id"] for t in unreported_tables(state)]},
        )
    number = len(state["rounds"]) + 1
    if number > state["options"]["rounds"]:
        raise TournamentConflict("no_more_rounds", f"all {state['options']['rounds']} rounds are played")
    return number


def _paired(state: Any, p: JSON, event: Event) -> JSON:
    number = check_next_round(state)
    if p["round"] != number:
        raise TournamentConflict("wrong_round", f"the next round is {number}")
    active = set(active_players(state))
    seated = [pid for t in p["tables"] for pid in t["seats"] if pid is not None] + list(p["byes"])
    if sorted(seated) != sorted(active):
        raise TournamentError("bad_pairing", "a round must seat every active player exactly once")
    for t in p["tables"]:
        if not state["min_seats"] <= len(t["seats"]) <= state["max_seats"]:
            raise TournamentError("bad_pairing", f"table {t['table']} has {len(t['seats'])} seats")
        if t["game_id"] in state["games"]:
            raise TournamentError("bad_pairing", f"game {t['game_id']} is already in the tournament")
        empty = {str(s) for s, pid in enumerate(t["seats"]) if pid is None}
        if empty != set(t.get("computers") or {}) or len(empty) == len(t["seats"]):
            raise TournamentError(
                "bad_pairing",
                f"table {t['table']}: a computer fills each empty seat, and a table holds at least one player",
            )
    new = dict(state)
    new["status"] = "running"
    tables = [
        {
            "table": t["table"],
            "game_id": t["game_id"],
            "seats": list(t["seats"]),
            "result": None,
            "head_hash": None,
            **({"computers": dict(t["computers"])} if t.get("computers") else {}),
        }
        for t in p["tables"]
    ]
    new["rounds"] = [
        *state["rounds"],
        {"round": number, "status": "paired", "byes": list(p["byes"]), "tables": tables, "paired_at": event.get("ts")},
    ]
    new["games"] = dict(state["games"])
    for i, t in enumerate(tables):
        new["games"][t["game_id"]] = [number - 1, i]
    return new


def _reported(state: Any, p: JSON, event: Event) -> JSON:
    where = state["games"].get(p["game_id"])
    if where is None:
        raise TournamentError("game_not_in_tournament", f"game {p['game_id']} is not part of this tournament")
    r, i = where
    table = state["rounds"][r]["tables"][i]
    if table["result"] is not None:
        raise TournamentConflict("already_reported", f"game {p['game_id']} is already reported")
    result = p["result"]
    n = len(table["seats"])
    if len(result["scores"]) != n or len(result["ranking"]) != n:
        raise TournamentError("bad_result", f"a result of game {p['game_id']} needs {n} seats")
    return _with_result(state, r, i, result, p.get("head_hash"))


def _corrected(state: Any, p: JSON, event: Event) -> JSON:
    """A reported game's result corrected after its end (a referee.correction in the
    game's log): the table takes the new result, whenever it arrives."""
    where = state["games"].get(p["game_id"])
    if where is None:
        raise TournamentError("game_not_in_tournament", f"game {p['game_id']} is not part of this tournament")
    r, i = where
    if state["rounds"][r]["tables"][i]["result"] is None:
        raise TournamentConflict("not_reported", f"game {p['game_id']} has no result to correct")
    result = p["result"]
    if len(result["scores"]) != len(state["rounds"][r]["tables"][i]["seats"]):
        raise TournamentError("bad_result", f"a result of game {p['game_id']} has one score per seat")
    return _with_result(state, r, i, result, p.get("head_hash"))


def table_result(result: JSON) -> JSON:
    """What a table keeps of its game's result; ``cancelled`` (a seat never made its
    first move) only when it is so, as older results never say."""
    kept: JSON = {
        "scores": list(result["scores"]),
        "ranking": list(result["ranking"]),
        "forfeited": list(result.get("forfeited") or []),
    }
    if result.get("cancelled"):
        kept["cancelled"] = True
    return kept


def _with_result(state: JSON, r: int, i: int, result: JSON, head_hash: str | None) -> JSON:
    """The state with table ``i`` of round ``r`` holding ``result`` (a report or a correction)."""
    new = dict(state)
    new["rounds"] = list(state["rounds"])
    rnd = copy.deepcopy(state["rounds"][r])
    rnd["tables"][i]["result"] = table_result(result)
    rnd["tables"][i]["head_hash"] = head_hash
    new["rounds"][r] = rnd
    return new


def _round_finished(state: Any, p: JSON, event: Event) -> JSON:
    rnd = current_round(state)
    if rnd is None or rnd["round"] != p["round"] or rnd["status"] == "finished":
        raise TournamentConflict("wrong_round", f"round {p['round']} is not the round in play")
    missing = unreported_tables(state)
    if missing:
        raise TournamentConflict(
            "round_in_progress",
            f"round {p['round']} still has games to finish",
            {"unreported": [t["game_id"] for t in missing]},
        )
    new = dict(state)
    new["rounds"] = [*state["rounds"][:-1], {**rnd, "status": "finished", "finished_at": event.get("ts")}]
    return new


def _finished(state: Any, p: JSON, event: Event) -> JSON:
    _not_finished(state)
    rnd = current_round(state)
    if rnd is not None and rnd["status"] != "finished":
        raise TournamentConflict("round_in_progress", f"round {rnd['round']} is not finished yet")
    new = dict(state)
    new["status"] = "finished"
    new["finished_at"] = event.get("ts")
    return new


def _registration(value: str) -> Handler:
    def handler(state: JSON, p: JSON, event: Event) -> JSON:
        _not_finished(state)
        if state.get("registration", "open") == value:
            raise TournamentConflict(f"registration_already_{value}", f"registration is already {value}")
        return {**state, "registration": value}

    return handler


def _feed_delay(state: JSON, p: JSON, event: Event) -> JSON:
    """The director's delay for the omniscient feed; settable at any time, audited as
    an entry of the stream like every other choice."""
    try:
        delay = feed_delay.parse(p["delay"])
    except feed_delay.DelayError as exc:
        raise TournamentError(exc.code, exc.message) from exc
    return {**state, "feed_delay": delay}


_HANDLERS: dict[str, Handler] = {
    "feed.delay_set": _feed_delay,
    "registration.closed": _registration("closed"),
    "registration.opened": _registration("open"),
    "tournament.created": _created,
    "player.registered": _registered,
    "player.withdrawn": _withdrawn,
    "round.paired": _paired,
    "game.reported": _reported,
    "game.corrected": _corrected,
    "round.finished": _round_finished,
    "tournament.finished": _finished,
}
