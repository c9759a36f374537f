"""Rules version 3: the rulebook's own words on forbidding a detention and on the swap-back rule.

Each test quotes the rulebook passage it shows (the Chinese text, then an English translation)
and drives the game through its public protocol: given these events, when this one, then this
offer, refusal or state. Games recorded under versions 1 and 2 keep the older readings
(``test_rules_version_2_*`` below and the pinned tests of the other files).
"""

from __future__ import annotations

from projections.games.sultans_of_karaya import GAME
from tests.games.harness import assert_refused

from .tables import act, event, kinds, rd, respond_all, table

# Eight seats: the Guard at seat 0 detains seat 1. The other hidden cards differ from deal to
# deal: a Sultan elsewhere and a second Guard; the Sultan as the target; the Sultan in the
# spare; the second Guard in the spare. Nothing public tells these deals apart.
DEALS = [
    (["guard", "slave", "sultan", "assassin", "slave", "guard", "slave", "assassin"], "dancer"),
    (["guard", "sultan", "slave", "assassin", "slave", "slave", "guard", "assassin"], "dancer"),
    (["guard", "slave", "slave", "assassin", "slave", "assassin", "dancer", "guard"], "sultan"),
    (["guard", "slave", "slave", "assassin", "slave", "assassin", "dancer", "sultan"], "guard"),
]
FORBID = {"type": "respond", "payload": {"window": 1, "choice": "forbid"}}
ACCEPT = {"type": "respond", "payload": {"window": 1, "choice": "accept"}}


def answers(state: dict, seat: int) -> list[dict]:
    """The window answers offered to ``seat`` (a face-down Sultan is also offered his claim)."""
    return [a for a in GAME.legal_actions(state, seat) if a["type"] == "respond"]


def detained_one(deal: int = 0, **options) -> dict:
    """Seat 0's Guard names seat 1 for detention: the FORBID window is open."""
    cards, spare = DEALS[deal]
    return act(table(cards, spare, first=0, **options), 0, "detain", target=1)


def test_a_hidden_sultan_elsewhere_at_the_table_may_forbid_the_detention():
    """Sultan, 回應: 「禁止拘留:當守衛進行拘留時,可公開身分,以禁止守衛進行拘留」 -- "Forbid
    detention: when a Guard detains, [the Sultan] may reveal himself to forbid the Guard's
    detention." And 2.遊戲進行 (3): 「「回應(防禦能力)」則可在符合條件下的任何時刻,於玩家公開角色卡
    後立刻執行(此不耗費玩家行動)」 -- "a response may be used at any moment its condition holds,
    right as the player reveals the card (it costs no action)." Nothing limits it to the
    detained player: the face-down Sultan at seat 2 is asked while seat 1 is the target, may
    forbid (he reveals, the crown goes to the turn owner, nobody is detained) or accept."""
    state = detained_one()
    assert rd(state)["pending"]["window"] == "forbid"
    assert GAME.to_act(state) == {1, 2, 3, 4, 5, 6, 7}
    assert answers(state, 2) == [FORBID, ACCEPT]
    assert answers(state, 1) == [ACCEPT]  # the Slave named cannot forbid
    forbidden = respond_all(state, {2: "forbid"})
    r = rd(forbidden)
    assert r["revealed"] == [True, False, True, False, False, False, False, False]
    assert not any(r["prison"]) and r["crown"] == 0
    assert {"kind": "detention_forbidden", "seats": [2], "guard": 0, "target": 1} in forbidden["notes"]
    assert r["owner"] == 1  # the detention was the Guard's action: the turn moves on
    # the decline: every seat accepts, seat 1 is detained and the Sultan stays face down
    accepted = respond_all(state)
    assert {"kind": "detained", "seat": 1} in accepted["notes"] and "turn_skipped" in kinds(accepted)
    assert rd(accepted)["owner"] == 2 and not rd(accepted)["revealed"][2] and rd(accepted)["crown"] is None


