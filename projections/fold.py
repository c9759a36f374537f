"""The platform fold: a game's log, entry by entry, into its platform state.

The platform state wraps the game's own state with what the platform needs: status,
the rng draw counter, the effective history (for undo), clocks, adjustments and the
chain head. Game events go to the game's ``apply``; platform events (undo, referee,
clock) are folded here. ``state_at(seq)`` gives the platform state after any earlier
seq; undo and rewind restore the game part of it, so a reverted draw is redrawn the
same (same seed, same counter), and the clocks as if the undone moves never happened.

Undo and rewind may only go back to an effective point (creation or a game event
still in the history), and whoever folds keeps the states at those points
(``InMemoryHistory``, the projector's fold), so a log with any number of undos folds
in time linear in its length. After ``game.finished`` only a ``referee.correction``
may follow in a format-2 log: the record is final (legacy logs, which allowed referee
events after the end, fold as recorded).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, NotRequired, TypedDict

from events.envelope import parse_ts
from events.rng import SeededRng, mixed
from events.shapes import JSON, Envelope

from .games import get as get_game
from .games.base import Game
from .outcome import final_result

CORRECTION = "referee.correction"


class PlatformState(TypedDict):
    """A game as the platform folds it: the game's own ``state`` wrapped with what
    undo, referees, clocks, results and the chain need."""

    game_id: str | None
    game: str
    seats: list[str]
    options: JSON
    rules_version: int
    ranked: bool
    tournament: JSON | None
    forked_from: JSON | None
    seed_commitment: str
    created_at: str
    seq: int
    head: str
    status: str  # "active" | "paused" | "finished"
    state: Any  # the game's own, opaque to the platform
    draws: int
    history: list[list[Any]]  # [seq, seat, revealing] per effective game event
    pending_undo: JSON | None
    adjustments: list[list[Any]]  # [seat, points]
    forfeits: list[int]
    resolutions: dict[str, JSON]
    result: JSON | None
    clocks: JSON | None
    bots: dict[str, int]
    withdrawn: list[int]
    accounts: NotRequired[dict[str, str]]  # seat (as a string) -> account, from seat.bound entries
    cancelled: NotRequired[bool]  # a seat missed its first move (clock.cancelled): no result is rated
    ratings_rules: NotRequired[int]  # the ratings rules the game is rated under (projections/ratings.py)
    deal: NotRequired[list[str]]  # the seats' contributions the draws mix in (a game from an open table)
    disputes: NotRequired[dict[str, JSON]]  # open disputes (dispute.raised, not yet settled), by note id


StateAt = Callable[[int], PlatformState]
Handler = Callable[[PlatformState, Envelope, StateAt], None]


class FoldError(Exception):
    """The log cannot be folded (a tampered or foreign entry)."""


def game_of(pstate: PlatformState) -> Game:
    game = get_game(pstate["game"])
    if game is None:
        raise FoldError(f"unknown game {pstate['game']!r}")
    return game


def awaited(pstate: PlatformState) -> list[int]:
    """The seats the game is waiting for, as the API shows them: none once finished."""
    if pstate["status"] == "finished":
        return []
    return sorted(game_of(pstate).to_act(pstate["state"]))


def game_event(envelope: Envelope, game_name: str) -> JSON | None:
    """The game's own view of an entry, or None for a platform entry."""
    prefix = game_name + "."
    if not envelope["type"].startswith(prefix):
        return None
    return {
        "type": envelope["type"][len(prefix) :],
        "seat": envelope["actor"].get("seat"),
        "payload": envelope["payload"],
    }


def rules_version(created_payload: JSON) -> int:
    """The rules version a game was created under; logs from before versions were
    recorded were all played under version 1."""
    return int(created_payload.get("rules_version", 1))


def contributions(created_payload: JSON) -> list[str]:
    """The client values a game's deal mixes in, in seat order (a computer seat's
    share comes from the server's seed: it adds no value of its own)."""
    deal = created_payload.get("deal") or {}
    return [c["value"] for c in deal.get("contributions", []) if "value" in c]


def draw_seed(pstate: PlatformState, seed: str) -> str:
    """The seed the game's draws use: the server's, mixed with the seats' values when
    the game came from an open table; games without a deal draw exactly as before."""
    deal = pstate.get("deal")
    return mixed(seed, deal) if deal is not None else seed


