"""The ratings fold's promises, as properties: the order results reach the stream in
does not matter (only the order the games finished in), a correction gives what a
right first result would have given, and the server's incremental fold equals the
fold of everything at once."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from projections import ratings

ACCOUNTS = [f"a{i}" for i in range(6)]


@st.composite
def results(draw):
    count = draw(st.integers(min_value=1, max_value=8))
    out = []
    for n in range(count):
        seats = draw(st.integers(min_value=2, max_value=4))
        accounts = draw(st.permutations(ACCOUNTS))[:seats]
        ranking = draw(st.lists(st.integers(min_value=1, max_value=seats), min_size=seats, max_size=seats))
        out.append(
            {
                "game_id": f"g{n}",
                "game": draw(st.sampled_from(["x", "y"])),
                "finished_at": f"t{n:03d}",
                "head": f"h{n}",
                "seq": 9,
                "accounts": list(accounts),
                "ranking": ranking,
            }
        )
    return out


@settings(max_examples=40, deadline=None)
@given(results(), st.randoms(use_true_random=False))
def test_arrival_order_does_not_matter_and_incremental_equals_whole(found, rand):
    expected = ratings.numbers(ratings.fold(found))
    arrived = list(found)
    rand.shuffle(arrived)
    assert ratings.numbers(ratings.fold(arrived)) == expected
    live = ratings.Fold()
    for r in arrived:
        live.add(r)
    assert ratings.numbers(live.out) == expected


@settings(max_examples=30, deadline=None)
@given(results(), st.data())
def test_a_correction_equals_the_right_result_first_time(found, data):
    which = data.draw(st.integers(min_value=0, max_value=len(found) - 1))
    wrong = found[which]
    right = {**wrong, "ranking": list(reversed(wrong["ranking"])), "head": "corrected", "finished_at": "t999"}
    corrected = ratings.fold([*found, right])
    first_time = ratings.fold(
        [r if i != which else {**right, "finished_at": wrong["finished_at"]} for i, r in enumerate(found)]
    )
    assert ratings.numbers(corrected) == ratings.numbers(first_time)
    live = ratings.Fold()
    for r in [*found, right]:
        live.add(r)
    assert ratings.numbers(live.out) == ratings.numbers(first_time)


def _tournament_game(*extra: dict) -> list[dict]:
    def entry(seq: int, type_: str, payload: dict, actor: dict | None = None) -> dict:
        return {"seq": seq, "type": type_, "payload": payload, "actor": actor or {}, "ts": f"t{seq}", "hash": f"h{seq}"}

    created = {"game_id": "w1", "game": "toy", "seats": ["a", "b"], "tournament": {"id": "t1"}, "bots": {}}
    bound = [entry(2 + s, "seat.bound", {"seat": s, "account": name}) for s, name in enumerate(["ann", "bob"])]
    finished = entry(9, "game.finished", {"result": {"ranking": [1, 2]}})
    return [entry(1, "game.created", created), *bound, *[entry(4 + i, **e) for i, e in enumerate(extra)], finished]


def test_a_tournament_withdrawal_played_on_by_a_computer_is_rated():
    """The withdrawn seat ranks last and the result is rated, as docs/RATINGS.md says."""
    withdrew = {"type_": "referee.bot", "payload": {"seat": 1, "strength": 1, "withdrawn": True}}
    result = ratings.results_from_export(_tournament_game(withdrew))
    assert result is not None and result["accounts"] == ["ann", "bob"] and result["ranking"] == [1, 2]
    pstate = {
        "status": "finished",
        "ranked": True,
        "bots": {"1": 1},
        "withdrawn": [1],
        "result": {"ranking": [1, 2]},
        "accounts": {"0": "ann", "1": "bob"},
        "seats": ["a", "b"],
    }
    assert ratings.is_rateable(pstate)
    assert not ratings.is_rateable({**pstate, "withdrawn": []})  # an empty chair filled by a computer is not


def test_a_computer_on_a_seat_nobody_withdrew_from_is_not_rated():
    empty_chair = {"type_": "referee.bot", "payload": {"seat": 1, "strength": 1}}
    assert ratings.results_from_export(_tournament_game(empty_chair)) is None


@settings(max_examples=30, deadline=None)
@given(results(), st.randoms(use_true_random=False))
def test_repeat_weights_keep_arrival_order_irrelevant(found, rand):
    """Rules 2 weigh a repeated meeting by the games before it that day: still a
    function of the finishing order alone, live or folded at once."""
    found = [{**r, "rules": 2, "finished_at": f"2026-11-{27 + i % 2}T{r['finished_at']}"} for i, r in enumerate(found)]
    expected = ratings.numbers(ratings.fold(found))
    arrived = list(found)
    rand.shuffle(arrived)
    live = ratings.Fold()
    for r in arrived:
        live.add(r)
    assert ratings.numbers(live.out) == expected
