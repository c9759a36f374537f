"""Apply a checked action to the working copy: each action type's effect on the state.

``legal.check`` has already refused anything illegal, so nothing here validates.
"""

from __future__ import annotations

from . import cards, plots, solo
from .content import BOARD, build_cost, double_tax_penalty
from .effects import gain_glory, holder
from .flow import resolve, window
from .legal import FREE, window_of
from .table import faced, facing_owner


def perform(state: dict, seat, kind: str, payload: dict, step: dict, rng) -> None:
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


def _keep(state, seat, payload, step, rng):
    player = state["players"][seat]
    player["missions"] = sorted(payload["keep"])
    back = [m for m in player["dealt"] if m not in payload["keep"]]
    state["mission_deck"] = state["mission_deck"] + back
    player["dealt"] = []
    state["queue"][0] = dict(step, waiting=[s for s in step["waiting"] if s != seat])


def _deploy(state, seat, payload, step, rng):
    state["players"][seat]["legions"] -= 1
    state["areas"][payload["area"]][seat] += 1
    resolve(state, [])


def _launch(state, seat, payload, step, rng):
    marker = state["provinces"][payload["province"]]["plots"][payload["space"]]
    marker["up"] = False
    target = facing_owner(state, payload["province"])
    state["players"][seat]["vendetta"] -= 1
    holder(state, target)["vendetta"] += 1
    steps = []
    if not (state["solo"] and target == solo.RIVAL):
        steps.append(window(target, "on_targeted_by_plot", launcher=seat))
    steps.append({"op": "plot_effect", "seat": seat, "action": payload["action"], "victim": payload["victim"]})
    steps.append(window(seat, "on_launch_plot", victim=payload["victim"]))
    state["queue"] = steps + state["queue"]


def _end_turn(state, seat, payload, step, rng):
    resolve(state, [])


def _build(state, seat, payload, step, rng):
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


def _place(state, seat, payload, step, rng):
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
    if t == "military":
        steps = [{"op": "legion_move", "seat": seat}] * times
    elif t == "political":
        steps = [{"op": "vote", "seat": seat}] * times
    elif t == "commercial":
        steps = [{"op": "draw", "seat": seat}] * times
    elif t == "religious":
        steps = [{"op": "pantheon", "seat": seat}]
    else:
        income = BOARD["agriculture_income_by_round"][state["round"] - 1]
        if state["medals"]["agricultural"] == seat:
            income += BOARD["agricultural_medal_bonus"]
        steps = [{"op": "denarii", "seat": seat, "n": income}]
    resolve(state, steps + [window(seat, "on_place_building", {"building_type": t})])


def _move(state, seat, payload, step, rng):
    if payload["from"] == "supply":
        state["players"][seat]["legions"] -= 1
    else:
        state["areas"][payload["from"]][seat] -= 1
    state["areas"][payload["to"]][seat] += 1
    resolve(state, [])


def _plot_choice(state, seat, payload, step, rng):
    kind = {"defect": "defect", "lure": "lure_move", "pick_vote": "pick_vote"}[step["op"]]
    if not payload and step["op"] == "lure":
        kind = "end_lure"
    resolve(state, plots.resolve_choice(state, step, kind, payload))


def _play(state, seat, payload, step, rng):
    cards.play(state, window_of(state, step), payload["card"])


def _tax(state, seat, payload, step, rng):
    player = state["players"][seat]
    population = state["provinces"][faced(state, seat)]["population"]
    if payload["mode"] == "double":
        player["denarii"] += 2 * population
        player["glory"] -= double_tax_penalty(population)
    else:
        player["denarii"] += population
    resolve(state, [window(seat, "on_tax", {"mode": payload["mode"]})])


def _rival(state, seat, payload, step, rng):
    solo.play_card(state, rng)
    resolve(state, [dict(step, left=step["left"] - 1)])


PERFORM = {
    "keep_missions": _keep,
    "deploy_legion": _deploy,
    "launch_plot": _launch,
    "end_plot_turn": _end_turn,
    "build": _build,
    "end_build_turn": _end_turn,
    "place_follower": _place,
    "move_legion": _move,
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
