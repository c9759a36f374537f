"""The organiser's whole day in a real browser, at 390 px and at desktop width, on a real
gunicorn server with the default rate limits, every request from one address (a venue's
NAT): twelve players create accounts and register from the tournament page; the
director runs three Swiss rounds from the director page. In round 1 one player never
turns up: the first-move allowance cancels that game, unrated. In round 2 a player
disputes a step from their table ("Dispute a move") and the director sees it live and
settles it on the director page; the director withdraws another player mid-game and a
computer plays on. In round 3 the whole server is stopped mid-round and started again:
nobody's clock is charged. At the end the bundle downloaded from the page verifies
offline with ``python -m service verify-tournament``, and no request was answered 429.

The people act through the pages; the games' own moves go through the API with the
seats' tokens (a human's pace would make the day last a day)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from tests.browser.helpers import wait_for
from tests.platform.gunicorn_server import gunicorn_process
from tests.redis_servers import free_port

from .bots import bearer

pytestmark = pytest.mark.xdist_group("durability")

SIZES = {"phone": (390, 844), "desktop": (1366, 900)}
GAME = "shadow_of_the_emperor"  # the quickest two-player game to play out: ~95 cheap moves
PLAYERS = 12
PASSWORD = "correct horse battery"
FIRST_MOVE = 20  # seconds: the no-show's game is cancelled this long after pairing
CLOCK = 300
ROUND_FINISHED = "#rounds > .round:first-child h3 .status-finished"  # the latest round, finished
OUTAGE = FIRST_MOVE + 1  # seconds the server is down in round 3, gunicorn's stop and start aside


@contextmanager
def served(port: int, data_dir: Path, logs: list[str]):
    """The real server as deployed (gunicorn, its embedded Redis under ``data_dir``, the
    clock sweeper and the bot pool), every limit at its default (Argon2 at the suite's
    cost: this is about the day, not the hashing)."""
    env = {
        "DATA_DIR": data_dir,
        "REDIS_URL": None,
        "RATE_LIMITS": "on",
        "BOT_SEATS_PER_CREATOR": None,
        "BOT_STRENGTH_PER_CREATOR": None,
        "BOTS": "1",
        "BOT_WORKERS": "1",
        "CLOCK_SWEEP_SECONDS": "0.5",
        "WEB_CONCURRENCY": "2",
    }
    with gunicorn_process(port=port, **env) as (_, output, _):
        yield
    logs.extend(output)


class Api:
    """The test's own requests, each with a token (counted per token, as the pages' are)."""

    def __init__(self, base: str):
        self.base = base
        self.http = requests.Session()

    def call(self, method: str, path: str, token: str | None, **kw):
        r = self.http.request(method, self.base + path, headers=bearer(token), timeout=60, **kw)
        assert r.status_code != 429, (method, path, r.text)
        return r

    def ok(self, method: str, path: str, token: str | None, **kw):
        r = self.call(method, path, token, **kw)
        assert r.status_code < 300, (method, path, r.status_code, r.text)
        return r.json()


def play(api: Api, table: dict, rand: random.Random, moves: int = 10**6, skip: tuple[int, ...] = ()) -> dict:
    """Play up to ``moves`` moves of a table's game for its seats (but ``skip``) with
    their tokens; a seat a computer plays is waited for. Returns the last meta seen."""
    gid = table["game_id"]
    tokens = {s["seat"]: s["token"] for s in table["seats"] if s.get("token") and s["seat"] not in skip}
    any_token = next(iter(tokens.values()))
    state = api.ok("GET", f"/api/games/{gid}", any_token)
    offered: tuple[int, int, list] | None = None  # (seq, seat, actions) from the last answer
    made = 0
    deadline = time.monotonic() + 180
    while state["status"] == "active" and made < moves:
        assert time.monotonic() < deadline, f"{gid} did not finish: {state}"
        mine = [s for s in state["to_act"] if s in tokens]
        if not mine:  # a computer's turn, or a seat we leave alone
            time.sleep(0.3)
            state = api.ok("GET", f"/api/games/{gid}", any_token)
            continue
        seat = rand.choice(mine)
        if offered and offered[:2] == (state["seq"], seat):
            actions = offered[2]
        else:
            actions = api.ok("GET", f"/api/games/{gid}/actions", tokens[seat])["actions"]
        r = api.call(
            "POST",
            f"/api/games/{gid}/actions",
            tokens[seat],
            json={**rand.choice(actions), "expected_seq": state["seq"]},
        )
        if r.status_code == 201:
            made += 1
            state = r.json()
            offered = (state["seq"], seat, state["actions"])
        else:
            assert r.status_code == 409, r.text  # someone (a computer, the sweeper) wrote first
            state = api.ok("GET", f"/api/games/{gid}", any_token)
    return api.ok("GET", f"/api/games/{gid}", any_token)


def new_page(browser, width: int, height: int, errors: list[str]):
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    return page


def sign_up_and_register(browser, size: tuple[int, int], server: str, tid: str, name: str, errors: list[str]) -> dict:
    """A player opens the tournament page, follows "log in here", creates an account,
    comes back and registers as it; answers the player's name and player link."""
    page = new_page(browser, *size, errors)
    page.goto(f"{server}/tournaments/{tid}")
    page.click("#register-login")
    page.wait_for_selector("#signup-form")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_url(f"{server}/tournaments/{tid}")
    page.wait_for_selector("#register-as:not([hidden])")
    assert page.inner_text("#register-as-name") == name
    page.click("#register-me")
    link = page.locator("#registered a").get_attribute("href")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    page.context.close()
    return {"name": name, "link": link}


