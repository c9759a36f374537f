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
- Rules versions: a game records at creation the ratings rules it is rated under
  (``game.created`` ``ratings_rules``, 1 when absent). Under rules 2 (``unrated_because``)
  every referee act that can change a casual result unrates it, a computer's seat rates
  nobody, every seat must make a share of the moves, and repeated games between the
  same accounts in one day weigh less (``Fold``); a result records its rules, so older
  entries refold as they were rated. Rules 3 adds the referee's pause and dismissal of a
  dispute to the acts that unrate a casual game (both hold the clocks).
- Model: OpenSkill's Weng-Lin Plackett-Luce (``openskill``), one team per seat, ties
  shared. The displayed rating is the ordinal ``mu - 3 sigma``: a conservative
  estimate that rises as a player's results become certain (docs/RATINGS.md).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from .fold import FoldError, InMemoryHistory
from .games.base import IllegalAction

PROVISIONAL_GAMES = 5  # below this many rated games a rating is shown as provisional
SEED_OPPONENTS = 3  # distinct opponents an account must have met before its rating seeds a tournament
REPEAT_WEIGHT = 0.5  # each earlier rated game that day between the same accounts halves the next one's weight
DIGITS = 9  # ratings are published rounded: both sides of verify-ratings round alike
RULES = 3  # the ratings rules new games are created under (game.created "ratings_rules")


