"""Live streams at the cost of one Redis read per game, however many watch.

Each worker keeps one ``Tail`` per watched game: a thread (a greenlet under gevent)
that blocks on XREAD for that game's stream, folds what it read onto the worker's
cached state (``GameLog.followed``: no second read when the entries chain onto it, so
one XREAD per batch per worker is the whole cost in Redis), renders each new entry once
as the spectator's SSE frame, keeps the last frames in a ring and wakes every watcher. A
watcher that is behind the ring (a reconnect with an old Last-Event-ID) gets its gap
from ``Tail.history``, read and rendered once per worker and kept at the ring's start,
then follows the ring. The tail stops when its last watcher leaves.

A frame carries what a page draws, so no page reads anything per entry: the redacted
entry, ``to_act``, status and head, and on the last entry of a batch what changed in the
game's meta and in the spectator's position (view document) since the previous batch,
as patches (service/http/json_patch.py) computed once per batch per worker, whatever the
number of spectators: a frame's size does not grow with the game. A page holding
something else (it loaded between two batches) reads the game again; a stream that
catches up from the log sends both whole. Seats and the referee follow over their
socket (service/http/sockets.py): ``Tail.position_for`` computes a viewer's position and
its patch once per (viewer, seq) per worker and every socket of that viewer gets them.

Under gunicorn's gevent worker a stream at the tail's head is written by the tail
itself (``Tail.attach``): each batch is framed as one HTTP chunk once, then sent to every
such stream without blocking, as a bare server would, instead of waking a watcher per
stream (half a worker's CPU per move at a thousand viewers went to those wake-ups and
the server's per-write framing). A client that cannot take a whole chunk at once, or is
gone, is let go: its own watcher sends the rest and follows the ring, as every stream
does on other servers, and comes back to the tail when it is caught up. A client that
takes nothing for ``SSE_STALL_SECONDS`` is reset and its stream ended, so a phone asleep
with the page open does not hold a slot (and the kernel's copy of its backlog) for ever.

``StreamSlots`` caps streams per worker, per client and per game, so one client
cannot take every slot from everyone else.
"""

from __future__ import annotations

import json
import logging
import math
import random
import socket
import struct
import threading
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from typing import Any, NamedTuple, Protocol, cast

from events.shapes import JSON, Envelope
from projections.fold import PlatformState, awaited
from projections.views import redacted_envelope
from service.adapters.connection import UNAVAILABLE
from service.http import json_patch
from service.metrics import LIVE_RELEASED, LIVE_STALLED, LIVE_STREAMS, LIVE_TAILS, POSITIONS_COMPUTED
from service.ports import GameLog
from service.services.callers import SPECTATOR, Caller
from service.services.errors import RateLimited, Unavailable
from service.services.games import Games

log = logging.getLogger(__name__)
BLOCK_MS = 2000
RING = 512  # frames a tail keeps beyond KEPT before it trims back to KEPT
KEPT = 4096  # frames a tail keeps: about a whole game, so reconnecting from far back costs no read
CATCH_UP_PAGE = 500  # frames a watcher behind sends at a time
RETRY_MS = 1000  # a browser's wait before it reopens a stream that broke
RESUME_MS = 100  # ... and one the server ended on schedule


Frame = tuple[int, bytes, Envelope]
"""(seq, the spectator's SSE text encoded once for every stream, the entry as logged):
viewer sockets redact the entry again for their viewer."""


class Patch(NamedTuple):
    """What turns a document held at seq ``since`` into the one at ``seq``."""

    since: int
    seq: int
    ops: list[json_patch.Op]

    def sent(self) -> JSON:
        return {"from": self.since, "to": self.seq, "ops": self.ops}


class Shown(NamedTuple):
    """The latest state a tail published, its meta, and the meta's patch from the
    previous one (None: none published before, or not consecutive)."""

    state: PlatformState
    meta: JSON
    patch: Patch | None


class Drawn(NamedTuple):
    """A viewer's position at ``seq`` and its patch from the viewer's previous one."""

    seq: int
    position: JSON
    patch: Patch | None


def patch_of(old: JSON, new: JSON, since: int, seq: int) -> Patch | None:
    ops = json_patch.smaller(old, new)
    return None if ops is None else Patch(since, seq, ops)


