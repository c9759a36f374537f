"""Playing together by turns, in Chromium: two accounts meet at an open table from the
lobby's form and play by days per move a game of two of the product's types (In the
Shadow of the Emperor, Carcassonne: The Castle); at each turn the player awaited gets an
e-mail (the in-process SMTP server) and a Web Push (the test push endpoint, which checks
the VAPID signature and decrypts it); the push is then handed to that player's browser,
whose service worker shows it. Days pass on the service's injected clock, never by
sleeping: the table page shows them ticking and a move in time costs no vacation.

Chromium cannot subscribe to this endpoint itself: its Push API is refused in the
non-persistent contexts tests use ("not supported in incognito mode"), and a persistent
one subscribes at Google's push service only. So the subscription is filed on the
server as ``POST /api/me/notices/push`` files a browser's (that route takes https
endpoints only), and the push the endpoint received is delivered to the service worker
through the DevTools protocol (``ServiceWorker.deliverPushMessage``), where the
browser's push service would deliver it.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
import uuid

import pytest

from projections.fold import DAY
from service.adapters.connection import start_embedded
from service.adapters.delivery import SmtpMailer, WebPusher
from service.services.notices import DIGEST_SECONDS
from service.vapid import application_server_key, load_vapid
from service.wiring import of as services_of
from tests.live_server import served
from tests.notices.inbox import serving
from tests.notices.push_endpoint import PushEndpoint

from .conftest import shot
from .driver import click_a_move
from .helpers import Server, hold_session, wait_for

PASSWORD = "correct horse battery"
TURNS = {"per_move_days": 2, "vacation_days": 1}
CLICKED = 4  # moves of each game made in the page; the rest are posted


class Clock:
    """The service's clock: real time plus the days the test has let pass."""

    def __init__(self) -> None:
        self.ahead = 0.0
        self._lock = threading.Lock()

    def now(self) -> float:
        return time.time() + self.ahead

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.ahead += seconds


class World:
    """The app on its own Redis with an injected clock, an SMTP inbox, a push endpoint
    and the notice sender (``python -m service notices`` does what ``send`` does)."""

    def __init__(self, server: Server, app, clock: Clock, inbox, push: PushEndpoint) -> None:
        self.server, self.app, self.clock, self.inbox, self.push = server, app, clock, inbox, push
        self.services = services_of(app)
        self.sender = self.services.notice_sender(
            SmtpMailer("127.0.0.1", inbox.port, "notices@example.test"),
            WebPusher(load_vapid(app.config["DATA_DIR"]), "mailto:ops@example.test"),
            server.url,
        )

    def account(self, prefix: str) -> tuple[str, str]:
        name = f"{prefix}{uuid.uuid4().hex[:6]}"
        token = self.server.ok("POST", "/accounts", json={"name": name, "password": PASSWORD})["token"]
        self.server.ok("PUT", "/me/notices", token, json={"email": f"{name}@example.test"})
        # what POST /api/me/notices/push files for a browser's subscription
        self.services.notice_settings.subscribe(name, self.push.subscription(f"/push/{name}"))
        return name, token

    def queued(self, accounts: int) -> None:
        """Wait until ``accounts`` accounts have notices waiting: a page draws a move from
        the live push, which may come before the append's listeners have filed them."""
        wait_for(lambda: self.services.notices.stats()["waiting"] >= accounts, timeout=15, what="the notices filed")

    def send(self) -> None:
        """Let the digest window pass and send what is due."""
        self.clock.advance(DIGEST_SECONDS + 1)
        self.sender.send_due()

    def mails(self, name: str) -> list[str]:
        return [m.get_content() for m in self.inbox.to(f"{name}@example.test")]

    def pushes(self, name: str) -> list[dict]:
        return list(self.push.at.get(f"/push/{name}", []))


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from service.app import create_app

    data = str(tmp_path_factory.mktemp("together"))
    redis_server, url = start_embedded(f"{data}/redis")
    clock = Clock()
    app = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "SSE_SECONDS": 5, "DATA_DIR": data}, now=clock.now)
    push = PushEndpoint(application_server_key(load_vapid(data)))
    with served(app, name="together-server") as url, serving() as inbox:
        yield World(Server(url), app, clock, inbox, push)
    push.close()
    time.sleep(2.5)  # the live streams (XREAD BLOCK of at most 2 s) notice their closed browsers
    redis_server.shutdown()


