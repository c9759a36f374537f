"""Phase IV: one action per turn -- take a card, use a privilege, the knight action, or pass."""

from __future__ import annotations

from typing import Any

from projections.games.base import Action, State, refuse

from . import board, effects, legal
from .components import (
    CARDS,
    ELECTORATES,
    KNIGHT_COST,
    PHASE4_CARDS,
    PRIVILEGE_ACTIONS,
    TAKEABLE,
    card_cost,
)
from .economy import pay
from .effects import Choice
from .flow import next_turn
from .refusals import check_arrival, explain_effect

SIDES: dict[str, list[str | None]] = {"permit": ["baron", "couple"]}
UNUSED_BY_PRIVILEGE: dict[str, list[str]] = {
    "trier": [],
    "koeln": ["card", "space", "side"],
    "pfalz": ["card", "target", "side"],
    "brandenburg": ["card", "target", "space", "side"],
}
"""Payload keys each privilege must leave empty."""


def _card_payload(card: str, picked: Choice, decline: bool = False) -> Action:
    return {"type": "take_card", "payload": {"card": card, **picked, "decline": decline}}


def _privilege_payload(electorate: str, card: str | None = None, picked: Choice | None = None) -> Action:
    return {
        "type": "use_privilege",
        "payload": {"electorate": electorate, "card": card, **(picked or effects.NO_CHOICE)},
    }


def may_decline(state: State, card: str) -> bool:
    """2 players only: a phase-IV card may be taken without carrying out its action."""
    seats: int = state["seats"]
    return seats == 2 and CARDS[card]["phase"] == 4


def gray_eminence_cost(state: State) -> int:
    return card_cost("gray_eminence") if state["options"]["brandenburg_pays"] else 0


def turn_actions(state: State, seat: int) -> list[Action]:
    player = state["players"][seat]
    money = player["thalers"]
    out: list[Action] = []
    for card in TAKEABLE:
        if state["stacks"][card] == 0:
            continue
        if card == "rival":
            if seat != state["emperor"] and legal.can_be_crowned(state, seat):
                out.append(_card_payload(card, effects.NO_CHOICE))
        elif CARDS[card]["phase"] != 4:
            if money >= card_cost(card):
                out.append(_card_payload(card, effects.NO_CHOICE))
        else:
            out += [
                _card_payload(card, picked)
                for picked in effects.choices(state, seat, card)
                if money >= card_cost(card, picked["side"])
            ]
            if may_decline(state, card):
                for side in SIDES.get(card, [None]):
                    if money >= card_cost(card, side):
                        out.append(_card_payload(card, effects.choice(side=side), decline=True))
    out += privilege_actions(state, seat)
    if money >= KNIGHT_COST:
        sources = (["supply"] if player["knights"] else []) + board.knights_on_board(state, seat)
        spaces = board.empty_knight_spaces(state)
        out += [{"type": "knight", "payload": {"source": s, "space": d}} for s in sources for d in spaces]
    out.append({"type": "pass", "payload": {}})
    return out


def usable_privileges(state: State, seat: int) -> list[str]:
    return [
        e for e in PRIVILEGE_ACTIONS if board.elector_owner(state, e) == seat and not state["electorates"][e]["used"]
    ]


def privilege_actions(state: State, seat: int) -> list[Action]:
    money = state["players"][seat]["thalers"]
    out: list[Action] = []
    for electorate in usable_privileges(state, seat):
        if electorate == "trier":
            for card in PHASE4_CARDS:
                if state["stacks"][card] == 0:
                    out += [
                        _privilege_payload("trier", card, picked)
                        for picked in effects.choices(state, seat, card)
                        if money >= card_cost(card, picked["side"])
                    ]
        elif electorate == "koeln":
            out += [
                _privilege_payload("koeln", picked=effects.choice(target=loc))
                for loc in effects.doctor_targets(state, seat)
            ]
        elif electorate == "pfalz":
            out += [_privilege_payload("pfalz", picked=picked) for picked in effects.pfalz_choices(state, seat)]
        elif electorate == "brandenburg":
            if (
                state["stacks"]["gray_eminence"]
                and state["players"][seat]["nobles"]
                and money >= gray_eminence_cost(state)
            ):
                out.append(_privilege_payload("brandenburg"))
    return out


def _picked(payload: dict[str, Any]) -> Choice:
    return {"target": payload.get("target"), "space": payload.get("space"), "side": payload.get("side")}


def _price(card: str, side: Any) -> int:
    """The card's cost; a Permit's depends on the side (an unknown side prices as a baron)."""
    return card_cost(card, side if side in ("baron", "couple") else None)


def _check_money(state: State, seat: int, cost: int) -> None:
    if state["players"][seat]["thalers"] < cost:
        refuse("not_enough_money", f"this costs {cost} thalers", cost=cost)


def _check_effect(state: State, seat: int, card: str, picked: Choice) -> None:
    if picked not in effects.choices(state, seat, card):
        explain_effect(state, seat, card, picked)


