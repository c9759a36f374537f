"""Every open page is served by the push: a new entry is drawn from what the server
pushes (a seat's and the referee's socket, the spectators' stream) with no request, and
a seat's own move costs the move alone (0 HTTP requests when the socket carries it).

Requests are counted from the browser's side (Playwright's request events, the API's
only: the socket's handshake and the stream are the push itself). The waits are on what
the pages draw (their step, their log lines), never on an element a navigation removes.
"""

from __future__ import annotations

import random
import re
import time

from .driver import SEQ_AT_LEAST, click_a_move, open_table


def api_requests(page) -> list[str]:
    """The page's API requests from now on, the push's own connections left out, and so
    are the reads a page makes on its own clock whatever the game does (a seat's chat
    every 4 s, the console's notes every 15 s: a slow run lasts long enough to see them)."""
    seen: list[str] = []

    def on_request(request):
        url = request.url
        if (
            "/api/" in url
            and not url.endswith(("/socket", "/chat"))
            and "/stream" not in url
            and "/annotations?" not in url
        ):
            seen.append(f"{request.method} {url}")

    page.on("request", on_request)
    return seen


def wait_drawn(page, seq: int) -> None:
    page.wait_for_function(SEQ_AT_LEAST, arg=seq)
    page.wait_for_selector(f'#log li[data-seq="{seq}"]')


def other_seat_moves(server, gid: str, token: str) -> int:
    server.ok("POST", f"/games/{gid}/actions", token, json=server.actions(gid, token)[0])
    return server.meta(gid)["seq"]


def test_entries_reach_seats_and_spectators_with_no_request(live_server, page, new_page):
    created = live_server.create("toy", ["Ada", "Brunel"], options={"rounds": 4})
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    spectator = new_page()
    open_table(page, live_server, gid, tokens[1])
    open_table(spectator, live_server, gid, None)
    page.wait_for_selector("#live.live-live")
    spectator.wait_for_selector("#live.live-live")
    seen = {"seat": api_requests(page), "spectator": api_requests(spectator)}
    for _ in range(2):
        # seat 0 moves from elsewhere: both pages draw it from the push alone
        seq = other_seat_moves(live_server, gid, tokens[0])
        wait_drawn(page, seq)
        wait_drawn(spectator, seq)
        assert seen == {"seat": [], "spectator": []}, seen
        # the seat's page has its new moves from the push: it plays one, over its socket
        clicked, error = click_a_move(page, seq, random.Random(seq))
        assert clicked and error is None, error
        wait_drawn(page, seq + 1)
        wait_drawn(spectator, seq + 1)
        assert seen == {"seat": [], "spectator": []}, "a seat's own move is the socket's frame alone"
    board = page.locator("#table-root").get_attribute("data-seq")
    assert int(board) == live_server.meta(gid)["seq"]


def test_a_move_posted_costs_one_request_and_a_spectator_none(live_server, page, new_page):
    """Without the socket (a browser with no WebSocket) the table follows the stream:
    its own move is the POST alone, the answer drawn as it came."""
    created = live_server.create("toy", ["Ada", "Brunel"], options={"rounds": 4})
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    page.add_init_script("delete window.WebSocket")
    open_table(page, live_server, gid, tokens[0])
    page.wait_for_selector("#live.live-live")
    seen = api_requests(page)
    seq = live_server.meta(gid)["seq"]
    clicked, error = click_a_move(page, seq, random.Random(1))
    assert clicked and error is None, error
    wait_drawn(page, seq + 1)
    assert [r.split(" ")[0] for r in seen] == ["POST"], seen
    # the other seat's move: this seat's own view and moves are read again (the stream's
    # position is a spectator's), once
    seq = other_seat_moves(live_server, gid, tokens[1])
    wait_drawn(page, seq)
    page.wait_for_function("() => document.querySelectorAll('.action-btn:not([disabled])').length > 0")
    assert len(seen) == 1 + 4, seen


def test_the_referee_console_appends_entries_from_its_socket(live_server, page):
    created = live_server.create("toy", ["Ada", "Brunel"], options={"rounds": 4})
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    page.goto(f"{live_server.url}/games/{gid}/referee#token={created['referee_token']}")
    page.wait_for_selector("#referee-log li[data-seq='1']")
    first = page.locator("#referee-log li").first.element_handle()
    seen = api_requests(page)
    for seat in (0, 1, 0):
        seq = other_seat_moves(live_server, gid, tokens[seat])
        page.wait_for_selector(f"#referee-log li[data-seq='{seq}']")
    assert seen == [], "no request per entry"
    assert page.locator("#referee-log li").count() == seq
    assert first.evaluate("li => li.isConnected"), "the log was appended to, not drawn again"
    assert "Log" in page.locator("#log-panel").inner_text()


