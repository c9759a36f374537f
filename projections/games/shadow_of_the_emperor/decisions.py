"""Every decision outside a phase-IV turn: setup placements, the phase II-III choices,
phase V and VI choices (including the secret vote) and the phase VII empire city."""

from __future__ import annotations

from typing import Any

from projections.games.base import State, refuse

from . import board, flow, legal
from .components import AGES, CONVENT_THALERS, ELECTORATES, EMPEROR_TRACK, VP
from .economy import gain_thalers, gain_vp
from .effects import place_from_supply
from .refusals import check_arrival

SETUP_NOBLES: dict[str, tuple[bool, int]] = {
    "elector": (False, 45),
    "couple35": (True, 35),
    "baron25": (False, 25),
    "couple15": (True, 15),
}


def place_start_piece(state: State, seat: int, payload: dict[str, Any]) -> None:
    piece = state["await"]["piece"]
    space: Any = payload.get("space")
    if space not in legal.setup_spaces(state, piece):
        if board.valid(state, space) and board.get(state, space) is not None:
            refuse("space_occupied", "that space is taken")
        refuse("invalid_space", f"a {piece} cannot start on {space!r}")
    state["queue"].pop(0)
    if piece == "empire_city":
        state["empire_in_box"] -= 1
        board.put(state, space, "empire")
    elif piece == "knight":
        state["players"][seat]["knights"] -= 1
        board.put(state, space, {"owner": seat, "knight": True} if board.parse(space)[1] == "a" else seat)
    else:
        couple, age = SETUP_NOBLES[piece]
        state["players"][seat]["nobles"] -= 1
        board.put(state, space, board.noble(seat, couple, age))


def enthrone(state: State, seat: int, payload: dict[str, Any]) -> None:
    space: Any = payload.get("space")
    if space not in legal.enthrone_options(state, seat):
        if board.valid(state, space) and board.parse(space)[1] in ("elector", "throne"):
            refuse("not_on_aristocrat_space", "an elector may never mount the throne")
        refuse("not_your_piece", "choose one of your nobles on an aristocrat space")
    flow.enthrone(state, space)


def place_son(state: State, seat: int, payload: dict[str, Any]) -> None:
    space: Any = payload.get("space")
    if space not in legal.son_spaces(state, seat):
        check_arrival(state, space)
        refuse("invalid_space", "the son cannot go there")
    place_from_supply(state, seat, space, False, AGES[0])


def decline_son(state: State, seat: int, payload: dict[str, Any]) -> None:
    """Placing a son is optional (reconstructed)."""


def propose_marriage(state: State, seat: int, payload: dict[str, Any]) -> None:
    target: Any = payload.get("target")
    if target not in legal.marriage_targets(state, seat):
        if board.valid(state, target):
            piece = board.get(state, target)
            electorate, kind, _ = board.parse(target)
            if board.is_noble(piece) and kind == "elector" and ELECTORATES[electorate]["archdiocese"]:
                refuse("archdiocese_elector", "an archdiocese's elector may not marry")
            if board.is_noble(piece) and piece["owner"] == seat:
                refuse("own_noble", "a daughter marries into another family")
            if board.is_noble(piece) and piece["couple"]:
                refuse("already_couple", "that noble is already married")
        refuse("invalid_target", "propose to a single baron of another player")
    owner = board.get(state, target)["owner"]
    state["await"] = {"kind": "answer_marriage", "seat": owner, "proposer": seat, "target": target}


def send_to_convent(state: State, seat: int, payload: dict[str, Any]) -> None:
    gain_thalers(state, seat, CONVENT_THALERS)


def answer_marriage(state: State, seat: int, payload: dict[str, Any]) -> None:
    pending = state["await"]
    if payload.get("accept"):
        board.put(state, pending["target"], dict(board.get(state, pending["target"]), couple=True))
        gain_vp(state, pending["proposer"], VP["daughter_married"])
    else:
        gain_thalers(state, pending["proposer"], CONVENT_THALERS)


def place_gray_eminence(state: State, seat: int, payload: dict[str, Any]) -> None:
    electorate = payload.get("electorate")
    if electorate not in board.in_play(state):
        refuse("electorate_out_of_play", "the gray eminence goes beside an electorate in play")
    state["players"][seat]["nobles"] -= 1
    state["gray_eminences"].append({"owner": seat, "electorate": electorate, "age": AGES[-1]})


def decline_gray_eminence(state: State, seat: int, payload: dict[str, Any]) -> None:
    """Rules version 2: the baron stays in supply (the seed: 可, may place)."""


