"""Games: create, play and read a game. Every write is an append, every read a fold.

Routes call these methods; tournaments and forks create games through ``create``.
Generic guards (auth, finished, paused, version, schema, turn) live here and in
``guards``, written once; the rules live in the games.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from marshmallow import Schema, ValidationError, fields

from events.rng import commitment, new_seed
from events.shapes import JSON, Actor, Envelope
from events.writer import Entry
from projections import fold
from projections import ratings as rfold
from projections.fold import PlatformState
from projections.games import get as get_game
from projections.games import registry
from projections.games.base import Game, IllegalAction
from projections.views import redacted_envelope
from service.ports import GameLog, Tokens
from service.services import callers, names
from service.services.accounts import Accounts
from service.services.callers import Caller
from service.services.clocks import Clocks, first_move, out_of_time
from service.services.computer_seats import ComputerSeats
from service.services.errors import Conflict, Forbidden, Invalid, Unauthenticated, Unprocessable, not_found
from service.services.guards import require_active, require_speaks_for_seat
from service.services.lobby import Lobby

SYSTEM: Actor = {"role": "system"}
# what a game's metadata shows of its clocks (the fold's bookkeeping, "ran", stays inside)
CLOCK_FIELDS = (
    *("base", "increment", "remaining", "running", "since"),
    *("first_move", "opening", "moved", "held", "pause_on_dispute", "disputes", "per_move", "vacation"),
)

EVENTS_PAGE = 1000  # entries per page of /events: the default and the most one page holds
EXPORT_PAGE = 500  # entries read from the store at a time while an export streams


def canonical_payload(schema: Schema, payload: JSON) -> JSON:
    """The payload as the log stores it and the game reads it: loaded through its
    schema (types coerced, defaults filled) and dumped back under the wire names,
    so what a client posts, what the log keeps and what ``legal_actions`` offers
    all have one shape."""
    loaded: JSON = schema.dump(schema.load(payload))
    return loaded


def action_schema(game_name: str, type_: str) -> Schema | None:
    """One instance per action schema, built on first use (building one per request
    deep-copies its fields); None for an action the game does not have. Only the
    game's own types are kept: a type is the caller's text, and remembering every one
    asked for would grow the worker without bound."""
    return _built_schema(game_name, type_) if type_ in registry()[game_name].action_schemas else None


@cache
def _built_schema(game_name: str, type_: str) -> Schema:
    built: Schema = registry()[game_name].action_schemas[type_]()
    return built


# The JSON types an option's field takes: the games' schemas are marshmallow's, whose
# booleans also take 0, 1 and "yes" and whose numbers take strings; a new game's options
# are the JSON types the OpenAPI document names, nothing else.
_JSON_TYPES: tuple[tuple[type, tuple[type, ...], str], ...] = (
    (fields.Boolean, (bool,), "true or false"),
    (fields.Integer, (int,), "an integer"),
    (fields.Number, (int, float), "a number"),
    (fields.String, (str,), "a string"),
)


def load_options(rules: Game, raw: JSON) -> JSON:
    """A new game's options as its schema loads them, each of the JSON type its field
    names (``ValidationError`` otherwise). Options are read at creation only: a recorded
    game's are already typed and are never loaded again, so this changes no refold."""
    if rules.options_schema is None:
        return dict(raw)
    schema: Schema = rules.options_schema()
    data = dict(raw)
    wrong: dict[str, list[str]] = {}
    for name, value in raw.items():
        field = schema.fields.get(name)
        if field is None or value is None:
            continue  # unknown names and nulls: the schema's own answer
        if isinstance(field, fields.Integer) and isinstance(value, float) and value.is_integer():
            value = data[name] = int(value)  # 4.0 is the integer 4 to JSON (Schema)
        kind = next(((types, what) for cls, types, what in _JSON_TYPES if isinstance(field, cls)), None)
        if kind is not None and (isinstance(value, bool) != (bool in kind[0]) or not isinstance(value, kind[0])):
            wrong[name] = [f"must be {kind[1]}"]
    if wrong:
        raise ValidationError(wrong)
    loaded: JSON = schema.load(data)
    return loaded


