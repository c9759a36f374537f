"""Golden playthroughs: complete games recorded once, refolded by every test run forever.

``python -m service golden --game X [--seats N] [--count K] [--option NAME=VALUE] [--trail]``
plays the game's own bot (``projections/games/<game>/bot.py``) through the real
platform (the app on a throw-away embedded Redis) and stores, per game:

- ``<stem>.jsonl.gz``: the export exactly as ``GET /export`` gave it once the game was
  finished (JSON Lines, seed included), gzipped; never re-sealed or rewritten;
- ``<stem>.final.json.gz``: what that log must fold to: the result as recorded and the
  final view of every seat, of a spectator and of the referee (one canonical JSON line).

``stem`` is ``v<rules version>-<seats>p[-<option>=<value>,...][-trail]-<NN>``. Without
``--seats`` or ``--option`` the tool records the whole set a rules version needs: K
logs (default 5) at every player count, one log per non-default value of every option
at a representative count, and one *trail* log at that count, where the platform's own
events are played too (an undo taken at once, one approved, one declined, a referee
pause and resume, a rewind, a signed correction after the end), so the platform fold is
pinned as well as the rules. It only ever adds files: a name that exists is refused
(``--missing`` skips such names instead), because a recorded log is evidence of how the
code folded it, and only a new rules version, recorded beside the old, may change that.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import cast

from flask.testing import FlaskClient
from marshmallow import fields

from events.envelope import canonical_json
from events.shapes import JSON, Envelope
from projections import fold
from projections.fold import PlatformState
from projections.games import get as get_game
from projections.games import registry
from projections.games.base import REFEREE, Game
from service.ports import GameLog

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file is service/entrypoints/golden.py)
GOLDEN_DIR = ROOT / "tests" / "golden"
MAX_ACTIONS = 20000
SAMPLES = {
    # Options whose non-default values the schema cannot list (an integer or null): the value recorded.
    ("caylus", "house_limit"): 8,
    ("shadow_of_the_emperor", "first_emperor"): 1,
    ("sultans_of_karaya", "rounds"): 3,
    ("sultans_of_karaya", "target_score"): 8,
    ("sultans_of_karaya", "first_player"): 2,
    ("sultans_of_karaya", "round_turn_limit"): 12,
    ("age_of_rome", "lure_max_legions"): 1,
}
OPTION_SEATS = {
    ("age_of_rome", "solo_difficulty"): 1,  # only the solo automaton reads it
}


Planned = tuple[int, JSON, int, bool]
"""(seats, options, count, trail): logs to record alike."""


class Refusal(Exception):
    """The tool would overwrite a recorded log, or was asked for something it cannot record."""


# -- what a rules version needs ----------------------------------------------------------
def option_defaults(game: Game) -> JSON:
    defaults: JSON = game.options_schema().load({}) if game.options_schema else {}
    return defaults


def option_variants(game: Game) -> list[JSON]:
    """One ``{name: value}`` per non-default value of every option."""
    out: list[JSON] = []
    if not game.options_schema:
        return out
    for name, field in game.options_schema().fields.items():
        default = field.load_default
        choices = next((list(v.choices) for v in field.validators if hasattr(v, "choices")), None)
        values: list[object]
        if isinstance(field, fields.Boolean):
            values = [not default]
        elif choices is not None:
            values = [c for c in choices if c != default]
        elif (game.name, name) in SAMPLES:
            values = [SAMPLES[(game.name, name)]]
        else:
            raise Refusal(f"{game.name}: option {name!r} has no listable non-default value; add one to golden.SAMPLES")
        out += [{name: value} for value in values]
    return out


def representative_seats(game: Game, options: JSON) -> int:
    for name in options:
        if (game.name, name) in OPTION_SEATS:
            return OPTION_SEATS[(game.name, name)]
    return min(game.max_seats, max(3, game.min_seats + 1))  # three players: "the next player" and "an opponent" differ


def plan(
    game: Game, seats: int | None = None, count: int | None = None, options: JSON | None = None, trail: bool = False
) -> list[Planned]:
    """``[(seats, options, count, trail)]``: what to record. The full set without seats,
    options or trail."""
    if options or trail:
        return [(seats or representative_seats(game, options or {}), options or {}, count or 1, trail)]
    if seats is not None:
        if not game.min_seats <= seats <= game.max_seats:
            raise Refusal(f"{game.title} takes {game.min_seats} to {game.max_seats} seats")
        return [(seats, {}, count or 5, False)]
    out: list[Planned] = [(n, {}, count or 5, False) for n in range(game.min_seats, game.max_seats + 1)]
    out += [(representative_seats(game, o), o, 1, False) for o in option_variants(game)]
    return out + [(representative_seats(game, {}), {}, 1, True)]


def stem(version: int, seats: int, options: JSON, index: int, trail: bool = False) -> str:
    label = ",".join(f"{k}={json.dumps(v)}" for k, v in sorted(options.items())).replace('"', "")
    return f"v{version}-{seats}p" + (f"-{label}" if label else "") + ("-trail" if trail else "") + f"-{index:02d}"


def changed_options(game: Game, options: JSON) -> JSON:
    """The options that differ from the defaults (how a log is labelled and planned)."""
    defaults = option_defaults(game)
    return {k: v for k, v in options.items() if defaults.get(k, object()) != v}


# -- reading and checking a recorded log ----------------------------------------------------
def read_lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8", newline="") as handle:
        return handle.read().splitlines()


def final_views(game: Game, pstate: PlatformState) -> JSON:
    """The final view of every seat, a spectator and the referee, as the game shows them."""
    state = pstate["state"]
    views = {str(seat): game.view(state, seat) for seat in range(len(pstate["seats"]))}
    views["spectator"] = game.view(state, None)
    views["referee"] = game.view(state, REFEREE)
    return views


def final_record(pstate: PlatformState) -> JSON:
    """What a golden log must fold to."""
    return {
        "game": pstate["game"],
        "rules_version": pstate["rules_version"],
        "seats": len(pstate["seats"]),
        "options": pstate["options"],
        "status": pstate["status"],
        "seq": pstate["seq"],
        "head": pstate["head"],
        "result": pstate["result"],
        "views": final_views(fold.game_of(pstate), pstate),
    }


def refold(envelopes: list[JSON]) -> PlatformState:
    """The final platform state of a finished log, folded offline with its revealed seed."""
    seed = next((e["payload"].get("seed") for e in envelopes if e["type"] == "game.finished"), None)
    return fold.InMemoryHistory(cast(list[Envelope], envelopes), seed).final()  # an export's entries, as served


# -- recording ----------------------------------------------------------------------------
def bot_for(game: Game) -> ModuleType:
    try:
        return importlib.import_module(f"projections.games.{game.name}.bot")
    except ModuleNotFoundError:
        return importlib.import_module("projections.games.bot")


TRAIL = {10: "undo_own", 20: "pause", 30: "undo_approved", 40: "undo_declined", 50: "rewind"}
"""Platform events a trail log plays after that many bot actions (a correction follows the end)."""


def has_trail(envelopes: list[JSON]) -> bool:
    """Whether a log holds platform events besides its creation and end (an export's
    signed-head trailer line, which has no type, is none)."""
    return any(
        e["type"].split(".")[0] in ("referee", "game") and e["type"] not in ("game.created", "game.finished")
        for e in envelopes
        if "type" in e
    )


class Table:
    """One game as its seats and referee reach it through the API."""

    def __init__(self, client: FlaskClient, gid: str, tokens: list[str], referee: str) -> None:
        self.client, self.gid, self.tokens, self.referee = client, gid, tokens, referee

    def post(self, tail: str, body: JSON | None, token: str) -> JSON:
        r = self.client.post(f"/api/games/{self.gid}{tail}", json=body, headers={"Authorization": f"Bearer {token}"})
        if r.status_code not in (200, 201):
            raise AssertionError(f"POST {tail} {body} refused: {r.get_json()}")
        return cast(JSON, r.json)  # every answer of the API is an object

    def undo(self, p: PlatformState, own: bool, approve: bool) -> None:
        """Take the last action back, asked by the seat that made it (at once when nothing
        hidden showed since) or by the next seat; the others approve, or the first declines."""
        history = p["history"]
        if len(history) < 2:
            return
        last = history[-1][1] if history[-1][1] is not None else 0
        asker = last if own else (last + 1) % len(self.tokens)
        answer = self.post("/undo", {"to_seq": history[-2][0]}, self.tokens[asker])
        if answer["status"] != "requested":
            return
        for seat in range(len(self.tokens)):
            if seat != asker:
                verdict = "approve" if approve else "decline"
                if self.post(f"/undo/{answer['request_id']}/{verdict}", None, self.tokens[seat])["status"] != "pending":
                    return

    def referee_event(self, kind: str, body: JSON) -> None:
        self.post(f"/referee/{kind}", body, self.referee)

    def trail(self, step: str, p: PlatformState) -> None:
        if step.startswith("undo_"):
            self.undo(p, own=step == "undo_own", approve=step != "undo_declined")
        elif step == "pause":
            self.referee_event("pause", {"reason": "a player stepped away"})
            self.referee_event("resume", {"reason": "back"})
        elif step == "rewind" and len(p["history"]) >= 3:
            self.referee_event("rewind", {"to_seq": p["history"][-3][0], "reason": "a misplayed turn"})


def play(
    client: FlaskClient, log: GameLog, game: Game, seats: int, options: JSON, rand: random.Random, trail: bool = False
) -> tuple[bytes, JSON]:
    """One complete bot game through the API; (the export's bytes, the final record)."""
    body: JSON = {"game": game.name, "seats": [f"p{i}" for i in range(seats)], "options": options}
    r = client.post("/api/games", json=body)
    if r.status_code != 201:
        raise Refusal(f"the server refused the game: {r.get_json()}")
    created = cast(JSON, r.json)
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    table = Table(client, gid, tokens, created["referee_token"])
    bot = bot_for(game)
    for played in range(MAX_ACTIONS):
        p = log.state(gid)
        if p["status"] == "finished":
            break
        if trail and played in TRAIL:
            table.trail(TRAIL[played], p)
            p = log.state(gid)
        seat, action = bot.choose(game, p["state"], rand)
        body = {"type": action["type"], "payload": action["payload"], "action_id": f"{p['seq']}-{seat}"}
        r = client.post(f"/api/games/{gid}/actions", json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})
        if r.status_code != 201:
            raise AssertionError(f"an offered action was refused at seq {p['seq']}: {action} -> {r.get_json()}")
    else:
        raise AssertionError(f"{game.name} did not finish within {MAX_ACTIONS} actions")
    if trail:
        # a finished game's record changes only by a signed correction (a referee.adjust is refused)
        body = {"adjustments": [{"seat": 0, "points": 1}], "reason": "a scoring slip found after the end"}
        table.referee_event("correct", body)
    export = client.get(f"/api/games/{gid}/export").data
    record = final_record(log.state(gid))
    served = cast(JSON, client.get(f"/api/games/{gid}/view").json)
    assert served["view"] == record["views"]["referee"] and served["result"] == record["result"]
    return export, record