def position_patch(old: JSON, new: JSON, since: int) -> Patch | None:
    """The patch between two positions of one viewer. The legal actions go whole when
    they change: a page may hold them from a read of its own, not the position's."""
    ops = json_patch.smaller(
        {k: v for k, v in old.items() if k != "actions"}, {k: v for k, v in new.items() if k != "actions"}
    )
    if ops is None:
        return None
    if "actions" in new and not json_patch.same(old.get("actions"), new["actions"]):
        ops.append({"op": "add", "path": "/actions", "value": new["actions"]})
    return Patch(since, new["at"], ops)


def render(
    games: Games, game_id: str, p: PlatformState, envelopes: list[Envelope], shown: JSON | None = None
) -> list[Frame]:
    """SSE frames as a spectator sees them, with the game's state after them; the last
    one also carries the meta and the spectator's position after the batch: ``shown``
    (the tail's, or their patches), else both whole."""
    to_act = awaited(p)
    frames = []
    for i, envelope in enumerate(envelopes):
        data = {
            **redacted_envelope(p["game"], envelope, SPECTATOR.viewer(games.disclosed(p))),
            "to_act": to_act,
            "status": p["status"],
            "head": p["head"],
            "latest": p["seq"],
        }
        if i == len(envelopes) - 1 and envelope["seq"] == p["seq"]:
            if shown is None:
                shown = {"meta": games.meta(game_id, p), "position": games.position(p, SPECTATOR)}
                POSITIONS_COMPUTED.inc()
            data.update(shown)
        text = f"id: {envelope['seq']}\nevent: appended\ndata: {json.dumps(data)}\n\n"
        frames.append((envelope["seq"], text.encode(), envelope))
    return frames


KEEP_ALIVE = b": keep-alive\n\n"
SEND_BUFFER = 64 * 1024  # a direct stream's socket send buffer (the kernel doubles it)


def chunked(data: bytes) -> bytes:
    """``data`` as one chunk of HTTP/1.1 chunked encoding, as the server frames a body."""
    return b"%X\r\n%s\r\n" % (len(data), data)


KEEP_ALIVE_CHUNK = chunked(KEEP_ALIVE)


class DirectSocket(Protocol):
    """A gevent socket: ``send`` with a timeout of 0 never waits; else it waits up to the
    socket's timeout for room, then sends what fits."""

    def send(self, data: bytes | memoryview, flags: int = 0, timeout: float = ...) -> int: ...

    def settimeout(self, value: float | None) -> None: ...

    def gettimeout(self) -> float | None: ...

    def shutdown(self, how: int) -> None: ...

    def setsockopt(self, level: int, option: int, value: int | bytes) -> None: ...


def guarded_socket(environ: Mapping[str, Any], stall: float, closing: ExitStack) -> DirectSocket | None:
    """The client's socket under gunicorn's gevent worker, made to give up a write that
    waits ``stall`` seconds for room while the stream lasts (a client that never reads
    again must not hold its slot for ever); ``closing`` gives it back its own timeout, so
    a later request on the kept-alive connection (a slow upload, a slow download) is not
    held to the stream's."""
    sock = environ.get("gunicorn.socket")
    if sock is None or not type(sock).__module__.startswith("gevent."):
        return None
    closing.callback(sock.settimeout, sock.gettimeout())
    sock.settimeout(stall)
    return cast(DirectSocket, sock)


def direct_socket(environ: Mapping[str, Any], sock: DirectSocket | None) -> DirectSocket | None:
    """``sock`` when the stream may write its frames to it itself: gunicorn chunks the
    body (HTTP/1.1 and on) of a GET, over plain HTTP (``LIVE_DIRECT_WRITES``, set by the
    gevent worker). Its send buffer is capped (the kernel would let it grow to megabytes
    per stalled viewer), so a client that stops reading is soon let go to its own watcher."""
    if sock is None or environ.get("SERVER_PROTOCOL") == "HTTP/1.0" or environ.get("REQUEST_METHOD") != "GET":
        return None
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    return sock


def send_all(sock: DirectSocket, data: bytes) -> None:
    """Send all of ``data``; TimeoutError once the client has taken nothing for the
    socket's timeout on end (a steady slow reader is not cut off, however long the page:
    gevent's ``sendall`` would bound the whole of it)."""
    view = memoryview(data)
    while view:
        view = view[sock.send(view) :]


class Direct:
    """A stream the tail writes to (``Tail.attach``): the seq its client was sent last,
    and, once the tail let it go (``released``), what the tail left unsent or whether its
    client is gone."""

    __slots__ = ("sock", "seq", "chat", "pending", "gone", "released")

    def __init__(self, sock: DirectSocket, seq: int, chat: str | None) -> None:
        self.sock, self.seq, self.chat = sock, seq, chat
        self.pending, self.gone = b"", False
        self.released = threading.Event()


