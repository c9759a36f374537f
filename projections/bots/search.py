"""Information-set Monte-Carlo tree search (single observer) over determinizations.

Why this algorithm: four of the five games hide information. Searching the true state
would let the bot read its opponents' cards; searching one guessed state would make it
overconfident. IS-MCTS (Cowling, Powley and Whitehouse, 2012; OpenSpiel's ``ISMCTSBot``
is the same idea) samples a fresh *determinization* — the hidden part re-dealt from what
the seat cannot see, by the game's ``determinize`` hook — on every iteration, and shares
one tree across them, keyed by the actions taken. The tree therefore holds statistics
for the seat's information set, not for one world.

The bot is a pure function of (game, state as its seat may know it, seat, budget, seed):
the same inputs give the same move, and two states that differ only in what is hidden
from the seat give the same move (``determinize`` must depend on the seat's information
only; the property tests of every game check it).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Generator
from dataclasses import dataclass, field

from events.rng import SeededRng
from projections.games.base import Action, Game, IllegalAction, State

from .policy import weights

PUCT = 1.5
"""Exploration constant of the tree's selection (PUCT: a move's mean reward plus
``PUCT * prior * sqrt(available) / (1 + visits)``); rewards lie in [0, 1]."""


@dataclass
class Budget:
    """How much one move may cost: iterations (deterministic), optionally cut by time:
    ``seconds`` from the search's start, whether it ran alone or sliced among others
    (``search``), so a move's think time is bounded whatever else the worker does."""

    iterations: int = 200
    rollout_depth: int = 40
    seconds: float | None = None


SLICE = 0.05
"""Seconds a sliced search runs before it yields (``search``)."""


@dataclass
class Node:
    visits: int = 0
    reward: float = 0.0  # summed reward of the seat whose action led here
    available: int = 0  # iterations in which this action was legal (IS-MCTS's UCB)
    children: dict[str, Node] = field(default_factory=dict)


def key(seat: int, action: Action) -> str:
    """A tree edge: who moved and what (canonical JSON, so equal actions share statistics)."""
    return f"{seat}|" + json.dumps(action, sort_keys=True, separators=(",", ":"))


def rewards(game: Game, state: State, seats: int) -> list[float]:
    """Per seat, in [0, 1]: the share of other seats it finishes ahead of.

    A finished game is judged by its ranking (ties count half). A playout cut short is
    judged by ``game.evaluate`` of the determinized world, pair by pair and smoothly:
    ``(1 + tanh(difference / game.evaluation_scale)) / 2``, so being a little ahead is
    worth a little more than level, and far ahead nearly a win. A lone seat (a solo
    game against the system) scores 1 for first place and 0 otherwise."""
    result = game.result(state)
    if seats == 1:
        return [1.0 if result is not None and result["ranking"][0] == 1 else 0.0]
    if result is not None:
        keys = [-float(r) for r in result["ranking"]]

        def pair(a: float, b: float) -> float:
            return 1.0 if a > b else 0.5 if a == b else 0.0
    else:
        keys = [float(v) for v in (game.evaluate(state) or [0.0] * seats)]
        scale = game.evaluation_scale

        def pair(a: float, b: float) -> float:
            return 0.5 + 0.5 * math.tanh((a - b) / scale)

    return [sum(pair(keys[s], keys[o]) for o in range(seats) if o != s) / (seats - 1) for s in range(seats)]


class Simulation:
    """One determinized world being played forward, with its own chance stream."""

    def __init__(self, game: Game, state: State, chance_seed: str):
        self.game, self.state, self.seed, self.counter = game, state, chance_seed, 0

    def over(self) -> bool:
        return self.game.result(self.state) is not None

    def play(self, seat: int | None, action: Action) -> None:
        rng = SeededRng(self.seed, self.counter)
        self.state = self.game.apply(
            self.state, {"type": action["type"], "seat": seat, "payload": action["payload"]}, rng
        )
        self.counter = rng.counter

    def system_moves(self) -> None:
        """The system actor's forced moves (an automaton, a default) are not choices."""
        for _ in range(1000):
            auto = None if self.over() else self.game.automatic(self.state)
            if auto is None:
                return
            self.play(None, auto)

    def movers(self) -> list[tuple[int, list[Action]]]:
        out = []
        for seat in sorted(self.game.to_act(self.state)):
            actions = self.game.legal_actions(self.state, seat)
            if actions:
                out.append((seat, actions))
        return out


def choose(game: Game, state: State, seat: int, seats: int, budget: Budget, seed: str) -> Action:
    """The move ``seat`` should post now in ``state``; ``state`` may be the true state, as
    only its determinizations for ``seat`` are ever searched."""
    steps = search(game, state, seat, seats, budget, seed, slice_seconds=None)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            chosen: Action = done.value
            return chosen