def create(envelope: Envelope, seed: str | None) -> PlatformState:
    p = envelope["payload"]
    game = get_game(p["game"])
    if game is None:
        raise FoldError(f"unknown game {p['game']!r}")
    fork = p.get("fork")
    if fork:
        state, draws = fork["state"], fork["draws"]
    else:
        if seed is None:
            raise FoldError("the seed is needed to fold this game")
        rng = SeededRng(mixed(seed, contributions(p)) if p.get("deal") else seed, 0)
        state = game.setup({**p["options"], "rules_version": rules_version(p)}, len(p["seats"]), rng)
        draws = rng.counter
    ts = parse_ts(envelope["ts"])
    pstate: PlatformState = {
        "game_id": p.get("game_id"),
        "game": p["game"],
        "seats": list(p["seats"]),
        "options": p["options"],
        "rules_version": rules_version(p),
        "ranked": p.get("ranked", True),
        "tournament": p.get("tournament"),
        "forked_from": fork and {k: fork[k] for k in ("game_id", "at_seq", "head")},
        "seed_commitment": p["seed_commitment"],
        "created_at": envelope["ts"],
        "seq": envelope["seq"],
        "head": envelope["hash"],
        "status": "active",
        "state": state,
        "draws": draws,
        "history": [],
        "pending_undo": None,
        "adjustments": [],
        "forfeits": [],
        "resolutions": {},
        "result": None,
        "clocks": None,
        "bots": dict(p.get("bots") or {}),
        "withdrawn": [],
        "ratings_rules": int(p.get("ratings_rules", 1)),
    }
    if p.get("deal") and not fork:
        pstate["deal"] = contributions(p)
    clock = p.get("clock")
    if clock:
        clocks = _clocks_of(clock, len(p["seats"]))
        clocks |= {"since": ts, "running": sorted(game.to_act(state))}
        if clock.get("computers_wait"):  # a computer's clock starts when a worker picks its move
            clocks["thinking"] = []
        pstate["clocks"] = clocks
        if clock.get("pause_on_dispute"):
            clocks["pause_on_dispute"] = True
        if clock.get("first_move") is not None:  # games from before the first-move rule have none
            clocks |= {
                "first_move": clock["first_move"],
                "opening": [float(clock["first_move"])] * len(p["seats"]),
                "moved": [],
            }
        clocks["running"] = _running(pstate, game)
    return pstate


DAY = 86400.0


def _clocks_of(clock: JSON, seats: int) -> JSON:
    """A live clock (``base`` seconds, ``increment`` per move) or a turn-based one
    (``per_move_days`` for each move, renewed when the seat moves, and a bank of
    ``vacation_days`` a seat draws on once a move's days are spent)."""
    if "per_move_days" in clock:
        per_move = float(clock["per_move_days"]) * DAY
        return {
            "per_move": per_move,
            "base": per_move,
            "increment": 0,
            "remaining": [per_move] * seats,
            "vacation": [float(clock.get("vacation_days", 0)) * DAY] * seats,
        }
    return {"base": clock["base"], "increment": clock["increment"], "remaining": [float(clock["base"])] * seats}


def apply(pstate: PlatformState | None, envelope: Envelope, seed: str | None, state_at: StateAt) -> PlatformState:
    """The platform state after one more entry. Never mutates ``pstate``."""
    if pstate is None:
        if envelope["type"] != "game.created" or envelope["seq"] != 1:
            raise FoldError("a game log starts with game.created at seq 1")
        return create(envelope, seed)
    if envelope["seq"] != pstate["seq"] + 1:
        raise FoldError(f"expected seq {pstate['seq'] + 1}, got {envelope['seq']}")
    if pstate["status"] == "finished" and envelope["type"] != CORRECTION and "v" in envelope:
        # format-2 logs are final at game.finished; legacy logs fold as they were recorded
        raise FoldError(f"seq {envelope['seq']}: {envelope['type']} after game.finished (only a correction may follow)")
    new = pstate.copy()
    new["seq"] = envelope["seq"]
    new["head"] = envelope["hash"]
    ts = parse_ts(envelope["ts"])
    credit = float(envelope["payload"].get("seconds", 0)) if envelope["type"] == "clock.credited" else 0.0
    _spend_clock(new, ts, credit)
    game = game_of(pstate)
    event = game_event(envelope, pstate["game"])
    if event is not None:
        _apply_game_event(new, game, event, envelope["seq"], seed)
    else:
        handler = PLATFORM_EVENTS.get(envelope["type"])
        if handler is None:
            raise FoldError(f"unknown event type {envelope['type']!r}")
        handler(new, envelope, state_at)
    _restart_clock(new, game, ts)
    return new


