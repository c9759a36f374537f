"""Whole tournaments folded without Redis: every planned round is accepted by the fold,
points are conserved, standings are ordered, and the fold is deterministic."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from events.tournament_schemas import load_payload
from projections.tournaments import standings
from projections.tournaments.fold import apply, fold
from projections.tournaments.pairing import plan_round


def ev(seq, type_, **payload):
    return {"seq": seq, "type": type_, "payload": load_payload(type_, payload)}


def simulate(n, size, rounds, seed, max_seats=5):
    rand = random.Random(seed)
    fmt = "swiss" if size == 2 else "tables"
    log = [
        ev(
            1,
            "tournament.created",
            id="t",
            game="g",
            name="T",
            format=fmt,
            options={"table_size": size, "rounds": rounds},
            min_seats=2,
            max_seats=2 if size == 2 else max_seats,
        )
    ]
    log += [ev(i + 2, "player.registered", pid=f"p{i}", name=f"N{i}") for i in range(n)]
    state = fold(log)
    for number in range(1, rounds + 1):
        if rand.random() < 0.15 and len([p for p in state["players"].values() if not p["withdrawn"]]) > 3:
            pid = rand.choice([p for p, v in state["players"].items() if not v["withdrawn"]])
            log.append(ev(len(log) + 1, "player.withdrawn", pid=pid))
            state = apply(state, log[-1])
        plan = plan_round(state)
        assert plan == plan_round(json.loads(json.dumps(state)))  # a pure function of the state
        tables = [
            {"table": t["table"], "game_id": f"g{number}-{t['table']}", "seats": t["seats"]} for t in plan["tables"]
        ]
        log.append(ev(len(log) + 1, "round.paired", round=number, tables=tables, byes=plan["byes"]))
        state = apply(state, log[-1])
        for t in tables:
            scores = [rand.randint(0, 3) for _ in t["seats"]]
            ranking = [1 + sum(1 for o in scores if o > s) for s in scores]
            log.append(
                ev(
                    len(log) + 1,
                    "game.reported",
                    round=number,
                    table=t["table"],
                    game_id=t["game_id"],
                    result={"scores": scores, "ranking": ranking},
                )
            )
            state = apply(state, log[-1])
        log.append(ev(len(log) + 1, "round.finished", round=number))
        state = apply(state, log[-1])
    return log, state


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(2, 12), st.sampled_from([2, 3, 4]), st.integers(1, 4), st.integers(0, 10**6))
def test_random_tournaments_fold_and_conserve_points(n, size, rounds, seed):
    log, state = simulate(n, size, rounds, seed)
    assert fold(log) == state  # refolding the whole log gives the same state
    table = standings.compute(state)
    scale = standings.scale(state["options"])
    expected = Fraction(0)
    for rnd in state["rounds"]:
        expected += standings.bye_points(state["options"], state["format"]) * len(rnd["byes"])
        for t in rnd["tables"]:
            expected += sum(
                standings.position_points(t["result"]["ranking"], s, state["options"]) for s in range(len(t["seats"]))
            )
            if len(t["seats"]) == size:
                assert sum(
                    standings.position_points(t["result"]["ranking"], s, state["options"]) for s in range(size)
                ) == sum(scale)
    assert abs(sum(Fraction(str(r["points"])) for r in table) - expected) < Fraction(1, 10**5)
    points = [r["points"] for r in table]
    assert points == sorted(points, reverse=True)
    ranks = [r["rank"] for r in table]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert all(r["rank"] in (i + 1, table[i - 1]["rank"]) for i, r in enumerate(table))
    assert sorted(r["pid"] for r in table) == sorted(state["order"])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(JSON, JSON, JSON, JSON)
def test_a_malformed_bundle_fails_and_never_raises(tournament, games, manifest, standings_):
    from service.audit.bundles import FORMAT, verify_tournament

    for bundle in (
        {"format": FORMAT, "tournament": tournament, "games": games, "manifest": manifest, "standings": standings_},
        tournament,
    ):
        report = verify_tournament(bundle)
        assert report["ok"] is False and report["messages"]
