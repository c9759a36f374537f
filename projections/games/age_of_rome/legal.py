"""Every action type: which waiting step it answers, what is offered, how it is checked.

``OFFERS`` lists the complete payloads of a type for the waiting step and
``legal_actions`` is their union. ``check`` raises ``IllegalAction`` with a specific
code for each refusal the rules name, and finally refuses anything that is not one of
the offers, so what is listed and what is accepted never disagree. ``resolve.py``
then applies the action.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, cast

from projections.games.base import Action, State, refuse

from . import cards, plots, versions
from .content import AREAS, BOARD, CHARACTERS, TOKEN_TYPES, TYPES, build_cost, double_tax_penalty, is_anchor
from .effects import Step, active_tokens, hand_full, holder
from .flow import affordable_builds, can_draw, legion_moves
from .table import faced, facing_owner

Payload = dict[str, Any]
Offers = Callable[[State, int, Step], list[Payload]]
"""Every payload of one action type open to a seat at the waiting step."""

# the step each action answers; free actions answer any own-turn step
ANSWERS = {
    "keep_missions": "keep_missions",
    "deploy_legion": "deploy",
    "launch_plot": "plot_turn",
    "end_plot_turn": "plot_turn",
    "build": "build_turn",
    "end_build_turn": "build_turn",
    "place_follower": "place",
    "move_legion": "legion_move",
    "defect": "defect",
    "lure_move": "lure",
    "end_lure": "lure",
    "pick_vote": "pick_vote",
    "play_card": "window",
    "pass": "window",
    "forfeit_draw": "draw",
    "tax": "tax",
    "rival_card": "rival_turn",
    # rules version 3: a building's action, taken or declined (offered on ``optional`` steps)
    "decline_legion_move": "legion_move",
    "place_vote": "vote",
    "decline_vote": "vote",
    "draw_card": "draw",
    "place_pantheon_piece": "pantheon",
    "decline_pantheon_piece": "pantheon",
}
FREE = ("sell_card", "discard_card", "form_set", "exchange")
OWN_TURN = ("plot_turn", "build_turn", "place", "tax", "window", "draw")


def front(state: State) -> Step | None:
    return state["queue"][0] if state["queue"] and state["result"] is None else None


def waiting_seats(state: State) -> list[int | None]:
    step = front(state)
    if step is None:
        return []
    if step["op"] == "keep_missions":
        return list(step["waiting"])
    if step["op"] == "rival_turn":
        return [None]
    return [step["seat"]]


def free_allowed(step: Step) -> bool:
    return step["op"] in OWN_TURN and step.get("trigger") != "on_targeted_by_plot"


def exchange_at_any_time(state: State, seat: int | None) -> bool:
    """Rules version 2: the religious medal's exchange is a standing interrupt of any seat
    (its holder, the checks decide), not a free action of one's own turn; ``to_act`` is
    untouched, as for every interrupt."""
    return (
        versions.version(state) >= versions.EXCHANGE_AT_ANY_TIME
        and isinstance(seat, int)
        and not isinstance(seat, bool)
        and 0 <= seat < state["seats"]
    )


def free_kinds(state: State) -> tuple[str, ...]:
    """The free actions of one's own turn under the rules version ``state`` is played under."""
    if versions.version(state) >= versions.EXCHANGE_AT_ANY_TIME:
        return tuple(k for k in FREE if k != "exchange")
    return FREE


# -- offers ------------------------------------------------------------------------------
def _mission_offers(state: State, seat: int, step: Step) -> list[Payload]:
    dealt = state["players"][seat]["dealt"]
    return [{"keep": list(pair)} for pair in combinations(dealt, 2)]


def _build_offers(state: State, seat: int, step: Step) -> list[Payload]:
    return [{"building": t} for t in affordable_builds(state, seat, state["players"][seat]["denarii"])]