def search(
    game: Game,
    state: State,
    seat: int,
    seats: int,
    budget: Budget,
    seed: str,
    slice_seconds: float | None = SLICE,
    started: float | None = None,
) -> Generator[None, None, Action]:
    """``choose`` in slices: yields after about ``slice_seconds`` of searching (None: never),
    so a worker can take turns among several searches and a long think does not hold up
    a short one; the move is the generator's return value. Sliced or not, the same
    inputs search the same iterations unless ``budget.seconds`` (counted from
    ``started``, a ``time.monotonic()``, else from now) cuts the search short; a rollout
    under way then stops where it is and is judged there."""
    root_actions = game.legal_actions(state, seat)
    if not root_actions:
        raise IllegalAction("nothing_to_do", "this seat has no legal action")
    if len(root_actions) == 1:
        return root_actions[0]
    root = Node()
    rand = random.Random(f"{seed}:{seat}")
    slices = Slices(slice_seconds)
    deadline = None if budget.seconds is None else (started or slices.resumed) + budget.seconds
    for i in range(budget.iterations):
        if deadline is not None and i and time.monotonic() > deadline:
            break
        yield from slices.pause()
        world = game.determinize(state, seat, rand) if game.hidden_information else state
        sim = Simulation(game, world, f"{seed}:{i}")
        yield from _iteration(game, sim, root, seat, seats, budget, rand, deadline, slices)
    best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward))
    chosen: Action = json.loads(best[0].split("|", 1)[1])
    return chosen


class Slices:
    """When a sliced search yields: after ``seconds`` of running since it last resumed
    (None: never). Pausing between rollout moves, not only between iterations, keeps a
    slice short even where one iteration is long (a deep rollout in a dear game)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.resumed = time.monotonic()

    def pause(self) -> Generator[None, None, None]:
        if self.seconds is not None and time.monotonic() - self.resumed > self.seconds:
            yield
            self.resumed = time.monotonic()


def _iterate(
    game: Game,
    sim: Simulation,
    root: Node,
    seat: int,
    seats: int,
    budget: Budget,
    rand: random.Random,
    deadline: float | None = None,
) -> None:
    """One iteration, unsliced."""
    for _ in _iteration(game, sim, root, seat, seats, budget, rand, deadline, Slices(None)):
        pass


def _iteration(
    game: Game,
    sim: Simulation,
    root: Node,
    seat: int,
    seats: int,
    budget: Budget,
    rand: random.Random,
    deadline: float | None,
    slices: Slices,
) -> Generator[None, None, None]:
    path: list[tuple[Node, int]] = []
    node, mover, actions = root, seat, game.legal_actions(sim.state, seat)
    while True:
        child, action = _select(game, sim.state, node, mover, actions, rand)
        sim.play(mover, action)
        path.append((child, mover))
        sim.system_moves()
        if child.visits == 0 or sim.over():
            break
        node = child
        movers = sim.movers()
        if not movers:
            break
        mover, actions = movers[0]
    yield from _rollout(sim, budget.rollout_depth, rand, guided=True, deadline=deadline, slices=slices)
    reward = rewards(game, sim.state, seats)
    root.visits += 1
    for n, who in path:
        n.visits += 1
        n.reward += reward[who]


def _select(
    game: Game, state: State, node: Node, mover: int, actions: list[Action], rand: random.Random
) -> tuple[Node, Action]:
    """The child to follow (PUCT over the moves legal in this world, IS-MCTS style: a
    move's exploration grows with the iterations in which it was available). A move not
    tried yet is valued at the mean of its tried siblings; the prior decides which of the
    untried comes first, and a random draw breaks exact ties."""
    prior = weights(game, state, actions, tree=True)
    total = sum(prior)
    children = [node.children.setdefault(key(mover, a), Node()) for a in actions]
    for c in children:
        c.available += 1
    tried = sum(c.visits for c in children)
    first = sum(c.reward for c in children) / tried if tried else 0.5

    def score(i: int) -> float:
        c = children[i]
        mean = c.reward / c.visits if c.visits else first
        return mean + PUCT * prior[i] / total * math.sqrt(c.available) / (1 + c.visits)

    best = max(range(len(actions)), key=lambda i: (score(i), rand.random()))
    return children[best], actions[best]


def _rollout(
    sim: Simulation,
    depth: int,
    rand: random.Random,
    guided: bool = False,
    deadline: float | None = None,
    slices: Slices | None = None,
) -> Generator[None, None, None]:
    """Play on for at most ``depth`` moves (and not past ``deadline``): uniformly, or
    (``guided``) by the game's prior; a sliced search may pause between moves."""
    for step in range(depth):
        if sim.over() or (deadline is not None and step % 4 == 3 and time.monotonic() > deadline):
            return
        if slices is not None:
            yield from slices.pause()
        movers = sim.movers()
        if not movers:
            return
        mover, actions = rand.choice(movers)
        if guided and len(actions) > 1:
            action = rand.choices(actions, weights=weights(sim.game, sim.state, actions))[0]
        else:
            action = rand.choice(actions)
        sim.play(mover, action)
        sim.system_moves()


def win_chances(game: Game, state: State, seats: int, playouts: int, seed: str, depth: int = 400) -> list[float]:
    """Each seat's estimated chance of finishing first, from full-information random
    playouts of the true state (for commentators after the game: nothing is hidden then)."""
    wins = [0.0] * seats
    rand = random.Random(seed)
    for i in range(playouts):
        sim = Simulation(game, state, f"{seed}:{i}")
        sim.system_moves()
        for _ in _rollout(sim, depth, rand):
            pass
        reward = rewards(game, sim.state, seats)
        best = max(reward)
        leaders = [s for s in range(seats) if reward[s] == best]
        for s in leaders:
            wins[s] += 1.0 / len(leaders)
    return [w / playouts for w in wins]