def _apply_game_event(new: PlatformState, game: Game, event: JSON, seq: int, seed: str | None) -> None:
    if new["status"] != "active":
        raise FoldError(f"a game event at seq {seq} while the game is {new['status']}")
    if seed is None:
        raise FoldError("the seed is needed to fold this game")
    rng = SeededRng(draw_seed(new, seed), new["draws"])
    before = new["state"]
    after = game.apply(before, event, rng)
    revealing = rng.counter != new["draws"] or game.reveals(before, event, after)
    new["state"], new["draws"] = after, rng.counter
    new["history"] = new["history"] + [[seq, event["seat"], revealing]]
    new["pending_undo"] = None
    clocks = new["clocks"]
    if clocks and event["seat"] is not None:
        if event["seat"] in clocks.get("thinking", ()):
            clocks["thinking"] = [s for s in clocks["thinking"] if s != event["seat"]]
        if event["seat"] in unmoved(clocks):  # an untimed first move earns no increment
            clocks["moved"] = sorted([*clocks["moved"], event["seat"]])
        else:
            clocks["remaining"] = list(clocks["remaining"])
            if "per_move" in clocks:  # turn-based: the next move has its days afresh
                clocks["remaining"][event["seat"]] = clocks["per_move"]
            else:
                clocks["remaining"][event["seat"]] += clocks["increment"]


def effective_points(pstate: PlatformState) -> set[int]:
    """Seqs a game can be taken back to: its creation and each effective action."""
    return {1} | {seq for seq, _, _ in pstate["history"]}


def _restore(new: PlatformState, to_seq: int, state_at: StateAt, ts: str, rewind: bool = False) -> None:
    if to_seq not in effective_points(new):
        raise FoldError(f"seq {to_seq} is not a step of the current history")
    past = state_at(to_seq)
    new["state"], new["draws"], new["history"] = past["state"], past["draws"], past["history"]
    new["pending_undo"] = None
    if new["clocks"] and past["clocks"]:
        restore = _clocks_at_target if rewind else _clocks_without_undone
        new["clocks"] = restore(past["clocks"], new["clocks"], parse_ts(ts))


def _clocks_at_target(past: JSON, now_clocks: JSON, now: float) -> JSON:
    """A referee's rewind: every clock as it stood at the target. The time since was
    spent by whichever seats were thinking then, not by the seats to act at the target,
    so charging them (as an undo does) would let a rewind empty a chosen seat's clock."""
    return {**past, "remaining": list(past["remaining"]), "since": now, "ran": now_clocks.get("ran", 0.0)}


def _clocks_without_undone(past: JSON, now_clocks: JSON, now: float) -> JSON:
    """The clocks as they would be had the undone moves never been made: the seats
    to act back then have been thinking for all the running time since (pauses do not
    count), and no increment of an undone move is kept (so move-and-undo cannot bank
    time)."""
    ran = now_clocks.get("ran", 0.0) - past.get("ran", 0.0)
    clocks = _charged(past, max(0.0, ran))
    restored = {**clocks, "since": now, "ran": now_clocks.get("ran", 0.0)}
    for pause in ("held", "disputes"):  # a maintenance or dispute pause is not undone with the moves
        if pause in now_clocks:
            restored[pause] = now_clocks[pause]
    return restored


