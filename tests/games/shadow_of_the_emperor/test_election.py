"""Phase VI (digest S6 VI, S10): targets, vote counts, the secret simultaneous vote,
the result, and crowning the Rival."""

from __future__ import annotations

from projections.games.base import REFEREE
from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, card, everyone_passes, put


def electors(seats: int = 4) -> dict:
    """Seat 0 emperor holding Pfalz (1 vote); seat 1 Trier (1), seat 2 Bohemia (2), seat 3
    Saxony (1). Each elector alone in its electorate keeps its seat in phase V."""
    state = blank(seats, emperor=0)
    put(state, "pfalz/elector", 0, age=25)
    put(state, "trier/elector", 1, age=25)
    put(state, "boehmen/elector", 2, age=25)
    put(state, "sachsen/elector", 3, age=25)
    put(state, "koeln/a0", 1, couple=True, age=35)
    put(state, "koeln/a1", 1, couple=True, age=15)
    return state


def to_vote(state: dict, rival: int = 1) -> dict:
    state = act(state, 0, "pass")
    state = card(state, rival, "rival")
    return everyone_passes(state)


def test_without_a_rival_there_is_no_election_and_the_pope_does_nothing():
    state = electors()
    state = act(state, 0, "pass")
    state = card(state, 1, "pope")
    state = everyone_passes(state)
    assert state["phase"] == "emperor_actions" and state["election"] is None


def test_candidates_vote_for_themselves_and_the_others_commit_secretly():
    state = to_vote(electors())
    assert GAME.to_act(state) == {2, 3}
    assert state["await"] == {"kind": "vote", "seats": [2, 3]}
    assert GAME.view(state, 2)["voting"]["counts"] == [1, 1, 2, 1]


def test_a_committed_vote_is_hidden_from_every_other_viewer_in_views_log_and_errors():
    """S15.2: no view, log line or error shows a committed vote until all have voted."""
    state = to_vote(electors())
    event = {"type": "vote", "seat": 3, "payload": {"side": "rival"}}
    for_rival = GAME.apply(state, event, None)
    for_emperor = GAME.apply(state, {**event, "payload": {"side": "emperor"}}, None)
    for viewer in (0, 1, 2, None):
        assert GAME.view(for_rival, viewer) == GAME.view(for_emperor, viewer)
        assert GAME.redact(event, viewer)["payload"] == {"hidden": True}
    assert GAME.view(for_rival, 3)["voting"]["own_vote"] == "rival"
    assert GAME.view(for_rival, REFEREE)["voting"]["votes"] == {"3": "rival"}
    assert GAME.redact(event, 3) == event and GAME.redact(event, REFEREE) == event
    again = {"type": "vote", "seat": 3, "payload": {"side": "emperor"}}
    one = assert_refused(GAME, for_rival, again, "not_your_turn")
    two = assert_refused(GAME, for_emperor, again, "not_your_turn")
    assert (one.message, one.details) == (two.message, two.details)
    assert GAME.view(for_rival, 2)["voting"]["committed"] == [3]


def test_all_votes_are_revealed_at_once_and_a_tie_keeps_the_emperor():
    """S6 VI 4: Rival 1 + seat 3's 1 = 2 against emperor 1 + ... -> here seat 2 (2 votes)
    sides with the emperor: 3 to 2, the emperor stays and seat 2 alone scores 1 VP."""
    state = to_vote(electors())
    state = act(state, 3, "vote", side="rival")
    state = act(state, 2, "vote", side="emperor")
    election = state["election"]
    assert election["totals"] == {"rival": 2, "emperor": 3} and election["winner"] == "emperor"
    assert election["choices"] == {"0": "emperor", "1": "rival", "2": "emperor", "3": "rival"}
    assert GAME.view(state, None)["last_election"] == election
    assert [p["vp"] for p in state["players"]] == [2, 0, 1, 0]  # seat 0's 2 are the emperor reward
    assert state["emperor"] == 0


def test_a_tie_keeps_the_emperor_and_strictly_more_crowns_the_rival():
    """S6 VI 4: the Rival wins only with strictly more votes."""
    state = electors()
    put(state, "brandenburg/elector", 0, age=25)  # the emperor has 2 votes
    state = to_vote(state)
    state = act(state, 2, "vote", side="rival")  # rival 1 + 2 = 3
    state = act(state, 3, "vote", side="emperor")  # emperor 2 + 1 = 3
    assert state["election"]["totals"] == {"rival": 3, "emperor": 3}
    assert state["election"]["winner"] == "emperor" and state["emperor"] == 0
    state = to_vote(electors())
    state = act(state, 3, "vote", side="emperor")  # emperor 1 + 1 = 2
    state = act(state, 2, "vote", side="rival")  # rival 1 + 2 = 3
    assert state["election"]["winner"] == "rival" and state["emperor"] == 1


