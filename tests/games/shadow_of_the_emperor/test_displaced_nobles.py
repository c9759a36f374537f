"""Rules version 3: a displaced noble's owner decides what the rulebook leaves to him.

The deposed emperor *may* be placed in any electorate (退下皇位的貴族可放到任何選帝侯領內), so his
owner may keep him off the board; a displaced elector *must* return to an empty aristocrat space
of his electorate, but where there is none a knight *may* be removed (可移走 1名…騎士), and
otherwise the owner takes the noble back (只好收回這名貴族). Version 2 placed both wherever it
could: with one place left it did so without asking, and it never offered keeping the noble.
"""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, card, everyone_passes, put

TAKE_BACK = {"type": "take_back_displaced", "payload": {}}


def ev(seat, type_, **payload):
    return {"type": type_, "seat": seat, "payload": payload}


def deposed_emperor(rules_version: int | None = None) -> dict:
    """Seat 0 is emperor (baron 45 on the throne); seat 1 holds Trier and Köln, takes the Rival
    and wins 2 votes to 0 (nobody else has a vote). Seat 1 has no noble on an aristocrat space,
    so a supply baron 45 mounts the throne, and seat 0's old emperor waits to be placed."""
    opts = {} if rules_version is None else {"rules_version": rules_version}
    state = blank(3, emperor=0, **opts)
    put(state, "trier/elector", 1, age=25)
    put(state, "koeln/elector", 1, age=25)
    state = act(state, 0, "pass")
    state = card(state, 1, "rival")
    state = everyone_passes(state)
    assert state["election"]["totals"] == {"rival": 2, "emperor": 0}
    assert state["emperor"] == 1 and state["throne"] == {"owner": 1, "couple": False, "age": 45}
    assert state["await"] == {"kind": "place_displaced", "seat": 0, "electorate": None}
    assert GAME.to_act(state) == {0}
    assert state["players"][0]["nobles"] == 6
    return state


def test_the_deposed_emperor_may_be_kept_off_the_board():
    """The rulebook, 推選皇帝 Elect Emperor: 「退下皇位的貴族可放到任何選帝侯領內。」 -- "the noble
    leaving the throne *may* be placed in any electorate." His owner is offered every arrival
    space and keeping him: kept, the baron 45 goes back to seat 0's supply, nothing on the board
    changes, and the new emperor's round-1 empire city comes next."""
    state = deposed_emperor()
    assert GAME.version(state) == 3
    offered = GAME.legal_actions(state, 0)
    assert offered[-1] == TAKE_BACK
    placements = offered[:-1]
    assert {a["type"] for a in placements} == {"place_displaced"}
    assert {"type": "place_displaced", "payload": {"space": "sachsen/a0"}} in placements
    assert len(placements) == 3 * 3 + 4 * 4  # every aristocrat space is empty
    kept = act(state, 0, "take_back_displaced")
    assert kept["limbo"] is None and GAME.view(kept, 0)["displaced"] is None
    assert kept["players"][0]["nobles"] == 7
    assert all(slot is None for area in kept["electorates"].values() for slot in area["nobles"])
    assert kept["await"] == {"kind": "empire_city", "seat": 1}
    placed = act(state, 0, "place_displaced", space="sachsen/a0")
    assert placed["electorates"]["sachsen"]["nobles"][0] == {"owner": 0, "couple": False, "age": 45}
    assert placed["players"][0]["nobles"] == 6


def test_the_deposed_emperor_pushes_a_knight_only_if_his_owner_chooses_to():
    """The rulebook, 推選皇帝: 「若玩家選擇的選帝侯領中並無空的權貴位置,可移走 1 名權貴位置上的騎士
    (不論敵我)來讓出空位。」 -- "if the chosen electorate has no empty aristocrat space, a knight
    (friend or foe) *may* be removed to make room." Trier is full with seat 2's knight on
    trier/a2: pushing it is offered beside keeping the old emperor, and keeping him leaves the
    knight where it stands."""
    state = blank(3, emperor=0)
    put(state, "trier/elector", 1, age=25)
    put(state, "koeln/elector", 1, age=25)
    put(state, "trier/a0", 1, couple=True, age=15)
    put(state, "trier/a1", 1, couple=True, age=15)
    put(state, "trier/a2", 2, knight=True)
    put(state, "mainz/a0", 1, couple=True, age=25)  # Mainz seats no couple: it stays here
    state = act(state, 0, "pass")
    state = card(state, 1, "rival")
    state = everyone_passes(state)
    assert state["emperor"] == 1 and state["electorates"]["mainz"]["elector"] is None
    assert state["await"] == {"kind": "enthrone", "seat": 1}
    state = act(state, 1, "enthrone", space="mainz/a0")
    assert state["await"] == {"kind": "place_displaced", "seat": 0, "electorate": None}
    offered = GAME.legal_actions(state, 0)
    assert {"type": "place_displaced", "payload": {"space": "trier/a2"}} in offered  # the knight's
    assert {"type": "place_displaced", "payload": {"space": "mainz/a0"}} in offered  # the vacated space
    assert offered[-1] == TAKE_BACK
    pushed = act(state, 0, "place_displaced", space="trier/a2")
    assert pushed["electorates"]["trier"]["nobles"][2] == {"owner": 0, "couple": False, "age": 45}
    assert pushed["players"][2]["knights"] == 3
    kept = act(state, 0, "take_back_displaced")
    assert kept["electorates"]["trier"]["nobles"][2] == {"owner": 2, "knight": True}
    assert kept["players"][2]["knights"] == 2 and kept["players"][0]["nobles"] == 7