class Tail:
    def __init__(
        self, log: GameLog, games: Games, game_id: str, seq: int, chat_mark: Callable[[str], str] | None = None
    ) -> None:
        self.log, self.games, self.game_id, self.seq = log, games, game_id, seq
        self._read_chat_mark, self._chat_read_at = chat_mark, 0.0
        self.chat_mark: str | None = None  # the chat's mark for spectators (Chat.mark), and its frame
        self.chat_frame = b""
        self.frames: list[Frame] = []  # consecutive seqs, the last KEPT..KEPT+RING
        self.latest: Shown | None = None  # the state after the last frame, and its meta
        self.framed: int | None = None  # the seq whose meta and position the last frames carried
        self.arrived = threading.Event()  # replaced at each publish: waking every watcher is one set()
        self.watchers = 0
        self._positions: dict[Caller, Drawn] = {}  # per viewer: its position at the latest seq
        self._computing = threading.Lock()
        self._direct: set[Direct] = set()  # streams whose frames the tail writes itself
        self._fanning = threading.Lock()  # a publish and an attach: one at a time
        self._filling = threading.Lock()  # one history read at a time (``history``)

    def run(self, still_watched: Callable[[Tail], bool]) -> None:
        LIVE_TAILS.inc()
        try:
            while still_watched(self):
                published = False
                try:
                    entries = self.log.tail(self.game_id, self.seq, block_ms=BLOCK_MS)
                    if entries:
                        self._publish(entries, self.log.followed(self.game_id, entries))
                        published = True
                except UNAVAILABLE as exc:  # watchers keep their keep-alives; the tail retries
                    log.warning("live tail of %s: storage unavailable: %s", self.game_id, exc)
                    time.sleep(1)
                except Exception:
                    log.exception("live tail of %s failed", self.game_id)
                    time.sleep(1)
                finally:
                    chatted = self._check_chat()
                    if not published:  # the watchers' tick: keep-alives, streams ending on time
                        with self._fanning:
                            self._fan_out(KEEP_ALIVE_CHUNK, None)
                    if chatted or not published:
                        self._wake()
        finally:
            LIVE_TAILS.dec()

    def _publish(self, entries: list[Envelope], state: PlatformState) -> None:
        consecutive = bool(self.frames) and entries[0]["seq"] == self.frames[-1][0] + 1
        before, framed = self.latest, self.framed if consecutive else None
        meta = self.games.meta(self.game_id, state)
        patch = None
        if before is not None and before.state["seq"] < state["seq"]:
            patch = patch_of(before.meta, meta, before.state["seq"], state["seq"])
        self.latest = Shown(state, meta, patch)
        drawn = self.position_for(SPECTATOR, state)
        # patches from what the stream's last frames carried; whole when they carried none
        shown: JSON = {}
        if framed is not None and patch is not None and patch.since == framed:
            shown["meta_patch"] = patch.sent()
        else:
            shown["meta"] = meta
        if framed is not None and drawn.patch is not None and drawn.patch.since == framed:
            shown["position_patch"] = drawn.patch.sent()
        else:
            shown["position"] = drawn.position
        frames = render(self.games, self.game_id, state, entries, shown)
        self.framed = state["seq"] if frames[-1][0] == state["seq"] else None
        with self._fanning:
            if not consecutive:
                self.frames = []  # the log moved under us (refolded), or nothing yet; keep the ring consecutive
                self._fan_out(b"", None)  # direct streams go back to reading the ring, which handles it
            kept = self.frames[-KEPT:] if len(self.frames) >= KEPT + RING else self.frames
            self.frames = kept + frames
            self.seq = frames[-1][0]
            self._fan_out(chunked(b"".join(text for _, text, _ in frames)), self.seq)
        self._wake()

    def _check_chat(self) -> bool:
        """At most once per ``BLOCK_MS``, whatever the number of viewers or moves: one read
        of the chat's mark; when it changed, every stream is sent the new one."""
        now = time.monotonic()
        if self._read_chat_mark is None or now - self._chat_read_at < BLOCK_MS / 1000:
            return False
        self._chat_read_at = now
        try:
            mark = self._read_chat_mark(self.game_id)
        except Exception:  # the entries go on; the mark is read again next time
            log.warning("live tail of %s: the chat's mark could not be read", self.game_id, exc_info=True)
            return False
        if mark == self.chat_mark:
            return False
        frame = b"event: chat\ndata: %s\n\n" % json.dumps({"mark": mark}).encode()
        with self._fanning:
            self.chat_mark, self.chat_frame = mark, frame
            self._fan_out(chunked(frame), None, mark)
        return True

    def attach(self, sock: DirectSocket, seq: int, chat: str | None) -> Direct | None:
        """Let the tail write this stream's frames after ``seq`` itself, as one
        non-blocking send per batch per stream (a thousand streams cost a thousand sends,
        not a thousand woken watchers); None while the stream is not at the tail (its
        entries, or the chat's mark it was sent)."""
        with self._fanning:
            if seq != self.seq or chat != self.chat_mark:
                return None
            direct = Direct(sock, seq, chat)
            self._direct.add(direct)
            return direct

    def detach(self, direct: Direct) -> None:
        with self._fanning:
            self._direct.discard(direct)

    def _fan_out(self, chunk: bytes, seq: int | None, chat: str | None = None) -> None:
        """Write ``chunk`` (the frames up to ``seq``, a keep-alive, or the chat's ``chat``
        mark) to every direct stream; one that would block, or took part of it, or whose
        client is gone, leaves the tail's writing and its own watcher takes over (called
        holding ``_fanning``). An empty chunk sends every one of them back."""
        for direct in list(self._direct):
            sent: int | None = 0
            if chunk:
                try:
                    sent = direct.sock.send(chunk, 0, 0.0)
                except BlockingIOError:
                    sent = 0
                except OSError:
                    sent = None
                if sent == len(chunk):
                    direct.seq = seq if seq is not None else direct.seq
                    direct.chat = chat if chat is not None else direct.chat
                    continue
            self._direct.discard(direct)
            if chunk:
                LIVE_RELEASED.inc()
            if sent is None:
                direct.gone = True
            elif sent:  # the rest is the watcher's to send before anything else
                direct.pending = chunk[sent:]
                direct.seq = seq if seq is not None else direct.seq
                direct.chat = chat if chat is not None else direct.chat
            direct.released.set()

    def _wake(self) -> None:
        arrived, self.arrived = self.arrived, threading.Event()
        arrived.set()

    def after(self, seq: int, timeout: float) -> list[Frame] | None:
        """Frames after ``seq``, waiting up to ``timeout`` for one; None when the ring
        no longer reaches back to ``seq`` (the caller reads its gap from the log).

        The tail wakes its watchers at least once per ``BLOCK_MS`` (a batch, or its XREAD
        back empty), so a wait that long needs no timer of its own: a thousand watchers
        would start and cancel a thousand timers per entry (14% of a worker's CPU)."""
        arrived = self.arrived  # taken before the check, so a publish in between is not missed
        if self.seq <= seq:
            arrived.wait(timeout if timeout < BLOCK_MS / 1000 else None)
        frames = self.frames
        top = max(self.seq, frames[-1][0] if frames else 0)
        if top <= seq:
            return []
        if not frames or frames[0][0] > seq + 1:
            return None
        start = seq + 1 - frames[0][0]
        return frames[start : start + CATCH_UP_PAGE]

    def history(self, seq: int) -> list[Frame]:
        """Up to a page of frames after ``seq`` when the ring does not reach back to it.
        What is missing is read from the log and rendered once per worker, a page at a
        time back from the ring's start, and kept there: a crowd reconnecting from far
        back (after a restart, or on purpose) costs one read and one rendering, not one
        per stream. Beyond ``KEPT`` frames the log is read for each such watcher."""
        with self._filling:
            while True:
                frames = self.frames
                start = frames[0][0] if frames else self.seq + 1
                if start <= seq + 1:
                    return frames[seq + 1 - start : seq + 1 - start + CATCH_UP_PAGE]
                if len(frames) + start - 1 - seq > KEPT:
                    break
                first = max(seq + 1, start - CATCH_UP_PAGE)
                older = render(
                    self.games,
                    self.game_id,
                    self.log.state(self.game_id),
                    self.log.read(self.game_id, after=first - 1, upto=start - 1),
                )
                with self._fanning:
                    now = self.frames[0][0] if self.frames else self.seq + 1
                    if not older or older[0][0] != first or older[-1][0] != start - 1 or now != start:
                        break  # the log or the ring moved meanwhile (a refold, a trim): read as it is
                    self.frames = older + self.frames
        state = self.log.state(self.game_id)
        return render(self.games, self.game_id, state, self.log.read(self.game_id, after=seq, upto=seq + CATCH_UP_PAGE))

    def shown(self) -> Shown:
        """The latest state, its meta and the meta's patch (read once if nothing was
        published yet)."""
        latest = self.latest
        if latest is None:
            state = self.log.state(self.game_id)
            latest = Shown(state, self.games.meta(self.game_id, state), None)
            if self.latest is None:
                self.latest = latest
        return latest

    def position_for(self, viewer: Caller, state: PlatformState) -> Drawn:
        """``viewer``'s position at ``state`` and its patch from the viewer's previous
        one: computed once per (viewer, seq) in this worker, then shared by every
        socket of that viewer."""
        known = self._positions.get(viewer)
        if known is not None and known.seq == state["seq"]:
            return known
        with self._computing:
            known = self._positions.get(viewer)
            if known is None or known.seq != state["seq"]:
                known = self._drawn(known, self.games.position(state, viewer))
                self._positions[viewer] = known
                POSITIONS_COMPUTED.inc()
            return known

    def remember(self, viewer: Caller, position: JSON) -> None:
        """A position computed elsewhere (a move's answer, without its receipt, ``seq``
        its ``at`` as in every position): its pushes reuse it."""
        with self._computing:
            known = self._positions.get(viewer)
            if known is None or known.seq < position["at"]:
                self._positions[viewer] = self._drawn(known, position)

    @staticmethod
    def _drawn(before: Drawn | None, position: JSON) -> Drawn:
        seq = position["at"]
        patch = None
        if before is not None and before.seq < seq:
            patch = position_patch(before.position, position, before.seq)
        return Drawn(seq, position, patch)