def take_card(state: State, seat: int, payload: dict[str, Any]) -> None:
    card = payload.get("card")
    if card == "gray_eminence":
        refuse("brandenburg_only", "the Gray Eminence is obtained only through the Brandenburg privilege")
    if card not in TAKEABLE:
        refuse("unknown_card", f"no action card {card!r}")
    if state["stacks"][card] == 0:
        refuse("stack_empty", f"no {CARDS[card]['name']} card is left this round")
    picked = _picked(payload)
    decline = bool(payload.get("decline"))
    if card == "rival":
        if seat == state["emperor"]:
            refuse("emperor_cannot_challenge", "the emperor's owner may not take the Rival")
        if not legal.can_be_crowned(state, seat):
            refuse("cannot_carry_out", "you have no noble that could mount the throne")
    if decline:
        if not may_decline(state, card):
            refuse("cannot_decline", "only in a 2-player game may a phase-IV card be taken without its action")
        if picked["target"] is not None or picked["space"] is not None or picked["side"] not in SIDES.get(card, [None]):
            refuse("invalid_choice", "a declined card carries no target")
    elif CARDS[card]["phase"] == 4:
        _check_money(state, seat, _price(card, picked["side"]))
        _check_effect(state, seat, card, picked)
    elif picked != effects.NO_CHOICE:
        refuse("invalid_choice", f"the {CARDS[card]['name']} takes no target when taken")
    cost = _price(card, picked["side"])
    _check_money(state, seat, cost)
    pay(state, seat, cost)
    state["stacks"][card] -= 1
    state["players"][seat]["display"].append(card)
    if CARDS[card]["phase"] == 4 and not decline:
        effects.carry_out(state, seat, card, picked)
    if card == "rival":
        state["players"][seat]["passed"] = True
    next_turn(state)


def use_privilege(state: State, seat: int, payload: dict[str, Any]) -> None:
    electorate = payload.get("electorate")
    if electorate not in PRIVILEGE_ACTIONS:
        refuse("no_such_privilege", f"{electorate!r} has no privilege to use as a phase-IV action")
    area = state["electorates"][electorate]
    if not area["in_play"]:
        refuse("electorate_out_of_play", "that electorate is not in play")
    if board.elector_owner(state, electorate) != seat:
        refuse(
            "not_your_elector", f"only the owner of the {ELECTORATES[electorate]['name']} elector may use its privilege"
        )
    if area["used"]:
        refuse("privilege_used", "each privilege is used at most once per round")
    picked = _picked(payload)
    card = payload.get("card")
    unused = [key for key in UNUSED_BY_PRIVILEGE[electorate] if payload.get(key) is not None]
    if unused:
        refuse("invalid_choice", f"the {ELECTORATES[electorate]['name']} privilege takes no {', '.join(unused)}")
    if electorate == "trier":
        if card not in PHASE4_CARDS:
            refuse("not_a_phase4_card", "Trier reproduces only a phase-IV action card")
        if state["stacks"][card] > 0:
            refuse("stack_not_empty", "Trier reproduces only a card whose stack is empty")
        cost = _price(card, picked["side"])
        _check_money(state, seat, cost)
        _check_effect(state, seat, card, picked)
        pay(state, seat, cost)
        effects.carry_out(state, seat, card, picked)
    elif electorate == "koeln":
        _check_effect(state, seat, "doctor", picked)
        effects.carry_out(state, seat, "doctor", picked)
    elif electorate == "pfalz":
        if state["players"][seat]["nobles"] == 0:
            refuse("no_supply", "no noble left in your supply")
        if picked not in effects.pfalz_choices(state, seat):
            check_arrival(state, picked["space"])
            refuse("invalid_space", "that space cannot take the baron")
        effects.place_from_supply(state, seat, picked["space"], False, 15)
    else:
        if state["stacks"]["gray_eminence"] == 0:
            refuse("stack_empty", "the Gray Eminence is already taken")
        if state["players"][seat]["nobles"] == 0:
            refuse("no_supply", "the Gray Eminence needs a noble in your supply")
        _check_money(state, seat, gray_eminence_cost(state))
        pay(state, seat, gray_eminence_cost(state))
        state["stacks"]["gray_eminence"] -= 1
        state["players"][seat]["display"].append("gray_eminence")
    area["used"] = True
    next_turn(state)


def knight(state: State, seat: int, payload: dict[str, Any]) -> None:
    """Pay 1 to place a supply knight, or move an own board knight, onto an empty
    aristocrat or castle space; knights never push anything."""
    source: Any = payload.get("source")
    space: Any = payload.get("space")
    _check_money(state, seat, KNIGHT_COST)
    player = state["players"][seat]
    if source == "supply":
        if player["knights"] == 0:
            refuse("no_supply", "no knight left in your supply")
    elif source not in board.knights_on_board(state, seat):
        refuse("not_your_piece", "move one of your own knights on the board")
    if space not in board.empty_knight_spaces(state):
        if board.valid(state, space) and board.parse(space)[1] in ("a", "castle"):
            refuse("space_occupied", "a knight goes to an empty aristocrat or castle space")
        refuse("invalid_space", "a knight goes to an aristocrat or castle space")
    pay(state, seat, KNIGHT_COST)
    if source == "supply":
        player["knights"] -= 1
    else:
        board.put(state, source, None)
    board.put(state, space, {"owner": seat, "knight": True} if board.parse(space)[1] == "a" else seat)
    next_turn(state)


def pass_turn(state: State, seat: int, payload: dict[str, Any]) -> None:
    state["players"][seat]["passed"] = True
    next_turn(state)
