"""Ratings as a fold: per game type, every account's rating from recorded results.

The input is a list of *results*, one per (game, recorded result): the game id and
type, when it finished (the ``ts`` of its ``game.finished``), the account on each seat
and the ranking the log records. The same list comes from the live ratings stream
(``rating.result`` events) or from game exports (``results_from_export``), so anyone
holding the exports recomputes the same numbers.

- Order: results are applied in the order the games finished (``finished_at``, then
  the game id), not in the order they reached the stream, so a write that lagged
  behind another cannot change anybody's rating.
- Corrections: a later result for the same game (a referee correction) *replaces* the
  earlier one at the game's original place, and everything after it is re-rated
  (``Fold`` refolds from the start then; a result arriving in order is one update).
  A ``void`` result (a casual game's referee took the result out, see
  ``refereed_away``) replaces it with nothing.
- Model: OpenSkill's Weng-Lin Plackett-Luce (``openskill``), one team per seat, ties
  shared. The displayed rating is the ordinal ``mu - 3 sigma``: a conservative
  estimate that rises as a player's results become certain (docs/RATINGS.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

PROVISIONAL_GAMES = 5  # below this many rated games a rating is shown as provisional
DIGITS = 9  # ratings are published rounded: both sides of verify-ratings round alike


@cache
def model() -> PlackettLuce:
    """openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
    return PlackettLuce()


def parameters() -> dict[str, Any]:
    m = model()
    return {
        "model": "PlackettLuce",
        "mu": m.mu,
        "sigma": m.sigma,
        "beta": m.beta,
        "tau": m.tau,
        "display": "mu - 3 * sigma",
        "provisional_below_games": PROVISIONAL_GAMES,
    }


def is_rateable(pstate: dict[str, Any]) -> bool:
    """A finished ranked game whose every seat is bound to its own account and none
    played by a computer, except the seat of a player who withdrew from a tournament
    (the computer plays on for the others; the seat ranks last, and the result is
    rated like a forfeit)."""
    accounts = pstate.get("accounts") or {}
    withdrawn = {str(s) for s in pstate.get("withdrawn") or []}
    return (
        pstate["status"] == "finished"
        and pstate["ranked"]
        and set(pstate["bots"]) <= withdrawn
        and pstate["result"] is not None
        and len(accounts) == len(pstate["seats"])
        and len(set(accounts.values())) == len(pstate["seats"])
    )


REFEREE_DECIDES = ("referee.forfeit", "referee.adjust", "referee.correction")


def refereed_away(game: str, tournament: Any, envelopes: Iterable[dict[str, Any]]) -> str | None:
    """Why a casual game's result is not rated, or None if it may be. Outside a
    tournament the referee is whoever created the game, who also holds every seat
    link: a result a referee forfeit, adjustment or correction decided or changed is
    not rated, nor a game no seat made a move in. A tournament's director is
    accountable and audited, so there the referee's word is rated; a clock running
    out (the system) counts everywhere."""
    if tournament:
        return None
    moved = False
    for e in envelopes:
        if e["type"] in REFEREE_DECIDES:
            return "refereed"
        moved = moved or (e["type"].startswith(game + ".") and "seat" in e["actor"] and "role" not in e["actor"])
    return None if moved else "no_moves"


def result_of(pstate: dict[str, Any], finished_at: str) -> dict[str, Any]:
    """The rating input a finished game gives (see ``is_rateable``)."""
    accounts = pstate["accounts"]
    return {
        "game_id": pstate["game_id"],
        "game": pstate["game"],
        "finished_at": finished_at,
        "head": pstate["head"],
        "seq": pstate["seq"],
        "accounts": [accounts[str(s)] for s in range(len(pstate["seats"]))],
        "ranking": list(pstate["result"]["ranking"]),
    }


def rounded(x: float) -> float:
    return round(x, DIGITS)


