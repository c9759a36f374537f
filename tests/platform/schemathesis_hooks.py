"""schemathesis extensions for the contract test: how to send a JSON Lines body (the
export that POST /api/verify checks), and the rules the document states in words that a
body generated as valid is made to keep (docs/API.md, "The contract")."""

import json

import schemathesis

from service.services import names
from service.services.errors import Refusal


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if value is None:
        return None
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, list):  # the documented shape: one line per item
        return "".join(json.dumps(item) + "\n" for item in value).encode()
    return (json.dumps(value) + "\n").encode()


def _whole(value):
    """An integer as JSON Schema counts them (4 or 4.0), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
        return None
    return int(value)


# Where a body names people: seat names, a player's, an account's.
NAMED = {
    ("POST", "/api/games"): ("seats",),
    ("POST", "/api/games/{game_id}/fork"): ("seats",),
    ("POST", "/api/tournaments/{tid}/players"): ("name",),
    ("POST", "/api/accounts"): ("name",),
}


def _names_kept(given):
    """The names as generated when the server's name rules take them together (one
    word in two look-alike scripts, a role word, two names that look alike are
    refused: service/services/names.py); otherwise plain distinct ones."""
    try:
        names.check_seats(given)
    except Refusal:
        return [f"player {i}" for i in range(len(given))]
    return given


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    """Rules between fields that the document states in words and no JSON Schema can:
    a body generated as valid is made to keep them, so positive-data acceptance judges
    everything else (negative bodies go as generated). A tournament's points have one
    value per finishing position, none above the one before (TournamentOptions
    ``points``); a game's computers sit in its seats (BotSeat ``seat``); names follow
    the name rules beyond the pattern (``_names_kept``)."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict):
        return
    route = (case.method.upper(), case.path)
    if route == ("POST", "/api/tournaments") and isinstance(case.body.get("options"), dict):
        options = case.body["options"]
        points, size = options.get("points"), _whole(options.get("table_size"))
        if isinstance(points, list) and points and size:
            ranked = sorted(points, reverse=True)
            options["points"] = (ranked + ranked[-1:] * size)[:size]
    for field in NAMED.get(route, ()):
        value = case.body.get(field)
        if isinstance(value, list) and all(isinstance(n, str) for n in value):
            case.body[field] = _names_kept(value)
        elif isinstance(value, str):
            case.body[field] = _names_kept([value])[0]
    if route == ("POST", "/api/games") and isinstance(case.body.get("bots"), list):
        seats = len(case.body.get("seats") or [])
        case.body["bots"] = [
            b for b in case.body["bots"] if not isinstance(b, dict) or (_whole(b.get("seat")) or 0) < seats
        ]
