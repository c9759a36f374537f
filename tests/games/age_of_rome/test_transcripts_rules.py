"""One transcript per rule: given a board, when an event, then the state worked out by hand."""

from __future__ import annotations

import pytest

from projections.games.age_of_rome import GAME
from projections.games.age_of_rome.effects import (
    active_tokens,
    gain_glory,
    lose_glory,
    place_pantheon_piece,
    remove_vote,
)
from projections.games.age_of_rome.scoring import area_awards, final_result, senate_points

from .helpers import act, at, board, launch_plot, take_building_actions

# tests of a building's action, under rules version 2 (it happens at once) and 3 (it is
# offered, and taken here)
BOTH_VERSIONS = pytest.mark.parametrize("version", [2, 3])

PLACE = {"op": "place", "seat": 0}


@BOTH_VERSIONS
def test_each_vote_placement_checks_the_push_and_the_majority(version):
    # §8.7: new vote on top, a 6th pushes the bottom one home; top three own -> +2; each vote checked
    state = board(4, "aemilius_lepidus", "fulvia", "marcus_antonius", "caius_octavius", rules_version=version)
    state["senate"] = [0, 0, 1, 2, 3]
    state["provinces"]["italia"]["levels"]["political"] = 1
    state = act(at(state, PLACE), 0, "place_follower", location="building:political", use_token=True)
    state = take_building_actions(state, 0)
    assert state["senate"] == [0, 0, 0, 0, 1]
    assert state["players"][3]["votes"] == 5 + 1 and state["players"][2]["votes"] == 3 + 1
    # two majorities: 1 + 2 + 2 = 5 glory, which also claims the milestone at 5 (§8.1)
    assert state["players"][0]["glory"] == 5 and state["players"][0]["followers"] == 2
    assert state["players"][0]["votes"] == 3 and state["players"][0]["tokens_used"] == ["political"]


@BOTH_VERSIONS
def test_political_medal_adds_one_to_each_majority(version):
    state = board(2, "aemilius_lepidus", "fulvia", rules_version=version)
    state["senate"] = [0, 0]
    state["medals"]["political"] = 0
    state["provinces"]["italia"]["levels"]["political"] = 1
    state = act(at(state, PLACE), 0, "place_follower", location="building:political", use_token=False)
    state = take_building_actions(state, 0)
    assert state["players"][0]["glory"] == 1 + 3


def test_removing_a_vote_never_makes_a_majority():
    state = board(2, "aemilius_lepidus", "fulvia")
    state["senate"] = [0, 1, 0, 0]
    remove_vote(state, 1)
    assert state["senate"] == [0, 0, 0] and state["players"][0]["glory"] == 1 and state["players"][1]["votes"] == 5


def test_senate_scores_one_two_five_three_six_from_the_top():
    state = board(4, "aemilius_lepidus", "fulvia", "marcus_antonius", "caius_octavius")
    state["senate"] = [0, 1, 0, 2, 3]
    assert senate_points(state) == {0: 6, 1: 2, 2: 3, 3: 6}


def test_battle_area_seed_example_tied_leaders_get_nothing():
    # §8.6 seed example: 3 / 3 / 1 in Macedonia (minimum 3): the lone third player takes 2nd
    state = board(3, "fulvia", "marcus_antonius", "caius_octavius")
    state["areas"]["macedonia"] = [3, 3, 1]
    state["areas"]["epirus"] = [1, 1, 1]  # 3 < minimum 4: not conquered
    assert area_awards(state, "macedonia") == ({2: 2}, [])
    assert area_awards(state, "epirus") == ({}, [])


def test_military_medal_wins_ties():
    state = board(3, "fulvia", "marcus_antonius", "caius_octavius")
    state["medals"]["military"] = 0
    state["areas"]["macedonia"] = [3, 3, 1]
    assert area_awards(state, "macedonia") == ({0: 5, 1: 2}, [0])  # group 2 gets nothing
    state["medals"]["military"] = 1
    state["areas"]["thrace"] = [4, 2, 2]
    assert area_awards(state, "thrace") == ({0: 8, 1: 4}, [0])  # holder in group 2 takes 2nd


def test_standard_ranking_option_uses_up_ranks():
    # §15 G12 alternative: a 2-way tie for first leaves no 2nd place
    state = board(3, "fulvia", "marcus_antonius", "caius_octavius", battle_ranking="standard")
    state["areas"]["macedonia"] = [3, 3, 1]
    assert area_awards(state, "macedonia") == ({}, [])


