"""Final scoring (digest §9): track glory, battle areas, Senate, sets, Pantheon, missions, denarii."""

from __future__ import annotations

from typing import Any

from projections.games.base import Result, State, ranking_from

from . import solo
from .content import AREA, AREAS, BOARD, MISSIONS, is_anchor
from .effects import RIVAL, Holder, active_tokens, deployed, holder, owners

PANTHEON_POINTS: dict[str, int] = BOARD["pantheon"]["points"]


def area_awards(state: State, area: str) -> tuple[dict[int, int], list[int]]:
    """(glory per owner, owners taking the 1st-place reward) for one battle area (§8.6)."""
    spec = AREA[area]
    counts = {o: state["areas"][area][o] for o in owners(state) if state["areas"][area][o] > 0}
    if sum(counts.values()) < spec["minimum"]:
        return {}, []
    groups = [[o for o in counts if counts[o] == v] for v in sorted(set(counts.values()), reverse=True)]
    dense = state["options"]["battle_ranking"] == "dense"
    medal = state["medals"]["military"]
    awards: dict[int, int] = {}
    firsts: list[int] = []
    rank = 1
    for group in groups:
        if rank > 2:
            break
        reward = spec["first"] if rank == 1 else spec["second"]
        if len(group) == 1:
            awards[group[0]] = reward
            if rank == 1:
                firsts.append(group[0])
        elif medal in group:
            awards[medal] = reward
            if rank == 1:
                firsts.append(medal)
                for other in group:
                    if other != medal:
                        awards[other] = spec["second"]
                break
        rank += 1 if dense else len(group)
    return awards, firsts


def senate_points(state: State) -> dict[int, int]:
    out: dict[int, int] = {}
    for owner, points in zip(state["senate"], BOARD["senate_points_top_to_bottom"]):
        out[owner] = out.get(owner, 0) + points
    return out


def pantheon_points(player: Holder) -> int:
    total = 0
    for tier in player["pantheon"].values():
        total += tier["own"] * PANTHEON_POINTS["own"] + (PANTHEON_POINTS[tier["metal"]] if tier["metal"] else 0)
    return total


def mission_metric(state: State, owner: int, name: str, firsts: dict[int, int]) -> int:
    who = holder(state, owner)
    rival = state["solo"] and owner == RIVAL
    if name == "votes_in_senate":
        votes: int = state["senate"].count(owner)
        return votes
    if name == "legions_deployed":
        return deployed(state, owner)
    if name == "vendetta_markers":
        return who["vendetta"]
    if rival:
        return 0
    if name == "first_places":
        return firsts.get(owner, 0)
    if name == "areas_with_legion":
        return sum(1 for a in AREAS if state["areas"][a][owner] > 0)
    if name == "areas_with_two_legions":
        return sum(1 for a in AREAS if state["areas"][a][owner] >= 2)
    if name == "legions_in_conquered_areas":
        return sum(state["areas"][a][owner] for a in AREAS if sum(state["areas"][a]) >= AREA[a]["minimum"])
    if name == "pantheon_tiers_complete":
        return sum(1 for t in who["pantheon"].values() if t["metal"])
    if name == "pantheon_pieces":
        return sum(t["own"] + (1 if t["metal"] else 0) for t in who["pantheon"].values())
    if name == "sets":
        return len(who["sets"])
    if name == "medals":
        return sum(1 for h in state["medals"].values() if h == owner)
    if name == "denarii":
        return who["denarii"]
    if name == "denarii_fives":
        return who["denarii"] // 5
    if name == "followers":
        return who["followers"]
    if name == "active_tokens":
        return len(active_tokens(who))
    if name == "senate_bottom_of_full_column":
        full = len(state["senate"]) == BOARD["senate_capacity"]
        return 1 if full and state["senate"][-1] == owner else 0
    if name == "hand_cards":
        return sum(1 for c in who["hand"] if not is_anchor(c))
    raise ValueError(f"unknown mission metric {name}")


def mission_glory(state: State, seat: int, mission_id: str, firsts: dict[int, int]) -> int:
    card = MISSIONS[mission_id]
    test = card["test"]
    if card["kind"] == "scaled":
        scaled: int = min(card["max"], card["per_unit"] * mission_metric(state, seat, test["metric"], firsts))
        return scaled
    if "all_of" in test:
        met = all(mission_metric(state, seat, t["metric"], firsts) >= t["at_least"] for t in test["all_of"])
    elif "compare" in test:
        rivals = [o for o in owners(state) if o < state["seats"] or solo.rival_compared(test["metric"])]
        values = [mission_metric(state, o, test["metric"], firsts) for o in rivals]
        mine = mission_metric(state, seat, test["metric"], firsts)
        met = mine == (max(values) if test["compare"] == "most" else min(values))
    else:
        met = mission_metric(state, seat, test["metric"], firsts) >= test["at_least"]
    return card["glory"] if met else 0


def breakdown(state: State) -> dict[str, dict[str, Any]]:
    """Score lines per owner (the rival included in solo)."""
    areas: dict[int, int] = {}
    firsts: dict[int, int] = {}
    for a in AREAS:
        awards, first = area_awards(state, a)
        for o, g in awards.items():
            areas[o] = areas.get(o, 0) + g
        for o in first:
            firsts[o] = firsts.get(o, 0) + 1
    senate = senate_points(state)
    out = {}
    for o in owners(state):
        who = holder(state, o)
        line: dict[str, Any] = {  # glory per source, and "missions" as {mission: glory}
            "track": who["glory"],
            "areas": areas.get(o, 0),
            "senate": senate.get(o, 0),
        }
        if o < state["seats"]:
            rate = (
                BOARD["denarii_per_glory_religious_medal"]
                if state["medals"]["religious"] == o
                else BOARD["denarii_per_glory"]
            )
            line["sets"] = sum(BOARD["commerce_set_glory"][s["type"]] for s in who["sets"])
            line["pantheon"] = pantheon_points(who)
            line["missions"] = {m: mission_glory(state, o, m, firsts) for m in who["missions"]}
            line["denarii"] = who["denarii"] // rate
        line["total"] = sum(v if isinstance(v, int) else sum(v.values()) for v in line.values())
        out[str(o)] = line
    return out


def final_result(state: State) -> Result:
    lines = breakdown(state)
    seats = range(state["seats"])
    scores = [lines[str(s)]["total"] for s in seats]
    if state["solo"]:
        rival = lines[str(RIVAL)]["total"]
        return {
            "scores": scores,
            "ranking": [1],
            "tiebreak": None,
            "breakdown": lines,
            "solo": {"rival_score": rival, "won": scores[0] > rival, "title": solo.title(scores[0])},
        }
    keys = [(scores[s], state["players"][s]["denarii"]) for s in seats]
    ranking = ranking_from(keys)
    used = len(set(scores)) != len(scores) and ranking != ranking_from(scores)
    return {
        "scores": scores,
        "ranking": ranking,
        "tiebreak": "most denarii held" if used else None,
        "breakdown": lines,
    }