def player(browser, world: World, width: int, who: tuple[str, str]):
    """``who``'s browser, logged in, with notifications allowed and the service worker
    installed."""
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 500 else 900})
    context.set_default_timeout(15_000)
    context.grant_permissions(["notifications"], origin=world.server.url)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(world.server.url + "/")
    hold_session(page, *who)
    page.evaluate("() => navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)")
    page.reload()
    return page


def deliver(page, world: World, notice: dict) -> dict:
    """Hand a received push to the browser's service worker, as its push service would;
    answers the notification it shows. Notifications shown before are closed first, and
    the one shown is read in the same poll that finds it: Chromium may close a shown
    notification of its own accord, so a later read could find none."""
    cdp = page.context.new_cdp_session(page)
    found: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    wait_for(lambda: found, timeout=15, what="the service worker's registration", page=page)
    page.evaluate(
        """async () => {
        const r = await navigator.serviceWorker.getRegistration();
        (await r.getNotifications()).forEach((n) => n.close());
      }"""
    )
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": world.server.url, "registrationId": found[0]["registrationId"], "data": json.dumps(notice)},
    )
    cdp.detach()
    # an async predicate cannot go to wait_for_function: its promise is truthy at once
    script = """async (title) => {
        const r = await navigator.serviceWorker.getRegistration();
        const n = (await r.getNotifications()).find((n) => n.title === title);
        return n ? { title: n.title, body: n.body, url: n.data && n.data.url } : false;
      }"""
    return wait_for(
        lambda: page.evaluate(script, notice["title"]), timeout=15, what="the shown notification", page=page
    )


def told(world: World, name: str, text: str, game_id: str, mails_before: int, pushes_before: int) -> dict:
    """``name`` got one e-mail and one push more, saying ``text`` about ``game_id``."""
    mails, pushes = world.mails(name), world.pushes(name)
    assert len(mails) == mails_before + 1, (name, mails[mails_before:])
    assert text in mails[-1] and game_id in mails[-1], mails[-1]
    assert len(pushes) == pushes_before + 1, (name, pushes[pushes_before:])
    assert text in pushes[-1]["body"] and pushes[-1]["url"].endswith(f"/games/{game_id}"), pushes[-1]
    assert world.push.refused == 0  # every push carried a valid VAPID signature
    return pushes[-1]


def open_table_from_the_form(page, game: str, options: dict[str, str], referee: str | None = None) -> str:
    """Open a two-seat table with days per move from the lobby's form; its id."""
    page.select_option("#create-game", game)
    page.select_option("#create-count", "2")
    page.check("#create-mode-table")
    if referee:
        page.fill("#create-referee", referee)
    for name, value in options.items():
        page.fill(f"input[name=opt_{name}]", value)
    page.locator("#create-more summary").click()
    page.select_option("select[name=clock_days]", str(TURNS["per_move_days"]))
    page.fill("input[name=clock_vacation]", str(TURNS["vacation_days"]))
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector("#table-seats")
    return page.url.rsplit("/", 1)[1]


def join_from_the_lobby(page, world: World, table_id: str) -> None:
    page.goto(world.server.url + "/")
    row = page.locator(f'li.open-table[data-table-id="{table_id}"]')
    assert row.locator(".table-clock").inner_text() == "by days: 2 days per move"  # not a live table
    page.locator(f'li.open-table[data-table-id="{table_id}"] button.join-table').click()
    page.wait_for_url(re.compile(f"/games/{table_id}$"))


