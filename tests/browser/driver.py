"""The seat under test plays by clicking in the page; bots fill the other seats."""

from __future__ import annotations

import json
import random
import time

from .helpers import Server

SEQ_AT_LEAST = "seq => Number(document.querySelector('#table-root')?.dataset.seq || 0) >= seq"
SEQ_ABOVE_OR_ERROR = """seq => Number(document.querySelector('#table-root')?.dataset.seq || 0) > seq
  || (document.querySelector('#action-error') && !document.querySelector('#action-error').hidden)"""


def open_table(page, server: Server, game_id: str, token: str | None):
    fragment = f"#token={token}" if token else "#spectator"
    page.goto(f"{server.url}/games/{game_id}{fragment}")
    page.wait_for_selector("#table-root[data-seq]")


def click_a_move(page, seq: int, rand: random.Random) -> tuple[bool, str | None]:
    """Wait until the page shows step ``seq``, click one of its move buttons.

    Returns (clicked, error message shown by the page or None).
    """
    page.wait_for_function(SEQ_AT_LEAST, arg=seq)
    page.wait_for_function(
        "() => document.querySelectorAll('.action-btn:not([disabled])').length > 0"
        " || document.querySelector('#no-actions')"
    )
    buttons = page.evaluate(
        "() => [...document.querySelectorAll('.action-btn:not([disabled])')].map(b => b.dataset.index)"
    )
    if not buttons:
        return False, None
    index = rand.choice(buttons)
    button = page.locator(f'.action-btn[data-index="{index}"]')
    group = page.locator(f'details.action-group:has(.action-btn[data-index="{index}"])')
    if group.count() and not group.evaluate("d => d.open"):
        group.locator("summary").click()
    shown = int(page.locator("#table-root").get_attribute("data-seq"))
    button.click()
    page.wait_for_function(SEQ_ABOVE_OR_ERROR, arg=shown)
    error = page.locator("#action-error")
    if error.is_visible():
        return True, error.inner_text()
    return True, None


MARK_BOARD_TARGETS = """() => {
  const pointer = (e) => getComputedStyle(e).cursor === 'pointer';
  const skip = (e) => e.closest('button, a, summary, label, input, select, textarea');
  const all = [...document.querySelectorAll('#board *')].filter((e) => pointer(e) && !skip(e));
  const outer = all.filter((e) => !(e.parentElement && all.includes(e.parentElement)));
  document.querySelectorAll('[data-test-target]').forEach((e) => e.removeAttribute('data-test-target'));
  outer.forEach((e, i) => e.setAttribute('data-test-target', String(i)));
  return outer.length;
}"""


def click_on_board(page, seq: int, rand: random.Random) -> bool:
    """Make a move by clicking the board the game's renderer drew (its clickable
    elements show a pointer cursor); a menu the click opens offers the moves as buttons."""
    page.wait_for_function(SEQ_AT_LEAST, arg=seq)
    page.wait_for_function("() => document.querySelectorAll('.action-btn:not([disabled])').length > 0")
    count = page.evaluate(MARK_BOARD_TARGETS)
    if not count:
        return False
    shown = int(page.locator("#table-root").get_attribute("data-seq"))
    buttons_before = page.locator("#board button:visible").count()
    try:
        page.locator(f'[data-test-target="{rand.randrange(count)}"]').click(timeout=2000)
        page.wait_for_function(
            f"""() => Number(document.querySelector('#table-root')?.dataset.seq) > {shown}
            || document.querySelectorAll('#board button:not([disabled])').length > {buttons_before}
            || document.querySelector('#action-error')?.hidden === false""",
            timeout=3000,
        )
        if (
            int(page.locator("#table-root").get_attribute("data-seq")) == shown
            and page.locator("#action-error").is_hidden()
        ):
            page.locator("#board button:visible").nth(buttons_before).click(timeout=2000)
        page.wait_for_function(SEQ_ABOVE_OR_ERROR, arg=shown, timeout=3000)
    except Exception:  # not a move after all (a hover effect, a rotation toggle): use the list
        return False
    return page.locator("#action-error").is_hidden()


def play_full_game(
    page,
    server: Server,
    game_id: str,
    tokens: list[str],
    page_seat: int,
    *,
    seed: int = 7,
    max_steps: int = 5000,
    time_limit: float = 240.0,
    on_step=None,
    board_clicks: int = 0,
) -> dict:
    """Play the game to its end: the page seat clicks, bots post for the others."""
    rand = random.Random(seed)
    others = [s for s in range(len(tokens)) if s != page_seat]
    # a board may ask which of several moves a click means (a prompt): take its default
    page.on(
        "dialog",
        lambda dialog: dialog.accept(dialog.default_value or None) if dialog.type == "prompt" else dialog.accept(),
    )
    refused: list = []
    page_errors: list = []
    clicks = bot_moves = board_moves = board_tries = 0
    started = time.monotonic()
    for step in range(max_steps):
        meta = server.meta(game_id)
        if meta["status"] == "finished":
            break
        assert meta["status"] == "active", meta["status"]
        assert time.monotonic() - started < time_limit, (
            f"the game did not finish in {time_limit}s ({clicks} clicks, {bot_moves} bot moves)"
        )
        if on_step:
            on_step(step, meta)
        mine = page_seat in meta["to_act"]
        waiting_others = [s for s in meta["to_act"] if s != page_seat]
        if mine and board_moves < board_clicks and board_tries < 4 * board_clicks:
            board_tries += 1
            if click_on_board(page, meta["seq"], rand):
                board_moves += 1
                clicks += 1
                continue
            meta = server.meta(game_id)
            if meta["status"] != "active" or page_seat not in meta["to_act"]:
                continue
        if mine and (not waiting_others or rand.random() < 0.5):
            clicked, error = click_a_move(page, meta["seq"], rand)
            if clicked:
                clicks += 1
                if error:
                    page_errors.append(error)
                    assert len(page_errors) < 50, f"the server refused many moves the page offered: {page_errors[:3]}"
                continue
        if server.bot_move(game_id, tokens, others, rand, refused):
            bot_moves += 1
            continue
        assert len(refused) < 20, f"listed actions refused: {refused[:3]}"
        if mine:
            clicked, error = click_a_move(page, meta["seq"], rand)
            if clicked:
                clicks += 1
                continue
        raise AssertionError(f"nobody can move at seq {meta['seq']} (to_act {meta['to_act']}); refused: {refused[:3]}")
    else:
        raise AssertionError(f"no result after {max_steps} moves")
    return {
        "clicks": clicks,
        "bot_moves": bot_moves,
        "board_moves": board_moves,
        "refused": refused,
        "page_errors": page_errors,
        "seconds": time.monotonic() - started,
    }


def hand_entered_move(page, action: dict) -> None:
    page.locator("#manual summary").click()
    page.fill("#manual-move", json.dumps(action))
    page.click("#manual-submit")
