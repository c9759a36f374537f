"""WCAG 2.1 AA in a real browser: axe-core (tests/browser/axe.py) finds no critical and
no serious violation on any page, in either language: the lobby, verify, the tournament
pages, a bad link, and for each of the five games the seat's table, the spectator's, the
replay and the referee console at the start, in the middle and at the end of a game.
Also: the keyboard reaches every board element, the focus is visible, the position has
a text alternative and opponents' moves are announced in a live region."""

from __future__ import annotations

import random

import pytest

from .axe import audit, axe_script, describe
from .conftest import shot
from .driver import SEQ_AT_LEAST
from .games_at_steps import Scripted, advance, finish, new_game, sweep_games
from .helpers import GAMES, hold_session


@pytest.fixture(scope="session")
def axe():
    return axe_script()


@pytest.fixture(params=["en", "zh-Hant"])
def lang_page(request, browser):
    context = browser.new_context(
        viewport={"width": 1366, "height": 900},
        locale=request.param,
        extra_http_headers={"Accept-Language": request.param},
    )
    context.set_default_timeout(10_000)
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.lang = request.param
    yield p
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def assert_clean(page, axe, where: str) -> None:
    found = audit(page, axe)
    assert not found, f"{where} ({page.lang}):\n{describe(found)}"


def test_every_page_passes_axe(live_server, lang_page, axe):
    page = lang_page
    page.goto(live_server.url + "/")
    page.wait_for_selector("#games-list table, #games-list p:not(:has-text('…'))")
    assert_clean(page, axe, "lobby")
    page.goto(live_server.url + "/verify")
    assert_clean(page, axe, "verify")
    page.goto(live_server.url + "/tournaments")
    page.wait_for_selector("#create-game option", state="attached")
    assert_clean(page, axe, "tournaments")
    game = GAMES[0]
    made = live_server.ok(
        "POST", "/tournaments", json={"game": game, "name": "Open", "options": {"table_size": 2, "rounds": 1}}
    )
    page.goto(f"{live_server.url}/tournaments/{made['id']}")
    page.wait_for_selector("#standings table, #standings p:not(:has-text('…'))")
    assert_clean(page, axe, "tournament")
    page.goto(f"{live_server.url}/games/nosuchgame")
    page.wait_for_selector("#fatal")
    assert_clean(page, axe, "a bad link")


def test_the_account_page_passes_axe(live_server, lang_page, axe):
    """Logged out (the log-in and sign-up forms) and logged in (the change-password
    form, also with its error shown)."""
    page = lang_page
    page.goto(live_server.url + "/account")
    page.wait_for_selector("#login-form")
    assert_clean(page, axe, "account, logged out")
    name = f"Ida{random.randrange(10**6)}"
    token = live_server.ok("POST", "/accounts", json={"name": name, "password": "correct horse battery"})["token"]
    hold_session(page, name, token)
    page.goto(live_server.url + "/account")
    page.wait_for_selector("#password-form")
    assert_clean(page, axe, "account, logged in")
    page.fill("#password-old", "not the password")
    page.fill("#password-new", "another long password")
    page.press("#password-new", "Enter")
    page.wait_for_selector("#password-error:not(:empty)")
    assert_clean(page, axe, "account, a refused password change")


PAGES = ("seat", "spectator", "replay", "referee")


def check_game_pages(page, server, created, axe, label: str, pages=PAGES, seat: int = 0) -> None:
    gid = created["id"]
    seq = server.meta(gid)["seq"]
    if "seat" in pages:
        page.goto(f"{server.url}/games/{gid}#token={created['tokens'][seat]}")
        page.wait_for_function(SEQ_AT_LEAST, arg=seq)
        assert_clean(page, axe, f"{label}: seat {seat}'s table")
    if "spectator" in pages:
        page.goto(f"{server.url}/games/{gid}#spectator")
        page.wait_for_selector("#table-root[data-seq]")
        assert_clean(page, axe, f"{label}: the spectator's table")
    if "replay" in pages:
        page.goto(f"{server.url}/games/{gid}/replay")
        page.wait_for_selector("#replay-log li")
        page.wait_for_function("() => !!document.querySelector('#board[data-kb-count]')")
        assert_clean(page, axe, f"{label}: the replay")
    if "referee" in pages:
        page.goto(f"{server.url}/games/{gid}/referee#token={created['referee_token']}")
        page.wait_for_selector("#referee-log li")
        page.wait_for_function("() => !!document.querySelector('#board[data-kb-count]')")
        assert_clean(page, axe, f"{label}: the referee console")


