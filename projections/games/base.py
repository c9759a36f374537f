"""The game protocol: what every game package provides to the platform.

A game is data plus pure functions over a JSON-serialisable state. It never sees
Redis, HTTP, the clock or the OS random generator: the platform hands it events and
a seeded generator, and a game's whole history is a fold of `apply` over its log.

Shapes (plain dicts, so states and events serialise as they are):

- ``Action``: ``{"type": "place_worker", "payload": {...}}`` -- what a client posts,
  and what ``legal_actions`` offers (complete, postable as it is).
- ``Event``: ``{"type": "place_worker", "seat": 2, "payload": {...}}`` -- an action as
  the fold sees it; ``seat`` is ``None`` for the system actor (automata, defaults).
  The type is the game-local name; the platform stores ``<game>.<type>`` in the log.
- ``viewer``: a seat number, ``None`` for a spectator, or ``REFEREE`` for the
  omniscient view (referees, and everyone once the game is finished).
"""

from __future__ import annotations

import copy as _copy
import importlib
import inspect
from abc import ABC, abstractmethod
from typing import Any, NoReturn, Protocol

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

REFEREE = "referee"
"""Viewer that sees everything: a referee, or anyone once the game has finished."""


class IllegalAction(Exception):
    """The rules forbid this event. ``code`` is stable and machine-readable."""

    def __init__(self, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


def refuse(code: str, message: str, **details: Any) -> NoReturn:
    """The one way a rule says no: the event is refused with a stable ``code``."""
    raise IllegalAction(code, message, details)


GENERIC_REFUSALS = ("game_over", "not_your_turn", "unknown_action", "bad_payload", "wrong_action")
"""The codes ``Game.apply`` gives before a game's own checks run, in the order it tries
them (docs/API.md lists them); every other code is a game's own and names a rule."""


class Rng(Protocol):
    """Deterministic generator keyed by (secret seed, draw counter).

    The platform builds one per event from the counter it keeps beside the game
    state, so the same history yields the same draws and an undo cannot re-roll.
    Every method consumes draws; nothing else in a game may produce chance.
    """

    def randbelow(self, n: int) -> int: ...
    def shuffle(self, items: list) -> list: ...  # returns a new list
    def choice(self, items: list) -> Any: ...
    def sample(self, items: list, k: int) -> list: ...


LAYOUT: dict[str, tuple[str, ...]] = {
    "options_schema": ("schemas.OptionsSchema",),
    "action_schemas": ("schemas.ACTION_SCHEMAS",),
    "rules_version": ("versions.CURRENT",),
    "may_act": ("legal.may_act", "rules.may_act"),
    "awaits": ("legal.awaits", "rules.awaits"),
    "malformed": ("legal.malformed", "rules.malformed"),
    "check": ("legal.check", "rules.check"),
    "copy": ("state.copy",),
    "effect": ("rules.effect",),
    "to_act": ("legal.to_act", "rules.to_act"),
    "legal_actions": ("legal.legal_actions", "rules.legal_actions"),
    "view": ("view.view",),
    "redact": ("view.redact",),
    "determinize": ("determinize.deal",),
}
"""Where the package layout (projections/games/README.md) keeps each part of a game: the
places ``Game(layout=__package__)`` looks in, for every part its class leaves out."""


def from_layout(package: str, part: str) -> Any:
    """The one place of ``package`` that holds ``part`` (``LAYOUT``), or None where it has
    none; a part found in two places is an error, so a reader never wonders which."""
    found = []
    for place in LAYOUT[part]:
        module_name, _, attribute = place.partition(".")
        try:
            module = importlib.import_module(f"{package}.{module_name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"{package}.{module_name}":
                raise
            continue
        value = getattr(module, attribute, None)
        if value is not None and not inspect.ismodule(value):  # ``import copy`` is no copy
            found.append((place, value))
    if len(found) > 1:
        raise TypeError(f"{package} holds {part} in {' and '.join(place for place, _ in found)}")
    return found[0][1] if found else None


class Game(ABC):
    """Base class of every game. Subclasses set the metadata and implement the rules.

    Metadata is data: the registry and ``GET /api/game-types`` read it.
    ``options_schema`` and ``action_schemas`` are marshmallow schema classes from the
    game's ``schemas.py`` (the only module of a game that imports marshmallow).

    A game package's class says ``class MyGame(Game, layout=__package__)`` and writes only
    what its layout does not hold: its ``name`` is the package's (unless its body names
    it), and every part in ``LAYOUT`` that neither the class nor a base other than ``Game``
    sets is taken from the package's module that holds it: the schemas, the current rules
    version, and the protocol functions of ``legal``, ``rules``, ``state``, ``view`` and
    ``determinize``. A part kept elsewhere or written otherwise stays a line of the class.
    """

    def __init_subclass__(cls, layout: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if layout is None:
            return
        if "name" not in vars(cls):
            cls.name = layout.rpartition(".")[2]
        for part in LAYOUT:
            if _set_below_game(cls, part):
                continue
            value = from_layout(layout, part)
            if value is not None:
                setattr(cls, part, staticmethod(value) if inspect.isfunction(value) else value)

    name: str = ""
    title: str = ""
    min_seats: int = 2
    max_seats: int = 2
    hidden_information: bool = False
    chance: bool = False
    options_schema: type | None = None
    action_schemas: dict[str, type] = {}
    rules_version: int = 1
    """Raised whenever a change alters how any legal log folds. ``game.created`` records
    the version a game starts under, and the game folds under that version forever:
    a behaviour change is a branch on ``self.version(state)``, never an edit in place."""

    # -- the protocol of DESIGN.md -------------------------------------------------
    @abstractmethod
    def setup(self, options: dict, seats: int, rng: Rng) -> State:
        """The initial state for ``seats`` players; ``options`` is already validated.

        ``options["rules_version"]`` is the version the game is played under (the
        platform adds it from ``game.created``); keep options in ``state["options"]``
        so ``version`` can read it back."""
        ...

    def version(self, state: State) -> int:
        """The rules version ``state`` is played under; states built without one (by
        tests calling ``setup`` directly) play the current version."""
        return played_version(state, self.rules_version)

    def check_options(self, options: dict, seats: int) -> None:
        """Refuse (``bad_options``) options that pass their schema but not the table: a
        rule tying an option to the seat count. The platform calls it before anything
        is written, so ``setup`` may trust its options."""

    # -- apply: one skeleton for every game ---------------------------------------------
    def apply(self, state: State, event: Event, rng: Rng) -> State:
        """The state after ``event``, in the same steps for every game: the generic guards
        (``guard``), the game's ``check`` on the untouched state, one ``copy``, the
        ``effect`` on the copy, then ``advance`` to the next decision. A refusal raises
        ``IllegalAction`` before the copy, so a refused event changes nothing."""
        kind, seat = event.get("type"), event.get("seat")
        payload = event.get("payload")
        payload = {} if payload is None else payload
        self.guard(state, seat, kind, payload)
        self.check(state, seat, kind, payload)
        new = self.copy(state)
        self.effect(new, seat, kind, payload, rng)
        return self.advance(new, rng)

    def guard(self, state: State, seat: int | None, kind: Any, payload: Any) -> None:
        """The generic refusals, always in this order (``GENERIC_REFUSALS``)."""
        if self.over(state):
            refuse("game_over", "the game has ended")
        if not self.may_act(state, seat, kind):
            refuse("not_your_turn", "the game is not waiting for this seat", awaiting=sorted(self.to_act(state)))
        if kind not in self.action_schemas:
            refuse("unknown_action", f"{self.title} has no action {kind!r}")
        problem = "the payload is not an object" if not isinstance(payload, dict) else self.malformed(kind, payload)
        if problem is not None:
            refuse("bad_payload", problem)
        if not self.awaits(state, seat, kind):
            self.refuse_unawaited(state, seat, kind)

    def over(self, state: State) -> bool:
        """Whether the game has ended (no event is accepted after that)."""
        return self.result(state) is not None

    def may_act(self, state: State, seat: int | None, kind: Any) -> bool:
        """Whether ``seat`` may post anything now; a game with out-of-turn interrupts or
        system events (seat None) says which ``kind`` lets a seat in."""
        return seat in self.to_act(state)

    def malformed(self, kind: str, payload: dict) -> str | None:
        """Why a payload cannot reach the rules (the platform has already run its schema;
        this guards direct callers), or None."""
        return None

    def awaits(self, state: State, seat: int | None, kind: str) -> bool:
        """Whether ``kind`` answers what the game waits for from ``seat`` now."""
        return True

    def refuse_unawaited(self, state: State, seat: int | None, kind: str) -> NoReturn:
        """Refuse a kind the game does not wait for now; override only to name a more
        specific rule than ``wrong_action``."""
        refuse("wrong_action", f"{kind} is not what the game waits for now")

    def check(self, state: State, seat: int | None, kind: str, payload: dict) -> None:
        """Refuse what the rules forbid, reading ``state`` only (no copy exists yet)."""

    def copy(self, state: State) -> State:
        """A state ``effect`` may change freely. The contract: every container the effect
        edits in place is new in the copy; anything shared with ``state`` is only ever
        replaced, never edited. A game declares its copy once (usually a hand-written
        copy of the mutable parts, a few times faster than this deep copy); the harness
        checks that ``apply`` never changes its input."""
        return _copy.deepcopy(state)

    def effect(self, state: State, seat: int | None, kind: str, payload: dict, rng: Rng) -> None:
        """Change the copy ``state`` by the event, which has passed every check."""
        raise NotImplementedError(f"{self.name} must say what an event does")

    def advance(self, state: State, rng: Rng) -> State:
        """Carry the changed state on to the next decision (automatic steps, scoring)."""
        return state

    @abstractmethod
    def to_act(self, state: State) -> set[int]:
        """Seats the game is waiting for (incl. reactions and simultaneous votes).

        Public: it must not depend on hidden information. Empty only once finished.
        """
        ...

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may post now, each a complete ``{type, payload}``."""
        ...

    @abstractmethod
    def view(self, state: State, viewer: int | str | None) -> dict:
        """What ``viewer`` may see of ``state`` (a seat, None = spectator, REFEREE)."""
        ...

    def redact(self, event: Event, viewer: int | str | None) -> Event | None:
        """What ``viewer`` may see of a logged event; None hides it entirely."""
        return event

    @abstractmethod
    def result(self, state: State) -> dict | None:
        """None while the game runs; then ``{"scores": [..], "ranking": [..], "tiebreak": ..}``.

        ``scores[s]`` and ``ranking[s]`` are per seat; ranking is 1 for first, ties share.
        """
        ...

    # -- optional hooks (defaults suit most games) ----------------------------------
    def automatic(self, state: State) -> Action | None:
        """An action the system actor takes now (an automaton's move, a forced step)."""
        return None

    def reveals(self, before: State, event: Event, after: State) -> bool:
        """Whether ``event`` showed someone hidden information (a card drawn from a
        deck shuffled earlier, say). Draws from the rng already count as revealing;
        an undo across a revealing event needs the other seats' consent."""
        return False

    def determinize(self, state: State, seat: int, rand) -> State:
        """A state the seat cannot tell from ``state``: everything hidden from ``seat`` re-dealt
        at random (``rand`` is a ``random.Random``) from what it cannot see. Search bots
        sample these, so the result must depend on ``seat``'s information only: build it
        from a canonical order (sort the unknown items), never from the true hidden order.
        Games without hidden information need not override it."""
        if self.hidden_information:
            raise NotImplementedError(f"{self.name} hides information and must say how to re-deal it")
        return state

    def plays_by_computer(self) -> bool:
        """Whether a search bot can sit at this game: it must say how to re-deal what
        a seat cannot see, unless it hides nothing."""
        return not self.hidden_information or type(self).determinize is not Game.determinize

    def scores(self, state: State) -> list[float] | None:
        """Current score per seat (public or not); ranks seats if a game is forfeited."""
        return None

    evaluation_scale: float = 5.0
    """How many points of ``evaluate`` make one seat clearly ahead of another: a search
    bot judges a playout it stopped early by ``tanh(difference / evaluation_scale)``."""

    def evaluate(self, state: State) -> list[float] | None:
        """Each seat's standing in a running game, in points of the final score: what a
        search bot judges a world by when it stops a playout before the end. The current
        ``scores`` unless a game counts more (what its final conversion would add)."""
        return self.scores(state)


def _set_below_game(cls: type, attribute: str) -> bool:
    """Whether ``cls`` or one of its bases other than ``Game`` sets ``attribute``."""
    return any(attribute in vars(klass) for klass in cls.__mro__ if klass not in (Game, ABC, object))


def played_version(state: State, current: int) -> int:
    """The rules version ``state`` is played under, ``current`` when it names none: what
    ``Game.version`` returns, for rules modules that branch on it without the game object."""
    return state.get("options", {}).get("rules_version", current)


def ranking_from(keys: list) -> list[int]:
    """Competition ranking (1 = best, ties share) from per-seat sort keys, higher better."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]
