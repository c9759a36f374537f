"""The lobby and the tournament pages on a phone (390 CSS px wide, in English and in
Traditional Chinese): nothing wider than the screen, so no page scrolls sideways (the
document's scrollWidth is the viewport's); the tournament header names the game by its
title, and every status is in the page's language."""

from __future__ import annotations

import uuid

import pytest

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def tournament(live_server):
    """A Carcassonne: The Castle tournament with round 1 paired, long names included."""
    made = live_server.ok(
        "POST",
        "/tournaments",
        json={
            "game": "carcassonne_castle",
            "name": f"Spring open {uuid.uuid4().hex[:4]}",
            "options": {"table_size": 2, "rounds": 3},
        },
    )
    for name in ("Bartholomew Featherstonehaugh", "Chen Li", "Dora", "Evangelina Montgomery-Smythe"):
        live_server.ok("POST", f"/tournaments/{made['id']}/players", json={"name": name})
    live_server.ok("POST", f"/tournaments/{made['id']}/rounds", made["director_token"])
    return made


def phone_page(browser, lang):
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale=lang, extra_http_headers={"Accept-Language": lang}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def widest(page) -> dict:
    """The document's scrollWidth, and the elements that reach past the screen."""
    return page.evaluate(
        """() => ({width: document.documentElement.scrollWidth,
            over: [...document.querySelectorAll('body *')]
              .filter((e) => e.getBoundingClientRect().right > 390.5)
              .slice(0, 12).map((e) => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className
                + ' ' + Math.round(e.getBoundingClientRect().right))})"""
    )


def fits(page) -> None:
    measured = widest(page)
    assert measured["width"] <= PHONE["width"], measured
    assert not stretched_choices(page)


def stretched_choices(page) -> list[str]:
    """Radio buttons and check boxes drawn wider than a box: such a control sits far
    from the words it chooses."""
    return page.evaluate(
        """() => [...document.querySelectorAll('input[type=radio], input[type=checkbox]')]
              .filter((e) => e.getBoundingClientRect().width > 32)
              .map((e) => `${e.name || e.id} ${Math.round(e.getBoundingClientRect().width)}px`)"""
    )


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_lobby_fits_a_phone(live_server, browser, lang):
    live_server.create("toy", ["Bartholomew Featherstonehaugh", "Evangelina Montgomery-Smythe"])
    page = phone_page(browser, lang)
    page.goto(live_server.url + "/")
    page.wait_for_selector("#games-list table")
    fits(page)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_tournament_list_fits_a_phone(live_server, browser, tournament, lang):
    page = phone_page(browser, lang)
    page.goto(live_server.url + "/tournaments")
    page.wait_for_selector("#tournaments-list table")
    fits(page)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("who", ["public", "director"])
def test_a_tournament_fits_a_phone_and_speaks_its_language(live_server, browser, tournament, lang, who):
    page = phone_page(browser, lang)
    tail = f"#director={tournament['director_token']}" if who == "director" else ""
    page.goto(f"{live_server.url}/tournaments/{tournament['id']}{tail}")
    page.wait_for_selector("#rounds .round table")
    page.wait_for_selector("#standings table")
    fits(page)
    info = page.inner_text("#t-info")
    assert "carcassonne_castle" not in info
    title = {"en": "Carcassonne: The Castle", "zh-Hant": None}[lang]
    if title:
        assert info.startswith(title), info
    status = page.inner_text("#t-status")
    round_status = page.inner_text("#rounds .round h3 .badge")
    assert page.is_visible("#registration-closed") and not page.is_visible("#register-form")  # closed at round 1
    if lang == "zh-Hant":
        assert status == "進行中" and round_status == "進行中", (status, round_status)
    else:
        assert (status, round_status) == ("Running", "In play")
    assert not page.errors, page.errors
    page.context.close()


@pytest.fixture(scope="module")
def other_pages(live_server):
    """The other pages, each with what it draws once loaded: the account pages, a
    leaderboard, the verify page, and each game's table, replay and referee console."""
    name = f"Evangelina{uuid.uuid4().hex[:4]}"
    live_server.ok("POST", "/accounts", json={"name": name, "password": "correct horse battery"})
    pages = [
        ("/account", "#login-form"),
        ("/ratings/caylus", "#ratings-root *"),
        ("/verify", "#verify-form"),
        (f"/players/{name}", "#profile-root *"),
    ]
    for game in ("caylus", "carcassonne_castle", "age_of_rome", "shadow_of_the_emperor", "sultans_of_karaya"):
        kind = next(t for t in live_server.ok("GET", "/game-types") if t["name"] == game)
        seats = ["Bartholomew Featherstonehaugh"] + [f"P{i}" for i in range(kind["min_seats"] - 1)]
        made = live_server.create(game, seats)
        pages += [
            (f"/games/{made['id']}#token={made['seats'][0]['token']}", "#table-root[data-seq]"),
            (f"/games/{made['id']}/replay", "#replay-log li"),
            (f"/games/{made['id']}/referee#token={made['referee_token']}", "#referee-log li"),
        ]
    return pages


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_other_page_fits_a_phone(live_server, browser, other_pages, lang):
    page = phone_page(browser, lang)
    for path, drawn in other_pages:
        page.goto(live_server.url + path)
        page.wait_for_selector(drawn, state="attached")
        measured = widest(page)
        assert measured["width"] <= PHONE["width"], (path, measured)
        assert not stretched_choices(page), path
    assert not page.errors, page.errors
    page.context.close()
