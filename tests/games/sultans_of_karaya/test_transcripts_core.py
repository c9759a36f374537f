"""Transcripts of the core rules, worked out by hand; each cites the digest section it shows."""

from __future__ import annotations

from projections.games.sultans_of_karaya import GAME
from projections.games.sultans_of_karaya.components import DISTRIBUTION, NEUTRAL_POOL
from projections.games.sultans_of_karaya.table import neighbours

from .tables import act, kinds, rd, respond_all, table

FIVE = ["sultan", "guard", "assassin", "slave", "slave"]


def test_every_player_count_deals_the_seed_table():
    """Digest 3: fixed blue/red counts, the table's number of neutrals, players + 1 cards."""
    from events.rng import SeededRng

    for seats, counts in DISTRIBUTION.items():
        state = GAME.setup({**GAME.options_schema().load({})}, seats, SeededRng(f"deal{seats}", 0))
        r = rd(state)
        dealt = r["cards"] + [r["spare"]]
        assert len(dealt) == seats + 1
        for role in ("sultan", "guard", "assassin", "slave"):
            assert dealt.count(role) == counts[role]
        neutrals = [c for c in dealt if c in NEUTRAL_POOL]
        assert len(neutrals) == len(set(neutrals)) == counts["neutrals"]
        assert sorted(neutrals + r["set_aside"]) == sorted(NEUTRAL_POOL)


def test_royal_claim_crowns_the_turn_owner_and_loyalists_win_a_circuit_later():
    """7.1 royal claim, 11.2 crown check, 12.1 scoring (revealed 2, hidden 1), 12.3 next start."""
    state = table(FIVE, "slave", first=0)
    state = act(state, 0, "royal_claim")
    assert rd(state)["crown"] == 0 and rd(state)["revealed"][0]
    assert GAME.to_act(state) == {0}  # the claim costs no action
    state = act(state, 0, "investigate", target=1)
    for seat, target in [(1, 2), (2, 3), (3, 4), (4, 1)]:
        assert state["round"] == 1
        state = act(state, seat, "investigate", target=target)
    last = state["history"][0]
    assert last["winner"] == "loyalists"
    assert last["points"] == [2, 1, 0, 0, 0]  # Sultan revealed 2, hidden Guard 1, Rebels 0
    assert last["ender"] == 0 and state["round"] == 2
    assert rd(state)["owner"] == 1  # left of the crown's seat


def test_unblocked_assassination_of_the_sultan_wins_for_the_rebels():
    """7.3 assassinate, 13.2 BLOCK eligibility (public), 11.1 R1, 12.1 scoring."""
    cards = ["assassin", "slave", "sultan", "slave", "guard"]
    state = table(cards, "slave", first=0)
    state = act(state, 0, "assassinate", target=2)
    pending = rd(state)["pending"]
    # adjacent to the assassin (1, 4) or the target (1, 3), hidden while a guard is unseen
    assert pending["window"] == "block" and pending["eligible"] == [1, 3, 4]
    assert GAME.legal_actions(state, 1) == [{"type": "respond", "payload": {"window": 1, "choice": "pass"}}]
    assert {a["payload"]["choice"] for a in GAME.legal_actions(state, 4)} == {"block", "pass"}
    state = respond_all(state)
    h = state["history"][0]
    assert h["winner"] == "rebels" and h["points"] == [2, 1, 0, 1, 0]
    assert rd(state)["owner"] == 1  # left of the turn owner who ended the round


def test_a_guard_block_kills_the_assassin_instead():
    """7.2 block response: the Guard reveals, the Assassin dies, the target lives."""
    cards = ["assassin", "slave", "sultan", "slave", "guard"]
    state = table(cards, "slave", first=0)
    state = act(state, 0, "assassinate", target=2)
    state = respond_all(state, {4: "block"})
    r = rd(state)
    assert not r["alive"][0] and r["alive"][2] and r["revealed"][4]
    assert {"kind": "blocked", "seats": [4], "assassin": 0} in state["notes"]
    assert state["round"] == 1 and r["owner"] == 1  # two slaves and the spare slave: rebels can still win


def test_detention_of_a_hidden_sultan_can_be_forbidden():
    """7.1/7.2 forbid detention (target only, G4): the Sultan reveals, crown to the turn owner.
    Rules version 2; from version 3 every Sultan and Guard is asked (test_transcripts_rulebook)."""
    cards = ["guard", "sultan", "slave", "assassin", "slave"]
    state = table(cards, "slave", first=0, rules_version=2)
    state = act(state, 0, "detain", target=1)
    assert GAME.to_act(state) == {1} and rd(state)["pending"]["window"] == "forbid"
    state = respond_all(state, {1: "forbid"})
    r = rd(state)
    assert r["revealed"][1] and not r["prison"][1] and r["crown"] == 0
    assert r["owner"] == 1


