"""Traditional Chinese in a real browser.

A browser whose language is Chinese gets every page in zh-Hant: no visible text, title,
label or placeholder with an English word in it (tests/browser/untranslated.py), and no
text the modules asked the catalogue for and did not find, on the lobby, verify,
tournament and account pages and, for each game, the seat's table, the replay and the referee
console at the start, in the middle and at the end of a game (axe-core runs on them too).
The switch changes the language and is remembered. Screenshots of each game's table in
both languages go to tests/browser/artifacts/."""

from __future__ import annotations

import random

import pytest

from .axe import audit, axe_script, describe
from .conftest import shot
from .driver import SEQ_AT_LEAST
from .games_at_steps import NAMES, Scripted, advance, finish, new_game, sweep_games
from .helpers import GAMES, hold_session
from .untranslated import scan


@pytest.fixture(scope="session")
def axe():
    return axe_script()


def zh_context(browser, lang="zh-Hant"):
    context = browser.new_context(
        viewport={"width": 1366, "height": 900},
        locale=lang,
        extra_http_headers={"Accept-Language": "zh-TW,zh;q=0.9" if lang != "en" else "en-GB"},
    )
    context.set_default_timeout(10_000)
    return context


@pytest.fixture()
def zh_page(browser):
    context = zh_context(browser)
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    yield p
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def assert_chinese(page, where: str, axe_src: str | None = None) -> None:
    assert page.evaluate("() => document.documentElement.lang") == "zh-Hant", where
    found = scan(page, NAMES["zh-Hant"])
    assert not found["missing"], f"{where}: texts without a zh-Hant entry: {found['missing']}"
    assert not found["untranslated"], f"{where}: English on the page: {found['untranslated']}"
    if axe_src:
        violations = audit(page, axe_src)
        assert not violations, f"{where} (zh-Hant):\n{describe(violations)}"


def test_the_pages_are_in_chinese_for_a_chinese_browser(live_server, zh_page, axe):
    page = zh_page
    page.goto(live_server.url + "/")
    page.wait_for_selector("#create-game option", state="attached")
    page.wait_for_selector("#games-list table, #games-list p:not(:has-text('…'))")
    assert page.locator("h1").inner_text() == "大廳"
    assert_chinese(page, "lobby")
    page.goto(live_server.url + "/verify")
    assert_chinese(page, "verify")
    page.goto(live_server.url + "/tournaments")
    page.wait_for_selector("#create-game option", state="attached")
    assert_chinese(page, "tournaments")


def test_the_account_page_is_in_chinese(live_server, zh_page, axe):
    """Logged out, logged in with the change-password form, and that form refusing a
    wrong current password in the server's Chinese words."""
    page = zh_page
    page.goto(live_server.url + "/account")
    page.wait_for_selector("#login-form")
    assert_chinese(page, "account, logged out")
    name = f"大同{random.randrange(10**6)}"
    token = live_server.ok("POST", "/accounts", json={"name": name, "password": "correct horse battery"})["token"]
    hold_session(page, name, token)
    page.goto(live_server.url + "/account")
    page.wait_for_selector("#password-form")
    assert_chinese(page, "account, logged in", axe)
    page.fill("#password-old", "not the password")
    page.fill("#password-new", "another long password")
    page.click("#password-submit")
    page.wait_for_selector("#password-error:not(:empty)")
    assert page.inner_text("#password-error") == "目前的密碼不正確"
    assert_chinese(page, "account, a refused password change")


def look(page, server, created, axe_src, label, pages=("table", "replay", "referee"), seat: int = 0):
    gid = created["id"]
    seq = server.meta(gid)["seq"]
    if "table" in pages:
        page.goto(f"{server.url}/games/{gid}#token={created['tokens'][seat]}")
        page.wait_for_function(SEQ_AT_LEAST, arg=seq)
        page.locator("#board-text-box summary").click()
        assert_chinese(page, f"{label}: seat {seat}'s table", axe_src)
    if "replay" in pages:
        page.goto(f"{server.url}/games/{gid}/replay")
        page.wait_for_selector("#replay-log li")
        page.wait_for_function("() => !!document.querySelector('#board[data-kb-count]')")
        assert_chinese(page, f"{label}: replay")
    if "referee" in pages:
        page.goto(f"{server.url}/games/{gid}/referee#token={created['referee_token']}")
        page.wait_for_selector("#referee-log li")
        page.wait_for_function("() => !!document.querySelector('#board[data-kb-count]')")
        assert_chinese(page, f"{label}: referee console")