def test_milestones_claimed_in_one_gain_and_descending_markers_step_down():
    # §8.1: 4 -> 13 passes 5 and 12; the 12 marker moves to 11; a player already at 11 claims it on the next gain
    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0]["glory"] = 4
    gain_glory(state, 0, 9)
    assert state["players"][0]["followers"] == 3 and state["milestones"][1]["pos"] == 11
    state["players"][1]["glory"] = 11
    state["players"][1]["milestones"] = [0]
    assert state["players"][1]["followers"] == 1
    gain_glory(state, 1, 1)
    assert state["players"][1]["followers"] == 2 and state["milestones"][1]["pos"] == 10
    gain_glory(state, 0, 40)  # past 30 (the +30 flip): every marker passed, capped at 5 followers
    assert state["players"][0]["followers"] == 5 and state["players"][0]["glory"] == 53


def test_glory_never_drops_below_one():
    state = board(2, "fulvia", "marcus_antonius")
    lose_glory(state, 0, 3)
    assert state["players"][0]["glory"] == 1


def test_double_taxation_pays_twice_and_costs_the_red_number():
    # §7.4 seed example: population 3 -> 6 denarii and -2 glory
    state = board(2, "fulvia", "marcus_antonius")
    state["provinces"]["italia"]["population"] = 3
    state["players"][0]["glory"] = 3
    state = act(at(state, {"op": "tax", "seat": 0}), 0, "tax", mode="double")
    assert (state["players"][0]["denarii"], state["players"][0]["glory"]) == (6 + 6, 1)


def test_bonus_tokens_are_uncovered_as_markers_leave():
    # §8.3: with c markers the rightmost c spaces are covered; Antonius's political token needs two plots
    state = board(2, "marcus_antonius", "fulvia")
    antonius = state["players"][0]
    assert active_tokens(antonius) == ["military"]
    antonius["vendetta"] = 2
    assert active_tokens(antonius) == ["military"]
    antonius["vendetta"] = 1
    assert active_tokens(antonius) == ["military", "political"]


def test_launching_a_plot_moves_a_vendetta_marker_and_disrupts():
    # §8.4: the target faces the plot's province; leftmost marker to their rightmost empty space
    state = board(4, "marcus_antonius", "caius_octavius", "fulvia", "aemilius_lepidus")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}  # Gallia faces seat 1
    state["players"][0]["plot_markers"] = 2
    state["players"][1]["glory"] = 3
    assert active_tokens(state["players"][1]) == ["commercial"]
    state = at(state, {"op": "plot_turn", "seat": 0})
    offers = GAME.legal_actions(state, 0)
    assert {o["payload"]["action"] for o in offers if o["type"] == "launch_plot"} == {"disrupt"}
    state = act(state, 0, "launch_plot", province="gallia", space=0, action="disrupt", victim=1)
    assert state["players"][0]["vendetta"] == 2 and state["players"][1]["vendetta"] == 3
    assert active_tokens(state["players"][1]) == []  # the marker covered Octavius's token
    assert state["players"][1]["glory"] == 2
    assert state["provinces"]["gallia"]["plots"][0] == {"owner": 0, "up": False}


def test_sabotage_takes_an_own_piece_from_the_unfinished_tier():
    state = board(4, "marcus_antonius", "caius_octavius", "fulvia", "aemilius_lepidus")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["players"][1]["pantheon"]["foundation"]["own"] = 2
    state = launch_plot(state, "sabotage")
    assert state["players"][1]["pantheon"]["foundation"] == {"own": 1, "metal": None}


def test_defect_replaces_a_target_legion_with_ones_own():
    state = board(4, "marcus_antonius", "caius_octavius", "fulvia", "aemilius_lepidus")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["areas"]["thrace"] = [0, 2, 0, 0]
    state["players"][1]["legions"] -= 2
    state = launch_plot(state, "defect")
    state = act(state, 0, "defect", area="thrace", mode="replace")
    assert state["areas"]["thrace"] == [1, 1, 0, 0] and state["players"][1]["legions"] == 4
    assert state["players"][0]["legions"] == 7


