"""Configuration from the environment, with defaults that serve a laptop."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any


def request_log_on(env: Mapping[str, str]) -> bool:
    """The app's JSON line per request, the one log line of a request as shipped
    (gunicorn's access log is off unless ``ACCESS_LOG`` names a file): ``REQUEST_LOG``
    (0/1) when set, else on unless ``ACCESS_LOG`` is set empty (the benchmark
    configuration turns both off with it)."""
    given = env.get("REQUEST_LOG")
    if given is not None:
        return given.strip().lower() not in ("", "0", "off", "false", "no")
    return env.get("ACCESS_LOG", "-") != ""


def from_env() -> dict[str, Any]:
    return {
        "REDIS_URL": os.environ.get("REDIS_URL"),
        "DATA_DIR": os.environ.get("DATA_DIR", "./data"),
        # what an acknowledged write survives (docs/DEPLOY.md, "Durability"); the app
        # refuses a Redis that does not keep it unless REDIS_DURABILITY_CHECK=off
        "APPENDFSYNC": os.environ.get("APPENDFSYNC", "always"),
        # the embedded Redis's disk: writes answer 503 storage_full below the reserve, a warning below warn
        "DISK_RESERVE_BYTES": int(os.environ.get("DISK_RESERVE_BYTES", 64 * 1024 * 1024)),
        "DISK_WARN_BYTES": int(os.environ.get("DISK_WARN_BYTES", 512 * 1024 * 1024)),
        "REDIS_DURABILITY_CHECK": os.environ.get("REDIS_DURABILITY_CHECK", "on") != "off",
        # replicas that must confirm each append (WAIT) before it is acknowledged; an
        # append they do not confirm within REDIS_REPLICA_WAIT_MS answers 503 (docs/DEPLOY.md)
        "REDIS_MIN_REPLICA_ACKS": int(os.environ.get("REDIS_MIN_REPLICA_ACKS", 0)),
        "REDIS_REPLICA_WAIT_MS": int(os.environ.get("REDIS_REPLICA_WAIT_MS", 250)),
        # archived finished games (docs/DEPLOY.md, "Archive"); unset: <DATA_DIR>/archive
        "ARCHIVE_DIR": os.environ.get("ARCHIVE_DIR"),
        # or an S3-compatible bucket (credentials: boto3's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, ...)
        "ARCHIVE_S3_BUCKET": os.environ.get("ARCHIVE_S3_BUCKET") or None,
        "ARCHIVE_S3_PREFIX": os.environ.get("ARCHIVE_S3_PREFIX", ""),
        "ARCHIVE_S3_ENDPOINT": os.environ.get("ARCHIVE_S3_ENDPOINT") or None,  # unset: AWS
        "ARCHIVE_S3_REGION": os.environ.get("ARCHIVE_S3_REGION") or None,
        "MAX_BODY_BYTES": int(os.environ.get("MAX_BODY_BYTES", 64 * 1024)),  # every route but /api/verify
        "SNAPSHOT_EVERY": int(os.environ.get("SNAPSHOT_EVERY", 100)),
        "SSE_SECONDS": float(os.environ.get("SSE_SECONDS", 25)),
        # a stream whose client takes nothing for this long is ended (direct writes only)
        "SSE_STALL_SECONDS": float(os.environ.get("SSE_STALL_SECONDS", 30)),
        # set by deploy/gunicorn_workers.py's gevent worker under plain HTTP (service/http/live.py)
        "LIVE_DIRECT_WRITES": os.environ.get("LIVE_DIRECT_WRITES") == "1",
        "SSE_MAX_STREAMS": int(os.environ.get("SSE_MAX_STREAMS", 16)),
        "SIGNING_KEY": os.environ.get("SIGNING_KEY"),  # PEM; else <DATA_DIR>/signing-key.pem
        "VERIFY_MAX_BYTES": int(os.environ.get("VERIFY_MAX_BYTES", 4 * 1024 * 1024)),
        "VERIFY_MAX_EVENTS": int(os.environ.get("VERIFY_MAX_EVENTS", 20000)),
        "VERIFY_SECONDS": float(os.environ.get("VERIFY_SECONDS", 10)),
        "SOCKET_IDLE_SECONDS": float(os.environ.get("SOCKET_IDLE_SECONDS", 300)),
        # one structured line per request; REQUEST_LOG=0/1 decides it alone, else ACCESS_LOG=
        # (set empty: the benchmark configuration) turns it off too
        "REQUEST_LOG": request_log_on(os.environ),
        "SSE_MAX_PER_CLIENT": int(os.environ.get("SSE_MAX_PER_CLIENT", 32)),
        "SSE_MAX_PER_GAME": int(os.environ.get("SSE_MAX_PER_GAME", 2000)),
        "CLOCK_SWEEP_SECONDS": float(os.environ.get("CLOCK_SWEEP_SECONDS", 1.0)),
        "API_TITLE": "Board-game server",
        "API_VERSION": "1.0",
        "OPENAPI_VERSION": "3.1.0",
        "OPENAPI_URL_PREFIX": "/api",
        "OPENAPI_JSON_PATH": "openapi.json",
        # /api/docs is served by service/http/docs.py from the installed flask-swagger-ui (Swagger UI 5)
        "RATE_LIMITS_ENABLED": os.environ.get("RATE_LIMITS", "on") != "off",
        "RATE_LIMIT_DEFAULT": os.environ.get("RATE_LIMIT_DEFAULT", "1200 per minute"),
        # the token-carrying requests of one address together (made-up tokens stop here)
        "RATE_LIMIT_ADDRESS": os.environ.get("RATE_LIMIT_ADDRESS", "6000 per minute"),
        "RATE_LIMIT_CREATE": os.environ.get("RATE_LIMIT_CREATE", "10 per minute;200 per day"),
        "RATE_LIMIT_ANNOTATE": os.environ.get("RATE_LIMIT_ANNOTATE", "20 per minute;500 per day"),
        "RATE_LIMIT_REGISTER": os.environ.get("RATE_LIMIT_REGISTER", "100 per 10 minutes;500 per day"),
        "RATE_LIMIT_LOGIN": os.environ.get("RATE_LIMIT_LOGIN", "100 per 10 minutes;300 per day"),
        "RATE_LIMIT_ACCOUNT": os.environ.get("RATE_LIMIT_ACCOUNT", "100 per 10 minutes;300 per day"),
        # failed logins per account name and address (empty: none)
        "RATE_LIMIT_LOGIN_FAILURES": os.environ.get("RATE_LIMIT_LOGIN_FAILURES", "10 per 15 minutes"),
        # failed logins per account name from every address it has not logged in from (empty: none)
        "RATE_LIMIT_LOGIN_FAILURES_NAME": os.environ.get(
            "RATE_LIMIT_LOGIN_FAILURES_NAME", "50 per 15 minutes;500 per day"
        ),
        "SESSION_DAYS": float(os.environ.get("SESSION_DAYS", 30)),
        # notices (docs/DEPLOY.md, "Notices"): the SMTP relay (no host: no e-mail), the
        # address links in e-mails and pushes point to, the VAPID subject, the digest window
        "SMTP_HOST": os.environ.get("SMTP_HOST", ""),
        "SMTP_PORT": int(os.environ.get("SMTP_PORT", 25)),
        "SMTP_FROM": os.environ.get("SMTP_FROM", "notices@localhost"),
        "SMTP_USER": os.environ.get("SMTP_USER") or None,
        "SMTP_PASSWORD": os.environ.get("SMTP_PASSWORD") or None,
        "SMTP_STARTTLS": os.environ.get("SMTP_STARTTLS", "off") == "on",
        "PUBLIC_URL": os.environ.get("PUBLIC_URL", "http://localhost:8000"),
        "VAPID_SUBJECT": os.environ.get("VAPID_SUBJECT", "mailto:notices@localhost"),
        "NOTICE_DIGEST_SECONDS": float(os.environ.get("NOTICE_DIGEST_SECONDS", 60)),
        "ARGON2_TIME_COST": int(os.environ.get("ARGON2_TIME_COST", 3)),
        "ARGON2_MEMORY_KIB": int(os.environ.get("ARGON2_MEMORY_KIB", 65536)),
        "ARGON2_PARALLELISM": int(os.environ.get("ARGON2_PARALLELISM", 4)),
        "MAX_INFLIGHT_PER_CLIENT": int(os.environ.get("MAX_INFLIGHT_PER_CLIENT", 16)),
        "TRUSTED_PROXIES": int(os.environ.get("TRUSTED_PROXIES", 0)),
        # a venue's networks (CIDRs, comma-separated): not limited per address (limits.py)
        "TRUSTED_VENUE_NETWORKS": os.environ.get("TRUSTED_VENUE_NETWORKS", ""),
        # per creator (address), over its unfinished games: computer seats and their
        # strengths' sum (0: no cap; docs/DEPLOY.md)
        "BOT_SEATS_PER_CREATOR": int(os.environ.get("BOT_SEATS_PER_CREATOR", 8)),
        "BOT_STRENGTH_PER_CREATOR": int(os.environ.get("BOT_STRENGTH_PER_CREATOR", 12)),
    }
