"""``python -m service archive [--finished-days 7] [--abandoned-days 30]``: one archiving
pass over the server's Redis (``REDIS_URL``, else the embedded server's socket in
``DATA_DIR``) into the archive store: ``ARCHIVE_S3_BUCKET`` when set, else ``ARCHIVE_DIR``
(docs/DEPLOY.md, "Archive"). Run it from cron or a
systemd timer; it prints what it moved as JSON, or exits 75 (EX_TEMPFAIL) when another
pass holds the lock, or 74 (EX_IOERR) when the store cannot be written (a full disk),
with one line on stderr."""

from __future__ import annotations

import json
import os
import sys
import time

EX_IOERR = 74  # sysexits.h: the archive store could not be written (a full disk, a bucket down)
EX_TEMPFAIL = 75  # sysexits.h: another pass is running, try again later (cron tells it from "nothing to do")


def main(finished_after: float, abandoned_after: float) -> int:
    from service.adapters.archive import Archiver
    from service.adapters.archive_listing import LOCK, LOCK_SECONDS, PassRunning
    from service.adapters.connection import SOCKET_NAME, UNAVAILABLE, connect
    from service.app import archive_store
    from service.config import from_env

    config = from_env()
    url = config["REDIS_URL"] or "unix://" + os.path.join(os.path.abspath(config["DATA_DIR"]), SOCKET_NAME)
    archiver = Archiver(connect(url), archive_store(config))
    store_failed: tuple[type[Exception], ...] = (OSError,)  # a full or read-only disk
    if config.get("ARCHIVE_S3_BUCKET"):
        from botocore.exceptions import BotoCoreError, ClientError

        store_failed += (BotoCoreError, ClientError)
    try:
        done = archiver.sweep(finished_after, abandoned_after, time.time())
    except UNAVAILABLE as exc:
        print(f"the server's Redis does not answer at {url}: {exc}", file=sys.stderr)
        return 2
    except PassRunning as exc:
        print(f"{exc} ({LOCK}; a pass that died frees it within {LOCK_SECONDS} s): try later", file=sys.stderr)
        return EX_TEMPFAIL
    except store_failed as exc:
        print(f"the archive store failed: {exc}; the games not archived stay in Redis", file=sys.stderr)
        return EX_IOERR
    print(json.dumps(done, indent=2))
    return 0
