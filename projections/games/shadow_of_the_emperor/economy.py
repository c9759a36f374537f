"""Thalers and victory points: every gain passes through here so the cap is applied once."""

from __future__ import annotations

from projections.games.base import State

from . import board
from .components import BASE_INCOME, SAXONY_BONUS, THALER_CAP


def gain_thalers(state: State, seat: int, amount: int) -> None:
    """Add thalers; the track ends at 12 and any excess is lost (the digest caps every gain)."""
    player = state["players"][seat]
    total = player["thalers"] + amount
    if state["options"]["cap_every_gain"]:
        total = min(THALER_CAP, total)
    player["thalers"] = total


def pay(state: State, seat: int, amount: int) -> None:
    state["players"][seat]["thalers"] -= amount


def gain_vp(state: State, seat: int, amount: int) -> None:
    state["players"][seat]["vp"] += amount


def income(state: State, seat: int) -> int:
    """6, +1 per own city, +1 per other player's city where ``seat`` holds the elector,
    +2 for the Saxony elector; empire cities pay nobody."""
    total = BASE_INCOME
    for electorate in board.in_play(state):
        holder = board.elector_owner(state, electorate)
        for city in state["electorates"][electorate]["cities"]:
            if city == seat:
                total += 1
            elif isinstance(city, int) and holder == seat:
                total += 1
    if board.elector_owner(state, "sachsen") == seat:
        total += SAXONY_BONUS
    return total


def collect_income(state: State) -> None:
    """Phase I: everyone's income is worked out first, then added; the 12 cap always applies here."""
    amounts = [income(state, seat) for seat in range(state["seats"])]
    for player, amount in zip(state["players"], amounts):
        player["thalers"] = min(THALER_CAP, player["thalers"] + amount)