def test_lure_moves_up_to_two_target_legions():
    state = board(4, "fulvia", "caius_octavius", "marcus_antonius", "aemilius_lepidus")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["areas"]["thrace"] = [0, 2, 0, 0]
    state["players"][1]["legions"] -= 2
    state = launch_plot(state, "lure")
    state = act(state, 0, "lure_move", **{"from": "thrace", "to": "epirus"})
    state = act(state, 0, "lure_move", **{"from": "thrace", "to": "macedonia"})
    assert [state["areas"][a][1] for a in ("epirus", "macedonia", "thrace")] == [1, 1, 0]


def test_revote_removes_a_target_vote_and_places_ones_own_on_top():
    state = board(4, "caius_octavius", "fulvia", "marcus_antonius", "aemilius_lepidus")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["senate"] = [0, 1, 0]
    state["players"][1]["votes"] -= 1
    state["players"][0]["votes"] -= 2
    state = launch_plot(state, "revote")
    state = act(state, 0, "pick_vote", position=1)
    assert state["senate"] == [0, 0, 0] and state["players"][0]["glory"] == 1 + 2  # a placement: majority


def test_sell_off_can_hit_an_anchor_which_leaves_the_game():
    state = board(4, "aemilius_lepidus", "fulvia", "marcus_antonius", "caius_octavius")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["players"][1]["hand"] = ["A2"]
    state["unused_anchors"] = ["A1", "A3"]
    state = launch_plot(state, "sell_off")
    assert state["queue"][0]["trigger"] == "on_targeted_by_plot"  # she holds a card: she may react
    state = act(state, 1, "pass")
    assert (
        state["players"][1]["hand"] == []
        and state["removed_cards"] == ["A2"]
        and state["players"][0]["denarii"] == 8 + 2
    )


def test_tariff_takes_a_random_card_into_the_launchers_hand():
    state = board(4, "junia", "fulvia", "marcus_antonius", "caius_octavius", optional_characters=True)
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["players"][1]["hand"] = ["T01"]
    state["commerce_deck"].remove("T01")
    state = launch_plot(state, "tariff")
    state = act(state, 1, "pass")
    assert state["players"][0]["hand"] == ["T01"] and state["players"][1]["hand"] == []


def test_hidden_blade_cancels_the_plot_action_but_not_the_marker():
    # §16.8 W08 reacts when targeted: the vendetta marker stays moved
    state = board(4, "marcus_antonius", "caius_octavius", "fulvia", "aemilius_lepidus")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["players"][1].update(glory=3, hand=["W08"])
    state["commerce_deck"].remove("W08")
    state = launch_plot(state, "disrupt")
    assert GAME.to_act(state) == {1}
    state = act(state, 1, "play_card", card="W08")
    assert state["players"][1]["glory"] == 3 and state["players"][1]["vendetta"] == 3


def test_silver_mirror_draws_after_the_plot_resolves():
    state = board(4, "marcus_antonius", "caius_octavius", "fulvia", "aemilius_lepidus")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["players"][1].update(glory=3, hand=["J06"])
    state["commerce_deck"].remove("J06")
    top = state["commerce_deck"][0]
    state = launch_plot(state, "disrupt")
    state = act(state, 1, "play_card", card="J06")
    assert state["players"][1]["glory"] == 2 and state["players"][1]["hand"] == [top]


def test_colosseum_counts_every_follower_there_including_the_new_one():
    state = board(3, "fulvia", "marcus_antonius", "caius_octavius")
    state["colosseum"] = [1, 2]
    after = act(at(state, PLACE), 0, "place_follower", location="colosseum", use_token=False)
    assert after["players"][0]["glory"] == 2 + 3
    state["options"] = dict(state["options"], colosseum_counts_new_follower=False)
    after = act(at(state, PLACE), 0, "place_follower", location="colosseum", use_token=False)
    assert after["players"][0]["glory"] == 2 + 2


def test_agriculture_pays_by_round_and_the_medal_adds_two():
    state = board(2, "marcus_antonius", "fulvia")
    state["round"] = 4
    state["provinces"]["italia"]["levels"]["agricultural"] = 1
    after = act(at(state, PLACE), 0, "place_follower", location="building:agricultural", use_token=False)
    assert after["players"][0]["denarii"] == 5 + 2
    state["medals"]["agricultural"] = 0
    after = act(at(state, PLACE), 0, "place_follower", location="building:agricultural", use_token=False)
    assert after["players"][0]["denarii"] == 5 + 4


