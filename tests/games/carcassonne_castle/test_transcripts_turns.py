"""Hand-worked turns: who orders scoring, when wall tiles become usable, the keep on a
tie, and corners that give nothing (digest 7.5, 7.6, 13, 16 G7/G12)."""

from __future__ import annotations

from projections.games.carcassonne_castle import GAME
from tests.games.harness import assert_refused

from .helpers import act, ev, given, happened

# Seat 1 holds a knight on the tower (3,0)+SS3 (closed on the east by a court on (4,0))
# and a squire on the one-tile house CT25 on (3,2) (closed all round by courts and the
# wall but for its north side). Seat 0's court on (3,1) closes both at once.
OPPONENT_PAIR = {
    (3, 0): ("CT30", 0),
    (4, 0): ("CT31", 0),
    (3, 2): ("CT25", 0),
    (4, 2): ("CT31", 0),
    (3, 3): ("CT31", 0),
    (2, 2): ("CT31", 0),
}
OPPONENT_FOLLOWERS = [(1, "3,0,0", "knight"), (1, "3,2,0", "squire")]


def _opponent_pair(**kwargs):
    kwargs.setdefault("pile", ["CT31"] * 3)
    state = given(board=OPPONENT_PAIR, followers=OPPONENT_FOLLOWERS, tile="CT31", **kwargs)
    state = act(state, 0, "place_tile", x=3, y=1, rotation=0)
    return act(state, 0, "skip_follower")


def test_active_player_orders_the_opponents_scoring():
    # 7.5 order / 15 #3: the placing player decides the order of *both* players' events,
    # so seat 0 (not seat 1) chooses here. Seat 1 stands on 11, K12 holds an extra-turn
    # tile, K16 a five-point tile. House (1) first: 12 takes K12's tile, tower (2 tiles x 2
    # = 4) then ends on 16 and takes K16's. Tower first: 15, then 16: only K16's tile.
    state = _opponent_pair(score=(0, 11), frame={"K12": 1, "K16": 9})
    assert state["phase"] == "score" and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 1) == []
    assert [a["payload"] for a in GAME.legal_actions(state, 0)] == [
        {"x": 3, "y": 0, "feature": 0, "use_wall_tile": False},
        {"x": 3, "y": 2, "feature": 0, "use_wall_tile": False},
    ]
    assert_refused(GAME, state, ev(1, "score_feature", x=3, y=2, feature=0, use_wall_tile=False), "not_your_turn")
    house_first = act(state, 0, "score_feature", x=3, y=2, feature=0, use_wall_tile=False)
    assert house_first["score"] == [0, 16]
    assert [(t["kind"], t["corner"]) for t in house_first["held"][1]] == [(1, "K12"), (9, "K16")]
    # the keep follows the scorer (7.5 keep), here the opponent of the placing player
    assert house_first["keep"] == [None, {"node": "3,2,0", "size": 1}]
    tower_first = act(state, 0, "score_feature", x=3, y=0, feature=0, use_wall_tile=False)
    assert tower_first["score"] == [0, 16]
    assert [t["kind"] for t in tower_first["held"][1]] == [9] and tower_first["frame"]["K12"] == 1


def test_wall_tile_won_on_the_opponents_turn_is_usable_on_the_holders_next_turn():
    # 7.6: seat 1 takes the extra-turn tile in seat 0's turn 5; it waits out that turn
    # (only the holder's own turns count) and is offered after seat 1's turn 6 scoring.
    state = _opponent_pair(score=(0, 11), frame={"K12": 1})
    state = act(state, 0, "score_feature", x=3, y=2, feature=0, use_wall_tile=False)
    assert state["held"][1] == [{"kind": 1, "turn": 5, "used": False, "corner": "K12"}]
    assert state["active"] == 1 and state["turn"] == 6 and state["phase"] == "place"
    assert GAME.view(state, None)["usable_now"] == [[], [1]]
    state = act(act(state, 1, "place_tile", x=1, y=9, rotation=0), 1, "skip_follower")
    assert state["phase"] == "post"
    assert {a["type"] for a in GAME.legal_actions(state, 1)} == {"end_turn", "use_extra_turn"}


def test_doubling_the_opponents_feature_or_without_a_tile_is_refused():
    # 7.6: x2 tiles double only the holder's own tower/house on their own turn. Seat 0
    # holds house x2 and tower x2 from an earlier turn: neither applies to seat 1's events.
    state = _opponent_pair(held=([(2, 1), (3, 1)], []))
    assert all(a["payload"]["use_wall_tile"] is False for a in GAME.legal_actions(state, 0))
    assert_refused(GAME, state, ev(0, "score_feature", x=3, y=2, feature=0, use_wall_tile=True), "no_wall_tile")
    assert_refused(GAME, state, ev(0, "score_feature", x=3, y=0, feature=0, use_wall_tile=True), "no_wall_tile")


