"""Configuration from the environment, with defaults that serve a laptop."""
from __future__ import annotations

import os


def from_env() -> dict:
    return {
        "REDIS_URL": os.environ.get("REDIS_URL"),
        "DATA_DIR": os.environ.get("DATA_DIR", "./data"),
        "MAX_BODY_BYTES": int(os.environ.get("MAX_BODY_BYTES", 64 * 1024)),
        "MAX_CONTENT_LENGTH": int(os.environ.get("MAX_EXPORT_BYTES", 32 * 1024 * 1024)),
        "SNAPSHOT_EVERY": int(os.environ.get("SNAPSHOT_EVERY", 100)),
        "SSE_SECONDS": float(os.environ.get("SSE_SECONDS", 25)),
        "SSE_MAX_STREAMS": int(os.environ.get("SSE_MAX_STREAMS", 16)),
        "SSE_MAX_PER_CLIENT": int(os.environ.get("SSE_MAX_PER_CLIENT", 32)),
        "SSE_MAX_PER_GAME": int(os.environ.get("SSE_MAX_PER_GAME", 2000)),
        "CLOCK_SWEEP_SECONDS": float(os.environ.get("CLOCK_SWEEP_SECONDS", 1.0)),
        "API_TITLE": "Board-game server",
        "API_VERSION": "1.0",
        "OPENAPI_VERSION": "3.0.3",
        "OPENAPI_URL_PREFIX": "/api",
        "OPENAPI_JSON_PATH": "openapi.json",
        "OPENAPI_SWAGGER_UI_PATH": "docs",
        "OPENAPI_SWAGGER_UI_URL": os.environ.get("SWAGGER_UI_URL", "https://cdn.jsdelivr.net/npm/swagger-ui-dist/"),
    }