def test_rules_version_2_places_the_deposed_emperor_without_a_way_to_keep_him():
    state = deposed_emperor(rules_version=2)
    assert GAME.version(state) == 2
    offered = GAME.legal_actions(state, 0)
    assert TAKE_BACK not in offered and {a["type"] for a in offered} == {"place_displaced"}
    assert_refused(GAME, state, ev(0, "take_back_displaced"), "wrong_action")


def displaced_from_koeln(rules_version: int | None = None) -> dict:
    """Köln (an archdiocese, three aristocrat spaces): seat 1's elector and his own knight on
    koeln/a2 (influence 2) against seat 2's two couples (4). Seat 2 wins but may seat only a
    single baron there, so the seat empties and seat 1's elector is displaced into a full
    electorate whose only non-noble is seat 1's own knight."""
    opts = {} if rules_version is None else {"rules_version": rules_version}
    state = blank(4, emperor=0, **opts)
    put(state, "koeln/elector", 1, age=25)
    put(state, "koeln/a0", 2, couple=True, age=25)
    put(state, "koeln/a1", 2, couple=True, age=35)
    put(state, "koeln/a2", 1, knight=True)
    return everyone_passes(state)


def test_a_displaced_elector_pushes_a_knight_only_if_his_owner_chooses_to():
    """The rulebook, 新選帝侯 New electors: 「退下選帝侯位置的貴族必須放回該領地內之權貴位置上。
    若領地中並無空的權貴位置,可移走 1名在權貴位置上的騎士來讓出空位。若領地中並無任何空位,則玩家只好收回
    這名貴族。」 -- "the noble leaving the elector space must go back to an aristocrat space of that
    electorate. If it has no empty aristocrat space, a knight on an aristocrat space *may* be
    removed to make room. If it has no place at all, the player has to take the noble back."
    Köln is full; the only knight is seat 1's own: seat 1 is asked, and may keep his knight."""
    state = displaced_from_koeln()
    assert state["electorates"]["koeln"]["elector"] is None
    assert state["await"] == {"kind": "place_displaced", "seat": 1, "electorate": "koeln"}
    assert GAME.to_act(state) == {1}
    assert GAME.legal_actions(state, 1) == [
        {"type": "place_displaced", "payload": {"space": "koeln/a2"}},
        TAKE_BACK,
    ]
    kept = act(state, 1, "take_back_displaced")
    assert kept["electorates"]["koeln"]["nobles"][2] == {"owner": 1, "knight": True}
    assert kept["players"][1]["nobles"] == 7 and kept["players"][1]["knights"] == 2
    assert kept["phase"] == "emperor_actions"
    pushed = act(state, 1, "place_displaced", space="koeln/a2")
    assert pushed["electorates"]["koeln"]["nobles"][2] == {"owner": 1, "couple": False, "age": 25}
    assert pushed["players"][1]["nobles"] == 6 and pushed["players"][1]["knights"] == 3


def test_a_displaced_elector_with_an_empty_space_must_return_to_it():
    """The same passage: 「退下選帝侯位置的貴族必須放回該領地內之權貴位置上」 -- "*must* go back to an
    aristocrat space of that electorate": with empty spaces in Pfalz, keeping him is refused and
    not offered; only the empty spaces are (never a knight's while one is empty)."""
    state = blank(4, emperor=0)
    put(state, "pfalz/elector", 1, age=25)
    put(state, "pfalz/a0", 2, couple=True, age=35)
    put(state, "pfalz/a1", 3, knight=True)
    state = everyone_passes(state)
    assert state["electorates"]["pfalz"]["elector"] == {"owner": 2, "couple": True, "age": 35}
    assert state["await"] == {"kind": "place_displaced", "seat": 1, "electorate": "pfalz"}
    offered = GAME.legal_actions(state, 1)
    assert offered == [{"type": "place_displaced", "payload": {"space": f"pfalz/a{i}"}} for i in (0, 2, 3)]
    assert_refused(GAME, state, ev(1, "take_back_displaced"), "cannot_decline")
    assert_refused(GAME, state, ev(1, "place_displaced", space="pfalz/a1"), "space_available")


def test_rules_version_2_pushes_the_displaced_electors_own_knight_without_asking():
    state = displaced_from_koeln(rules_version=2)
    assert state["electorates"]["koeln"]["nobles"][2] == {"owner": 1, "couple": False, "age": 25}
    assert state["players"][1]["knights"] == 3
    assert state["phase"] == "emperor_actions"