def test_a_second_guard_elsewhere_may_forbid_and_every_forbidder_reveals():
    """Guard, 回應: 「禁止拘留:當守衛進行拘留時,可公開身分,以禁止守衛進行拘留」 -- "Forbid
    detention: when a Guard detains, [a Guard] may reveal himself to forbid the Guard's
    detention." The face-down Guard at seat 5 forbids on his own; when he and the Sultan both
    forbid, the sealed answers resolve together: both reveal, the detention fails once."""
    state = detained_one()
    assert answers(state, 5) == [FORBID, ACCEPT]
    alone = respond_all(state, {5: "forbid"})
    assert rd(alone)["revealed"][5] and not rd(alone)["prison"][1] and rd(alone)["crown"] is None
    both = respond_all(state, {5: "forbid", 2: "forbid"})
    r = rd(both)
    assert r["revealed"][2] and r["revealed"][5] and not r["prison"][1] and r["crown"] == 0
    assert {"kind": "detention_forbidden", "seats": [2, 5], "guard": 0, "target": 1} in both["notes"]


def test_a_face_up_target_may_be_saved_by_a_face_down_sultan():
    """「禁止拘留:當守衛進行拘留時,可公開身分,以禁止守衛進行拘留」 -- the condition is only "when
    a Guard detains": the Guard's 拘留 names 「其他任何一位玩家(不論其公開或隱藏)」 "any other
    player, face up or face down", and a face-down Sultan may forbid it either way. A face-up
    Slave is detained: the window asks every face-down seat (the Slave itself is known to hold
    no Sultan or Guard)."""
    state = table(["guard", "slave", "sultan", "assassin", "slave"], "slave", first=1)
    state = respond_all(act(state, 1, "call_revolt"))  # seat 1 face up; nobody joins
    for seat, target in [(2, 3), (3, 4), (4, 2)]:
        state = act(state, seat, "investigate", target=target)
    state = act(state, 0, "detain", target=1)
    assert rd(state)["pending"]["eligible"] == [2, 3, 4] and GAME.to_act(state) == {2, 3, 4}
    assert answers(state, 2) == [
        {"type": "respond", "payload": {"window": 2, "choice": "forbid"}},
        {"type": "respond", "payload": {"window": 2, "choice": "accept"}},
    ]
    state = respond_all(state, {2: "forbid"})
    assert {"kind": "detention_forbidden", "seats": [2], "guard": 0, "target": 1} in state["notes"]
    assert rd(state)["revealed"][2] and rd(state)["owner"] == 1  # seat 1 plays its turn


def test_who_is_asked_to_forbid_and_what_each_seat_sees_never_depend_on_hidden_roles():
    """「禁止拘留:當守衛進行拘留時,可公開身分,以禁止守衛進行拘留」: any Sultan or Guard may
    forbid, so asking only the seats that hold one would name them. The same detention on four
    deals that differ only in face-down cards (a Sultan and a Guard elsewhere, the Sultan as
    the target, either of them in the spare): the same seats are asked, the same window is
    shown to every seat and to spectators; a seat learns only its own answers (its own card,
    which it always knows): forbid and accept for a Sultan or Guard, accept for anyone else."""
    states = [detained_one(deal) for deal in range(len(DEALS))]
    spectator = GAME.view(states[0], None)
    for deal, state in enumerate(states):
        assert GAME.to_act(state) == {1, 2, 3, 4, 5, 6, 7}, deal
        assert GAME.view(state, None) == spectator, deal
        for seat in range(1, 8):
            seen = GAME.view(state, seat)
            assert seen["awaiting"] == spectator["awaiting"] and seen["to_act"] == spectator["to_act"]
            assert seen["notes"] == spectator["notes"] and seen["summary"] == spectator["summary"]
            can = rd(state)["cards"][seat] in ("sultan", "guard")
            assert answers(state, seat) == ([FORBID, ACCEPT] if can else [ACCEPT])
    # every answer is sealed: after a forbid and an accept the public sees the same table
    cards = rd(states[0])["cards"]
    a = act(states[0], 2, "respond", window=1, choice="forbid")
    b = act(states[0], 2, "respond", window=1, choice="accept")
    assert cards[2] == "sultan"
    for viewer in [None, *range(8)]:
        if viewer != 2:
            assert GAME.view(a, viewer) == GAME.view(b, viewer)