def clock_cell(page, seat: int) -> str:
    return page.locator(f"#scores-table td.clock[data-seat='{seat}']").inner_text()


def meet(world, a, b, ann, bob, game, options, referee=None) -> str:
    """Ann opens a table by days from the form, Bob joins it from the lobby: the game.
    ``referee``: (account, page) of the account the table names its referee."""
    table_id = open_table_from_the_form(a, game, options, referee and referee[0][0])
    if referee:
        referee[1].goto(f"{world.server.url}/tables/{table_id}")
        assert "You referee this game" in referee[1].inner_text("#table-referee")
    join_from_the_lobby(b, world, table_id)
    a.wait_for_url(re.compile(f"/games/{table_id}$"))  # her table page follows the start
    if referee:  # the referee's table page goes to the game with its referee token
        referee[1].wait_for_url(re.compile(f"/games/{table_id}#token=.+$"))
        referee[1].wait_for_selector("#you:text('Referee view')")
    meta = world.server.meta(table_id)
    assert meta["accounts"] == {"0": ann[0], "1": bob[0]}
    assert meta["clocks"]["per_move"] == 2 * DAY and meta["clocks"]["vacation"] == [DAY, DAY]
    return table_id


def days_pass_and_the_page_shows_them(page, world, game_id: str, seat: int, days: float) -> None:
    """``days`` pass while ``seat`` is awaited: its page, opened afresh, shows the move's
    days less those (its clock runs by the server's time, not the device's)."""
    world.clock.advance(days * DAY)
    page.goto(f"{world.server.url}/games/{game_id}")
    page.wait_for_selector(f"#scores-table td.clock.running[data-seat='{seat}']")
    left = TURNS["per_move_days"] * DAY - (world.clock.now() - world.server.meta(game_id)["clocks"]["since"])
    expected = f"{int(left // DAY)}d {int(left % DAY // 3600)}h"
    shown = clock_cell(page, seat)
    assert shown.startswith(expected), (shown, expected)  # a vacation bank follows it


def in_time(world, game_id: str, seat: int, waited: set[int]) -> None:
    """A move in time renews its days and takes no vacation; a seat that was not awaited
    meanwhile kept its days whole."""
    clocks = world.server.meta(game_id)["clocks"]
    assert clocks["vacation"] == [DAY, DAY], clocks
    for s in {seat} | ({0, 1} - waited):
        assert clocks["remaining"][s] == 2 * DAY, (s, clocks)


