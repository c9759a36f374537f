"""What the application itself costs per action, without a server in front of it.

Why: bench/append.py measures our endpoint beside a bare Flask + ``XADD`` endpoint under
gunicorn, where gunicorn's parsing and writing, gevent and the load generator share the
cores with both. Here each WSGI app is called directly in this process (gevent-patched,
as the workers run), one request after another on prepared environs, so the CPU time per
request is the app's alone: Flask and Werkzeug, our hooks, the schema, ``Games.act``,
the receipt and the Redis client, against the bare endpoint's Flask and one ``XADD``.
Figures, not tests.

    .venv/bin/python bench/wsgi_cost.py [--requests 4000] [--profile]

``--profile`` prints cProfile's top functions for our app, timed in CPU (its per-call
overhead inflates functions called often; py-spy, in bench/profile_actions.py, does not).
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402  (after the patch, as in deploy/gunicorn.conf.py)
import cProfile  # noqa: E402
import importlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import pstats  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from service.adapters.connection import start_embedded  # noqa: E402

MOVES = 20  # per game, alternating seats, as in bench/append.py


def environ(path: str, body: dict, token: str | None = None) -> dict:
    """A POST as gunicorn hands it to the app (keep-alive client, JSON body with its length)."""
    data = json.dumps(body).encode()
    env = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_ACCEPT": "*/*",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(data)),
        "wsgi.input": io.BytesIO(data),
        "wsgi.input_terminated": True,
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if token:
        env["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return env


def cpu_per_request(app, environs: list[dict]) -> float:
    """Microseconds of this process's CPU per request; every answer must be a 2xx."""
    status = []

    def start_response(line, headers, exc_info=None):
        status.append(line)

    start = time.process_time()
    for env in environs:
        for _ in app(env, start_response):
            pass
        assert status.pop().startswith("2")
    return (time.process_time() - start) / len(environs) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="bench-wsgi-")
    server, url = start_embedded(scratch, appendfsync="everysec")
    os.environ.update(
        {
            "REDIS_URL": url,
            "DATA_DIR": scratch,
            "APPENDFSYNC": "everysec",  # the promise the app checks its Redis against
            "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="bench-wsgi-metrics-"),
            "RATE_LIMITS": "off",
            "BOTS": "0",
            "CLOCK_SWEEP_SECONDS": "0",
            "ACCESS_LOG": "",  # the benchmark configuration: no access log line per request
        }
    )
    try:
        ours = importlib.import_module("bench.toy_app").app
        bare = importlib.import_module("bench.bare_app").app
        client = ours.test_client()
        ours_envs, bare_envs = [], []
        for _ in range(args.requests // MOVES + 1):
            game = client.post(
                "/api/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 50}}
            ).get_json()
            tokens = [s["token"] for s in game["seats"]]
            for m in range(MOVES):
                ours_envs.append(environ(f"/api/games/{game['id']}/actions", {"type": "roll"}, tokens[m % 2]))
                bare_envs.append(environ(f"/append/{game['id']}", {"type": "roll", "payload": {}, "seat": m % 2}))
        n = args.requests
        print(f"{n} POSTs of a toy move, each app called in this process (no server), CPU per request")
        print(f"  bare Flask + one XADD           {cpu_per_request(bare, bare_envs[:n]):6.1f} µs")
        if args.profile:
            profile = cProfile.Profile(time.process_time)
            profile.enable()
            cost = cpu_per_request(ours, ours_envs[:n])
            profile.disable()
            print(f"  POST /api/games/{{id}}/actions   {cost:6.1f} µs (under cProfile)")
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        else:
            print(f"  POST /api/games/{{id}}/actions   {cpu_per_request(ours, ours_envs[:n]):6.1f} µs")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
