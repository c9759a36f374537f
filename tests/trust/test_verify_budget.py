"""POST /api/verify is open to anyone: its time budget covers all its work (parsing and
the chain too, not only the refold), and a worker verifies one export at a time."""

from __future__ import annotations

import threading

from service.audit.exports import parse_lines
from tests.platform.helpers import GameHandle
from tests.trust.test_verdicts import dump, rechain


def long_sealed_export(client, entries=4000):
    """A live game's export padded with copies of a move: it links and re-hashes, and as
    it is sealed no refold runs (before, the budget was only checked in the refold)."""
    g = GameHandle(client)
    g.act(0, "roll")
    log = [line for line in parse_lines(g.export()) if "seq" in line]
    move = log[-1]
    padded = log + [{**move, "seq": seq} for seq in range(len(log) + 1, entries + 1)]
    return dump(rechain(padded))


def test_the_budget_covers_parsing_and_the_chain(client, app):
    body = long_sealed_export(client)
    saved = {k: app.config[k] for k in ("VERIFY_SECONDS", "VERIFY_MAX_EVENTS")}
    try:
        app.config.update(VERIFY_SECONDS=0.05, VERIFY_MAX_EVENTS=10_000)
        r = client.post("/api/verify", data=body)
        assert r.status_code == 422 and r.json["error"]["code"] == "too_costly", r.json
        app.config.update(VERIFY_SECONDS=60)
        r = client.post("/api/verify", data=body)  # given time, it finishes (unsigned, so not ok here)
        assert r.status_code == 200 and r.json["checks"]["chain"] == "ok" and r.json["checks"]["refold"] == "sealed"
    finally:
        app.config.update(saved)


def test_a_worker_verifies_one_export_at_a_time(client, app):
    body = long_sealed_export(client, 6000)
    saved = {k: app.config[k] for k in ("VERIFY_SECONDS", "VERIFY_MAX_EVENTS")}
    answers = []
    try:
        app.config.update(VERIFY_SECONDS=60, VERIFY_MAX_EVENTS=10_000)
        threads = [
            threading.Thread(target=lambda: answers.append(app.test_client().post("/api/verify", data=body)))
            for _ in range(3)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        app.config.update(saved)
    codes = sorted(r.status_code for r in answers)
    assert 200 in codes and 503 in codes, codes
    busy = next(r for r in answers if r.status_code == 503)
    assert busy.json["error"]["code"] == "verify_busy" and busy.headers.get("Retry-After")
