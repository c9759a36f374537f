"""The WebSocket client of the socket tests: simple-websocket's, keeping the frames that
arrive in the same read as the handshake's answer.

simple-websocket's ``Client.handshake`` reads until it has the ``101`` and takes only that
event; when the server's first frame (our handshake answer) came in the same read, wsproto
holds it until more bytes arrive, so ``receive`` waits out the server's idle timeout. It
happens when the machine is loaded (the two writes coalesce); the server is not at fault."""

from __future__ import annotations

import simple_websocket


class Client(simple_websocket.Client):
    def handshake(self) -> None:
        super().handshake()
        self._handle_events()  # before the reader thread starts: no race
        # a close that came along is recorded (close_reason); the reader thread then
        # finds the socket ended, so the frames before it can still be received
        self.connected = True