def _place_offers(state: State, seat: int, step: Step) -> list[Payload]:
    player = state["players"][seat]
    name = faced(state, seat)
    province = state["provinces"][name]
    out = [{"location": "colosseum", "use_token": False}]
    tokens = [t for t in active_tokens(player) if t not in player["tokens_used"]]
    for t in TYPES:
        if province["levels"][t] > len(province["followers"][t]):
            out.append({"location": f"building:{t}", "use_token": False})
            if t in tokens:
                out.append({"location": f"building:{t}", "use_token": True})
    if player["plot_markers"] > 0:
        out += [{"location": f"plot:{i}", "use_token": False} for i, m in enumerate(province["plots"]) if m is None]
    return out


def _tax_offers(state: State, seat: int, step: Step | None) -> list[Payload]:
    player = state["players"][seat]
    population = state["provinces"][faced(state, seat)]["population"]
    modes = ["normal"]
    if player["glory"] - double_tax_penalty(population) >= BOARD["glory_minimum"]:
        modes.append("double")
    return [{"mode": m} for m in modes]


def _free_offers(kind: str) -> Offers:
    def offers(state: State, seat: int, step: Step) -> list[Payload]:
        player = state["players"][seat]
        if kind in ("sell_card", "discard_card"):
            return [{"card": c} for c in cards.sellable(player["hand"])]
        if kind == "form_set":
            return cards.set_options(state, seat)
        if state["medals"]["religious"] != seat:
            return []
        return [{"count": n} for n in range(1, player["denarii"] // BOARD["medal_exchange_denarii"] + 1)]

    return offers


def _optional(state: State, seat: int, step: Step) -> list[Payload]:
    """The one payload of taking or declining a building's action, on its ``optional`` step."""
    return [{}] if step.get("optional") else []


def _draw_card_offers(state: State, seat: int, step: Step) -> list[Payload]:
    return _optional(state, seat, step) if not hand_full(state, seat) and can_draw(state) else []


OFFERS: dict[str, Offers] = {
    "keep_missions": _mission_offers,
    "deploy_legion": lambda s, seat, step: [{"area": a} for a in AREAS],
    "launch_plot": lambda s, seat, step: plots.launch_options(s, seat),
    "end_plot_turn": lambda s, seat, step: [{}],
    "build": _build_offers,
    "end_build_turn": lambda s, seat, step: [{}],
    "place_follower": _place_offers,
    "move_legion": lambda s, seat, step: legion_moves(s, seat),
    "defect": lambda s, seat, step: [p for k, p in plots.choices(s, step) if k == "defect"],
    "lure_move": lambda s, seat, step: [p for k, p in plots.choices(s, step) if k == "lure_move"],
    "end_lure": lambda s, seat, step: [p for k, p in plots.choices(s, step) if k == "end_lure"],
    "pick_vote": lambda s, seat, step: [p for k, p in plots.choices(s, step) if k == "pick_vote"],
    "play_card": lambda s, seat, step: [{"card": c} for c in cards.playable(s, window_of(s, step))],
    "pass": lambda s, seat, step: [{}],
    "forfeit_draw": lambda s, seat, step: [{}],
    "tax": _tax_offers,
    "rival_card": lambda s, seat, step: [{}],
    "decline_legion_move": _optional,
    "place_vote": _optional,
    "decline_vote": _optional,
    "draw_card": _draw_card_offers,
    "place_pantheon_piece": _optional,
    "decline_pantheon_piece": _optional,
    **{kind: _free_offers(kind) for kind in FREE},
}


def window_of(state: State, step: Step) -> Step:
    """The trigger window a ``play_card`` answers: the waiting one, or the one a draw came from
    (a draw is answered by ``play_card`` only while that window is open: ``_answers``)."""
    return step if step["op"] == "window" else cast(Step, cards.open_window(state))


def _answers(state: State, kind: str, step: Step) -> bool:
    if kind == "play_card" and step["op"] == "draw":
        return cards.open_window(state) is not None
    answers: bool = ANSWERS.get(kind) == step["op"]
    return answers


def offers_for(state: State, seat: int) -> list[Action]:
    step = front(state)
    if step is None:
        return []
    out: list[Action] = []
    if seat in waiting_seats(state):
        for kind in ANSWERS:
            if _answers(state, kind, step):
                out += [{"type": kind, "payload": p} for p in OFFERS[kind](state, seat, step)]
        if free_allowed(step):
            for kind in free_kinds(state):
                out += [{"type": kind, "payload": p} for p in OFFERS[kind](state, seat, step)]
    if exchange_at_any_time(state, seat):
        out += [{"type": "exchange", "payload": p} for p in OFFERS["exchange"](state, seat, step)]
    return out


# -- checks: named refusals first, then "is it one of the offers" -------------------------
def _check_build(state: State, seat: int, payload: Payload) -> None:
    t = payload.get("building")
    if t not in TYPES:
        refuse("unknown_building", f"no building type {t!r}")
    level = state["provinces"][faced(state, seat)]["levels"][t] + 1
    if level > 3:
        refuse("slot_complete", f"the {t} slot already holds level 3")
    if state["tiles"][t][level - 1] <= 0:
        refuse("no_tile_left", f"no level-{level} {t} tile is left in the supply")
    if build_cost(faced(state, seat), t, level)[0] > state["players"][seat]["denarii"]:
        refuse("not_enough_denarii", "you cannot pay for that tile")


def _check_place(state: State, seat: int, payload: Payload) -> None:
    location = str(payload.get("location", ""))
    player = state["players"][seat]
    province = state["provinces"][faced(state, seat)]
    if location.startswith("building:"):
        t = location.split(":", 1)[1]
        if t not in TYPES:
            refuse("unknown_location", f"no building type {t!r}")
        if province["levels"][t] == 0:
            refuse("no_building", f"your province has no {t} building")
        if len(province["followers"][t]) >= province["levels"][t]:
            refuse("building_full", f"the {t} building holds as many followers as its level")
        if payload.get("use_token"):
            if t not in TOKEN_TYPES:
                refuse("no_bonus_token", f"there is no {t} bonus token")
            if t not in active_tokens(player):
                refuse("token_covered", f"your {t} token is covered by a vendetta marker")
            if t in player["tokens_used"]:
                refuse("token_used", f"your {t} token was already used this round")
    elif location.startswith("plot:"):
        if payload.get("use_token"):
            refuse("no_bonus_token", "bonus tokens go only with a building")
        if player["plot_markers"] <= 0:
            refuse("no_plot_marker", "you have no plot marker in supply")
        index = location.split(":", 1)[1]
        if not index.isdigit() or int(index) >= len(province["plots"]):
            refuse("unknown_location", f"no plot space {index}")
        if province["plots"][int(index)] is not None:
            refuse("space_occupied", "that plot space is taken")
    elif location == "colosseum":
        if payload.get("use_token"):
            refuse("no_bonus_token", "bonus tokens go only with a building")
    else:
        refuse("unknown_location", f"no location {location!r}")


def _check_tax(state: State, seat: int, payload: Payload) -> None:
    if payload.get("mode") not in ("normal", "double"):
        refuse("unknown_mode", "taxation is normal or double")
    if payload["mode"] == "double" and {"mode": "double"} not in _tax_offers(state, seat, None):
        refuse("glory_too_low", "double taxation may not take you below 1 glory")


def _check_free(state: State, seat: int, kind: str, payload: Payload) -> None:
    player = state["players"][seat]
    if kind in (
        "sell_card",
        "discard_card",
    ):
        card = payload.get("card")
        if card not in player["hand"]:
            refuse("card_not_in_hand", f"{card!r} is not in your hand")
        if is_anchor(card):
            refuse("anchor_card", "anchor cards cannot be sold or discarded")
    elif kind == "form_set":
        chosen = list(payload.get("cards", []))
        if len(player["sets"]) >= BOARD["max_sets"]:
            refuse("too_many_sets", "you already have three sets")
        if any(c not in player["hand"] for c in chosen) or len(set(chosen)) != 3:
            refuse("card_not_in_hand", "a set is three different cards from your hand")
        if not cards.set_legal(state, seat, chosen, payload.get("as_type")):
            refuse("not_a_set", "those cards do not form a set of that type")
    elif kind == "exchange":
        if state["medals"]["religious"] != seat:
            refuse("no_religious_medal", "only the religious medal's holder may exchange")
        if payload.get("count", 0) * BOARD["medal_exchange_denarii"] > player["denarii"]:
            refuse("not_enough_denarii", "each exchange costs 3 denarii")


def _check_launch(state: State, seat: int, payload: Payload) -> None:
    province = payload.get("province")
    marker = None
    if province in state["provinces"] and isinstance(payload.get("space"), int) and 0 <= payload["space"] < 3:
        marker = state["provinces"][province]["plots"][payload["space"]]
    if not marker or marker["owner"] != seat or not marker["up"]:
        refuse("no_plot_marker", "you have no face-up plot marker there")
    if state["players"][seat]["vendetta"] == 0:
        refuse("no_vendetta_marker", "you have no vendetta marker left to launch a plot")
    target = facing_owner(state, cast(str, province))  # a province: a marker was found there
    if target is None or target == seat:
        refuse("no_target", "no opponent faces that province")
    if holder(state, target)["vendetta"] >= BOARD["vendetta_track_length"]:
        refuse("track_full", "the target's vendetta track is full")
    if payload.get("action") not in CHARACTERS[state["players"][seat]["character"]]["plot_actions"]:
        refuse("not_your_plot_action", "that plot action is not on your board")
    if payload.get("victim") not in plots.victims(state, seat, target):
        refuse("wrong_victim", "the plot action must hit the plot's target")
    if not plots.action_legal(state, seat, payload["action"], payload["victim"]):
        refuse("no_effect", "that plot action would have no effect")


CHECKS: dict[str, Callable[[State, int, Payload], None]] = {
    "build": _check_build,
    "place_follower": _check_place,
    "tax": _check_tax,
    "launch_plot": _check_launch,
}


def may_act(state: State, seat: int | None, kind: Any) -> bool:
    """The awaited seat (None for the automaton), or anyone holding a standing exchange."""
    return seat in waiting_seats(state) or (kind == "exchange" and exchange_at_any_time(state, seat))


def awaits(state: State, seat: int | None, kind: str) -> bool:
    """Free actions answer any own-turn step (and a standing exchange any step); every
    other action answers one kind of step."""
    step = cast(Step, front(state))  # the guards ran: the game is not over and waits on a step
    if kind in FREE:
        return free_allowed(step) or (kind == "exchange" and exchange_at_any_time(state, seat))
    return _answers(state, kind, step)


def check(state: State, seat: int | None, kind: str, payload: Payload) -> None:
    """Refuse what the rules forbid once the generic guards have passed: each named rule
    with its code, then anything that is not one of the offers."""
    step = cast(Step, front(state))  # the guards ran: the game is not over and waits on a step
    # the guards let the system actor (None) post only ``rival_card``, whose checks read no seat
    seat = cast(int, seat)
    if kind in FREE:
        _check_free(state, seat, kind, payload)
    elif kind in CHECKS:
        CHECKS[kind](state, seat, payload)
    if kind == "play_card" and payload.get("card") not in state["players"][seat]["hand"]:
        refuse("card_not_in_hand", "that card is not in your hand")
    if kind == "play_card" and not cards.matches(payload["card"], window_of(state, step)):
        refuse("wrong_trigger", "that card does not trigger now")
    if _normal(payload) not in [_normal(p) for p in OFFERS[kind](state, seat, step)]:
        refuse("illegal_choice", f"{kind} {payload} is not a legal choice now")


def _normal(payload: Payload) -> Payload:
    """Compare payloads as the schemas load them (defaults filled, card lists unordered)."""
    out = dict(payload)
    if "location" in out:
        out.setdefault("use_token", False)
    if "cards" in out:
        out["cards"] = sorted(out["cards"])
    if "keep" in out:
        out["keep"] = sorted(out["keep"])
    return out
