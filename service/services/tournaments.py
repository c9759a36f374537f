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

import secrets
import time
import uuid

from marshmallow import ValidationError

from events import keys
from events.store import EventStore
from events.tournament_schemas import SCHEMAS, TournamentOptionsSchema
from events.writer import Head, StreamWriter
from projections.games import get as get_game
from projections.games import registry
from projections.tournaments import fold as tfold
from projections.tournaments import standings as tstandings
from projections.tournaments.pairing import fill_byes, plan_round
from service.services import names
from service.services.callers import issue_bot_token, token_digest
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

SYSTEM = {"role": "system"}
DIRECTOR = {"role": "referee", "name": "tournament director"}


def seat_link(game_id: str, token: str | None = None) -> str:
    return f"/games/{game_id}" + (f"#token={token}" if token else "")


class Tournaments:
    def __init__(self, platform, store: EventStore):
        """``store``: the event store the tournament streams live in (create_app hands
        in the games' own)."""
        self.platform = platform
        self.redis = platform.redis
        self.store = store
        self.writer = StreamWriter(store)

    # -- the stream ----------------------------------------------------------------------
    def events(self, tid: str) -> list[dict]:
        entries = self.store.read(keys.tournament_events(tid))
        if not entries:
            raise not_found("tournament")
        return entries

    def state(self, tid: str) -> dict:
        return tfold.fold(self.events(tid))

    def _append(self, tid: str, build, action_id: str | None = None) -> tuple[str, dict]:
        """Append what ``build(state)`` returns ([(type, actor, payload)]) through the
        stream writer; every payload is validated by its schema and every event by the
        fold before anything is written. Returns ("ok" | "duplicate" | "noop", state after)."""

        def validated(state):
            return [(type_, actor, _load_payload(type_, payload)) for type_, actor, payload in build(state)]

        written = self.writer.write(TournamentStream(self.store, tid), validated, action_id)
        if written.status == "duplicate":
            return "duplicate", self.state(tid)
        return ("ok" if written.status == "created" else "noop"), written.state

    # -- auth ----------------------------------------------------------------------------
    def role(self, tid: str, token: str | None) -> tuple[str, str | None]:
        """("director" | "player" | "public", pid); 401 for a token this tournament never issued."""
        if not token:
            return "public", None
        found = self.redis.hget(keys.tournament_secrets(tid), "token:" + token_digest(token))
        if found is None:
            raise Unauthenticated("bad_token", "this token is not valid for this tournament")
        if found == "director":
            return "director", None
        return "player", found.split(":", 1)[1]

    def require_director(self, tid: str, token: str | None) -> None:
        self.events(tid)  # 404 first
        if not token:
            raise Unauthenticated("no_token", "the director's token is needed")
        role, _ = self.role(tid, token)
        if role != "director":
            raise Forbidden("not_director", "only the tournament director may do this")

    # -- commands ------------------------------------------------------------------------
    def create(self, body: dict) -> dict:
        game = get_game(body["game"])
        if game is None:
            raise Invalid("unknown_game", f"no game called {body['game']!r}", {"known": sorted(registry())})
        try:
            options = TournamentOptionsSchema().load(body.get("options") or {})
        except ValidationError as exc:
            raise Invalid("bad_options", "the tournament options fail their schema", exc.messages) from exc
        size = options["table_size"]
        if not max(2, game.min_seats) <= size <= game.max_seats:
            raise Invalid(
                "bad_table_size",
                f"{game.title} is played by {game.min_seats} to {game.max_seats}",
                {"min_seats": game.min_seats, "max_seats": game.max_seats},
            )
        if game.options_schema is not None:
            try:
                options["game_options"] = game.options_schema().load(options["game_options"])
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
        self.redis.hset(keys.tournament_secrets(tid), "token:" + token_digest(director), "director")
        try:
            self._append(tid, lambda s: [("tournament.created", DIRECTOR, payload)], action_id="created")
        except BaseException:
            self.redis.delete(keys.tournament_secrets(tid))  # a tournament never created leaves no token behind
            raise
        self.redis.zadd(keys.TOURNAMENTS_INDEX, {tid: time.time()})
        return {"id": tid, "director_token": director, "tournament": self.summary(tid)}

    def register(self, tid: str, name: str, account: str | None = None) -> dict:
        """A player; with ``account``, that account (bound to every seat the player gets)
        and its rating in the tournament's game now, which seeds round 1."""
        self.events(tid)
        self._not_pairing(tid)
        holder = {}

        def build(state):
            holder["pid"] = pid = f"p{len(state['order']) + 1}"
            holder["name"] = clean = names.check_new(
                name, [p["name"] for p in state["players"].values()], "player name", code="already_registered"
            )
            payload = {"pid": pid, "name": clean}
            owner = self.platform.accounts.holder_of_look(clean) if account is None else None
            if owner is not None:  # an anonymous player may not pass for an account
                raise Conflict(
                    "account_name",
                    f"this name looks the same as the account {owner!r}: log in to register as it",
                    {"name": clean, "taken": owner},
                )
            if account is not None:
                rated = self.platform.ratings.of_account(account).get(state["game"])
                payload.update(account=account, rating=rated["rating"] if rated else None)
                holder["rating"] = payload["rating"]
            return [("player.registered", SYSTEM, payload)]

        self._append(tid, build)
        token = secrets.token_urlsafe(24)
        self.redis.hset(keys.tournament_secrets(tid), "token:" + token_digest(token), "player:" + holder["pid"])
        answer = {"pid": holder["pid"], "name": holder["name"], "player_token": token}
        if account is not None:
            answer.update(account=account, rating=holder["rating"])
        return answer

    def set_registration(self, tid: str, open_: bool, reason: str = "") -> dict:
        """The director opens or closes registration (an event in the stream)."""
        kind = "registration.opened" if open_ else "registration.closed"
        _, state = self._append(tid, lambda s: [(kind, DIRECTOR, {"reason": reason})])
        return {"registration": state["registration"], "seq": state["seq"]}

    def withdraw(self, tid: str, pid: str, token: str | None, reason: str, bot: int | None = None) -> dict:
        self.events(tid)
        role, own = self.role(tid, token) if token else ("public", None)
        if not token:
            raise Unauthenticated("no_token", "the director's or the player's own token is needed")
        if role != "director" and own != pid:
            raise Forbidden("not_director", "only the director or the player may withdraw a player")
        self._not_pairing(tid)
        holder = {}

        def build(state):
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

        def build(p):
            if p["status"] == "finished" or seat in p["forfeits"] or str(seat) in p["bots"]:
                return []
            return [
                ("referee.bot", DIRECTOR, {"seat": seat, "strength": strength, "reason": reason, "withdrawn": True})
            ]

        try:
            self.platform.append_entries(game_id, build)
        except Refusal:
            return  # the game ended meanwhile: its result stands
        p = self.platform.state(game_id)
        if str(seat) in p["bots"]:
            issue_bot_token(self.redis, game_id, seat)
            self.platform._schedule_bots(game_id, p)

    def _unfinished_games_of(self, state: dict, pid: str) -> list[tuple[str, int]]:
        if pid not in state["players"]:
            return []
        out = []
        for table in tfold.unreported_tables(state):
            if pid in table["seats"]:
                out.append((table["game_id"], table["seats"].index(pid)))
        return out

    def _forfeit(self, game_id: str, seat: int, reason: str) -> None:
        def build(p):
            if p["status"] == "finished" or seat in p["forfeits"]:
                return []
            return [("referee.forfeit", DIRECTOR, {"seat": seat, "reason": reason})]

        try:
            self.platform.append_entries(game_id, build)
        except Refusal:
            pass  # the game ended meanwhile: its result stands

    def _not_pairing(self, tid: str) -> None:
        if self.redis.exists(keys.tournament_pairing_lock(tid)):
            raise Conflict("pairing_in_progress", "the director is pairing a round; try again in a moment")

    def pair(self, tid: str, bye_computer: int | None = None) -> dict:
        """Create the next round's games and append ``round.paired``; with
        ``bye_computer`` the players who would get a bye play computers of that
        strength instead (``pairing.fill_byes``).

        Games are created before the event that names them, so a lock keeps
        registrations, withdrawals and a second pairing out meanwhile; if the stream
        still moved, nothing is appended and the created games stay orphaned."""
        self.events(tid)
        if not self.redis.set(keys.tournament_pairing_lock(tid), "1", nx=True, ex=300):
            raise Conflict("pairing_in_progress", "another request is pairing this round")
        try:
            return self._pair(tid, bye_computer)
        finally:
            self.redis.delete(keys.tournament_pairing_lock(tid))

    def _pair(self, tid: str, bye_computer: int | None = None) -> dict:
        state = self.sync(tid)
        tfold.check_next_round(state)
        plan = plan_round(state)
        rules = get_game(state["game"])
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
            created = self.platform.create_game(
                rules.name,
                names,
                opts["game_options"],
                clock=opts["clock"],
                ranked=True,
                tournament=tid,
                bots=bots,
                accounts=accounts,
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
        self.redis.hset(keys.tournament_secrets(tid), mapping=secrets_map)
        payload = {"round": plan["round"], "tables": tables, "byes": plan["byes"]}

        def build(s):
            if s["seq"] != state["seq"]:
                raise Conflict("tournament_changed", "the tournament changed while pairing; pair again")
            return [("round.paired", DIRECTOR, payload)]

        status, _ = self._append(tid, build, action_id=f"pair:{plan['round']}")
        if status == "duplicate":
            raise Conflict("round_in_progress", f"round {plan['round']} was paired by another request")
        return self.round_view(tid, plan["round"], "director", None)

    def sync(self, tid: str) -> dict:
        """Report every finished game of the round in play, then close the round (and
        the tournament after its last round). Idempotent; returns the state after."""
        state = self.state(tid)
        for table in tfold.unreported_tables(state):
            meta = self.platform.meta(table["game_id"])
            if meta["result"] is not None:
                state = self._report(tid, table, meta)
        state = self._pick_up_corrections(tid, state)
        rnd = tfold.current_round(state)
        if rnd and rnd["status"] == "paired" and not tfold.unreported_tables(state):

            def close(s):  # another worker may have closed it meanwhile
                now = tfold.current_round(s)
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

    def _report(self, tid: str, table: dict, meta: dict) -> dict:
        result = {k: meta["result"].get(k) for k in ("scores", "ranking", "forfeited", "tiebreak")}

        def build(s):  # another worker may have reported it meanwhile
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

    def _pick_up_corrections(self, tid: str, state: dict) -> dict:
        """Append ``game.corrected`` for each reported game whose log has moved on: after
        ``game.finished`` only a correction can, so its last result is the record."""
        for rnd in state["rounds"]:
            for table in rnd["tables"]:
                if table["result"] is None:
                    continue
                meta = self.platform.meta(table["game_id"])
                if meta["head_hash"] == table["head_hash"]:
                    continue
                result = {k: meta["result"].get(k) for k in ("scores", "ranking", "forfeited", "tiebreak")}

                def build(
                    s, gid=table["game_id"], table_no=table["table"], number=rnd["round"], result=result, meta=meta
                ):
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

    def report(self, tid: str, game_id: str) -> dict:
        state = self.state(tid)
        if game_id not in state["games"]:
            raise Unprocessable("game_not_in_tournament", f"game {game_id} is not part of this tournament")
        meta = self.platform.meta(game_id)
        if meta["result"] is None:
            raise Conflict("game_not_finished", f"game {game_id} has no result yet", {"seq": meta["seq"]})
        state = self.sync(tid)
        r, i = state["games"][game_id]
        return self._table_public(state, state["rounds"][r]["tables"][i])

    def finish(self, tid: str, reason: str, actor: dict = SYSTEM) -> dict:
        def build(state):
            if state["status"] == "finished":
                return []
            return [("tournament.finished", actor, {"reason": reason, "standings": tstandings.compute(state)})]

        _, state = self._append(tid, build, action_id="finished")
        return state

    # -- reading -------------------------------------------------------------------------
    def summary(self, tid: str, state: dict | None = None) -> dict:
        state = state or self.state(tid)
        entries = self.store.read(keys.tournament_events(tid), after=state["seq"] - 1)
        return {
            "id": state["id"],
            "game": state["game"],
            "name": state["name"],
            "format": state["format"],
            "options": state["options"],
            "status": state["status"],
            "registration": state.get("registration", "open"),
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

    def list(self) -> list[dict]:
        out = []
        for tid in self.redis.zrevrange(keys.TOURNAMENTS_INDEX, 0, 199):
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

    def standings(self, tid: str) -> dict:
        state = self.sync(tid)
        finished = [r["round"] for r in state["rounds"] if r["status"] == "finished"]
        return {
            "id": tid,
            "status": state["status"],
            "format": state["format"],
            "after_round": finished[-1] if finished else 0,
            "standings": tstandings.compute(state),
        }

    def _table_public(self, state: dict, table: dict) -> dict:
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

    def _round_public(self, state: dict, rnd: dict) -> dict:
        return {
            "round": rnd["round"],
            "status": rnd["status"],
            "byes": [{"pid": p, "name": state["players"][p]["name"]} for p in rnd["byes"]],
            "tables": [self._table_public(state, t) for t in rnd["tables"]],
        }

    def round_view(self, tid: str, number: int, role: str, pid: str | None) -> dict:
        """A round's pairings; the director sees every seat link and referee token,
        a player their own seat link."""
        state = self.state(tid)
        if not 1 <= number <= len(state["rounds"]):
            raise not_found(f"round {number}")
        out = self._round_public(state, state["rounds"][number - 1])
        wanted = [f"seat:{t['game_id']}:{s['pid']}" for t in out["tables"] for s in t["seats"] if s["pid"] is not None]
        wanted += [f"referee:{t['game_id']}" for t in out["tables"]]
        stored = dict(zip(wanted, self.redis.hmget(keys.tournament_secrets(tid), wanted))) if wanted else {}
        for t in out["tables"]:
            for s in t["seats"]:
                if s["pid"] is not None and (role == "director" or s["pid"] == pid):
                    token = stored.get(f"seat:{t['game_id']}:{s['pid']}")
                    s["token"], s["link"] = token, seat_link(t["game_id"], token)
            if role == "director":
                t["referee_token"] = stored.get(f"referee:{t['game_id']}")
                t["links"]["referee"] = f"/games/{t['game_id']}/referee#token={t['referee_token']}"
        return out

    def my_games(self, tid: str, pid: str) -> dict:
        state = self.sync(tid)
        if pid not in state["players"]:
            raise NotFound("unknown_player", f"no player {pid} in this tournament")
        games = []
        for rnd in state["rounds"]:
            for table in rnd["tables"]:
                if pid in table["seats"]:
                    token = self.redis.hget(keys.tournament_secrets(tid), f"seat:{table['game_id']}:{pid}")
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


def _load_payload(type_: str, payload: dict) -> dict:
    try:
        return SCHEMAS[type_]().load(payload)
    except ValidationError as exc:
        raise Invalid("bad_request", f"invalid {type_} payload", exc.messages) from exc


class TournamentStream:
    """A tournament's stream as ``StreamWriter`` appends to it: folded afresh from the
    log on every write (no cache), public payloads (no seed), nothing following an
    entry and nothing written beside it."""

    refusals = ()  # a refusal is final: it does not give way to an action id's first answer

    def __init__(self, store: EventStore, tid: str):
        self.store = store
        self.key, self.idempotency_key = keys.tournament_events(tid), keys.tournament_idempotency(tid)

    def start(self) -> tuple[Head, bool]:
        return self.latest(), True

    def latest(self) -> Head:
        entries = self.store.read(self.key)
        return Head(tfold.fold(entries), entries[-1]["seq"], entries[-1]["hash"]) if entries else Head(None)

    def catch_up(self, state: dict | None, missed: list[dict]) -> dict | None:
        return tfold.fold(missed, state)

    def seed(self) -> None:
        return None

    def fold(self, state: dict | None, envelope: dict) -> dict:
        return tfold.apply(state, envelope)

    def follow(self, state: dict) -> None:
        return None

    def extras(self, state: dict | None, envelopes: list[dict], after: dict) -> None:
        return None

    def appended(self, state: dict | None, envelopes: list[dict], after: dict) -> None:
        return None
