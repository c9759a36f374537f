"""The ratings stream: ``rating.result`` events, and the ratings as its fold.

When a rateable game finishes (or its result is corrected), the platform appends one
``rating.result`` to ``ratings:{ratings}:events``: the game, its head hash and seq,
when it finished, the account on each seat, the recorded ranking, and each account's
rating before and after this result as the fold stood when the event was written
(for a result in order, exactly the fold's step). The
write is made after the game's append, like the lobby's (``service/services/lobby_writes.py``):
it may lag but never fails the move. ``POST /api/games/{id}/rating`` records a
game whose write was lost; the action id ``<game>@<head>`` makes every record happen
once, so a game is never rated twice for the same result.

The entries use the games' envelope and hash chain (format 2, no secret), appended by
the one stream writer (``events/writer.py``) like a game's or a tournament's: each
worker keeps the entries it has read and writes onto the last of them, and a lost race
is answered with the entries it missed, so a record is one round trip.
"""

from __future__ import annotations

import logging
import threading

from events import keys
from events.store import RedisEventStore
from events.writer import Entry, Head, StreamWriter
from projections import ratings as rfold
from service.services.errors import Conflict

log = logging.getLogger(__name__)
SYSTEM = {"role": "system", "name": "ratings"}


class Ratings:
    def __init__(self, redis, store: RedisEventStore, writer: StreamWriter):
        self.redis = redis
        self.store = store
        self.writer = writer
        self._entries: list[dict] = []
        self._fold = rfold.Fold()
        self._seen = 0  # entries added to the fold
        self._lock = threading.Lock()

    # -- reading -------------------------------------------------------------------------
    def entries(self) -> list[dict]:
        """Every ``rating.result`` so far (this worker's copy, caught up)."""
        with self._lock:
            after = self._entries[-1]["seq"] if self._entries else 0
            self._entries = self._entries + self.store.read(keys.RATINGS_EVENTS, after=after)
            return self._entries

    def folded(self) -> dict:
        """The fold, caught up with the stream (one update per new result in order)."""
        self.entries()
        return self._folded()

    def _folded(self) -> dict:
        """The fold of the entries this worker holds, without asking Redis for newer ones."""
        with self._lock:
            for e in self._entries[self._seen :]:
                self._fold.add(e["payload"])
            self._seen = len(self._entries)
            return self._fold.out

    def _learn(self, new: list[dict]) -> list[dict]:
        """Add entries written since this worker's last one (a write's own, or a lost
        race's answer); the entries held after them."""
        with self._lock:
            last = self._entries[-1]["seq"] if self._entries else 0
            self._entries = self._entries + [e for e in new if e["seq"] > last]
            return self._entries

    def _reload(self) -> list[dict]:
        """Every entry read afresh and the fold rebuilt: the log lost entries this worker
        had seen (an fsync window, a failover), so what was seen is not trusted."""
        entries = self.store.read(keys.RATINGS_EVENTS)
        with self._lock:
            self._entries, self._fold, self._seen = entries, rfold.Fold(), 0
        return entries

    def recorded(self, game_id: str) -> list[dict]:
        return [e["payload"] for e in self.entries() if e["payload"]["game_id"] == game_id]

    # -- writing -------------------------------------------------------------------------
    def record(self, pstate: dict, finished_at: str, void: str | None = None) -> str:
        """Append the game's result: "ok", or "duplicate" if this head was recorded before.
        With ``void`` (why), the entry takes an earlier result of the game back out."""
        result = rfold.result_of(pstate, finished_at)

        def build(_entries: list[dict] | None) -> list[Entry]:
            before = self._folded().get(result["game"], {})  # the fold of the entries built on
            if void:
                payload = {**result, "ranking": None, "void": void, "before": {}, "after": {}}
            else:
                with self._lock:
                    after = self._fold.rated(result)
                payload = {
                    **result,
                    "before": {a: _mu_sigma(before.get(a)) for a in result["accounts"]},
                    "after": {
                        a: {"mu": rfold.rounded(r.mu), "sigma": rfold.rounded(r.sigma)}
                        for a, r in zip(result["accounts"], after)
                    },
                }
            return [("rating.result", SYSTEM, payload)]

        written = self.writer.write(RatingsStream(self), build, action_id=f"{result['game_id']}@{result['head']}")
        return "ok" if written.status == "created" else "duplicate"

    def record_quietly(self, platform, pstate: dict, finished_at: str) -> None:
        """The platform's after-append hook: never fails the move (a storage outage is
        re-raised so ``LobbyWrites`` keeps the write for later)."""
        from events.connection import UNAVAILABLE

        try:
            self.record_if_rated(platform, pstate, finished_at)
        except UNAVAILABLE:
            raise
        except Exception:
            log.exception("rating of game %s not recorded", pstate.get("game_id"))

    def refereed_away(self, platform, pstate: dict) -> str | None:
        """Why a casual game's result is not rated (``rfold.refereed_away``), from its log."""
        if pstate.get("tournament"):
            return None
        return rfold.refereed_away(pstate["game"], None, platform.store.read(keys.events(pstate["game_id"])))

    def record_if_rated(self, platform, pstate: dict, finished_at: str) -> str:
        """Record the result, or when a referee took it out of the ratings, take back an
        earlier recorded result of the game (nothing if there is none)."""
        why = self.refereed_away(platform, pstate)
        if why is None:
            return self.record(pstate, finished_at)
        earlier = self.recorded(pstate["game_id"])
        if earlier and not earlier[-1].get("void"):
            return self.record(pstate, earlier[0]["finished_at"], void=why)
        return "unrated"

    def rate(self, platform, game_id: str) -> dict:
        """``POST /api/games/{id}/rating``: record a finished game's rating now (when the
        write after its end was lost). 409 if it is not rateable or already recorded."""
        p = platform.state(game_id)
        if p["status"] != "finished":
            raise Conflict("not_finished", "the game has not finished")
        if not p["ranked"]:
            raise Conflict("unranked", "this game is not ranked")
        if not rfold.is_rateable(p):
            raise Conflict("not_rateable", "a rated game has every seat bound to its own account and no computer")
        why = self.refereed_away(platform, p)
        if why is not None:
            raise Conflict(
                "refereed_result",
                "outside tournaments a result a referee decided, or a game nobody moved in, is not rated",
                {"why": why},
            )
        finished_at = finished_ts(platform, game_id)
        if self.record(p, finished_at) == "duplicate":
            raise Conflict("already_rated", "this game's result is already in the ratings", {"head": p["head"]})
        return {"game_id": game_id, "head": p["head"], "recorded": True}

    # -- answers -------------------------------------------------------------------------
    def leaderboard(self, game: str, min_games: int = 1, limit: int = 100) -> dict:
        table = self.folded().get(game, {})
        rows = [
            {
                "name": a,
                "rating": e["rating"],
                "mu": e["mu"],
                "sigma": e["sigma"],
                "games": e["games"],
                "provisional": e["provisional"],
            }
            for a, e in table.items()
            if e["games"] >= min_games
        ]
        rows.sort(key=lambda r: (-r["rating"], r["name"]))
        for i, row in enumerate(rows[:limit], 1):
            row["rank"] = i
        return {"game": game, "min_games": min_games, "players": rows[:limit], "parameters": rfold.parameters()}

    def of_account(self, name: str) -> dict:
        out = {}
        for game, table in self.folded().items():
            if name in table:
                out[game] = table[name]
        return out

    def everything(self) -> dict:
        """All live ratings, in the shape ``verify-ratings`` compares."""
        entries = self.entries()
        heads: dict[str, str] = {}
        for e in entries:
            if e["payload"].get("void"):
                heads.pop(e["payload"]["game_id"], None)
            else:
                heads[e["payload"]["game_id"]] = e["payload"]["head"]
        return {
            "parameters": rfold.parameters(),
            "ratings": rfold.numbers(self.folded()),
            "results": len(entries),
            "games": heads,
        }


