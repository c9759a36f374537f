"""The tournament fold and standings: given events, then state / standings / error."""

from __future__ import annotations

import pytest

from events.tournament_schemas import load_payload
from projections.tournaments import standings
from projections.tournaments.fold import TournamentError, apply, fold
from projections.tournaments.pairing import plan_round


def ev(type_, **payload):
    return {"type": type_, "payload": load_payload(type_, payload)}


def created(fmt="swiss", size=2, rounds=3, **opts):
    return ev(
        "tournament.created",
        id="t1",
        game="g",
        name="Open",
        format=fmt,
        options={"table_size": size, "rounds": rounds, **opts},
        min_seats=2,
        max_seats=max(size, 2),
    )


def players(*names):
    return [ev("player.registered", pid=f"p{i}", name=n) for i, n in enumerate(names)]


def paired(rnd, tables, byes=()):
    return ev(
        "round.paired",
        round=rnd,
        byes=list(byes),
        tables=[{"table": i + 1, "game_id": f"g{rnd}{i + 1}", "seats": s} for i, s in enumerate(tables)],
    )


def reported(rnd, table, scores, ranking):
    return ev(
        "game.reported", round=rnd, table=table, game_id=f"g{rnd}{table}", result={"scores": scores, "ranking": ranking}
    )


def refused(state, event, code):
    before = repr(state)
    with pytest.raises(TournamentError) as info:
        apply(state, event)
    assert info.value.code == code
    assert repr(state) == before
    return info.value


def test_swiss_points_buchholz_and_bye():
    state = fold(
        [
            created(),
            *players("Ann", "Bob", "Cid"),
            paired(1, [["p0", "p1"]], byes=["p2"]),
            reported(1, 1, [10, 4], [1, 2]),
            ev("round.finished", round=1),
        ]
    )
    table = standings.compute(state)
    assert [(r["pid"], r["points"]) for r in table] == [("p0", 1), ("p2", 1), ("p1", 0)]
    # p0's Buchholz counts p1's 0 points; p2 had a bye (no opponent) -> 0 as well; game score breaks the tie
    assert table[0]["tiebreaks"]["buchholz"] == 0 and table[0]["tiebreaks"]["game_score"] == 10
    assert table[0]["rank"] == 1 and table[1]["rank"] == 2


def test_a_draw_shares_the_points():
    state = fold([created(), *players("Ann", "Bob"), paired(1, [["p0", "p1"]]), reported(1, 1, [5, 5], [1, 1])])
    assert [r["points"] for r in standings.compute(state)] == [0.5, 0.5]
    assert [r["rank"] for r in standings.compute(state)] == [1, 1]


def test_table_points_by_position_and_head_to_head():
    state = fold(
        [
            created("tables", 3, 2),
            *players("A", "B", "C", "D", "E", "F"),
            paired(1, [["p0", "p1", "p2"], ["p3", "p4", "p5"]]),
            reported(1, 1, [30, 20, 20], [1, 2, 2]),
            reported(1, 2, [40, 20, 10], [1, 2, 3]),
        ]
    )
    rows = {r["pid"]: r for r in standings.compute(state)}
    assert rows["p0"]["points"] == 2 and rows["p3"]["points"] == 2
    assert rows["p1"]["points"] == 0.5 and rows["p2"]["points"] == 0.5  # places 2 and 3 shared
    assert rows["p4"]["points"] == 1 and rows["p5"]["points"] == 0
    order = [r["pid"] for r in standings.compute(state)]
    assert order[:2] == ["p3", "p0"]  # tied on points; total game score 40 beats 30


def test_head_to_head_breaks_a_tie_of_points_and_score():
    state = fold(
        [
            created("tables", 3, 2),
            *players("A", "B", "C"),
            paired(1, [["p0", "p1", "p2"]]),
            reported(1, 1, [10, 10, 0], [1, 2, 3]),
            ev("round.finished", round=1),
            paired(2, [["p1", "p0", "p2"]]),
            reported(2, 1, [10, 10, 0], [1, 2, 3]),
        ]
    )
    rows = standings.compute(state)
    # p0 and p1: 2+1 points and 20 score each; each finished ahead once -> still tied, rank shared
    assert rows[0]["rank"] == rows[1]["rank"] == 1 and rows[2]["rank"] == 3
    state = fold(
        [
            created("tables", 3, 2),
            *players(*"ABCDEF"),
            paired(1, [["p0", "p1", "p2"], ["p3", "p4", "p5"]]),
            reported(1, 1, [10, 5, 0], [1, 2, 3]),
            reported(1, 2, [1, 1, 1], [1, 1, 1]),
            ev("round.finished", round=1),
            paired(2, [["p0", "p3", "p4"], ["p1", "p2", "p5"]]),
            reported(2, 1, [0, 9, 9], [3, 1, 1]),
            reported(2, 2, [5, 0, 6], [2, 3, 1]),
        ]
    )
    rows = {r["pid"]: r for r in standings.compute(state)}
    # A (p0) and B (p1): 2 points and 10 game score each; A finished ahead of B in round 1
    assert rows["p0"]["points"] == rows["p1"]["points"] == 2
    assert rows["p0"]["tiebreaks"]["head_to_head"] == 1 and rows["p1"]["tiebreaks"]["head_to_head"] == -1
    assert rows["p0"]["rank"] < rows["p1"]["rank"]


