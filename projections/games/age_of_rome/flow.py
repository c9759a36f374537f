"""The round machine: a queue of steps run until a decision is needed.

Every step is a small dict at the front of ``state["queue"]``. A handler either
resolves it (returning the steps that replace it, possibly none) or returns ``WAIT``:
then the game waits for the decision the step stands for (a seat's action, or the
solo rival's system move). Actions resolve the waiting step and call ``run`` again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from projections.games.base import Rng, State

from . import solo, versions
from .conditions import qualifiers
from .content import AREAS, BOARD, EVENTS, TYPES, build_cost
from .effects import (
    Holder,
    Step,
    draw_card,
    gain_glory,
    hand_full,
    lose_glory,
    pantheon_can_grow,
    place_pantheon_piece,
    place_vote,
)
from .plots import choice_possible, launch_options, plot_effect
from .scoring import final_result
from .table import faced, order_from, rotate, start_player

WAIT = None
Steps = list[Step]
Handler = Callable[[State, Step, Rng], "Steps | None"]
"""A step's handler: the steps replacing it, or ``WAIT`` (None) for a decision."""


def run(state: State, rng: Rng) -> None:
    while state["queue"] and state["result"] is None:
        step = state["queue"][0]
        out = HANDLERS[step["op"]](state, step, rng)
        if out is WAIT:
            return
        state["queue"] = out + state["queue"][1:]


def resolve(state: State, steps: Steps) -> None:
    """Replace the waiting step at the front with ``steps``."""
    state["queue"] = steps + state["queue"][1:]


def window(seat: int, trigger: str, flt: dict[str, Any] | None = None, **extra: Any) -> Step:
    """A trigger point at which ``seat`` may play commerce cards (digest §8.8)."""
    return {"op": "window", "seat": seat, "trigger": trigger, "filter": flt or {}, **extra}


# -- effects of cards and events as steps -----------------------------------------------
def effect_steps(seat: int, effect: dict[str, Any], ctx: dict[str, Any] | None = None) -> Steps:
    kind, n = effect["effect"], effect.get("amount", 1)
    if kind == "gain_denarii":
        return [{"op": "denarii", "seat": seat, "n": n}]
    if kind == "gain_glory":
        return [{"op": "glory", "seat": seat, "n": n}]
    if kind in ("draw_commerce", "extra_draws"):
        return [{"op": "draw", "seat": seat}] * n
    if kind == "deploy_legions":
        return [{"op": "deploy", "seat": seat, "area": effect.get("area", "any")}] * n
    if kind == "extra_legion_moves":
        return [{"op": "legion_move", "seat": seat}] * n
    if kind in ("place_votes", "extra_votes"):
        return [{"op": "vote", "seat": seat}] * n
    if kind in ("place_pantheon_pieces", "extra_pantheon_pieces"):
        return [{"op": "pantheon", "seat": seat}] * n
    if kind == "gain_legions_from_reserve":
        return [{"op": "reserve_legion", "seat": seat}] * n
    if kind == "return_vendetta_markers":
        return [{"op": "vendetta_return", "seat": seat}] * n
    if kind == "target_loses_glory":
        return [{"op": "lose_glory", "owner": (ctx or {})["victim"], "n": n}]
    if kind == "cancel_plot_action":
        return [{"op": "cancel_plot"}]
    raise ValueError(f"unknown effect {kind}")


def bonus_possible(state: State, seat: int, effect: dict[str, Any]) -> bool:
    """Whether an event bonus can be received; if not the card's fallback applies."""
    player: Holder = state["players"][seat]
    kind = effect["effect"]
    if kind == "deploy_legions":
        return player["legions"] > 0
    if kind == "place_votes":
        return player["votes"] > 0
    if kind == "place_pantheon_pieces":
        return pantheon_can_grow(state, seat)
    if kind == "gain_legions_from_reserve":
        return player["legion_reserve"] > 0
    if kind == "return_vendetta_markers":
        return player["vendetta"] > 0
    return True


# -- handlers ----------------------------------------------------------------------------
def _round_start(state: State, step: Step, rng: Rng) -> Steps | None:
    card_id = state["event_deck"].pop(0)
    if state["event"]:
        state["events_done"].append(state["event"])
    state["event"] = card_id
    card = EVENTS[card_id]
    state["direction"] = card["direction"]
    first = start_player(state, card["direction"])
    state["turn_order"] = order_from(state, first, card["direction"])
    state["phase"] = "event"
    steps = [{"op": "event_bonus", "seat": seat} for seat in qualifiers(state, card)]
    if state["round"] > 1:
        steps.append({"op": "phase", "name": "plot"})
    return steps + [{"op": "phase", "name": n} for n in ("build", "action", "income")] + [{"op": "round_end"}]