def test_a_winning_rival_enthrones_a_noble_from_an_aristocrat_space_and_the_old_emperor_is_placed_by_its_owner():
    """S6 VI 6: the Rival moves one of his nobles (never an elector) to the throne keeping age
    and side; the old emperor tile goes to an aristocrat space anywhere, chosen by its owner;
    voters on the winning side score 1 VP, the candidates nothing."""
    state = to_vote(electors())
    state = act(state, 3, "vote", side="rival")
    state = act(state, 2, "vote", side="rival")
    assert state["election"]["totals"] == {"rival": 4, "emperor": 1}
    assert state["await"] == {"kind": "enthrone", "seat": 1}
    assert_refused(
        GAME, state, {"type": "enthrone", "seat": 1, "payload": {"space": "trier/elector"}}, "not_on_aristocrat_space"
    )
    state = act(state, 1, "enthrone", space="koeln/a0")
    assert state["throne"] == {"owner": 1, "couple": True, "age": 35}
    assert state["emperor"] == 1
    assert state["await"] == {"kind": "place_displaced", "seat": 0, "electorate": None}
    state = act(state, 0, "place_displaced", space="sachsen/a3")
    assert state["electorates"]["sachsen"]["nobles"][3] == {"owner": 0, "couple": False, "age": 45}
    assert [p["vp"] for p in state["players"]] == [0, 2, 1, 1]  # seat 1's 2 are the emperor reward
    assert state["await"] == {"kind": "empire_city", "seat": 1}


def test_excommunication_cancels_bohemia_s_two_votes_and_church_influence_adds_the_elector_colour():
    """S7.6-7.7: targets named clockwise from the emperor, Church Influence first; the Trier
    elector (seat 1) gains 1 per own noble and knight in Trier, not counting the elector;
    Bohemia excommunicated counts 0; the Pope adds 1."""
    state = electors()
    put(state, "trier/a0", 1, age=15)
    put(state, "trier/a1", 1, knight=True)
    put(state, "trier/a2", 2, age=15)
    state = card(state, 0, "pope")
    state = card(state, 1, "church_influence")
    state = card(state, 2, "excommunication")
    state = act(state, 3, "pass")
    state = act(state, 0, "pass")
    state = card(state, 1, "rival")
    state = everyone_passes(state)
    assert state["await"] == {"kind": "name_target", "seat": 1, "card": "church_influence"}
    assert_refused(
        GAME, state, {"type": "name_target", "seat": 1, "payload": {"electorate": "pfalz"}}, "wrong_electorate_type"
    )
    state = act(state, 1, "name_target", electorate="trier")
    assert state["await"] == {"kind": "name_target", "seat": 2, "card": "excommunication"}
    state = act(state, 2, "name_target", electorate="boehmen")
    # seat 0: Pfalz 1 + Pope 1 = 2; seat 1: Trier 1 + 2 = 3; seat 2: 0 (excommunicated); seat 3: 1
    assert GAME.view(state, None)["voting"]["counts"] == [2, 3, 0, 1]
    assert GAME.to_act(state) == {3}  # a seat with no vote does not vote
    state = act(state, 3, "vote", side="emperor")
    assert state["election"]["totals"] == {"rival": 3, "emperor": 3} and state["election"]["winner"] == "emperor"
    assert state["players"][2]["vp"] == 0 and state["players"][3]["vp"] == 1


def test_with_no_eligible_voter_the_election_resolves_at_once():
    state = blank(2, emperor=0)
    put(state, "throne", 0, couple=True, age=25)
    state = act(state, 0, "pass")
    state = card(state, 1, "rival")
    assert state["election"]["totals"] == {"rival": 0, "emperor": 0}
    assert state["emperor"] == 0


def test_church_influence_on_an_archdiocese_without_elector_does_nothing():
    state = electors()
    put(state, "mainz/a0", 2, couple=True, age=15)  # a couple: Mainz stays without elector
    state = card(state, 0, "church_influence")
    state = card(state, 1, "rival")
    state = everyone_passes(state)
    state = act(state, 0, "name_target", electorate="mainz")
    assert GAME.view(state, None)["voting"]["counts"] == [1, 1, 2, 1]


def test_only_the_last_vote_reveals_hidden_information():
    """The reveal of all votes is what an undo must not cross without consent."""
    state = to_vote(electors())
    first = {"type": "vote", "seat": 3, "payload": {"side": "rival"}}
    middle = GAME.apply(state, first, None)
    assert not GAME.reveals(state, first, middle)
    last = {"type": "vote", "seat": 2, "payload": {"side": "rival"}}
    assert GAME.reveals(middle, last, GAME.apply(middle, last, None))
