"""An account's games and open tables, those waiting for it first.

Waiting for the account: a game where one of the seats it holds is to act, and a table it
is invited to and has not sat at. Then the open tables it sits at (waiting for others),
the games under way, and the finished ones; newest first within each group. Games come
from their lobby lines (written by the append, no fold), tables from their logs.
"""

from __future__ import annotations

import json

from events.shapes import JSON
from events.store import EventStore, game_stream
from projections import tables as tfold
from service.services.accounts import Accounts
from service.services.tables import Tables

SHOWN = 200


def my_games(accounts: Accounts, store: EventStore, tables: Tables, name: str) -> JSON:
    game_ids = accounts.games(name, SHOWN)
    entries: list[JSON] = []
    for raw in store.summaries([game_stream(g) for g in game_ids]):
        if raw:  # a table not yet started has no lobby line: it comes with the tables
            entries.append(_game(json.loads(raw), name))
    entries.extend(_table(t, name) for t in tables.of_account(name, SHOWN))
    order = {"game-waiting": 0, "table-waiting": 0, "table": 1, "game": 2, "finished": 3}
    entries.sort(key=lambda e: e["created_at"], reverse=True)
    entries.sort(key=lambda e: order[e["group"]])
    return {"name": name, "games": entries}


def _game(summary: JSON, name: str) -> JSON:
    seats = sorted(int(s) for s, a in (summary.get("accounts") or {}).items() if a == name)
    seat = seats[0] if seats else None
    waiting = summary["status"] == "active" and any(s in summary["to_act"] for s in seats)
    result = summary.get("result")
    group = "finished" if summary["status"] == "finished" else "game-waiting" if waiting else "game"
    return {
        "kind": "game",
        "id": summary["id"],
        "game": summary["game"],
        "title": summary["title"],
        "status": summary["status"],
        "seat": seat,
        "seats": summary["seats"],
        "to_act": summary["to_act"],
        "your_turn": waiting,
        "rank": result["ranking"][seat] if result and seat is not None and "ranking" in result else None,
        "created_at": summary["created_at"],
        "link": f"/games/{summary['id']}",
        "group": group,
    }


def _table(table: JSON, name: str) -> JSON:
    seated = name in tfold.accounts(table)
    invited = name in table["invited"] and not seated
    return {
        "kind": "table",
        "id": table["id"],
        "game": table["game"],
        "status": table["status"],
        "seated": seated,
        "invited": invited,
        "creator": table["creator"],
        "free_seats": table["free_seats"],
        "seats": table["seats"],
        "expires_at": table["expires_at"],
        "your_turn": invited,
        "created_at": table["created_at"],
        "link": f"/tables/{table['id']}",
        "group": "table-waiting" if invited else "table",
    }
