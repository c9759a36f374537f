"""Configuration from the environment, with defaults that serve a laptop."""

from __future__ import annotations

import os


def from_env() -> dict:
    return {
        "REDIS_URL": os.environ.get("REDIS_URL"),
        "DATA_DIR": os.environ.get("DATA_DIR", "./data"),
        "MAX_BODY_BYTES": int(os.environ.get("MAX_BODY_BYTES", 64 * 1024)),  # every route but /api/verify
        "SNAPSHOT_EVERY": int(os.environ.get("SNAPSHOT_EVERY", 100)),
        "SSE_SECONDS": float(os.environ.get("SSE_SECONDS", 25)),
        "SSE_MAX_STREAMS": int(os.environ.get("SSE_MAX_STREAMS", 16)),
        "SIGNING_KEY": os.environ.get("SIGNING_KEY"),  # PEM; else <DATA_DIR>/signing-key.pem
        "VERIFY_MAX_BYTES": int(os.environ.get("VERIFY_MAX_BYTES", 4 * 1024 * 1024)),
        "VERIFY_MAX_EVENTS": int(os.environ.get("VERIFY_MAX_EVENTS", 20000)),
        "VERIFY_SECONDS": float(os.environ.get("VERIFY_SECONDS", 10)),
        "SOCKET_IDLE_SECONDS": float(os.environ.get("SOCKET_IDLE_SECONDS", 300)),
        # one structured line per request, like gunicorn's access log: ACCESS_LOG= turns both off
        "REQUEST_LOG": os.environ.get("ACCESS_LOG", "-") != "",
        "SSE_MAX_PER_CLIENT": int(os.environ.get("SSE_MAX_PER_CLIENT", 32)),
        "SSE_MAX_PER_GAME": int(os.environ.get("SSE_MAX_PER_GAME", 2000)),
        "CLOCK_SWEEP_SECONDS": float(os.environ.get("CLOCK_SWEEP_SECONDS", 1.0)),
        "API_TITLE": "Board-game server",
        "API_VERSION": "1.0",
        "OPENAPI_VERSION": "3.0.3",
        "OPENAPI_URL_PREFIX": "/api",
        "OPENAPI_JSON_PATH": "openapi.json",
        # /api/docs is served by service/http/docs.py from the installed swagger-ui-bundle
        "RATE_LIMITS_ENABLED": os.environ.get("RATE_LIMITS", "on") != "off",
        "RATE_LIMIT_DEFAULT": os.environ.get("RATE_LIMIT_DEFAULT", "600 per minute"),
        "RATE_LIMIT_CREATE": os.environ.get("RATE_LIMIT_CREATE", "10 per minute;200 per day"),
        "RATE_LIMIT_ANNOTATE": os.environ.get("RATE_LIMIT_ANNOTATE", "20 per minute;500 per day"),
        "RATE_LIMIT_REGISTER": os.environ.get("RATE_LIMIT_REGISTER", "10 per minute;100 per day"),
        "RATE_LIMIT_LOGIN": os.environ.get("RATE_LIMIT_LOGIN", "5 per minute;50 per day"),
        "RATE_LIMIT_ACCOUNT": os.environ.get("RATE_LIMIT_ACCOUNT", "5 per minute;20 per day"),
        # failed logins per account name, from every address together (empty: none)
        "RATE_LIMIT_LOGIN_FAILURES": os.environ.get("RATE_LIMIT_LOGIN_FAILURES", "10 per 15 minutes"),
        "SESSION_DAYS": float(os.environ.get("SESSION_DAYS", 30)),
        "ARGON2_TIME_COST": int(os.environ.get("ARGON2_TIME_COST", 3)),
        "ARGON2_MEMORY_KIB": int(os.environ.get("ARGON2_MEMORY_KIB", 65536)),
        "ARGON2_PARALLELISM": int(os.environ.get("ARGON2_PARALLELISM", 4)),
        "MAX_INFLIGHT_PER_CLIENT": int(os.environ.get("MAX_INFLIGHT_PER_CLIENT", 16)),
        "TRUSTED_PROXIES": int(os.environ.get("TRUSTED_PROXIES", 0)),
    }
