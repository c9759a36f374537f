"""Notices: telling a player, by e-mail and Web Push, that something waits for them.

``queued`` follows every append (``log.on_appended``) and files a notice for each account
concerned: its move is awaited, a game it plays has ended, an undo is asked of it, a
dispute it raised is settled. A notice names the game and what happened, never a move's
content (a hidden move stays hidden). Notices wait in Redis for the account's digest
window, so a busy game sends one message, not a flood; ``NoticeSender`` (the process
``python -m service notices``) sends the digests off the request path and retries a
failed one later. A "your move" whose game no longer awaits the account when its digest
leaves (the player moved within the window, the game ended) is dropped: it would be
wrong by then.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from events.shapes import JSON, Envelope
from events.store import EventStore, game_stream
from projections.fold import PlatformState, awaited
from service.ports import Mailer, Notes, NoticeQueue, NoticeSettings, Now, Pusher
from service.services.errors import Invalid, NotFound

log = logging.getLogger(__name__)

KINDS = ("your_move", "game_ended", "undo_asked", "dispute_settled", "invited", "rematch_asked")
DIGEST_SECONDS = 60.0  # notices within this window of the first leave together
RETRY_SECONDS = (30.0, 120.0, 600.0, 3600.0)  # waits after each failed try; then dropped
TEXTS = {
    "your_move": "It is your move in {game} game {game_id}.",
    "game_ended": "Your {game} game {game_id} has ended.",
    "undo_asked": "An undo is asked in {game} game {game_id}.",
    "dispute_settled": "The dispute you raised in {game} game {game_id} is settled.",
    "invited": "You are invited to {game} game {game_id}.",
    "rematch_asked": "A rematch of {game} game {game_id} is offered.",
}


Current = Callable[[str, JSON], bool]
"""Whether a notice still holds for its account when its digest leaves."""


def still_awaited(store: EventStore) -> Current:
    """A "your move" holds while the game (its lobby line) awaits one of the account's
    seats; every other kind always holds."""

    def current(account: str, notice: JSON) -> bool:
        if notice["kind"] != "your_move":
            return True
        [line] = store.summaries([game_stream(notice["game_id"])])
        if line is None:  # no lobby line (not yet written, archived): keep it
            return True
        summary = json.loads(line)
        seats = {int(s) for s, a in (summary.get("accounts") or {}).items() if a == account}
        return bool(summary["status"] == "active" and seats & set(summary["to_act"]))

    return current


def text_of(notice: JSON) -> str:
    return TEXTS[notice["kind"]].format(game=notice.get("game", ""), game_id=notice.get("game_id", ""))


class Notices:
    def __init__(
        self,
        queue: NoticeQueue,
        settings: NoticeSettings,
        notes: Notes,
        digest: float = DIGEST_SECONDS,
        now: Now = time.time,
    ):
        self._queue = queue
        self._settings = settings
        self._notes = notes
        self._digest = digest
        self._now = now

    def queued(
        self, game_id: str, before: PlatformState | None, envelopes: list[Envelope], after: PlatformState
    ) -> None:
        """After an append: file the notices it gives."""
        accounts: dict[str, str] = dict(after.get("accounts") or {})
        if not accounts:
            return
        found: list[tuple[str, str]] = []
        for envelope in envelopes:
            kind, payload = envelope["type"], envelope["payload"]
            if kind == "game.finished":
                found += [(a, "game_ended") for a in accounts.values()]
            elif kind == "game.undo_requested" and after["pending_undo"]:
                found += [
                    (accounts[str(s)], "undo_asked") for s in after["pending_undo"]["needed"] if str(s) in accounts
                ]
            if payload.get("dispute"):
                note = self._notes.get(game_id, payload["dispute"])
                seat = note and note.get("seat")
                if seat is not None and str(seat) in accounts:
                    found.append((accounts[str(seat)], "dispute_settled"))
        was = set(awaited(before)) if before is not None else set()
        # a seat newly awaited, or still awaited after another seat's move (not its own:
        # a player going on with a turn is at the table already)
        movers = {e["actor"].get("seat") for e in envelopes if e["type"].startswith(after["game"] + ".")}
        for seat in awaited(after):
            told = seat not in was or bool(movers - {seat})
            if told and seat not in movers and str(seat) in accounts and str(seat) not in after["bots"]:
                found.append((accounts[str(seat)], "your_move"))
        now = self._now()
        for account, kind in dict.fromkeys(found):
            self.notify(account, {"kind": kind, "game": after["game"], "game_id": game_id}, now)

    def notify(self, account: str, notice: JSON, now: float | None = None) -> bool:
        """File one notice for ``account`` if its settings want that kind and it has
        somewhere to receive it (also for invitations and rematches, from their services)."""
        wanted = self._settings.get(account)
        if notice["kind"] not in wanted.get("kinds", KINDS):
            return False
        if not (wanted.get("email") and wanted.get("email_on", True)) and not wanted.get("push_on", True):
            return False
        now = self._now() if now is None else now
        self._queue.add(account, {**notice, "at": now}, now + self._digest)
        return True

    def settings(self, account: str) -> JSON:
        s = self._settings.get(account)
        return {
            "email": s.get("email"),
            "email_on": s.get("email_on", True),
            "push_on": s.get("push_on", True),
            "kinds": list(s.get("kinds", KINDS)),
            "push_subscriptions": len(self._settings.subscriptions(account)),
        }

    def change(self, account: str, values: JSON) -> JSON:
        kinds = values.get("kinds")
        if kinds is not None and not set(kinds) <= set(KINDS):
            raise Invalid("bad_request", "unknown notice kinds", {"kinds": sorted(set(kinds) - set(KINDS))})
        current = self._settings.get(account)
        self._settings.put(account, {**current, **{k: v for k, v in values.items() if v is not None}})
        return self.settings(account)

    def subscribe(self, account: str, subscription: JSON) -> JSON:
        self._settings.subscribe(account, subscription)
        return self.settings(account)

    def unsubscribe(self, token: str) -> JSON:
        """An unsubscribe link: e-mail notices stop for the account the token names."""
        account = self._settings.account_of_unsubscribe(token)
        if account is None:
            raise NotFound("no_such_token", "this unsubscribe link is not known")
        self._settings.put(account, {**self._settings.get(account), "email_on": False})
        return {"account": account, "email_on": False}

    def stats(self) -> dict[str, int]:
        return {**self._queue.stats(), "waiting": self._queue.length()}


class NoticeSender:
    """Sends due digests: one e-mail and one push per account and digest."""

    def __init__(
        self,
        queue: NoticeQueue,
        settings: NoticeSettings,
        mailer: Mailer | None,
        pusher: Pusher | None,
        base_url: str,
        now: Now = time.time,
        current: Current | None = None,
    ) -> None:
        self._now = now
        self._current = current
        self._queue = queue
        self._settings = settings
        self._mailer = mailer
        self._pusher = pusher
        self._base_url = base_url.rstrip("/")

    def send_due(self, now: float | None = None, most: int = 100) -> int:
        """Send up to ``most`` due digests; the number sent."""
        now = self._now() if now is None else now
        sent = 0
        for _ in range(most):
            taken = self._queue.take(now)
            if taken is None:
                break
            account, tries, notices = taken
            if self._current is not None:
                held = [n for n in notices if self._current(account, n)]
                if len(held) < len(notices):
                    self._queue.count("stale", len(notices) - len(held))
                notices = held
            if not notices:
                self._queue.done(account)
                continue
            try:
                self._send(account, notices)
            except Exception as exc:  # noqa: BLE001  # any failure of the relay or push service: try again later
                log.warning("notices for %s not sent (try %d): %s", account, tries + 1, exc)
                if tries < len(RETRY_SECONDS):
                    self._queue.retry(account, notices, now + RETRY_SECONDS[tries])
                    self._queue.count("retried")
                else:
                    self._queue.done(account)
                    self._queue.count("dropped", len(notices))
                continue
            self._queue.done(account)
            self._queue.count("sent", len(notices))
            sent += 1
        return sent

    def _send(self, account: str, notices: list[JSON]) -> None:
        wanted = self._settings.get(account)
        lines = [text_of(n) for n in notices]
        links = [f"{self._base_url}/games/{n['game_id']}" for n in notices]
        if self._mailer and wanted.get("email") and wanted.get("email_on", True):
            token = self._settings.unsubscribe_token(account)
            unsubscribe = f"{self._base_url}/api/notices/unsubscribe/{token}"
            subject = lines[0] if len(lines) == 1 else f"{len(lines)} notices from your board games"
            body = "\n".join(f"- {line}\n  {link}" for line, link in zip(lines, links, strict=True))
            body += f"\n\nTo stop these e-mails: {unsubscribe}\n"
            headers = {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
            self._mailer.send(wanted["email"], subject, body, headers)
        if self._pusher and wanted.get("push_on", True):
            message: dict[str, Any] = {
                "title": lines[0] if len(lines) == 1 else f"{len(lines)} notices",
                "body": "\n".join(lines[:5]),
                "url": links[-1],
            }
            for subscription in self._settings.subscriptions(account):
                if not self._pusher.push(subscription, message):
                    self._settings.unsubscribe_push(account, subscription["endpoint"])

    def run_forever(self, every: float = 1.0) -> None:
        while True:
            try:
                self.send_due()
            except Exception:  # noqa: BLE001  # Redis away for a moment: the next round tries again
                log.exception("notice round failed")
            time.sleep(every)