def play_by_days(world, game_id: str, names, sessions, pages, rand, ticking_shot: str | None = None) -> None:
    """Play ``game_id`` to its end, a move every few hours or days of the injected clock:
    the first ``CLICKED`` moves clicked in the mover's page, opened afresh to show its days
    ticking, the rest posted with the seat's session. After each move the seats awaited
    after another's move get one e-mail and one push each, and the mover, going on with
    its turn or not, none; no move costs vacation. Finally the end's notices, and no
    notice names a move that was played."""
    clicks = posts = 0
    started = time.monotonic()
    while True:
        meta = world.server.meta(game_id)
        if meta["status"] != "active":
            break
        assert time.monotonic() - started < 150, f"the game did not end in time ({clicks} clicks, {posts} posts)"
        seat = rand.choice(meta["to_act"])
        counts = {s: (len(world.mails(names[s])), len(world.pushes(names[s]))) for s in names}
        if clicks < CLICKED:  # the first moves through the page, the rest through the API
            days_pass_and_the_page_shows_them(pages[seat], world, game_id, seat, 1.5 if clicks % 2 == 0 else 0.25)
            if clicks == 0 and ticking_shot:
                shot(pages[seat], ticking_shot)
            clicked, error = click_a_move(pages[seat], meta["seq"], rand)
            assert clicked and error is None, error
            clicks += 1
        else:
            world.clock.advance(0.125 * DAY)  # three hours a move: the sessions (30 days) outlast the game
            actions = world.server.actions(game_id, sessions[seat])
            world.server.ok("POST", f"/games/{game_id}/actions", sessions[seat], json=rand.choice(actions))
            posts += 1
        after = world.server.meta(game_id)
        if after["status"] != "active":
            break
        in_time(world, game_id, seat, set(meta["to_act"]))
        others = set(after["to_act"]) - {seat}  # awaited after another's move: told so
        world.queued(len(others))
        world.send()
        for s in names:
            if s in others:
                told(world, names[s], "It is your move", game_id, *counts[s])
            else:  # the mover, going on with its turn or not: nothing new to tell
                assert len(world.mails(names[s])) == counts[s][0], world.mails(names[s])[-1]
                assert len(world.pushes(names[s])) == counts[s][1], world.pushes(names[s])[-1]
    assert world.server.meta(game_id)["status"] == "finished"
    world.queued(2)
    world.send()
    for s in names:
        assert "has ended" in world.mails(names[s])[-1] and "has ended" in world.pushes(names[s])[-1]["body"]
    game = world.server.meta(game_id)["game"]
    played = {e["type"].split(".", 1)[1] for e in events_of(world, game_id) if e["type"].startswith(game + ".")}
    told_texts = [t for s in names for t in world.mails(names[s]) + [p["body"] for p in world.pushes(names[s])]]
    assert not [(m, t) for m in played for t in told_texts if re.search(rf"\b{m}\b", t)]


def events_of(world, game_id: str) -> list[dict]:
    """The game's whole log, as everyone sees it once it has ended."""
    events: list[dict] = []
    after: int | None = 0
    while after is not None:
        page = world.server.ok("GET", f"/games/{game_id}/events?after={after}")
        events += page["events"]
        after = page["next"]
    return events


@pytest.mark.parametrize("width", [390, 1366])
def test_two_accounts_play_by_days_with_a_notice_each_turn_and_a_rematch(world, browser, width):
    """In the Shadow of the Emperor by days: open table → the first moves clicked in the
    page, the rest posted → at each change of turn the next player's e-mail and push →
    the finished game's rematch, asked and accepted."""
    ann, bob = world.account("Ann"), world.account("Bob")
    a, b = player(browser, world, width, ann), player(browser, world, width, bob)
    game_id = meet(world, a, b, ann, bob, "shadow_of_the_emperor", {"first_emperor": "0"})
    shot(a, f"together-game-{width}")
    assert world.server.meta(game_id)["to_act"] == [0]  # Ann, the first emperor, begins

    # the first move is Ann's: she is told so, and her browser shows the push
    world.send()
    pushed = told(world, ann[0], "It is your move", game_id, 0, 0)
    assert not world.mails(bob[0]) and not world.pushes(bob[0])
    shown = deliver(a, world, pushed)
    assert shown["title"] == pushed["title"] and "It is your move" in shown["body"], shown
    assert shown["url"].endswith(f"/games/{game_id}")

    names, sessions, pages = {0: ann[0], 1: bob[0]}, {0: ann[1], 1: bob[1]}, {0: a, 1: b}
    play_by_days(world, game_id, names, sessions, pages, random.Random(width), f"together-days-ticking-{width}")

    # a rematch, asked from Ann's page and accepted from Bob's My games
    a.goto(f"{world.server.url}/games/{game_id}")
    a.wait_for_selector("#offer-rematch")
    a.click("#offer-rematch")
    a.wait_for_url(re.compile(r"/tables/\w+$"))
    rematch_id = a.url.rsplit("/", 1)[1]
    world.send()
    assert "A rematch of" in world.mails(bob[0])[-1] and "rematch" in world.pushes(bob[0])[-1]["body"]
    b.goto(world.server.url + "/my-games")
    b.locator(f'#my-games > li[data-id="{rematch_id}"] button.accept-table').click()
    b.wait_for_url(re.compile(f"/games/{rematch_id}$"))
    a.wait_for_url(re.compile(f"/games/{rematch_id}$"))
    rematch = world.server.meta(rematch_id)
    assert rematch["accounts"] == {"0": bob[0], "1": ann[0]}  # the seats turned
    assert rematch["clocks"]["per_move"] == 2 * DAY  # by days, as the first
    errors = a.errors + b.errors
    a.context.close()
    b.context.close()
    assert not errors, errors


