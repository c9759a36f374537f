"""Small state changes shared by many rules: glory, votes, legions, Pantheon, cards.

They mutate the working copy that ``apply`` made; nothing here decides who acts.
The solo rival is owner ``RIVAL`` (seat 1 of a one-seat game) wherever pieces have owners.
"""

from __future__ import annotations

from typing import Any, TypedDict

from projections.games.base import Rng, State

from .content import BOARD, CHARACTERS, HAND_LIMIT, TIERS, TRACK

RIVAL = 1


class Holder(TypedDict, total=False):
    """A player's part of the state (``state["players"][seat]``, every key but the last two),
    or the solo rival's (``state["rival"]``: glory, legions, votes, vendetta, deck, discard)."""

    character: str
    denarii: int
    glory: int
    legions: int
    legion_reserve: int
    votes: int
    vote_reserve: int
    followers: int
    placed: int
    fresh: int
    vendetta: int
    tokens_used: list[str]
    plot_markers: int
    hand: list[str]
    sets: list[dict[str, Any]]  # {"type": set type, "cards": [3 card ids]}
    dealt: list[str]
    missions: list[str]
    pantheon: dict[str, dict[str, Any]]  # tier id -> {"own": pieces of one's colour, "metal": str | None}
    milestones: list[int]
    deck: list[str]
    discard: list[str]


Step = dict[str, Any]
"""One step of ``state["queue"]``: ``op`` and the fields that op reads."""


def is_rival(state: State, owner: int) -> bool:
    return state["solo"] and owner == RIVAL


def holder(state: State, owner: int) -> Holder:
    """The dict holding ``owner``'s glory, legions, votes and vendetta markers."""
    who: Holder = state["rival"] if is_rival(state, owner) else state["players"][owner]
    return who


def owners(state: State) -> list[int]:
    return list(range(state["seats"] + (1 if state["solo"] else 0)))


def gain_glory(state: State, owner: int, amount: int) -> None:
    """Glory goes up at once; a human claims every milestone now reached (digest §8.1)."""
    if amount <= 0:
        return
    who = holder(state, owner)
    who["glory"] += amount
    if is_rival(state, owner):
        return
    marks = sorted(range(len(state["milestones"])), key=lambda i: state["milestones"][i]["pos"])
    for index in marks:
        mark = state["milestones"][index]
        if index in who["milestones"] or mark["pos"] > who["glory"]:
            continue
        who["milestones"].append(index)
        if who["followers"] < BOARD["max_followers"]:
            who["followers"] += 1
            if state["phase"] == "action" and not state["options"]["new_follower_same_phase"]:
                who["fresh"] += 1
        if not mark["fixed"]:
            mark["pos"] = max(1, mark["pos"] - 1)


def lose_glory(state: State, owner: int, amount: int) -> None:
    """No loss takes anyone below the minimum of 1."""
    who = holder(state, owner)
    who["glory"] = max(BOARD["glory_minimum"], who["glory"] - amount)


def place_vote(state: State, owner: int) -> bool:
    """Put a vote on top of the Senate; True when it makes a majority (top 3 all the placer's)."""
    who = holder(state, owner)
    who["votes"] -= 1
    senate = state["senate"]
    senate.insert(0, owner)
    if len(senate) > BOARD["senate_capacity"]:
        holder(state, senate.pop())["votes"] += 1
    majority = len(senate) >= 3 and senate[0] == senate[1] == senate[2] == owner
    if majority:
        bonus = BOARD["majority_glory"]
        if not is_rival(state, owner) and state["medals"]["political"] == owner:
            bonus += BOARD["political_medal_bonus"]
        gain_glory(state, owner, bonus)
    return majority


def remove_vote(state: State, position: int) -> None:
    """Take a vote out of the column; it closes up and no majority is checked."""
    holder(state, state["senate"].pop(position))["votes"] += 1


def current_tier(player: Holder) -> str | None:
    for tier in TIERS:
        tier_id: str = tier["id"]
        if player["pantheon"][tier_id]["metal"] is None:
            return tier_id
    return None


def tier_size(tier_id: str) -> int:
    size: int = next(t["own"] for t in TIERS if t["id"] == tier_id)
    return size


def pantheon_can_grow(state: State, seat: int) -> bool:
    player = state["players"][seat]
    tier = current_tier(player)
    if tier is None:
        return False
    if player["pantheon"][tier]["own"] < tier_size(tier):
        return True
    return any(state["pantheon_supply"][tier].values())


def place_pantheon_piece(state: State, seat: int) -> bool:
    """One religious placement; True when it capped a tier with a metal piece."""
    player = state["players"][seat]
    tier = current_tier(player)
    if tier is None:
        return False
    slot = player["pantheon"][tier]
    if slot["own"] < tier_size(tier):
        slot["own"] += 1
        return False
    supply = state["pantheon_supply"][tier]
    for metal in BOARD["pantheon"]["metal_order"]:
        if supply[metal] > 0:
            supply[metal] -= 1
            slot["metal"] = metal
            return True
    return False


def pantheon_pieces(player: Holder) -> int:
    return sum(t["own"] + (1 if t["metal"] else 0) for t in player["pantheon"].values())


def active_tokens(player: Holder) -> list[str]:
    """Bonus tokens not covered: with c markers the rightmost c spaces are covered."""
    positions = CHARACTERS[player["character"]]["tokens"]
    return [t for t, pos in positions.items() if pos <= TRACK - player["vendetta"]]


def deployed(state: State, owner: int) -> int:
    return sum(counts[owner] for counts in state["areas"].values())


def draw_card(state: State, seat: int, rng: Rng) -> None:
    """Draw one commerce card (the hand has room); an empty deck reshuffles the discards."""
    if not state["commerce_deck"]:
        if not state["commerce_discard"]:
            return
        state["commerce_deck"] = rng.shuffle(state["commerce_discard"])
        state["commerce_discard"] = []
    state["players"][seat]["hand"].append(state["commerce_deck"].pop(0))


def hand_full(state: State, seat: int) -> bool:
    return len(state["players"][seat]["hand"]) >= HAND_LIMIT
