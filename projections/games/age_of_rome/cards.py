"""Commerce cards: trigger windows, the hand limit and the own-turn free actions (digest §8.8, §8.13)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from projections.games.base import State

from .content import BOARD, COMMERCE, is_anchor
from .effects import Step, gain_glory
from .flow import effect_steps

SET_TYPES: list[str] = list(BOARD["commerce_set_glory"])


def matches(card_id: str, step: Step) -> bool:
    card = COMMERCE.get(card_id)
    if card is None or card["trigger"] != step["trigger"]:
        return False
    return all(step["filter"].get(k) == v for k, v in card["filter"].items())


def playable(state: State, step: Step) -> list[str]:
    hand = state["players"][step["seat"]]["hand"]
    return sorted({c for c in hand if matches(c, step)})


def play(state: State, step: Step, card: str) -> None:
    """Discard ``card`` and queue its effect ahead of the still-open window."""
    seat = step["seat"]
    state["players"][seat]["hand"].remove(card)
    state["commerce_discard"].append(card)
    now, after_plot = [], []
    for effect in COMMERCE[card]["effect"]:
        steps = effect_steps(seat, effect, {"victim": step.get("victim")})
        if step["trigger"] == "on_targeted_by_plot" and effect["effect"] == "draw_commerce":
            after_plot += steps  # the Silver Mirror draws once the plot has resolved
        else:
            now += steps
    now = [dict(s, via_card=True) if s["op"] == "draw" else s for s in now]
    queue = now + state["queue"]
    if after_plot:
        at = next(i for i, s in enumerate(queue) if s["op"] == "plot_effect") + 1
        queue = queue[:at] + after_plot + queue[at:]
    state["queue"] = queue


def open_window(state: State) -> Step | None:
    """The window a card-drawn card came from, when that draw now waits at the hand limit:
    cards of that trigger may still be played to make room (digest §8.8)."""
    step = state["queue"][0]
    if step["op"] != "draw" or not step.get("via_card"):
        return None
    return next((s for s in state["queue"][1:] if s["op"] == "window" and s["seat"] == step["seat"]), None)


def sellable(hand: list[str]) -> list[str]:
    return sorted({c for c in hand if not is_anchor(c)})


def set_options(state: State, seat: int) -> list[dict[str, Any]]:
    player = state["players"][seat]
    if len(player["sets"]) >= BOARD["max_sets"]:
        return []
    wild = state["medals"]["commercial"] == seat
    cards = sorted(c for c in player["hand"] if not is_anchor(c))
    seen, out = set(), []
    for trio in combinations(cards, 3):
        for kind in SET_TYPES:
            if all(COMMERCE[c]["type"] == kind or (wild and COMMERCE[c]["type"] == "jewel") for c in trio):
                key = (trio, kind)
                if key not in seen:
                    seen.add(key)
                    out.append({"cards": list(trio), "as_type": kind})
    return out


def set_legal(state: State, seat: int, cards: list[str], kind: str | None) -> bool:
    return {"cards": sorted(cards), "as_type": kind} in set_options(state, seat)


def form_set(state: State, seat: int, cards: list[str], kind: str) -> None:
    player = state["players"][seat]
    for c in cards:
        player["hand"].remove(c)
    player["sets"].append({"type": kind, "cards": sorted(cards)})


def sell(state: State, seat: int, card: str) -> None:
    state["players"][seat]["hand"].remove(card)
    state["players"][seat]["denarii"] += 1
    state["commerce_discard"].append(card)


def discard(state: State, seat: int, card: str) -> None:
    state["players"][seat]["hand"].remove(card)
    state["commerce_discard"].append(card)


def exchange(state: State, seat: int, count: int) -> None:
    state["players"][seat]["denarii"] -= count * BOARD["medal_exchange_denarii"]
    gain_glory(state, seat, count)