def screenshots(page, browser, server, created, game):
    """The same table in both languages, for the eye."""
    page.goto(f"{server.url}/games/{created['id']}#token={created['tokens'][0]}")
    page.wait_for_selector("#table-root[data-seq]")
    shot(page, f"table-{game}-zh-Hant")
    en = zh_context(browser, "en")
    en_page = en.new_page()
    en_page.goto(f"{server.url}/games/{created['id']}#token={created['tokens'][0]}")
    en_page.wait_for_selector("#table-root[data-seq]")
    assert en_page.evaluate("() => document.documentElement.lang") == "en"
    shot(en_page, f"table-{game}-en")
    en.close()


# Seeded games (the same every run, other deals than the axe sweep's): each game's
# smallest and largest table at the start, half-way and at the end, the table of a seat
# asked to move at each point, the replay half-way, the referee console at the end (axe
# on the tables at the start and the end). Every text shape the rules can produce is
# checked by test_runtime_texts.py; long random games stay in `make soak`.
@pytest.mark.parametrize("game", GAMES)
def test_every_string_of_a_game_is_in_chinese(game, live_server, zh_page, browser, axe):
    page = zh_page
    for k, (seats, seed) in enumerate(sweep_games(game)):
        seed = f"zh-Hant:{seed}"
        played = Scripted(live_server, game, seats, seed, "zh-Hant")
        for fraction, pages in ((0, ("table",)), (0.5, ("table", "replay")), (1, ("table", "referee"))):
            meta = played.to(played.at(fraction))
            label = f"{game}, {seats} seats, seed {seed!r}, move {played.done}/{len(played.moves)}"
            look(
                page,
                live_server,
                played.created,
                axe if fraction in (0, 1) else None,
                label,
                pages,
                seat=(meta["to_act"] or [0])[0],
            )
            if k == 0 and fraction == 0.5:
                screenshots(page, browser, live_server, played.created, game)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_random_games_are_in_chinese(game, live_server, zh_page, browser, axe):
    """Long random games: the server deals anew every run, so each run meets new texts."""
    page = zh_page
    for n in range(3):
        rand = random.Random(31 + n)
        created = new_game(live_server, game, "zh-Hant")
        look(page, live_server, created, axe, f"{game} at the start")
        advance(live_server, created, 30, rand)
        look(page, live_server, created, None, f"{game} mid-game")
        finish(live_server, created, rand)
        look(page, live_server, created, axe, f"{game} finished")


def test_the_switch_is_on_every_page_and_remembered(live_server, browser):
    context = zh_context(browser, "en")
    page = context.new_page()
    game = GAMES[0]
    created = new_game(live_server, game)
    for path in ["/", "/verify", "/tournaments", f"/games/{created['id']}", f"/games/{created['id']}/replay"]:
        page.goto(live_server.url + path)
        assert page.locator(".lang-switch a[data-lang=zh-Hant]").count() == 1, path
        assert page.evaluate("() => document.documentElement.lang") == "en"
    page.goto(live_server.url + "/verify")
    page.locator(".lang-switch a[data-lang=zh-Hant]").click()
    page.wait_for_url("**/verify")
    assert page.evaluate("() => document.documentElement.lang") == "zh-Hant"
    assert page.locator("h1").inner_text() == "驗證匯出檔"
    # remembered: another page, a new tab of the same browser
    other = context.new_page()
    other.goto(f"{live_server.url}/games/{created['id']}#spectator")
    other.wait_for_selector("#table-root[data-seq]")
    assert other.evaluate("() => document.documentElement.lang") == "zh-Hant"
    assert "觀戰中" in other.locator("#you").inner_text()
    # and back; the seat link's token survives the round trip (it moved to sessionStorage)
    other.goto(f"{live_server.url}/games/{created['id']}#token={created['tokens'][1]}")
    other.wait_for_selector("#table-root[data-seq]")
    other.locator(".lang-switch a[data-lang=en]").click()
    other.wait_for_selector("#table-root[data-seq]")
    assert other.evaluate("() => document.documentElement.lang") == "en"
    assert other.locator("#you").inner_text().startswith(f"You are {created['seats'][1]['name']}")
    context.close()