class LiveTails:
    """The tails of one worker, one per watched game."""

    def __init__(self, log: GameLog, games: Games, chat_mark: Callable[[str], str] | None = None) -> None:
        """``chat_mark(game_id)``: the chat's state as spectators may know it (``Chat.mark``)."""
        self._log, self._games, self._chat_mark = log, games, chat_mark
        self._tails: dict[str, Tail] = {}
        self._lock = threading.Lock()

    def watched(self, game_id: str) -> bool:
        """Whether this worker already tails the game (so it exists: no read needed)."""
        return game_id in self._tails

    @contextmanager
    def watch(self, game_id: str) -> Iterator[Tail]:
        with self._lock:
            tail = self._tails.get(game_id)
        seq = self._log.state(game_id)["seq"] if tail is None else 0  # read outside the lock
        with self._lock:
            tail = self._tails.get(game_id)
            start = tail is None
            if tail is None:
                tail = self._tails[game_id] = Tail(self._log, self._games, game_id, seq, self._chat_mark)
            tail.watchers += 1
        if start:
            threading.Thread(target=tail.run, args=(self._still_watched,), name=f"tail-{game_id}", daemon=True).start()
        try:
            yield tail
        finally:
            with self._lock:
                tail.watchers -= 1

    def _still_watched(self, tail: Tail) -> bool:
        with self._lock:
            if tail.watchers > 0:
                return True
            if self._tails.get(tail.game_id) is tail:
                del self._tails[tail.game_id]
            return False


