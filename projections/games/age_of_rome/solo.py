"""The solo automaton, "The Liberators" (digest §11, entirely reconstructed).

It is owner 1 of a one-seat game, sits at table seat 2 and moves only through
system events (``rival_card``), one per card of its deck.
"""

from __future__ import annotations

from projections.games.base import Rng, State

from .content import AREAS, BOARD, RIVAL_CARDS, SOLO
from .effects import RIVAL as RIVAL  # re-exported: conditions and resolve read solo.RIVAL
from .effects import gain_glory, place_vote

AREA_ORDER: list[str] = SOLO["area_tie_order"]


def rival_compared(metric: str) -> bool:
    base = metric.split(":", 1)[0]
    names = {"legions_in_area": "legions_in_area", "vendetta_markers_on_track": "vendetta_markers"}
    return names.get(base, base) in SOLO["compared_metrics"]


def actions_this_round(state: State) -> int:
    actions: int = SOLO["actions_per_round"][state["options"]["solo_difficulty"]][state["round"] - 1]
    return actions


def end_of_round(state: State) -> None:
    gain_glory(state, RIVAL, SOLO["glory_per_round_end"][state["options"]["solo_difficulty"]][state["round"] - 1])


def contested_area(state: State) -> str:
    """Smallest (human − rival) that is ≥ 0; if the rival leads everywhere, its smallest lead."""
    diffs = {a: state["areas"][a][0] - state["areas"][a][RIVAL] for a in AREA_ORDER}
    level = [a for a in AREA_ORDER if diffs[a] >= 0]
    if level:
        return min(level, key=lambda a: (diffs[a], AREA_ORDER.index(a)))
    return max(AREA_ORDER, key=lambda a: (diffs[a], -AREA_ORDER.index(a)))


def _deploy(state: State, area: str) -> None:
    rival = state["rival"]
    if area == "contested":
        area = contested_area(state)
    if rival["legions"] > 0:
        rival["legions"] -= 1
        state["areas"][area][RIVAL] += 1
        return
    source = max(AREA_ORDER, key=lambda a: (state["areas"][a][RIVAL], -AREA_ORDER.index(a)))
    if source == area or state["areas"][source][RIVAL] == 0:
        gain_glory(state, RIVAL, 1)
        return
    state["areas"][source][RIVAL] -= 1
    state["areas"][area][RIVAL] += 1


def _vote(state: State) -> None:
    if state["rival"]["votes"] <= 0:
        gain_glory(state, RIVAL, 1)
        return
    place_vote(state, RIVAL)


def _led_areas(state: State) -> int:
    return sum(1 for a in AREAS if state["areas"][a][RIVAL] > state["areas"][a][0])


def _conspiracy(state: State) -> None:
    human = state["players"][0]
    if human["vendetta"] < BOARD["vendetta_track_length"] and state["vendetta_pool"] > 0:
        human["vendetta"] += 1
        state["vendetta_pool"] -= 1
    else:
        gain_glory(state, RIVAL, 1)


def play_card(state: State, rng: Rng) -> str:
    """Resolve the top card of the rival's deck (reshuffled when empty); returns its id."""
    rival = state["rival"]
    if not rival["deck"]:
        rival["deck"] = rng.shuffle(sorted(RIVAL_CARDS))
        rival["discard"] = []
    card: str = rival["deck"].pop(0)
    rival["discard"].append(card)
    effect = RIVAL_CARDS[card]["effect"]
    op = effect["op"]
    if op == "deploy":
        _deploy(state, effect["area"])
    elif op == "votes":
        for _ in range(effect["n"]):
            _vote(state)
    elif op == "glory":
        gain_glory(state, RIVAL, effect["n"])
    elif op == "glory_per_led_area":
        gain_glory(state, RIVAL, _led_areas(state))
    elif op == "conspiracy":
        _conspiracy(state)
    return card


def title(score: int) -> str:
    name: str = next(name for floor, name in SOLO["titles"] if score >= floor)
    return name
