"""``python -m service notices``: the notice sender. It sends each account's due digest
by e-mail (the SMTP relay of ``SMTP_HOST``; none set: no e-mail) and Web Push (signed
with ``<DATA_DIR>/vapid-key.pem``), off the request path, retrying a failed send."""

from __future__ import annotations

import signal
import sys
from typing import Any

from service.adapters.delivery import SmtpMailer, WebPusher
from service.services.notices import NoticeSender
from service.vapid import load_vapid


def sender_of(app: Any) -> NoticeSender:
    from service import wiring

    cfg = app.config
    mailer = (
        SmtpMailer(
            cfg["SMTP_HOST"],
            cfg["SMTP_PORT"],
            cfg["SMTP_FROM"],
            cfg["SMTP_USER"],
            cfg["SMTP_PASSWORD"],
            cfg["SMTP_STARTTLS"],
        )
        if cfg["SMTP_HOST"]
        else None
    )
    pusher = WebPusher(load_vapid(cfg["DATA_DIR"]), cfg["VAPID_SUBJECT"])
    return wiring.of(app).notice_sender(mailer, pusher, cfg["PUBLIC_URL"])


def main() -> None:
    from service.app import create_app
    from service.supervision import die_with_parent

    die_with_parent()
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    sender_of(create_app({"CLOCK_SWEEP_SECONDS": 0})).run_forever()