def test_pantheon_tiers_take_the_best_metal_left():
    # §8.9: 3 actions finish the foundation, 4 the building; gold before silver
    state = board(4, "fulvia", "marcus_antonius", "caius_octavius", "aemilius_lepidus")
    for _ in range(7):
        place_pantheon_piece(state, 0)
    for _ in range(3):
        place_pantheon_piece(state, 1)
    assert state["players"][0]["pantheon"] == {
        "foundation": {"own": 2, "metal": "gold"},
        "building": {"own": 3, "metal": "gold"},
    }
    assert state["players"][1]["pantheon"]["foundation"] == {"own": 2, "metal": "silver"}
    assert not place_pantheon_piece(state, 0)  # a finished Pantheon takes nothing more
    lines = final_result(dict(state, phase="over"))["breakdown"]
    assert lines["0"]["pantheon"] == 2 + 4 + 3 + 4 and lines["1"]["pantheon"] == 2 + 3


@BOTH_VERSIONS
def test_completing_a_tier_opens_its_trigger_window(version):
    state = board(4, "fulvia", "marcus_antonius", "caius_octavius", "aemilius_lepidus", rules_version=version)
    state["provinces"]["italia"]["levels"]["religious"] = 1
    state["players"][0]["pantheon"]["foundation"]["own"] = 2
    state["players"][0]["hand"] = ["C05"]
    state["commerce_deck"].remove("C05")
    state = act(at(state, PLACE), 0, "place_follower", location="building:religious", use_token=False)
    state = take_building_actions(state, 0)
    assert state["queue"][0]["trigger"] == "on_pantheon_tier_complete"
    state = act(state, 0, "play_card", card="C05")
    assert state["players"][0]["glory"] == 2 + 2 and state["players"][0]["pantheon"]["foundation"]["metal"] == "gold"


def test_building_three_levels_in_one_turn_takes_the_medal():
    # §7.2 / §16.3: Italia political 2/1, then 5/3, then 8/5; population +1 each; first level 3 -> medal
    state = board(4, "fulvia", "marcus_antonius", "caius_octavius", "aemilius_lepidus")
    state["players"][0]["denarii"] = 30
    state = at(state, {"op": "build_turn", "seat": 0})
    for _ in range(3):
        state = act(state, 0, "build", building="political")
    p = state["players"][0]
    assert (p["denarii"], p["glory"]) == (30 - 15, 2 + 9)
    assert state["provinces"]["italia"]["population"] == 4 and state["medals"]["political"] == 0
    assert state["tiles"]["political"] == [3, 2, 1]
    assert {"type": "build", "payload": {"building": "political"}} not in GAME.legal_actions(state, 0)


@BOTH_VERSIONS
def test_a_draw_at_the_hand_limit_waits_for_room_or_is_forfeited(version):
    # §8.8: hand limit 5; make room by selling or discarding, otherwise the draw is lost
    # (version 3: the building's draw, once there is room, is still the player's to take)
    state = board(2, "fulvia", "marcus_antonius", rules_version=version)
    hand = ["T01", "T02", "T03", "T04", "T05"]
    for c in hand:
        state["commerce_deck"].remove(c)
    state["players"][0]["hand"] = list(hand)
    state["provinces"]["italia"]["levels"]["commercial"] = 1
    state = act(at(state, PLACE), 0, "place_follower", location="building:commercial", use_token=False)
    assert state["queue"][0]["op"] == "draw" and GAME.to_act(state) == {0}
    lost = act(state, 0, "forfeit_draw")
    assert lost["players"][0]["hand"] == hand and lost["commerce_deck"] == state["commerce_deck"]
    top = state["commerce_deck"][0]
    sold = take_building_actions(act(state, 0, "sell_card", card="T01"), 0)
    assert sold["players"][0]["hand"] == hand[1:] + [top] and sold["players"][0]["denarii"] == 6 + 1


def test_sets_score_by_type_and_the_commercial_medal_makes_jewels_wild():
    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0]["hand"] = ["T01", "T02", "J03", "W01", "W02"]
    state = at(state, {"op": "tax", "seat": 0})
    options = [o["payload"] for o in GAME.legal_actions(state, 0) if o["type"] == "form_set"]
    assert options == []
    state["medals"]["commercial"] = 0
    state = act(state, 0, "form_set", cards=["T01", "T02", "J03"], as_type="tool")
    assert state["players"][0]["sets"] == [{"type": "tool", "cards": ["J03", "T01", "T02"]}]
    lines = final_result(dict(state, phase="over"))["breakdown"]
    assert lines["0"]["sets"] == 3