def test_forbidding_is_refused_to_a_seat_whose_card_cannot_and_to_the_guard_who_detains():
    """The window asks every face-down seat alike; one holding no Sultan or Guard may only
    accept (「禁止拘留」 is the Sultan's and the Guard's response), and the detaining Guard is
    not asked about his own detention."""
    state = detained_one()
    assert_refused(GAME, state, event(1, "respond", window=1, choice="forbid"), "invalid_choice")
    assert_refused(GAME, state, event(0, "respond", window=1, choice="forbid"), "not_your_turn")


def test_a_face_up_sultan_may_be_named_for_detention_and_forbids_or_accepts_it():
    """Guard, 行動: 「拘留:可指定拘留其他任何一位玩家(不論其公開或隱藏)」 -- "Detain: [the Guard]
    may name any other player, face up or face down, for detention." A face-up Sultan is a
    legal target; he is asked like any Sultan (「禁止拘留 ... 可公開身分,以禁止守衛進行拘留」) and
    may forbid it (his card is already face up) or accept it. Version 2 refused the target
    (test_illegal_actions::test_revealed_sultan_or_guard_cannot_be_detained)."""
    state = table(["guard", "sultan", "slave", "assassin", "slave"], "slave", first=0)
    state = act(state, 1, "royal_claim")  # on seat 0's turn: the crown lies before seat 0
    assert {"type": "detain", "payload": {"target": 1}} in GAME.legal_actions(state, 0)
    state = act(state, 0, "detain", target=1)
    # the only Sultan and the only Guard are face up: nobody face down can hold one
    assert rd(state)["pending"]["eligible"] == [1] and answers(state, 1) == [FORBID, ACCEPT]
    forbidden = respond_all(state, {1: "forbid"})
    assert {"kind": "detention_forbidden", "seats": [1], "guard": 0, "target": 1} in forbidden["notes"]
    assert rd(forbidden)["owner"] == 1 and GAME.to_act(forbidden) == {1}
    accepted = respond_all(state)
    assert {"kind": "detained", "seat": 1} in accepted["notes"] and "turn_skipped" in kinds(accepted)
    assert rd(accepted)["owner"] == 2 and rd(accepted)["crown"] == 0


# Eight seats: the Guard at seat 0 detains the face-down Guard at seat 3; the Assassin at seat 2
# then attacks the Sultan at seat 4, and seat 3 sits beside both.
BLOCK_TABLE = ["guard", "slave", "assassin", "guard", "sultan", "slave", "slave", "assassin"]


def detained_guard_beside_an_attack(**options) -> dict:
    state = table(BLOCK_TABLE, "dancer", first=0, **options)
    state = respond_all(act(state, 0, "detain", target=3))  # every seat accepts
    assert rd(state)["prison"][3] and rd(state)["owner"] == 1
    state = act(state, 1, "investigate", target=5)
    return act(state, 2, "assassinate", target=4)


def test_a_detained_guard_beside_the_assassin_may_still_block():
    """Guard, 回應: 「阻止刺客:當刺客行刺時,若持有此卡牌玩家在刺客或行刺對象鄰位,可讓刺客行刺失敗,
    並將刺客殺害」 -- "Stop the Assassin: when an Assassin strikes, if the holder of this card sits
    beside the Assassin or the target, he may make the attack fail and kill the Assassin." The
    only condition is the seat; detention 「須暫停進行1個行動回合」 "pauses one action turn", and a
    response 「此不耗費玩家行動」 "uses no action". So a detained Guard beside the attack is asked
    and may block or pass (option ``detained_guard_may_block``, now true by default)."""
    state = detained_guard_beside_an_attack()
    assert rd(state)["pending"]["window"] == "block" and rd(state)["pending"]["eligible"] == [1, 3, 5]
    offered = [a["payload"]["choice"] for a in GAME.legal_actions(state, 3)]
    assert offered == ["block", "pass"]
    blocked = respond_all(state, {3: "block"})
    assert not rd(blocked)["alive"][2] and rd(blocked)["alive"][4] and rd(blocked)["revealed"][3]
    passed = respond_all(state)
    assert passed["history"][0]["winner"] == "rebels"  # the Sultan died


