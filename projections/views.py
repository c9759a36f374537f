"""Redacting the log: what a viewer may see of each entry."""

from __future__ import annotations

from typing import Any

from events.shapes import Envelope

from . import fold
from .games import get as get_game
from .games.base import REFEREE

HIDDEN = {"hidden": True}


def redacted_envelope(game_name: str, envelope: Envelope, viewer: Any) -> Envelope:
    """The entry as ``viewer`` may see it, marked ``"redacted": true`` where its
    payload was changed (its hash then cannot be recomputed). A wholly hidden game
    payload becomes ``{"hidden": true}``; the seed (only ever written in ``game.finished``)
    is shown to the referee viewer alone, which every caller is once the game is disclosed."""
    if viewer == REFEREE:
        return envelope
    event = fold.game_event(envelope, game_name)
    if event is None:
        if envelope["type"] == "game.finished" and "seed" in envelope["payload"]:
            # a finished game not yet disclosed (a fork of a live game): the seed gives every
            # payload's nonce, and the digests would then give away what is hidden
            payload = {k: v for k, v in envelope["payload"].items() if k != "seed"}
            return {**envelope, "payload": payload, "redacted": True}
        if envelope["type"] == "game.created" and "fork" in envelope["payload"]:
            fork = {**envelope["payload"]["fork"], "state": HIDDEN}
            return {**envelope, "payload": {**envelope["payload"], "fork": fork}, "redacted": True}
        return envelope
    game = get_game(game_name)
    if game is None:
        raise fold.FoldError(f"unknown game {game_name!r}")
    shown = game.redact(event, viewer)
    payload = HIDDEN if shown is None else shown["payload"]
    if payload == envelope["payload"]:
        return envelope
    return {**envelope, "payload": payload, "redacted": True}
