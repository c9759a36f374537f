"""A Web Push endpoint for tests: a real HTTP server on loopback that accepts a push only
with a valid VAPID signature (RFC 8292: an ES256 JWT for this origin, not expired, under
the key the request names), then decrypts its aes128gcm body (RFC 8291) with the
subscriber's keys, as a browser's push service and the browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def vapid_ok(header: str, origin: str, server_key: str) -> bool:
    """``Authorization: vapid t=<jwt>, k=<key>`` signed by ``server_key`` for ``origin``."""
    if not header.startswith("vapid "):
        return False
    parts = dict(p.strip().split("=", 1) for p in header[len("vapid ") :].split(","))
    if parts.get("k") != server_key:
        return False
    head, claims, signature = parts["t"].split(".")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(parts["k"]))
    raw = b64d(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return False
    body = json.loads(b64d(claims))
    return json.loads(b64d(head)).get("alg") == "ES256" and body["aud"] == origin and body["exp"] > time.time()


class PushEndpoint:
    def __init__(self, server_key: str) -> None:
        self.server_key = server_key
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.received: list[dict] = []
        self.at: dict[str, list[dict]] = {}  # what each subscription's path received
        self.refused = 0
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  # the http.server name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if not vapid_ok(self.headers.get("Authorization", ""), endpoint.origin, endpoint.server_key):
                    endpoint.refused += 1
                    self.send_response(401)
                    self.end_headers()
                    return
                clear = http_ece.decrypt(
                    body, private_key=endpoint.private, auth_secret=endpoint.auth, version="aes128gcm"
                )
                endpoint.received.append(json.loads(clear))
                endpoint.at.setdefault(self.path, []).append(endpoint.received[-1])
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def subscription(self, path: str = "/push/1") -> dict:
        public = self.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.origin + path, "keys": {"p256dh": b64e(public), "auth": b64e(self.auth)}}

    def close(self) -> None:
        self.server.shutdown()
