"""Byes filled by computers, without Redis: the plan seats the players who would sit out
against computers, the fold accepts only tables whose empty seats a computer fills, and
the standings count the game for the player (no bye points, a bye for the rotation) and
give the computer no row."""

from __future__ import annotations

from events.tournament_schemas import load_payload
from projections.tournaments import standings
from projections.tournaments.fold import fold, seat_names
from projections.tournaments.pairing import fill_byes, plan_round

from .test_fold_standings import ev, players, refused, reported


def created(fmt, size, min_seats, max_seats):
    return ev(
        "tournament.created",
        id="t1",
        game="g",
        name="Open",
        format=fmt,
        options={"table_size": size, "rounds": 3},
        min_seats=min_seats,
        max_seats=max_seats,
    )


def paired(plan):
    return ev(
        "round.paired",
        round=plan["round"],
        byes=plan["byes"],
        tables=[{**t, "game_id": f"g{plan['round']}{t['table']}"} for t in plan["tables"]],
    )


def test_a_swiss_bye_becomes_a_game_against_a_computer():
    state = fold([created("swiss", 2, 2, 2), *players("Ann", "Bob", "Cid")])
    plan = plan_round(state)
    assert len(plan["byes"]) == 1
    bye = plan["byes"][0]
    filled = fill_byes(state, plan, 2)
    assert filled["byes"] == [] and filled["tables"][-1] == {"table": 2, "seats": [bye, None], "computers": {"1": 2}}
    state = fold([created("swiss", 2, 2, 2), *players("Ann", "Bob", "Cid"), paired(filled)])
    assert seat_names(state, state["rounds"][0]["tables"][1]) == [
        state["players"][bye]["name"],
        "Computer (strength 2)",
    ]
    state = fold(
        [
            created("swiss", 2, 2, 2),
            *players("Ann", "Bob", "Cid"),
            paired(filled),
            reported(1, 1, [3, 9], [2, 1]),
            reported(1, 2, [4, 8], [2, 1]),
            ev("round.finished", round=1),
        ]
    )
    rows = {r["pid"]: r for r in standings.compute(state)}
    assert set(rows) == {"p0", "p1", "p2"}  # the computer has no row
    assert rows[bye]["points"] == 0 and rows[bye]["games"] == 1 and rows[bye]["byes"] == 1  # lost: no free point
    assert rows[bye]["tiebreaks"]["buchholz"] == 0  # the computer is no one's opponent
    second = plan_round(state)
    assert bye not in second["byes"]  # the bye rotates


def test_byes_at_tables_sit_together_and_computers_fill_the_table():
    # four players, a game of exactly three: one table and one bye
    state = fold([created("tables", 3, 3, 3), *players("Ann", "Bob", "Cid", "Dee")])
    plan = plan_round(state)
    assert len(plan["byes"]) == 1
    filled = fill_byes(state, plan, 1)
    table = filled["tables"][-1]
    assert table["seats"] == [plan["byes"][0], None, None] and table["computers"] == {"1": 1, "2": 1}
    state = fold(
        [
            created("tables", 3, 3, 3),
            *players("Ann", "Bob", "Cid", "Dee"),
            paired(filled),
            reported(1, 1, [1, 2, 3], [3, 2, 1]),
            reported(1, 2, [5, 4, 3], [1, 2, 3]),
        ]
    )
    row = next(r for r in standings.compute(state) if r["pid"] == plan["byes"][0])
    assert row["points"] == 2 and row["byes"] == 1  # first of three: 2 points, as at any table


def test_the_fold_refuses_an_empty_seat_without_a_computer_and_a_table_of_computers():
    state = fold([created("swiss", 2, 2, 2), *players("Ann", "Bob", "Cid")])
    no_computer = {
        "type": "round.paired",
        "payload": load_payload(
            "round.paired",
            {
                "round": 1,
                "byes": [],
                "tables": [
                    {"table": 1, "game_id": "a", "seats": ["p0", "p1"]},
                    {"table": 2, "game_id": "b", "seats": ["p2", None]},
                ],
            },
        ),
    }
    refused(state, no_computer, "bad_pairing")
    nobody = {
        "type": "round.paired",
        "payload": load_payload(
            "round.paired",
            {
                "round": 1,
                "byes": ["p2"],
                "tables": [
                    {"table": 1, "game_id": "a", "seats": ["p0", "p1"]},
                    {"table": 2, "game_id": "b", "seats": [None, None], "computers": {"0": 1, "1": 1}},
                ],
            },
        ),
    }
    refused(state, nobody, "bad_pairing")
