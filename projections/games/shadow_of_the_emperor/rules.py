"""Who may act now, what they may post, and what each answer does (``base.Game.apply`` runs it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from projections.games.base import Action, Rng, State

from . import board, decisions, legal, turn, versions

HANDLERS: dict[str, Callable[[State, int, dict[str, Any]], None]] = {
    "place_start_piece": decisions.place_start_piece,
    "enthrone": decisions.enthrone,
    "place_son": decisions.place_son,
    "decline_son": decisions.decline_son,
    "propose_marriage": decisions.propose_marriage,
    "send_to_convent": decisions.send_to_convent,
    "answer_marriage": decisions.answer_marriage,
    "take_card": turn.take_card,
    "use_privilege": turn.use_privilege,
    "knight": turn.knight,
    "pass": turn.pass_turn,
    "place_gray_eminence": decisions.place_gray_eminence,
    "decline_gray_eminence": decisions.decline_gray_eminence,
    "break_tie": decisions.break_tie,
    "choose_elector": decisions.choose_elector,
    "place_displaced": decisions.place_displaced,
    "take_back_displaced": decisions.take_back_displaced,
    "name_target": decisions.name_target,
    "decline_target": decisions.decline_target,
    "vote": decisions.vote,
    "place_empire_city": decisions.place_empire_city,
    "move_empire_city": decisions.move_empire_city,
    "skip_empire_city": decisions.skip_empire_city,
}

ANSWERS: dict[str, list[str]] = {
    "setup": ["place_start_piece"],
    "enthrone": ["enthrone"],
    "son": ["place_son", "decline_son"],
    "daughter": ["propose_marriage", "send_to_convent"],
    "answer_marriage": ["answer_marriage"],
    "turn": ["take_card", "use_privilege", "knight", "pass"],
    "place_gray_eminence": ["place_gray_eminence"],
    "break_tie": ["break_tie"],
    "choose_elector": ["choose_elector"],
    "place_displaced": ["place_displaced"],
    "name_target": ["name_target"],
    "vote": ["vote"],
    "empire_city": ["place_empire_city", "move_empire_city", "skip_empire_city"],
}
"""The action types that answer each kind of awaited decision (rules version 1)."""

DECLINES: dict[str, tuple[str, int]] = {
    "name_target": ("decline_target", versions.DECLINE_TARGET),
    "place_gray_eminence": ("decline_gray_eminence", versions.DECLINE_GRAY_EMINENCE),
    "place_displaced": ("take_back_displaced", versions.TAKE_BACK_DISPLACED),
}
"""Declining a decision, and the rules version from which the rules allow it."""


def declines(state: State, kind: str) -> list[str]:
    """The action declining ``kind``, if the rules version ``state`` is played under has one."""
    decline = DECLINES.get(kind)
    return [decline[0]] if decline is not None and versions.version(state) >= decline[1] else []


def answers(state: State, kind: str) -> list[str]:
    return ANSWERS[kind] + declines(state, kind)


def waiting_for(state: State) -> set[int]:
    pending = state["await"]
    if pending is None:
        return set()
    if pending["kind"] == "vote":
        return set(pending["seats"])
    return {pending["seat"]}


def awaits(state: State, seat: int | None, kind: str) -> bool:
    return kind in answers(state, state["await"]["kind"])


def effect(state: State, seat: int | None, kind: str, payload: dict[str, Any], rng: Rng | None = None) -> None:
    """Answer the awaited decision on the copy; a handler that awaits nothing new closes it.
    ``seat`` is a seat: the platform's guard admits only the seats ``waiting_for`` names."""
    pending = state["await"]
    HANDLERS[kind](state, cast(int, seat), dict(payload))
    if state["await"] is pending:
        state["await"] = None


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in waiting_for(state):
        return []
    pending = state["await"]
    kind = pending["kind"]
    if kind == "setup":
        return [
            {"type": "place_start_piece", "payload": {"space": loc}}
            for loc in legal.setup_spaces(state, pending["piece"])
        ]
    if kind == "enthrone":
        return [{"type": "enthrone", "payload": {"space": loc}} for loc in legal.enthrone_options(state, seat)]
    if kind == "son":
        spaces = legal.son_spaces(state, seat)
        return [{"type": "place_son", "payload": {"space": loc}} for loc in spaces] + [
            {"type": "decline_son", "payload": {}}
        ]
    if kind == "daughter":
        targets = legal.marriage_targets(state, seat)
        return [{"type": "propose_marriage", "payload": {"target": loc}} for loc in targets] + [
            {"type": "send_to_convent", "payload": {}}
        ]
    if kind == "answer_marriage":
        return [{"type": "answer_marriage", "payload": {"accept": answer}} for answer in (True, False)]
    if kind == "turn":
        return turn.turn_actions(state, seat)
    if kind == "place_gray_eminence":
        placed = [{"type": "place_gray_eminence", "payload": {"electorate": e}} for e in board.in_play(state)]
        return placed + [{"type": t, "payload": {}} for t in declines(state, kind)]
    if kind == "break_tie":
        return [{"type": "break_tie", "payload": {"winner": s}} for s in pending["tied"]]
    if kind == "choose_elector":
        locs = legal.elector_candidates(state, pending["electorate"], seat)
        return [{"type": "choose_elector", "payload": {"space": loc}} for loc in locs]
    if kind == "place_displaced":
        placed = [{"type": "place_displaced", "payload": {"space": loc}} for loc in legal.limbo_options(state)]
        return placed + [{"type": t, "payload": {}} for t in declines(state, kind) if legal.may_take_back(state)]
    if kind == "name_target":
        named = [
            {"type": "name_target", "payload": {"electorate": e}} for e in legal.target_options(state, pending["card"])
        ]
        return named + [{"type": t, "payload": {}} for t in declines(state, kind)]
    if kind == "vote":
        return [{"type": "vote", "payload": {"side": side}} for side in ("emperor", "rival")]
    if kind == "empire_city":
        return legal.empire_city_actions(state)
    raise AssertionError(kind)
