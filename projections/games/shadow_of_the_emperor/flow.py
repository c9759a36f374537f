"""The round machine: runs every step without a choice and stops at the next decision.

``advance`` loops until ``state["await"]`` names a decision (or the game is over).
Interruptions come first: an empty throne is refilled by the emperor's owner, and a
noble in limbo (a displaced elector or emperor) is placed by its owner.
"""

from __future__ import annotations

from typing import Any

from projections.games.base import State

from . import board, legal
from .components import (
    AGES,
    CARDS,
    CONVENT_THALERS,
    EMPEROR_TRACK,
    ROUNDS,
    VP,
    stack_sizes,
)
from .economy import collect_income, gain_thalers, gain_vp
from .effects import enter_noble
from .state import clockwise
from .tally import card_holder, influence, votes


def advance(state: State) -> State:
    while state["await"] is None and state["phase"] != "finished":
        if state["phase"] != "setup" and state["throne"] is None:
            _refill_throne(state)
        elif state["limbo"] is not None:
            _place_limbo(state)
        else:
            _STEPS[state["phase"]](state)
    return state


def wait(state: State, kind: str, seat: int, **context: Any) -> None:
    state["await"] = {"kind": kind, "seat": seat, **context}


# -- interruptions --------------------------------------------------------------------


def _refill_throne(state: State) -> None:
    """The emperor's owner moves one of his nobles from an aristocrat space to the throne
    (keeping age and side); only with none there does a supply Baron aged 45 go up."""
    seat = state["emperor"]
    spaces = legal.enthrone_options(state, seat)
    if len(spaces) > 1:
        wait(state, "enthrone", seat)
    elif spaces:
        enthrone(state, spaces[0])
    else:
        state["players"][seat]["nobles"] -= 1
        state["throne"] = board.noble(seat, False, AGES[-1])


def enthrone(state: State, loc: str) -> None:
    state["throne"] = board.get(state, loc)
    board.put(state, loc, None)


def _place_limbo(state: State) -> None:
    """Its owner places a displaced noble; he is asked when there is more than one place, or
    when he may keep it instead (rules version 3). With no place at all it goes to supply."""
    spaces = legal.limbo_options(state)
    owner = state["limbo"]["noble"]["owner"]
    if len(spaces) > 1 or (spaces and legal.may_take_back(state)):
        wait(state, "place_displaced", owner, electorate=state["limbo"]["electorate"])
    elif spaces:
        place_limbo(state, spaces[0])
    else:
        take_back_limbo(state)


def place_limbo(state: State, loc: str) -> None:
    enter_noble(state, loc, state["limbo"]["noble"])
    state["limbo"] = None


def take_back_limbo(state: State) -> None:
    """The displaced noble goes back to its owner's supply."""
    state["players"][state["limbo"]["noble"]["owner"]]["nobles"] += 1
    state["limbo"] = None


# -- setup ------------------------------------------------------------------------------


def _setup(state: State) -> None:
    if not state["queue"]:
        _start_actions(state)
        return
    piece, seat = state["queue"][0]
    if piece == "throne":
        state["queue"].pop(0)
        state["players"][seat]["nobles"] -= 1
        state["throne"] = board.noble(seat, False, AGES[-1])
        return
    wait(state, "setup", seat, piece=piece)


# -- rounds 2-5: phases I-III -----------------------------------------------------------


def start_round(state: State) -> None:
    for area in state["electorates"].values():
        area["used"] = False
    state["phase"] = "income"
    collect_income(state)
    state["phase"] = "aging"
    _age(state)


def _aging(state: State) -> None:
    """Runs once the throne is filled again (a dead emperor's owner may have to choose)."""
    state["phase"] = "descendants"
    state["queue"] = clockwise(state, state["emperor"])


