"""The table follows its game live: a move appended while the page's stream starts is
shown without waiting for another one (the stream starts after the seq the page drew)."""

from __future__ import annotations

import re

from .driver import SEQ_AT_LEAST, open_table


def test_a_move_made_while_the_stream_opens_is_shown(live_server, page):
    created = live_server.create("carcassonne_castle", ["Ada", "Brunel"])
    gid = created["id"]
    seat = live_server.meta(gid)["to_act"][0]
    mover, watcher = created["seats"][seat]["token"], created["seats"][1 - seat]["token"]
    seq = live_server.meta(gid)["seq"]
    moved = []

    def move_then_open(route):
        """The page has drawn the table at ``seq``: the other seat moves before its stream starts."""
        if not moved:
            moved.append(
                live_server.ok("POST", f"/games/{gid}/actions", mover, json=live_server.actions(gid, mover)[0])
            )
        route.continue_()

    page.route(re.compile(r"/stream"), move_then_open)
    open_table(page, live_server, gid, watcher)
    page.wait_for_function(SEQ_AT_LEAST, arg=seq + 1, timeout=4000)
    assert moved and live_server.meta(gid)["seq"] == seq + 1
