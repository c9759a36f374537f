"""Accounts, profiles and leaderboards in Chromium: logging in and out, changing the
password, a profile with its rating chart (SVG), games and notes, a leaderboard with
provisional ratings marked; screenshots in tests/browser/artifacts/ and no serious or
critical axe violation, in English and in Traditional Chinese."""

from __future__ import annotations

import uuid

import pytest

from .axe import audit, axe_script, describe
from .conftest import shot
from .helpers import hold_session
from .untranslated import scan

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def axe():
    return axe_script()


def account(server, prefix):
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    return name, server.ok("POST", "/accounts", json={"name": name, "password": PASSWORD})["token"]


def rated_toy_game(server, sessions, note=None):
    created = server.ok(
        "POST",
        "/games",
        sessions[0],
        json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 1}, "account_seat": 0},
    )
    tokens = [s["token"] for s in created["seats"]]
    claimed = server.ok("POST", f"/games/{created['id']}/claim", sessions[1], json={"seat_token": tokens[1]})
    tokens[1] = claimed["seat_token"]  # a claim revokes the creator's copy of the seat's token
    if note:
        server.ok("POST", f"/games/{created['id']}/annotations", tokens[0], json={"seq": 1, "text": note})
    for token in tokens:
        server.ok("POST", f"/games/{created['id']}/actions", token, json={"type": "roll", "payload": {}})
    return created


@pytest.fixture(scope="module")
def season(live_server):
    """Two accounts with six rated toy games between them and one note."""
    ann, bob = account(live_server, "Ann"), account(live_server, "Bob")
    games = [rated_toy_game(live_server, [ann[1], bob[1]], note="a fine opening" if i == 0 else None) for i in range(6)]
    newcomer = account(live_server, "Cat")
    rated_toy_game(live_server, [newcomer[1], bob[1]])
    return {"ann": ann[0], "bob": bob[0], "cat": newcomer[0], "games": games}


