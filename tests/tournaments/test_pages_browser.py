"""The tournament pages in a real browser (Debian's Chromium via Playwright): create a
tournament from the form, register players, pair a round as director, see pairings,
results, standings and the links to each game and its replay."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import requests

from .bots import bearer


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
    page.fill("input[name=clock_first_move]", "45")
    page.check("input[name=pause_on_dispute]")
    page.click("#create-form button[type=submit]")
    link = page.locator("#created a").get_attribute("href")
    assert "#director=" in link
    made = requests.get(f"{server}/api/tournaments/{link.split('/tournaments/')[1].split('#')[0]}").json()
    assert made["options"]["clock"] == {"base": 600, "increment": 0, "first_move": 45, "pause_on_dispute": True}
    page.wait_for_selector("#tournaments-list a:has-text('Browser open')")

    page.goto(link)
    page.wait_for_selector("#director-panel:not([hidden])")
    for name in ("Ada", "Bea", "Cy", "Dee"):
        page.fill("#register-form input[name=name]", name)
        page.click("#register-submit")
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


def test_players_register_from_the_page_as_their_accounts_or_by_the_directors_roster(server, browser):
    """A browser holding a session registers as that account (the page sends the
    session, no name typed); one without a session that types an account's name is told
    to log in, with a link to do it here; the director pastes a roster of names."""
    http = requests.Session()
    made = http.post(
        f"{server}/api/tournaments",
        json={"game": "toy", "name": "Club night", "options": {"table_size": 2, "rounds": 1}},
    ).json()
    tid, director = made["id"], made["director_token"]
    name = f"Bram{random.randrange(10**6)}"
    account = http.post(f"{server}/api/accounts", json={"name": name, "password": "correct horse battery"}).json()

    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(15_000)
    mine = context.new_page()
    mine.goto(f"{server}/tournaments/{tid}")
    mine.wait_for_selector("#register-by-name:not([hidden])")
    mine.evaluate(
        "([n, t]) => localStorage.setItem('boardroom:session', JSON.stringify({name: n, token: t}))",
        [account["name"], account["token"]],
    )
    mine.goto(f"{server}/tournaments/{tid}")
    mine.wait_for_selector("#register-as:not([hidden])")
    assert mine.inner_text("#register-as-name") == name
    mine.click("#register-me")
    mine.wait_for_selector(f"#players li:has-text('{name}')")
    assert "#player=" in mine.locator("#registered a").get_attribute("href")
    assert [p["name"] for p in http.get(f"{server}/api/tournaments/{tid}").json()["players"]] == [name]
    assert f'"account":"{name}"' in http.get(f"{server}/api/tournaments/{tid}/export").text  # bound to the account

    anonymous = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    anonymous.goto(f"{server}/tournaments/{tid}")
    anonymous.wait_for_selector("#register-by-name:not([hidden])")
    other = f"Wim{random.randrange(10**6)}"
    assert http.post(f"{server}/api/accounts", json={"name": other, "password": "correct horse battery"}).ok
    anonymous.fill("#register-form input[name=name]", other)
    anonymous.click("#register-submit")
    login = anonymous.wait_for_selector("#registered a:has-text('Log in here')")
    assert login.get_attribute("href") == f"/account?next=%2Ftournaments%2F{tid}"

    director_page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    director_page.goto(f"{server}/tournaments/{tid}#director={director}")
    director_page.wait_for_selector("#roster-form:not([hidden])")
    director_page.fill("#roster", "Chen Li\n\nDora\n  Eve  \n")
    director_page.click("#roster-submit")
    director_page.wait_for_selector("#roster-result li >> nth=2")
    assert director_page.locator("#roster-result a:has-text('player link')").count() == 3
    director_page.wait_for_selector("#players li:has-text('Eve')")
    names = [p["name"] for p in http.get(f"{server}/api/tournaments/{tid}").json()["players"]]
    assert names == [name, "Chen Li", "Dora", "Eve"]
    for p in (mine, anonymous, director_page):
        p.context.close()