def test_custom_points_scale_and_smaller_tables():
    state = fold(
        [
            created("tables", 3, 1, points=[4, 2, 0]),
            *players("A", "B", "C", "D", "E"),
            paired(1, [["p0", "p1", "p2"], ["p3", "p4"]]),
            reported(1, 1, [3, 2, 1], [1, 2, 3]),
            reported(1, 2, [3, 2], [1, 2]),
        ]
    )
    rows = {r["pid"]: r["points"] for r in standings.compute(state)}
    assert rows == {"p0": 4, "p1": 2, "p2": 0, "p3": 4, "p4": 0}


def test_registering_twice_is_refused():
    state = fold([created(), *players("Ann")])
    refused(state, ev("player.registered", pid="p9", name=" ann "), "already_registered")
    refused(state, ev("player.registered", pid="p0", name="Zed"), "already_registered")


def test_pairing_before_the_previous_round_is_finished_is_refused():
    state = fold([created(), *players("A", "B"), paired(1, [["p0", "p1"]])])
    refused(state, paired(2, [["p1", "p0"]]), "round_in_progress")
    refused(state, ev("round.finished", round=1), "round_in_progress")


def test_reporting_a_game_outside_the_tournament_is_refused():
    state = fold([created(), *players("A", "B"), paired(1, [["p0", "p1"]])])
    refused(
        state,
        ev("game.reported", round=1, table=1, game_id="elsewhere", result={"scores": [1, 0], "ranking": [1, 2]}),
        "game_not_in_tournament",
    )
    state = apply(state, reported(1, 1, [1, 0], [1, 2]))
    refused(state, reported(1, 1, [1, 0], [1, 2]), "already_reported")


def test_a_round_must_seat_every_active_player_once():
    state = fold([created(), *players("A", "B", "C")])
    refused(state, paired(1, [["p0", "p1"]]), "bad_pairing")
    refused(state, paired(1, [["p0", "p1"], ["p2", "p0"]]), "bad_pairing")


def test_withdrawn_players_are_not_paired_again():
    state = fold(
        [
            created(rounds=2),
            *players("A", "B", "C", "D"),
            paired(1, [["p0", "p1"], ["p2", "p3"]]),
            reported(1, 1, [1, 0], [1, 2]),
            reported(1, 2, [1, 0], [1, 2]),
            ev("round.finished", round=1),
            ev("player.withdrawn", pid="p3"),
        ]
    )
    plan = plan_round(state)
    seated = sorted([p for t in plan["tables"] for p in t["seats"]] + plan["byes"])
    assert seated == ["p0", "p1", "p2"]
    assert {r["pid"]: r["withdrawn"] for r in standings.compute(state)}["p3"] is True
    refused(state, ev("player.withdrawn", pid="p3"), "already_withdrawn")
    refused(state, ev("player.withdrawn", pid="nobody"), "unknown_player")


def test_no_round_beyond_the_planned_number():
    state = fold(
        [
            created(rounds=1),
            *players("A", "B"),
            paired(1, [["p0", "p1"]]),
            reported(1, 1, [1, 0], [1, 2]),
            ev("round.finished", round=1),
        ]
    )
    refused(state, paired(2, [["p1", "p0"]]), "no_more_rounds")
    state = apply(state, ev("tournament.finished"))
    refused(state, ev("player.registered", pid="p7", name="Late"), "tournament_finished")


def test_plan_round_one_swiss_and_tables():
    state = fold([created(), *players("A", "B", "C", "D", "E")])
    plan = plan_round(state)
    assert len(plan["tables"]) == 2 and plan["byes"] == ["p4"]
    state = fold([created("tables", 3), *players(*"ABCDEFGHI")])
    plan = plan_round(state)
    assert [len(t["seats"]) for t in plan["tables"]] == [3, 3, 3]
