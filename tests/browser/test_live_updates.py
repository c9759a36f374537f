"""The table follows its game live: a move appended while the page's push starts (the
spectator's stream, the seat's socket) is shown without waiting for another one (the
push starts after the seq the page drew)."""

from __future__ import annotations

import re

import pytest

from .driver import SEQ_AT_LEAST, open_table


@pytest.mark.parametrize("viewer", ["spectator", "seat"])
def test_a_move_made_while_the_push_opens_is_shown(live_server, page, viewer):
    created = live_server.create("carcassonne_castle", ["Ada", "Brunel"])
    gid = created["id"]
    seat = live_server.meta(gid)["to_act"][0]
    mover, watcher = created["seats"][seat]["token"], created["seats"][1 - seat]["token"]
    seq = live_server.meta(gid)["seq"]
    moved = []

    def move():
        """The page has drawn the table at ``seq``: the other seat moves before its push starts."""
        if not moved:
            moved.append(
                live_server.ok("POST", f"/games/{gid}/actions", mover, json=live_server.actions(gid, mover)[0])
            )

    def stream(route):
        move()
        route.continue_()

    def socket(ws):
        move()
        server = ws.connect_to_server()
        ws.on_message(lambda message: server.send(message))
        server.on_message(lambda message: ws.send(message))

    page.route(re.compile(r"/stream"), stream)
    page.route_web_socket(re.compile(r"/socket$"), socket)
    open_table(page, live_server, gid, watcher if viewer == "seat" else None)
    page.wait_for_function(SEQ_AT_LEAST, arg=seq + 1, timeout=4000)
    assert moved and live_server.meta(gid)["seq"] == seq + 1