def lang_page(browser, lang):
    context = browser.new_context(
        viewport={"width": 1200, "height": 900}, locale=lang, extra_http_headers={"Accept-Language": lang}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def test_sign_up_log_in_and_out(live_server, browser, axe):
    page = lang_page(browser, "en")
    page.goto(live_server.url + "/account")
    page.wait_for_selector("#login-form")
    assert not audit(page, axe), describe(audit(page, axe))
    shot(page, "account-login")
    name = f"Dee{uuid.uuid4().hex[:6]}"
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_selector("#logged-in")
    assert name in page.inner_text("#logged-in")
    token = page.evaluate("() => JSON.parse(localStorage.getItem('boardroom:session')).token")
    assert live_server.api("GET", "/me", token).json()["name"] == name
    shot(page, "account-logged-in")
    page.click("#logout")
    page.wait_for_selector("#login-form")
    assert live_server.api("GET", "/me", token).status_code == 401  # revoked on the server, not only forgotten
    page.fill("#login-name", name)
    page.fill("#login-password", "not the password")
    page.click("#login-submit")
    page.wait_for_selector("#login-error:not(:empty)")
    assert "wrong name or password" in page.inner_text("#login-error")
    shot(page, "account-wrong-password")
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("#logged-in")
    page.click("#my-profile")
    page.wait_for_selector("#profile-title")
    assert page.inner_text("#profile-title") == name
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_profile_shows_the_rating_chart_games_and_notes(live_server, browser, axe, season, lang):
    page = lang_page(browser, lang)
    page.goto(f"{live_server.url}/players/{season['ann']}")
    page.wait_for_selector("svg.rating-chart")
    profile = live_server.ok("GET", f"/accounts/{season['ann']}")
    assert page.locator("svg.rating-chart circle").count() == profile["ratings"]["toy"]["games"] == 6
    assert page.locator("svg.rating-chart").get_attribute("role") == "img"
    assert f"{profile['ratings']['toy']['rating']:.2f}" in page.inner_text(".rating-card")
    assert page.inner_text(".rating-value").startswith(f"{profile['ratings']['toy']['display']} ± ")
    assert page.locator("#profile-games tbody tr").count() == 6
    replays = page.locator("#profile-games a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert {f"/games/{g['id']}/replay" for g in season["games"]} == set(replays)
    assert "a fine opening" in page.inner_text("#profile-notes")
    found = audit(page, axe)
    assert not found, describe(found)
    shot(page, f"profile-{lang}")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_leaderboard_marks_provisional_ratings(live_server, browser, axe, season, lang):
    page = lang_page(browser, lang)
    page.goto(f"{live_server.url}/ratings/toy")
    page.wait_for_selector("table.leaderboard")
    rows = page.locator("table.leaderboard tbody tr")
    names = rows.evaluate_all("(rs) => rs.map((r) => r.children[1].textContent)")
    assert {season["ann"], season["bob"], season["cat"]} <= set(names)
    cat = rows.nth(names.index(season["cat"]))
    assert "provisional" in (cat.get_attribute("class") or "")
    ann = rows.nth(names.index(season["ann"]))
    assert "provisional" not in (ann.get_attribute("class") or "")
    board = {r["name"]: r for r in live_server.ok("GET", "/ratings/toy?min_games=0&limit=500")["players"]}
    shown = ann.locator("td.display-rating").inner_text()
    assert shown.startswith(f"{board[season['ann']]['display']} ± ")  # the 1500 scale, no "?" once established
    assert cat.locator("td.display-rating").inner_text().startswith(f"{board[season['cat']]['display']}? ± ")
    assert ann.locator("td.raw-rating").inner_text() == f"{board[season['ann']]['rating']:.2f}"
    found = audit(page, axe)
    assert not found, describe(found)
    shot(page, f"leaderboard-{lang}")
    page.fill("#ratings-min", "5")
    page.dispatch_event("#ratings-min", "change")
    page.wait_for_function(f"() => !document.querySelector('#leaderboard').textContent.includes({season['cat']!r})")
    assert season["ann"] in page.inner_text("#leaderboard")
    page.click(f"text={season['ann']}")
    page.wait_for_selector("svg.rating-chart")
    assert not page.errors, page.errors
    page.context.close()


def test_a_logged_in_player_claims_their_seat_at_the_table(live_server, browser, axe):
    name, session = account(live_server, "Eli")
    created = live_server.ok("POST", "/games", json={"game": "toy", "seats": ["Eli", "Fay"], "options": {"rounds": 1}})
    page = lang_page(browser, "en")
    page.goto(live_server.url + "/account")
    hold_session(page, name, session)
    page.goto(f"{live_server.url}/games/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#claim-seat")
    page.click("#claim-seat")
    page.wait_for_selector("#seat-account")
    assert page.inner_text("#seat-account") == name
    assert live_server.meta(created["id"])["accounts"] == {"0": name}
    found = audit(page, axe)
    assert not found, describe(found)
    shot(page, "table-seat-claimed")
    assert not page.errors, page.errors
    page.context.close()


def session_of(page) -> dict | None:
    return page.evaluate("() => JSON.parse(localStorage.getItem('boardroom:session') || 'null')")


def signed_in_page(browser, server, lang, name, token):
    """The account page of a browser that holds ``name``'s session."""
    page = lang_page(browser, lang)
    page.goto(server.url + "/account")
    page.wait_for_selector("#login-form")  # the page has drawn: nothing of it is in flight
    hold_session(page, name, token)
    page.goto(server.url + "/account")
    page.wait_for_selector("#password-form")
    return page


def test_a_session_survives_a_check_that_never_reached_the_server(live_server, browser):
    """The page checks its session with GET /api/me; a request that fails on the way (a
    navigation aborting it, the network) says nothing of the session. The page used to
    forget it then, and the next load showed the login forms instead of the password
    form (the account tests' timeouts waiting for #password-form)."""
    name, token = account(live_server, "Ivy")
    page = lang_page(browser, "en")
    page.goto(live_server.url + "/account")
    page.wait_for_selector("#login-form")
    hold_session(page, name, token)
    page.route("**/api/me", lambda route: route.abort())
    page.goto(live_server.url + "/account")
    page.wait_for_selector("#account-retry")
    assert session_of(page) == {"name": name, "token": token}
    page.unroute("**/api/me")
    page.click("#account-retry")
    page.wait_for_selector("#password-form")
    assert not page.errors, page.errors
    page.context.close()


def test_change_the_password_from_the_account_page(live_server, browser, axe):
    """Sign up, change the password from the keyboard, log out: the old password is
    refused, the new one lets the player in. The answer's fresh session replaces the
    page's (the change ended every session, this one with them)."""
    page = lang_page(browser, "en")
    page.goto(live_server.url + "/account")
    page.wait_for_selector("#signup-form")
    name = f"Gus{uuid.uuid4().int % 10**6}"
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_selector("#password-form")
    old_token = session_of(page)["token"]
    # the form: labelled fields with the password managers' hints
    assert page.get_by_label("Current password").get_attribute("autocomplete") == "current-password"
    assert page.get_by_label("New password").get_attribute("autocomplete") == "new-password"
    assert page.locator("#password-error").get_attribute("role") == "alert"
    assert not audit(page, axe), describe(audit(page, axe))
    # from the keyboard: type, Tab to the next field, Enter submits
    new_password = "a new and longer secret"
    page.focus("#password-old")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "password-new"
    page.keyboard.type(new_password)
    page.keyboard.press("Enter")
    page.wait_for_selector("#flash.flash-ok:has-text('Password changed')")
    page.wait_for_selector("#password-form")
    page.wait_for_function(  # the form is emptied once the new session is held, not with the flash
        "() => ['#password-old', '#password-new'].every((f) => document.querySelector(f)?.value === '')"
    )
    held = session_of(page)
    assert held["name"] == name and held["token"] != old_token
    assert live_server.api("GET", "/me", old_token).status_code == 401  # every old session ended
    assert live_server.api("GET", "/me", held["token"]).json()["name"] == name
    shot(page, "account-password-changed")
    page.click("#logout")
    page.wait_for_selector("#login-form")
    assert live_server.api("GET", "/me", held["token"]).status_code == 401
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("#login-error:not(:empty)")
    assert "wrong name or password" in page.inner_text("#login-error")
    page.fill("#login-password", new_password)
    page.click("#login-submit")
    page.wait_for_selector("#logged-in")
    assert name in page.inner_text("#logged-in")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_wrong_current_password_shows_the_servers_error_and_changes_nothing(live_server, browser, axe, lang):
    name = f"{'Hal' if lang == 'en' else '春嬌'}{uuid.uuid4().int % 10**6}"
    token = live_server.ok("POST", "/accounts", json={"name": name, "password": PASSWORD})["token"]
    page = signed_in_page(browser, live_server, lang, name, token)
    page.fill("#password-old", "not the password")
    page.fill("#password-new", "what it would have been")
    page.click("#password-submit")
    page.wait_for_selector("#password-error:not(:empty)")
    # the server's own words, in the page's language
    refused = live_server.http.post(
        f"{live_server.url}/api/me/password",
        json={"old": "not the password", "new": "what it would have been"},
        headers={"Authorization": f"Bearer {token}", "Accept-Language": lang},
        timeout=30,
    )
    assert refused.status_code == 401
    expected = {"en": "the current password is not right", "zh-Hant": "目前的密碼不正確"}[lang]
    assert page.inner_text("#password-error") == refused.json()["error"]["message"] == expected
    assert page.locator("#password-error").get_attribute("role") == "alert"
    # nothing changed: the same session, still valid; the old password still the password
    assert session_of(page) == {"name": name, "token": token}
    assert live_server.api("GET", "/me", token).json()["name"] == name
    assert live_server.api("POST", "/sessions", json={"name": name, "password": PASSWORD}).status_code == 201
    assert (
        live_server.api("POST", "/sessions", json={"name": name, "password": "what it would have been"}).status_code
        == 401
    )
    found = audit(page, axe)
    assert not found, describe(found)
    if lang == "zh-Hant":
        texts = scan(page)
        assert not texts["missing"], texts["missing"]
        assert not texts["untranslated"], texts["untranslated"]
    shot(page, f"account-password-refused-{lang}")
    assert not page.errors, page.errors
    page.context.close()


def test_a_password_change_from_a_session_ended_elsewhere_offers_the_log_in_form(live_server, browser):
    name, token = account(live_server, "Ivy")
    page = signed_in_page(browser, live_server, "en", name, token)
    live_server.ok("DELETE", "/sessions", token)  # logged out everywhere from another device
    page.fill("#password-old", PASSWORD)
    page.fill("#password-new", "never to be set")
    page.click("#password-submit")
    page.wait_for_selector("#login-form")
    assert "not valid" in page.inner_text("#flash")
    assert session_of(page) is None
    assert live_server.api("POST", "/sessions", json={"name": name, "password": PASSWORD}).status_code == 201
    assert not page.errors, page.errors
    page.context.close()
