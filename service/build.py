"""What is running: the server's version and the revision it was built from, for
``/healthz``, the ``build_info`` metric and the start-up log line."""

from __future__ import annotations

import functools
import os
import subprocess

VERSION = "1.0.0"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@functools.cache
def revision() -> str:
    """``BUILD_REVISION`` (the image build sets it: an image has no .git), else the
    checkout's commit, else ``unknown``."""
    given = os.environ.get("BUILD_REVISION")
    if given:
        return given
    try:
        done = subprocess.run(
            ["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"
