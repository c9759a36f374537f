"""The tournament pages' live server: the app on a Redis of the run, served by Werkzeug
in a thread, one per test module."""

from __future__ import annotations

import threading

import pytest


@pytest.fixture(scope="module")
def server(redis_url):
    from werkzeug.serving import make_server

    from service.app import create_app

    app = create_app({"REDIS_URL": redis_url, "CLOCK_SWEEP_SECONDS": 0})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
