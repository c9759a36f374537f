"""One game of each of the five games played by seat 0 with the keyboard only.

What the test does, exactly, per game (small tables: 2 seats, 3 for In the Shadow of the
Emperor, 5 for Sultans of Karaya; the games' default options):
1. a new game: seat 0 makes its first OPENING moves in its page with the keyboard, the
   other seats' moves are posted by bots (random legal moves) through the HTTP API;
2. that game is then played to its end through the API, and forked (POST /fork, allowed
   to anyone once a game is finished) TAIL events before its end;
3. in the fork, seat 0 plays every one of its moves with the keyboard until the game is
   over, so the stretch includes the last moves; bots play the others.
A keyboard move: when the board has playable places (its roving tab stop, see
static/js/board_keys.js) the focus goes there by Tab (once; it stays on the board after a
move), a few arrow keys move it, Enter plays; a menu of choices the board opens gets the
focus and Enter takes one. Otherwise (a move the board does not draw, e.g. "pass", or a
board element that is not the move wanted) Tab goes on to the list of moves, Enter opens
a collapsed group, Enter plays a move. No click, no element.focus() from the test.
"""

from __future__ import annotations

import random
import time

import pytest

from .conftest import shot
from .driver import SEQ_ABOVE_OR_ERROR, SEQ_AT_LEAST, open_table
from .games_at_steps import finish, new_game
from .helpers import GAMES

OPENING = 4
TAIL = {"caylus": 70, "carcassonne_castle": 40, "shadow_of_the_emperor": 60, "sultans_of_karaya": 60, "age_of_rome": 80}

FOCUS = """() => { const e = document.activeElement; return {
  board: !!(e && e.closest('#board')), kb: e && e.hasAttribute('data-kb'), tag: e ? e.tagName : '',
  action: !!(e && e.classList.contains('action-btn') && !e.disabled),
  summary: !!(e && e.tagName === 'SUMMARY' && e.closest('.action-group') && !e.parentElement.open),
  menu: !!(e && e.tagName === 'BUTTON' && e.closest('#board')) }; }"""


def press_until(page, want, limit: int = 400) -> bool:
    for _ in range(limit):
        f = page.evaluate(FOCUS)
        if want(f):
            return True
        page.keyboard.press("Tab")
    return False


def moved(page, shown: int, timeout: float = 4000) -> bool:
    try:
        page.wait_for_function(SEQ_ABOVE_OR_ERROR, arg=shown, timeout=timeout)
    except Exception:
        return False
    return page.locator("#action-error").is_hidden()


def seq_of(page) -> int:
    return int(page.locator("#table-root").get_attribute("data-seq"))


def keyboard_move(page, rand: random.Random, stats: dict) -> None:
    shown = seq_of(page)
    if int(page.locator("#board").get_attribute("data-kb-count") or 0) and rand.random() < 0.85:
        if not page.evaluate(FOCUS)["kb"]:
            page.keyboard.press("Shift+Tab") if page.evaluate(FOCUS)["board"] else None
            assert press_until(page, lambda f: f["kb"]), "Tab does not reach the board"
        for _ in range(rand.randrange(4)):
            page.keyboard.press(rand.choice(["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"]))
        page.keyboard.press("Enter")
        page.wait_for_timeout(50)
        if page.evaluate(FOCUS)["menu"]:
            page.keyboard.press("Enter")
        if moved(page, shown, 3000):
            stats["board"] += 1
            return
    # the list of moves, by Tab
    assert press_until(page, lambda f: f["action"] or f["summary"]), "Tab does not reach the moves"
    if page.evaluate(FOCUS)["summary"]:
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
    for _ in range(rand.randrange(6)):
        page.keyboard.press("Tab")
        if not page.evaluate(FOCUS)["action"]:
            page.keyboard.press("Shift+Tab")
            break
    assert page.evaluate(FOCUS)["action"], page.evaluate(FOCUS)
    page.keyboard.press("Enter")
    assert moved(page, shown, 8000), page.locator("#action-error").inner_text()
    stats["list"] += 1


def play(page, server, created: dict, rand: random.Random, stats: dict, max_mine: int | None, time_limit: float = 150):
    """Seat 0 by keyboard, the others by bots, until the end (or max_mine keyboard moves)."""
    tokens = created["tokens"]
    others = list(range(1, len(tokens)))
    refused: list = []
    started = time.monotonic()
    mine = 0
    last_mover = None
    while True:
        meta = server.meta(created["id"])
        if meta["status"] == "finished" or (max_mine is not None and mine >= max_mine):
            return meta, last_mover
        assert time.monotonic() - started < time_limit, f"no end in {time_limit}s ({stats})"
        if 0 in meta["to_act"]:
            page.wait_for_function(SEQ_AT_LEAST, arg=meta["seq"])
            page.wait_for_function(
                "() => document.querySelectorAll('.action-btn:not([disabled])').length > 0", timeout=10_000
            )
            keyboard_move(page, rand, stats)
            mine += 1
            last_mover = 0
            continue
        assert server.bot_move(created["id"], tokens, others, rand, refused), (meta, refused[:3])
        last_mover = "bot"


@pytest.mark.parametrize("game", GAMES)
def test_a_full_game_with_the_keyboard_only(game, live_server, page):
    page.on("dialog", lambda d: d.accept(d.default_value or None) if d.type == "prompt" else d.accept())
    rand = random.Random(23)
    stats = {"board": 0, "list": 0}
    created = new_game(live_server, game)
    open_table(page, live_server, created["id"], created["tokens"][0])
    play(page, live_server, created, rand, stats, max_mine=OPENING)
    opening = dict(stats)
    meta = finish(live_server, created, rand)
    fork = live_server.ok("POST", f"/games/{created['id']}/fork", json={"at_seq": max(2, meta["seq"] - TAIL[game])})
    fork["tokens"] = [s["token"] for s in fork["seats"]]
    open_table(page, live_server, fork["id"], fork["tokens"][0])
    end, last = play(page, live_server, fork, rand, stats, max_mine=None)
    assert end["status"] == "finished"
    page.wait_for_selector("#table-root[data-status=finished]")
    shot(page, f"keyboard-{game}-finished")
    tail = stats["board"] + stats["list"] - opening["board"] - opening["list"]
    print(f"{game}: opening {opening}, then {tail} keyboard moves to the end (last mover {last}); total {stats}")
    assert stats["board"] > 0, f"{game}: no move was played from the board with the keyboard"
    assert tail > 0
