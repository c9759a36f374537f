"""Event conditions (digest §7.1, metric vocabulary): who has the most or the fewest."""

from __future__ import annotations

from typing import Any

from projections.games.base import State

from . import solo
from .content import is_anchor
from .effects import active_tokens, deployed, holder, pantheon_pieces
from .table import faced


def metric(state: State, owner: int, name: str) -> int:
    """An event condition's measure for ``owner`` (digest's metric vocabulary)."""
    who = holder(state, owner)
    if name == "denarii":
        return who["denarii"]
    if name == "glory":
        return who["glory"]
    if name == "legions_deployed":
        return deployed(state, owner)
    if name.startswith("legions_in_area:"):
        in_area: int = state["areas"][name.split(":", 1)[1]][owner]
        return in_area
    if name == "legions_in_supply":
        return who["legions"]
    if name == "votes_in_senate":
        votes: int = state["senate"].count(owner)
        return votes
    if name == "vendetta_markers_on_track":
        return who["vendetta"]
    if name == "pantheon_pieces":
        return pantheon_pieces(who)
    if name == "hand_commerce_cards":
        return sum(1 for c in who["hand"] if not is_anchor(c))
    if name == "followers":
        return who["followers"]
    if name == "population_of_faced_province":
        population: int = state["provinces"][faced(state, owner)]["population"]
        return population
    if name == "active_bonus_tokens":
        return len(active_tokens(who))
    if name == "medals":
        return sum(1 for h in state["medals"].values() if h == owner)
    raise ValueError(f"unknown metric {name}")


def qualifiers(state: State, card: dict[str, Any]) -> list[int]:
    """Seats meeting the event's condition, ties included, in turn order (snapshot first)."""
    name, compare = card["condition"]["metric"], card["condition"]["compare"]
    values = {seat: metric(state, seat, name) for seat in range(state["seats"])}
    pool = list(values.values())
    if state["solo"] and solo.rival_compared(name):
        pool.append(metric(state, solo.RIVAL, name))
    best = max(pool) if compare == "most" else min(pool)
    return [seat for seat in state["turn_order"] if values[seat] == best]