def fold(results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """{game type: {account: {mu, sigma, rating, games, provisional, history}}}.

    ``results`` in recording order; a game's last result counts, at its first place."""
    latest: dict[str, dict[str, Any]] = {}
    for r in results:
        first = latest.get(r["game_id"])
        latest[r["game_id"]] = {**r, "finished_at": first["finished_at"]} if first else r
    state = Fold()
    for r in sorted(latest.values(), key=_place):
        if not r.get("void"):
            state.apply(r)
    return state.out


def _place(r: dict[str, Any]) -> tuple[str, str]:
    return (r["finished_at"], r["game_id"])


class Fold:
    """The fold kept up to date one result at a time (the server's copy). A result that
    comes in order is one rating update; a correction, or a result older than one
    already applied (a write that lagged), refolds from the start."""

    def __init__(self) -> None:
        self.out: dict[str, dict[str, dict[str, Any]]] = {}
        self.live: dict[tuple[str, str], PlackettLuceRating] = {}
        self.latest: dict[str, dict[str, Any]] = {}
        self.last: tuple[str, str] | None = None

    def add(self, r: dict[str, Any]) -> None:
        first = self.latest.get(r["game_id"])
        if first is not None or (self.last is not None and _place(r) < self.last):
            self.latest[r["game_id"]] = {**r, "finished_at": first["finished_at"]} if first else r
            self.out, self.live, self.last = {}, {}, None
            for each in sorted(self.latest.values(), key=_place):
                if not each.get("void"):
                    self.apply(each)
            return
        self.latest[r["game_id"]] = r
        if not r.get("void"):
            self.apply(r)

    def rated(self, r: dict[str, Any]) -> list[Any]:
        """The players' new ratings after ``r``, from their ratings now (nothing kept)."""
        m = model()
        teams = [[self.live.get((r["game"], a)) or m.rating(name=a)] for a in r["accounts"]]
        return [team[0] for team in m.rate(teams, ranks=list(r["ranking"]))]

    def apply(self, r: dict[str, Any]) -> None:
        table = self.out.setdefault(r["game"], {})
        for seat, (account, new) in enumerate(zip(r["accounts"], self.rated(r))):
            self.live[(r["game"], account)] = new
            entry = table.setdefault(account, {"games": 0, "history": []})
            entry["games"] += 1
            entry["mu"], entry["sigma"] = rounded(new.mu), rounded(new.sigma)
            entry["rating"] = rounded(new.ordinal())
            entry["provisional"] = entry["games"] < PROVISIONAL_GAMES
            entry["history"].append(
                {
                    "game_id": r["game_id"],
                    "finished_at": r["finished_at"],
                    "rank": r["ranking"][seat],
                    "seats": len(r["accounts"]),
                    "mu": entry["mu"],
                    "sigma": entry["sigma"],
                    "rating": entry["rating"],
                }
            )
        self.last = max(self.last, _place(r)) if self.last else _place(r)


def numbers(folded: dict[str, Any]) -> dict[str, Any]:
    """The comparable part of a fold: {game: {account: [mu, sigma, games]}}."""
    return {g: {a: [e["mu"], e["sigma"], e["games"]] for a, e in table.items()} for g, table in folded.items()}


def results_from_export(envelopes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The rating input of one exported game log (entries as exported, trailer
    dropped), or None if the log does not make a rated game. The log is taken as it
    is; ``python -m service verify`` is what checks its chain and refold."""
    created = envelopes[0]["payload"] if envelopes and envelopes[0].get("type") == "game.created" else None
    if created is None or refereed_away(created["game"], created.get("tournament"), envelopes):
        return None
    accounts: dict[str, str] = {}
    bots = dict(created.get("bots") or {})
    withdrawn: list[int] = []
    finished_at, ranking, head, seq = None, None, None, None
    for e in envelopes:
        if e["type"] == "seat.bound":
            accounts[str(e["payload"]["seat"])] = e["payload"]["account"]
        elif e["type"] == "referee.bot":
            bots[str(e["payload"]["seat"])] = e["payload"]["strength"]
            if e["payload"].get("withdrawn"):
                withdrawn.append(e["payload"]["seat"])
        elif e["type"] == "game.finished":
            finished_at, ranking = e["ts"], e["payload"]["result"]["ranking"]
        elif e["type"] == "referee.correction" and finished_at:
            ranking = e["payload"]["result"]["ranking"]
        head, seq = e["hash"], e["seq"]
    pstate = {
        "game_id": created.get("game_id"),
        "game": created["game"],
        "seats": created["seats"],
        "ranked": created.get("ranked", True) and not created.get("fork"),
        "bots": bots,
        "withdrawn": withdrawn,
        "accounts": accounts,
        "status": "finished" if finished_at else "active",
        "result": {"ranking": ranking} if ranking else None,
        "head": head,
        "seq": seq,
    }
    return result_of(pstate, finished_at) if finished_at and is_rateable(pstate) else None
