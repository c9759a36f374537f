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

from events.shapes import JSON, Actor, Envelope
from events.store import RATINGS_STREAM, EventStore
from events.writer import Entry, Head, Stream, StreamWriter
from projections import ratings as rfold
from projections.fold import PlatformState
from service.ports import GameLog, Lagging
from service.services.errors import Conflict

log = logging.getLogger(__name__)
SYSTEM: Actor = {"role": "system", "name": "ratings"}


class Ratings:
    def __init__(self, store: EventStore, writer: StreamWriter, log: GameLog, lagging: Lagging) -> None:
        self._store = store
        self._writer = writer
        self._log = log
        self._lagging = lagging
        self._entries: list[Envelope] = []
        self._fold = rfold.Fold()
        self._seen = 0  # entries added to the fold
        self._lock = threading.Lock()

    # -- reading -------------------------------------------------------------------------
    def entries(self) -> list[Envelope]:
        """Every ``rating.result`` so far (this worker's copy, caught up)."""
        with self._lock:
            after = self._entries[-1]["seq"] if self._entries else 0
            self._entries = self._entries + self._store.read(RATINGS_STREAM, after=after)
            return self._entries

    def folded(self) -> JSON:
        """The fold, caught up with the stream (one update per new result in order)."""
        self.entries()
        return self._folded()

    def _folded(self) -> JSON:
        """The fold of the entries this worker holds, without asking Redis for newer ones."""
        with self._lock:
            for e in self._entries[self._seen :]:
                self._fold.add(e["payload"])
            self._seen = len(self._entries)
            return self._fold.out

    def _learn(self, new: list[Envelope]) -> list[Envelope]:
        """Add entries written since this worker's last one (a write's own, or a lost
        race's answer); the entries held after them."""
        with self._lock:
            last = self._entries[-1]["seq"] if self._entries else 0
            self._entries = self._entries + [e for e in new if e["seq"] > last]
            return self._entries

    def _reload(self) -> list[Envelope]:
        """Every entry read afresh and the fold rebuilt: the log lost entries this worker
        had seen (an fsync window, a failover), so what was seen is not trusted."""
        entries = self._store.read(RATINGS_STREAM)
        with self._lock:
            self._entries, self._fold, self._seen = entries, rfold.Fold(), 0
        return entries

    def recorded(self, game_id: str) -> list[JSON]:
        return [e["payload"] for e in self.entries() if e["payload"]["game_id"] == game_id]

    # -- writing -------------------------------------------------------------------------
    def record(self, pstate: PlatformState, finished_at: str, void: str | None = None) -> str:
        """Append the game's result: "ok", or "duplicate" if this head was recorded before.
        With ``void`` (why), the entry takes an earlier result of the game back out."""
        result = rfold.result_of(pstate, finished_at)

        def build(_entries: list[Envelope] | None) -> list[Entry]:
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

        stream = Stream(
            id=RATINGS_STREAM,
            head=_head(self._learn([])),
            fresh=False,
            refold=lambda: _head(self._reload()),
            fold=lambda entries, envelope: [*(entries or []), envelope],
            learn=lambda entries, missed: self._learn(missed),
        )
        written = self._writer.write(stream, build, action_id=f"{result['game_id']}@{result['head']}")
        if written.status == "created":
            self._learn(written.envelopes)
        return "ok" if written.status == "created" else "duplicate"

    def recorded_after(
        self, game_id: str, before: PlatformState | None, envelopes: list[Envelope], after: PlatformState
    ) -> None:
        """After an append: a rateable game's result recorded (first or corrected)."""
        ends = [e for e in envelopes if e["type"] in ("game.finished", *rfold.REFEREE_DECIDES)]
        if ends and rfold.unrated_because(after, []) not in rfold.BY_STATE:
            self._lagging.run(("rating", game_id, after["head"]), lambda: self.record_if_rated(after, ends[-1]["ts"]))
        elif ends and ends[-1]["type"] == "referee.correction" and (after["result"] or {}).get("cancelled"):
            self._lagging.run(("rating", game_id, after["head"]), lambda: self.void_if_recorded(after))

    def unrated_because(self, pstate: PlatformState) -> str | None:
        """Why the game's result is not rated (``rfold.unrated_because``, the rule
        ``verify-ratings`` applies too), from its state and its log."""
        return rfold.unrated_because(pstate, self._log.read(pstate["game_id"] or ""))

    def record_if_rated(self, pstate: PlatformState, finished_at: str) -> str:
        """Record the result, or when it is not rated (a referee took it out, too few
        moves), take back an earlier recorded result of the game (nothing if none)."""
        why = self.unrated_because(pstate)
        if why is None:
            return self.record(pstate, finished_at)
        earlier = self.recorded(pstate["game_id"] or "")
        if earlier and not earlier[-1].get("void"):
            return self.record(pstate, earlier[0]["finished_at"], void=why)
        return "unrated"

    def void_if_recorded(self, pstate: PlatformState) -> str:
        """A rated game cancelled after its end (an outage's clock forfeit): its recorded
        result taken back out of the ratings."""
        earlier = self.recorded(pstate["game_id"] or "")
        if earlier and not earlier[-1].get("void"):
            return self.record(pstate, earlier[0]["finished_at"], void="cancelled")
        return "unrated"

    def rate(self, game_id: str) -> JSON:
        """``POST /api/games/{id}/rating``: record a finished game's rating now (when the
        write after its end was lost). 409 if it is not rateable or already recorded."""
        p = self._log.state(game_id)
        if p["status"] != "finished":
            raise Conflict("not_finished", "the game has not finished")
        why = self.unrated_because(p)
        if why == "unranked":
            raise Conflict("unranked", "this game is not ranked")
        if why == "not_rateable":
            raise Conflict("not_rateable", "a rated game has every seat bound to its own account and no computer")
        if why == "too_few_moves":
            raise Conflict(
                "too_few_moves",
                "a rated game needs every seat to make its share of the moves",
                {"min_moves": rfold.min_moves(p["game"]), "min_move_share": rfold.min_move_share(p["game"])},
            )
        if why is not None:
            raise Conflict(
                "refereed_result",
                "outside tournaments a result a referee decided, or a game nobody moved in, is not rated",
                {"why": why},
            )
        finished_at = finished_ts(self._log, game_id)
        if self.record(p, finished_at) == "duplicate":
            raise Conflict("already_rated", "this game's result is already in the ratings", {"head": p["head"]})
        return {"game_id": game_id, "head": p["head"], "recorded": True}

    # -- answers -------------------------------------------------------------------------
    def leaderboard(self, game: str, min_games: int = 1, limit: int = 100) -> JSON:
        """Established ratings first (they seed tournaments), then the rest, each by rating."""
        table = self.folded().get(game, {})
        rows = [
            {
                "name": a,
                "rating": e["rating"],
                "mu": e["mu"],
                "sigma": e["sigma"],
                **rfold.display(e["mu"], e["sigma"]),
                "games": e["games"],
                "provisional": e["provisional"],
                "opponents": len(e["opponents"]),
                "seeds": e["seeds"],
            }
            for a, e in table.items()
            if e["games"] >= min_games
        ]
        rows.sort(key=lambda r: (not r["seeds"], -r["rating"], r["name"]))
        for i, row in enumerate(rows[:limit], 1):
            row["rank"] = i
        return {"game": game, "min_games": min_games, "players": rows[:limit], "parameters": rfold.parameters()}

    def of_account(self, name: str) -> JSON:
        out: JSON = {}
        for game, table in self.folded().items():
            if name in table:
                entry = table[name]
                history = [{**h, **rfold.display(h["mu"], h["sigma"])} for h in entry.get("history", [])]
                out[game] = {**entry, **rfold.display(entry["mu"], entry["sigma"]), "history": history}
        return out

    def everything(self) -> JSON:
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


def _mu_sigma(entry: JSON | None) -> JSON | None:
    return None if entry is None else {"mu": entry["mu"], "sigma": entry["sigma"]}


def finished_ts(log: GameLog, game_id: str) -> str:
    """The ``ts`` of the game's ``game.finished`` entry."""
    for e in reversed(log.read(game_id)):
        if e["type"] == "game.finished":
            return e["ts"]
    raise Conflict("not_finished", "the game has not finished")


def _head(entries: list[Envelope]) -> Head[list[Envelope]]:
    return Head(entries, entries[-1]["seq"], entries[-1]["hash"]) if entries else Head(None)