def _age(state: State) -> None:
    """Gray eminences leave; every 45 on the board dies to supply; the others grow older."""
    for eminence in state["gray_eminences"]:
        state["players"][eminence["owner"]]["nobles"] += 1
    state["gray_eminences"] = []
    for loc, piece in board.board_nobles(state):
        if piece["age"] == AGES[-1]:
            state["players"][piece["owner"]]["nobles"] += 1
            board.put(state, loc, None)
        else:
            board.put(state, loc, dict(piece, age=AGES[AGES.index(piece["age"]) + 1]))


def child_of(state: State, seat: int) -> str | None:
    """ "son" on a blue majority, "daughter" on a tie or pink majority, None with no cards."""
    colours = [CARDS[card]["color"] for card in state["players"][seat]["display"]]
    blue, pink = colours.count("blue"), colours.count("pink")
    if blue + pink == 0:
        return None
    return "son" if blue > pink else "daughter"


def _descendants(state: State) -> None:
    if not state["queue"]:
        for player in state["players"]:
            player["display"] = []
        state["stacks"] = stack_sizes(state["seats"])
        _start_actions(state)
        return
    seat = state["queue"].pop(0)
    child = child_of(state, seat)
    if child == "son" and legal.son_spaces(state, seat):
        wait(state, "son", seat)
    elif child == "daughter":
        if legal.marriage_targets(state, seat):
            wait(state, "daughter", seat)
        else:
            gain_thalers(state, seat, CONVENT_THALERS)


# -- phase IV -----------------------------------------------------------------------------


def _start_actions(state: State) -> None:
    state["phase"] = "actions"
    for player in state["players"]:
        player["chip"] = player["thalers"]
        player["passed"] = False
    state["active"] = state["emperor"]


def _actions(state: State) -> None:
    if all(player["passed"] for player in state["players"]):
        _start_new_electors(state)
    else:
        wait(state, "turn", state["active"])


def next_turn(state: State) -> None:
    """Clockwise to the next seat that has not passed (the flow ends the phase if none)."""
    for seat in clockwise(state, state["active"])[1:] + [state["active"]]:
        if not state["players"][seat]["passed"]:
            state["active"] = seat
            return


# -- phase V ------------------------------------------------------------------------------


def _start_new_electors(state: State) -> None:
    state["phase"] = "new_electors"
    state["active"] = None
    state["cursor"] = 0
    state["sub"] = None
    holder = card_holder(state, "gray_eminence")
    has_tile = holder is not None and state["players"][holder]["nobles"] > 0
    state["queue"] = [holder] if has_tile else []


def _new_electors(state: State) -> None:
    if state["queue"]:
        wait(state, "place_gray_eminence", state["queue"].pop(0))
        return
    electorates = board.in_play(state)
    if state["cursor"] < len(electorates):
        _resolve_electorate(state, electorates[state["cursor"]])
        return
    mainz = board.elector_owner(state, "mainz")
    if mainz is not None:
        gain_vp(state, mainz, VP["mainz"])
    _start_election(state)


def _resolve_electorate(state: State, electorate: str) -> None:
    sub = state["sub"]
    if sub is None:
        totals = influence(state, electorate)
        top = max(totals)
        leaders = [seat for seat, value in enumerate(totals) if value == top]
        if top == 0:
            _next_electorate(state)
        elif len(leaders) > 1:
            state["sub"] = {"electorate": electorate, "winner": None}
            wait(state, "break_tie", state["emperor"], electorate=electorate, tied=leaders)
        else:
            state["sub"] = {"electorate": electorate, "winner": leaders[0]}
        return
    winner = sub["winner"]
    current = board.elector_owner(state, electorate)
    if current == winner:
        _next_electorate(state)
        return
    candidates = legal.elector_candidates(state, electorate, winner)
    if len(candidates) > 1:
        wait(state, "choose_elector", winner, electorate=electorate)
    elif candidates:
        seat_elector(state, electorate, candidates[0])
    else:
        _unseat(state, electorate)
        _next_electorate(state)


def _unseat(state: State, electorate: str) -> None:
    old = state["electorates"][electorate]["elector"]
    if old is not None:
        state["electorates"][electorate]["elector"] = None
        state["limbo"] = {"noble": old, "electorate": electorate}