def check(export: bytes, record: JSON) -> None:
    """A new log must refold offline to what the server served, and verify."""
    from service.audit.exports import parse_lines, split_trailer, verify

    lines = parse_lines(export.decode())
    envelopes, _ = split_trailer(lines)  # an export ends with the server's signed head
    assert canonical_json(final_record(refold(envelopes))) == canonical_json(record), "the offline refold differs"
    report = verify(lines)
    assert report["ok"], report


def write_new(path: Path, data: bytes) -> None:
    """Create ``path``; never overwrite (mode "x" refuses an existing file)."""
    with open(path, "xb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as handle:
        handle.write(data)


def record(
    game_name: str,
    seats: int | None = None,
    count: int | None = None,
    options: JSON | None = None,
    out: Path = GOLDEN_DIR,
    missing: bool = False,
    say: Callable[[str], object] = print,
    trail_only: bool = False,
    start: int = 1,
) -> list[Path]:
    game = get_game(game_name)
    if game is None:
        raise Refusal(f"no game called {game_name!r} (known: {', '.join(sorted(registry()))})")
    if options:
        unknown = set(options) - set(option_defaults(game))
        if unknown:
            raise Refusal(f"{game.title} has no option {', '.join(sorted(unknown))}")
    version = game.rules_version
    folder = out / game.name
    todo, existing = [], []
    for n, opts, k, trail in plan(game, seats, count, options, trail_only):
        for index in range(start, start + k):
            name = stem(version, n, changed_options(game, {**option_defaults(game), **opts}), index, trail)
            paths = (folder / f"{name}.jsonl.gz", folder / f"{name}.final.json.gz")
            if any(p.exists() for p in paths):
                existing.append(paths[0])
            else:
                todo.append((n, opts, trail, paths))
    if existing and not missing:
        listed = "\n  ".join(str(p) for p in existing)
        raise Refusal(
            f"refusing to overwrite recorded golden logs:\n  {listed}\n"
            "Golden logs are never rewritten. A change that alters how a log folds is a new rules "
            "version (raise the game's rules_version), recorded beside these; --missing records only "
            "the names not yet taken."
        )
    if not todo:
        say(f"nothing to record for {game.name} rules version {version}")
        return []
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        from service import wiring
        from service.adapters.connection import start_embedded
        from service.app import create_app

        server, url = start_embedded(tmp)
        try:
            # one client plays every seat of hundreds of games: no per-address request limit
            app = create_app(
                {"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "TESTING": True, "RATE_LIMITS_ENABLED": False}
            )
            client, log = app.test_client(), wiring.of(app).log
            rand = random.Random()
            for n, opts, trail, (log_path, final_path) in todo:
                export, final = play(client, log, game, n, opts, rand, trail)
                check(export, final)
                write_new(log_path, export)
                write_new(final_path, (canonical_json(final) + "\n").encode())
                written.append(log_path)
                say(f"recorded {log_path.relative_to(out)} ({final['seq']} entries)")
        finally:
            server.shutdown()
    return written


def parse_option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError('write an option as NAME=VALUE (VALUE in JSON: true, 3, "deniers")')
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value  # a bare string


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True)
    parser.add_argument("--seats", type=int)
    parser.add_argument("--count", type=int, help="logs per player count (default 5; 1 per option value)")
    parser.add_argument("--option", action="append", type=parse_option, default=[], metavar="NAME=VALUE")
    parser.add_argument("--out", type=Path, default=GOLDEN_DIR, help="the corpus folder (default tests/golden)")
    parser.add_argument("--missing", action="store_true", help="skip names already recorded instead of refusing")
    parser.add_argument("--trail", action="store_true", help="only trail logs (platform events played too)")
    parser.add_argument("--start", type=int, default=1, help="the first log number (default 1)")


def main(args: argparse.Namespace) -> int:
    try:
        record(
            args.game,
            args.seats,
            args.count,
            dict(args.option) or None,
            args.out,
            args.missing,
            trail_only=args.trail,
            start=args.start,
        )
    except Refusal as exc:
        print(f"golden: {exc}", file=sys.stderr)
        return 2
    return 0