def test_a_second_game_by_days_chat_with_a_mute_and_my_games_first_what_waits(world, browser):
    """Carcassonne: The Castle by days between the same kind of pair, its first turns
    clicked, the rest posted; a notice for each change of turn; the table's chat with a
    mute and a message the table's referee hides; "My games" puts what waits for the
    account first."""
    ann, bob, cara = world.account("Ann"), world.account("Bob"), world.account("Cara")
    a, b, c = (player(browser, world, 1366, who) for who in (ann, bob, cara))
    game_id = meet(world, a, b, ann, bob, "carcassonne_castle", {}, referee=(cara, c))
    names = {0: ann[0], 1: bob[0]}
    sessions = {0: ann[1], 1: bob[1]}
    pages = {0: a, 1: b}
    world.send()
    told(world, ann[0], "It is your move", game_id, 0, 0)

    # the chat: they talk, Ann mutes Bob, his words leave her chat only
    a.fill("#chat-text", "good luck")
    a.click("#chat-send")
    b.fill("#chat-text", "you will need it")
    b.click("#chat-send")
    a.wait_for_selector(".chat-text:text('you will need it')")
    b.wait_for_selector(".chat-text:text('you will need it')")  # his own: the read after his POST
    a.click(".mute-seat[data-seat='1']")
    a.wait_for_function("() => !document.querySelector('#chat-log')?.textContent.includes('you will need it')")
    b.wait_for_selector(".chat-text:text('good luck')")
    assert "you will need it" in b.inner_text("#chat-log")
    # Cara, the table's referee, hides Bob's message: kept and marked, its text hers only
    c.wait_for_selector(".chat-text:text('you will need it')")
    c.once("dialog", lambda dialog: dialog.accept("unsporting"))
    c.locator(".chat-message[data-seat='1'] .hide-message").click()
    c.wait_for_selector(".hidden-message .chat-text:text('you will need it')")
    b.wait_for_selector(".hidden-message em:text('hidden by the referee: unsporting')")
    assert "you will need it" not in b.inner_text("#chat-log")
    shot(b, "together-chat")

    play_by_days(world, game_id, names, sessions, pages, random.Random(29))

    # My games: what waits for the account first (his turn, an invitation), newest first,
    # then the game waiting for Ann, then the finished one
    def table(opener, joiner=None, **extra):
        body = {"game": "carcassonne_castle", "seats": 2, "contribution": "ab" * 32, "clock": TURNS, **extra}
        opened = world.server.ok("POST", "/tables", opener[1], json=body)
        if joiner:
            world.server.ok("POST", f"/tables/{opened['id']}/seats", joiner[1], json={"contribution": "cd" * 32})
        return opened["id"]

    annes_turn = table(ann, bob)  # seat 0, the opener's, moves first
    bobs_turn = table(bob, ann)
    invited = table(ann, invited=[bob[0]])
    b.goto(world.server.url + "/my-games")
    b.wait_for_selector("#my-games")
    rows = b.locator("#my-games > li").evaluate_all("(lis) => lis.map((li) => [li.dataset.id, li.dataset.yourTurn])")
    assert rows == [
        [invited, "true"],
        [bobs_turn, "true"],
        [annes_turn, "false"],
        [game_id, "false"],
    ], rows
    shot(b, "together-my-games")
    errors = a.errors + b.errors + c.errors
    for page in (a, b, c):
        page.context.close()
    assert not errors, errors
