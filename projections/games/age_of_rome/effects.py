"""Small state changes shared by many rules: glory, votes, legions, Pantheon, cards.

They mutate the working copy that ``apply`` made; nothing here decides who acts.
The solo rival is owner ``RIVAL`` (seat 1 of a one-seat game) wherever pieces have owners.
"""

from __future__ import annotations

from .content import BOARD, CHARACTERS, HAND_LIMIT, TIERS, TRACK

RIVAL = 1


def is_rival(state: dict, owner: int) -> bool:
    return state["solo"] and owner == RIVAL


def holder(state: dict, owner: int) -> dict:
    """The dict holding ``owner``'s glory, legions, votes and vendetta markers."""
    return state["rival"] if is_rival(state, owner) else state["players"][owner]


def owners(state: dict) -> list[int]:
    return list(range(state["seats"] + (1 if state["solo"] else 0)))


def gain_glory(state: dict, owner: int, amount: int) -> None:
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


def lose_glory(state: dict, owner: int, amount: int) -> None:
    """No loss takes anyone below the minimum of 1."""
    who = holder(state, owner)
    who["glory"] = max(BOARD["glory_minimum"], who["glory"] - amount)


def place_vote(state: dict, owner: int) -> bool:
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


def remove_vote(state: dict, position: int) -> None:
    """Take a vote out of the column; it closes up and no majority is checked."""
    holder(state, state["senate"].pop(position))["votes"] += 1


def current_tier(player: dict) -> str | None:
    for tier in TIERS:
        if player["pantheon"][tier["id"]]["metal"] is None:
            return tier["id"]
    return None


def tier_size(tier_id: str) -> int:
    return next(t["own"] for t in TIERS if t["id"] == tier_id)


def pantheon_can_grow(state: dict, seat: int) -> bool:
    player = state["players"][seat]
    tier = current_tier(player)
    if tier is None:
        return False
    if player["pantheon"][tier]["own"] < tier_size(tier):
        return True
    return any(state["pantheon_supply"][tier].values())


def place_pantheon_piece(state: dict, seat: int) -> bool:
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


def pantheon_pieces(player: dict) -> int:
    return sum(t["own"] + (1 if t["metal"] else 0) for t in player["pantheon"].values())


def active_tokens(player: dict) -> list[str]:
    """Bonus tokens not covered: with c markers the rightmost c spaces are covered."""
    positions = CHARACTERS[player["character"]]["tokens"]
    return [t for t, pos in positions.items() if pos <= TRACK - player["vendetta"]]


def deployed(state: dict, owner: int) -> int:
    return sum(counts[owner] for counts in state["areas"].values())


def draw_card(state: dict, seat: int, rng) -> None:
    """Draw one commerce card (the hand has room); an empty deck reshuffles the discards."""
    if not state["commerce_deck"]:
        if not state["commerce_discard"]:
            return
        state["commerce_deck"] = rng.shuffle(state["commerce_discard"])
        state["commerce_discard"] = []
    state["players"][seat]["hand"].append(state["commerce_deck"].pop(0))


def hand_full(state: dict, seat: int) -> bool:
    return len(state["players"][seat]["hand"]) >= HAND_LIMIT