def test_the_old_reading_keeps_a_detained_guard_from_blocking_when_chosen():
    """``detained_guard_may_block = false`` keeps the reading games were created with before
    (their ``game.created`` names it): a detained Guard is not asked."""
    state = detained_guard_beside_an_attack(detained_guard_may_block=False)
    assert rd(state)["pending"]["eligible"] == [1, 5]


def test_rules_version_2_asks_only_the_face_down_target():
    """Games recorded under version 2 keep its reading (G4): only the target may forbid."""
    state = detained_one(rules_version=2)
    assert GAME.to_act(state) == {1}
    assert answers(state, 2) == []
    state = respond_all(state)
    assert {"kind": "detained", "seat": 1} in state["notes"] and rd(state)["owner"] == 2


# -- the swap-back rule ------------------------------------------------------------------------
FIVE = ["sultan", "guard", "assassin", "slave", "slave"]
BOTH = {"swap_back_rule": "both_directions_open"}
SWAP_TWO = {"type": "swap", "payload": {"with": 2}}


def round_of_looks(state: dict) -> dict:
    """Seats 1 to 4 investigate; play comes back to seat 0."""
    for seat, target in [(1, 3), (2, 3), (3, 4), (4, 3)]:
        state = act(state, seat, "investigate", target=target)
    assert rd(state)["owner"] == 0
    return state


def test_both_directions_open_keeps_the_swapper_from_swapping_back_on_its_next_turn():
    """2.遊戲進行 (2): 「玩家在進行角色卡交換時,不能與先前回合與自家交換的角色卡所屬玩家進行交換」
    -- "when swapping, a player may not swap with the player whose card was exchanged with his
    own in a previous turn." Under ``swap_back_rule = both_directions_open`` this binds both
    parties of an open swap: seat 0 swaps with seat 2; seat 2 may not swap back on its turn,
    and seat 0 may not swap with seat 2 on its own next turn; on the turn after, it may."""
    state = act(table(FIVE, "slave", first=0, **BOTH), 0, "swap", with_=2)
    assert_refused(GAME, act(state, 1, "investigate", target=3), event(2, "swap", with_=0), "swap_back")
    state = round_of_looks(state)
    assert SWAP_TWO not in GAME.legal_actions(state, 0)
    assert_refused(GAME, state, event(0, "swap", with_=2), "swap_back")
    state = act(state, 0, "swap", with_="spare")
    state = round_of_looks(state)
    assert SWAP_TWO in GAME.legal_actions(state, 0)


def test_by_default_only_the_partner_of_an_open_swap_is_kept_from_swapping_back():
    """The default ``incoming_open_only``: the seat swapped with may not swap back before its
    own turn ends; the swapper itself may swap with it again on its next turn."""
    state = act(table(FIVE, "slave", first=0), 0, "swap", with_=2)
    assert_refused(GAME, act(state, 1, "investigate", target=3), event(2, "swap", with_=0), "swap_back")
    state = round_of_looks(state)
    assert SWAP_TWO in GAME.legal_actions(state, 0)


def test_rules_version_2_both_directions_open_changes_nothing():
    """Version 2 cleared the swapper's own restriction at the end of the same turn, so the
    option changed no game; games recorded under version 2 keep folding so."""
    state = act(table(FIVE, "slave", first=0, rules_version=2, **BOTH), 0, "swap", with_=2)
    state = round_of_looks(state)
    assert SWAP_TWO in GAME.legal_actions(state, 0)
