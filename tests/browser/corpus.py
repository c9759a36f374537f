"""What the web client is shown over whole games, gathered without a server.

Seeded random games are folded through the rules alone (cheap: no Redis, no HTTP) for
every seat count of a game, with its default options and with options drawn at random
from its schema. Along the way this gathers what the pages would be given to draw: each
viewer's view (with the seat's legal actions), the log entries as each viewer gets them
(redacted the platform's way) and every move offered. The browser test then feeds all
of it to the game's real renderer, so every text shape a game can produce meets the
catalogue, not only the few a handful of played games happen to reach.

Views are many and alike; ``Corpus.add_view`` keeps one only when it shows something no
kept view of that game showed (a string, a key, or a number in a new place), plus a few
at fixed points (the start, every 10th step, the end).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

from marshmallow import fields as mf
from marshmallow import validate

from events.rng import SeededRng
from projections.games import registry
from projections.games.base import REFEREE

NUMBER = re.compile(r"\d+")


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"(?::(.))?')


def features(obj) -> set:
    """What a view shows, roughly and fast (views are large and many): every string,
    and every key with the kind of value it holds (a digit in either folded to "#",
    so ids and counts do not count as new)."""
    return set(TOKEN.findall(NUMBER.sub("#", canonical(obj))))


@dataclass
class Corpus:
    game: str
    views: list = field(default_factory=list)  # {viewer, seat, view, actions, status, to_act, result, events}
    events: list = field(default_factory=list)  # client log entries, distinct
    actions: list = field(default_factory=list)  # [action, a view it was offered in], distinct
    _seen: set = field(default_factory=set)
    _events: set = field(default_factory=set)
    _actions: set = field(default_factory=set)

    def add_view(self, item: dict, force: bool = False) -> None:
        new = features([item["view"], item["status"], str(item["viewer"])])
        for a in item["actions"]:
            new |= {f"action {f}" for f in features(a)}
        if force or not new <= self._seen:
            self._seen |= new
            self.views.append(item)

    def add_event(self, entry: dict) -> None:
        key = canonical({k: entry[k] for k in ("type", "actor", "payload")})
        if key not in self._events:
            self._events.add(key)
            self.events.append(entry)

    def add_actions(self, actions: list, view: dict) -> None:
        for a in actions:
            key = canonical(a)
            if key not in self._actions:
                self._actions.add(key)
                self.actions.append([a, view])


def random_options(schema_cls, rand: random.Random) -> dict:
    """Options drawn from the schema: booleans and listed choices at random, the rest
    (numbers: rounds, targets) left at their defaults so games stay short."""
    out = {}
    for name, f in schema_cls().fields.items():
        key = f.data_key or name
        if isinstance(f, mf.Boolean):
            out[key] = rand.random() < 0.5
        else:
            choices = [
                v
                for v in ([f.validate] if callable(f.validate) else (f.validators or []))
                if isinstance(v, validate.OneOf)
            ]
            if choices:
                out[key] = rand.choice(list(choices[0].choices))
    return out


def playout(corpus: Corpus, seats: int, seed: str, options: dict, max_steps: int = 5000) -> int:
    """One random game to the end, gathered into ``corpus``; returns its length in events."""
    game = registry()[corpus.game]
    rand = random.Random(seed)
    schema = game.options_schema() if game.options_schema else None
    opts = schema.load(options) if schema else dict(options)
    rng = SeededRng(seed, 0)
    state = game.setup({**opts, "rules_version": game.rules_version}, seats, rng)
    counter = rng.counter
    log: list[dict] = []
    viewers = [*range(seats), None]

    def look(step: int, force: bool) -> None:
        finished = game.result(state) is not None
        to_act = sorted(game.to_act(state)) if not finished else []
        # the seats asked (they have moves), one more viewer in turn, and the referee
        chosen = viewers[step % len(viewers)]
        for viewer in dict.fromkeys([*to_act, chosen, "referee"]):
            shown = REFEREE if finished or viewer == "referee" else viewer
            seat = viewer if isinstance(viewer, int) else None
            actions = game.legal_actions(state, seat) if seat is not None and seat in to_act else []
            view = game.view(state, shown)
            corpus.add_actions(actions, view)
            corpus.add_view(
                {
                    "viewer": viewer,
                    "seat": seat,
                    "view": view,
                    "actions": actions,
                    "status": "finished" if finished else "active",
                    "to_act": to_act,
                    "result": game.result(state),
                    "step": step,
                    "events": log[-8:],
                },
                force=force and viewer == chosen,
            )

    look(0, True)
    for step in range(1, max_steps + 1):
        if game.result(state) is not None:
            break
        auto = game.automatic(state)
        if auto is not None:
            seat, action = None, auto
        else:
            seat = rand.choice(sorted(game.to_act(state)))
            action = rand.choice(game.legal_actions(state, seat))
        event = {"type": action["type"], "seat": seat, "payload": action["payload"]}
        rng = SeededRng(seed, counter)
        state = game.apply(state, event, rng)
        counter = rng.counter
        entry = {
            "seq": step + 1,
            "type": f"{corpus.game}.{event['type']}",
            "actor": {"seat": seat} if seat is not None else {"role": "system"},
            "payload": event["payload"],
        }
        log.append(entry)
        finished = game.result(state) is not None
        for viewer in (REFEREE,) if finished else (*range(seats), None):
            shown = game.redact({"type": event["type"], "seat": seat, "payload": event["payload"]}, viewer)
            payload = {"hidden": True} if shown is None else shown["payload"]
            corpus.add_event({**entry, "payload": payload})
        look(step, step % 10 == 0 or finished)
    else:
        raise AssertionError(f"{corpus.game}: no end after {max_steps} steps (seed {seed})")
    return len(log)


def script(
    game_name: str, seats: int, seed: str, options: dict | None = None, max_steps: int = 5000
) -> list[tuple[int, dict]]:
    """The seats' moves of a seeded random game to its end, as (seat, action): posted in
    order to a game the server created with the same seed, they replay it exactly (the
    server takes the automatic steps itself)."""
    game = registry()[game_name]
    rand = random.Random(seed)
    schema = game.options_schema() if game.options_schema else None
    opts = schema.load(options or {}) if schema else dict(options or {})
    rng = SeededRng(seed, 0)
    state = game.setup({**opts, "rules_version": game.rules_version}, seats, rng)
    counter = rng.counter
    moves = []
    for _ in range(max_steps):
        if game.result(state) is not None:
            return moves
        auto = game.automatic(state)
        if auto is not None:
            seat, action = None, auto
        else:
            seat = rand.choice(sorted(game.to_act(state)))
            action = rand.choice(game.legal_actions(state, seat))
            moves.append((seat, action))
        rng = SeededRng(seed, counter)
        state = game.apply(state, {"type": action["type"], "seat": seat, "payload": action["payload"]}, rng)
        counter = rng.counter
    raise AssertionError(f"{game_name}: no end after {max_steps} steps (seed {seed})")


def seat_counts(game) -> list[int]:
    low, high = game.min_seats, game.max_seats
    return sorted({low, min(low + 1, high), (low + high) // 2, high})


def gather(game_name: str, games_per_count: int = 2, base: int = 0) -> Corpus:
    """Seeded games for each seat count (the smallest, the next, the middle and the
    largest where a game takes many): the first with the default options, the others
    with options drawn from the schema."""
    game = registry()[game_name]
    corpus = Corpus(game_name)
    for seats in seat_counts(game):
        for i in range(games_per_count):
            seed = f"corpus:{game_name}:{seats}:{base + i}"
            options = (
                {}
                if i == 0 or game.options_schema is None
                else random_options(game.options_schema, random.Random(seed))
            )
            playout(corpus, seats, seed, options)
    return corpus
