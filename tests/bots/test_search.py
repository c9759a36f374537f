"""The search bot's parts: the judgement of a playout cut short, the prior over moves,
and the tree's selection finding a lone good move among many."""

from __future__ import annotations

import copy

from events.rng import SeededRng
from projections.bots.policy import weights
from projections.bots.search import Budget, choose, rewards
from projections.games import get
from projections.games.base import Game, ranking_from


def caylus_state(seats: int = 2) -> dict:
    game = get("caylus")
    return game.setup(game.options_schema().load({}), seats, SeededRng("search-test", 0))


def test_caylus_evaluation_counts_the_final_conversion_of_goods_and_deniers():
    game, state = get("caylus"), caylus_state()
    assert game.result(state) is None
    level = game.evaluate(state)
    assert level[0] == level[1]
    richer = copy.deepcopy(state)
    richer["players"][0]["gold"] += 2
    richer["players"][0]["deniers"] += 8
    assert game.evaluate(richer)[0] == level[0] + 2 * 3 + 8 / 4
    assert game.evaluate(richer)[1] == level[1]


def test_a_clearly_better_position_is_judged_better_and_a_little_better_a_little():
    game, state = get("caylus"), caylus_state()
    level = rewards(game, state, 2)
    assert level == [0.5, 0.5]
    ahead = copy.deepcopy(state)
    ahead["players"][0]["pp"] += 1
    far = copy.deepcopy(state)
    far["players"][0]["pp"] += 20
    a, f = rewards(game, ahead, 2), rewards(game, far, 2)
    assert 0.5 < a[0] < f[0] <= 1.0
    assert a[0] + a[1] == 1.0 and f[1] < a[1] < 0.5


def test_a_finished_game_is_judged_by_its_ranking_alone():
    game, state = get("caylus"), caylus_state(3)
    done = copy.deepcopy(state)
    done["result"] = {"scores": [10, 30, 30], "ranking": ranking_from([10, 30, 30]), "tiebreak": None}
    assert rewards(game, done, 3) == [0.0, 0.75, 0.75]


def test_the_prior_is_the_games_weights_or_an_equal_share_per_type():
    caylus = get("caylus")
    state = caylus_state()
    seat = sorted(caylus.to_act(state))[0]
    actions = caylus.legal_actions(state, seat)
    w = weights(caylus, state, actions)
    assert len(w) == len(actions) and all(x > 0 for x in w)
    by_type = {a["type"]: x for a, x in zip(actions, w)}
    assert by_type["place_worker"] > by_type["pass"]

    shadow = get("shadow_of_the_emperor")
    actions = [
        {"type": "pass", "payload": {}},
        *({"type": "knight", "payload": {"at": i}} for i in range(4)),
    ]
    assert weights(shadow, {}, actions) == [1.0, 0.25, 0.25, 0.25, 0.25]
    assert weights(shadow, {}, actions, tree=True) == [1.0] * 5


class PickANumber(Game):
    """Seat 0 names one of forty numbers; 17 wins, every other number loses."""

    name = "pick_a_number"
    title = "Pick a number"

    def setup(self, options, seats, rng):
        return {"picked": None}

    def effect(self, state, seat, kind, payload, rng):
        state["picked"] = payload["n"]

    def to_act(self, state):
        return set() if state["picked"] is not None else {0}

    def legal_actions(self, state, seat):
        return [] if state["picked"] is not None else [{"type": "pick", "payload": {"n": n}} for n in range(40)]

    def apply(self, state, event, rng):
        return {"picked": event["payload"]["n"]}

    def view(self, state, viewer):
        return state

    def result(self, state):
        if state["picked"] is None:
            return None
        ranking = [1, 2] if state["picked"] == 17 else [2, 1]
        return {"scores": [0, 0], "ranking": ranking, "tiebreak": None}


def test_the_tree_finds_the_lone_winning_move_among_forty_and_plays_it_reproducibly():
    game = PickANumber()
    state = game.setup({}, 2, None)
    moves = {
        choose(game, state, 0, 2, Budget(iterations=80, rollout_depth=4), seed=f"s{i}")["payload"]["n"]
        for i in range(3)
    }
    assert moves == {17}
    again = choose(game, state, 0, 2, Budget(iterations=30, rollout_depth=4), seed="x")
    assert again == choose(game, state, 0, 2, Budget(iterations=30, rollout_depth=4), seed="x")