def test_the_replay_follows_new_steps_from_the_push(live_server, page):
    """A spectator on the last step follows the game: each new step's view comes with
    its stream message, so the replay draws it with no request."""
    created = live_server.create("toy", ["Ada", "Brunel"], options={"rounds": 4})
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    page.goto(f"{live_server.url}/games/{gid}/replay")
    page.wait_for_selector("#replay-root[data-at='1']")
    seen = api_requests(page)
    for seat in (0, 1):
        seq = other_seat_moves(live_server, gid, tokens[seat])
        page.wait_for_selector(f"#replay-root[data-at='{seq}']")
        page.wait_for_selector(f"#replay-log li[data-seq='{seq}'].current")
    assert seen == [], "no request per entry"
    shown = page.locator("#board").inner_text()
    assert str(live_server.ok("GET", f"/games/{gid}/view")["view"]["scores"][0]) in shown


def test_a_reopened_socket_fills_the_gap_with_no_request(live_server, page):
    """The seat's socket closes (the server's idle close, a network blip); the game moves
    on meanwhile: the page reopens it after the seq it drew, and the hello brings the
    missed entries and the seat's whole position."""
    created = live_server.create("toy", ["Ada", "Brunel"], options={"rounds": 4})
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    opened = []

    def middle(ws):
        server = ws.connect_to_server()
        opened.append(ws)
        ws.on_message(lambda message: server.send(message))
        server.on_message(lambda message: ws.send(message))

    page.route_web_socket(re.compile(r"/socket$"), middle)
    open_table(page, live_server, gid, tokens[1])
    page.wait_for_selector("#live.live-live")
    seen = api_requests(page)
    opened[0].close(code=1000, reason="idle")
    seq = other_seat_moves(live_server, gid, tokens[0])
    wait_drawn(page, seq)
    page.wait_for_function("() => document.querySelectorAll('.action-btn:not([disabled])').length > 0")
    assert len(opened) == 2 and seen == [], seen


def test_a_long_game_and_a_rewind_are_drawn_from_patches_with_no_request(live_server, page, new_page):
    """A push carries what changed (the meta's moves one at a time, the seat's growing
    list of notes), and the pages keep the whole: after 60 entries and a referee's rewind
    the seat's table, a spectator's and the referee console mark every move taken back,
    all from the push."""
    created = live_server.create("toy", ["Ada", "Brunel"], options={"rounds": 4})
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    spectator, referee = new_page(), new_page()
    open_table(page, live_server, gid, tokens[0])
    open_table(spectator, live_server, gid, None)
    referee.goto(f"{live_server.url}/games/{gid}/referee#token={created['referee_token']}")
    page.wait_for_selector("#live.live-live")
    spectator.wait_for_selector("#live.live-live")
    referee.wait_for_selector("#referee-log li[data-seq='1']")
    seen = {"seat": api_requests(page), "spectator": api_requests(spectator), "referee": api_requests(referee)}
    for _ in range(60):
        seq = live_server.ok(
            "POST", f"/games/{gid}/actions", tokens[0], json={"type": "note", "payload": {"text": "a"}}
        )["seq"]
    wait_drawn(page, seq)
    wait_drawn(spectator, seq)
    referee.wait_for_selector(f"#referee-log li[data-seq='{seq}']")
    live_server.ok(
        "POST", f"/games/{gid}/referee/rewind", created["referee_token"], json={"to_seq": 21, "reason": "test"}
    )
    for p in (page, spectator):
        wait_drawn(p, seq + 1)
        p.wait_for_selector(f'#log li[data-seq="{seq}"].reverted')
        assert p.locator("#log li.reverted").count() == seq - 21
    referee.wait_for_selector(f"#referee-log li[data-seq='{seq + 1}']")
    referee.wait_for_selector(f"#referee-log li[data-seq='{seq}'].reverted")
    assert referee.locator("#referee-log li.reverted").count() == seq - 21
    assert seen == {"seat": [], "spectator": [], "referee": []}, "no request: every patch applied"


def test_a_spectator_reads_nothing_while_its_stream_reopens_on_schedule(live_server, page):
    """The server ends each stream on schedule (every 3.75 to 5 s here) and the browser
    opens the next: the page reads the game again only once its link has been down 4 s on
    end, not whenever its 5-s timer falls while a stream reopens. Each reopening is held
    2 s here, as a loaded server would: the timer fell in one with odds of 2 in 5 before."""
    gid = live_server.create("toy", ["Ada", "Brunel"], options={"rounds": 4})["id"]
    opened: list[str] = []

    def slow_reopening(route):
        opened.append(route.request.url)
        if len(opened) > 1:
            time.sleep(2)
        route.continue_()

    page.route("**/stream*", slow_reopening)
    open_table(page, live_server, gid, None)
    page.wait_for_selector("#live.live-live")
    seen = api_requests(page)
    page.wait_for_timeout(30_000)
    assert len(opened) >= 5, opened
    assert seen == [], seen