def break_tie(state: State, seat: int, payload: dict[str, Any]) -> None:
    winner = payload.get("winner")
    if winner not in state["await"]["tied"]:
        refuse("not_tied", "the emperor chooses among the tied players only")
    state["sub"]["winner"] = winner


def choose_elector(state: State, seat: int, payload: dict[str, Any]) -> None:
    electorate = state["await"]["electorate"]
    space: Any = payload.get("space")
    if space not in legal.elector_candidates(state, electorate, seat):
        piece = board.get(state, space) if board.valid(state, space) else None
        if board.is_noble(piece) and piece["owner"] == seat and piece["couple"] and board.parse(space)[0] == electorate:
            refuse("archdiocese_needs_baron", "an archdiocese's elector must be a single baron")
        refuse("not_eligible", "choose one of your nobles on an aristocrat space of this electorate")
    state["await"] = None
    flow.seat_elector(state, electorate, space)


def place_displaced(state: State, seat: int, payload: dict[str, Any]) -> None:
    space: Any = payload.get("space")
    if space not in legal.limbo_options(state):
        electorate = state["limbo"]["electorate"]
        if electorate and isinstance(space, str) and space.split("/")[0] != electorate:
            refuse("wrong_electorate", "a displaced elector returns to its own electorate")
        check_arrival(state, space)
        refuse("invalid_space", "the noble cannot go there")
    flow.place_limbo(state, space)


def take_back_displaced(state: State, seat: int, payload: dict[str, Any]) -> None:
    """Rules version 3: the owner keeps the displaced noble (the seed: 可放到 for the deposed
    emperor; 可移走 a knight, else 只好收回, for a displaced elector in a full electorate)."""
    if not legal.may_take_back(state):
        refuse("cannot_decline", "a displaced elector must return to an empty aristocrat space of its electorate")
    flow.take_back_limbo(state)


def name_target(state: State, seat: int, payload: dict[str, Any]) -> None:
    card = state["await"]["card"]
    electorate = payload.get("electorate")
    if electorate not in legal.target_options(state, card):
        if electorate in ELECTORATES and not state["electorates"][electorate]["in_play"]:
            refuse("electorate_out_of_play", "that electorate is not in play")
        kind = "an archdiocese" if card == "church_influence" else "a secular electorate"
        refuse("wrong_electorate_type", f"name {kind}")
    state["queue"].pop(0)
    state["targets"][card] = electorate


def decline_target(state: State, seat: int, payload: dict[str, Any]) -> None:
    """Rules version 2: the card's holder names nothing (the seed: 可選擇, may choose)."""
    state["queue"].pop(0)


def vote(state: State, seat: int, payload: dict[str, Any]) -> None:
    """A secret commitment: stored apart from every view until all voters have voted."""
    side = payload.get("side")
    if side not in ("emperor", "rival"):
        refuse("invalid_side", "vote for the emperor or the rival")
    state["votes"][str(seat)] = side
    remaining = [s for s in state["await"]["seats"] if s != seat]
    if remaining:
        state["await"] = {"kind": "vote", "seats": remaining}
    else:
        flow.resolve_election(state)


def place_empire_city(state: State, seat: int, payload: dict[str, Any]) -> None:
    action = {"type": "place_empire_city", "payload": {"space": payload.get("space")}}
    if action not in legal.empire_city_actions(state):
        if state["empire_in_box"] == 0 or not _track_allows_new_city(state):
            refuse("no_empire_city", "no new empire city may be placed now")
        refuse("space_occupied", "an empire city goes on an empty city space")
    state["empire_in_box"] -= 1
    board.put(state, payload["space"], "empire")
    flow.end_round(state)


def _track_allows_new_city(state: State) -> bool:
    rule: str = EMPEROR_TRACK[state["round"]]["empire_city"]
    return rule == "place_or_move"


def move_empire_city(state: State, seat: int, payload: dict[str, Any]) -> None:
    action = {"type": "move_empire_city", "payload": {"source": payload.get("source"), "space": payload.get("space")}}
    if action not in legal.empire_city_actions(state):
        if payload.get("source") not in board.empire_city_locs(state):
            refuse("not_an_empire_city", "move an empire city that is on the board")
        refuse("space_occupied", "an empire city moves to an empty city space")
    board.put(state, payload["source"], None)
    board.put(state, payload["space"], "empire")
    flow.end_round(state)


def skip_empire_city(state: State, seat: int, payload: dict[str, Any]) -> None:
    flow.end_round(state)
