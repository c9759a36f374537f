"""The pages' features, each in a real browser: lobby, table, undo, replay,
annotations, referee console, export and verify, and bad input."""

from __future__ import annotations

import json
import random
import re

import pytest

from .conftest import shot
from .driver import SEQ_AT_LEAST, click_a_move, hand_entered_move, open_table
from .helpers import wait_for

FEATURE_GAME = "caylus"  # the game these tests play


@pytest.fixture()
def game_name():
    return FEATURE_GAME


@pytest.fixture()
def two_player_game(live_server, game_name):
    created = live_server.create(game_name, ["Ada", "Brunel"])
    created["tokens"] = [s["token"] for s in created["seats"]]
    return created


def bot_moves(server, created, count, seats=None, rand=None):
    rand = rand or random.Random(3)
    refused = []
    seats = seats if seats is not None else list(range(len(created["tokens"])))
    done = 0
    while done < count:
        assert server.bot_move(created["id"], created["tokens"], seats, rand, refused), refused
        done += 1
    assert not refused, refused
    return server.meta(created["id"])


# -- lobby ----------------------------------------------------------------------------
def test_lobby_creates_a_game_and_hands_out_links(live_server, page, game_name):
    page.goto(live_server.url + "/")
    page.select_option("#create-game", game_name)
    page.select_option("#create-count", "3")
    names = page.locator("#create-seats input")
    assert names.count() == 3
    names.nth(0).fill("Alice")
    names.nth(1).fill("Bob")
    names.nth(2).fill("Carol")
    # options come from GET /api/game-types
    assert page.locator("#create-options [data-option]").count() >= 1
    shot(page, "lobby-create")
    page.click("#create-submit")
    page.wait_for_selector("#seat-links li")
    links = page.locator("#seat-links a").evaluate_all("as => as.map(a => a.href)")
    assert len(links) == 3 and all("#token=" in href for href in links)
    assert page.locator(".spectator-link a").get_attribute("href").endswith("#spectator")
    assert "#token=" in page.locator(".referee-link a").get_attribute("href")
    game_id = re.search(r"/games/([^/#]+)#", links[1]).group(1)
    # the list shows it, and the filters work
    page.wait_for_selector(f'#games-table tr[data-game-id="{game_id}"]')
    page.select_option("#filter-status", "finished")
    page.wait_for_function(f"() => !document.querySelector('#games-table tr[data-game-id=\"{game_id}\"]')")
    page.select_option("#filter-status", "active")
    page.wait_for_selector(f'#games-table tr[data-game-id="{game_id}"]')
    shot(page, "lobby-list")
    # the seat link opens Bob's table; the token leaves the address bar
    page.goto(links[1])
    page.wait_for_selector("#table-root[data-seq]")
    assert page.locator("#you").inner_text().startswith("You are Bob")
    assert "token" not in page.url
    page.reload()
    page.wait_for_selector("#table-root[data-seq]")
    assert page.locator("#you").inner_text().startswith("You are Bob"), "the seat survives a reload"


# -- the table ------------------------------------------------------------------------
def test_an_illegal_move_is_refused_with_its_message(live_server, page, two_player_game):
    g = two_player_game
    meta = live_server.meta(g["id"])
    mover = meta["to_act"][0]
    idle = 1 - mover
    action = live_server.actions(g["id"], g["tokens"][mover])[0]
    # what the server answers the idle seat for this move (a refused request changes nothing)
    answer = live_server.api("POST", f"/games/{g['id']}/actions", g["tokens"][idle], json=action)
    assert answer.status_code == 422, answer.text
    message = answer.json()["error"]["message"]
    open_table(page, live_server, g["id"], g["tokens"][idle])
    assert page.locator("#no-actions").is_visible()
    hand_entered_move(page, action)
    error = page.locator("#action-error")
    error.wait_for(state="visible")
    assert message in error.inner_text()
    assert live_server.meta(g["id"])["seq"] == meta["seq"], "a refused move changes nothing"
    shot(page, "table-illegal-move")
    # not even JSON: a clear message too
    page.fill("#manual-move", "{place a worker")
    page.click("#manual-submit")
    page.wait_for_function("() => document.querySelector('#action-error').innerText.includes('not a move')")


