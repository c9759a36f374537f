"""Counting strength: influence in an electorate (phase V) and votes (phase VI)."""

from __future__ import annotations

from projections.games.base import State

from . import board
from .components import ELECTORATES, INFLUENCE


def influence(state: State, electorate: str) -> list[int]:
    """Influence of every seat in ``electorate``: barons 1, couples 2, knights 1, own cities 1,
    empire cities 1 for the emperor, a gray eminence 1; the elector counts if the option says so."""
    totals = [0] * state["seats"]
    area = state["electorates"][electorate]
    pieces = list(area["nobles"])
    if state["options"]["elector_counts_for_influence"]:
        pieces.append(area["elector"])
    for slot in pieces:
        if board.is_knight(slot):
            totals[slot["owner"]] += INFLUENCE["knight"]
        elif slot is not None:
            totals[slot["owner"]] += INFLUENCE["couple" if slot["couple"] else "baron"]
    for owner in area["castles"]:
        if owner is not None:
            totals[owner] += INFLUENCE["knight"]
    for city in area["cities"]:
        if city == "empire":
            totals[state["emperor"]] += INFLUENCE["empire_city"]
        elif city is not None:
            totals[city] += INFLUENCE["city"]
    for eminence in state["gray_eminences"]:
        if eminence["electorate"] == electorate:
            totals[eminence["owner"]] += INFLUENCE["gray_eminence"]
    return totals


def card_holder(state: State, card: str) -> int | None:
    for seat, player in enumerate(state["players"]):
        if card in player["display"]:
            return seat
    return None


def votes(state: State) -> list[int]:
    """Votes per seat: electors (Bohemia 2) unless excommunicated, the Pope +1, and Church
    Influence: +1 per noble and knight of the named archdiocese's elector colour there."""
    totals = [0] * state["seats"]
    banned = state["targets"]["excommunication"]
    for electorate in board.in_play(state):
        owner = board.elector_owner(state, electorate)
        if owner is not None and electorate != banned:
            totals[owner] += ELECTORATES[electorate]["votes"]
    pope = card_holder(state, "pope")
    if pope is not None:
        totals[pope] += 1
    church = state["targets"]["church_influence"]
    if church is not None:
        owner = board.elector_owner(state, church)
        if owner is not None:
            area = state["electorates"][church]
            totals[owner] += sum(1 for slot in area["nobles"] if slot is not None and slot["owner"] == owner)
            totals[owner] += sum(1 for slot in area["castles"] if slot == owner)
    return totals