# Seeded games (the same every run): for each game its smallest and largest table, looked
# at at the start, half-way and at the end; at each point the table of a seat that is
# asked to move and one more page, in turn, so each page is seen at several points.
# Every board state the rules can reach is checked by test_runtime_texts.py; long random
# games stay in `make soak` (test_random_games_pass_axe).
@pytest.mark.parametrize("game", GAMES)
def test_each_game_passes_axe_at_several_steps(game, live_server, page, axe):
    page.lang = "en"
    for k, (seats, seed) in enumerate(sweep_games(game)):
        played = Scripted(live_server, game, seats, seed)
        for i, fraction in enumerate((0, 0.5, 1)):
            meta = played.to(played.at(fraction))
            assert (meta["status"] == "finished") == (fraction == 1), meta["status"]
            other = PAGES[1 + (i + k) % 3]
            label = f"{game}, {seats} seats, seed {seed!r}, move {played.done}/{len(played.moves)}"
            check_game_pages(
                page, live_server, played.created, axe, label, ("seat", other), seat=(meta["to_act"] or [0])[0]
            )


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_random_games_pass_axe(game, live_server, page, axe):
    """Long random games: the server deals anew every run, so each run meets new states."""
    page.lang = "en"
    for n in range(3):
        rand = random.Random(11 + n)
        created = new_game(live_server, game)
        check_game_pages(page, live_server, created, axe, f"{game} at the start")
        advance(live_server, created, 25, rand)
        check_game_pages(page, live_server, created, axe, f"{game} mid-game")
        finish(live_server, created, rand)
        check_game_pages(page, live_server, created, axe, f"{game} finished")


@pytest.mark.parametrize("game", GAMES)
def test_the_board_is_played_from_the_keyboard_and_reads_aloud(game, live_server, page, axe):
    """Tab reaches the board, the arrow keys move between its playable places with a
    visible focus ring, each has a name; the position is in words; an opponent's move is
    announced in a polite live region."""
    rand = random.Random(5)
    created = new_game(live_server, game)
    # bring the game to a moment where seat 0 has playable places on the board
    for _ in range(60):
        meta = live_server.meta(created["id"])
        if 0 in meta["to_act"]:
            page.goto(f"{live_server.url}/games/{created['id']}#token={created['tokens'][0]}")
            page.wait_for_function(SEQ_AT_LEAST, arg=meta["seq"])
            if int(page.locator("#board").get_attribute("data-kb-count") or 0) > 1:
                break
        advance(live_server, created, 1, rand)
    else:
        pytest.fail(f"{game}: no moment with several playable places on the board")
    count = int(page.locator("#board").get_attribute("data-kb-count"))
    # one tab stop on the board: Tab from the start of the page lands on it
    page.locator("body").focus()
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate(
            "() => !!document.activeElement.closest('#board') && document.activeElement.hasAttribute('data-kb')"
        ):
            break
    else:
        pytest.fail("Tab never reached the board")
    first = page.evaluate("() => document.activeElement.dataset.kb")
    names = set()
    for key in ["ArrowRight", "ArrowDown", "ArrowRight", "ArrowLeft", "ArrowUp", "End", "Home"]:
        page.keyboard.press(key)
        focused = page.evaluate("""() => { const e = document.activeElement; const cs = getComputedStyle(e);
            return { kb: e.dataset.kb, role: e.getAttribute('role'), name: e.getAttribute('aria-label'),
                     ring: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2, tab: e.tabIndex }; }""")
        assert focused["kb"] is not None, f"{key} left the board"
        assert focused["role"] == "button" and focused["name"], focused
        assert focused["ring"], f"no visible focus ring on {focused}"
        assert focused["tab"] == 0, "the focused element is the board's one tab stop"
        names.add(focused["kb"])
    assert page.evaluate("() => document.activeElement.dataset.kb") == first == "0"
    assert len(names) > 1 or count == 1
    # the position in words: summary, whose turn, every seat's score
    text = page.locator("#board-text").text_content()
    assert "Your move" in page.locator("#turn").inner_text() or "your move" in text
    for name in [s["name"] for s in created["seats"]]:
        assert name in text
    # an opponent's move is announced
    for _ in range(200):
        meta = live_server.meta(created["id"])
        if meta["status"] != "active":
            break
        others = [s for s in meta["to_act"] if s != 0]
        if others:
            advance(live_server, created, 1, rand, seats=others)
            page.wait_for_function(
                "() => document.querySelector('#announce').textContent.trim().length > 0", timeout=10_000
            )
            break
        page.keyboard.press("Enter")  # seat 0 moves from the board (or its menu)
        page.wait_for_timeout(300)
        if page.evaluate(
            "() => document.activeElement.tagName === 'BUTTON' && !!document.activeElement.closest('#board')"
        ):
            page.keyboard.press("Enter")
        page.wait_for_timeout(300)
        if live_server.meta(created["id"])["seq"] == meta["seq"]:
            advance(live_server, created, 1, rand, seats=[0])
    assert page.locator("#announce").get_attribute("aria-live") == "polite"
    shot(page, f"keyboard-{game}")
