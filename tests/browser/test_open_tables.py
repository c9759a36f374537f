"""Two accounts find each other through an open table, play, ask for a rematch and see
it first under "My games", in Chromium on a phone (390 px) and on a desktop."""

from __future__ import annotations

import re
import uuid

import pytest

from .axe import audit, axe_script, describe
from .conftest import shot
from .helpers import hold_session

PASSWORD = "correct horse battery"


def account(server, prefix):
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    return name, server.ok("POST", "/accounts", json={"name": name, "password": PASSWORD})["token"]


def player(browser, server, width, who):
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 500 else 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    hold_session(page, *who)
    page.reload()
    return page, errors


def roll(page):
    page.locator(".action-btn[data-type=roll]").click()


@pytest.mark.parametrize("width", [390, 1366])
def test_two_accounts_meet_at_an_open_table_play_and_rematch(live_server, browser, width):
    ann, bob = account(live_server, "Ann"), account(live_server, "Bob")
    a, a_errors = player(browser, live_server, width, ann)
    b, b_errors = player(browser, live_server, width, bob)

    # Ann opens a table of two from the lobby's form
    a.select_option("#create-game", "toy")
    a.select_option("#create-count", "2")
    a.check("#create-mode-table")
    a.fill("input[name=opt_rounds]", "1")
    a.click("#create-submit")
    a.wait_for_url(re.compile(r"/tables/\w+$"))
    table_id = a.url.rsplit("/", 1)[1]
    a.wait_for_selector("#table-seats")
    assert ann[0] in a.inner_text("#table-seats")
    shot(a, f"open-table-waiting-{width}")

    # Bob finds it under open tables and joins with one click: the game starts
    b.reload()
    join = b.locator(f'li.open-table[data-table-id="{table_id}"] button.join-table')
    join.click()
    b.wait_for_url(re.compile(f"/games/{table_id}$"))
    a.wait_for_url(re.compile(f"/games/{table_id}$"))  # Ann's table page follows the start
    for page, (name, _) in ((a, ann), (b, bob)):
        page.wait_for_selector("#seat-account")
        assert page.inner_text("#seat-account") == name  # the account plays its seat: no claim
        assert page.locator("#claim-seat").count() == 0
    meta = live_server.meta(table_id)
    assert meta["accounts"] == {"0": ann[0], "1": bob[0]}
    shot(b, f"open-table-game-{width}")

    roll(a)
    b.wait_for_selector(".action-btn[data-type=roll]")
    roll(b)
    a.wait_for_selector("#offer-rematch")
    assert live_server.meta(table_id)["status"] == "finished"

    # Ann offers a rematch; Bob sees it first under My games and takes his kept seat
    a.click("#offer-rematch")
    a.wait_for_url(re.compile(r"/tables/\w+$"))
    rematch_id = a.url.rsplit("/", 1)[1]
    a.wait_for_selector("#table-seats")
    assert f"{bob[0]}" in a.inner_text("#table-seats")  # seat 0 kept for Bob: the seats turned
    b.goto(live_server.url + "/my-games")
    b.wait_for_selector("#my-games")
    ids = b.locator("#my-games > li").evaluate_all("(lis) => lis.map((li) => li.dataset.id)")
    assert ids[:2] == [rematch_id, table_id]
    assert b.locator("#my-games > li").first.get_attribute("data-your-turn") == "true"
    violations = audit(b, axe_script())
    assert not violations, describe(violations)
    shot(b, f"my-games-{width}")
    b.locator(f'#my-games > li[data-id="{rematch_id}"] button.accept-table').click()
    b.wait_for_url(re.compile(f"/games/{rematch_id}$"))
    a.wait_for_url(re.compile(f"/games/{rematch_id}$"))
    assert live_server.meta(rematch_id)["accounts"] == {"0": bob[0], "1": ann[0]}
    assert not a_errors and not b_errors, a_errors + b_errors
    a.context.close()
    b.context.close()


def test_the_table_page_and_my_games_are_in_chinese(live_server, browser):
    from .untranslated import scan

    ann, bob = account(live_server, "Ann"), account(live_server, "Bob")
    table = live_server.ok(
        "POST", "/tables", ann[1], json={"game": "toy", "seats": 3, "contribution": "ab" * 32, "invited": [bob[0]]}
    )
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="zh-Hant", extra_http_headers={"Accept-Language": "zh-Hant"}
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(live_server.url + "/")
    hold_session(page, *bob)
    for path, ready in ((f"/tables/{table['id']}", "#table-seats"), ("/my-games", "#my-games"), ("/", "#open-tables")):
        page.goto(live_server.url + path)
        page.wait_for_selector(ready)
        texts = scan(page)
        assert not texts["missing"], (path, texts["missing"])
        assert not texts["untranslated"], (path, texts["untranslated"])
        violations = audit(page, axe_script())
        assert not violations, describe(violations)
    shot(page, "my-games-zh-Hant")
    context.close()