def test_doubling_ones_own_tower_without_a_tile_is_refused():
    # 7.6: seat 0 scores its own tower and house (two events, so a choice) but holds no
    # x2 tile: asking to double is refused, state unchanged.
    board = {(3, 0): ("CT30", 0), (4, 0): ("CT31", 0), (4, 1): ("CT31", 0)}
    state = given(board=board, followers=[(0, "3,0,0", "knight")], tile="CT22")
    state = act(act(state, 0, "place_tile", x=3, y=1, rotation=0), 0, "place_follower", feature=0)
    assert state["phase"] == "score"
    assert_refused(GAME, state, ev(0, "score_feature", x=3, y=0, feature=0, use_wall_tile=True), "no_wall_tile")


def test_tied_house_gives_nobody_the_keep():
    # 7.5 keep: "A tied house gives nobody a keep." CT25 on (3,5) joins SS2's house, seat 1's
    # squire house on (3,6) and seat 0's on (4,5): 4 tiles, one squire each: nobody scores,
    # no keep moves, both squires go home.
    board = {
        (3, 4): ("CT31", 0),
        (3, 6): ("CT25", 0),
        (3, 7): ("CT31", 0),
        (4, 6): ("CT31", 0),
        (4, 5): ("CT25", 0),
        (4, 4): ("CT31", 0),
        (5, 5): ("CT31", 0),
    }
    followers = [(1, "3,6,0", "squire"), (0, "4,5,0", "squire")]
    state = given(board=board, followers=followers, tile="CT25")
    state = act(state, 0, "place_tile", x=3, y=5, rotation=0)  # the house is taken: no follower step
    assert happened(state, "feature_tied") == [{"what": "feature_tied", "type": "house", "size": 4, "node": "3,5,0"}]
    assert state["score"] == [0, 0] and state["keep"] == [None, None] and state["supply"] == [6, 6]


def test_tie_resolves_before_the_scored_events_and_the_rest_follow():
    # 7.5 order rule 3: a tied event only sends followers home, before any choice. Here the
    # tower ties (one knight each) and seat 0's one-tile house scores 1 by itself.
    board = {(3, 0): ("CT30", 0), (4, 0): ("CT30", 0), (5, 0): ("CT31", 0), (4, 1): ("CT31", 0)}
    followers = [(0, "3,0,0", "knight"), (1, "4,0,0", "knight")]
    state = given(board=board, followers=followers, tile="CT22")
    state = act(act(state, 0, "place_tile", x=3, y=1, rotation=0), 0, "place_follower", feature=0)
    # tower (3,0)+(4,0)+SS3: closed by the wall, (5,0), (4,1) and CT22's house on (3,1)
    assert [r["what"] for r in state["recent"] if r["what"] in ("feature_tied", "feature_scored")] == [
        "feature_tied",
        "feature_scored",
    ]
    assert state["score"] == [1, 0] and state["followers"] == [] and state["supply"] == [6, 6]


def test_a_tile_taken_just_before_an_extra_turn_is_usable_in_it():
    # G7: the extra turn is a new turn. In turn 5 seat 0 scores a tower (2 tiles x 2 = 4)
    # from 8 to 12 and takes K12's tower x2; it waits in turn 5 but is offered in the
    # extra turn 6 that seat 0's older extra-turn tile opens.
    board = {(3, 0): ("CT30", 0), (4, 0): ("CT31", 0)}
    state = given(
        board=board,
        followers=[(0, "3,0,0", "knight")],
        tile="CT31",
        score=(8, 0),
        held=([(1, 2)], []),
        frame={"K12": 2},
        pile=["CT30", "CT31"],
    )
    state = act(act(state, 0, "place_tile", x=3, y=1, rotation=0), 0, "skip_follower")
    assert state["score"] == [12, 0] and state["phase"] == "post"
    assert GAME.view(state, 0)["usable_now"][0] == [1]  # tower x2 taken this turn: not yet
    state = act(state, 0, "use_extra_turn")
    assert state["turn"] == 6 and state["active"] == 0 and state["tile"] == "CT30"
    assert GAME.view(state, 0)["usable_now"][0] == [2]


def test_corner_without_a_tile_and_the_start_corner_give_nothing():
    # 7.5 track: the 0/1 corner has no wall tile; a corner whose tile is gone gives nothing.
    # A 4-point tower from 96 ends on 100 = space 0; from 8 it ends on 12, K12 already empty.
    for start, frame in ((96, {"K12": 9}), (8, {"K12": None, "K16": 9})):
        board = {(3, 0): ("CT30", 0), (4, 0): ("CT31", 0)}
        state = given(board=board, followers=[(0, "3,0,0", "knight")], tile="CT31", score=(start, 0), frame=frame)
        state = act(act(state, 0, "place_tile", x=3, y=1, rotation=0), 0, "skip_follower")
        assert state["score"] == [start + 4, 0]
        assert state["held"] == [[], []] and not happened(state, "wall_tile_taken")
