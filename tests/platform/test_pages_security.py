"""Every page carries a Content-Security-Policy that forbids framing and foreign
scripts; /api/docs works from this server alone; tournament pages take their tokens
out of the address bar (as game pages do)."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest

from service.http.security_headers import CSP

PAGES = [
    "/",
    "/games/abc",
    "/games/abc/replay",
    "/games/abc/referee",
    "/verify",
    "/tournaments",
    "/tournaments/abc",
    "/api/docs",
    "/api/openapi.json",
    "/api/game-types",
]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_the_policy(client, path):
    r = client.get(path)
    assert r.status_code == 200
    policy = r.headers["Content-Security-Policy"]
    assert policy == CSP
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert r.headers["X-Frame-Options"] == "DENY"


def test_api_docs_load_nothing_from_elsewhere(client):
    html = client.get("/api/docs").get_data(as_text=True)
    refs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert refs and all(urlparse(u).netloc == "" for u in refs), refs
    for ref in refs:
        assert client.get(ref).status_code == 200, ref
    assert "cdn" not in html.lower()


@pytest.fixture()
def page(browser):
    context = browser.new_context()
    context.set_default_timeout(15_000)
    p = context.new_page()
    p.problems = []
    p.on("pageerror", lambda exc: p.problems.append(str(exc)))
    p.on("console", lambda m: p.problems.append(m.text) if m.type == "error" else None)
    p.foreign = []
    p.on(
        "request",
        lambda req: (
            p.foreign.append(req.url)
            if urlparse(req.url).hostname not in ("127.0.0.1", None) and not req.url.startswith("data:")
            else None
        ),
    )
    yield p
    context.close()


def test_swagger_ui_renders_under_the_policy(server, page):
    page.goto(f"{server}/api/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Board-game server" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-tag")
    assert page.foreign == []
    assert not [p for p in page.problems if "Content Security Policy" in p], page.problems


def test_tournament_tokens_leave_the_address_bar(server, page):
    import requests

    made = requests.post(
        f"{server}/api/tournaments", json={"game": "toy", "name": "T", "options": {"table_size": 2, "rounds": 1}}
    ).json()
    page.goto(f"{server}/tournaments/{made['id']}#director={made['director_token']}")
    page.wait_for_selector("#director-panel:not([hidden])")
    assert "#" not in page.url and made["director_token"] not in page.url
    page.reload()  # the token was kept for this tab, not in the URL
    page.wait_for_selector("#director-panel:not([hidden])")
    page.wait_for_selector("#t-status:not(:empty)")  # read: before, the toggle does not know it is open
    page.click("#toggle-registration")
    page.wait_for_selector("#registration-closed:not([hidden])")  # the page says so instead of dropping the panel
    assert requests.get(f"{server}/api/tournaments/{made['id']}").json()["registration"] == "closed"
