"""Open tables: a logged-in player opens a game with free seats, others take them, and
the game starts when the last one is taken.

Each table is a log of its own (``projections/tables.py``) under the id the game will
have. Opening it keeps the server's seed and commits to it before anyone contributes;
each seat is taken with the client's own random value; the game created at the start
records every share (``deal`` in ``game.created``) and its draws mix them in, so neither
the server nor any one seat chooses the deal. Expiry is checked when a table is read or
joined, and written to its log then.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import cast

from events.rng import commitment, new_seed
from events.shapes import JSON, Actor, Envelope
from events.store import EventStore, game_stream, table_stream
from events.writer import Entry, Head, Stream, StreamWriter
from projections import tables as tfold
from projections.games import get as get_game
from projections.games import registry
from service.ports import TableIndex
from service.services.accounts import Accounts
from service.services.errors import Conflict, Forbidden, Invalid, Refusal, not_found
from service.services.games import CreateGame, Games

SYSTEM: Actor = {"role": "system"}
"""The writer of every table entry: the server, on an account's request (the payload names
the account), so the table's log checks with the same envelope rules as a game's."""
DEFAULT_EXPIRY = 24 * 3600.0
CLOCK_ASKED = ("base", "increment", "first_move", "per_move_days", "vacation_days", "pause_on_dispute")
START_SECONDS = 60  # how long a start that died keeps others from making the game


class Tables:
    def __init__(
        self,
        store: EventStore,
        writer: StreamWriter,
        index: TableIndex,
        games: Games,
        accounts: Accounts,
        now: Callable[[], float] = time.time,
        notify: Callable[[str, JSON], object] | None = None,
    ) -> None:
        self._store = store
        self._writer = writer
        self._index = index
        self._games = games
        self._accounts = accounts
        self._now = now
        self._notify = notify

    # -- reading -------------------------------------------------------------------------
    def state(self, table_id: str) -> JSON:
        """The table as its log says, expired first if its time is up, started first if
        it is full (a start cut short)."""
        state = tfold.fold(self._store.read(table_stream(table_id)))
        if state is None:
            raise not_found("table")
        if tfold.expired(state, self._now()):
            state = self._append(
                table_id, lambda s: [("table.expired", SYSTEM, {})] if s["status"] == tfold.OPEN else []
            )
        if state["status"] == tfold.OPEN and not tfold.free_seats(state):
            return self._start_if_full(table_id)  # a start cut short: whoever looks next finishes it
        return tfold.public(state)

    def log(self, table_id: str) -> list[Envelope]:
        """The table's log as stored: every entry public (plain digests, no seed), so
        anyone can check that the seed was committed before any share was sent."""
        entries = self._store.read(table_stream(table_id))
        if not entries:
            raise not_found("table")
        return entries

    def open_tables(self, limit: int = 100) -> list[JSON]:
        """Listed tables still open, soonest to expire first."""
        found = []
        for table_id in self._index.open_ids(limit):
            try:
                state = self.state(table_id)
            except Refusal:  # one table that cannot start now (a cap, a lost seed) hides no other
                continue
            if state["status"] == tfold.OPEN:
                found.append(state)
            else:
                self._index.unlisted(table_id)
        return found

    def of_account(self, account: str, limit: int = 200) -> list[JSON]:
        """Open tables the account sits at or is invited to (listed or not), newest first."""
        games = self._accounts.games(account, limit)
        # a table that started is a game with a lobby line: only the others are read
        waiting = [g for g, line in zip(games, self._store.summaries([game_stream(g) for g in games])) if line is None]
        ids = [*self._index.invitations(account, limit), *waiting]
        found: dict[str, JSON] = {}
        for table_id in ids:
            if table_id in found or not self._store.exists(table_stream(table_id)):
                continue
            try:
                state = self.state(table_id)
            except Refusal:
                continue
            if state["status"] == tfold.OPEN and (account in state["invited"] or account in tfold.accounts(state)):
                found[table_id] = state
        return sorted(found.values(), key=lambda t: t["created_at"], reverse=True)

    # -- writing -------------------------------------------------------------------------
    def open(
        self,
        creator: str,
        game: str,
        seats: int,
        contribution: str,
        *,
        options: JSON | None = None,
        clock: JSON | None = None,
        ranked: bool = True,
        invited: Sequence[str] = (),
        bots: dict[int, int] | None = None,
        seat: int = 0,
        listed: bool = True,
        expires_in: float = DEFAULT_EXPIRY,
        reserved: dict[int, str] | None = None,
        rematch_of: str | None = None,
        referee: str | None = None,
    ) -> JSON:
        """Open a table with the creator in ``seat``; answers the table. ``reserved``
        keeps seats for named accounts (a rematch); ``referee`` names an account that
        takes no seat and gets the game's referee token when it starts (else nobody
        referees it: its chat cannot be moderated, a dispute not settled)."""
        rules = get_game(game)
        if rules is None:
            raise Invalid("unknown_game", f"no game called {game!r}", {"known": sorted(registry())})
        bots = dict(bots or {})
        # the game's own checks (seat count, options, computer seats), before anything is written
        probe = CreateGame(game, [f"seat {i + 1}" for i in range(seats)], options, clock, ranked, bots=bots)
        checked = self._games.checked(probe)
        if not 0 <= seat < seats or seat in bots:
            raise Invalid("bad_seat", "the creator sits in one of the table's seats, not a computer's")
        # each invitee as its account spells its name (404 for a name no account has)
        invited = sorted({self._accounts.require(name)["name"] for name in invited} - {creator})
        if referee is not None:
            referee = self._accounts.require(referee)["name"]
            if referee == creator or referee in invited:
                raise Invalid("bad_referee", "the referee takes no seat: neither the creator nor an invitee")
        table_id = self._games.new_id()
        seed = new_seed()
        self._store.keep_seed(table_stream(table_id), seed)
        opened: JSON = {
            "id": table_id,
            "game": game,
            "seats": seats,
            "options": checked,
            "clock": clock,
            "ranked": ranked,
            "creator": creator,
            "invited": invited,
            "bots": {str(s): n for s, n in sorted(bots.items())},
            "listed": listed,
            "expires_at": self._now() + expires_in,
            "seed_commitment": commitment(seed),
        }
        if reserved:
            opened["reserved"] = {str(s): a for s, a in sorted(reserved.items())}
        if rematch_of:
            opened["rematch_of"] = rematch_of
        if referee:
            opened["referee"] = referee
        taken = {"seat": seat, "account": creator, "contribution": contribution}
        self._append(table_id, lambda s: [("table.opened", SYSTEM, opened), ("seat.taken", SYSTEM, taken)])
        self._accounts.add_game(creator, table_id, self._now())
        kind = "rematch_asked" if rematch_of else "invited"
        for name in invited:
            self._index.invite(name, table_id, self._now())
            if self._notify is not None:  # the notice names the table, never a seat's share
                self._notify(name, {"kind": kind, "game": game, "game_id": table_id})
        if listed:
            self._index.listed(table_id, opened["expires_at"])
        return self._start_if_full(table_id)

    def take(self, table_id: str, account: str, contribution: str, seat: int | None = None) -> JSON:
        """Take a free seat (the first one unless ``seat`` names one) with the client's
        share of the deal; the last seat taken starts the game."""

        def build(state: JSON) -> list[Entry]:
            if state["status"] != tfold.OPEN:
                raise Conflict("table_closed", f"the table is {state['status']}", {"status": state["status"]})
            if account in tfold.accounts(state):
                raise Conflict("already_seated", "this account already has a seat at the table")
            if account == state.get("referee"):
                raise Forbidden("referee_takes_no_seat", "the table's referee takes no seat")
            free = tfold.open_to(state, account)
            if not free and tfold.free_seats(state):
                raise Conflict("seats_kept", "every free seat is kept for another player")
            if not free:
                raise Conflict("table_full", "every seat is taken")
            chosen = free[0] if seat is None else seat
            if chosen not in free:
                raise Conflict("seat_taken", "that seat is not free", {"free_seats": free})
            return [
                (
                    "seat.taken",
                    SYSTEM,
                    {"seat": chosen, "account": account, "contribution": contribution},
                )
            ]

        self.state(table_id)  # 404, and expiry written first
        self._append(table_id, build)
        self._accounts.add_game(account, table_id, self._now())
        return self._start_if_full(table_id)

    def rematch(self, game_id: str, account: str, contribution: str) -> tuple[bool, JSON]:
        """Offer a rematch of a finished game: a table, unlisted, with the same players
        (every seat moved one place on, computers too), each seat kept for its player
        and everyone else invited; it starts when all have taken their seats. One per
        game: asking again answers that table (False), and a player asking for the rematch
        another offered accepts it (takes the seat kept for them)."""
        meta = self._games.meta(game_id)
        if meta["status"] != "finished":
            raise Conflict("not_finished", "a rematch follows a finished game")
        accounts = {int(s): a for s, a in meta["accounts"].items()}
        bots = {s["seat"]: s["bot"] for s in meta["seats"] if "bot" in s}
        n = len(meta["seats"])
        if account not in accounts.values():
            raise Forbidden("not_a_player", "only a player of the game offers a rematch")
        if any(s not in accounts and s not in bots for s in range(n)):
            raise Conflict("unbound_seats", "every player's seat must be bound to an account for a rematch")
        existing = self._index.rematch(game_id)
        if existing is not None:
            return False, self._accepted(existing, account, contribution)
        rotated = {(s + 1) % n: a for s, a in accounts.items()}
        clock = self._clock_of(game_id)
        mine = next(s for s, a in rotated.items() if a == account)
        table = self.open(
            account,
            meta["game"],
            n,
            contribution,
            options={k: v for k, v in meta["options"].items() if k != "rules_version"},
            clock=clock,
            ranked=meta["ranked"],
            invited=sorted(set(rotated.values()) - {account}),
            bots={(s + 1) % n: b for s, b in bots.items()},
            seat=mine,
            listed=False,
            reserved=rotated,
            rematch_of=game_id,
        )
        holder = self._index.claim_rematch(game_id, table["id"])
        if holder != table["id"]:  # another offer won the race: ours ends, theirs stands
            self._append(table["id"], lambda s: [("table.expired", SYSTEM, {})] if s["status"] == tfold.OPEN else [])
            self._index.unlisted(table["id"])
            return False, self._accepted(holder, account, contribution)
        return True, table

    def referee_of(self, table_id: str, account: str) -> JSON:
        """The game's referee token, for the account the table named its referee, once
        the table has started."""
        state = self.state(table_id)
        if account != state.get("referee"):
            raise Forbidden("not_the_referee", "only the account the table named referees its game")
        token = self._index.referee(table_id) if state["status"] == tfold.STARTED else None
        if token is None:
            raise Conflict("not_started", "the game has not started", {"status": state["status"]})
        return {"game_id": table_id, "token": token, "link": f"/games/{table_id}#token={token}"}

    def _clock_of(self, game_id: str) -> JSON | None:
        """The clock the game was created with, as it was asked for (live, or days per
        move with vacation days): its rematch is played with the same."""
        [created] = self._store.read(game_stream(game_id), 0, 1)
        clock = created["payload"].get("clock")
        if not clock:
            return None
        asked = CLOCK_ASKED if "base" in clock else CLOCK_ASKED[2:]  # days per move: a move's days open it
        return {k: v for k, v in clock.items() if k in asked}

    def _accepted(self, table_id: str, account: str, contribution: str) -> JSON:
        """A player asking for a rematch already offered accepts it: takes the seat kept
        for them, if it is still free."""
        state = self.state(table_id)
        if state["status"] == tfold.OPEN and tfold.open_to(state, account) and account not in tfold.accounts(state):
            return self.take(table_id, account, contribution)
        return state

    def fill(self, table_id: str, account: str, strength: int) -> JSON:
        """The creator gives every free seat not kept for someone to a computer of
        ``strength``; a full table starts. A computer's share of the deal is the server's
        seed (it adds nothing a player could aim at)."""

        def build(state: JSON) -> list[Entry]:
            if account != state["creator"]:
                raise Forbidden("not_the_creator", "only the table's creator seats computers")
            if state["status"] != tfold.OPEN:
                raise Conflict("table_closed", f"the table is {state['status']}", {"status": state["status"]})
            rules = get_game(state["game"])
            if rules is None or not rules.plays_by_computer():
                raise Invalid("no_computer_player", "this game has no computer player")
            free = [s for s in tfold.free_seats(state) if str(s) not in state["reserved"]]
            return [("seat.computer", SYSTEM, {"seat": s, "strength": strength, "by": account}) for s in free]

        self.state(table_id)
        self._append(table_id, build)
        return self._start_if_full(table_id)

    def decline(self, table_id: str, account: str) -> JSON:
        def build(state: JSON) -> list[Entry]:
            if account not in state["invited"]:
                raise Forbidden("not_invited", "this account is not invited to the table")
            if state["status"] != tfold.OPEN:
                raise Conflict("table_closed", f"the table is {state['status']}", {"status": state["status"]})
            declined: list[Entry] = [("invitation.declined", SYSTEM, {"account": account})]
            if account in state["reserved"].values():  # a seat kept for them: the table cannot fill
                declined.append(("table.expired", SYSTEM, {"reason": "declined"}))
            return declined

        self.state(table_id)
        declined = self._append(table_id, build)
        if declined["status"] != tfold.OPEN:
            self._index.unlisted(table_id)
        return tfold.public(declined)

    def _start_if_full(self, table_id: str) -> JSON:
        """A full table becomes its game: same id, the seed committed at the opening, each
        seat's share of the deal; then ``table.started``. A start cut short (the game made,
        the entry not written) is finished by the next call. One caller at a time makes
        the game (two can fill a table at once only by racing for its last seat, and only
        one wins that): a second creation would fail and take the game's seed with it."""
        state = cast(JSON, tfold.fold(self._store.read(table_stream(table_id))))
        if state["status"] != tfold.OPEN or tfold.free_seats(state):
            return tfold.public(state)
        if not self._games.exists(table_id):
            if not self._index.claim_start(table_id, START_SECONDS):
                return tfold.public(state)  # another request is making the game; the table says so once made
            seed = self._store.seed(table_stream(table_id))
            if seed is None:
                raise Conflict("table_broken", "the table's seed is lost")
            seats = state["seats"]
            created = self._games.create(
                CreateGame(
                    game=state["game"],
                    seats=[s.get("account") or f"computer {s['seat'] + 1}" for s in seats],
                    options=state["options"],
                    clock=state["clock"],
                    ranked=state["ranked"],
                    bots={s["seat"]: s["bot"] for s in seats if "bot" in s},
                    accounts={s["seat"]: s["account"] for s in seats if "account" in s},
                    creator=f"account:{state['creator']}",  # charged for the computer seats, within the caps
                    table=table_id,
                    seed=seed,
                    deal=tfold.deal(state),
                )
            )
            if state.get("referee"):
                self._index.keep_referee(table_id, created["referee_token"])
        started = self._append(
            table_id,
            lambda s: [("table.started", SYSTEM, {"game_id": table_id})] if s["status"] == tfold.OPEN else [],
            action_id="start",
        )
        self._index.unlisted(table_id)
        return tfold.public(started)

    # -- the stream ----------------------------------------------------------------------
    def _append(self, table_id: str, build: Callable[[JSON], Sequence[Entry]], action_id: str | None = None) -> JSON:
        def fold(state: JSON | None, envelope: Envelope) -> JSON:
            try:
                return tfold.apply(state, envelope)
            except tfold.TableError as exc:
                raise Conflict("table_refused", str(exc)) from exc

        stream = Stream(
            id=table_stream(table_id),
            head=self._head(table_id),
            fresh=True,
            refold=lambda: self._head(table_id),
            fold=fold,
            learn=lambda state, missed: tfold.fold(missed, state),
        )
        written = self._writer.write(stream, lambda s: build(s if s is not None else {}), action_id)
        if written.state is None:
            return cast(JSON, tfold.fold(self._store.read(table_stream(table_id))))
        return written.state

    def _head(self, table_id: str) -> Head[JSON]:
        entries = self._store.read(table_stream(table_id))
        return Head(tfold.fold(entries), entries[-1]["seq"], entries[-1]["hash"]) if entries else Head(None)
