"""The play table sends a seat's moves over the move socket (GET /api/games/<id>/socket),
and POSTs them, with the same action id, when the socket cannot carry them. The socket
opens with the page and follows the game (docs/WEB.md): it is reopened when it closes.

What the page does is read from the outside: the WebSocket frames and the requests the
browser sends (Playwright's events), the server's ``socket_frames`` metric, and the
game's log. ``page.route_web_socket`` stands between the page and the server to make the
socket fail: refused outright, silent, closed after the server played a move but before
its answer reached the page, or closed as idle.
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from .driver import click_a_move, hand_entered_move, open_table
from .helpers import wait_for


def metric(server, name: str, **labels) -> float:
    """A sample of the server's /metrics (the browser tests' server runs in this process)."""
    total = 0.0
    for line in server.http.get(f"{server.url}/metrics", timeout=10).text.splitlines():
        m = re.fullmatch(r"(\w+)\{(.*)\} (\S+)", line)
        if m and m.group(1) == name and all(f'{k}="{v}"' in m.group(2).split(",") for k, v in labels.items()):
            total += float(m.group(3))
    return total


def socket_frames(server, status: str) -> float:
    return metric(server, "boardgames_socket_frames_total", status=status)


def sockets_ended(server) -> float:
    """Move sockets the server has finished with (a socket's request ends when it closes)."""
    return metric(server, "boardgames_http_requests_total", route="/api/games/<game_id>/socket", method="GET")


def a_game_waiting_for_seat(server):
    """A fresh two-seat game and the seat it waits for first."""
    created = server.create("carcassonne_castle", ["Ada", "Brunel"])
    seat = server.meta(created["id"])["to_act"][0]
    return created, seat, created["seats"][seat]["token"]


def watch(page):
    """What the page sends: its move POSTs (envelope, status) and its sockets' frames."""
    seen = {"posts": [], "sockets": []}

    def on_response(response):
        request = response.request
        if request.method == "POST" and request.url.endswith("/actions"):
            seen["posts"].append((request.post_data_json, response.status))

    def on_socket(ws):
        frames = {"url": ws.url, "sent": [], "received": []}
        seen["sockets"].append(frames)
        ws.on("framesent", lambda payload: frames["sent"].append(json.loads(payload)))
        ws.on("framereceived", lambda payload: frames["received"].append(json.loads(payload)))

    page.on("response", on_response)
    page.on("websocket", on_socket)
    return seen


def move_for(server, gid: str, seat: int, created: dict) -> None:
    """The other seat moves until the game waits for ``seat``."""
    other = created["seats"][1 - seat]["token"]
    while seat not in server.meta(gid)["to_act"] and server.meta(gid)["status"] == "active":
        server.ok("POST", f"/games/{gid}/actions", other, json=server.actions(gid, other)[0])


def logged(server, game_id: str, token: str, action_id: str) -> list[dict]:
    events = server.ok("GET", f"/games/{game_id}/events?after=0", token)["events"]
    return [e for e in events if e.get("action_id") == action_id]


def test_moves_go_over_the_socket(live_server, page):
    created, seat, token = a_game_waiting_for_seat(live_server)
    gid = created["id"]
    seen = watch(page)
    before = socket_frames(live_server, "201")
    open_table(page, live_server, gid, token)
    seq = live_server.meta(gid)["seq"]
    wait_for(
        lambda: seen["sockets"] and seen["sockets"][0]["received"],
        timeout=30,
        what="the socket to open with the page",
        page=page,
    )
    clicked, error = click_a_move(page, seq, random.Random(1))
    assert clicked and error is None, error
    meta = live_server.meta(gid)
    assert meta["seq"] == seq + 1
    assert socket_frames(live_server, "201") == before + 1, "the move was answered over the socket"
    assert not seen["posts"], "no move was POSTed"
    [sock] = seen["sockets"]
    assert sock["url"] == f"{live_server.url.replace('http', 'ws', 1)}/api/games/{gid}/socket"
    assert token not in sock["url"]
    # the pages' CSP let Chromium open it: CSP3's 'self' covers ws: on the page's own host
    csp = live_server.http.get(f"{live_server.url}/games/{gid}", timeout=10).headers["Content-Security-Policy"]
    assert "connect-src 'self'" in csp
    hello, move = sock["sent"][:2]
    assert hello == {"token": token, "accept_language": "en", "follow": seq}
    assert move["expected_seq"] == seq and re.fullmatch(r"[0-9a-f-]{36}", move["action_id"])
    assert len(logged(live_server, gid, token, move["action_id"])) == 1
    answers = [frame for frame in sock["received"][1:] if "status" in frame]
    assert answers[0]["status"] == 201 and answers[0]["body"]["seq"] == seq + 1
    # a refused move shows the server's words, as when it was POSTed
    bogus = {"type": "no_such_move", "payload": {}}
    expected = live_server.api("POST", f"/games/{gid}/actions", token, json=bogus).json()["error"]["message"]
    hand_entered_move(page, bogus)
    page.wait_for_selector("#action-error:not([hidden])")
    shown = page.locator("#action-error").inner_text()
    assert shown.startswith(f"Not accepted: {expected}") and "known: " in shown, shown  # message and details
    assert len(seen["sockets"]) == 1 and not seen["posts"], "the same socket carried it"
    answers = [frame for frame in sock["received"][1:] if "status" in frame]
    assert answers[-1]["status"] == 400 and live_server.meta(gid)["seq"] == seq + 1
    # leaving the game closes its socket
    ended = sockets_ended(live_server)
    page.goto(f"{live_server.url}/")
    wait_for(lambda: sockets_ended(live_server) == ended + 1, what="the socket to close")


def test_a_chosen_language_holds_over_the_socket(live_server, browser):
    """The page's language (the switch's cookie) is not the browser's: the socket's
    answers are in the page's, as the POSTs' were (their Accept-Language)."""
    created, seat, token = a_game_waiting_for_seat(live_server)
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/lang/zh-Hant?next=/")
        seen = watch(page)
        open_table(page, live_server, created["id"], token)
        bogus = {"type": "no_such_move", "payload": {}}
        r = live_server.http.post(
            f"{live_server.url}/api/games/{created['id']}/actions",
            json=bogus,
            headers={"Authorization": f"Bearer {token}", "Accept-Language": "zh-Hant"},
            timeout=10,
        )
        expected = r.json()["error"]["message"]
        hand_entered_move(page, bogus)
        page.wait_for_selector("#action-error:not([hidden])")
        assert expected in page.locator("#action-error").inner_text()
        assert seen["sockets"] and seen["sockets"][0]["sent"][0]["accept_language"] == "zh-Hant"
        assert not seen["posts"]
    finally:
        context.close()


@pytest.mark.parametrize("socket", ["refused", "silent"])
def test_a_socket_that_cannot_play_falls_back_to_post(live_server, page, socket):
    """Refused (closed at once), or open but never answering the token frame (the page
    gives it 5 s): the move is POSTed and lands once."""
    created, seat, token = a_game_waiting_for_seat(live_server)
    gid = created["id"]
    handshakes = []

    def stand_in(ws):
        handshakes.append(ws.url)
        if socket == "refused":
            ws.close(code=1008, reason="refused")
        else:
            ws.on_message(lambda message: None)

    page.route_web_socket(re.compile(r"/socket$"), stand_in)
    seen = watch(page)
    open_table(page, live_server, gid, token)
    seq = live_server.meta(gid)["seq"]
    clicked, error = click_a_move(page, seq, random.Random(2))
    assert clicked and error is None, error
    assert live_server.meta(gid)["seq"] == seq + 1
    wait_for(lambda: seen["posts"], what="the POST's answer", page=page)
    [(envelope, status)] = seen["posts"]
    assert status == 201 and envelope["expected_seq"] == seq
    assert len(logged(live_server, gid, token, envelope["action_id"])) == 1
    # the next move is POSTed at once: no second handshake (nor its wait) for a while
    move_for(live_server, gid, seat, created)
    seq = live_server.meta(gid)["seq"]
    started = time.monotonic()
    clicked, error = click_a_move(page, seq, random.Random(3))
    assert clicked and error is None, error
    assert time.monotonic() - started < 4, "the move waited for a socket"
    wait_for(lambda: len(seen["posts"]) == 2, what="the second POST's answer", page=page)
    assert seen["posts"][1][1] == 201
    # the page's follower retries the socket with a growing delay (0.5, 1, 2, 5 s...)
    assert len(handshakes) <= 5, handshakes


def test_a_socket_lost_before_its_answer_lands_the_move_once(live_server, page):
    """The server plays the move, the socket closes before the answer reaches the page:
    the page POSTs the same envelope, the server answers 200 with the first answer, and
    the log holds the move once. The next move opens a new socket."""
    created, seat, token = a_game_waiting_for_seat(live_server)
    gid = created["id"]
    connections = []

    def middle(ws):
        server = ws.connect_to_server()
        number = len(connections)
        connections.append(number)
        answers = []

        def to_page(message):
            if "push" not in json.loads(message):
                answers.append(message)
            if number == 0 and len(answers) == 2:  # the first move's answer: lost
                ws.close(code=1011, reason="lost")
                server.close()
                return
            ws.send(message)

        ws.on_message(lambda message: server.send(message))
        server.on_message(to_page)

    page.route_web_socket(re.compile(r"/socket$"), middle)
    seen = watch(page)
    before = socket_frames(live_server, "201")
    open_table(page, live_server, gid, token)
    seq = live_server.meta(gid)["seq"]
    clicked, error = click_a_move(page, seq, random.Random(3))
    assert clicked and error is None, error
    assert live_server.meta(gid)["seq"] == seq + 1
    assert socket_frames(live_server, "201") == before + 1, "the socket played it"
    wait_for(lambda: seen["posts"], what="the retried POST's answer", page=page)
    [(envelope, status)] = seen["posts"]
    assert status == 200, "the POST was a retry of the played move"
    assert seen["sockets"][0]["sent"][1]["action_id"] == envelope["action_id"]
    assert len(logged(live_server, gid, token, envelope["action_id"])) == 1
    # the other seat moves; this seat's next move goes over a new socket
    move_for(live_server, gid, seat, created)
    seq = live_server.meta(gid)["seq"]
    clicked, error = click_a_move(page, seq, random.Random(4))
    assert clicked and error is None, error
    assert live_server.meta(gid)["seq"] == seq + 1
    assert len(connections) == 2 and len(seen["posts"]) == 1, "the follower reopened it once"
    assert socket_frames(live_server, "201") == before + 2


def test_an_idle_socket_is_opened_again_on_the_next_move(live_server, page):
    """The server closes a socket after SOCKET_IDLE_SECONDS without a frame (here: the
    route closes it, code 1000, once the first move is answered): the page opens a new
    one, and nothing is POSTed."""
    created, seat, token = a_game_waiting_for_seat(live_server)
    gid = created["id"]
    opened = []

    def middle(ws):
        server = ws.connect_to_server()
        first = not opened
        opened.append(ws)
        answers = []

        def to_page(message):
            if "push" not in json.loads(message):
                answers.append(message)
            ws.send(message)
            if first and len(answers) == 2:
                ws.close(code=1000, reason="idle")
                server.close()

        ws.on_message(lambda message: server.send(message))
        server.on_message(to_page)

    page.route_web_socket(re.compile(r"/socket$"), middle)
    seen = watch(page)
    open_table(page, live_server, gid, token)
    for n in range(2):
        move_for(live_server, gid, seat, created)
        seq = live_server.meta(gid)["seq"]
        clicked, error = click_a_move(page, seq, random.Random(10 + n))
        assert clicked and error is None, error
        assert live_server.meta(gid)["seq"] == seq + 1
    assert len(opened) == 2 and not seen["posts"]