def test_undo_immediate_then_requested_and_approved(live_server, page, new_page, two_player_game):
    g = two_player_game
    rand = random.Random(5)
    first = live_server.meta(g["id"])["to_act"][0]
    other = 1 - first
    open_table(page, live_server, g["id"], g["tokens"][first])
    # 1. my move, undone at once: nobody moved since
    seq0 = live_server.meta(g["id"])["seq"]
    clicked, error = click_a_move(page, seq0, rand)
    assert clicked and not error
    page.wait_for_selector("#undo-request-btn")
    page.click("#undo-request-btn")
    wait_for(lambda: live_server.meta(g["id"])["seq"] == seq0 + 2, what="the undo event")
    page.wait_for_function(SEQ_AT_LEAST, arg=seq0 + 2)
    assert first in live_server.meta(g["id"])["to_act"]
    assert "undid back to step" in page.locator("#log").inner_text()
    page.wait_for_selector(f'#log li[data-seq="{seq0 + 1}"].reverted')  # the server's moves say it was taken back
    # 2. my move, then the other seat moves: the undo is a request the other seat approves
    meta = live_server.meta(g["id"])
    while True:
        meta = live_server.meta(g["id"])
        if first in meta["to_act"]:
            clicked, error = click_a_move(page, meta["seq"], rand)
            assert clicked and not error
            continue
        break
    bot_moves(live_server, g, 1, seats=[other])
    meta = live_server.meta(g["id"])
    page.wait_for_function(SEQ_AT_LEAST, arg=meta["seq"])
    page.click("#undo-request-btn")
    page.wait_for_selector("#undo-request")
    assert live_server.meta(g["id"])["pending_undo"]["seat"] == first
    shot(page, "table-undo-requested")
    theirs = new_page()
    open_table(theirs, live_server, g["id"], g["tokens"][other])
    theirs.wait_for_selector("#undo-approve")
    theirs.click("#undo-approve")
    wait_for(lambda: live_server.meta(g["id"])["pending_undo"] is None, what="the undo to be settled")
    after = live_server.meta(g["id"])
    assert first in after["to_act"], "the requester is to move again"
    page.wait_for_function(SEQ_AT_LEAST, arg=after["seq"])
    page.wait_for_function("() => !document.querySelector('#undo-request')")
    assert "approved the undo" in page.locator("#log").inner_text()


def test_spectators_follow_live_and_see_no_controls(live_server, page, two_player_game):
    g = two_player_game
    open_table(page, live_server, g["id"], None)
    assert page.locator("#you").inner_text() == "Spectating"
    assert not page.locator("#actions-panel").count()
    assert not page.locator("#manual").count()
    seq = live_server.meta(g["id"])["seq"]
    meta = bot_moves(live_server, g, 3)
    assert meta["seq"] > seq
    # no reload: the SSE stream tells the page
    page.wait_for_function(SEQ_AT_LEAST, arg=meta["seq"])
    assert page.locator("#head-hash").inner_text() == meta["head_hash"]
    page.wait_for_selector("#live.live-live")  # the stream is reopened every few seconds ("reconnecting" meanwhile)
    shot(page, "table-spectator")
    # the referee pauses: the table says so at once, and again when the game resumes
    live_server.ok("POST", f"/games/{g['id']}/referee/pause", g["referee_token"], json={"reason": "a fire drill"})
    page.wait_for_selector(".turn-banner.paused")
    live_server.ok("POST", f"/games/{g['id']}/referee/resume", g["referee_token"], json={})
    page.wait_for_function("() => !document.querySelector('.turn-banner').classList.contains('paused')")
    # a replay left on the last step follows the game
    replay = page.context.new_page()
    replay.goto(f"{live_server.url}/games/{g['id']}/replay")
    last = live_server.meta(g["id"])["seq"]
    replay.wait_for_selector(f"#replay-root[data-at='{last}']")
    meta = bot_moves(live_server, g, 2)
    replay.wait_for_selector(f"#replay-root[data-at='{meta['seq']}']")
    replay.close()


