"""The director's page does what the API does, on a phone (390 px) and a desktop: a
computer fills the bye, a dispute raised at a table shows live with a badge on its row and is dismissed there,
a withdrawal takes a typed reason (no prompt()) and lets a computer play on, a co-director
link is made and revoked, and the standings come as CSV and a print view."""

from __future__ import annotations

import pytest
import requests

from .bots import bearer

SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


@pytest.mark.parametrize("size", list(SIZES))
def test_the_director_runs_the_day_from_the_page(server, browser, size):
    width, height = SIZES[size]
    made = requests.post(
        f"{server}/api/tournaments",
        json={"game": "caylus", "name": "Odd night", "options": {"table_size": 2, "rounds": 2}},
    ).json()
    tid, director = made["id"], made["director_token"]
    for name in ("Ann", "Bob", "Cy"):
        assert requests.post(f"{server}/api/tournaments/{tid}/players", json={"name": name}).status_code == 201

    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "dialog",
        lambda d: (_ for _ in ()).throw(AssertionError(f"a dialog: {d.message}")) if d.type == "prompt" else d.accept(),
    )
    page.goto(f"{server}/tournaments/{tid}#director={director}")
    page.wait_for_selector("#director-panel:not([hidden])")

    page.select_option("#bye-computer", "1")
    page.click("#pair-round")
    page.wait_for_selector("#rounds .round table")
    pairing = requests.get(f"{server}/api/tournaments/{tid}/rounds/1", headers=bearer(director)).json()
    assert pairing["byes"] == [] and any(s.get("computer") == 1 for t in pairing["tables"] for s in t["seats"])

    human = next(t for t in pairing["tables"] if all(s["pid"] for s in t["seats"]))
    raised = requests.post(
        f"{server}/api/games/{human['game_id']}/annotations",
        json={"seq": 1, "text": "wrong tile", "kind": "dispute"},
        headers=bearer(human["seats"][0]["token"]),
    )
    assert raised.status_code == 201
    page.wait_for_selector(f"tr[data-game='{human['game_id']}'] .dispute-badge", timeout=5_000)
    assert page.locator("#director-disputes .dispute-line").count() == 1
    assert page.locator("#director-disputes a:has-text('referee')").count() == 1
    # the director rules on it from the page: dismissed with a reason, in the game's log
    line = page.locator("#director-disputes .dispute-line")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the ruling's form fits a phone
    line.locator("input[name=reason]").fill("the tile was legal")
    line.locator("button[type=submit]").click()
    page.wait_for_selector(f"tr[data-game='{human['game_id']}'] .dispute-badge", state="detached", timeout=5_000)
    page.wait_for_selector("#director-disputes .dispute-line", state="detached")
    events = requests.get(f"{server}/api/games/{human['game_id']}/events").json()["events"]
    dismissed = [e for e in events if e["type"] == "referee.dismiss"]
    assert len(dismissed) == 1 and dismissed[0]["payload"]["reason"] == "the tile was legal"
    assert requests.get(f"{server}/api/games/{human['game_id']}").json()["disputes"] == []

    leaving = human["seats"][1]
    item = page.locator(f"#players li[data-pid='{leaving['pid']}']")
    item.locator(".withdraw-open").click()
    item.locator("input[name=reason]").fill("feels unwell")
    item.locator("select[name=bot]").select_option("1")
    item.locator("button[type=submit]").click()
    page.wait_for_selector(f"#players li.withdrawn[data-pid='{leaving['pid']}']")
    meta = requests.get(f"{server}/api/games/{human['game_id']}").json()
    assert meta["seats"][leaving["seat"]].get("bot") == 1 and meta["status"] != "finished"

    page.click("#co-directors summary")
    page.fill("#co-director-form input[name=name]", "Sam")
    page.click("#co-director-form button[type=submit]")
    sam = page.locator("#co-director-link").get_attribute("href").split("#director=")[1]
    listed = requests.get(f"{server}/api/tournaments/{tid}/directors", headers=bearer(sam)).json()
    assert listed == {"directors": ["Sam"], "accounts": []}
    page.click("#co-director-list button:has-text('Revoke')")
    page.wait_for_selector("#co-director-list li", state="detached")
    assert requests.get(f"{server}/api/tournaments/{tid}/directors", headers=bearer(sam)).status_code == 401

    csv = requests.get(server + page.locator("#standings-csv").get_attribute("href"))
    assert csv.status_code == 200 and csv.text.startswith("rank,name,points")
    page.emulate_media(media="print")
    assert not page.locator("#director-panel").is_visible() and page.locator("#standings table").is_visible()
    page.emulate_media(media="screen")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not errors, errors
    context.close()


