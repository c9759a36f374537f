"""Where notices leave the server: an SMTP relay (smtplib) and Web Push (pywebpush,
signed with the server's VAPID key)."""

from __future__ import annotations

import json
import smtplib
from email.message import EmailMessage

from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from events.shapes import JSON


class SmtpMailer:
    def __init__(
        self, host: str, port: int, sender: str, user: str | None = None, password: str | None = None, tls: bool = False
    ) -> None:
        self._host, self._port, self._sender = host, port, sender
        self._user, self._password, self._tls = user, password, tls

    def send(self, to: str, subject: str, body: str, headers: dict[str, str]) -> None:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self._sender, to, subject
        for name, value in headers.items():
            message[name] = value
        message.set_content(body)
        with smtplib.SMTP(self._host, self._port, timeout=20) as smtp:
            if self._tls:
                smtp.starttls()
            if self._user:
                smtp.login(self._user, self._password or "")
            smtp.send_message(message)


class WebPusher:
    def __init__(self, key: Vapid02, subject: str) -> None:
        self._key = key
        self._subject = subject  # a mailto: or https: address the push service may reach

    def push(self, subscription: JSON, message: JSON) -> bool:
        try:
            webpush(
                subscription,
                json.dumps(message),
                vapid_private_key=self._key,
                vapid_claims={"sub": self._subject},
                timeout=20,
                ttl=86400,
            )
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (404, 410):  # the browser dropped the subscription
                return False
            raise
        return True