# -- the replay -----------------------------------------------------------------------
def test_replay_steps_permalinks_and_clamps(live_server, page, two_player_game):
    g = two_player_game
    meta = bot_moves(live_server, g, 10)
    last = meta["seq"]
    base = f"{live_server.url}/games/{g['id']}/replay"
    page.goto(f"{base}?at=5")
    page.wait_for_selector("#replay-root[data-at='5']")
    assert page.locator("#step-at").inner_text() == "5"
    assert page.locator("#replay-log li.current").get_attribute("data-seq") == "5"
    page.click("#next")
    page.wait_for_selector("#replay-root[data-at='6']")
    assert page.url.endswith("?at=6")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay-root[data-at='5']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-root[data-at='7']")
    page.click("#replay-log li[data-seq='3']")
    page.wait_for_selector("#replay-root[data-at='3']")
    assert page.locator("#replay-log li.current").get_attribute("data-seq") == "3"
    page.click("#last")
    page.wait_for_selector(f"#replay-root[data-at='{last}']")
    page.click("#first")
    page.wait_for_selector("#replay-root[data-at='1']")
    page.locator("#slider").fill("8")
    page.wait_for_selector("#replay-root[data-at='8']")
    # the board at step 4 is the view the API gives for ?at=4
    page.goto(f"{base}?at=4")
    page.wait_for_selector("#replay-root[data-at='4']")
    shot(page, "replay-step-4")
    # a step beyond the end is clamped to the last one, and says so
    page.goto(f"{base}?at={last + 500}")
    page.wait_for_selector(f"#replay-root[data-at='{last}']")
    assert page.locator("#clamp-note").is_visible()
    assert "beyond the end" in page.locator("#clamp-note").inner_text()
    assert page.url.endswith(f"?at={last}")