def test_an_account_made_a_director_directs_from_its_session_without_a_link(server, browser):
    """The director makes an account a director from the page; that account's browser,
    logged in, gets the director's controls on the plain tournament address."""
    import random

    made = requests.post(
        f"{server}/api/tournaments",
        json={"game": "toy", "name": "Club night", "options": {"table_size": 2, "rounds": 1}},
    ).json()
    tid, director = made["id"], made["director_token"]
    name = f"Mira{random.randrange(10**6)}"
    account = requests.post(f"{server}/api/accounts", json={"name": name, "password": "correct horse battery"}).json()

    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{server}/tournaments/{tid}#director={director}")
    page.wait_for_selector("#director-panel:not([hidden])")
    page.click("#co-directors summary")
    page.fill("#director-account-form input[name=name]", name)
    page.click("#director-account-form button[type=submit]")
    page.wait_for_selector(f"#director-account-list li:has-text('{name}')")

    theirs = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    theirs.goto(f"{server}/tournaments/{tid}")
    theirs.wait_for_selector("#register-by-name:not([hidden])")
    assert theirs.locator("#director-panel").is_hidden()
    theirs.evaluate(
        "([n, t]) => localStorage.setItem('boardroom:session', JSON.stringify({name: n, token: t}))",
        [account["name"], account["token"]],
    )
    theirs.goto(f"{server}/tournaments/{tid}")
    theirs.wait_for_selector("#director-panel:not([hidden])")
    assert "director" not in theirs.evaluate(f"sessionStorage.getItem('tournament:{tid}') || ''").replace(
        '"director":null', ""
    )

    page.click(f"#director-account-list li:has-text('{name}') button")
    page.wait_for_selector("#director-account-list li", state="detached")
    theirs.reload()
    theirs.wait_for_selector("#register-as:not([hidden])")
    assert theirs.locator("#director-panel").is_hidden()
    context.close()
    theirs.context.close()


def test_the_registration_switch_waits_until_the_page_knows_which_way_it_turns(server, browser):
    """Clicked before the page had read the tournament, the switch sent "open" (it did not
    know registration was open yet), so a director closing registration early reopened it."""
    made = requests.post(
        f"{server}/api/tournaments", json={"game": "toy", "name": "Early", "options": {"table_size": 2, "rounds": 1}}
    ).json()
    tid = made["id"]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    held: list = []
    sent: list = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/registration") else None)
    page.route(f"**/api/tournaments/{tid}", lambda route: held.append(route))  # the read waits
    try:
        page.goto(f"{server}/tournaments/{tid}#director={made['director_token']}")
        page.wait_for_selector("#director-panel:not([hidden])")
        page.evaluate("document.querySelector('#toggle-registration').click()")  # a tap before the read
        page.wait_for_timeout(500)  # room for what that tap would send
        for route in held:
            route.continue_()
        page.unroute(f"**/api/tournaments/{tid}")
        page.click("#toggle-registration")  # enabled once read
        page.wait_for_selector("#registration-closed:not([hidden])")
        assert sent == [{"open": False}]
        assert requests.get(f"{server}/api/tournaments/{tid}").json()["registration"] == "closed"
    finally:
        context.close()