def event_stream(
    tails: LiveTails,
    game_id: str,
    after: int | None,
    seconds: float,
    direct: DirectSocket | None = None,
) -> Generator[bytes, None, None]:
    """The SSE body of one watcher for about ``seconds`` (then the browser reconnects).

    Each stream lasts a random three quarters to whole of ``seconds``, so a crowd that came at
    once does not come back at once; its end tells the browser to come back within
    ``RESUME_MS`` rather than its usual ``retry`` (a page away for a second misses a
    second of the game), and the next stream sets the usual one again. What the stream
    writes is bytes encoded once per frame, and a batch is one write.

    With a ``direct`` socket the server writes the head and the first message and the
    stream writes the rest itself (chunked as the server would): the tail while the stream
    is at its head, the stream's own loop once let go. A write that times out (the
    socket's stall timeout) resets the connection and ends the stream: its slot comes back."""
    yield b"retry: %d\n\n" % RETRY_MS
    try:
        yield from _messages(tails, game_id, after, seconds, direct)
    except TimeoutError:  # only a direct socket's own write times out
        assert direct is not None
        LIVE_STALLED.inc()
        with suppress(OSError):  # reset when closed: the kernel keeps none of the unsent rest
            direct.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            direct.shutdown(socket.SHUT_RDWR)  # the server's last write then fails at once, quietly


