"""Tournaments' service layer: every write is an append to the tournament stream,
every read a fold of it (``projections.tournaments``), on top of the game platform.

The stream ``tournament:{<id>}:events`` uses the games' envelope, hash chain and
compare-and-append script. Secrets (the director's and players' token digests, the
seat and referee tokens of the tournament's games) live beside it in a hash that is
never exported. Results reach the stream as ``game.reported`` events appended by
``sync`` with a deterministic action id, so several workers noticing the same
finished game append it once.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, cast

from marshmallow import ValidationError

from events.envelope import now_rfc3339
from events.shapes import JSON, Actor, Envelope
from events.signing import BUNDLE_FORMAT, bundle_statement
from events.store import EventStore, tournament_stream
from events.tournament_schemas import SCHEMAS, TournamentOptionsSchema
from events.writer import Entry, Head, Stream, StreamWriter
from projections.fold import PlatformState
from projections.games import get as get_game
from projections.games import registry
from projections.tournaments import feed_delay
from projections.tournaments import fold as tfold
from projections.tournaments import standings as tstandings
from projections.tournaments.pairing import fill_byes, plan_round
from service.ports import GameLog, Signer, Tokens, TournamentSecrets
from service.services import names
from service.services.accounts import Accounts
from service.services.callers import SPECTATOR, token_digest
from service.services.computer_seats import ComputerSeats
from service.services.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Refusal,
    Unauthenticated,
    Unprocessable,
    not_found,
)
from service.services.games import CreateGame, Games, load_options, open_disputes
from service.services.ratings import Ratings

SYSTEM: Actor = {"role": "system"}
DIRECTOR: Actor = {"role": "referee", "name": "tournament director"}


def seat_link(game_id: str, token: str | None = None) -> str:
    return f"/games/{game_id}" + (f"#token={token}" if token else "")


class Tournaments:
    def __init__(
        self,
        store: EventStore,
        writer: StreamWriter,
        secrets: TournamentSecrets,
        games: Games,
        log: GameLog,
        tokens: Tokens,
        computer_seats: ComputerSeats,
        accounts: Accounts,
        ratings: Ratings,
        signer: Signer,
    ) -> None:
        """``store``: the event store the tournament streams live in (the games' own)."""
        self._store = store
        self._writer = writer
        self._secrets = secrets
        self._games = games
        self._log = log
        self._tokens = tokens
        self._computer_seats = computer_seats
        self._accounts = accounts
        self._ratings = ratings
        self._signer = signer

    # -- the stream ----------------------------------------------------------------------
    def events(self, tid: str) -> list[Envelope]:
        entries = self._store.read(tournament_stream(tid))
        if not entries:
            raise not_found("tournament")
        return entries

    def state(self, tid: str) -> JSON:
        return cast(JSON, tfold.fold(self.events(tid)))  # events() has tournament.created at least

    def _append(
        self, tid: str, build: Callable[[JSON], Sequence[Entry]], action_id: str | None = None
    ) -> tuple[str, JSON]:
        """Append what ``build(state)`` returns ([(type, actor, payload)]) through the
        stream writer; every payload is validated by its schema and every event by the
        fold before anything is written. Returns ("ok" | "duplicate" | "noop", state after)."""

        def validated(state: JSON | None) -> list[Entry]:
            # None only before tournament.created, whose build reads no state
            return [(type_, actor, _load_payload(type_, payload)) for type_, actor, payload in build(cast(JSON, state))]

        stream = Stream(
            id=tournament_stream(tid),
            head=self._head(tid),
            fresh=True,
            refold=lambda: self._head(tid),
            fold=tfold.apply,
            learn=lambda state, missed: tfold.fold(missed, state),
        )
        written = self._writer.write(stream, validated, action_id)
        if written.status == "duplicate":
            return "duplicate", self.state(tid)
        return ("ok" if written.status == "created" else "noop"), cast(JSON, written.state)  # the stream exists

    def _head(self, tid: str) -> Head[JSON]:
        """A tournament is folded afresh from its log on every write (no cache)."""
        entries = self._store.read(tournament_stream(tid))
        return Head(tfold.fold(entries), entries[-1]["seq"], entries[-1]["hash"]) if entries else Head(None)

    # -- auth ----------------------------------------------------------------------------
    def role(self, tid: str, token: str | None) -> tuple[str, str | None]:
        """("director" | "player" | "public", pid); 401 for a token this tournament never issued."""
        if not token:
            return "public", None
        found = self._secrets.get(tid, "token:" + token_digest(token)) or self._director_account(tid, token)
        if found is None:
            raise Unauthenticated("bad_token", "this token is not valid for this tournament")
        if found == "director":
            return "director", None
        if found == "revoked":
            raise Unauthenticated("revoked_token", "this director link was revoked by a director of this tournament")
        return "player", found.split(":", 1)[1]

    def require_director(self, tid: str, token: str | None) -> None:
        self.events(tid)  # 404 first
        if not token:
            raise Unauthenticated("no_token", "the director's token is needed")
        role, _ = self.role(tid, token)
        if role != "director":
            raise Forbidden("not_director", "only the tournament director may do this")

    # -- co-directors: more director links, each named, revoked by any director ----------
    def _directors(self, tid: str) -> dict[str, str]:
        return cast(dict[str, str], json.loads(self._secrets.get(tid, "directors") or "{}"))

    def _director_accounts(self, tid: str) -> list[str]:
        return cast(list[str], json.loads(self._secrets.get(tid, "director_accounts") or "[]"))

    def _director_account(self, tid: str, token: str) -> str | None:
        """``director`` for the session of an account the tournament made a director."""
        try:
            account = self._accounts.session(token)
        except Refusal:
            return None
        return "director" if account in self._director_accounts(tid) else None

    def directors(self, tid: str) -> JSON:
        return {"directors": sorted(self._directors(tid)), "accounts": self._director_accounts(tid)}

    def add_director_account(self, tid: str, account: str) -> JSON:
        """An account directs the tournament from its own sessions: a lost session is a
        new log-in, a lost password the account's own recovery."""
        name = self._accounts.require(account)["name"]
        held = self._director_accounts(tid)
        if name in held:
            raise Conflict("director_exists", f"a director link is already named {name!r}")
        self._secrets.put(tid, {"director_accounts": json.dumps([*held, name])})
        return self.directors(tid)

    def revoke_director_account(self, tid: str, account: str) -> JSON:
        held = self._director_accounts(tid)
        if account not in held:
            raise NotFound("not_found", f"no director link named {account!r}")
        self._secrets.put(tid, {"director_accounts": json.dumps([a for a in held if a != account])})
        return self.directors(tid)

    def add_director(self, tid: str, name: str) -> JSON:
        """A new director link, for a co-director or to recover a lost one. The link the
        tournament was created with is not named, so it is never revoked."""
        name = name.strip()
        named = self._directors(tid)
        if name in named:
            raise Conflict("director_exists", f"a director link is already named {name!r}")
        token = secrets.token_urlsafe(24)
        digest = token_digest(token)
        self._secrets.put(tid, {"token:" + digest: "director", "directors": json.dumps({**named, name: digest})})
        return {"name": name, "director_token": token}

    def revoke_director(self, tid: str, name: str) -> JSON:
        named = self._directors(tid)
        if name not in named:
            raise NotFound("not_found", f"no director link named {name!r}")
        digest = named.pop(name)
        self._secrets.put(tid, {"token:" + digest: "revoked", "directors": json.dumps(named)})
        return self.directors(tid)

    # -- commands ------------------------------------------------------------------------
    def create(self, body: JSON) -> JSON:
        game = get_game(body["game"])
        if game is None:
            raise Invalid("unknown_game", f"no game called {body['game']!r}", {"known": sorted(registry())})
        try:
            options = TournamentOptionsSchema().load(body.get("options") or {})
        except ValidationError as exc:
            raise Invalid("bad_options", "the tournament options fail their schema", _field_messages(exc)) from exc
        size = options["table_size"]
        if not max(2, game.min_seats) <= size <= game.max_seats:
            raise Invalid(
                "bad_table_size",
                f"{game.title} is played by {game.min_seats} to {game.max_seats}",
                {"min_seats": game.min_seats, "max_seats": game.max_seats},
            )
        if game.options_schema is not None:
            try:
                options["game_options"] = load_options(game, options["game_options"])
            except ValidationError as exc:
                raise Invalid(
                    "bad_options", "the game options fail the game's schema", {"game_options": exc.messages}
                ) from exc
        swiss = size == 2
        tid = uuid.uuid4().hex[:12]
        payload = {
            "id": tid,
            "game": game.name,
            "name": body["name"],
            "format": "swiss" if swiss else "tables",
            "options": options,
            "min_seats": 2 if swiss else max(2, game.min_seats),
            "max_seats": 2 if swiss else game.max_seats,
        }
        director = secrets.token_urlsafe(24)
        self._secrets.put(tid, {"token:" + token_digest(director): "director"})
        try:
            self._append(tid, lambda s: [("tournament.created", DIRECTOR, payload)], action_id="created")
        except BaseException:
            self._secrets.drop(tid)  # a tournament never created leaves no token behind
            raise
        self._secrets.listed(tid, time.time())
        return {"id": tid, "director_token": director, "tournament": self.summary(tid)}

    def register(self, tid: str, name: str, account: str | None = None) -> JSON:
        """A player; with ``account``, that account (bound to every seat the player gets)
        and its rating in the tournament's game now, which seeds round 1."""
        self.events(tid)
        self._not_pairing(tid)
        holder: JSON = {}

        def build(state: JSON) -> list[Entry]:
            holder["pid"] = pid = f"p{len(state['order']) + 1}"
            holder["name"] = clean = names.check_new(
                name, [p["name"] for p in state["players"].values()], "player name", code="already_registered"
            )
            payload: JSON = {"pid": pid, "name": clean}
            owner = self._accounts.holder_of_look(clean) if account is None else None
            if owner is not None:  # an anonymous player may not pass for an account
                raise Conflict(
                    "account_name",
                    f"this name looks the same as the account {owner!r}: log in to register as it",
                    {"name": clean, "taken": owner},
                )
            if account is not None:
                rated = self._ratings.of_account(account).get(state["game"])
                # a rating seeds only once established (rfold.SEED_OPPONENTS): a farmed one does not
                payload.update(account=account, rating=rated["rating"] if rated and rated["seeds"] else None)
                holder["rating"] = payload["rating"]
            return [("player.registered", SYSTEM, payload)]

        self._append(tid, build)
        token = secrets.token_urlsafe(24)
        self._secrets.put(tid, {"token:" + token_digest(token): "player:" + holder["pid"]})
        answer = {"pid": holder["pid"], "name": holder["name"], "player_token": token}
        if account is not None:
            answer.update(account=account, rating=holder["rating"])
        return answer

    def register_roster(self, tid: str, names: list[str]) -> dict[str, list[dict[str, Any]]]:
        """The director registers players on their behalf, one name a line of a pasted
        roster: each is registered as ``register`` would (names already taken, look-alike
        or an account's are refused one by one, and the others still register)."""
        registered: list[dict[str, Any]] = []
        refused: list[dict[str, Any]] = []
        for name in names:
            try:
                registered.append(self.register(tid, name))
            except Refusal as exc:
                if exc.code in ("registration_closed", "tournament_finished", "pairing_in_progress"):
                    raise
                refused.append({"name": name, "code": exc.code, "message": exc.message})
        return {"registered": registered, "refused": refused}

    def set_registration(self, tid: str, open_: bool, reason: str = "") -> JSON:
        """The director opens or closes registration (an event in the stream)."""
        kind = "registration.opened" if open_ else "registration.closed"
        _, state = self._append(tid, lambda s: [(kind, DIRECTOR, {"reason": reason})])
        return {"registration": state["registration"], "seq": state["seq"]}

    def set_feed_delay(self, tid: str, delay: JSON, reason: str = "") -> JSON:
        """The director's delay for the omniscient feed (an event in the stream, its audit)."""
        _, state = self._append(tid, lambda s: [("feed.delay_set", DIRECTOR, {"delay": delay, "reason": reason})])
        return {"feed_delay": state["feed_delay"], "seq": state["seq"]}

    def withdraw(self, tid: str, pid: str, token: str | None, reason: str, bot: int | None = None) -> JSON:
        self.events(tid)
        role, own = self.role(tid, token) if token else ("public", None)
        if not token:
            raise Unauthenticated("no_token", "the director's or the player's own token is needed")
        if role != "director" and own != pid:
            raise Forbidden("not_director", "only the director or the player may withdraw a player")
        self._not_pairing(tid)
        holder: JSON = {}

        def build(state: JSON) -> list[Entry]:
            playing = self._unfinished_games_of(state, pid)
            holder["games"] = playing
            actor = DIRECTOR if role == "director" else {"role": "system", "name": f"player {pid}"}
            return [("player.withdrawn", actor, {"pid": pid, "reason": reason, "forfeited": [g for g, _ in playing]})]

        self._append(tid, build)
        why = f"withdrawn from the tournament: {reason}".strip(": ")
        for game_id, seat in holder["games"]:
            if bot is None:
                self._forfeit(game_id, seat, why)
            else:
                self._seat_bot(game_id, seat, bot, why)
        return {"pid": pid, "withdrawn": True, "forfeited": [g for g, _ in holder["games"]]}

    def _seat_bot(self, game_id: str, seat: int, strength: int, reason: str) -> None:
        """A computer plays the withdrawn player's seat on; the seat still ranks last."""

        def build(p: PlatformState) -> list[Entry]:
            if p["status"] == "finished" or seat in p["forfeits"] or str(seat) in p["bots"]:
                return []
            return [
                ("referee.bot", DIRECTOR, {"seat": seat, "strength": strength, "reason": reason, "withdrawn": True})
            ]

        try:
            self._log.append(game_id, build)
        except Refusal:
            return  # the game ended meanwhile: its result stands
        p = self._log.state(game_id)
        if str(seat) in p["bots"]:
            self._tokens.issue_bot(game_id, seat)
            self._computer_seats.schedule(game_id, p)

    def _unfinished_games_of(self, state: JSON, pid: str) -> list[tuple[str, int]]:
        if pid not in state["players"]:
            return []
        out = []
        for table in tfold.unreported_tables(state):
            if pid in table["seats"]:
                out.append((table["game_id"], table["seats"].index(pid)))
        return out

    def _forfeit(self, game_id: str, seat: int, reason: str) -> None:
        def build(p: PlatformState) -> list[Entry]:
            if p["status"] == "finished" or seat in p["forfeits"]:
                return []
            return [("referee.forfeit", DIRECTOR, {"seat": seat, "reason": reason})]

        try:
            self._log.append(game_id, build)
        except Refusal:
            pass  # the game ended meanwhile: its result stands

    def _not_pairing(self, tid: str) -> None:
        if self._secrets.pairing(tid):
            raise Conflict("pairing_in_progress", "the director is pairing a round; try again in a moment")

    def pair(self, tid: str, bye_computer: int | None = None) -> JSON:
        """Create the next round's games and append ``round.paired``; with
        ``bye_computer`` the players who would get a bye play computers of that
        strength instead (``pairing.fill_byes``).

        Games are created before the event that names them, so a lock keeps
        registrations, withdrawals and a second pairing out meanwhile; if the stream
        still moved, nothing is appended and the created games stay orphaned."""
        self.events(tid)
        if not self._secrets.lock_pairing(tid):
            raise Conflict("pairing_in_progress", "another request is pairing this round")
        try:
            return self._pair(tid, bye_computer)
        finally:
            self._secrets.unlock_pairing(tid)

    def _pair(self, tid: str, bye_computer: int | None = None) -> JSON:
        state = self.sync(tid)
        tfold.check_next_round(state)
        plan = plan_round(state)
        rules = registry()[state["game"]]  # a tournament is created for a known game
        if bye_computer is not None and plan["byes"]:
            if not rules.plays_by_computer():
                raise Invalid("no_computer_player", f"{rules.title} has no computer player")
            plan = fill_byes(state, plan, bye_computer)
        computers = {t["table"]: t["computers"] for t in plan["tables"] if t.get("computers")}
        dry = {
            "round": plan["round"],
            "byes": plan["byes"],
            "tables": [
                {
                    "table": t["table"],
                    "game_id": f"?{t['table']}",
                    "seats": t["seats"],
                    **({"computers": computers[t["table"]]} if t["table"] in computers else {}),
                }
                for t in plan["tables"]
            ],
        }
        tfold.apply(
            state, {"type": "round.paired", "payload": dry, "seq": state["seq"] + 1}
        )  # refuse before creating games
        opts = state["options"]
        tables, secrets_map = [], {}
        for t in plan["tables"]:
            names = tfold.seat_names(state, t)
            bots = {int(s): n for s, n in (t.get("computers") or {}).items()}
            accounts = {
                seat: state["players"][pid]["account"]
                for seat, pid in enumerate(t["seats"])
                if pid is not None and state["players"][pid].get("account")
            }
            created = self._games.create(
                CreateGame(
                    rules.name,
                    names,
                    opts["game_options"],
                    clock=opts["clock"],
                    ranked=True,
                    tournament=tid,
                    bots=bots,
                    accounts=accounts,
                )
            )
            tables.append(
                {
                    "table": t["table"],
                    "game_id": created["id"],
                    "seats": t["seats"],
                    "seed_commitment": created["seed_commitment"],
                    **({"computers": t["computers"]} if t.get("computers") else {}),
                }
            )
            secrets_map[f"referee:{created['id']}"] = created["referee_token"]
            for seat, pid in zip(created["seats"], t["seats"]):
                if pid is not None:
                    secrets_map[f"seat:{created['id']}:{pid}"] = seat["token"]
        self._secrets.put(tid, secrets_map)
        payload = {"round": plan["round"], "tables": tables, "byes": plan["byes"]}

        def build(s: JSON) -> list[Entry]:
            if s["seq"] != state["seq"]:
                raise Conflict("tournament_changed", "the tournament changed while pairing; pair again")
            closing = plan["round"] == 1 and s.get("registration", "open") == "open" and not opts.get("late_entries")
            return [("round.paired", DIRECTOR, payload)] + (
                [("registration.closed", SYSTEM, {"reason": "round 1 is paired"})] if closing else []
            )

        status, _ = self._append(tid, build, action_id=f"pair:{plan['round']}")
        if status == "duplicate":
            raise Conflict("round_in_progress", f"round {plan['round']} was paired by another request")
        return self.round_view(tid, plan["round"], "director", None)

    def sync(self, tid: str) -> JSON:
        """Report every finished game of the round in play, then close the round (and
        the tournament after its last round). Idempotent; returns the state after."""
        state = self.state(tid)
        for table in tfold.unreported_tables(state):
            meta = self._games.meta(table["game_id"])
            if meta["result"] is not None:
                state = self._report(tid, table, meta)
        state = self._pick_up_corrections(tid, state)
        rnd = tfold.current_round(state)
        if rnd and rnd["status"] == "paired" and not tfold.unreported_tables(state):

            def close(s: JSON) -> list[Entry]:  # another worker may have closed it meanwhile
                now = cast(JSON, tfold.current_round(s))  # rnd's: rounds are never taken away
                if now["round"] != rnd["round"] or now["status"] == "finished":
                    return []
                return [("round.finished", SYSTEM, {"round": rnd["round"]})]

            _, state = self._append(tid, close, action_id=f"round-finished:{rnd['round']}")
        if (
            state["status"] == "running"
            and len(state["rounds"]) >= state["options"]["rounds"]
            and state["rounds"][-1]["status"] == "finished"
        ):
            state = self.finish(tid, "all rounds played")
        return state

    def _report(self, tid: str, table: JSON, meta: JSON) -> JSON:
        result = reported(meta["result"])

        def build(s: JSON) -> list[Entry]:  # another worker may have reported it meanwhile
            r, i = s["games"][table["game_id"]]
            if s["rounds"][r]["tables"][i]["result"] is not None:
                return []
            return [
                (
                    "game.reported",
                    SYSTEM,
                    {
                        "round": r + 1,
                        "table": table["table"],
                        "game_id": table["game_id"],
                        "result": result,
                        "head_hash": meta["head_hash"],
                        "game_seq": meta["seq"],
                    },
                )
            ]

        _, state = self._append(tid, build, action_id=f"report:{table['game_id']}")
        return state

    def _pick_up_corrections(self, tid: str, state: JSON) -> JSON:
        """Append ``game.corrected`` for each reported game whose log has moved on: after
        ``game.finished`` only a correction can, so its last result is the record."""
        for rnd in state["rounds"]:
            for table in rnd["tables"]:
                if table["result"] is None:
                    continue
                meta = self._games.meta(table["game_id"])
                if meta["head_hash"] == table["head_hash"]:
                    continue
                result = reported(meta["result"])

                def build(
                    s: JSON,
                    gid: str = table["game_id"],
                    table_no: int = table["table"],
                    number: int = rnd["round"],
                    result: JSON = result,
                    meta: JSON = meta,
                ) -> list[Entry]:
                    r, i = s["games"][gid]
                    if s["rounds"][r]["tables"][i]["head_hash"] == meta["head_hash"]:
                        return []
                    return [
                        (
                            "game.corrected",
                            SYSTEM,
                            {
                                "round": number,
                                "table": table_no,
                                "game_id": gid,
                                "result": result,
                                "head_hash": meta["head_hash"],
                                "game_seq": meta["seq"],
                            },
                        )
                    ]

                _, state = self._append(tid, build, action_id=f"corrected:{table['game_id']}:{meta['seq']}")
        return state

    def report(self, tid: str, game_id: str) -> JSON:
        state = self.state(tid)
        if game_id not in state["games"]:
            raise Unprocessable("game_not_in_tournament", f"game {game_id} is not part of this tournament")
        meta = self._games.meta(game_id)
        if meta["result"] is None:
            raise Conflict("game_not_finished", f"game {game_id} has no result yet", {"seq": meta["seq"]})
        state = self.sync(tid)
        r, i = state["games"][game_id]
        return self._table_public(state, state["rounds"][r]["tables"][i])

    def finish(self, tid: str, reason: str, actor: Actor = SYSTEM) -> JSON:
        def build(state: JSON) -> list[Entry]:
            if state["status"] == "finished":
                return []
            return [("tournament.finished", actor, {"reason": reason, "standings": tstandings.compute(state)})]

        _, state = self._append(tid, build, action_id="finished")
        return state

    # -- reading -------------------------------------------------------------------------
    def bundle(self, tid: str) -> JSON:
        """The audit bundle as it stands (after catching up finished games), signed:
        verified offline by ``service/audit/bundles.py``."""
        state = self.sync(tid)
        stream = self.events(tid)
        games, listed = {}, []
        for rnd in state["rounds"]:
            for table in rnd["tables"]:
                gid = table["game_id"]
                log = self._games.export(gid, SPECTATOR)
                games[gid] = log
                listed.append(
                    {
                        "game_id": gid,
                        "round": rnd["round"],
                        "table": table["table"],
                        "seq": log[-1]["seq"] if log else 0,
                        "head_hash": log[-1]["hash"] if log else None,
                        "finished": any(e["type"] == "game.finished" for e in log),
                    }
                )
        manifest = {
            "tournament": tid,
            "game": state["game"],
            "exported_at": now_rfc3339(),
            "tournament_head": {"seq": stream[-1]["seq"], "hash": stream[-1]["hash"]},
            "games": listed,
        }
        bundle = {
            "format": BUNDLE_FORMAT,
            "manifest": manifest,
            "tournament": stream,
            "games": games,
            "standings": tstandings.compute(state),
        }
        bundle["signature"] = self._signer.sign(bundle_statement(bundle))
        return bundle

    def summary(self, tid: str, state: JSON | None = None) -> JSON:
        state = state or self.state(tid)
        entries = self._store.read(tournament_stream(tid), after=state["seq"] - 1)
        return {
            "id": state["id"],
            "game": state["game"],
            "name": state["name"],
            "format": state["format"],
            "options": state["options"],
            "status": state["status"],
            "registration": state.get("registration", "open"),
            "feed_delay": state.get("feed_delay", feed_delay.DEFAULT),
            "players": [
                {**{k: p[k] for k in ("pid", "name", "withdrawn")}}
                for p in (state["players"][pid] for pid in state["order"])
            ],
            "rounds": [self._round_public(state, rnd) for rnd in state["rounds"]],
            "rounds_planned": state["options"]["rounds"],
            "seq": state["seq"],
            "head_hash": entries[-1]["hash"] if entries else None,
            "created_at": state["created_at"],
        }

    def list(self) -> list[JSON]:
        out = []
        for tid in self._secrets.newest(200):
            try:
                state = self.state(tid)
            except Refusal:
                continue
            out.append(
                {
                    "id": tid,
                    "game": state["game"],
                    "name": state["name"],
                    "format": state["format"],
                    "status": state["status"],
                    "players": len(tfold.active_players(state)),
                    "round": len(state["rounds"]),
                    "rounds_planned": state["options"]["rounds"],
                }
            )
        return out

    def standings(self, tid: str) -> JSON:
        state = self.sync(tid)
        finished = [r["round"] for r in state["rounds"] if r["status"] == "finished"]
        return {
            "id": tid,
            "status": state["status"],
            "format": state["format"],
            "after_round": finished[-1] if finished else 0,
            "standings": tstandings.compute(state),
        }

    def standings_csv(self, tid: str) -> str:
        """The standings as a spreadsheet opens them; a name a spreadsheet would take
        for a formula is quoted as text."""
        table = self.standings(tid)
        out = io.StringIO()
        writer = csv.writer(out)
        swiss = table["format"] == "swiss"
        writer.writerow(
            ["rank", "name", "points", *(["buchholz"] if swiss else []), "game_score", "head_to_head"]
            + ["games", "wins", "byes", "withdrawn"]
        )
        for row in table["standings"]:
            name = row["name"]
            if name[:1] in ("=", "+", "-", "@", "\t", "\r"):
                name = "'" + name
            t = row["tiebreaks"]
            writer.writerow(
                [row["rank"], name, row["points"], *([t["buchholz"]] if swiss else []), t["game_score"]]
                + [t["head_to_head"], row["games"], row["wins"], row["byes"], "yes" if row["withdrawn"] else ""]
            )
        return out.getvalue()

    def disputes(self, tid: str) -> JSON:
        """The disputes open at the current round's tables in play, for the director's page."""
        state = self.state(tid)
        rnd = tfold.current_round(state)
        found = []
        for table in tfold.unreported_tables(state):
            for d in open_disputes(self._log.state(table["game_id"])):
                found.append({"round": rnd and rnd["round"], "table": table["table"], "game_id": table["game_id"], **d})
        return {"disputes": found}

    def _table_public(self, state: JSON, table: JSON) -> JSON:
        return {
            "table": table["table"],
            "game_id": table["game_id"],
            "seats": [
                {
                    "seat": s,
                    "pid": pid,
                    "name": name,
                    **({"computer": table["computers"][str(s)]} if pid is None else {}),
                }
                for s, (pid, name) in enumerate(zip(table["seats"], tfold.seat_names(state, table)))
            ],
            "result": table["result"],
            "head_hash": table["head_hash"],
            "links": {"game": seat_link(table["game_id"]), "replay": f"/games/{table['game_id']}/replay"},
        }

    def _round_public(self, state: JSON, rnd: JSON) -> JSON:
        return {
            "round": rnd["round"],
            "status": rnd["status"],
            "byes": [{"pid": p, "name": state["players"][p]["name"]} for p in rnd["byes"]],
            "tables": [self._table_public(state, t) for t in rnd["tables"]],
        }

    def round_view(self, tid: str, number: int, role: str, pid: str | None) -> JSON:
        """A round's pairings; the director sees every seat link and referee token,
        a player their own seat link."""
        state = self.state(tid)
        if not 1 <= number <= len(state["rounds"]):
            raise not_found(f"round {number}")
        out = self._round_public(state, state["rounds"][number - 1])
        wanted = [f"seat:{t['game_id']}:{s['pid']}" for t in out["tables"] for s in t["seats"] if s["pid"] is not None]
        wanted += [f"referee:{t['game_id']}" for t in out["tables"]]
        stored = self._secrets.get_many(tid, wanted)
        for t in out["tables"]:
            for s in t["seats"]:
                if s["pid"] is not None and (role == "director" or s["pid"] == pid):
                    token = stored.get(f"seat:{t['game_id']}:{s['pid']}")
                    s["token"], s["link"] = token, seat_link(t["game_id"], token)
            if role == "director":
                t["referee_token"] = stored.get(f"referee:{t['game_id']}")
                t["links"]["referee"] = f"/games/{t['game_id']}/referee#token={t['referee_token']}"
        return out

    def my_games(self, tid: str, pid: str) -> JSON:
        state = self.sync(tid)
        if pid not in state["players"]:
            raise NotFound("unknown_player", f"no player {pid} in this tournament")
        games = []
        for rnd in state["rounds"]:
            for table in rnd["tables"]:
                if pid in table["seats"]:
                    token = self._secrets.get(tid, f"seat:{table['game_id']}:{pid}")
                    games.append(
                        {
                            "round": rnd["round"],
                            "table": table["table"],
                            "game_id": table["game_id"],
                            "seat": table["seats"].index(pid),
                            "token": token,
                            "link": seat_link(table["game_id"], token),
                            "result": table["result"],
                        }
                    )
        return {"pid": pid, "games": games}


def _load_payload(type_: str, payload: JSON) -> JSON:
    try:
        loaded: JSON = SCHEMAS[type_]().load(payload)
        return loaded
    except ValidationError as exc:
        raise Invalid("bad_request", f"invalid {type_} payload", _field_messages(exc)) from exc


def _field_messages(exc: ValidationError) -> JSON:
    """A schema's refusal, per field (a whole schema's load refuses with a dict)."""
    return cast(JSON, exc.messages)


def reported(result: JSON) -> JSON:
    """What a tournament reports of a game's result (``cancelled`` only when it is so)."""
    kept = {k: result.get(k) for k in ("scores", "ranking", "forfeited", "tiebreak")}
    if result.get("cancelled"):
        kept["cancelled"] = True
    return kept
