"""The lobby seats a computer: a named, keyboard-operable "who plays" control per seat;
the created game's computer seat has no link, and the bot runner plays its move, which
the person's table then shows. Screenshot: tests/browser/artifacts/lobby-computer-seat.png."""

from __future__ import annotations

import random

from projections.bots.search import Budget
from service.adapters.connection import connect
from tests.services import services_over

from .axe import audit, axe_script, describe
from .conftest import shot

QUICK = {n: Budget(iterations=3, rollout_depth=6) for n in (1, 2, 3)}


def test_the_lobby_seats_a_computer_that_then_moves(live_server, page, redis_url):
    page.goto(live_server.url + "/")
    page.select_option("#create-game", "caylus")
    page.select_option("#create-count", "2")
    who = page.get_by_label("Who plays seat 0")
    assert who.evaluate("e => e.tagName") == "SELECT"
    # from the keyboard: focus the control, pick "Computer, strength 1" with the arrow key
    who.focus()
    page.keyboard.press("ArrowDown")
    assert who.input_value() == "1"
    assert page.get_by_label("Who plays seat 1").input_value() == "person"
    found = audit(page, axe_script())
    assert not found, describe(found)
    page.click("#create-submit")
    page.wait_for_selector("#seat-links li")
    computer = page.locator("#seat-links .computer-seat")
    assert computer.count() == 1 and "Computer, strength 1" in computer.inner_text()
    links = page.locator("#seat-links a").evaluate_all("as => as.map(a => a.href)")
    assert len(links) == 1 and "#token=" in links[0]  # only the person gets a seat link
    shot(page, "lobby-computer-seat")

    game_id = links[0].split("/games/")[1].split("#")[0]
    token = links[0].split("#token=")[1]
    assert live_server.meta(game_id)["seats"][0]["bot"] == 1
    runner, rand = services_over(connect(redis_url)).bot_runner(QUICK), random.Random(4)
    if live_server.meta(game_id)["to_act"] == [1]:  # the person starts: they move first
        assert live_server.bot_move(game_id, [None, token], [1], rand, [])
    before = live_server.meta(game_id)
    assert before["to_act"] == [0], before["to_act"]
    runner.run_until_idle()
    after = live_server.meta(game_id)
    assert after["seq"] > before["seq"] and 0 not in after["to_act"], "the computer did not move"
    moves = live_server.ok("GET", f"/games/{game_id}/events")["events"][before["seq"] :]
    assert moves and moves[0]["actor"].get("seat") == 0 and moves[0]["action_id"].startswith("sys:bot:")
    page.goto(links[0])
    page.wait_for_selector(f'#table-root[data-seq="{after["seq"]}"]')
