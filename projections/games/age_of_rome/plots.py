"""Plots: which markers can be launched, against whom, and what each plot action does (digest §8.4)."""

from __future__ import annotations

from typing import Any, cast

from projections.games.base import Rng, State

from .content import AREAS, CHARACTERS, HAND_LIMIT, RING, SOLO, TRACK, is_anchor
from .effects import Holder, Step, current_tier, deployed, gain_glory, holder, is_rival, lose_glory, owners, remove_vote
from .table import facing_owner


def victims(state: State, seat: int, target: int) -> list[int]:
    """Who a plot action may hit: the plot's target by default (option ``plot_action_target``)."""
    if state["options"]["plot_action_target"] == "plot_target":
        return [target]
    return [o for o in owners(state) if o != seat]


def action_legal(state: State, seat: int, action: str, victim: int) -> bool:
    """A plot action is legal only if it would have an effect."""
    rival = is_rival(state, victim)
    if rival and action not in SOLO["plot_actions_affecting_rival"]:
        return False
    me, them = state["players"][seat], holder(state, victim)
    if action == "disrupt":
        return them["glory"] >= 2
    if action == "sabotage":
        tier = current_tier(them)
        return tier is not None and them["pantheon"][tier]["own"] > 0
    if action in ("defect", "lure"):
        return deployed(state, victim) > 0
    if action == "revote":
        return victim in state["senate"] and me["votes"] > 0
    if action == "void_vote":
        return victim in state["senate"]
    if action == "sell_off":
        return bool(_stealable(state, them))
    if action == "tariff":
        return bool(_stealable(state, them)) and len(me["hand"]) < HAND_LIMIT
    return False


def _stealable(state: State, victim: Holder) -> list[str]:
    if state["options"]["anchors_stealable"]:
        return list(victim["hand"])
    return [c for c in victim["hand"] if not is_anchor(c)]


def launch_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Every ``launch_plot`` payload open to ``seat`` now."""
    me = state["players"][seat]
    if me["vendetta"] == 0:
        return []
    out = []
    for province in RING:
        for space, marker in enumerate(state["provinces"][province]["plots"]):
            if not marker or marker["owner"] != seat or not marker["up"]:
                continue
            target = facing_owner(state, province)
            if target is None or target == seat or holder(state, target)["vendetta"] >= TRACK:
                continue
            for action in CHARACTERS[me["character"]]["plot_actions"]:
                for victim in victims(state, seat, target):
                    if action_legal(state, seat, action, victim):
                        out.append({"province": province, "space": space, "action": action, "victim": victim})
    return out


def plot_effect(state: State, step: Step, rng: Rng) -> list[Step]:
    """Carry out the plot action; actions with parameters become a further decision."""
    seat, victim, action = step["seat"], step["victim"], step["action"]
    if not action_legal(state, seat, action, victim):
        return []  # the reaction window emptied the hand the action needed
    if action == "disrupt":
        lose_glory(state, victim, 1)
    elif action == "sabotage":
        them = holder(state, victim)
        them["pantheon"][cast(str, current_tier(them))]["own"] -= 1  # action_legal: a tier is unfinished
    elif action in ("defect", "pick_vote", "revote", "void_vote", "lure"):
        op = {"defect": "defect", "lure": "lure"}.get(action, "pick_vote")
        return [{"op": op, "seat": seat, "victim": victim, "action": action, "moved": 0}]
    elif action in ("sell_off", "tariff"):
        them = holder(state, victim)
        pool = _stealable(state, them)
        card = pool[rng.randbelow(len(pool))]
        them["hand"].remove(card)
        if action == "tariff":
            state["players"][seat]["hand"].append(card)
        else:
            state["players"][seat]["denarii"] += 2
            (state["removed_cards"] if is_anchor(card) else state["commerce_discard"]).append(card)
    return []


def choice_possible(state: State, step: Step) -> bool:
    victim = step["victim"]
    if step["op"] == "pick_vote":
        return victim in state["senate"]
    if step["op"] == "lure" and step["moved"] >= state["options"]["lure_max_legions"]:
        return False
    return deployed(state, victim) > 0


def choices(state: State, step: Step) -> list[tuple[str, dict[str, Any]]]:
    """(action type, payload) for the plot's follow-up decision."""
    seat, victim = step["seat"], step["victim"]
    held = [a for a in AREAS if state["areas"][a][victim] > 0]
    if step["op"] == "defect":
        modes = ["remove", "replace"] if state["players"][seat]["legions"] > 0 else ["remove"]
        return [("defect", {"area": a, "mode": m}) for a in held for m in modes]
    if step["op"] == "lure":
        out = [("lure_move", {"from": a, "to": b}) for a in held for b in AREAS if b != a]
        return out + ([("end_lure", {})] if step["moved"] >= 1 else [])
    return [("pick_vote", {"position": i}) for i, o in enumerate(state["senate"]) if o == victim]


def resolve_choice(state: State, step: Step, kind: str, payload: dict[str, Any]) -> list[Step]:
    """Apply a validated follow-up choice; returns the steps replacing the waiting one."""
    seat, victim = step["seat"], step["victim"]
    if kind == "defect":
        area = payload["area"]
        state["areas"][area][victim] -= 1
        holder(state, victim)["legions"] += 1
        if payload["mode"] == "replace":
            state["players"][seat]["legions"] -= 1
            state["areas"][area][seat] += 1
        return []
    if kind == "lure_move":
        state["areas"][payload["from"]][victim] -= 1
        state["areas"][payload["to"]][victim] += 1
        return [dict(step, moved=step["moved"] + 1)]
    if kind == "end_lure":
        return []
    remove_vote(state, payload["position"])
    if step["action"] == "revote":
        return [{"op": "vote", "seat": seat}]
    gain_glory(state, seat, 1)
    return []
