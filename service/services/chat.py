"""Table chat: messages beside a game's log, never in its fold or hash chain.

Who reads and writes: the seats and the referee; spectators (logged-in accounts, to
write) only when the referee opens the chat to them. A tournament game's chat is closed
to the seats until its referee (the director) opens it. Writers are rate-limited; a
reader may mute a seat; the referee may hide a message, which is kept and marked (the
referee still reads it, everyone else reads that it was hidden). The export carries the
chat as its caller may read it, in an audit line, so a dispute can cite it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from events.shapes import JSON
from service.ports import ChatStore, GameLog, Now
from service.services import callers
from service.services.accounts import Accounts
from service.services.errors import Forbidden, Invalid, NotFound, RateLimited, Unauthenticated
from service.services.games import Games

MAX_TEXT = 500
RATE = (5, 10)  # at most 5 messages per 10 seconds per writer
PAGE = 500
_MESSAGE_ID = re.compile(r"\d{1,20}-\d{1,20}")


@dataclass(frozen=True)
class Speaker:
    """Who is at the chat: a seat, the referee, or a spectator (named when logged in)."""

    role: str  # "seat" | "referee" | "spectator"
    seat: int | None = None
    name: str | None = None

    @property
    def key(self) -> str:
        return (
            f"seat:{self.seat}" if self.role == "seat" else self.role if self.name is None else f"account:{self.name}"
        )


class Chat:
    def __init__(self, games: Games, log: GameLog, store: ChatStore, accounts: Accounts, now: Now = time.time) -> None:
        self._now = now
        self._games = games
        self._log = log
        self._store = store
        self._accounts = accounts

    def speaker(self, game_id: str, token: str | None) -> Speaker:
        """The seat or referee the token speaks for; else a spectator, named by its
        account's session if it sent one."""
        try:
            caller = self._games.caller(game_id, token)
        except Unauthenticated:
            if not token:
                raise
            return Speaker("spectator", name=self._accounts.session(token))  # 401 for a token of nobody
        if caller.referee:
            return Speaker("referee", name="referee")
        if caller.seat is not None and not caller.bot:
            p = self._log.state(game_id)
            callers.require_current(p, caller)
            return Speaker("seat", caller.seat, p["seats"][caller.seat])
        return Speaker("spectator")

    # -- settings ------------------------------------------------------------------------
    def settings(self, game_id: str, kept: dict[str, str] | None = None) -> JSON:
        """Who may chat; ``kept``: the stored settings when the caller read them already."""
        kept = self._store.settings(game_id) if kept is None else kept
        tournament = self._log.state(game_id)["tournament"] is not None
        return {"seats": kept.get("seats", "0" if tournament else "1") == "1", "spectators": _spectators(kept)}

    def configure(self, game_id: str, who: Speaker, seats: bool | None, spectators: bool | None) -> JSON:
        _require_someone(who)
        if who.role != "referee":
            raise Forbidden("referee_only", "only this game's referee token may do this")
        changed = {k: "1" if v else "0" for k, v in (("seats", seats), ("spectators", spectators)) if v is not None}
        if changed:
            self._store.keep_settings(game_id, changed)
            self._store.bump(game_id)
        return self.settings(game_id)

    def mark(self, game_id: str) -> str:
        """What a spectator may know of the chat's state: closed to spectators, or open and
        how many changes it has seen. Live streams send it when it changes, so a
        spectator's page reads the chat only then; the seats' chatter at a chat closed to
        spectators changes nothing they are sent."""
        return _mark(self._store.settings(game_id))

    def _require_open(self, game_id: str, who: Speaker, kept: dict[str, str] | None = None) -> JSON:
        settings = self.settings(game_id, kept)
        if who.role == "seat" and not settings["seats"]:
            raise Forbidden("chat_closed", "this game's chat is closed to the seats")
        if who.role == "spectator" and not settings["spectators"]:
            raise Forbidden("chat_closed", "this game's chat is closed to spectators")
        return settings

    # -- reading and writing -------------------------------------------------------------
    def read(self, game_id: str, who: Speaker, after: str | None = None) -> JSON:
        kept = self._store.settings(game_id)  # one read for the settings and the mark
        settings = self._require_open(game_id, who, kept)
        muted = self._store.muted(game_id, who.key) if who.role != "referee" else []
        messages = [m for m in self._shown(game_id, who, after) if m.get("seat") not in muted]
        return {"settings": settings, "muted": muted, "messages": messages, "mark": _mark(kept)}

    def _shown(self, game_id: str, who: Speaker, after: str | None = None) -> list[JSON]:
        hidden = self._store.hidden(game_id)
        out = []
        for message_id, message in self._store.read(game_id, after, PAGE):
            shown = {"id": message_id, **message}
            if message_id in hidden:
                shown["hidden"] = hidden[message_id]
                if who.role != "referee":
                    del shown["text"]
            out.append(shown)
        return out

    def say(self, game_id: str, who: Speaker, text: str) -> JSON:
        _require_someone(who)
        self._require_open(game_id, who)
        text = text.strip()
        if not 1 <= len(text) <= MAX_TEXT:
            raise Invalid("bad_text", f"a chat message has 1 to {MAX_TEXT} characters", {"max": MAX_TEXT})
        wait = self._store.spend(game_id, who.key, *RATE)
        if wait:
            raise RateLimited("chat_rate", "too many chat messages; wait a moment", retry_after=wait)
        message: JSON = {"role": who.role, "name": who.name, "text": text, "ts": self._now()}
        if who.seat is not None:
            message["seat"] = who.seat
        message_id = self._store.add(game_id, message)
        self._store.bump(game_id)
        return {"id": message_id, **message}

    def mute(self, game_id: str, who: Speaker, seat: int, muted: bool) -> JSON:
        _require_someone(who)
        self._require_open(game_id, who)
        if not 0 <= seat < len(self._log.state(game_id)["seats"]):
            raise Invalid("bad_seat", f"no seat {seat}")
        return {"muted": self._store.mute(game_id, who.key, seat, muted)}

    def hide(self, game_id: str, who: Speaker, message_id: str, reason: str) -> JSON:
        _require_someone(who)
        if who.role != "referee":
            raise Forbidden("referee_only", "only this game's referee token may do this")
        if not _MESSAGE_ID.fullmatch(message_id) or not self._store.has(game_id, message_id):
            raise NotFound("unknown_message", "no such chat message")
        self._store.hide(game_id, message_id, {"by": "referee", "reason": reason, "ts": self._now()})
        self._store.bump(game_id)
        return next(m for m in self._shown(game_id, who) if m["id"] == message_id)

    def audit(self, game_id: str, who: Speaker) -> list[JSON] | None:
        """The chat as this caller may read it (mutes aside), for the export; None when
        it may not read the chat or nothing was said."""
        try:
            self._require_open(game_id, who)
        except Forbidden:
            return None
        return self._shown(game_id, who) or None


def _spectators(kept: dict[str, str]) -> bool:
    return kept.get("spectators", "0") == "1"


def _mark(kept: dict[str, str]) -> str:
    return f"open:{kept.get('version', '0')}" if _spectators(kept) else "closed"


def _require_someone(who: Speaker) -> None:
    """Only a reader may be nobody: every write names its writer."""
    if who.role == "spectator" and who.name is None:
        raise Unauthenticated("no_session", "a seat's or the referee's token, or an account's session, is needed")
