"""The game platform's service layer: every write is an append, every read a fold.

Routes call these methods and nothing else; tournaments use them too. Generic guards
(auth, finished, paused, version, schema, turn) live here, written once; the rules
live in the games.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable
from functools import cache

from marshmallow import ValidationError

from events import keys
from events.rng import commitment, new_seed
from events.store import EventStore, Extras, RedisEventStore
from events.writer import Head, StreamWriter
from projections import fold
from projections import ratings as rfold
from projections.games import get as get_game
from projections.games import registry
from projections.games.base import IllegalAction
from projections.outcome import final_result
from projections.projector import Projector
from projections.views import redacted_envelope
from service.metrics import APPEND_RESULTS
from service.services import callers, lobby, names
from service.services.accounts import Accounts
from service.services.callers import Caller
from service.services.errors import (
    Broken,
    Conflict,
    Forbidden,
    Invalid,
    Refusal,
    Unauthenticated,
    Unprocessable,
    not_found,
)
from service.services.lobby_writes import LobbyWrites
from service.services.ratings import Ratings

Entry = tuple[str, dict, dict]  # (type, actor, payload)
log = logging.getLogger(__name__)
SYSTEM = {"role": "system"}
SYSTEM_ACTION_PREFIX = "sys:"  # the platform's own action ids; clients may not use it


def canonical_payload(schema, payload: dict) -> dict:
    """The payload as the log stores it and the game reads it: loaded through its
    schema (types coerced, defaults filled) and dumped back under the wire names,
    so what a client posts, what the log keeps and what ``legal_actions`` offers
    all have one shape."""
    return schema.dump(schema.load(payload))


def action_schema(game_name: str, type_: str):
    """One instance per action schema, built on first use (building one per request
    deep-copies its fields); None for an action the game does not have. Only the
    game's own types are kept: a type is the caller's text, and remembering every one
    asked for would grow the worker without bound."""
    return _built_schema(game_name, type_) if type_ in get_game(game_name).action_schemas else None


@cache
def _built_schema(game_name: str, type_: str):
    return get_game(game_name).action_schemas[type_]()


def check_options(rules, options: dict, seats: int) -> None:
    """The game's own check of options against the table (``Game.check_options``), as a
    400 ``bad_options`` before anything is written: the one path for every game."""
    try:
        rules.check_options(options, seats)
    except IllegalAction as exc:
        raise Invalid("bad_options", exc.message, exc.details) from exc


class Platform:
    def __init__(self, redis, snapshot_every: int = 100, blocking=None, store: EventStore | None = None):
        """``store``: the event store (create_app hands it in); by default one over ``redis``."""
        self.redis = redis
        self.store = store or RedisEventStore(redis, blocking)
        self.writer = StreamWriter(self.store, observe=lambda status: APPEND_RESULTS[status].inc())
        self.projector = Projector(self.store, redis, snapshot_every=snapshot_every)
        self.tokens = callers.TokenCache(redis)
        self.lobby_writes = LobbyWrites()
        self.accounts = Accounts(redis)
        self.ratings = Ratings(redis, self.store, self.writer)

    # -- reading -------------------------------------------------------------------------
    def state(self, game_id: str) -> dict:
        try:
            pstate = self.projector.latest(game_id)
        except (fold.FoldError, IllegalAction) as exc:
            log.exception("game %s does not fold", game_id)
            raise Broken("unreadable_log", "this game's log does not fold under the current rules") from exc
        if pstate is None:
            raise not_found("game")
        return pstate

    def caller(self, game_id: str, token: str | None) -> Caller:
        """Who holds ``token`` in this game, from the worker's token cache; 404 for an
        unknown game is decided without reading its log."""
        if token:
            try:
                return self.tokens.resolve(game_id, token)
            except callers.UnknownToken:
                self._require_exists(game_id)
                raise Unauthenticated("bad_token", "this token is not valid for this game") from None
        self._require_exists(game_id)
        return callers.SPECTATOR

    def _require_exists(self, game_id: str) -> None:
        if self.projector.cached(game_id) is None and not self.redis.exists(keys.events(game_id)):
            raise not_found("game")

    def meta(self, game_id: str, pstate: dict | None = None) -> dict:
        p = pstate or self.state(game_id)
        game = get_game(p["game"])
        return {
            "id": game_id,
            "game": p["game"],
            "title": game.title,
            "seats": [
                {"seat": i, "name": n, **({"bot": p["bots"][str(i)]} if str(i) in p["bots"] else {})}
                for i, n in enumerate(p["seats"])
            ],
            "status": p["status"],
            "seq": p["seq"],
            "to_act": fold.awaited(p),
            "result": p["result"],
            "seed_commitment": p["seed_commitment"],
            "head_hash": p["head"],
            "created_at": p["created_at"],
            "ranked": p["ranked"],
            "forked_from": p["forked_from"],
            "tournament": p["tournament"],
            "clocks": p["clocks"]
            and {k: p["clocks"][k] for k in ("base", "increment", "remaining", "running", "since")},
            "pending_undo": p["pending_undo"],
            "moves": [{"seq": seq, "seat": seat} for seq, seat, _ in p["history"]],
            "options": p["options"],
            "rules_version": p["rules_version"],
            "accounts": p.get("accounts") or {},
        }

    def list_games(self, game: str | None = None, status: str | None = None, limit: int = 100) -> list[dict]:
        """Newest first, one page from the lobby's indexes (service/services/lobby.py)."""
        self.lobby_writes.flush()
        return lobby.page(self, game, status, limit)["games"]

    def _latest_or_none(self, game_id: str) -> dict | None:
        """The state, or None (logged) for a log that no longer folds under these rules:
        one such game must not take the lobby down for everyone."""
        try:
            return self.projector.latest(game_id)
        except (fold.FoldError, IllegalAction, KeyError, TypeError, ValueError):
            log.exception("game %s does not fold", game_id)
            return None

    def _summaries(self, ids: list[str]) -> list[str | None]:
        """Each game's lobby line from its own slot (a pipeline: on a cluster the keys
        live on several nodes)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in ids:
            pipe.get(keys.summary(game_id))
        return pipe.execute() if ids else []

    def _summarise(self, game_id: str, p: dict | None) -> dict | None:
        """Write the lobby line of a game whose line is missing (appends write it)."""
        if p is None:
            return None
        summary = summary_line(game_id, p)
        self.redis.set(keys.summary(game_id), json.dumps(summary))
        self.lobby_writes.run(("index", game_id), lambda: lobby.record(self.redis, summary))
        return summary

    def view(self, game_id: str, caller: Caller, at: int | None = None) -> dict:
        latest = self.state(game_id)
        at = latest["seq"] if at is None else max(1, min(at, latest["seq"]))
        p = latest if at == latest["seq"] else self.projector.state_at(game_id, at)
        game = get_game(p["game"])
        finished = self.disclosed(latest)
        return {
            "seq": latest["seq"],
            "at": at,
            "viewer": caller.describe(),
            "status": p["status"],
            "to_act": fold.awaited(p),
            "result": p["result"],
            "view": game.view(p["state"], caller.viewer(finished)),
            "clocks": p["clocks"],
            "pending_undo": p["pending_undo"],
        }

    def legal_actions(self, game_id: str, caller: Caller) -> dict:
        p = self.state(game_id)
        actions = []
        if caller.is_seat and p["status"] == "active":
            actions = get_game(p["game"]).legal_actions(p["state"], caller.seat)
        return {"seq": p["seq"], "seat": caller.seat, "actions": actions}

    def events(self, game_id: str, caller: Caller, after: int = 0) -> list[dict]:
        p = self.state(game_id)
        entries = self.store.read(keys.events(game_id), after=after)
        finished = self.disclosed(p)
        return [redacted_envelope(p["game"], e, caller.viewer(finished)) for e in entries]

    def export(self, game_id: str, caller: Caller) -> list[dict]:
        """The log as an auditor gets it: whole once finished (the seed is in
        ``game.finished``) or for the referee; redacted for anyone else."""
        return self.events(game_id, caller)

    # -- creating ------------------------------------------------------------------------
    def create_game(
        self,
        game: str,
        seat_names: list[str],
        options: dict | None = None,
        clock: dict | None = None,
        ranked: bool = True,
        tournament: str | None = None,
        fork: dict | None = None,
        rules_version: int | None = None,
        bots: dict[int, int] | None = None,
        accounts: dict[int, str] | None = None,
    ) -> dict:
        """A new game under the current rules version, or under ``rules_version`` (a fork
        keeps its source's rules). ``bots`` seats a computer of some strength in a seat;
        ``accounts`` binds seats to accounts (``seat.bound`` entries after the creation,
        in the same append)."""
        rules = get_game(game)
        if rules is None:
            raise Invalid("unknown_game", f"no game called {game!r}", {"known": sorted(registry())})
        if not rules.min_seats <= len(seat_names) <= rules.max_seats:
            raise Invalid(
                "bad_seat_count",
                f"{rules.title} takes {rules.min_seats} to {rules.max_seats} seats",
                {"min_seats": rules.min_seats, "max_seats": rules.max_seats},
            )
        if fork is None:  # a fork keeps its source's names, or the caller's, checked at the API
            seat_names = names.check_seats(seat_names)
        try:
            opts = rules.options_schema().load(options or {}) if rules.options_schema else dict(options or {})
        except ValidationError as exc:
            raise Invalid("bad_options", "the options fail their schema", {"options": exc.messages}) from exc
        check_options(rules, opts, len(seat_names))
        bots = {int(s): n for s, n in (bots or {}).items()}
        if any(not 0 <= s < len(seat_names) for s in bots):
            raise Invalid("bad_seat", "a computer must sit in one of the game's seats")
        if bots and not rules.plays_by_computer():
            raise Invalid("no_computer_player", f"{rules.title} has no computer player")
        accounts = {int(s): a for s, a in (accounts or {}).items()}
        if any(not 0 <= s < len(seat_names) or s in bots for s in accounts):
            raise Invalid("bad_seat", "an account is bound to one of the game's seats, not a computer's")
        game_id = uuid.uuid4().hex[:16]
        seed = new_seed()
        self.redis.set(keys.seed(game_id), seed)
        payload = {
            "game_id": game_id,
            "game": game,
            "rules_version": rules_version or rules.rules_version,
            "seats": list(seat_names),
            "options": opts,
            "seed_commitment": commitment(seed),
            "ranked": ranked and fork is None,
            "clock": clock,
            "tournament": tournament,
        }
        if bots:
            payload["bots"] = {str(s): n for s, n in sorted(bots.items())}
        if fork is not None:
            payload["fork"] = fork
        try:
            self.append_entries(
                game_id,
                lambda p: (
                    [("game.created", SYSTEM, payload)]
                    + [("seat.bound", SYSTEM, {"seat": s, "account": a}) for s, a in sorted(accounts.items())]
                ),
                expected_seq=0,
            )
        except BaseException:
            self.redis.delete(keys.seed(game_id))  # a game that was never created leaves nothing behind
            raise
        seat_tokens, referee_token = callers.issue_tokens(self.redis, game_id, len(seat_names))
        for seat in bots:
            callers.issue_bot_token(self.redis, game_id, seat)
        self._schedule_bots(game_id, self.projector.cached(game_id) or self.state(game_id))
        created_at = time.time()
        self.lobby_writes.run(("created", game_id), lambda: self.redis.zadd(keys.GAMES_INDEX, {game_id: created_at}))
        return {
            "id": game_id,
            "game": game,
            "seats": [
                {"seat": i, "name": n, "token": None, "bot": bots[i]}
                if i in bots
                else {"seat": i, "name": n, "token": t}
                for i, (n, t) in enumerate(zip(seat_names, seat_tokens))
            ],
            "referee_token": referee_token,
            "seed_commitment": payload["seed_commitment"],
        }

    # -- acting --------------------------------------------------------------------------
    def act(
        self,
        game_id: str,
        caller: Caller,
        type_: str,
        payload: dict,
        action_id: str | None = None,
        expected_seq: int | None = None,
    ) -> tuple[bool, dict]:
        """Post a game action for the caller's seat; returns (appended now, body): False
        for a retry of an action id already applied."""
        if not caller.is_seat:
            raise Forbidden("not_a_seat", "only a seat token can play actions")
        known = self.projector.cached(game_id) or self.state(game_id)  # a game's type never changes
        game = get_game(known["game"])
        schema = action_schema(known["game"], type_)
        if schema is None:
            raise Invalid(
                "unknown_action", f"{game.title} has no action {type_!r}", {"known": sorted(game.action_schemas)}
            )
        try:
            loaded = canonical_payload(schema, payload)
        except ValidationError as exc:
            raise Invalid("bad_payload", "the payload fails its schema", {"payload": exc.messages}) from exc

        flagged = self._flags_fallen(game_id, known)

        def build(p: dict) -> list[Entry]:
            if caller.seat in flagged or caller.seat in out_of_time(p, time.time()):
                raise Conflict("clock_ran_out", "this seat's clock has run out")
            self.require_active(p)
            self.require_speaks_for_seat(p, caller)
            if caller.seat not in game.to_act(p["state"]) and not game.legal_actions(p["state"], caller.seat):
                raise Unprocessable("not_your_turn", "this seat may not act now")
            return [(f"{p['game']}.{type_}", caller.actor(), loaded)]

        appended, seq = self.append_entries(game_id, build, action_id=action_id, expected_seq=expected_seq)
        if not appended:
            self._require_same_action(game_id, seq, action_id, f"{known['game']}.{type_}", caller.actor(), loaded)
        p = self.projector.cached(game_id) if appended else None
        if p is None:  # a retry answered from the idempotency key: the view as it is now
            return appended, {"seq": seq, "view": self.view(game_id, caller)["view"]}
        return appended, {"seq": seq, "view": game.view(p["state"], caller.viewer(self.disclosed(p)))}

    def disclosed(self, p: dict) -> bool:
        """Whether everything about this game may be shown: it has finished, and so has
        the game it was forked from (a fork's state holds its source's hidden state)."""
        if p["status"] != "finished":
            return False
        source = p["forked_from"] and p["forked_from"]["game_id"]
        return not source or self.disclosed(self.state(source))

    def sees_all(self, p: dict, caller: Caller) -> bool:
        """The one rule for the whole hidden state (views, logs, forks, analysis): the
        game's referee, or anyone once the game is ``disclosed``."""
        return caller.referee or self.disclosed(p)

    def _require_same_action(
        self, game_id: str, seq: int, action_id: str | None, type_: str, actor: dict, payload: dict
    ) -> None:
        """A retry names an action already applied: it must be that same action, else
        the id was reused for another move and the retry is refused, not silently
        answered with the first move's seq."""
        first = self.store.read(keys.events(game_id), after=seq - 1, upto=seq)
        if first and (first[0]["type"], first[0]["actor"], first[0]["payload"]) != (type_, actor, payload):
            raise Conflict(
                "action_id_reused",
                "this action_id was already used for a different action",
                {"action_id": action_id, "seq": seq},
            )

    @staticmethod
    def require_speaks_for_seat(p: dict, caller: Caller) -> None:
        """A seat token speaks for its seat only while the seat is its kind's: a person's
        token not once a computer plays the seat (moves, undos, notes), the computer's
        not once a person does."""
        if caller.is_seat and (str(caller.seat) in p["bots"]) != caller.bot:
            raise Forbidden(
                "computer_seat", "a computer plays this seat" if not caller.bot else "this seat is a person's"
            )

    @staticmethod
    def require_active(p: dict) -> None:
        if p["status"] == "finished":
            raise Conflict("game_finished", "the game is over")
        if p["status"] == "paused":
            raise Conflict("game_paused", "the referee has paused the game")

    def append_entries(
        self,
        game_id: str,
        build: Callable[[dict], list[Entry]],
        action_id: str | None = None,
        expected_seq: int | None = None,
    ) -> tuple[bool, int]:
        """Append what ``build(state)`` returns plus its consequences; (appended now, first
        seq): False when answered from the action id's first append (or when there was
        nothing to append: the head's seq). ``events.writer.StreamWriter`` owns the loop;
        a lost race under ``expected_seq`` raises ``StaleHead``."""
        written = self.writer.write(GameStream(self, game_id), build, action_id, expected_seq)
        return written.status == "created", written.seq

    # -- computer seats --------------------------------------------------------------------
    def _schedule_bots(self, game_id: str, p: dict) -> None:
        """Tell the bot runner when a computer seat is awaited (it never polls every game)."""
        if p["bots"] and p["status"] == "active" and any(str(s) in p["bots"] for s in fold.awaited(p)):
            self.redis.zadd(keys.BOTS_DUE, {game_id: time.time()}, nx=True)

    # -- clocks --------------------------------------------------------------------------
    def _schedule_clock(self, game_id: str, p: dict) -> None:
        clocks = p["clocks"]
        if not clocks:
            return
        if p["status"] != "active" or not clocks["running"]:
            self.redis.zrem(keys.DEADLINES, game_id)
            return
        due = clocks["since"] + min(clocks["remaining"][s] for s in clocks["running"])
        self.redis.zadd(keys.DEADLINES, {game_id: due})

    def expire_clocks(self, now: float | None = None) -> list[str]:
        """Forfeit every seat whose clock has run out; safe to call from many workers:
        the action id is derived from the state, so a second caller appends nothing."""
        now = time.time() if now is None else now
        expired = []
        for game_id in self.redis.zrangebyscore(keys.DEADLINES, "-inf", now):
            p = self.projector.latest(game_id)
            clocks = p and p["clocks"]
            if not clocks or p["status"] != "active":
                self.redis.zrem(keys.DEADLINES, game_id)
                continue
            if self.flag(game_id, p, now) is not None:
                expired.append(game_id)
            else:
                self._schedule_clock(game_id, p)
        return expired

    def flag(self, game_id: str, p: dict, now: float) -> int | None:
        """Append ``clock.expired`` for the first running seat of ``p`` out of time at
        ``now``; the seat forfeited, if one was. The sweeper calls it on a timer, and
        every move first (so no move slips in between the flag falling and the sweep)."""
        out = out_of_time(p, now)
        if not out:
            return None
        seat = out[0]
        try:
            self.append_entries(
                game_id,
                lambda q: [("clock.expired", SYSTEM, {"seat": seat, "reason": "clock ran out"})],
                action_id=f"{SYSTEM_ACTION_PREFIX}clock:{p['seq']}:{seat}",
                expected_seq=p["seq"],
            )
            return seat
        except Refusal:
            return None  # someone else moved first; the next look finds it

    def _flags_fallen(self, game_id: str, known: dict) -> set[int]:
        """Before a move: forfeit every seat whose flag has fallen (the seats forfeited)."""
        flagged: set[int] = set()
        while out_of_time(known, time.time()) and len(flagged) < len(known["seats"]):
            latest = self.projector.latest(game_id)
            seat = self.flag(game_id, latest, time.time())
            if seat is None:
                break
            flagged.add(seat)
            known = self.projector.latest(game_id)
        return flagged


class GameStream:
    """A game's log as ``StreamWriter`` appends to it: it starts from the worker's
    cached state, folds through the projector, follows each write with the game's
    automatic moves and ``game.finished``, writes the lobby line and snapshots with
    the append, and afterwards what lies outside the game's slot."""

    refusals = (Refusal,)

    def __init__(self, platform: Platform, game_id: str):
        self.platform, self.projector, self.game_id = platform, platform.projector, game_id
        self.key, self.idempotency_key = keys.events(game_id), keys.idempotency(game_id)

    def start(self) -> tuple[Head, bool]:
        p = self.projector.cached(self.game_id)
        return (self.latest(), True) if p is None else (_head(p), False)

    def latest(self) -> Head:
        return _head(self.projector.latest(self.game_id))

    def catch_up(self, p: dict | None, missed: list[dict]) -> dict | None:
        return self.projector.catch_up(self.game_id, p, missed)

    def seed(self) -> str | None:
        return self.projector.seed(self.game_id)

    def fold(self, p: dict | None, envelope: dict) -> dict:
        try:
            return self.projector.fold_onto(self.game_id, p, [envelope])
        except IllegalAction as exc:
            raise Unprocessable(exc.code, exc.message, exc.details) from exc
        except fold.FoldError as exc:  # e.g. anything but a correction after game.finished
            raise Conflict("not_accepted", str(exc)) from exc

    def follow(self, p: dict) -> Entry | None:
        """The system's next automatic move, else ``game.finished`` once a result exists."""
        game = get_game(p["game"])
        auto = game.automatic(p["state"]) if p["status"] == "active" else None
        if auto is not None:
            return f"{p['game']}.{auto['type']}", SYSTEM, auto["payload"]
        result = final_result(game, p) if p["status"] != "finished" else None
        if result is not None:
            return "game.finished", SYSTEM, {"result": result, "seed": self.seed()}
        return None

    def extras(self, p: dict | None, envelopes: list[dict], final: dict) -> Extras:
        """What the append writes beside the entries: the lobby line, and the snapshot
        of the fold at a multiple of K when the batch reaches one."""
        extras = Extras(
            keys.summary(self.game_id),
            json.dumps(summary_line(self.game_id, final)),
            self.projector.snapshots_key(self.game_id, final["game"]),
        )
        due = [e["seq"] for e in envelopes if self.projector.snapshot_due(e["seq"])]
        if due:
            at = due[-1]
            snap = (
                final
                if at == final["seq"]
                else self.projector.fold_onto(self.game_id, p, [e for e in envelopes if e["seq"] <= at])
            )
            extras.snapshot_seq, extras.snapshot = at, json.dumps(snap)
        return extras

    def appended(self, p: dict | None, envelopes: list[dict], final: dict) -> None:
        """The worker's cache, then writes outside the game's slot, written aside and
        never failing the move (Redis Cluster): the clock's deadline, the bots' queue,
        an account's list of games, the ratings when a rateable game's result is
        recorded (first or corrected), and the lobby's indexes when the status changes."""
        game_id, platform, writes = self.game_id, self.platform, self.platform.lobby_writes
        self.projector.remember(game_id, final)
        if final["clocks"]:  # a game without clocks or computer seats has nothing to schedule
            writes.run(("clock", game_id), lambda: platform._schedule_clock(game_id, final))
        if final["bots"]:
            writes.run(("bots", game_id), lambda: platform._schedule_bots(game_id, final))
        for e in envelopes:
            if e["type"] == "seat.bound":
                name, when = e["payload"]["account"], time.time()
                writes.run(
                    ("account-game", game_id, name),
                    lambda name=name, when=when: platform.accounts.add_game(name, game_id, when),
                )
        ends = [e for e in envelopes if e["type"] in ("game.finished", *rfold.REFEREE_DECIDES)]
        if ends and final["status"] == "finished" and rfold.is_rateable(final):
            writes.run(
                ("rating", game_id, final["head"]),
                lambda: platform.ratings.record_quietly(platform, final, ends[-1]["ts"]),
            )
        if p is None or p["status"] != final["status"]:
            line = summary_line(game_id, final)
            writes.run(("index", game_id), lambda: lobby.record(platform.redis, line))


def _head(p: dict | None) -> Head:
    return Head(p, p["seq"], p["head"]) if p else Head(None)


def out_of_time(p: dict | None, now: float) -> list[int]:
    """The running seats of ``p`` whose clocks have run out at ``now``."""
    clocks = p and p["clocks"]
    if not clocks or p["status"] != "active":
        return []
    spent = now - clocks["since"]
    return [s for s in clocks["running"] if clocks["remaining"][s] - spent <= 0]


def summary_line(game_id: str, p: dict) -> dict:
    """The lobby's line for a game: a cache of the fold, like snapshots."""
    return {
        "id": game_id,
        "game": p["game"],
        "title": get_game(p["game"]).title,
        "seats": [{"seat": i, "name": n} for i, n in enumerate(p["seats"])],
        "status": p["status"],
        "seq": p["seq"],
        "to_act": fold.awaited(p),
        "result": p["result"],
        "created_at": p["created_at"],
        "ranked": p["ranked"],
        "forked_from": p["forked_from"],
        "tournament": p["tournament"],
        "accounts": p.get("accounts") or {},
    }
