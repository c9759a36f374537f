"""Building hand-made positions: a state from setup, then the board, followers, pile
and wall tiles the test names. Tests then play real events on it through ``apply``."""

from __future__ import annotations

from events.rng import SeededRng
from projections.games.carcassonne_castle import GAME
from tests.games.harness import load_options

FILLER = "CT31"  # the plain court with one market: fits anywhere without a path


def given(
    board=None,
    followers=(),
    tile="CT31",
    pile=None,
    score=(0, 0),
    active=0,
    turn=5,
    held=((), ()),
    frame=None,
    keep=(None, None),
    options=None,
    supply=None,
):
    """A state in the place phase with exactly the named position.

    ``board`` maps (x, y) -> (tile id, rotation); ``followers`` are (seat, "x,y,i", role).
    """
    state = GAME.setup(load_options(GAME, options), 2, SeededRng("given", 0))
    state["board"] = {f"{x},{y}": [tid, rot] for (x, y), (tid, rot) in (board or {}).items()}
    state["placed"] = [[x, y] for (x, y) in (board or {})]
    state["followers"] = [{"seat": s, "node": n, "role": r} for s, n, r in followers]
    state["tile"] = tile
    state["pile"] = list(pile) if pile is not None else [FILLER] * 5
    state["score"] = list(score)
    state["active"] = active
    state["turn"] = turn
    state["held"] = [[{"kind": k, "turn": t, "used": False, "corner": "K12"} for k, t in h] for h in held]
    if frame is not None:
        state["frame"] = {corner: frame.get(corner) for corner in state["frame"]}
    state["keep"] = [None if k is None else {"node": k[0], "size": k[1]} for k in keep]
    counts = [sum(1 for f in followers if f[0] == s) for s in range(2)]
    state["supply"] = list(supply) if supply is not None else [6 - counts[0], 6 - counts[1]]
    state["recent"] = []
    return state


def act(state, seat, kind, **payload):
    return GAME.apply(state, {"type": kind, "seat": seat, "payload": payload}, SeededRng("act", 0))


def ev(seat, kind, **payload):
    return {"type": kind, "seat": seat, "payload": payload}


def happened(state, what):
    return [r for r in state["recent"] if r["what"] == what]
