"""The evaluation line drawn under the replay timeline, for a finished game of each game
type played by computers; screenshots go to tests/browser/artifacts/evaluation-<game>.png."""

from __future__ import annotations

import pytest

from projections.bots.search import Budget
from service.adapters.connection import connect
from tests.services import services_over

from .conftest import shot
from .helpers import GAMES

SEATS = {"caylus": 3, "carcassonne_castle": 2, "shadow_of_the_emperor": 3, "sultans_of_karaya": 5, "age_of_rome": 2}
QUICK = {n: Budget(iterations=3, rollout_depth=6) for n in (1, 2, 3)}


@pytest.mark.parametrize("name", GAMES)
def test_the_replay_draws_who_was_winning(live_server, page, redis_url, name):
    seats = SEATS[name]
    created = live_server.create(name, seats, bots=[{"seat": s, "strength": 1} for s in range(seats)])
    gid = created["id"]
    runner = services_over(connect(redis_url)).bot_runner(QUICK)
    runner.run_until_idle()
    assert live_server.meta(gid)["status"] == "finished"

    page.goto(f"{live_server.url}/games/{gid}/replay")
    page.get_by_role("button", name="Evaluate this game").click()
    page.wait_for_selector("#evaluation-progress")
    runner.run_until_idle()
    page.wait_for_selector("#evaluation-progress", state="detached", timeout=15_000)
    assert page.locator(".evaluation-chart polyline").count() == seats
    assert page.locator(".evaluation-legend li").count() == seats
    title = page.locator("#evaluation-chart-title").text_content()
    assert "Chance of winning by step" in title
    page.locator(".evaluation-chart").click(position={"x": 20, "y": 50})
    page.wait_for_url(lambda url: "at=" in url)
    shot(page, f"evaluation-{name}")