def test_replay_follows_the_pages_of_the_log(live_server, page, two_player_game):
    """/events answers pages; the replay reads them all by following ``next`` (here the
    browser asks for pages of 3 entries, so a short game takes several)."""
    g = two_player_game
    last = bot_moves(live_server, g, 10)["seq"]
    asked = []

    def small_pages(route):
        asked.append(route.request.url)
        route.continue_(url=route.request.url + "&limit=3")

    page.route("**/api/games/*/events?*", small_pages)
    page.goto(f"{live_server.url}/games/{g['id']}/replay")
    page.wait_for_selector(f"#replay-root[data-at='{last}']")
    assert page.locator("#replay-log li").count() == last
    assert len(asked) >= -(-last // 3)


def test_annotations_are_added_kept_and_refused_when_empty_or_too_long(live_server, page, two_player_game):
    g = two_player_game
    bot_moves(live_server, g, 6)
    page.goto(f"{live_server.url}/games/{g['id']}/replay?at=4")
    page.wait_for_selector("#replay-root[data-at='4']")
    # empty: refused with a message
    page.fill("#annotation-text", "   ")
    page.click("#annotation-submit")
    assert "needs some text" in page.locator("#annotation-error").inner_text()
    # too long: refused with a message (and the API refuses it too)
    page.fill("#annotation-text", "x" * 2001)
    page.click("#annotation-submit")
    assert "at most 2000" in page.locator("#annotation-error").inner_text()
    api = live_server.api(
        "POST", f"/games/{g['id']}/annotations", json={"seq": 4, "text": "x" * 2001, "kind": "comment"}
    )
    assert api.status_code == 400
    # a good one
    page.fill("#annotation-text", "The farm was the better space here.")
    page.fill("#annotation-author", "Commentator")
    page.click("#annotation-submit")
    page.wait_for_selector("#annotations-list .annotation")
    assert "better space" in page.locator("#annotations-list").inner_text()
    page.reload()
    page.wait_for_selector("#replay-root[data-at='4']")
    page.wait_for_selector("#annotations-list .annotation")
    assert "Commentator" in page.locator("#annotations-list").inner_text()
    # shown on the timeline and in the log; the marker jumps to it
    assert page.locator(".marker[data-seq='4']").count() == 1
    assert page.locator("#replay-log li[data-seq='4'] .ann-badge").count() == 1
    page.click("#first")
    page.wait_for_selector("#replay-root[data-at='1']")
    page.click(".marker[data-seq='4']")
    page.wait_for_selector("#replay-root[data-at='4']")
    shot(page, "replay-annotated")


# -- the referee ------------------------------------------------------------------------
def test_referee_pauses_rewinds_and_settles_a_dispute(live_server, page, new_page, two_player_game):
    g = two_player_game
    rand = random.Random(11)
    bot_moves(live_server, g, 6, rand=rand)
    live_server.meta(g["id"])
    events = live_server.ok("GET", f"/games/{g['id']}/events?after=0")["events"]
    moves = [e["seq"] for e in events if not e["type"].startswith(("game.", "referee."))]
    target = moves[2]
    # a player disputes a step from the replay page
    player = new_page()
    player.goto(f"{live_server.url}/games/{g['id']}/replay?at={moves[3]}#token={g['tokens'][0]}")
    player.wait_for_selector(f"#replay-root[data-at='{moves[3]}']")
    player.select_option("#annotation-kind", "dispute")
    player.fill("#annotation-text", "That worker was placed after time was called.")
    player.click("#annotation-submit")
    player.wait_for_selector("#annotations-list .kind-dispute")
    assert "awaiting the referee" in player.locator("#annotations-list").inner_text()
    # the referee's console
    page.goto(f"{live_server.url}/games/{g['id']}/referee#token={g['referee_token']}")
    page.wait_for_selector("#referee-log li")
    assert "token" not in page.url
    assert page.locator("#disputes .kind-dispute").count() == 1
    page.click("#pause-btn")
    page.wait_for_function("() => document.querySelector('#pause-btn').textContent === 'Resume'")
    assert live_server.meta(g["id"])["status"] == "paused"
    # a paused game refuses moves
    seat = live_server.meta(g["id"])["to_act"][0]
    action = live_server.actions(g["id"], g["tokens"][seat])
    if action:
        r = live_server.api("POST", f"/games/{g['id']}/actions", g["tokens"][seat], json=action[0])
        assert r.status_code == 409
    page.click("#pause-btn")
    page.wait_for_function("() => document.querySelector('#pause-btn').textContent === 'Pause'")
    # rewind, clicking the log line to pick the step, settling the dispute
    page.click(f"#referee-log li[data-seq='{target}']")
    assert page.locator("#rewind-to").input_value() == str(target)
    page.fill("#rewind-reason", "Worker placed after time was called")
    dispute_id = live_server.ok("GET", f"/games/{g['id']}/annotations")["annotations"][0]["id"]
    page.select_option("#rewind-form select[name=dispute]", dispute_id)
    before = live_server.meta(g["id"])["seq"]
    page.click("#rewind-btn")
    wait_for(lambda: live_server.meta(g["id"])["seq"] == before + 1, what="the rewind event")
    page.wait_for_function("() => document.querySelector('#referee-log').innerText.includes('rewound to step')")
    assert "Resolved" in page.locator("#disputes").inner_text()
    # the board is back to the rewound step
    assert (
        live_server.ok("GET", f"/games/{g['id']}/view")["view"]
        == live_server.ok("GET", f"/games/{g['id']}/view?at={target}")["view"]
    )
    shot(page, "referee-console")
    # the replay shows the trail
    player.reload()
    player.wait_for_selector("#disputes .resolution.done")
    assert "Rewind" in player.locator("#disputes").inner_text()
    # adjust a score, then declare a forfeit
    page.select_option("#adjust-form select[name=seat]", "1")
    page.fill("#adjust-form input[name=points]", "3")
    page.fill("#adjust-form input[name=reason]", "Scoring slip in round one")
    page.click("#adjust-btn")
    page.wait_for_function("() => document.querySelector('#referee-log').innerText.includes('adjusted Brunel by +3')")
    page.select_option("#forfeit-form select[name=seat]", "1")
    page.fill("#forfeit-form input[name=reason]", "Left the venue")
    page.click("#forfeit-btn")
    page.wait_for_function(
        "() => document.querySelector('#referee-log').innerText.includes('declared Brunel forfeited')"
    )
    types = [e["type"] for e in live_server.ok("GET", f"/games/{g['id']}/events?after=0")["events"]]
    assert "referee.adjust" in types and "referee.forfeit" in types
    # where the players look: the other seat's table shows both in its scores and its banner
    ada = new_page()
    open_table(ada, live_server, g["id"], g["tokens"][0])
    ada.wait_for_selector("#scores-table tr[data-seat='1'] .forfeit-badge")
    row = ada.locator("#scores-table tr[data-seat='1']")
    assert "Forfeited" in row.inner_text() and row.locator("td.adjust").inner_text() == "+3"
    banner = ada.locator("#referee-note").inner_text()
    assert "Brunel has forfeited." in banner and "adjusted Brunel's score by +3" in banner
    assert "forfeited" in ada.locator("#board-text").text_content()


def test_export_from_the_console_verifies(live_server, page, tmp_path, game_name):
    created = live_server.create(game_name, ["Ada", "Brunel"])
    created["tokens"] = [s["token"] for s in created["seats"]]
    rand = random.Random(2)
    refused = []
    while live_server.meta(created["id"])["status"] != "finished":
        assert live_server.bot_move(created["id"], created["tokens"], [0, 1], rand, refused), refused
    page.goto(f"{live_server.url}/games/{created['id']}/referee#token={created['referee_token']}")
    page.wait_for_selector("#referee-log li")
    with page.expect_download() as info:
        page.click("#export-btn")
    path = tmp_path / "export.jsonl"
    info.value.save_as(path)
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert lines[0]["type"] == "game.created" and lines[-2]["type"] == "game.finished"
    assert lines[-1]["head_signature"]["head"] == lines[-2]["hash"]  # the server's signed head
    page.goto(f"{live_server.url}/verify")
    page.set_input_files("#verify-file", str(path))
    page.click("#verify-submit")
    page.wait_for_selector("#verdict-line")
    assert "Verified" in page.locator("#verdict-line").inner_text()
    shot(page, "verify-ok")
    # a tampered log is not verified
    lines[2]["payload"] = {**lines[2]["payload"], "tampered": True}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    page.set_input_files("#verify-file", str(bad))
    page.click("#verify-submit")
    page.wait_for_function(
        "() => document.querySelector('#verdict-line') && document.querySelector('#verdict-line').innerText.includes('Not verified')"
    )
    shot(page, "verify-bad")
    # the finished game's replay shows the revealed seed, checked against the commitment
    page.goto(f"{live_server.url}/games/{created['id']}/replay")
    page.wait_for_selector("#seed-value")
    page.wait_for_function("() => !document.querySelector('#seed-check').innerText.startsWith('Checking')")
    assert "equals the seed commitment" in page.locator("#seed-check").inner_text()
    shot(page, "replay-finished")
    # what if: fork the finished game from a step
    page.keyboard.press("Home")
    page.wait_for_selector("#replay-root[data-at='1']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-root[data-at='2']")
    page.click("#fork-btn")
    page.wait_for_selector("#fork-links li")
    assert page.locator("#fork-links a").count() == 3


# -- bad input ----------------------------------------------------------------------------
def test_bad_links_show_a_clear_page(live_server, page, two_player_game):
    g = two_player_game
    page.goto(f"{live_server.url}/games/{g['id']}#token=not-a-real-token")
    page.wait_for_selector("#fatal")
    assert "not valid" in page.locator("#fatal").inner_text()
    assert "Traceback" not in page.content()
    shot(page, "bad-token")
    page.click('#fatal a:has-text("Watch as a spectator")')
    page.wait_for_selector("#table-root[data-seq]")
    assert page.locator("#you").inner_text() == "Spectating"
    page.goto(f"{live_server.url}/games/{g['id']}/referee")
    page.wait_for_selector("#fatal")
    assert "referee link is needed" in page.locator("#fatal").inner_text()
    page.goto(f"{live_server.url}/games/{g['id']}/referee#token={g['tokens'][0]}")
    page.wait_for_selector("#fatal")
    assert "not a referee link" in page.locator("#fatal").inner_text()
    page.goto(f"{live_server.url}/games/{g['id']}/referee#token=forged")
    page.wait_for_selector("#fatal")
    assert "not valid" in page.locator("#fatal").inner_text()
    page.goto(f"{live_server.url}/games/no-such-game")
    page.wait_for_selector("#fatal")
    assert "No such game" in page.locator("#fatal").inner_text()


# -- the generic renderer ---------------------------------------------------------------
def test_a_missing_or_broken_renderer_falls_back_to_the_generic_board(live_server, page, two_player_game, game_name):
    g = two_player_game
    broken = "export function render() { throw new Error('boom'); }\nexport function describeAction() { return ''; }\n"
    page.route(
        f"**/static/games/{game_name}.js",
        lambda route: route.fulfill(status=200, body=broken, content_type="text/javascript"),
    )
    open_table(page, live_server, g["id"], g["tokens"][0])
    assert "could not be drawn (boom)" in page.locator(".renderer-note").inner_text()
    board = page.locator("#board .generic-board")
    assert board.count() == 1
    assert board.locator(".g-summary").inner_text().strip()
    assert "{" not in board.locator(".g-section").first.inner_text()[:1], "not a raw JSON dump"
    # moves are still listed, labelled by the generic describeAction
    if page.locator(".action-btn").count():
        assert page.locator(".action-btn").first.inner_text().strip()
    page.unroute(f"**/static/games/{game_name}.js")
    other = page.context.new_page()
    other.route(f"**/static/games/{game_name}.js", lambda route: route.fulfill(status=404, body="not found"))
    other.goto(f"{live_server.url}/games/{g['id']}#spectator")
    other.wait_for_selector("#table-root[data-seq]")
    assert other.locator("#board .generic-board").count() == 1
    assert not other.locator(".renderer-note").count()
    shot(other, "table-generic-renderer")
    other.close()


def test_a_turn_based_clock_reads_in_days_and_vacation(live_server, page):
    created = live_server.create("caylus", ["Ada", "Brunel"], clock={"per_move_days": 2, "vacation_days": 3})
    open_table(page, live_server, created["id"], created["seats"][0]["token"])
    cells = page.locator("#scores-table td.clock")
    page.wait_for_function("() => document.querySelector('#scores-table td.clock')?.textContent.includes('d')")
    # before its first move a seat has its first-move allowance (a move's days) and no
    # vacation: the game is cancelled when the allowance runs out (projections/fold.py)
    assert re.fullmatch(r"[12]d \d+h", cells.nth(0).inner_text().strip()), cells.nth(0).inner_text()
    seat = live_server.meta(created["id"])["to_act"][0]
    token = created["seats"][seat]["token"]
    live_server.ok("POST", f"/games/{created['id']}/actions", token, json=live_server.actions(created["id"], token)[0])
    # once it has moved, its move's days and then its vacation days
    cell = page.locator(f"#scores-table td.clock[data-seat='{seat}']")
    page.wait_for_function(
        "s => document.querySelector(`#scores-table td.clock[data-seat='${s}']`)?.textContent.includes('vacation')",
        arg=seat,
    )
    assert re.fullmatch(r"[12]d \d+h \+ vacation 3d 0h", cell.inner_text().strip()), cell.inner_text()