def seat_elector(state: State, electorate: str, loc: str) -> None:
    """The chosen noble takes the elector space (+2 VP); the old elector is displaced."""
    winner = state["sub"]["winner"]
    _unseat(state, electorate)
    state["electorates"][electorate]["elector"] = board.get(state, loc)
    board.put(state, loc, None)
    gain_vp(state, winner, VP["new_elector"])
    _next_electorate(state)


def _next_electorate(state: State) -> None:
    state["cursor"] += 1
    state["sub"] = None


# -- phase VI -----------------------------------------------------------------------------


def _start_election(state: State) -> None:
    state["phase"] = "elect_emperor"
    state["targets"] = {"church_influence": None, "excommunication": None}
    state["votes"] = {}
    rival = card_holder(state, "rival")
    if rival is None:
        _start_emperor_actions(state)
        return
    queue = []
    for seat in clockwise(state, state["emperor"]):
        for card in ("church_influence", "excommunication"):
            if card in state["players"][seat]["display"]:
                queue.append([card, seat])
    state["queue"] = queue
    state["sub"] = {"rival": rival, "stage": "targets"}


def _elect_emperor(state: State) -> None:
    sub = state["sub"]
    if sub["stage"] == "done":
        _start_emperor_actions(state)
        return
    if state["queue"]:
        card, seat = state["queue"][0]
        wait(state, "name_target", seat, card=card)
        return
    counts = votes(state)
    rival, emperor = sub["rival"], state["emperor"]
    voters = [s for s in range(state["seats"]) if s not in (rival, emperor) and counts[s] > 0]
    sub.update(stage="voting", counts=counts, voters=voters)
    if voters:
        state["await"] = {"kind": "vote", "seats": list(voters)}
    else:
        resolve_election(state)


def resolve_election(state: State) -> None:
    """All votes are in: reveal them, score the winning side, and crown a winning Rival."""
    sub = state["sub"]
    counts, rival, emperor = sub["counts"], sub["rival"], state["emperor"]
    chosen = {str(rival): "rival", str(emperor): "emperor", **state["votes"]}
    totals = {"rival": 0, "emperor": 0}
    for seat, side in chosen.items():
        totals[side] += counts[int(seat)]
    winner = "rival" if totals["rival"] > totals["emperor"] else "emperor"
    for seat in sub["voters"]:
        if state["votes"][str(seat)] == winner:
            gain_vp(state, seat, VP["voted_for_winner"])
    crowned = winner == "rival" and legal.can_be_crowned(state, rival)
    state["election"] = {
        "round": state["round"],
        "rival": rival,
        "emperor": emperor,
        "counts": counts,
        "choices": chosen,
        "totals": totals,
        "winner": winner,
        "crowned": crowned,
    }
    state["votes"] = {}
    state["await"] = None
    sub["stage"] = "done"
    if crowned:
        state["limbo"] = {"noble": state["throne"], "electorate": None}
        state["throne"] = None
        state["emperor"] = rival


# -- phases VII and VIII -------------------------------------------------------------------


def _start_emperor_actions(state: State) -> None:
    state["phase"] = "emperor_actions"
    state["sub"] = None
    state["queue"] = []
    reward = EMPEROR_TRACK[state["round"]]
    seat = state["emperor"]
    gain_vp(state, seat, reward["vp"])
    gain_thalers(state, seat, reward["thalers"])
    if legal.empire_city_actions(state):
        wait(state, "empire_city", seat)
    else:
        end_round(state)


def end_round(state: State) -> None:
    if state["round"] >= ROUNDS:
        state["phase"] = "finished"
        return
    state["round"] += 1
    start_round(state)


def _emperor_actions(state: State) -> None:
    end_round(state)


_STEPS = {
    "setup": _setup,
    "aging": _aging,
    "descendants": _descendants,
    "actions": _actions,
    "new_electors": _new_electors,
    "elect_emperor": _elect_emperor,
    "emperor_actions": _emperor_actions,
}
