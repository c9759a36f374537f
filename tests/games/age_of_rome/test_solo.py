"""The solo automaton (digest §11, reconstructed): system events through ``automatic``."""

from __future__ import annotations

from events.rng import SeededRng
from projections.games.age_of_rome import GAME
from projections.games.age_of_rome.scoring import final_result
from projections.games.age_of_rome.solo import contested_area

from .helpers import act, at, board, new_game


def rival_game(**options):
    state = board(1, "fulvia", **options)
    state["turn_order"] = [0]
    return state


def test_solo_setup_seats_the_rival_opposite_with_two_player_removals():
    state = new_game(1)
    assert state["table"] == [0, 2] and state["tiles"]["political"] == [4, 2, 1]
    assert state["rival"]["legions"] == 10 and state["rival"]["votes"] == 8 and state["rival"]["glory"] == 1
    assert len(state["commerce_deck"]) == 28
    assert new_game(1, solo_difficulty="hard")["rival"]["glory"] == 5


def test_the_rival_moves_only_as_the_system_actor():
    state = rival_game()
    state["rival"]["deck"] = ["R10", "R12"]
    state = at(state, {"op": "rival_turn", "left": 2})
    assert GAME.automatic(state) == {"type": "rival_card", "payload": {}}
    assert GAME.to_act(state) == set() and GAME.legal_actions(state, 0) == []
    state = GAME.apply(state, {"type": "rival_card", "seat": None, "payload": {}}, SeededRng("t", 0))
    assert state["rival"]["glory"] == 1 + 2  # R10 Liberators' Treasury
    state = GAME.apply(state, {"type": "rival_card", "seat": None, "payload": {}}, SeededRng("t", 0))
    assert state["players"][0]["vendetta"] == 2 + 1  # R12 Conspiracy from the general pool
    assert GAME.automatic(state) is None


def test_contested_area_is_the_smallest_non_negative_gap():
    state = rival_game()
    state["areas"] = {"epirus": [2, 1], "macedonia": [0, 0], "thrace": [1, 3]}
    assert contested_area(state) == "macedonia"
    state["areas"] = {"epirus": [0, 1], "macedonia": [0, 2], "thrace": [0, 1]}
    assert contested_area(state) == "epirus"  # rival leads everywhere: smallest lead, Epirus first


def test_rival_votes_make_majorities_and_an_empty_supply_pays_glory():
    state = rival_game()
    state["senate"] = [1, 1]
    state["rival"].update(votes=6, deck=["R06", "R07"])
    state = at(state, {"op": "rival_turn", "left": 2})
    state = GAME.apply(state, {"type": "rival_card", "seat": None, "payload": {}}, SeededRng("t", 0))
    assert state["senate"] == [1, 1, 1] and state["rival"]["glory"] == 1 + 2
    state["rival"]["votes"] = 0
    state = GAME.apply(state, {"type": "rival_card", "seat": None, "payload": {}}, SeededRng("t", 0))
    assert state["rival"]["glory"] == 3 + 1


def test_rival_gains_its_round_glory_and_the_board_still_turns():
    state = rival_game()
    state["event_deck"] = ["E05"]
    state = at(state, {"op": "round_end"}, {"op": "round_start"})
    state["event"] = "E01"
    state = act(
        dict(state, queue=[{"op": "place", "seat": 0}, {"op": "round_end"}, {"op": "round_start"}]),
        0,
        "place_follower",
        location="colosseum",
        use_token=False,
    )
    assert state["rival"]["glory"] == 1 + 3 and state["orientation"] == 1 and state["round"] == 2


def test_plots_against_the_rival_only_with_the_actions_that_affect_it():
    state = rival_game()
    state["provinces"]["hispania"]["plots"][0] = {"owner": 0, "up": True}  # Hispania faces table seat 2
    state["rival"]["glory"] = 4
    state = at(state, {"op": "plot_turn", "seat": 0})
    actions = {o["payload"]["action"] for o in GAME.legal_actions(state, 0) if o["type"] == "launch_plot"}
    assert actions == {"disrupt"}  # Fulvia's Sabotage cannot touch it; Lure needs deployed legions
    state = act(state, 0, "launch_plot", province="hispania", space=0, action="disrupt", victim=1)
    assert state["rival"]["glory"] == 3 and state["rival"]["vendetta"] == 1


def test_the_human_wins_only_with_strictly_more_than_the_rival():
    state = rival_game()
    state["players"][0].update(glory=20, denarii=0)
    state["rival"]["glory"] = 20
    result = final_result(state)
    assert result["solo"] == {"rival_score": 20, "won": False, "title": "Senator"}
    state["players"][0]["glory"] = 75
    assert final_result(state)["solo"] == {"rival_score": 20, "won": True, "title": "Dictator"}


def test_events_compare_the_rival_but_never_pay_it():
    # §11: E10 "most legions deployed": the rival's 3 beat the human's 1, so nobody gains
    state = rival_game()
    state["areas"]["thrace"] = [1, 3]
    state["players"][0]["legions"] -= 1
    state["rival"]["legions"] -= 3
    state["event_deck"] = ["E10"]
    state = act(
        dict(state, queue=[{"op": "place", "seat": 0}, {"op": "round_start"}]),
        0,
        "place_follower",
        location="colosseum",
        use_token=False,
    )
    assert state["players"][0]["glory"] == 2 + 1 and state["rival"]["glory"] == 1


def test_rival_without_legions_moves_its_biggest_stack_or_takes_glory():
    # §11 fallbacks: from the area where it has most (ties Epirus first); same area -> +1 glory
    state = rival_game()
    state["rival"].update(legions=0, deck=["R03", "R01"])
    state["areas"] = {"epirus": [0, 5], "macedonia": [0, 3], "thrace": [0, 2]}
    state = at(state, {"op": "rival_turn", "left": 2})
    state = GAME.apply(state, {"type": "rival_card", "seat": None, "payload": {}}, SeededRng("t", 0))
    assert state["areas"] == {"epirus": [0, 4], "macedonia": [0, 3], "thrace": [0, 3]}
    state = GAME.apply(state, {"type": "rival_card", "seat": None, "payload": {}}, SeededRng("t", 0))
    assert state["rival"]["glory"] == 1 + 1  # R01 to Epirus, its biggest stack already


def test_games_for_the_people_and_a_full_track_conspiracy():
    state = rival_game()
    state["areas"] = {"epirus": [0, 1], "macedonia": [2, 2], "thrace": [1, 3]}
    state["players"][0]["vendetta"] = 5
    state["rival"]["deck"] = ["R11", "R12"]
    state = at(state, {"op": "rival_turn", "left": 2})
    state = GAME.apply(state, {"type": "rival_card", "seat": None, "payload": {}}, SeededRng("t", 0))
    assert state["rival"]["glory"] == 1 + 2  # alone ahead in Epirus and Thrace
    state = GAME.apply(state, {"type": "rival_card", "seat": None, "payload": {}}, SeededRng("t", 0))
    assert state["rival"]["glory"] == 3 + 1 and state["players"][0]["vendetta"] == 5
