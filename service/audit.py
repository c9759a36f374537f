"""Verifying an exported log offline: the chain, the seed commitment, a full refold
and the recorded result. Anyone can run it; it needs nothing but the export."""
from __future__ import annotations

from marshmallow import ValidationError

from events.envelope import EnvelopeSchema, entry_hash
from events.rng import commitment
from projections import fold
from projections.games import get as get_game
from projections.games.base import IllegalAction
from projections.outcome import final_result

from . import json_input


def parse_lines(text: str) -> list[dict]:
    """One envelope (a JSON object) per non-blank line; raises ``MalformedJSON``."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        value = json_input.loads(line)
        if not isinstance(value, dict):
            raise json_input.MalformedJSON(f"line {number} is not a JSON object", line, 0)
        out.append(value)
    return out


def verify(envelopes: list[dict]) -> dict:
    """``{ok, first_bad_seq, checks: {chain, commitment, refold, result}, messages, game, rules_version}``.

    Each check is "ok", "failed" or "skipped" (e.g. no seed before the game ends).
    ``game`` and ``rules_version`` name the rules the log claims to be played under
    (None when the first entry is no ``game.created``); the refold uses them.
    """
    checks = {"chain": "ok", "commitment": "skipped", "refold": "skipped", "result": "skipped"}
    messages: list[str] = []
    bad: list[int] = []

    def fail(check, seq, message):
        checks[check] = "failed"
        messages.append(message)
        if seq is not None:
            bad.append(seq)

    schema = EnvelopeSchema()
    prev, partial = "", False
    for index, envelope in enumerate(envelopes, start=1):
        seq = index  # the line's place: what a line claims is not trusted before it loads
        try:
            schema.load({k: v for k, v in envelope.items() if k != "redacted"})
        except ValidationError as exc:
            fail("chain", seq, f"seq {seq}: not an envelope: {exc.messages}")
            break
        if envelope["seq"] != index:
            fail("chain", index, f"entry {index} says seq {envelope['seq']}")
            break
        if envelope["prev"] != prev:
            fail("chain", seq, f"seq {seq}: prev does not match the hash of seq {seq - 1}")
            break
        if envelope.get("redacted"):
            partial = True
        elif entry_hash(envelope) != envelope["hash"]:
            fail("chain", seq, f"seq {seq}: the content does not match its hash")
            break
        prev = envelope["hash"]
    if not envelopes:
        fail("chain", None, "the export is empty")
    if checks["chain"] == "ok" and partial:
        checks["chain"] = "partial"
        messages.append("hidden entries are linked but their content cannot be re-hashed")

    if checks["chain"] == "ok":
        seed = _revealed_seed(envelopes)
        if seed is not None:
            if commitment(seed) == envelopes[0]["payload"].get("seed_commitment"):
                checks["commitment"] = "ok"
            else:
                fail("commitment", 1, "the revealed seed does not match the commitment in game.created")
        if checks["commitment"] == "ok":
            _refold(envelopes, seed, checks, fail)
        elif seed is None:
            messages.append("no seed yet: the refold waits for the end of the game")
    return {"ok": not bad and "failed" not in checks.values(), "first_bad_seq": min(bad) if bad else None,
            "checks": checks, "messages": messages, **played_under(envelopes)}


def export_headers(envelopes: list[dict]) -> dict:
    """HTTP headers naming the game and rules version of an export."""
    under = played_under(envelopes)
    return {"X-Game": under["game"] or "", "X-Rules-Version": str(under["rules_version"] or "")}


def played_under(envelopes: list[dict]) -> dict:
    """``{game, rules_version}`` as the log's ``game.created`` records them."""
    first = envelopes[0] if envelopes and isinstance(envelopes[0], dict) else {}
    payload = first.get("payload") if first.get("type") == "game.created" else None
    if not isinstance(payload, dict):
        return {"game": None, "rules_version": None}
    return {"game": payload.get("game"), "rules_version": fold.rules_version(payload)}


def _refold(envelopes, seed, checks, fail):
    """Fold the whole log once, in order; at each ``game.finished`` compare the
    recorded result with the result of the state just before it."""
    history = fold.InMemoryHistory(envelopes, seed)
    previous, seq = None, 0
    try:
        for envelope, state in history.states():
            seq = envelope["seq"]
            if envelope["type"] == "game.finished":
                expected = final_result(get_game(previous["game"]), previous)
                if expected != envelope["payload"]["result"]:
                    checks["result"] = "failed"
                    fail("result", seq, f"seq {seq}: the recorded result is not the refolded one")
                    return
                checks["result"] = "ok"
            previous = state
    except (fold.FoldError, IllegalAction, KeyError, TypeError, ValueError) as exc:
        fail("refold", seq + 1, f"seq {seq + 1}: refold failed: {exc}")  # the entry after the last good one
        return
    checks["refold"] = "ok"


def _revealed_seed(envelopes):
    for envelope in envelopes:
        if envelope["type"] == "game.finished" and envelope["payload"].get("seed"):
            return envelope["payload"]["seed"]
    return None
