"""A live stream that starts behind its tail (``?after=`` or an old ``Last-Event-ID``)
catches up a page of the log at a time, never in one read of the whole log."""

from __future__ import annotations

from service.http import live
from tests.platform.helpers import GameHandle


class CountingLog:
    """The game log, with the spans of its reads written down."""

    def __init__(self, log):
        self._log, self.spans = log, []

    def read(self, game_id, after=0, upto=None):
        entries = self._log.read(game_id, after=after, upto=upto)
        self.spans.append(len(entries))
        return entries

    def __getattr__(self, name):
        return getattr(self._log, name)


def test_a_stream_behind_its_tail_catches_up_page_by_page(client, services, monkeypatch):
    game = GameHandle(client, options={"rounds": 5})
    for _ in range(6):
        game.play_first()
    head = game.meta()["seq"]
    monkeypatch.setattr(live, "CATCH_UP_PAGE", 3)
    log = CountingLog(services.log)
    tails = live.LiveTails(log, services.games)
    seen = []
    for chunk in live.event_stream(tails, game.id, 0, seconds=0.5):
        seen += [int(line[4:]) for line in chunk.split(b"\n") if line.startswith(b"id: ")]  # a batch: one write
    assert seen == list(range(1, head + 1))
    assert log.spans and max(log.spans) <= 3
