"""Permissions of the rulebook (its 可 / 能 sentences) that the concordance in
docs/rules/sultans_of_karaya.md cites and no other transcript shows: each test quotes the
sentence, then shows the engine offering the choice beside its alternatives."""

from __future__ import annotations

from projections.games.sultans_of_karaya import GAME

from .tables import act, kinds, rd, respond_all, table


def offered(state: dict, seat: int, kind: str) -> list:
    """The target (or swap partner) of every ``kind`` action offered to ``seat``."""
    return [next(iter(a["payload"].values()), None) for a in GAME.legal_actions(state, seat) if a["type"] == kind]


def test_a_turn_offers_each_of_the_three_actions_with_every_target_the_rulebook_allows():
    """2.遊戲進行: 「玩家在進行自家行動回合時,可從下列三種行動中選擇其中一種進行」 -- "on his turn a
    player may choose one of the following three actions": (1) 「玩家可任選其他任何1名玩家,秘密察看
    該玩家的角色卡內容」 investigate any other player; (2) A 「玩家可任選其他任何1名角色卡處於隱藏狀態
    的所屬玩家,與其交換角色卡 ... 玩家亦可與桌面中央的角色卡進行交換」 swap with any face-down player
    or with the centre card; (3) 「玩家將自家角色卡翻至正面(即公開狀態),並執行其角色卡的能力」 reveal
    and use one's ability -- here the Assassin's 「行刺:可殺掉其他任何一位玩家(不論其公開或隱藏)」,
    any other player face up or face down. The face-down Assassin at seat 2 is offered all of
    them, after the Sultan at seat 0 has claimed his throne."""
    state = act(table(["sultan", "guard", "assassin", "slave", "slave"], "slave", first=2), 0, "royal_claim")
    assert {a["type"] for a in GAME.legal_actions(state, 2)} == {"investigate", "swap", "assassinate"}
    assert offered(state, 2, "investigate") == [0, 1, 3, 4]
    assert offered(state, 2, "swap") == [1, 3, 4, "spare"]  # never the face-up Sultan
    assert offered(state, 2, "assassinate") == [0, 1, 3, 4]
    state = act(state, 2, "swap", with_="spare")  # one of them, and the turn passes
    assert rd(state)["owner"] == 3 and rd(state)["cards"][2] == "slave"


def test_a_face_down_belly_dancer_may_dance_or_take_another_action():
    """肚皮舞孃, 行動: 「肚皮舞:可讓其相鄰的守衛無法進行拘留及阻止刺客行動」 -- "Belly dance: [she]
    can make the Guards beside her unable to detain or to stop an Assassin." Dancing is her
    ability action, offered beside investigating and swapping; its effect then holds while she
    stays face up, free and alive (test_transcripts_neutrals::test_an_active_belly_dancer_*)."""
    state = table(["dancer", "guard", "assassin", "slave", "slave", "slave", "sultan"], "vizier", first=0)
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"investigate", "swap", "dance"}
    state = act(state, 0, "investigate", target=1)  # the decline: she keeps her card face down
    assert not rd(state)["revealed"][0]
    assert {"type": "detain", "payload": {"target": 0}} in GAME.legal_actions(state, 1)


def test_a_detained_oracle_keeps_her_prediction_until_she_can_hide():
    """占卜師, 特殊規定: 「若被拘留以致無法隱藏身分,其預言可繼續維持」 -- "if she is detained and so
    cannot hide, her prediction may stand." The Oracle predicts, is detained before her next
    turn: that turn is served in prison, her faction card stays, and she hides on the next
    turn she can act."""
    cards = ["oracle", "guard", "slave", "sultan", "slave", "assassin", "slave"]
    state = act(table(cards, "vizier", first=0), 0, "foretell")
    for target in (2, 3, 4):
        state = act(state, 0, "look", target=target)
    state = act(state, 0, "predict", side="rebels")
    state = respond_all(act(state, 1, "detain", target=0))  # every seat accepts
    assert rd(state)["prison"][0]
    for seat in (2, 3, 4, 5, 6):
        state = act(state, seat, "investigate", target=1)
    assert "turn_skipped" in kinds(state)  # the Oracle's turn, in prison
    r = rd(state)
    assert r["faction"][0] == "rebels" and r["must_hide"][0] and r["revealed"][0] and not r["prison"][0]
    for seat in range(1, 7):
        state = act(state, seat, "investigate", target=2 if seat != 2 else 3)
    assert rd(state)["pending"] == {"kind": "action", "seat": 0, "mode": "forced_hide"}
    state = act(state, 0, "hide", with_=None)
    assert rd(state)["faction"][0] is None


def test_a_sultan_may_execute_a_face_up_rebel_or_take_another_action():
    """蘇丹, 行動: 「處決:可殺掉一個公開的革命軍(不能處決保皇黨或中立角色,亦不能處決隱藏的革命軍)」
    -- "Execute: [the Sultan] may kill one face-up Rebel (not a Loyalist or a neutral role, nor a
    face-down Rebel)." After the Slave at seat 0 has called a revolt alone, the face-down Sultan
    at seat 1 is offered the execution of seat 0 only, beside investigating and swapping; he
    may decline by taking another action, and stays face down."""
    state = table(["slave", "sultan", "slave", "assassin", "guard"], "slave", first=0)
    state = respond_all(act(state, 0, "call_revolt"))  # nobody joins
    assert {a["type"] for a in GAME.legal_actions(state, 1)} == {"investigate", "swap", "execute", "royal_claim"}
    assert offered(state, 1, "execute") == [0]
    state = act(state, 1, "investigate", target=3)
    assert rd(state)["alive"][0] and not rd(state)["revealed"][1] and rd(state)["owner"] == 2