@cache
def min_move_shares() -> dict[str, Any]:
    """The per-game tables of ``rating_rules.json`` (least moves, least share), read once."""
    with open(Path(__file__).with_name("rating_rules.json"), encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def min_move_share(game: str) -> float:
    """The least fraction of an even share of the moves each rated seat must make."""
    table = min_move_shares()
    return float(table["min_move_share"].get(game, table["default_min_move_share"]))


def min_moves(game: str) -> int:
    """The fewest moves each rated seat must make."""
    table = min_move_shares()
    return int(table["min_moves"].get(game, table["default_min_moves"]))


@cache
def model() -> PlackettLuce:
    """openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
    return PlackettLuce()


DISPLAY_BASE = 1500


def display_scale() -> float:
    """Display points per unit of mu: Plackett-Luce gives two established players a
    logistic chance ``1 / (1 + exp(-(mu_a - mu_b) / (sqrt 2 * beta)))`` of one beating the
    other, Elo ``1 / (1 + 10 ** (-D / 400))``; they agree when
    ``D = 400 / (ln 10 * sqrt 2 * beta) * (mu_a - mu_b)``, about 29.5 points per unit."""
    return 400 / (math.log(10) * math.sqrt(2) * model().beta)


def display(mu: float, sigma: float) -> dict[str, Any]:
    """The rating as people read it: 1500 for a newcomer's mu (25), a difference read as
    Elo's (400 points: ten to one), and how unsure it is (two sigma, in the same points).
    The raw mu and sigma and the cautious ``rating`` (mu - 3 sigma) stay beside it."""
    k = display_scale()
    return {"display": round(DISPLAY_BASE + k * (mu - model().mu)), "display_deviation": round(2 * k * sigma)}


def parameters() -> dict[str, Any]:
    m = model()
    return {
        "model": "PlackettLuce",
        "mu": m.mu,
        "sigma": m.sigma,
        "beta": m.beta,
        "tau": m.tau,
        "ordinal": "mu - 3 * sigma",
        "display": f"{DISPLAY_BASE} + 400 / (ln 10 * sqrt 2 * beta) * (mu - {model().mu:g})",
        "display_scale": round(display_scale(), 4),
        "provisional_below_games": PROVISIONAL_GAMES,
        "seeds_from_opponents": SEED_OPPONENTS,
        "repeat_weight": REPEAT_WEIGHT,
        "rules": RULES,
        "min_move_share": {
            **min_move_shares()["min_move_share"],
            "default": min_move_shares()["default_min_move_share"],
        },
    }


def is_rateable(pstate: Mapping[str, Any]) -> bool:
    """A finished ranked game whose every seat is bound to its own account and none
    played by a computer, except the seat of a player who withdrew from a tournament
    (the computer plays on for the others; the seat ranks last, and the result is
    rated like a forfeit). A game cancelled because a seat never made its first move
    is not rated."""
    accounts = pstate.get("accounts") or {}
    withdrawn = {str(s) for s in pstate.get("withdrawn") or []}
    return (
        pstate["status"] == "finished"
        and pstate["ranked"]
        and set(pstate["bots"]) <= withdrawn
        and pstate["result"] is not None
        and not pstate["result"].get("cancelled")
        and len(accounts) == len(pstate["seats"])
        and len(set(accounts.values())) == len(pstate["seats"])
    )


REFEREE_DECIDES = ("referee.forfeit", "referee.adjust", "referee.correction")
REFEREE_CHANGES = (*REFEREE_DECIDES, "referee.rewind", "referee.bot", "game.undo_approved")
"""Under rules 2, every referee act that can change a result: also a rewind (it picks the
position and whose clock runs), seating a computer (withdrawn or not) and approving an
undo in the other seats' place (a rewind by another name)."""
REFEREE_HOLDS = ("referee.pause", "referee.dismiss")
"""Under rules 3, also the acts that hold the clocks while the game is played: a pause,
and dismissing a dispute that paused them (a creator playing a seat paused on their own
turn and thought off the clock). After the end they change nothing."""


def held_clocks(tournament: Any, envelopes: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a casual game's referee held the clocks before the game ended."""
    if tournament:
        return False
    for e in envelopes:
        if e["type"] == "game.finished":
            return False
        if e["type"] in REFEREE_HOLDS:
            return True
    return False


def refereed_away(
    game: str, tournament: Any, envelopes: Iterable[Mapping[str, Any]], acts: tuple[str, ...] = REFEREE_DECIDES
) -> str | None:
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
        if e["type"] in acts and (e["type"].startswith("referee.") or e["actor"].get("role") == "referee"):
            return "refereed"
        moved = moved or (e["type"].startswith(game + ".") and "seat" in e["actor"] and "role" not in e["actor"])
    return None if moved else "no_moves"


BY_STATE = ("not_finished", "unranked", "not_rateable")
"""Reasons the game's state alone gives (no result of such a game was ever recorded)."""


def unrated_because(pstate: Any, envelopes: Iterable[Mapping[str, Any]]) -> str | None:
    """Why a game's result is not rated, or None if it is: the one rule the live ratings
    and ``verify-ratings`` apply, under the ratings rules the game was created with.

    ``not_finished``, ``unranked``, ``not_rateable`` (a seat not bound to its own account,
    a computer on a seat nobody withdrew from, fewer than two people), ``refereed`` (a
    casual game's referee acted), ``no_moves``, ``too_few_moves`` (rules 2: a seat that
    made fewer than its game's ``min_moves`` or less than its ``min_move_share``; not
    asked of a tournament game a forfeit or withdrawal ended, its director's word being
    rated)."""
    if pstate["status"] != "finished" or pstate["result"] is None:
        return "not_finished"
    if not pstate["ranked"]:
        return "unranked"
    if pstate.get("ratings_rules", 1) < 2:
        if not is_rateable(pstate):
            return "not_rateable"
        return refereed_away(pstate["game"], pstate.get("tournament"), envelopes)
    accounts = pstate.get("accounts") or {}
    seats = len(pstate["seats"])
    withdrawn = {str(s) for s in pstate.get("withdrawn") or []}
    people = [s for s in range(seats) if str(s) not in pstate["bots"]]
    if len(accounts) != seats or len(set(accounts.values())) != seats:
        return "not_rateable"
    envelopes = list(envelopes)
    why = refereed_away(pstate["game"], pstate.get("tournament"), envelopes, REFEREE_CHANGES)
    if why is None and pstate.get("ratings_rules", 1) >= 3 and held_clocks(pstate.get("tournament"), envelopes):
        why = "refereed"
    if why is not None:
        return why
    if not set(pstate["bots"]) <= withdrawn or len(people) < 2:
        return "not_rateable"
    moves = [0] * seats
    for _, seat, _ in pstate["history"]:
        if seat is not None:
            moves[seat] += 1
    if pstate.get("tournament") and (pstate["forfeits"] or pstate["withdrawn"]):
        return None  # a tournament game a forfeit ended: its director's word is rated
    least = max(min_moves(pstate["game"]), min_move_share(pstate["game"]) * sum(moves) / seats)
    if any(moves[s] < least for s in people):
        return "too_few_moves"
    return None


def result_of(pstate: Mapping[str, Any], finished_at: str) -> dict[str, Any]:
    """The rating input a finished game gives (see ``unrated_because``). Under rules 2 a
    seat a computer played is left out: it rates nobody, and the others' ranks stand."""
    accounts = pstate["accounts"]
    rules = pstate.get("ratings_rules", 1)
    seats = [s for s in range(len(pstate["seats"])) if rules < 2 or str(s) not in pstate["bots"]]
    out = {
        "game_id": pstate["game_id"],
        "game": pstate["game"],
        "finished_at": finished_at,
        "head": pstate["head"],
        "seq": pstate["seq"],
        "accounts": [accounts[str(s)] for s in seats],
        "ranking": [pstate["result"]["ranking"][s] for s in seats] if pstate["result"] else None,
    }
    if rules >= 2:
        out["rules"] = rules
    return out


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


def _meeting(r: dict[str, Any]) -> tuple[str, str, tuple[str, ...]]:
    """The game type, the day (UTC) a game finished and who met in it."""
    return (r["game"], r["finished_at"][:10], tuple(sorted(r["accounts"])))


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
        self.met: dict[tuple[str, str, tuple[str, ...]], int] = {}  # rules-2 games applied per meeting

    def add(self, r: dict[str, Any]) -> None:
        first = self.latest.get(r["game_id"])
        if first is not None or (self.last is not None and _place(r) < self.last):
            self.latest[r["game_id"]] = {**r, "finished_at": first["finished_at"]} if first else r
            self.out, self.live, self.last, self.met = {}, {}, None, {}
            for each in sorted(self.latest.values(), key=_place):
                if not each.get("void"):
                    self.apply(each)
            return
        self.latest[r["game_id"]] = r
        if not r.get("void"):
            self.apply(r)

    def weight(self, r: dict[str, Any]) -> float:
        """How much ``r`` counts: 1, halved (rules 2) for each game the same accounts
        finished earlier that day, so farming one opponent soon stops paying."""
        return REPEAT_WEIGHT ** self.met.get(_meeting(r), 0) if r.get("rules", 1) >= 2 else 1.0

    def rated(self, r: dict[str, Any]) -> list[Any]:
        """The players' new ratings after ``r``, from their ratings now (nothing kept):
        openskill's update, moved only ``weight`` of the way for a repeated meeting."""
        m = model()
        now = [self.live.get((r["game"], a)) or m.rating(name=a) for a in r["accounts"]]
        full = [team[0] for team in m.rate([[x] for x in now], ranks=list(r["ranking"]))]
        w = self.weight(r)
        if w == 1.0:
            return full
        return [
            m.rating(
                mu=old.mu + w * (new.mu - old.mu),
                sigma=math.sqrt(old.sigma**2 + w * (new.sigma**2 - old.sigma**2)),
                name=old.name,
            )
            for old, new in zip(now, full)
        ]

    def apply(self, r: dict[str, Any]) -> None:
        table = self.out.setdefault(r["game"], {})
        for seat, (account, new) in enumerate(zip(r["accounts"], self.rated(r))):
            self.live[(r["game"], account)] = new
            entry = table.setdefault(account, {"games": 0, "history": [], "opponents": []})
            entry["games"] += 1
            entry["mu"], entry["sigma"] = rounded(new.mu), rounded(new.sigma)
            entry["rating"] = rounded(new.ordinal())
            entry["opponents"] = sorted(set(entry["opponents"]) | (set(r["accounts"]) - {account}))
            entry["provisional"] = entry["games"] < PROVISIONAL_GAMES
            entry["seeds"] = len(entry["opponents"]) >= SEED_OPPONENTS
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
        if r.get("rules", 1) >= 2:
            self.met[_meeting(r)] = self.met.get(_meeting(r), 0) + 1
        self.last = max(self.last, _place(r)) if self.last else _place(r)


def numbers(folded: dict[str, Any]) -> dict[str, Any]:
    """The comparable part of a fold: {game: {account: [mu, sigma, games]}}."""
    return {g: {a: [e["mu"], e["sigma"], e["games"]] for a, e in table.items()} for g, table in folded.items()}


def results_from_export(envelopes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The rating input of one exported game log (entries as exported, trailer
    dropped), or None if the log does not make a rated game. The log is taken as it
    is; ``python -m service verify`` is what checks its chain and refold."""
    created = envelopes[0]["payload"] if envelopes and envelopes[0].get("type") == "game.created" else None
    if created is None:
        return None
    if int(created.get("ratings_rules", 1)) >= 2:
        return _folded_result(envelopes)
    if refereed_away(created["game"], created.get("tournament"), envelopes):
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


def _folded_result(envelopes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Rules 2: the export folded with the platform fold (its seed is in its
    ``game.finished``), then the same rule the live ratings apply."""
    finished = [e for e in envelopes if e["type"] == "game.finished"]
    if not finished:
        return None
    try:
        pstate = InMemoryHistory(envelopes, finished[0]["payload"].get("seed")).final()  # type: ignore[arg-type]
    except (FoldError, IllegalAction, KeyError, TypeError, ValueError):
        return None  # a log that does not fold rates nothing (verify names what is wrong)
    if unrated_because(pstate, envelopes) is not None:
        return None
    return result_of(dict(pstate), finished[0]["ts"])
