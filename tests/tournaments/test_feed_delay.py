"""The omniscient feed's delay: at no moment does the feed show an entry the delay
still holds back, and it shows the latest one it does not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.tournaments import feed_delay
from projections.tournaments.feed_delay import visible_seq

delays = st.one_of(
    st.builds(lambda n: {"entries": n}, st.integers(0, 30)),
    st.builds(lambda m: {"minutes": m}, st.one_of(st.integers(0, 30), st.floats(0, 30))),
    st.just({"after_game": True}),
)


@st.composite
def logs(draw: st.DrawFn) -> list[tuple[int, float]]:
    gaps = draw(st.lists(st.floats(0, 600, allow_nan=False), max_size=40))
    ts, out = 1_000_000.0, []
    for seq, gap in enumerate(gaps, start=1):
        ts += gap
        out.append((seq, ts))
    return out


def allowed(delay: dict, entries: list[tuple[int, float]], seq: int, now: float, finished: bool) -> bool:
    """The specification, entry by entry: may the feed show the state at ``seq`` now?"""
    written = [s for s, t in entries if t <= now]
    ts = dict(entries)[seq]
    if ts > now:
        return False
    if "after_game" in delay:
        return finished and len(written) == len(entries)
    if "entries" in delay:
        return len([s for s in written if s > seq]) >= delay["entries"]
    return ts <= now - delay["minutes"] * 60


@settings(max_examples=400, deadline=None)
@given(delays, logs(), st.floats(0, 30_000), st.booleans())
def test_the_feed_shows_the_latest_entry_older_than_the_delay_and_never_a_newer_one(delay, entries, after, finished):
    now = (entries[0][1] if entries else 1_000_000.0) + after - 600
    shown = visible_seq(delay, entries, now, finished)
    permitted = [s for s, _ in entries if allowed(delay, entries, s, now, finished)]
    assert shown == (max(permitted) if permitted else None)


@settings(max_examples=200, deadline=None)
@given(delays, logs(), st.floats(0, 30_000), st.floats(0, 30_000))
def test_the_feed_never_steps_back_as_time_passes(delay, entries, a, b):
    start = entries[0][1] if entries else 0.0
    earlier = visible_seq(delay, entries, start + min(a, b), False)
    later = visible_seq(delay, entries, start + max(a, b), False)
    assert (earlier or 0) <= (later or 0)


@pytest.mark.parametrize(
    "value",
    [
        None,
        {},
        {"entries": -1},
        {"entries": 1.5},
        {"entries": True},
        {"minutes": "5"},
        {"after_game": False},
        {"entries": 1, "minutes": 2},
        {"minutes": 10**9},
        {"seconds": 3},
    ],
)
def test_a_bad_delay_is_refused(value):
    with pytest.raises(feed_delay.DelayError):
        feed_delay.parse(value)


def test_the_default_holds_the_whole_game_back():
    entries = [(1, 0.0), (2, 10.0)]
    assert visible_seq(feed_delay.DEFAULT, entries, 10_000.0, False) is None
    assert visible_seq(feed_delay.DEFAULT, entries, 10_000.0, True) == 2


def test_the_directors_delay_is_an_entry_of_the_tournament_stream():
    from projections.tournaments.fold import TournamentError, fold

    created = {
        "type": "tournament.created",
        "payload": {
            "id": "t1",
            "game": "toy",
            "name": "Open",
            "format": "swiss",
            "options": {"table_size": 2, "rounds": 1},
            "min_seats": 2,
            "max_seats": 2,
        },
    }
    set_ = {"type": "feed.delay_set", "payload": {"delay": {"minutes": 5}, "reason": "commentary"}}
    state = fold([created, set_])
    assert state is not None and state["feed_delay"] == {"minutes": 5}
    with pytest.raises(TournamentError):
        fold([created, {"type": "feed.delay_set", "payload": {"delay": {"minutes": -5}}}])


@settings(max_examples=300, deadline=None)
@given(logs(), st.integers(0, 30), st.data())
def test_at_the_edge_of_a_minutes_delay_an_entry_shows_only_once_it_is_old_enough(entries, minutes, data):
    """Moments just either side of an entry's age reaching the delay, where an off-by-a-bit
    rule would show it early."""
    if not entries:
        return
    seq, ts = data.draw(st.sampled_from(entries))
    now = ts + minutes * 60 + data.draw(st.floats(-2, 2))
    shown = visible_seq({"minutes": minutes}, entries, now, False)
    permitted = [s for s, _ in entries if allowed({"minutes": minutes}, entries, s, now, False)]
    assert shown == (max(permitted) if permitted else None)
