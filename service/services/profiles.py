"""An account's profile: its rating per game with the history, its games and its notes."""

from __future__ import annotations

import json

from events.shapes import JSON
from events.store import EventStore, game_stream
from projections.ratings import PROVISIONAL_GAMES
from service.ports import Notes
from service.services.accounts import Accounts
from service.services.ratings import Ratings

GAMES_SHOWN = 100
NOTES_PER_GAME = 200


def profile(accounts: Accounts, store: EventStore, notes: Notes, ratings: Ratings, name: str) -> JSON:
    record = accounts.require(name)
    name = record["name"]
    game_ids = accounts.games(name, limit=GAMES_SHOWN)
    games, written = [], []
    for game_id, raw in zip(game_ids, store.summaries([game_stream(g) for g in game_ids])):
        summary = json.loads(raw) if raw else None
        if summary is None:
            continue
        seat = next((int(s) for s, a in (summary.get("accounts") or {}).items() if a == name), None)
        result = summary.get("result")
        games.append(
            {
                "id": game_id,
                "game": summary["game"],
                "title": summary["title"],
                "status": summary["status"],
                "seat": seat,
                "seats": summary["seats"],
                "ranked": summary["ranked"],
                "rank": result["ranking"][seat] if result and seat is not None else None,
                "replay": f"/games/{game_id}/replay",
                "created_at": summary["created_at"],
            }
        )
        if seat is None:
            continue
        for note_id, note in notes.page(game_id, None, NOTES_PER_GAME):
            if note.get("role") == "seat" and note.get("seat") == seat:
                written.append(
                    {
                        "id": note_id,
                        "game_id": game_id,
                        "seq": note["seq"],
                        "kind": note["kind"],
                        "text": note["text"],
                        "ts": note["ts"],
                    }
                )
    return {
        "name": name,
        "created_at": record["created_at"],
        "ratings": ratings.of_account(name),
        "games": games,
        "annotations": written,
        "provisional_below_games": PROVISIONAL_GAMES,
    }