def _messages(
    tails: LiveTails, game_id: str, after: int | None, seconds: float, direct: DirectSocket | None
) -> Generator[bytes, None, None]:
    """The stream's messages after the first: yielded for the server to write, or written
    to the ``direct`` socket here."""

    def out(data: bytes) -> Iterator[bytes]:
        if direct is None:
            yield data
        else:
            send_all(direct, chunked(data))

    with tails.watch(game_id) as tail:
        if after is None:
            # Opened at the tail: say where (an id with no data sets the browser's
            # Last-Event-ID without an event), so a reconnect before the first entry
            # resumes here instead of at a later tail, past what came meanwhile.
            after = tail.seq
            yield from out(b"id: %d\n\n" % after)
        deadline = time.monotonic() + seconds * random.uniform(0.75, 1.0)
        chat: str | None = None  # the chat's mark this stream was sent
        while (left := deadline - time.monotonic()) > 0:
            if tail.chat_mark != chat:  # a frame of its own, before or after any entry's
                chat = tail.chat_mark
                yield from out(tail.chat_frame)
            if direct is not None and (written := tail.attach(direct, after, chat)) is not None:
                written.released.wait(left)  # at the tail: it writes to the client until it lets go
                tail.detach(written)
                if written.gone:
                    return
                if written.pending:
                    send_all(direct, written.pending)
                after, chat = written.seq, written.chat
                continue
            frames = tail.after(after, timeout=min(left, BLOCK_MS / 1000))
            if frames is None:  # behind the ring: a page of history, the loop reads the next
                frames = tail.history(after)
            if not frames:
                yield from out(KEEP_ALIVE)
                continue
            yield from out(frames[0][1] if len(frames) == 1 else b"".join(text for _, text, _ in frames))
            after = frames[-1][0]
    yield from out(b"retry: %d\n\n" % RESUME_MS)


class LiveBody:
    """A stream's WSGI body, passed straight to the server: iterating it is iterating the
    stream itself (no wrapper per frame: at a thousand viewers each layer costs), and
    closing it ends the stream and runs ``on_close`` (the slot's release)."""

    def __init__(self, stream: Generator[bytes, None, None], on_close: Callable[[], object]) -> None:
        self._stream, self._on_close = stream, on_close

    def __iter__(self) -> Iterator[bytes]:
        return self._stream

    def close(self) -> None:
        try:
            self._stream.close()
        finally:
            self._on_close()


class StreamSlots:
    """Per-worker caps on live streams: in all, per client (its address) and per game.

    A refusal says when to retry: a client over its own cap when its oldest stream
    ends (streams last ``seconds``), a full game or worker in a second (streams end
    all the time, and another worker may have room)."""

    FULL_RETRY_AFTER = 1

    def __init__(self, total: int, per_client: int, per_game: int, seconds: float = 25) -> None:
        self.total, self.per_client, self.per_game, self.seconds = total, per_client, per_game, seconds
        self._clients: dict[str, list[float]] = {}  # the start times of each client's open streams
        self._games: dict[str, int] = {}
        self._open = 0
        self._lock = threading.Lock()

    @contextmanager
    def hold(self, client: str | None, game_id: str) -> Iterator[None]:
        """A slot for a stream of ``game_id``; ``client`` None is not capped per client
        (a trusted venue network's address: a whole room)."""
        now = time.monotonic()
        with self._lock:
            started = self._clients.get(client, []) if client is not None else []
            if len(started) >= self.per_client:
                wait = max(1, math.ceil(min(started) + self.seconds - now))
                raise RateLimited(
                    "too_many_streams",
                    f"this client has too many live streams open; try again in {wait} s",
                    {"limit": self.per_client},
                    retry_after=wait,
                )
            if self._games.get(game_id, 0) >= self.per_game or self._open >= self.total:
                raise Unavailable(
                    "too_many_streams",
                    "too many live streams on this worker; retry shortly",
                    retry_after=self.FULL_RETRY_AFTER,
                )
            if client is not None:
                self._clients.setdefault(client, []).append(now)
            self._games[game_id] = self._games.get(game_id, 0) + 1
            self._open += 1
        LIVE_STREAMS.inc()
        try:
            yield
        finally:
            LIVE_STREAMS.dec()
            with self._lock:
                self._open -= 1
                if client is not None:
                    self._clients[client].remove(now)
                    if not self._clients[client]:
                        del self._clients[client]
                self._games[game_id] -= 1
                if not self._games[game_id]:
                    del self._games[game_id]