def plot_order(state: State) -> list[int]:
    if state["options"]["plot_launch_order"] == "turn_order":
        return list(state["turn_order"])
    return order_from(state, state["turn_order"][0], "cw")


def _phase(state: State, step: Step, rng: Rng) -> Steps | None:
    name = step["name"]
    state["phase"] = name
    if name == "plot":
        return [{"op": "plot_turn", "seat": s} for s in plot_order(state)]
    if name == "build":
        return [{"op": "build_turn", "seat": s} for s in state["turn_order"]]
    if name == "action":
        return [{"op": "action_next", "index": 0}]
    return [{"op": "tax", "seat": s} for s in state["turn_order"]]


def _event_bonus(state: State, step: Step, rng: Rng) -> Steps | None:
    card = EVENTS[state["event"]]
    seat = step["seat"]
    effects = card["bonus"] if all(bonus_possible(state, seat, e) for e in card["bonus"]) else card["fallback"]
    return [s for e in effects for s in effect_steps(seat, e)]


def followers_free(state: State, seat: int) -> int:
    p: Holder = state["players"][seat]
    return p["followers"] - p["placed"] - p["fresh"]


def _action_next(state: State, step: Step, rng: Rng) -> Steps | None:
    order = state["turn_order"]
    for k in range(len(order)):
        seat = order[(step["index"] + k) % len(order)]
        if followers_free(state, seat) > 0:
            return [{"op": "place", "seat": seat}, {"op": "action_next", "index": (step["index"] + k + 1) % len(order)}]
    end: Steps = [{"op": "action_end"}]
    if state["solo"]:
        end.insert(0, {"op": "rival_turn", "left": solo.actions_this_round(state)})
    return end


def _action_end(state: State, step: Step, rng: Rng) -> Steps | None:
    """Followers, used bonus tokens and launched plot markers come home (digest §7.3)."""
    for province in state["provinces"].values():
        province["followers"] = {t: [] for t in TYPES}
        for i, marker in enumerate(province["plots"]):
            if marker is not None:
                marker.pop("follower", None)
                if not marker["up"]:
                    state["players"][marker["owner"]]["plot_markers"] += 1
                    province["plots"][i] = None
    state["colosseum"] = []
    for player in state["players"]:
        player["placed"] = player["fresh"] = 0
        player["tokens_used"] = []
    return []


def _round_end(state: State, step: Step, rng: Rng) -> Steps | None:
    """The board turns as the event card shows, then the next round or final scoring
    (結束一輪遊戲); before rules version 3 the turn after round 9 was skipped."""
    card = EVENTS[state["event"]]
    if state["solo"]:
        solo.end_of_round(state)
    last = state["round"] >= BOARD["rounds"]
    if not last or versions.version(state) >= versions.BOARD_TURNS_AFTER_LAST_ROUND:
        state["orientation"] = rotate(state["orientation"], card["direction"], card["steps"])
    if last:
        return [{"op": "final"}]
    state["round"] += 1
    return [{"op": "round_start"}]


def _final(state: State, step: Step, rng: Rng) -> Steps | None:
    state["phase"] = "over"
    state["result"] = final_result(state)
    return []


def _denarii(state: State, step: Step, rng: Rng) -> Steps | None:
    state["players"][step["seat"]]["denarii"] += step["n"]
    return []


def _glory(state: State, step: Step, rng: Rng) -> Steps | None:
    gain_glory(state, step["seat"], step["n"])
    return []


def _lose_glory(state: State, step: Step, rng: Rng) -> Steps | None:
    lose_glory(state, step["owner"], step["n"])
    return []


def _reserve_legion(state: State, step: Step, rng: Rng) -> Steps | None:
    player = state["players"][step["seat"]]
    if player["legion_reserve"] > 0:
        player["legion_reserve"] -= 1
        player["legions"] += 1
    return []


def _vendetta_return(state: State, step: Step, rng: Rng) -> Steps | None:
    player = state["players"][step["seat"]]
    if player["vendetta"] > 0:
        player["vendetta"] -= 1
        state["vendetta_pool"] += 1
    return []


def _cancel_plot(state: State, step: Step, rng: Rng) -> Steps | None:
    for later in state["queue"][1:]:
        if later["op"] == "plot_effect":
            later["cancelled"] = True
            break
    return []


# A step marked ``optional`` is a building's action under rules version 3: a permission
# (能) its player takes or declines; it waits only when there is something to take.
def _vote(state: State, step: Step, rng: Rng) -> Steps | None:
    seat = step["seat"]
    if state["players"][seat]["votes"] <= 0:
        return []
    if step.get("optional"):
        return WAIT
    return vote_placed(state, seat)