def _mu_sigma(entry: dict | None) -> dict | None:
    return None if entry is None else {"mu": entry["mu"], "sigma": entry["sigma"]}


def finished_ts(platform, game_id: str) -> str:
    """The ``ts`` of the game's ``game.finished`` entry."""
    for e in reversed(platform.store.read(keys.events(game_id))):
        if e["type"] == "game.finished":
            return e["ts"]
    raise Conflict("not_finished", "the game has not finished")


class RatingsStream:
    """The ratings stream as ``StreamWriter`` appends to it: it starts from the entries
    this worker holds (perhaps behind: a lost race's answer brings the missed ones), a
    state is the list of entries, and nothing follows an entry or is written beside it."""

    key, idempotency_key = keys.RATINGS_EVENTS, keys.RATINGS_IDEMPOTENCY
    refusals = ()

    def __init__(self, ratings: Ratings):
        self.ratings = ratings

    def start(self) -> tuple[Head, bool]:
        return _head(self.ratings._learn([])), False

    def latest(self) -> Head:
        return _head(self.ratings._reload())

    def catch_up(self, entries: list[dict] | None, missed: list[dict]) -> list[dict]:
        return self.ratings._learn(missed)

    def seed(self) -> None:
        return None

    def fold(self, entries: list[dict] | None, envelope: dict) -> list[dict]:
        return [*(entries or []), envelope]

    def follow(self, entries: list[dict]) -> None:
        return None

    def extras(self, before: list[dict] | None, envelopes: list[dict], after: list[dict]) -> None:
        return None

    def appended(self, before: list[dict] | None, envelopes: list[dict], after: list[dict]) -> None:
        self.ratings._learn(envelopes)


def _head(entries: list[dict]) -> Head:
    return Head(entries, entries[-1]["seq"], entries[-1]["hash"]) if entries else Head(None)