def round_view(api: Api, tid: str, director: str, number: int) -> dict:
    return api.ok("GET", f"/api/tournaments/{tid}/rounds/{number}", director)


def pair_from_the_page(page, api: Api, tid: str, director: str, number: int) -> dict:
    page.click("#pair-round")
    page.wait_for_selector(f"#rounds > .round:first-child h3:has-text('{number}')")  # the latest round first
    return round_view(api, tid, director, number)


def seat0(table: dict) -> str:
    return table["seats"][0]["token"]


def events(api: Api, gid: str, token: str) -> list[dict]:
    return api.ok("GET", f"/api/games/{gid}/events", token)["events"]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_organisers_day(browser, tmp_path, size):
    started = time.monotonic()
    width, height = SIZES[size]
    port, logs, errors = free_port(), [], []
    server = f"http://127.0.0.1:{port}"
    rand = random.Random(31)
    data = tmp_path / "data"
    data.mkdir()

    with served(port, data, logs):
        api = Api(server)
        # -- the director creates the event from the page ---------------------------------
        director_page = new_page(browser, width, height, errors)
        director_page.goto(f"{server}/tournaments")
        director_page.wait_for_selector(f"#create-game option[value='{GAME}']", state="attached")
        director_page.fill("input[name=name]", "Club night")
        director_page.select_option("#create-game", GAME)
        director_page.fill("input[name=table_size]", "2")
        director_page.fill("input[name=rounds]", "3")
        director_page.fill("input[name=clock_base]", str(CLOCK))
        director_page.fill("input[name=clock_first_move]", str(FIRST_MOVE))
        director_page.check("input[name=pause_on_dispute]")
        director_page.click("#create-form button[type=submit]")
        link = director_page.locator("#created a").get_attribute("href")
        tid, director = link.split("/tournaments/")[1].split("#director=")
        made = api.ok("GET", f"/api/tournaments/{tid}", None)
        assert made["options"]["clock"]["first_move"] == FIRST_MOVE and made["options"]["clock"]["pause_on_dispute"]
        director_page.goto(link)
        director_page.wait_for_selector("#director-panel:not([hidden])")

        # -- twelve players sign up and register from the page ------------------------------
        players = [
            sign_up_and_register(
                browser, (width, height), server, tid, f"P{i}{size[:2]}{rand.randrange(10**4)}", errors
            )
            for i in range(PLAYERS)
        ]
        director_page.wait_for_selector(f"#players li >> nth={PLAYERS - 1}")
        listed = api.ok("GET", f"/api/tournaments/{tid}", None)["players"]
        assert sorted(p["name"] for p in listed) == sorted(p["name"] for p in players)

        # -- round 1: one player never turns up -------------------------------------------
        one = pair_from_the_page(director_page, api, tid, director, 1)
        assert len(one["tables"]) == 6 and not one["byes"]
        assert api.ok("GET", f"/api/tournaments/{tid}", None)["registration"] == "closed"
        absent, *present = one["tables"]
        paired = api.ok("GET", f"/api/games/{absent['game_id']}", seat0(absent))["clocks"]
        assert paired["remaining"] == [CLOCK, CLOCK] and paired["moved"] == []  # no clock runs before a first move
        with ThreadPoolExecutor(len(present)) as pool:
            for meta in pool.map(lambda t: play(api, t, random.Random(t["table"])), present):
                assert meta["status"] == "finished" and not meta["result"].get("cancelled"), meta
        cancelled = wait_for(
            lambda: (m := api.ok("GET", f"/api/games/{absent['game_id']}", None))["status"] == "finished" and m,
            timeout=FIRST_MOVE + 30,
            step=0.25,
            what="the no-show's game to be cancelled",
        )
        assert cancelled["result"]["cancelled"], cancelled["result"]
        types = [e["type"] for e in events(api, absent["game_id"], absent["seats"][1]["token"])]
        assert "clock.cancelled" in types and "clock.expired" not in types
        assert cancelled["clocks"]["remaining"][0] == CLOCK  # the allowance ran out, not the clock
        absentees = {s["name"] for s in absent["seats"]}
        rated = wait_for(
            lambda: len(r := api.ok("GET", "/api/ratings", None)["ratings"].get(GAME, {})) >= PLAYERS - 2 and r,
            timeout=30,
            step=0.25,
            what="the played games to be rated",
        )
        assert len(rated) == PLAYERS - 2 and not absentees & set(rated), rated  # the game nobody moved in is not rated
        director_page.wait_for_selector(ROUND_FINISHED, timeout=30_000)

        # -- round 2: a dispute from a table, seen live and settled; a withdrawal ----------
        two = pair_from_the_page(director_page, api, tid, director, 2)
        disputed, leaving_table, *rest = two["tables"]
        play(api, disputed, rand, moves=6)
        raiser = next(p for p in players if p["name"] == disputed["seats"][0]["name"])
        table_page = new_page(browser, width, height, errors)
        table_page.goto(raiser["link"])
        table_page.click("#my-games a:has-text('play')")
        table_page.wait_for_selector("#table-root[data-seq]")
        table_page.click("#dispute-link")
        table_page.wait_for_selector("#annotation-kind option[value=dispute]", state="attached")
        assert table_page.eval_on_selector("#annotation-kind", "s => s.value") == "dispute"
        table_page.fill("#annotation-text", "my opponent's last move was not allowed")
        table_page.click("#annotation-submit")
        table_page.wait_for_selector("#disputes .kind-dispute")  # filed: leaving sooner may cancel its POST
        table_page.click("a.button:has-text('Table')")
        table_page.wait_for_selector("#pending-note:has-text('1')")  # the table's banner says so
        # the director's page shows it without a reload
        row = f"tr[data-game='{disputed['game_id']}']"
        director_page.wait_for_selector(f"{row} .dispute-badge", timeout=10_000)
        director_page.wait_for_selector("#director-disputes .dispute-line")
        held = api.ok("GET", f"/api/games/{disputed['game_id']}", disputed["seats"][0]["token"])
        assert held["disputes"] and held["clocks"]["running"] == [] or held["clocks"].get("disputes"), held["clocks"]
        line = director_page.locator("#director-disputes .dispute-line").first
        line.locator("input[name=reason]").fill("the move was legal: the rules allow it")
        line.locator("button[type=submit]").click()
        director_page.wait_for_selector(f"{row} .dispute-badge", state="detached", timeout=10_000)
        settled = api.ok("GET", f"/api/games/{disputed['game_id']}", disputed["seats"][0]["token"])
        assert settled["disputes"] == [], settled["disputes"]
        assert "referee.dismiss" in [e["type"] for e in events(api, disputed["game_id"], disputed["seats"][0]["token"])]
        table_page.context.close()

        play(api, leaving_table, rand, moves=40)
        leaving = leaving_table["seats"][1]
        item = director_page.locator(f"#players li[data-pid='{leaving['pid']}']")
        item.locator(".withdraw-open").click()
        item.locator("input[name=reason]").fill("had to leave early")
        item.locator("select[name=bot]").select_option("1")
        item.locator("button[type=submit]").click()
        director_page.wait_for_selector(f"#players li.withdrawn[data-pid='{leaving['pid']}']")
        with ThreadPoolExecutor(len(two["tables"])) as pool:
            metas = list(
                pool.map(
                    lambda t: play(
                        api, t, random.Random(t["table"]), skip=(leaving["seat"],) if t is leaving_table else ()
                    ),
                    [disputed, leaving_table, *rest],
                )
            )
        assert all(m["status"] == "finished" for m in metas)
        assert metas[1]["seats"][leaving["seat"]].get("bot") == 1
        director_page.wait_for_selector(ROUND_FINISHED, timeout=30_000)

        # -- round 3: paired, played a little, then the server stops --------------------------
        three = pair_from_the_page(director_page, api, tid, director, 3)
        assert len(three["tables"]) == 5 and len(three["byes"]) == 1
        late, *under_way = three["tables"]  # the late table's first player has not moved when the server stops
        with ThreadPoolExecutor(len(under_way)) as pool:
            list(pool.map(lambda t: play(api, t, random.Random(t["table"]), moves=4), under_way))
        before = {
            t["game_id"]: api.ok("GET", f"/api/games/{t['game_id']}", seat0(t))["clocks"] for t in three["tables"]
        }
        assert before[late["game_id"]]["moved"] == []
        time.sleep(1)  # the sweepers beat once more
    stopped = time.monotonic()
    time.sleep(OUTAGE)  # longer than the late player's first-move allowance
    with served(port, data, logs):
        api = Api(server)
        down = time.monotonic() - stopped
        for t in three["tables"]:
            gid = t["game_id"]
            meta = api.ok("GET", f"/api/games/{gid}", seat0(t))
            assert meta["status"] == "active", meta
            credits = [e for e in events(api, gid, seat0(t)) if e["type"] == "clock.credited"]
            assert len(credits) == 1 and credits[0]["payload"]["seconds"] >= OUTAGE, credits
            for seat in range(2):  # the clock, or the first-move allowance of a seat yet to move
                kind = "remaining" if seat in before[gid]["moved"] else "opening"
                spent = before[gid][kind][seat] - meta["clocks"][kind][seat]
                if seat in meta["clocks"]["running"]:
                    spent += time.time() - meta["clocks"]["since"]
                assert spent < down / 2, (seat, kind, spent, down)  # nobody paid for the outage
        with ThreadPoolExecutor(len(three["tables"])) as pool:
            metas = list(pool.map(lambda t: play(api, t, random.Random(t["table"])), three["tables"]))
        assert all(m["status"] == "finished" and not m["result"].get("cancelled") for m in metas)

        # -- the end: standings, the bundle from the page, verified offline -------------------
        director_page.reload()
        director_page.wait_for_selector("#t-status.status-finished", timeout=30_000)
        director_page.wait_for_selector(f"#standings tbody tr >> nth={PLAYERS - 1}")
        assert director_page.locator("#standings tbody tr").count() == PLAYERS
        assert director_page.locator("#standings tbody tr.withdrawn").count() == 1
        standings = api.ok("GET", f"/api/tournaments/{tid}/standings", None)["standings"]
        for row in standings:  # the cancelled game counts as no game for either player
            assert row["games"] + row["byes"] == 3 - (row["name"] in absentees) - bool(row.get("withdrawn")), row
        assert director_page.evaluate("document.documentElement.scrollWidth") <= width
        with director_page.expect_download() as download:
            director_page.click("#t-export")
        bundle = tmp_path / "bundle.json"
        download.value.save_as(bundle)
        director_page.context.close()
    verified = subprocess.run(
        [sys.executable, "-m", "service", "verify-tournament", str(bundle)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    refused = [line for line in logs if '" 429 ' in line]
    assert not refused, refused[:5]
    assert not errors, errors
    print(f"\n{size}: the day took {time.monotonic() - started:.0f} s")
