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
