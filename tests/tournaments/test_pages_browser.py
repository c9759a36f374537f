"""The tournament pages in a real browser (Debian's Chromium via Playwright): create a
tournament from the form, register players, pair a round as director, see pairings,
results, standings and the links to each game and its replay."""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest
import requests

from .bots import bearer


@pytest.fixture(scope="module")
def server(redis_url):
    from werkzeug.serving import make_server

    from service.app import create_app

    app = create_app({"REDIS_URL": redis_url, "CLOCK_SWEEP_SECONDS": 0})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


@pytest.fixture(scope="module")
def page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    p = context.new_page()
    p.errors = []
    p.on("pageerror", lambda exc: p.errors.append(str(exc)))
    yield p
    context.close()


def play_out(url: str, round_view: dict, rand: random.Random) -> None:
    http = requests.Session()
    for table in round_view["tables"]:
        tokens = {s["seat"]: s["token"] for s in table["seats"]}
        gid = table["game_id"]
        for _ in range(500):
            meta = http.get(f"{url}/api/games/{gid}").json()
            if meta["status"] == "finished":
                break
            seat = meta["to_act"][0]
            actions = http.get(f"{url}/api/games/{gid}/actions", headers=bearer(tokens[seat])).json()["actions"]
            http.post(
                f"{url}/api/games/{gid}/actions",
                headers=bearer(tokens[seat]),
                json={**rand.choice(actions), "expected_seq": meta["seq"]},
            )


def test_a_director_runs_a_round_from_the_pages(server, page, tmp_path):
    page.goto(f"{server}/tournaments")
    page.fill("input[name=name]", "Browser open")
    page.select_option("#create-game", "toy")
    page.fill("input[name=table_size]", "2")
    page.fill("input[name=rounds]", "1")
    page.fill("input[name=clock_base]", "600")
    page.click("#create-form button[type=submit]")
    link = page.locator("#created a").get_attribute("href")
    assert "#director=" in link
    page.wait_for_selector("#tournaments-list a:has-text('Browser open')")

    page.goto(link)
    page.wait_for_selector("#director-panel:not([hidden])")
    for name in ("Ada", "Bea", "Cy", "Dee"):
        page.fill("#register-form input[name=name]", name)
        page.click("#register-form button[type=submit]")
        page.wait_for_selector(f"#players li:has-text('{name}')")
    assert "#player=" in page.locator("#registered a").get_attribute("href")
    page.click("#pair-round")
    page.wait_for_selector("#rounds .round table")
    assert page.locator("#rounds a:has-text('seat link')").count() == 4  # the director sees every seat link
    assert page.locator("#rounds a:has-text('replay')").count() == 2
    assert page.locator("#rounds .clock").count() == 4  # time left per seat while the games run
    assert "clock 600s" in page.locator("#t-info").inner_text()

    tid = link.split("/tournaments/")[1].split("#")[0]
    director = link.split("#director=")[1]
    round_view = requests.get(f"{server}/api/tournaments/{tid}/rounds/1", headers=bearer(director)).json()
    play_out(server, round_view, random.Random(3))
    page.reload()
    page.wait_for_selector("#t-status:has-text('finished')")
    page.wait_for_selector("#standings tbody tr")
    assert page.locator("#standings tbody tr").count() == 4
    assert page.locator("#rounds td:has-text('#1')").count() >= 2  # results shown per table
    page.screenshot(path=str(Path(os.environ.get("TOURNAMENT_SHOTS", tmp_path)) / "tournament.png"), full_page=True)
    assert not page.errors, page.errors