def test_event_ties_all_qualify_and_impossible_bonuses_fall_back():
    # §7.1: all tied players qualify; E02 with no legion in supply pays the fallback 2 denarii
    state = board(2, "fulvia", "marcus_antonius")
    state["event_deck"] = ["E02"]
    state["players"][1]["legions"] = 0
    state["players"][1]["legion_reserve"] = 10
    state = at(state, {"op": "round_start"})
    state["event"] = None
    state = act(
        dict(state, queue=[{"op": "keep_missions", "waiting": [0]}, {"op": "round_start"}]),
        0,
        "keep_missions",
        keep=state["players"][0]["dealt"][:2],
    )
    # E02 is counter-clockwise; Italia's seat 0 starts; Fulvia chooses the area, Antonius is paid
    assert GAME.to_act(state) == {0} and state["queue"][0]["op"] == "deploy"
    state = act(state, 0, "deploy_legion", area="epirus")
    assert state["areas"]["epirus"] == [1, 0] and state["players"][1]["denarii"] == 5 + 2


def test_denarii_convert_four_to_one_or_three_with_the_religious_medal_and_break_ties():
    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0].update(glory=10, denarii=9)
    state["players"][1].update(glory=11, denarii=3)
    result = final_result(state)
    assert result["scores"] == [10 + 2, 11] and result["ranking"] == [1, 2]
    state["players"][0]["denarii"] = 7  # 10 + 1 = 11: tied, more denarii wins
    result = final_result(state)
    assert result["scores"] == [11, 11] and result["ranking"] == [1, 2] and result["tiebreak"] == "most denarii held"
    state["players"][1].update(glory=10, denarii=7)  # 10 + 1 = 11 with 7 denarii each
    assert final_result(state)["ranking"] == [1, 1]  # still tied: shared victory
    state["medals"]["religious"] = 0
    assert final_result(state)["scores"][0] == 10 + 2


def test_missions_goal_scaled_and_ties():
    # §8.14: ties on "most" still score; scaled missions are capped
    state = board(2, "fulvia", "marcus_antonius")
    state["senate"] = [0, 1, 0, 1]
    state["players"][0]["missions"] = ["M01", "M11"]
    state["players"][1]["missions"] = ["M01", "M18"]
    state["areas"]["epirus"] = [0, 3]
    lines = final_result(state)["breakdown"]
    assert lines["0"]["missions"] == {"M01": 5, "M11": 4}
    assert lines["1"]["missions"] == {"M01": 5, "M18": 0}  # only 2 votes of the 3 M18 needs


def test_a_full_hand_may_play_a_card_of_the_open_window_to_make_room():
    # §8.8: before a draw past the limit you may sell, play or discard; playing needs its trigger open
    state = board(4, "fulvia", "marcus_antonius", "caius_octavius", "aemilius_lepidus")
    hand = ["T09", "T01", "T02", "T03", "T04"]
    for c in hand:
        state["commerce_deck"].remove(c)
    state["players"][0]["hand"] = list(hand)
    window = {"op": "window", "seat": 0, "trigger": "on_place_building", "filter": {"building_type": "commercial"}}
    own_draw = at(state, {"op": "draw", "seat": 0}, window)  # the building's own draw: trigger not yet open
    assert not [a for a in GAME.legal_actions(own_draw, 0) if a["type"] == "play_card"]
    state = at(state, {"op": "draw", "seat": 0, "via_card": True}, window)  # drawn by a card of that window
    assert {"type": "play_card", "payload": {"card": "T09"}} in GAME.legal_actions(state, 0)
    first, second = state["commerce_deck"][:2]
    state = act(state, 0, "play_card", card="T09")  # Scales: one more draw, then the waiting one
    assert state["players"][0]["hand"] == hand[1:] + [first]
    assert state["queue"][0]["op"] == "draw" and second in state["commerce_deck"]


def test_event_votes_can_make_a_majority():
    # §7.1 step 3 / §8.7: E03 "fewest votes in the Senate" places a vote; majorities count then too
    state = board(2, "fulvia", "marcus_antonius")
    state["senate"] = [0, 0, 1, 1, 1]
    state["players"][0]["votes"] -= 2
    state["players"][1]["votes"] -= 3
    state["event_deck"] = ["E03"]
    state = act(
        at(state, {"op": "place", "seat": 1}, {"op": "round_start"}),
        1,
        "place_follower",
        location="colosseum",
        use_token=False,
    )
    assert state["senate"] == [0, 0, 0, 1, 1] and state["players"][0]["glory"] == 2 + 2


