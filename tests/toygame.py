"""A minimal game for platform tests (not in the registry), and the template of a game
(projections/games/README.md): chance, hidden hands,
a secret note hidden in the log, and a draw from a pre-shuffled deck that counts as
revealing. Seats take turns; each plays ``rounds`` moves; the highest score wins.

One file, so the class writes every part itself. Split into a package, the schemas go to
``schemas.py`` (``OptionsSchema``, ``ACTION_SCHEMAS``) and each method below but ``setup``,
``result``, ``reveals`` and ``scores`` becomes a function of the same name in ``legal.py``,
``rules.py``, ``state.py`` or ``view.py``, which the class then names, one line each
(``check = staticmethod(rules.check)``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from projections.games.base import REFEREE, Game, ranking_from, refuse


class Options(Schema):
    rounds = fields.Integer(load_default=3, validate=validate.Range(min=1, max=50))


class Play(Schema):
    card = fields.Integer(required=True)


class Roll(Schema):
    pass


class Note(Schema):
    text = fields.String(required=True, validate=validate.OneOf(["a", "b"]))


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    min_seats, max_seats = 1, 4
    hidden_information = chance = True
    options_schema = Options
    action_schemas = {"play": Play, "roll": Roll, "note": Note}

    def setup(self, options, seats, rng):
        deck = rng.shuffle(list(range(1, 41)))
        hands = [deck[2 * s : 2 * s + 2] for s in range(seats)]
        return {
            "deck": deck[2 * seats :],
            "hands": hands,
            "scores": [0] * seats,
            "turn": 0,
            "moves": 0,
            "limit": options["rounds"] * seats,
            "notes": [[] for _ in range(seats)],
        }

    # apply is base.Game.apply: the generic guards, then these four steps
    def check(self, state, seat, kind, payload):
        if kind == "play" and payload["card"] not in state["hands"][seat]:
            refuse("not_in_hand", "that card is not in your hand")

    def copy(self, state):
        """Lists the effect edits are new; the rest is only ever replaced."""
        return {
            **state,
            "scores": list(state["scores"]),
            "hands": [list(h) for h in state["hands"]],
            "notes": [list(n) for n in state["notes"]],
        }

    def effect(self, state, seat, kind, payload, rng):
        if kind == "note":
            state["notes"][seat].append(payload["text"])
            return  # a note is not a move
        if kind == "play":
            state["hands"][seat].remove(payload["card"])
            state["scores"][seat] += payload["card"]
            if state["deck"]:
                state["hands"][seat].append(state["deck"][0])
                state["deck"] = state["deck"][1:]
        else:
            state["scores"][seat] += 1 + rng.randbelow(6)
        state["moves"] += 1
        state["turn"] = (seat + 1) % len(state["scores"])

    def to_act(self, state):
        return set() if state["moves"] >= state["limit"] else {state["turn"]}

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        plays = [{"type": "play", "payload": {"card": c}} for c in state["hands"][seat]]
        return plays + [{"type": "roll", "payload": {}}, {"type": "note", "payload": {"text": "a"}}]

    def view(self, state, viewer):
        hands = [h if viewer in (REFEREE, s) else len(h) for s, h in enumerate(state["hands"])]
        notes = [n if viewer in (REFEREE, s) else len(n) for s, n in enumerate(state["notes"])]
        out = {
            "summary": f"move {state['moves'] + 1}: seat {state['turn']}",
            "scores": state["scores"],
            "hands": hands,
            "notes": notes,
            "deck": len(state["deck"]),
            "turn": state["turn"],
        }
        if viewer == REFEREE:
            out["deck_order"] = state["deck"]
        return out

    def redact(self, event, viewer):
        if event["type"] == "note" and viewer != event["seat"]:
            return {**event, "payload": {"text": "?"}}
        return event

    def reveals(self, before, event, after):
        return event["type"] == "play" and bool(before["deck"])

    def result(self, state):
        if state["moves"] < state["limit"]:
            return None
        return {"scores": state["scores"], "ranking": ranking_from(state["scores"]), "tiebreak": None}

    def scores(self, state):
        return state["scores"]


TOY = ToyGame()
