"""``legal_actions`` is exactly what ``apply`` accepts: along random games, every listed
action is accepted and every unlisted one from a broad universe of candidates is refused."""

import random

import pytest

from events.rng import SeededRng
from projections.games.base import IllegalAction
from projections.games.caylus import GAME
from projections.games.caylus.castle import BATCH_PAIRS
from projections.games.caylus.components import BUILDINGS, CUBES, FAVOUR_ROWS, ROAD_LENGTH
from projections.games.caylus.placement import TARGETS
from tests.games import harness


def universe() -> list[dict]:
    acts = [{"type": t, "payload": {}} for t in ("pass", "gate_recall", "decline", "castle_done")]
    acts += [{"type": k, "payload": {"target": t}} for k in ("place_worker", "gate_move") for t in TARGETS]
    acts += [{"type": k, "payload": {"delta": d}} for k in ("guild_move_provost", "move_provost") for d in range(-3, 4)]
    acts += [{"type": "joust", "payload": {"pay": b}} for b in (True, False)]
    acts += [{"type": "inn_keep", "payload": {"keep": b}} for b in (True, False)]
    acts += [{"type": "produce", "payload": {"option": i}} for i in range(3)]
    acts += [{"type": "owner_bonus", "payload": {"cube": c}} for c in CUBES]
    acts += [{"type": "give_batch", "payload": {"cubes": p}} for p in BATCH_PAIRS]
    acts += [{"type": "convert", "payload": {"space": n}} for n in range(1, ROAD_LENGTH + 1)]
    tiles = [b for b, d in BUILDINGS.items() if d["colour"] in ("wood", "stone")]
    acts += [{"type": "build", "payload": {"building": b}} for b in tiles]
    acts += [
        {"type": "build", "payload": {"building": b, "any": c}} for b in ("w_marketplace", "w_peddler") for c in CUBES
    ]
    acts += [{"type": "trade", "payload": {"option": i, "cubes": []}} for i in range(2)]
    acts += [{"type": "choose_favour", "payload": {"row": r, "column": c}} for r in FAVOUR_ROWS for c in range(1, 6)]
    return acts


UNIVERSE = universe()


def accepted(state, seat, action) -> bool:
    try:
        GAME.apply(state, {"type": action["type"], "seat": seat, "payload": action["payload"]}, SeededRng("u", 0))
        return True
    except IllegalAction:
        return False


@pytest.mark.parametrize("seats, version", [(2, None), (3, None), (4, None), (5, None), (2, 1), (3, 1)])
def test_listed_actions_are_accepted_and_unlisted_ones_refused(seats, version):
    # even counts play the defaults (the seed's readings, §14 items 1-3), odd counts the published
    # options; two more games under rules version 1
    options = (
        {"locked_favour_columns": "blocked", "favour_lawyer_payment": "cloth", "church_payment": "deniers"}
        if seats % 2
        else {}
    )
    if version is not None:
        options["rules_version"] = version
    seed = f"legal-{seats}" if version is None else f"legal-{seats}-v{version}"
    out = harness.play(GAME, seats, seed, options=options, check_views=False, check_schemas=False, keep_states=True)
    rand = random.Random(seats)
    for state in rand.sample(out.states[:-1], min(60, len(out.states) - 1)):
        seat = next(iter(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        assert all(accepted(state, seat, a) for a in legal)
        for action in UNIVERSE:
            if action not in legal:
                assert not accepted(state, seat, action), (state["phase"], action)
        others = [s for s in range(seats) if s != seat]
        assert all(GAME.legal_actions(state, s) == [] for s in others)