def test_pact_of_brundisium_gives_nothing_to_players_without_markers():
    # §16.7 E05: most vendetta markers return one; tied at 0 -> nothing to return
    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0]["vendetta"] = 0
    state["players"][1]["vendetta"] = 0
    state["vendetta_pool"] = 20
    state["event_deck"] = ["E05"]
    before = [dict(p) for p in state["players"]]
    state = act(
        at(state, {"op": "place", "seat": 1}, {"op": "round_start"}),
        1,
        "place_follower",
        location="colosseum",
        use_token=False,
    )
    assert [p["vendetta"] for p in state["players"]] == [0, 0] and state["vendetta_pool"] == 20
    assert state["players"][0]["denarii"] == before[0]["denarii"]


def test_an_empty_commerce_deck_reshuffles_the_discards_or_loses_the_draw():
    from events.rng import SeededRng
    from projections.games.age_of_rome.effects import draw_card

    state = board(2, "fulvia", "marcus_antonius")
    state["commerce_deck"], state["commerce_discard"] = [], ["T01"]
    draw_card(state, 0, SeededRng("t"))
    assert state["players"][0]["hand"] == ["T01"] and state["commerce_discard"] == []
    draw_card(state, 0, SeededRng("t"))
    assert state["players"][0]["hand"] == ["T01"]


def test_followers_gained_mid_phase_wait_with_the_option_off():
    # §15 G7: by default a follower won at a milestone is placed in the same action phase
    state = board(2, "fulvia", "marcus_antonius", new_follower_same_phase=False)
    state["players"][0]["glory"] = 4
    state["colosseum"] = [1]
    state["turn_order"] = [0, 1]
    state["players"][1]["placed"] = 1
    state = act(
        at(state, PLACE, {"op": "action_next", "index": 1}), 0, "place_follower", location="colosseum", use_token=False
    )
    assert state["players"][0]["followers"] == 2 and state["queue"] == []  # 4 + 2 = 6 passed 5; the phase ended
    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0]["glory"] = 4
    state["colosseum"] = [1]
    state["turn_order"] = [0, 1]
    state["players"][1]["placed"] = 1
    state = act(
        at(state, PLACE, {"op": "action_next", "index": 1}), 0, "place_follower", location="colosseum", use_token=False
    )
    assert state["queue"][0] == {"op": "place", "seat": 0}


def test_any_opponent_option_lets_the_plot_action_hit_another_player():
    # §15 G1: the marker still goes to the plot's target; the action may hit any opponent
    state = board(
        4, "marcus_antonius", "caius_octavius", "fulvia", "aemilius_lepidus", plot_action_target="any_opponent"
    )
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["players"][3]["glory"] = 4
    state = at(state, {"op": "plot_turn", "seat": 0})
    hits = {
        (o["payload"]["action"], o["payload"]["victim"])
        for o in GAME.legal_actions(state, 0)
        if o["type"] == "launch_plot"
    }
    assert ("disrupt", 3) in hits and ("disrupt", 1) not in hits  # Octavius has 1 glory
    state = act(state, 0, "launch_plot", province="gallia", space=0, action="disrupt", victim=3)
    assert state["players"][1]["vendetta"] == 3 and state["players"][3]["glory"] == 3


def test_ledger_refunds_a_glory_after_double_taxation_only():
    state = board(2, "fulvia", "marcus_antonius")
    state["provinces"]["italia"]["population"] = 3
    state["players"][0].update(glory=5, hand=["T06"])
    state["commerce_deck"].remove("T06")
    doubled = act(at(state, {"op": "tax", "seat": 0}), 0, "tax", mode="double")
    doubled = act(doubled, 0, "play_card", card="T06")
    assert doubled["players"][0]["glory"] == 5 - 2 + 1
    normal = act(at(state, {"op": "tax", "seat": 0}), 0, "tax", mode="normal")
    assert not [a for a in GAME.legal_actions(normal, 0) if a["type"] == "play_card"]


def test_missions_senator_for_life_and_quaestor():
    state = board(2, "fulvia", "marcus_antonius")
    state["senate"] = [1, 1, 0, 1, 0]
    state["players"][0].update(missions=["M17", "M14"], denarii=23)
    lines = final_result(state)["breakdown"]
    assert lines["0"]["missions"] == {"M17": 4, "M14": 4} and lines["0"]["denarii"] == 5