def vote_placed(state: State, seat: int) -> Steps:
    """Place one vote; a majority opens its trigger window."""
    return [window(seat, "on_majority")] if place_vote(state, seat) else []


def _pantheon(state: State, step: Step, rng: Rng) -> Steps | None:
    seat = step["seat"]
    if step.get("optional"):
        return WAIT if pantheon_can_grow(state, seat) else []
    return pantheon_piece_placed(state, seat)


def pantheon_piece_placed(state: State, seat: int) -> Steps:
    """Place one Pantheon piece; completing a tier opens its trigger window."""
    return [window(seat, "on_pantheon_tier_complete")] if place_pantheon_piece(state, seat) else []


def _deploy(state: State, step: Step, rng: Rng) -> Steps | None:
    seat = step["seat"]
    if state["players"][seat]["legions"] <= 0:
        return []
    if step["area"] == "any":
        return WAIT
    state["players"][seat]["legions"] -= 1
    state["areas"][step["area"]][seat] += 1
    return []


def legion_moves(state: State, seat: int) -> list[dict[str, str]]:
    moves: list[dict[str, str]] = []
    if state["players"][seat]["legions"] > 0:
        moves += [{"from": "supply", "to": a} for a in AREAS]
    for a in AREAS:
        if state["areas"][a][seat] > 0:
            moves += [{"from": a, "to": b} for b in AREAS if b != a]
    return moves


def affordable_builds(state: State, seat: int, budget: int) -> list[str]:
    """Building types whose next level ``seat`` could pay for with ``budget`` denarii."""
    name = faced(state, seat)
    province = state["provinces"][name]
    out = []
    for t in TYPES:
        level = province["levels"][t] + 1
        if level <= 3 and state["tiles"][t][level - 1] > 0 and build_cost(name, t, level)[0] <= budget:
            out.append(t)
    return out


def _build_turn(state: State, step: Step, rng: Rng) -> Steps | None:
    """A build turn is skipped when even selling the whole hand could not pay for a tile
    (denarii and hand size are public, so skipping reveals nothing)."""
    player = state["players"][step["seat"]]
    return WAIT if affordable_builds(state, step["seat"], player["denarii"] + len(player["hand"])) else []


def _legion_move(state: State, step: Step, rng: Rng) -> Steps | None:
    return WAIT if legion_moves(state, step["seat"]) else []


def _draw(state: State, step: Step, rng: Rng) -> Steps | None:
    seat = step["seat"]
    if hand_full(state, seat):
        return WAIT
    if step.get("optional"):
        return WAIT if can_draw(state) else []
    draw_card(state, seat, rng)
    return []


def can_draw(state: State) -> bool:
    """A card is left to draw (the discards reshuffle when the deck is empty)."""
    return bool(state["commerce_deck"] or state["commerce_discard"])


def _window(state: State, step: Step, rng: Rng) -> Steps | None:
    return WAIT if state["players"][step["seat"]]["hand"] else []


def _plot_turn(state: State, step: Step, rng: Rng) -> Steps | None:
    return WAIT if launch_options(state, step["seat"]) else []


def _plot_effect(state: State, step: Step, rng: Rng) -> Steps | None:
    return [] if step.get("cancelled") else plot_effect(state, step, rng)


def _keep_missions(state: State, step: Step, rng: Rng) -> Steps | None:
    return WAIT if step["waiting"] else []


def _rival_turn(state: State, step: Step, rng: Rng) -> Steps | None:
    return WAIT if step["left"] > 0 else []


def _wait(state: State, step: Step, rng: Rng) -> Steps | None:
    return WAIT


def _plot_choice(state: State, step: Step, rng: Rng) -> Steps | None:
    return WAIT if choice_possible(state, step) else []


HANDLERS: dict[str, Handler] = {
    "round_start": _round_start,
    "phase": _phase,
    "event_bonus": _event_bonus,
    "action_next": _action_next,
    "action_end": _action_end,
    "round_end": _round_end,
    "final": _final,
    "denarii": _denarii,
    "glory": _glory,
    "lose_glory": _lose_glory,
    "reserve_legion": _reserve_legion,
    "vendetta_return": _vendetta_return,
    "cancel_plot": _cancel_plot,
    "vote": _vote,
    "pantheon": _pantheon,
    "deploy": _deploy,
    "legion_move": _legion_move,
    "draw": _draw,
    "window": _window,
    "plot_turn": _plot_turn,
    "plot_effect": _plot_effect,
    "defect": _plot_choice,
    "lure": _plot_choice,
    "pick_vote": _plot_choice,
    "keep_missions": _keep_missions,
    "rival_turn": _rival_turn,
    "build_turn": _build_turn,
    "place": _wait,
    "tax": _wait,
}
