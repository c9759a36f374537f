"""The round's broadcast page in a real browser, on a phone and a desktop: every table
live from its spectator stream, and the commentators' delayed full state."""

from __future__ import annotations

import random

import pytest
import requests

from .bots import bearer


def a_round(url: str) -> tuple[str, dict]:
    http = requests.Session()
    created = http.post(
        f"{url}/api/tournaments",
        json={"game": "toy", "name": "Broadcast cup", "options": {"table_size": 2, "rounds": 1}},
    ).json()
    tid, director = created["id"], created["director_token"]
    for name in ("Ann", "Bob", "Cid", "Dee"):
        http.post(f"{url}/api/tournaments/{tid}/players", json={"name": name})
    http.post(f"{url}/api/tournaments/{tid}/rounds", headers=bearer(director))
    delay = http.post(
        f"{url}/api/tournaments/{tid}/feed-delay", headers=bearer(director), json={"delay": {"entries": 1}}
    )
    assert delay.status_code == 200, delay.json()
    return tid, http.get(f"{url}/api/tournaments/{tid}/rounds/1", headers=bearer(director)).json()


def move(url: str, table: dict, rand: random.Random) -> int:
    gid = table["game_id"]
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    meta = requests.get(f"{url}/api/games/{gid}").json()
    seat = meta["to_act"][0]
    actions = requests.get(f"{url}/api/games/{gid}/actions", headers=bearer(tokens[seat])).json()["actions"]
    plays = [a for a in actions if a["type"] == "play"] or actions
    answer = requests.post(
        f"{url}/api/games/{gid}/actions",
        headers=bearer(tokens[seat]),
        json={**rand.choice(plays), "expected_seq": meta["seq"]},
    )
    assert answer.status_code in (200, 201), answer.json()
    return int(answer.json()["seq"])


@pytest.mark.parametrize("width", [390, 1366])
def test_every_table_of_the_round_is_live_on_the_broadcast_page(server, browser, width):
    tid, round_view = a_round(server)
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    requests_made: list[str] = []
    page.on("request", lambda r: requests_made.append(r.url))
    try:
        page.goto(f"{server}/tournaments/{tid}/rounds/1/broadcast")
        cards = page.locator("article.b-table")
        for n in range(len(round_view["tables"])):  # each table loads on its own, in any order
            cards.nth(n).locator(".b-seats").wait_for()
        assert cards.count() == 2
        assert page.locator("#b-delay").inner_text() == "Full state shown 1 entries behind play."
        first = round_view["tables"][0]
        card = page.locator(f'article.b-table[data-game-id="{first["game_id"]}"]')
        assert first["seats"][0]["name"] in card.inner_text()

        reads_before = len([u for u in requests_made if "/api/games/" in u and "/stream" not in u])
        seq = move(server, first, random.Random(1))
        card.locator(".b-seq", has_text=f"entry {seq}").wait_for()  # pushed, not read again
        reads_after = len([u for u in requests_made if "/api/games/" in u and "/stream" not in u])
        assert reads_after == reads_before

        page.check("#b-omniscient")
        card.locator(".b-omniscient p", has_text=f"Full state at entry {seq - 1}, signed by key").wait_for()
        assert "deck_order" in card.locator(".b-state").inner_text()

        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {width}px"
        assert not errors, errors
    finally:
        context.close()


def test_a_table_whose_first_read_fails_is_read_again_until_it_loads(server, browser):
    """One refused read (a dropped connection here) must not leave a table blank for the round."""
    tid, round_view = a_round(server)
    first = round_view["tables"][0]["game_id"]
    context = browser.new_context(viewport={"width": 390, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    refused: list[str] = []

    def refuse_once(route):
        if not refused:
            refused.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route(f"**/api/games/{first}", refuse_once)
    try:
        page.goto(f"{server}/tournaments/{tid}/rounds/1/broadcast")
        card = page.locator(f'article.b-table[data-game-id="{first}"]')
        card.locator(".error", has_text="Could not load this table").wait_for()
        card.locator(".b-seats").wait_for()
        assert round_view["tables"][0]["seats"][0]["name"] in card.inner_text()
        assert len(refused) == 1
    finally:
        context.close()


def test_the_director_sets_the_feed_delay_from_the_tournament_page(server, browser):
    http = requests.Session()
    created = http.post(
        f"{server}/api/tournaments",
        json={"game": "toy", "name": "Delay cup", "options": {"table_size": 2, "rounds": 1}},
    ).json()
    tid = created["id"]
    for name in ("Ann", "Bob"):
        http.post(f"{server}/api/tournaments/{tid}/players", json={"name": name})
    http.post(f"{server}/api/tournaments/{tid}/rounds", headers=bearer(created["director_token"]))
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(f"{server}/tournaments/{tid}#director={created['director_token']}")
        page.select_option("#delay-kind", "minutes")
        page.fill("#delay-amount", "3")
        page.click("#delay-form button[type=submit]")
        page.locator(".flash-ok", has_text="The feed delay is set.").wait_for()
        audit = http.get(f"{server}/api/tournaments/{tid}/feed-delay").json()
        assert audit["feed_delay"] == {"minutes": 3}
        assert [c["actor"]["name"] for c in audit["changes"]] == ["tournament director"]
        link = page.locator("a.b-link").first
        assert link.get_attribute("href") == f"/tournaments/{tid}/rounds/1/broadcast"
    finally:
        context.close()