def test_an_accepted_detention_costs_the_next_turn_then_the_prison_returns():
    """8: prison lasts until the end of the seat's next turn, which it spends doing nothing."""
    cards = ["guard", "slave", "sultan", "assassin", "slave"]
    state = table(cards, "slave", first=0)
    state = act(state, 0, "detain", target=1)
    # a hidden Slave is asked too (public eligibility) but may only accept
    assert GAME.legal_actions(state, 1) == [{"type": "respond", "payload": {"window": 1, "choice": "accept"}}]
    state = respond_all(state)
    r = rd(state)
    assert "turn_skipped" in kinds(state) and not r["prison"][1] and r["owner"] == 2


def test_a_revolt_is_scored_only_when_its_window_closes():
    """7.4 call and join; 11.1 R2 three adjacent revealed free slaves; 11.3 G15 timing."""
    cards = ["slave", "slave", "slave", "sultan", "guard"]
    state = table(cards, "assassin", first=1)
    state = act(state, 1, "call_revolt")
    assert state["round"] == 1 and rd(state)["pending"]["eligible"] == [0, 2, 3, 4]
    state = respond_all(state, {0: "join", 2: "join"})
    h = state["history"][0]
    assert h["winner"] == "rebels" and h["points"] == [2, 2, 2, 0, 0]
    assert rd(state)["owner"] == 2


def test_a_revolt_without_three_in_a_row_goes_on():
    cards = ["slave", "slave", "slave", "sultan", "guard"]
    state = table(cards, "assassin", first=1)
    state = act(state, 1, "call_revolt")
    state = respond_all(state, {0: "join"})
    assert state["round"] == 1 and rd(state)["revealed"][:3] == [True, True, False]


def test_the_sultan_executes_a_revealed_slave():
    """7.1 execute: only revealed Assassins or Slaves; the executioner reveals (crown)."""
    cards = ["slave", "sultan", "slave", "assassin", "guard"]
    state = table(cards, "slave", first=0)
    state = act(state, 0, "call_revolt")
    state = respond_all(state)
    assert [a["payload"] for a in GAME.legal_actions(state, 1) if a["type"] == "execute"] == [{"target": 0}]
    state = act(state, 1, "execute", target=0)
    r = rd(state)
    assert not r["alive"][0] and r["revealed"][1] and r["crown"] == 1


def test_dead_seats_are_skipped_and_a_crown_on_a_dead_seat_still_counts():
    """10 adjacency skips the dead; 11.2 passing over the crown's (dead) seat; 12.3 ender = crown seat."""
    cards = ["slave", "guard", "assassin", "slave", "sultan"]
    state = table(cards, "slave", first=2)
    state = act(state, 4, "royal_claim")  # out of turn: crown before the turn owner, seat 2
    assert rd(state)["crown"] == 2
    state = act(state, 2, "assassinate", target=3)
    assert rd(state)["pending"]["eligible"] == [1, 3]  # revealed Sultan 4 is no Guard
    state = respond_all(state, {1: "block"})
    r = rd(state)
    assert not r["alive"][2] and neighbours(r, 1) == [0, 3] and r["owner"] == 3
    for seat, target in [(3, 0), (4, 0), (0, 3), (1, 0)]:
        assert state["round"] == 1
        state = act(state, seat, "investigate", target=target)
    h = state["history"][0]
    assert h["winner"] == "loyalists" and h["points"] == [0, 2, 0, 0, 2] and h["ender"] == 2
    assert rd(state)["owner"] == 3


def test_rebels_that_can_no_longer_win_hand_the_round_to_the_loyalists():
    """11.1 L2: no Assassin and at most two Slaves among living cards and the spare."""
    state = table(FIVE, "slave", first=2)
    state = act(state, 2, "assassinate", target=3)
    state = respond_all(state)
    assert not rd(state)["alive"][3]
    for seat, target in [(4, 0), (0, 1), (1, 0)]:
        state = act(state, seat, "investigate", target=target)
    state = act(state, 2, "assassinate", target=1)
    assert rd(state)["pending"]["eligible"] == [0, 1, 4]
    state = respond_all(state, {1: "block"})
    h = state["history"][0]
    assert h["winner"] == "loyalists" and h["points"] == [1, 2, 0, 0, 0]
    assert rd(state)["owner"] == 3  # left of the turn owner (seat 2)


def test_round_turn_limit_ends_a_stalemate_with_no_points():
    """G17: optional safeguard; nobody scores, the next round starts left of the turn owner."""
    state = table(FIVE, "slave", first=0, round_turn_limit=3)
    for seat, target in [(0, 1), (1, 2), (2, 3)]:
        state = act(state, seat, "investigate", target=target)
    h = state["history"][0]
    assert h["winner"] is None and h["points"] == [0] * 5 and rd(state)["owner"] == 3


def test_window_timeout_gives_every_missing_seat_the_default():
    """13.2: the system closes a window; missing answers take the default (pass)."""
    cards = ["assassin", "slave", "sultan", "slave", "guard"]
    state = table(cards, "slave", first=0)
    state = act(state, 0, "assassinate", target=2)
    state = act(state, 4, "respond", window=1, choice="block")
    state = GAME.apply(
        state,
        {"type": "window_timeout", "seat": None, "payload": {"window": 1}},
        __import__("events.rng", fromlist=["SeededRng"]).SeededRng("x", 0),
    )
    assert not rd(state)["alive"][0]  # the one answer given (block) still counts