def check_options(rules: Game, options: JSON, seats: int) -> None:
    """The game's own check of options against the table (``Game.check_options``), as a
    400 ``bad_options`` before anything is written: the one path for every game."""
    try:
        rules.check_options(options, seats)
    except IllegalAction as exc:
        raise Invalid("bad_options", exc.message, exc.details) from exc


@dataclass(frozen=True)
class CreateGame:
    """The command to create a game. ``rules_version`` None: the current one (a fork
    keeps its source's); ``bots`` seats a computer of some strength in a seat;
    ``accounts`` binds seats to accounts (``seat.bound`` entries after the creation, in
    the same append); ``fork`` names the state a fork starts from; ``creator`` (an
    account or address) is charged for the computer seats, within its cap (None: a
    tournament's game, charged to the tournament, uncapped). A game from an open table
    has the table's id, the seed the table committed to and the seats' shares of the
    deal (``deal``), which its draws mix in."""

    game: str
    seats: list[str]
    options: JSON | None = None
    clock: JSON | None = None
    ranked: bool = True
    tournament: str | None = None
    fork: JSON | None = None
    rules_version: int | None = None
    bots: dict[int, int] = field(default_factory=dict)
    accounts: dict[int, str] = field(default_factory=dict)
    creator: str | None = None
    table: str | None = None
    seed: str | None = None
    deal: list[JSON] | None = None


