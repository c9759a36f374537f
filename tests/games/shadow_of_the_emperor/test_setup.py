"""Setup (digest section 5) and the 2- and 3-player reductions (section 14)."""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, new_game


def test_setup_follows_the_start_placement_order_and_round_one_opens_at_phase_four():
    """S5: emperor places an empire city, a 45 baron goes on the throne, the others place a
    45 baron on an elector space clockwise, then couple 35, baron 25, couple 15 and a knight
    each from the emperor; everyone has 7 thalers; round 1 begins at phase IV."""
    state = new_game(4, first_emperor=2)
    assert state["await"] == {"kind": "setup", "seat": 2, "piece": "empire_city"}
    state = act(state, 2, "place_start_piece", space="sachsen/city0")
    assert state["throne"] == {"owner": 2, "couple": False, "age": 45}
    assert state["empire_in_box"] == 2
    asked = []
    script = {
        "elector": iter(["trier/elector", "pfalz/elector", "boehmen/elector"]),
    }
    spaces = iter(f"{e}/a{i}" for e in ("pfalz", "sachsen", "brandenburg", "boehmen") for i in range(4))
    while state["phase"] == "setup":
        pending = state["await"]
        asked.append((pending["piece"], pending["seat"]))
        if pending["piece"] in script:
            space = next(script[pending["piece"]])
        else:
            space = next(spaces)
        state = act(state, pending["seat"], "place_start_piece", space=space)
    assert asked == [("elector", 3), ("elector", 0), ("elector", 1)] + [
        (piece, seat) for piece in ("couple35", "baron25", "couple15", "knight") for seat in (2, 3, 0, 1)
    ]
    assert state["electorates"]["trier"]["elector"] == {"owner": 3, "couple": False, "age": 45}
    assert state["electorates"]["pfalz"]["nobles"][0] == {"owner": 2, "couple": True, "age": 35}
    assert state["electorates"]["boehmen"]["nobles"][3] == {"owner": 1, "knight": True}
    assert state["phase"] == "actions" and state["round"] == 1
    assert state["await"] == {"kind": "turn", "seat": 2}
    assert [p["thalers"] for p in state["players"]] == [7] * 4
    assert [p["nobles"] for p in state["players"]] == [3, 3, 3, 3]  # 7 minus a 45 (throne or elector), 35, 25, 15
    assert [p["knights"] for p in state["players"]] == [2, 2, 2, 2]
    assert sum(1 for e in state["electorates"].values() if e["elector"] is None) == 4


def test_setup_refuses_an_occupied_space():
    state = new_game(3, first_emperor=0)
    state = act(state, 0, "place_start_piece", space="trier/city0")
    state = act(state, 1, "place_start_piece", space="trier/elector")
    assert_refused(
        GAME, state, {"type": "place_start_piece", "seat": 2, "payload": {"space": "trier/elector"}}, "space_occupied"
    )
    assert_refused(
        GAME, state, {"type": "place_start_piece", "seat": 0, "payload": {"space": "koeln/elector"}}, "not_your_turn"
    )


def test_starting_emperor_is_drawn_when_not_given():
    """S5.5: any method; the engine draws it with the seeded generator (same seed, same draw)."""
    drawn = {new_game(4, seed=f"s{i}")["emperor"] for i in range(20)}
    assert drawn == {0, 1, 2, 3}
    assert new_game(4, seed="x")["emperor"] == new_game(4, seed="x")["emperor"]


def test_card_stacks_per_player_count():
    """S7.1 and S14: Doctor 3/2/1, Permit 4/3/2, Ordinance 3/2/1, Move 2, others 1;
    20 takeable cards for 4 players (21 with the Knight reminder), 17 for 3, 14 for 2."""
    four, three, two = (new_game(n)["stacks"] for n in (4, 3, 2))
    assert (four["doctor"], three["doctor"], two["doctor"]) == (3, 2, 1)
    assert (four["permit"], three["permit"], two["permit"]) == (4, 3, 2)
    assert (four["ordinance"], three["ordinance"], two["ordinance"]) == (3, 2, 1)
    assert four["move"] == three["move"] == two["move"] == 2
    assert (sum(four.values()), sum(three.values()), sum(two.values())) == (20, 17, 14)


def test_two_players_remove_one_archdiocese_and_one_secular_electorate_at_random():
    """S14: a drawn Doctor card removes the archdiocese on its back, a drawn Permit card the
    secular electorate on its back; five electorates stay in play; one elector at setup."""
    removed = set()
    for i in range(30):
        state = new_game(2, seed=f"two-{i}")
        out = [e for e, area in state["electorates"].items() if not area["in_play"]]
        assert len(out) == 2 and out == state["removed"]
        assert out[0] in ("trier", "koeln", "mainz") and out[1] in ("pfalz", "sachsen", "brandenburg", "boehmen")
        removed.update(out)
    assert removed == {"trier", "koeln", "mainz", "pfalz", "sachsen", "brandenburg", "boehmen"}


def test_removed_electorate_accepts_no_piece():
    """S9.3: an electorate out of play accepts no pieces."""
    state = new_game(2, seed="two-0", first_emperor=0)
    gone = state["removed"][1]
    state = act(
        state, 0, "place_start_piece", space="trier/city0" if "trier" not in state["removed"] else "koeln/city0"
    )
    assert f"{gone}/elector" not in [a["payload"]["space"] for a in GAME.legal_actions(state, 1)]
    assert_refused(
        GAME, state, {"type": "place_start_piece", "seat": 1, "payload": {"space": f"{gone}/elector"}}, "invalid_space"
    )


def test_three_players_keep_all_seven_electorates():
    state = new_game(3)
    assert all(area["in_play"] for area in state["electorates"].values())
