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
from abc import ABC, abstractmethod
from typing import Any, NoReturn, Protocol

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
Options = dict[str, Any]
Result = dict[str, Any]
"""``{"scores": [..], "ranking": [..], "tiebreak": ..}``, per seat."""
Viewer = int | str | None
"""A seat, None for a spectator, or ``REFEREE``."""

REFEREE = "referee"
"""Viewer that sees everything: a referee, or anyone once the game has finished."""


class IllegalAction(Exception):
    """The rules forbid this event. ``code`` is stable and machine-readable."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None):
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
    def shuffle(self, items: list[Any]) -> list[Any]: ...  # returns a new list
    def choice(self, items: list[Any]) -> Any: ...
    def sample(self, items: list[Any], k: int) -> list[Any]: ...


class Game(ABC):
    """Base class of every game. Subclasses set the metadata and implement the rules.

    Metadata is data: the registry and ``GET /api/game-types`` read it.
    ``options_schema`` and ``action_schemas`` are marshmallow schema classes from the
    game's ``schemas.py`` (the only module of a game that imports marshmallow).

    A game package's class names each of its parts explicitly, from the module that holds
    it (``check = staticmethod(rules.check)``), so a reader's go-to-definition lands on the
    rule itself; projections/games/README.md gives the layout of the modules.
    """

    name: str = ""
    title: str = ""
    min_seats: int = 2
    max_seats: int = 2
    hidden_information: bool = False
    chance: bool = False
    options_schema: type | None = None
    action_schemas: dict[str, type] = {}
    max_log_entries: int = 10_000
    """The longest log a game of this type may have: a new move is refused (409
    ``log_full``) once its log holds this many entries (docs/API.md, "Bounded logs").
    Each game sets it at nine times or more its longest game in tests/golden."""
    rules_version: int = 1
    """Raised whenever a change alters how any legal log folds. ``game.created`` records
    the version a game starts under, and the game folds under that version forever:
    a behaviour change is a branch on ``self.version(state)``, never an edit in place."""

    # -- the protocol of DESIGN.md -------------------------------------------------
    @abstractmethod
    def setup(self, options: Options, seats: int, rng: Rng) -> State:
        """The initial state for ``seats`` players; ``options`` is already validated.

        ``options["rules_version"]`` is the version the game is played under (the
        platform adds it from ``game.created``); keep options in ``state["options"]``
        so ``version`` can read it back."""
        ...

    def version(self, state: State) -> int:
        """The rules version ``state`` is played under; states built without one (by
        tests calling ``setup`` directly) play the current version."""
        return played_version(state, self.rules_version)

    def check_options(self, options: Options, seats: int) -> None:
        """Refuse (``bad_options``) options that pass their schema but not the table: a
        rule tying an option to the seat count. The platform calls it before anything
        is written, so ``setup`` may trust its options."""

    # -- apply: one skeleton for every game ---------------------------------------------
    def apply(self, state: State, event: Event, rng: Rng) -> State:
        """The state after ``event``, in the same steps for every game: the generic guards
        (``guard``), the game's ``check`` on the untouched state, one ``copy``, the
        ``effect`` on the copy, then ``advance`` to the next decision. A refusal raises
        ``IllegalAction`` before the copy, so a refused event changes nothing."""
        seat = event.get("seat")
        payload = event.get("payload")
        payload = {} if payload is None else payload
        kind = self.guard(state, seat, event.get("type"), payload)
        self.check(state, seat, kind, payload)
        new = self.copy(state)
        self.effect(new, seat, kind, payload, rng)
        return self.advance(new, rng)

    def guard(self, state: State, seat: int | None, kind: Any, payload: Any) -> str:
        """The generic refusals, always in this order (``GENERIC_REFUSALS``); the kind admitted."""
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
        return str(kind)

    def over(self, state: State) -> bool:
        """Whether the game has ended (no event is accepted after that)."""
        return self.result(state) is not None

    def may_act(self, state: State, seat: int | None, kind: Any) -> bool:
        """Whether ``seat`` may post anything now; a game with out-of-turn interrupts or
        system events (seat None) says which ``kind`` lets a seat in."""
        return seat in self.to_act(state)

    def malformed(self, kind: str, payload: dict[str, Any]) -> str | None:
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

    def check(self, state: State, seat: int | None, kind: str, payload: dict[str, Any]) -> None:
        """Refuse what the rules forbid, reading ``state`` only (no copy exists yet)."""

    def copy(self, state: State) -> State:
        """A state ``effect`` may change freely. The contract: every container the effect
        edits in place is new in the copy; anything shared with ``state`` is only ever
        replaced, never edited. A game declares its copy once (usually a hand-written
        copy of the mutable parts, a few times faster than this deep copy); the harness
        checks that ``apply`` never changes its input."""
        return _copy.deepcopy(state)

    def effect(self, state: State, seat: int | None, kind: str, payload: dict[str, Any], rng: Rng) -> None:
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
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see of ``state`` (a seat, None = spectator, REFEREE)."""
        ...

    def redact(self, event: Event, viewer: Viewer) -> Event | None:
        """What ``viewer`` may see of a logged event; None hides it entirely."""
        return event

    @abstractmethod
    def result(self, state: State) -> Result | None:
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

    def determinize(self, state: State, seat: int, rand: Any) -> State:
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


def played_version(state: State, current: int) -> int:
    """The rules version ``state`` is played under, ``current`` when it names none: what
    ``Game.version`` returns, for rules modules that branch on it without the game object."""
    version: int = state.get("options", {}).get("rules_version", current)
    return version


def ranking_from(keys: list[Any]) -> list[int]:
    """Competition ranking (1 = best, ties share) from per-seat sort keys, higher better."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]