class Games:
    def __init__(
        self,
        log: GameLog,
        tokens: Tokens,
        accounts: Accounts,
        lobby: Lobby,
        clocks: Clocks,
        computer_seats: ComputerSeats,
    ) -> None:
        self._log = log
        self._tokens = tokens
        self._accounts = accounts
        self._lobby = lobby
        self._clocks = clocks
        self._computer_seats = computer_seats

    # -- who is asking -------------------------------------------------------------------
    def caller(self, game_id: str, token: str | None) -> Caller:
        """Who holds ``token`` in this game, from the worker's token cache; 404 for an
        unknown game is decided without reading its log."""
        if token:
            try:
                return self._tokens.resolve(game_id, token)
            except callers.UnknownToken:
                self._require_exists(game_id)
                return self._account_seat(game_id, token)
        self._require_exists(game_id)
        return callers.SPECTATOR

    def _account_seat(self, game_id: str, token: str) -> Caller:
        """An account's session speaks for the seat the account holds in this game."""
        refused = Unauthenticated("bad_token", "this token is not valid for this game")
        try:
            name = self._accounts.session(token)
        except Unauthenticated:
            raise refused from None
        seats = [int(s) for s, a in callers.bound_accounts(self._log.state(game_id)).items() if a == name]
        if not seats:
            raise refused
        return Caller(seat=seats[0], claimed=True)

    def _require_exists(self, game_id: str) -> None:
        if not self._log.exists(game_id):
            raise not_found("game")

    # -- reading -------------------------------------------------------------------------
    def meta(self, game_id: str, pstate: PlatformState | None = None) -> JSON:
        p = pstate or self._log.state(game_id)
        game = fold.game_of(p)
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
            "clocks": p["clocks"] and {k: v for k, v in p["clocks"].items() if k in CLOCK_FIELDS},
            "pending_undo": p["pending_undo"],
            "disputes": open_disputes(p),
            "moves": [{"seq": seq, "seat": seat} for seq, seat, _ in p["history"]],
            "options": p["options"],
            "rules_version": p["rules_version"],
            "accounts": p.get("accounts") or {},
        }

    def list_games(self, game: str | None = None, status: str | None = None, limit: int = 100) -> list[JSON]:
        """Newest first, one page from the lobby's indexes."""
        games: list[JSON] = self._lobby.page(game, status, limit)["games"]
        return games

    def view(self, game_id: str, caller: Caller, at: int | None = None) -> JSON:
        latest = self._log.state(game_id)
        callers.require_current(latest, caller)
        at = latest["seq"] if at is None else max(1, min(at, latest["seq"]))
        p = latest if at == latest["seq"] else self._log.state_at(game_id, at)
        return {"seq": latest["seq"], "at": at, **self._drawn(p, caller, self.sees_all(latest, caller))}

    def position(self, p: PlatformState, caller: Caller) -> JSON:
        """What ``caller`` draws of the game at ``p`` (a state already read): the view
        document of ``GET /view`` and the caller's legal actions. The move's answer and
        the live push carry it, so a page never reads it again after an entry."""
        drawn = {"seq": p["seq"], "at": p["seq"], **self._drawn(p, caller, self.sees_all(p, caller))}
        return {**drawn, "actions": self._actions(p, caller)}

    def _drawn(self, p: PlatformState, caller: Caller, sees_all: bool) -> JSON:
        return {
            "viewer": caller.describe(),
            "status": p["status"],
            "to_act": fold.awaited(p),
            "result": p["result"],
            "view": fold.game_of(p).view(p["state"], caller.viewer(sees_all)),
            "clocks": p["clocks"],
            "pending_undo": p["pending_undo"],
            "disputes": open_disputes(p),
        }

    def legal_actions(self, game_id: str, caller: Caller) -> JSON:
        p = self._log.state(game_id)
        callers.require_current(p, caller)
        return {"seq": p["seq"], "seat": caller.seat, "actions": self._actions(p, caller)}

    @staticmethod
    def _actions(p: PlatformState, caller: Caller) -> list[JSON]:
        if caller.seat is None or p["status"] != "active":
            return []
        actions: list[JSON] = fold.game_of(p).legal_actions(p["state"], caller.seat)
        return actions

    def events(self, game_id: str, caller: Caller, after: int = 0, limit: int = EVENTS_PAGE) -> JSON:
        """One page of the log after ``after``, at most ``limit`` entries, redacted for
        the caller: ``{events, next}``, ``next`` the ``after`` of the following page
        (None when this page reaches the head)."""
        p = self._log.state(game_id)
        callers.require_current(p, caller)
        upto = after + limit
        entries = self._log.read(game_id, after=after, upto=upto)
        viewer = caller.viewer(self.sees_all(p, caller))
        return {
            "events": [redacted_envelope(p["game"], e, viewer) for e in entries],
            "next": upto if p["seq"] > upto else None,
        }

    def export_pages(self, game_id: str, caller: Caller, page: int | None = None) -> Iterator[list[Envelope]]:
        """The log as an auditor gets it, page by page up to the head it had when asked:
        whole once finished (the seed is in ``game.finished``) or for the referee;
        redacted for anyone else. The game and the caller are checked before the first
        page (a refusal is raised there, not midway)."""
        p = self._log.state(game_id)
        callers.require_current(p, caller)
        viewer, head, page = caller.viewer(self.sees_all(p, caller)), p["seq"], page or EXPORT_PAGE

        def pages() -> Iterator[list[Envelope]]:
            for after in range(0, head, page):
                entries = self._log.read(game_id, after=after, upto=min(after + page, head))
                yield [redacted_envelope(p["game"], e, viewer) for e in entries]

        return pages()

    def export(self, game_id: str, caller: Caller) -> list[Envelope]:
        """The whole export in one list (a tournament bundle's games; each game's log is
        bounded by its type's ``max_log_entries``)."""
        return [e for page in self.export_pages(game_id, caller) for e in page]

    def disclosed(self, p: PlatformState) -> bool:
        """Whether everything about this game may be shown: it has finished, and so has
        the game it was forked from (a fork's state holds its source's hidden state)."""
        if p["status"] != "finished":
            return False
        source = p["forked_from"] and p["forked_from"]["game_id"]
        return not source or self.disclosed(self._log.state(source))

    def sees_all(self, p: PlatformState, caller: Caller) -> bool:
        """The one rule for the whole hidden state (views, logs, forks, analysis): the
        game's referee, or anyone once the game is ``disclosed``. The exception is a ranked
        game outside a tournament once a seat is bound to an account: its referee token is
        its creator's, who may play another seat, so until the end it sees what a
        spectator sees (the machine's own reader, ``operator``, always sees all)."""
        if caller.operator or self.disclosed(p):
            return True
        rated = p["ranked"] and not p["tournament"] and bool(callers.bound_accounts(p))
        return caller.referee and not rated

    # -- creating ------------------------------------------------------------------------
    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex[:16]

    def exists(self, game_id: str) -> bool:
        return self._log.exists(game_id)

    def checked(self, command: CreateGame) -> JSON:
        """The command's options as the game would record them, after every check
        ``create`` makes before writing (400 on any)."""
        rules = get_game(command.game)
        if rules is None:
            raise Invalid("unknown_game", f"no game called {command.game!r}", {"known": sorted(registry())})
        seat_names = self._checked_seats(rules, command)
        self._checked_chairs(rules, command, len(seat_names))
        return self._checked_options(rules, command, len(seat_names))

    def create(self, command: CreateGame) -> JSON:
        """A new game: checked whole before anything is written, then its seed kept and
        its first entries appended in one step, its tokens issued, its computer seats
        scheduled and the lobby told."""
        rules = get_game(command.game)
        if rules is None:
            raise Invalid("unknown_game", f"no game called {command.game!r}", {"known": sorted(registry())})
        seat_names = self._checked_seats(rules, command)
        opts = self._checked_options(rules, command, len(seat_names))
        bots, accounts = self._checked_chairs(rules, command, len(seat_names))
        game_id = command.table or self.new_id()
        seed = command.seed or new_seed()
        payload: JSON = {
            "game_id": game_id,
            "game": command.game,
            "rules_version": command.rules_version or rules.rules_version,
            "seats": list(seat_names),
            "options": opts,
            "seed_commitment": commitment(seed),
            "ranked": command.ranked and command.fork is None,
            # a computer's clock starts when a worker picks its move (fold: ``bot.picked``)
            "clock": command.clock
            and {"first_move": first_move(command.clock), **command.clock, "computers_wait": True},
            "tournament": command.tournament,
            "ratings_rules": rfold.RULES,
        }
        if bots:
            payload["bots"] = {str(s): n for s, n in sorted(bots.items())}
        if command.fork is not None:
            payload["fork"] = command.fork
        if command.deal is not None:
            payload["deal"] = {"table": game_id, "contributions": command.deal}

        if bots:
            owner = command.creator or f"tournament:{command.tournament or game_id}"
            self._computer_seats.claim(owner, game_id, bots, capped=command.creator is not None)
        bound: list[Entry] = [("seat.bound", SYSTEM, {"seat": s, "account": a}) for s, a in sorted(accounts.items())]
        held = self._clocks.held_from_the_start(game_id) if command.clock else []
        written = self._log.create(game_id, seed, [("game.created", SYSTEM, payload), *bound, *held])
        seat_tokens, referee_token = self._tokens.issue(game_id, len(seat_names), frozenset(accounts))
        for seat in bots:
            self._tokens.issue_bot(game_id, seat)
        if written.state is not None:
            self._computer_seats.schedule(game_id, written.state)
        self._lobby.created(game_id, self._clocks.now())
        return {
            "id": game_id,
            "game": command.game,
            "seats": [
                {"seat": i, "name": n, "token": None, "bot": bots[i]}
                if i in bots
                else {"seat": i, "name": n, "token": t}
                for i, (n, t) in enumerate(zip(seat_names, seat_tokens))
            ],
            "referee_token": referee_token,
            "seed_commitment": payload["seed_commitment"],
        }

    @staticmethod
    def _checked_seats(rules: Game, command: CreateGame) -> list[str]:
        if not rules.min_seats <= len(command.seats) <= rules.max_seats:
            raise Invalid(
                "bad_seat_count",
                f"{rules.title} takes {rules.min_seats} to {rules.max_seats} seats",
                {"min_seats": rules.min_seats, "max_seats": rules.max_seats},
            )
        if command.fork is None:  # a fork keeps its source's names, or the caller's, checked at the API
            return names.check_seats(command.seats)
        return list(command.seats)

    @staticmethod
    def _checked_options(rules: Game, command: CreateGame, seats: int) -> JSON:
        try:
            opts = load_options(rules, command.options or {})
        except ValidationError as exc:
            raise Invalid("bad_options", "the options fail their schema", {"options": exc.messages}) from exc
        check_options(rules, opts, seats)
        return opts

    @staticmethod
    def _checked_chairs(rules: Game, command: CreateGame, seats: int) -> tuple[dict[int, int], dict[int, str]]:
        bots = {int(s): n for s, n in command.bots.items()}
        if any(not 0 <= s < seats for s in bots):
            raise Invalid("bad_seat", "a computer must sit in one of the game's seats")
        if bots and not rules.plays_by_computer():
            raise Invalid("no_computer_player", f"{rules.title} has no computer player")
        accounts = {int(s): a for s, a in command.accounts.items()}
        if any(not 0 <= s < seats or s in bots for s in accounts):
            raise Invalid("bad_seat", "an account is bound to one of the game's seats, not a computer's")
        return bots, accounts

    # -- acting --------------------------------------------------------------------------
    def act(
        self,
        game_id: str,
        caller: Caller,
        type_: str,
        payload: JSON,
        action_id: str | None = None,
        expected_seq: int | None = None,
    ) -> tuple[bool, JSON]:
        """Post a game action for the caller's seat; returns (appended now, body): False
        for a retry of an action id already applied."""
        if caller.seat is None:
            raise Forbidden("not_a_seat", "only a seat token can play actions")
        seat = caller.seat
        known = self._log.cached(game_id) or self._log.state(game_id)  # a game's type never changes
        game = fold.game_of(known)
        schema = action_schema(known["game"], type_)
        if schema is None:
            raise Invalid(
                "unknown_action", f"{game.title} has no action {type_!r}", {"known": sorted(game.action_schemas)}
            )
        try:
            loaded = canonical_payload(schema, payload)
        except ValidationError as exc:
            raise Invalid("bad_payload", "the payload fails its schema", {"payload": exc.messages}) from exc

        flagged = self._clocks.fallen(game_id, known)

        def build(p: PlatformState) -> list[Entry]:
            if seat in flagged or seat in out_of_time(p, self._clocks.now()):
                raise Conflict("clock_ran_out", "this seat's clock has run out")
            require_active(p)
            require_speaks_for_seat(p, caller)
            if seat not in game.to_act(p["state"]) and not game.legal_actions(p["state"], seat):
                raise Unprocessable("not_your_turn", "this seat may not act now")
            return [(f"{p['game']}.{type_}", caller.actor(), loaded)]

        written = self._log.append(game_id, build, action_id=action_id, expected_seq=expected_seq)
        appended = written.status == "created"
        if not appended:
            self._require_same_action(game_id, written.seq, action_id, f"{known['game']}.{type_}", caller, loaded)
        p = written.state if appended else None
        if p is None:  # a retry answered from the idempotency key: the position as it is now
            p = self._log.state(game_id)
        drawn = self.position(p, caller)
        return appended, {**drawn, "seq": written.seq}

    def _require_same_action(
        self, game_id: str, seq: int, action_id: str | None, type_: str, caller: Caller, payload: JSON
    ) -> None:
        """A retry names an action already applied: it must be that same action, else
        the id was reused for another move and the retry is refused, not silently
        answered with the first move's seq."""
        first = self._log.read(game_id, after=seq - 1, upto=seq)
        if first and (first[0]["type"], first[0]["actor"], first[0]["payload"]) != (type_, caller.actor(), payload):
            raise Conflict(
                "action_id_reused",
                "this action_id was already used for a different action",
                {"action_id": action_id, "seq": seq},
            )


def open_disputes(p: PlatformState) -> list[JSON]:
    """The disputes raised in the log and not yet settled, oldest first."""
    return [{"id": k, **v} for k, v in (p.get("disputes") or {}).items()]
