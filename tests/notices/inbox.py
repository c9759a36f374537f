"""An in-process SMTP server (aiosmtpd) on a free loopback port that keeps what it receives."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from aiosmtpd.controller import Controller


class Inbox:
    def __init__(self) -> None:
        self.messages: list[email.message.Message] = []
        self.port = 0

    async def handle_DATA(self, server, session, envelope):  # noqa: N802  # aiosmtpd's name
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"

    def to(self, address: str) -> list[email.message.Message]:
        return [m for m in self.messages if m["To"] == address]


@contextmanager
def serving() -> Iterator[Inbox]:
    box = Inbox()
    with socket.socket() as probe:  # a free port: the controller checks it by connecting
        probe.bind(("127.0.0.1", 0))
        box.port = probe.getsockname()[1]
    controller = Controller(box, hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()
