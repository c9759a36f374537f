"""Apply a checked action to the working copy: each action type's effect on the state.

``legal.check`` has already refused anything illegal, so nothing here validates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from projections.games.base import Rng, State

from . import cards, plots, solo, versions
from .content import BOARD, build_cost, double_tax_penalty
from .effects import Step, draw_card, gain_glory, holder
from .flow import Steps, pantheon_piece_placed, resolve, vote_placed, window
from .legal import FREE, Payload, window_of
from .table import faced, facing_owner


def perform(state: State, seat: int | None, kind: str, payload: Payload, step: Step, rng: Rng) -> None:
    # the checks let the system actor (None) post only ``rival_card``, whose effect reads no seat
    seat = cast(int, seat)
    if kind in FREE:
        if kind == "sell_card":
            cards.sell(state, seat, payload["card"])
        elif kind == "discard_card":
            cards.discard(state, seat, payload["card"])
        elif kind == "form_set":
            cards.form_set(state, seat, payload["cards"], payload["as_type"])
        else:
            cards.exchange(state, seat, payload["count"])
        return
    PERFORM[kind](state, seat, payload, step, rng)


def _keep(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    player = state["players"][seat]
    player["missions"] = sorted(payload["keep"])
    back = [m for m in player["dealt"] if m not in payload["keep"]]
    state["mission_deck"] = state["mission_deck"] + back
    player["dealt"] = []
    state["queue"][0] = dict(step, waiting=[s for s in step["waiting"] if s != seat])


def _deploy(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    state["players"][seat]["legions"] -= 1
    state["areas"][payload["area"]][seat] += 1
    resolve(state, [])


def _launch(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    marker = state["provinces"][payload["province"]]["plots"][payload["space"]]
    marker["up"] = False
    target = cast(int, facing_owner(state, payload["province"]))  # checked: someone faces it
    state["players"][seat]["vendetta"] -= 1
    holder(state, target)["vendetta"] += 1
    steps: Steps = []
    if not (state["solo"] and target == solo.RIVAL):
        steps.append(window(target, "on_targeted_by_plot", launcher=seat))
    steps.append({"op": "plot_effect", "seat": seat, "action": payload["action"], "victim": payload["victim"]})
    steps.append(window(seat, "on_launch_plot", victim=payload["victim"]))
    state["queue"] = steps + state["queue"]


def _end_turn(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    resolve(state, [])


def _build(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    t = payload["building"]
    name = faced(state, seat)
    province = state["provinces"][name]
    level = province["levels"][t] + 1
    cost, glory = build_cost(name, t, level)
    player = state["players"][seat]
    player["denarii"] -= cost
    province["levels"][t] = level
    province["population"] = min(BOARD["max_population"], province["population"] + 1)
    state["tiles"][t][level - 1] -= 1
    gain_glory(state, seat, glory)
    if level == 3 and state["medals"][t] is None:
        state["medals"][t] = seat
    state["queue"] = [window(seat, "on_build", {"tile_type": t})] + state["queue"]


def _place(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    player = state["players"][seat]
    player["placed"] += 1
    province = state["provinces"][faced(state, seat)]
    location = payload["location"]
    if location == "colosseum":
        state["colosseum"].append(seat)
        count = len(state["colosseum"]) - (0 if state["options"]["colosseum_counts_new_follower"] else 1)
        gain_glory(state, seat, count)
        resolve(state, [window(seat, "on_place_colosseum")])
        return
    if location.startswith("plot:"):
        index = int(location.split(":")[1])
        player["plot_markers"] -= 1
        province["plots"][index] = {"owner": seat, "up": True, "follower": True}
        resolve(state, [window(seat, "on_place_plot")])
        return
    t = location.split(":")[1]
    province["followers"][t].append(seat)
    times = 1
    if payload.get("use_token"):
        player["tokens_used"].append(t)
        times = 2
    # rules version 3: each building action is the player's to take or decline (能)
    may = {"optional": True} if versions.version(state) >= versions.BUILDING_ACTIONS_MAY_BE_DECLINED else {}
    if t == "military":
        steps = [{"op": "legion_move", "seat": seat, **may}] * times
    elif t == "political":
        steps = [{"op": "vote", "seat": seat, **may}] * times
    elif t == "commercial":
        steps = [{"op": "draw", "seat": seat, **may}] * times
    elif t == "religious":
        steps = [{"op": "pantheon", "seat": seat, **may}]
    else:
        income = BOARD["agriculture_income_by_round"][state["round"] - 1]
        if state["medals"]["agricultural"] == seat:
            income += BOARD["agricultural_medal_bonus"]
        steps = [{"op": "denarii", "seat": seat, "n": income}]
    resolve(state, steps + [window(seat, "on_place_building", {"building_type": t})])


def _move(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    if payload["from"] == "supply":
        state["players"][seat]["legions"] -= 1
    else:
        state["areas"][payload["from"]][seat] -= 1
    state["areas"][payload["to"]][seat] += 1
    resolve(state, [])


def _place_vote(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    resolve(state, vote_placed(state, seat))


def _draw_card(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    draw_card(state, seat, rng)
    resolve(state, [])


def _place_pantheon_piece(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    resolve(state, pantheon_piece_placed(state, seat))


def _plot_choice(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    kind = {"defect": "defect", "lure": "lure_move", "pick_vote": "pick_vote"}[step["op"]]
    if not payload and step["op"] == "lure":
        kind = "end_lure"
    resolve(state, plots.resolve_choice(state, step, kind, payload))


def _play(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    cards.play(state, window_of(state, step), payload["card"])


def _tax(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    player = state["players"][seat]
    population = state["provinces"][faced(state, seat)]["population"]
    if payload["mode"] == "double":
        player["denarii"] += 2 * population
        player["glory"] -= double_tax_penalty(population)
    else:
        player["denarii"] += population
    resolve(state, [window(seat, "on_tax", {"mode": payload["mode"]})])


def _rival(state: State, seat: int, payload: Payload, step: Step, rng: Rng) -> None:
    solo.play_card(state, rng)
    resolve(state, [dict(step, left=step["left"] - 1)])


PERFORM: dict[str, Callable[[State, int, Payload, Step, Rng], None]] = {
    "keep_missions": _keep,
    "deploy_legion": _deploy,
    "launch_plot": _launch,
    "end_plot_turn": _end_turn,
    "build": _build,
    "end_build_turn": _end_turn,
    "place_follower": _place,
    "move_legion": _move,
    "decline_legion_move": _end_turn,
    "place_vote": _place_vote,
    "decline_vote": _end_turn,
    "draw_card": _draw_card,
    "place_pantheon_piece": _place_pantheon_piece,
    "decline_pantheon_piece": _end_turn,
    "defect": _plot_choice,
    "lure_move": _plot_choice,
    "end_lure": _plot_choice,
    "pick_vote": _plot_choice,
    "play_card": _play,
    "pass": _end_turn,
    "forfeit_draw": _end_turn,
    "tax": _tax,
    "rival_card": _rival,
}
