"""What waits for an answer reaches the page a phone shows without a reload: a pending
undo request and an open dispute in the table's banner above the board, and a new
dispute in an open referee console within a second or two (it is a log entry, so the
live stream carries it)."""

from __future__ import annotations

import random

from .driver import open_table
from .helpers import wait_for

GAME = "caylus"


def test_the_banner_shows_a_pending_undo_and_an_open_dispute_and_the_console_gets_the_dispute_live(
    live_server, browser, new_page
):
    g = live_server.create(GAME, ["Ada", "Brunel"])
    tokens = [s["token"] for s in g["seats"]]
    rand, refused = random.Random(7), []
    first = live_server.meta(g["id"])["to_act"][0]
    other = 1 - first
    assert live_server.bot_move(g["id"], tokens, [first], rand, refused), refused
    moved_at = live_server.meta(g["id"])["seq"]
    while first in live_server.meta(g["id"])["to_act"]:  # the first seat's turn may hold several moves
        assert live_server.bot_move(g["id"], tokens, [first], rand, refused), refused
    assert live_server.bot_move(g["id"], tokens, [other], rand, refused), refused

    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    open_table(phone, live_server, g["id"], tokens[other])
    referee = new_page()
    referee.goto(f"{live_server.url}/games/{g['id']}/referee#token={g['referee_token']}")
    referee.wait_for_selector("#referee-log li")
    assert referee.locator("#disputes .kind-dispute").count() == 0

    asked = live_server.ok("POST", f"/games/{g['id']}/undo", tokens[first], json={"to_seq": moved_at - 1})
    assert asked["status"] == "requested"
    phone.wait_for_selector("#turn #pending-note:has-text('asked to undo back to step')")

    live_server.ok(
        "POST",
        f"/games/{g['id']}/annotations",
        tokens[first],
        json={"seq": moved_at, "text": "misclick", "kind": "dispute"},
    )
    referee.wait_for_selector("#disputes .kind-dispute", timeout=2_000)  # no reload: the stream brought it
    phone.wait_for_selector("#turn #pending-note:has-text('Disputes open: 1')")
    assert phone.evaluate("document.querySelector('#turn').getBoundingClientRect().top") < 844  # on the first screen
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    dispute = live_server.meta(g["id"])["disputes"][0]["id"]
    live_server.ok("POST", f"/games/{g['id']}/undo/{asked['request_id']}/decline", tokens[other])
    live_server.ok(
        "POST", f"/games/{g['id']}/referee/dismiss", g["referee_token"], json={"dispute": dispute, "reason": "stands"}
    )
    wait_for(lambda: live_server.meta(g["id"])["disputes"] == [], what="the dispute to be settled")
    phone.wait_for_selector("#turn #pending-note", state="detached")
    # the seat's own way to dispute from the table: the replay's note form, ready for it
    phone.click("#dispute-link")
    phone.wait_for_selector("#annotation-form")
    assert phone.eval_on_selector("#annotation-kind", "s => s.value") == "dispute"
    assert phone.evaluate("document.activeElement.id") == "annotation-text"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors
    context.close()
