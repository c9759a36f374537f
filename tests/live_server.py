"""A live server for tests that need real HTTP (a browser, a generated client, a fuzzer):
the app served by Werkzeug in a daemon thread on a free loopback port."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def served(app, name: str = "live-server") -> Iterator[str]:
    """Yields the base URL of ``app`` served until the block ends. Threaded, so a page's
    live stream and its other requests are answered side by side."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, name=name, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


@contextmanager
def app_served(redis_url: str, **config) -> Iterator[str]:
    """The app built by ``create_app`` over ``redis_url`` (no clock sweep unless ``config``
    says otherwise), served as ``served`` does."""
    from service.app import create_app

    with served(create_app({"REDIS_URL": redis_url, "CLOCK_SWEEP_SECONDS": 0, **config})) as url:
        yield url
