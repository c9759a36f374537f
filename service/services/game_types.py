"""Game metadata as the API shows it, read from each game's class and options schema."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, missing

from events.shapes import JSON
from projections.games.base import Game

_TYPES = {fields.Boolean: "boolean", fields.Integer: "integer", fields.Float: "number", fields.String: "string"}


def describe_field(field: fields.Field[Any]) -> JSON:
    kind = next((name for cls, name in _TYPES.items() if isinstance(field, cls)), "object")
    out: JSON = {"type": kind}
    default = field.load_default
    if default is not missing and not callable(default):
        out["default"] = default
    choices = next((v.choices for v in field.validators if hasattr(v, "choices")), None)
    if choices is not None:
        out["choices"] = list(choices)
    return out


def describe_game(game: Game) -> JSON:
    options: JSON = {}
    if game.options_schema:
        options = {name: describe_field(f) for name, f in game.options_schema().fields.items()}
    return {
        "name": game.name,
        "title": game.title,
        "min_seats": game.min_seats,
        "max_seats": game.max_seats,
        "hidden_information": game.hidden_information,
        "chance": game.chance,
        "computer_seats": game.plays_by_computer(),
        "rules_version": game.rules_version,
        "max_log_entries": game.max_log_entries,
        "options": options,
        "actions": sorted(game.action_schemas),
    }
