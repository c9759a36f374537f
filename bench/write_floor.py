"""The floor of a broadcast: a bare gevent server that only writes one fixed SSE frame
to every open stream per move, nothing else (no app, no Redis, no parsing past the
request line). bench/broadcast.py runs it beside the real server, with the same viewers
and the same frame size, and holds the server's CPU per move against it.

    .venv/bin/python bench/write_floor.py PORT

``GET /stream`` opens a stream (chunked, as gunicorn answers one); a connection that
sends ``move <seq> <bytes>\\n`` makes the server write a frame of that size with that
id to every stream (the frame and its chunk framing built once; one non-blocking
``send`` each, the cheapest write there is, as the server's tail does, and ``sendall``
of the rest when a stream's buffer is full), then answer ``ok\\n``.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import socket  # noqa: E402  # after the patch
import sys  # noqa: E402

from gevent.server import StreamServer  # noqa: E402

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
streams: set[socket.socket] = set()


def frame(seq: int, size: int) -> bytes:
    """One chunk of ``size`` bytes of SSE text naming ``seq``, as the viewers parse it."""
    head = f"id: {seq}\nevent: appended\ndata: ".encode()
    body = head + b"x" * max(0, size - len(head) - 2) + b"\n\n"
    return b"%X\r\n" % len(body) + body + b"\r\n"


def handle(sock: socket.socket, _address: object) -> None:
    reader = sock.makefile("rb")
    line = reader.readline()
    if line.startswith(b"GET"):
        while reader.readline() not in (b"\r\n", b""):
            pass
        sock.sendall(HEAD)
        streams.add(sock)
        try:
            while sock.recv(1024):  # held open until the viewer leaves
                pass
        finally:
            streams.discard(sock)
        return
    while line.startswith(b"move "):
        _, seq, size = line.split()
        chunk = frame(int(seq), int(size))
        for stream in list(streams):
            try:
                try:
                    sent = stream.send(chunk, 0, 0.0)  # gevent's: a timeout of 0 never waits
                except BlockingIOError:
                    sent = 0
                if sent < len(chunk):
                    stream.sendall(chunk[sent:])
            except OSError:
                streams.discard(stream)
        sock.sendall(b"ok\n")
        line = reader.readline()


if __name__ == "__main__":
    StreamServer(("127.0.0.1", int(sys.argv[1])), handle, backlog=4096).serve_forever()