def _finished(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    new["status"] = "finished"
    new["result"] = env["payload"]["result"]
    new["pending_undo"] = None


def correction_statement(game_id: str | None, envelope: Mapping[str, Any]) -> JSON:
    """What the server signs in a correction: which game, where, after what, and the
    result it records."""
    return {
        "kind": "correction",
        "game_id": game_id,
        "seq": envelope["seq"],
        "prev": envelope["prev"],
        "result": envelope["payload"].get("result"),
    }


def _correction(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    """A finished game's result corrected by the referee: adjustments added (or, with
    ``cancel``, the game cancelled), the result recomputed, and it must be the one the
    entry records."""
    if new["status"] != "finished":
        raise FoldError(f"seq {env['seq']}: a correction before the game has finished")
    p = env["payload"]
    if p.get("cancel"):  # a clock forfeit the referee found the service's outage caused
        new["cancelled"] = True
    new["adjustments"] = new["adjustments"] + [list(a) for a in p.get("adjustments", [])]
    new["result"] = final_result(game_of(new), new)
    if new["result"] != p.get("result"):
        raise FoldError(f"seq {env['seq']}: the correction records another result than its adjustments give")
    _resolve(new, env)


def _undo(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    _restore(new, env["payload"]["to_seq"], state_at, env["ts"])


def _undo_requested(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    p = env["payload"]
    seat = env["actor"]["seat"]
    needed = [s for s in range(len(new["seats"])) if s != seat and s not in new["forfeits"]]
    new["pending_undo"] = {
        "id": p["request_id"],
        "seat": seat,
        "to_seq": p["to_seq"],
        "seq": env["seq"],
        "approvals": [],
        "needed": needed,
    }


def _undo_approved(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    if new["pending_undo"] is None:
        raise FoldError(f"seq {env['seq']}: an approval without a pending undo")
    req = dict(new["pending_undo"])
    if env["actor"].get("role") == "referee":
        req["approvals"] = list(req["needed"])
    else:
        req["approvals"] = sorted(set(req["approvals"]) | {env["actor"]["seat"]})
    if set(req["needed"]) <= set(req["approvals"]):
        _restore(new, req["to_seq"], state_at, env["ts"])
    else:
        new["pending_undo"] = req


def _undo_declined(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    new["pending_undo"] = None


def _pause(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    new["status"] = "paused"


def _resume(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    new["status"] = "active"


def _rewind(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    _restore(new, env["payload"]["to_seq"], state_at, env["ts"], rewind=True)
    _resolve(new, env)


def _adjust(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    p = env["payload"]
    new["adjustments"] = new["adjustments"] + [[p["seat"], p["points"]]]
    if new["status"] == "finished":
        new["result"] = final_result(game_of(new), new)
    _resolve(new, env)


def _forfeit(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    seat = env["payload"]["seat"]
    new["forfeits"] = sorted(set(new["forfeits"]) | {seat})
    _resolve(new, env)


def _bot(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    """A computer takes the seat from here on (an empty chair, a withdrawn player). A
    withdrawn player's seat plays on for the others' sake but ranks last, as a forfeit
    would, without ending the game."""
    p = env["payload"]
    new["bots"] = {**new["bots"], str(p["seat"]): p["strength"]}
    if p.get("withdrawn"):
        new["withdrawn"] = sorted(set(new["withdrawn"]) | {p["seat"]})
    _resolve(new, env)


def _picked(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    """A worker of the bot pool took the seat's move: its clock runs from here (a game
    whose clocks say ``computers_wait``; the time it was queued is not its own)."""
    clocks = new["clocks"]
    seat = env["payload"]["seat"]
    if clocks is not None and "thinking" in clocks and seat not in clocks["thinking"]:
        new["clocks"] = {**clocks, "thinking": sorted([*clocks["thinking"], seat])}


def _dismiss(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    _resolve(new, env)


def _seat_bound(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    """A seat bound to an account (at creation or claimed with its token). The rules
    never see it; ratings and profiles read it. A seat is bound once."""
    p = env["payload"]
    accounts = dict(new.get("accounts") or {})
    seat = str(p["seat"])
    if not 0 <= p["seat"] < len(new["seats"]) or seat in accounts or p["account"] in accounts.values():
        raise FoldError(f"seq {env['seq']}: seat {p['seat']} cannot be bound to {p['account']!r}")
    accounts[seat] = p["account"]
    new["accounts"] = accounts


def _dispute_raised(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    """A seat disputes a step of the game: open until a referee entry names it. Logs from
    before disputes were entries keep them as annotations only, and fold as they did."""
    p = env["payload"]
    dispute, open_ = p["dispute"], new.get("disputes") or {}
    if dispute in open_ or dispute in new["resolutions"]:
        raise FoldError(f"seq {env['seq']}: dispute {dispute!r} was already raised")
    new["disputes"] = {**open_, dispute: {"seat": p["seat"], "seq": p["at_seq"], "raised": env["seq"]}}


def _resolve(new: PlatformState, env: Envelope) -> None:
    """Record the dispute the entry settles; clocks that dispute paused run again."""
    dispute = env["payload"].get("dispute")
    if dispute:
        if dispute in (new.get("disputes") or {}):
            new["disputes"] = {k: v for k, v in new["disputes"].items() if k != dispute}
        new["resolutions"] = {
            **new["resolutions"],
            dispute: {"seq": env["seq"], "type": env["type"], "reason": env["payload"].get("reason", "")},
        }
        clocks = new["clocks"]
        if clocks and dispute in clocks.get("disputes", []):
            new["clocks"] = {**clocks, "disputes": [d for d in clocks["disputes"] if d != dispute]}


def unmoved(clocks: JSON) -> set[int]:
    """Seats still to make their first move: their own clock does not run yet, their
    first-move allowance (``opening``) does. Games from before the rule have none."""
    if "moved" not in clocks:
        return set()
    return set(range(len(clocks["remaining"]))) - set(clocks["moved"])


def budget(clocks: JSON, seat: int) -> float:
    """What ``seat`` has left while it is to act: its first-move allowance until it has
    moved, then its clock (and, turn-based, its vacation days)."""
    if seat in unmoved(clocks):
        return float(clocks["opening"][seat])
    return float(clocks["remaining"][seat] + (clocks["vacation"][seat] if "vacation" in clocks else 0.0))


def _charged(clocks: JSON, seconds: float) -> JSON:
    """``clocks`` with ``seconds`` of thinking charged to each running seat."""
    remaining, opening = list(clocks["remaining"]), list(clocks.get("opening") or [])
    vacation = list(clocks.get("vacation") or [])
    first = unmoved(clocks)
    for seat in clocks["running"]:
        if seat in first:
            opening[seat] = max(0.0, opening[seat] - seconds)
        else:
            if vacation:  # a move's days spent, the seat's vacation days run
                vacation[seat] = max(0.0, vacation[seat] - max(0.0, seconds - remaining[seat]))
            remaining[seat] = max(0.0, remaining[seat] - seconds)
    charged = {**clocks, "remaining": remaining}
    if "opening" in clocks:
        charged["opening"] = opening
    if "vacation" in clocks:
        charged["vacation"] = vacation
    return charged


def _spend_clock(new: PlatformState, ts: float, credit: float = 0.0) -> None:
    """Charge the running seats for the time since the last entry, but for ``credit``
    seconds the service could not take moves (a ``clock.credited`` entry)."""
    clocks = new["clocks"]
    if not clocks:
        return
    spent = max(0.0, ts - clocks["since"] - credit)
    clocks = _charged(clocks, spent)
    if clocks["running"]:  # the running time so far, so an undo knows how long clocks ran
        clocks["ran"] = clocks.get("ran", 0.0) + spent
    clocks["since"] = ts
    new["clocks"] = clocks


def _restart_clock(new: PlatformState, game: Game, ts: float) -> None:
    if new["clocks"]:
        new["clocks"] = {**new["clocks"], "running": _running(new, game), "since": ts}


def _running(p: PlatformState, game: Game) -> list[int]:
    """The seats whose clocks run: those the game waits for while it is active and its
    clocks are neither held (maintenance) nor paused for a dispute, but not a forfeited
    seat, nor (``computers_wait``) a computer no worker has picked up yet."""
    clocks = p["clocks"] or {}
    active = p["status"] == "active" and not clocks.get("held") and not clocks.get("disputes")
    running = sorted(game.to_act(p["state"])) if active else []
    thinking = clocks.get("thinking")
    return [
        s for s in running if s not in p["forfeits"] and (thinking is None or str(s) not in p["bots"] or s in thinking)
    ]


def _clocked(new: PlatformState, env: Envelope) -> JSON:
    if not new["clocks"] or new["status"] == "finished":
        raise FoldError(f"seq {env['seq']}: {env['type']} in a game without running clocks")
    return new["clocks"]


def _cancelled(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    """A seat missed its first move: the game ends without a winner, and is not rated."""
    if env["payload"]["seat"] not in unmoved(_clocked(new, env)):
        raise FoldError(f"seq {env['seq']}: only a seat yet to move can cancel the game")
    new["cancelled"] = True


def _credited(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    """The seconds were never charged (``_spend_clock``): an outage of the service."""
    _clocked(new, env)
    if not env["payload"]["seconds"] >= 0:
        raise FoldError(f"seq {env['seq']}: a credit of {env['payload']['seconds']!r} seconds")


def _clock_paused(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    """Maintenance: no clock runs until ``clock.resumed`` (moves may still be made). With
    ``dispute``: a seat raised a dispute in a game whose clocks pause for one, until the
    referee's entry that settles it."""
    clocks = _clocked(new, env)
    dispute = env["payload"].get("dispute")
    if dispute:
        if not clocks.get("pause_on_dispute") or dispute in clocks.get("disputes", []):
            raise FoldError(f"seq {env['seq']}: this game's clocks do not pause for dispute {dispute!r}")
        new["clocks"] = {**clocks, "disputes": [*clocks.get("disputes", []), dispute]}
    else:
        new["clocks"] = {**clocks, "held": True}


def _clock_resumed(new: PlatformState, env: Envelope, state_at: StateAt) -> None:
    new["clocks"] = {**_clocked(new, env), "held": False}


PLATFORM_EVENTS: dict[str, Handler] = {
    "game.finished": _finished,
    "game.undo": _undo,
    "game.undo_requested": _undo_requested,
    "game.undo_approved": _undo_approved,
    "game.undo_declined": _undo_declined,
    "referee.pause": _pause,
    "referee.resume": _resume,
    "referee.rewind": _rewind,
    "referee.adjust": _adjust,
    "referee.forfeit": _forfeit,
    "referee.dismiss": _dismiss,
    "referee.bot": _bot,
    "bot.picked": _picked,
    "seat.bound": _seat_bound,
    "dispute.raised": _dispute_raised,
    "clock.expired": _forfeit,
    "clock.cancelled": _cancelled,
    "clock.credited": _credited,
    "clock.paused": _clock_paused,
    "clock.resumed": _clock_resumed,
    CORRECTION: _correction,
}


class InMemoryHistory:
    """Fold a whole log kept in memory, with ``state_at`` for undo and rewind.

    Used by verify and by tests. While folding in order it keeps the state at each
    effective point (dropping those an undo takes out of the history), so every undo
    finds its target without refolding: the fold is linear in the log, whatever the
    number of undos. ``state_at`` of any other seq refolds from a checkpoint (every
    ``every`` entries), remembering what it folds.
    """

    def __init__(self, envelopes: list[Envelope], seed: str | None, every: int = 50) -> None:
        self.envelopes = envelopes
        self.seed = seed
        self.every = every
        self.checkpoints: dict[int, PlatformState] = {}
        self.points: dict[int, PlatformState] = {}
        self._refolded: dict[int, PlatformState] = {}

    def state_at(self, seq: int) -> PlatformState:
        found = self.points.get(seq) or self._refolded.get(seq)
        if found is not None:
            return found
        base = max((s for s in self.checkpoints if s <= seq), default=0)
        pstate = self.checkpoints.get(base)
        for envelope in self.envelopes[base:seq]:
            pstate = self._refolded.get(envelope["seq"]) or apply(pstate, envelope, self.seed, self.state_at)
            self._refolded[envelope["seq"]] = pstate
        if pstate is None:
            raise FoldError(f"no state at seq {seq}")
        return pstate

    def states(self) -> Iterator[tuple[Envelope, PlatformState]]:
        """(envelope, state after it) for each entry, folding once in order."""
        pstate: PlatformState | None = None
        for envelope in self.envelopes:
            before: list[list[Any]] = pstate["history"] if pstate else []
            pstate = apply(pstate, envelope, self.seed, self.state_at)
            self._keep(before, pstate)
            if envelope["seq"] % self.every == 0:
                self.checkpoints[envelope["seq"]] = pstate
            yield envelope, pstate

    def _keep(self, before: list[list[Any]], pstate: PlatformState) -> None:
        after = pstate["history"]
        if pstate["seq"] == 1 or (after and after[-1][0] == pstate["seq"]):
            self.points[pstate["seq"]] = pstate
        if len(after) < len(before):
            for seq, _, _ in before[len(after) :]:
                self.points.pop(seq, None)

    def final(self) -> PlatformState:
        pstate: PlatformState | None = None
        for _, pstate in self.states():  # noqa: B007  # the last one is the answer
            pass
        if pstate is None:
            raise FoldError("an empty log")
        return pstate
