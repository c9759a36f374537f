"""Verifying an exported log offline: anyone can run it; it needs nothing but the
export (and, for authenticity, the server's public key; for a player, their receipts).

The verdict says only what was really checked:

- ``verified``: format 2; every entry re-hashed, every payload checked against its
  salted digest, the seed matches its commitment, the whole log refolded and every
  recorded result (and correction) is the refolded one;
- ``legacy``: the same for a log recorded before payload digests (format 1): its
  hashes cover the payloads themselves, so it is checked as well, but it cannot show
  that a redacted copy hid anything, and names no game id;
- ``sealed``: the chain links and re-hashes, but the seed is not in the export (the
  game is not over, or it is a fork of a game still being played), so payloads, refold
  and result wait for the seed: nothing is claimed about the contents yet. A copy that
  hides anything never carries the seed, so an entry marked redacted beside a revealed
  seed fails;
- ``failed``: some check failed; ``first_bad_seq`` names the first entry at fault.

``ok`` is true for ``verified`` and ``legacy`` only. Signatures are a separate axis:
without a key the report says "unsigned: integrity only, not authenticity".
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any, cast

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events import strict_json as json_input
from events.chain import ChainError, chain_format, check_links, check_payloads
from events.rng import CONTRIBUTION_HEX, commitment
from events.shapes import JSON, Envelope
from events.signing import check as check_signature
from events.signing import export_statement
from projections import fold
from projections.games.base import IllegalAction
from projections.outcome import final_result

TRAILER = "head_signature"
AUDIT = "audit"  # the line before the trailer: what beside the log a dispute may cite (the chat)
UNSIGNED = "unsigned: integrity only, not authenticity"

Keys = dict[str, Ed25519PublicKey]
"""The server's public keys by key id (``events.signing.keyring``)."""

Fail = Callable[[str, int | None, str], None]
"""Records a failed check: which, the seq at fault (None: no one entry), and why."""


class Malformed(ValueError):
    """The export is not of the shape this server writes (a seed that is not text)."""


class TooCostly(Exception):
    """Verification ran past its time budget."""


class Budget:
    """A time budget for all of a verification's work (parsing, chain, digests, refold).

    ``tick`` is called per line or entry: every ``EVERY`` calls it checks the clock and
    raises TooCostly past the end, and yields (``time.sleep(0)``: under gevent the
    worker's other requests run in between, in a thread it costs nothing)."""

    EVERY = 64

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.calls = 0

    def tick(self, where: int) -> None:
        self.calls += 1
        if self.calls % self.EVERY:
            return
        if time.monotonic() > self.end:
            raise TooCostly(f"verification stopped at entry {where}: past its time budget")
        time.sleep(0)


def parse_lines(text: str, budget: Budget | None = None) -> list[JSON]:
    """One envelope (a JSON object) per non-blank line; raises ``MalformedJSON``."""
    out: list[JSON] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if budget is not None:
            budget.tick(number)
        if not line.strip():
            continue
        value = json_input.loads(line)
        if not isinstance(value, dict):
            raise json_input.MalformedJSON(f"line {number} is not a JSON object", line, 0)
        out.append(value)
    return out


def split_trailer(lines: list[JSON]) -> tuple[list[JSON], Any]:
    """The entries, and the signed head statement an export ends with (if any; as
    sent, so not yet known to be an object). The audit section before it (the table
    chat, which is no part of the log) is left out."""
    trailer = None
    if lines and isinstance(lines[-1], dict) and TRAILER in lines[-1] and "seq" not in lines[-1]:
        lines, trailer = lines[:-1], lines[-1][TRAILER]
    if lines and isinstance(lines[-1], dict) and AUDIT in lines[-1] and "seq" not in lines[-1]:
        lines = lines[:-1]
    return lines, trailer


def verify(
    lines: list[JSON],
    keys: Keys | None = None,
    receipts: list[JSON] | None = None,
    budget: Budget | None = None,
    require_signature: bool = True,
) -> JSON:
    """``{ok, verdict, format, first_bad_seq, checks, messages, game, rules_version}``;
    see the module doc (``game`` and ``rules_version`` as ``game.created`` records them).

    ``keys`` maps key ids to public keys (given keys and ``require_signature``, an
    unsigned export fails); ``receipts`` are signed head statements a player kept;
    past the end of ``budget`` TooCostly is raised, Malformed for an export of a shape
    this server never writes."""
    envelopes, trailer = split_trailer(lines)
    checks = dict.fromkeys(("chain", "payloads", "game_id", "commitment", "refold", "result"), "skipped")
    checks.update(signature="skipped", receipts="none")
    messages: list[str] = []
    bad: list[int] = []
    report: JSON = {
        "ok": False,
        "verdict": "failed",
        "format": None,
        "first_bad_seq": None,
        "checks": checks,
        "messages": messages,
        **played_under(envelopes),
    }

    def fail(check: str, seq: int | None, message: str) -> None:
        checks[check] = "failed"
        messages.append(message)
        if seq is not None:
            bad.append(seq)

    try:
        report["format"] = chain_format(envelopes)
        check_links(envelopes, budget.tick if budget else None)
        checks["chain"] = "ok" if envelopes else "failed"
        if not envelopes:
            fail("chain", None, "the export is empty")
    except ChainError as exc:
        fail("chain", exc.seq, exc.message)
    if checks["chain"] == "ok":
        chained = cast(list[Envelope], envelopes)  # every entry links and re-hashes: sealed envelopes
        legacy = report["format"] == "legacy"
        seed = _revealed_seed(chained)
        _check_game_id(chained, legacy, checks, fail)
        _check_deal(chained, checks, fail)
        _check_contents(chained, seed, legacy, checks, messages, fail, budget)
        _check_signature(chained, trailer, keys, require_signature, checks, messages, fail)
        _check_corrections(chained, keys, checks, fail)
    _check_receipts(envelopes, receipts, keys, checks, fail)

    report["first_bad_seq"] = min(bad) if bad else None
    if "failed" in checks.values():
        report["verdict"] = "failed"
    elif "sealed" in checks.values():
        report["verdict"] = "sealed"
        messages.append("sealed until the end: the chain is checked, the contents wait for the seed")
    else:
        report["verdict"] = "legacy" if report["format"] == "legacy" else "verified"
        if report["verdict"] == "legacy":
            messages.append(
                "legacy chain format: hashes cover the payloads themselves and no game id is named; "
                "it cannot show that a redacted copy hid anything"
            )
    report["ok"] = report["verdict"] in ("verified", "legacy")
    return report


def export_headers(envelopes: list[Envelope]) -> dict[str, str]:
    """HTTP headers naming the game and rules version of an export."""
    under = played_under(envelopes)
    return {"X-Game": under["game"] or "", "X-Rules-Version": str(under["rules_version"] or "")}


def played_under(envelopes: list[JSON] | list[Envelope]) -> JSON:
    """``{game, rules_version}`` as the log's ``game.created`` records them (None when
    the first entry is no ``game.created``); the refold uses them."""
    first = envelopes[0] if envelopes and isinstance(envelopes[0], dict) else {}
    payload = first.get("payload") if first.get("type") == "game.created" else None
    if not isinstance(payload, dict):
        return {"game": None, "rules_version": None}
    return {"game": payload.get("game"), "rules_version": fold.rules_version(payload)}


def _check_game_id(envelopes: list[Envelope], legacy: bool, checks: dict[str, str], fail: Fail) -> None:
    if legacy:
        checks["game_id"] = "absent"
    elif isinstance(envelopes[0]["payload"].get("game_id"), str):
        checks["game_id"] = "ok"
    elif not envelopes[0].get("redacted"):
        fail("game_id", 1, "seq 1: game.created names no game id")


def _check_deal(envelopes: list[Envelope], checks: dict[str, str], fail: Fail) -> None:
    """A game from an open table records one share of the deal per seat: a client's
    random value, or a computer seat's mark that its share is the server's seed. The
    refold draws from the seed mixed with those values (``fold.draw_seed``), so a result
    recorded from any other draws fails there; here the shares themselves are checked.
    ``checks.deal`` is there only for a game with a deal: other reports stay as they were."""
    created = envelopes[0]["payload"] if envelopes[0]["type"] == "game.created" else {}
    deal = created.get("deal")
    if deal is None:
        return
    shares = deal.get("contributions") if isinstance(deal, dict) else None
    seats = created.get("seats") or []
    bots = set((created.get("bots") or {}).keys())
    ok = (
        isinstance(shares, list)
        and [s.get("seat") for s in shares if isinstance(s, dict)] == list(range(len(seats)))
        and all(
            (str(s["seat"]) in bots and s.get("from") == "server" and "value" not in s)
            or (str(s["seat"]) not in bots and isinstance(s.get("value"), str) and _HEX64.fullmatch(s["value"]))
            for s in shares
        )
    )
    if ok:
        checks["deal"] = "ok"
    else:
        fail("deal", 1, "seq 1: the deal does not record one share per seat (a value, or the server's for a computer)")


_HEX64 = re.compile(f"[0-9a-f]{{{CONTRIBUTION_HEX}}}")


def _check_contents(
    envelopes: list[Envelope],
    seed: str | None,
    legacy: bool,
    checks: dict[str, str],
    messages: list[str],
    fail: Fail,
    budget: Budget | None,
) -> None:
    redacted = [e["seq"] for e in envelopes if e.get("redacted")]
    if seed is not None and redacted:
        # the seed is withheld from every copy that hides something (projections/views.py)
        fail(
            "payloads",
            redacted[0],
            f"seq {redacted[0]}: marked redacted in an export that reveals the seed, which hides nothing",
        )
        return
    if seed is None:
        for check in ("payloads", "commitment", "refold", "result"):
            checks[check] = "sealed"
        if redacted:
            messages.append(f"{len(redacted)} entries are redacted (first: seq {redacted[0]})")
        return
    if commitment(seed) != envelopes[0]["payload"].get("seed_commitment"):
        fail("commitment", 1, "the revealed seed does not match the commitment in game.created")
        return
    checks["commitment"] = "ok"
    try:
        check_payloads(
            envelopes, seed, budget.tick if budget else None
        )  # format-2 entries; each legacy hash covered its payload
        checks["payloads"] = "ok"
    except ChainError as exc:
        fail("payloads", exc.seq, exc.message)
        return
    _refold(envelopes, seed, checks, fail, budget)


def _refold(envelopes: list[Envelope], seed: str, checks: dict[str, str], fail: Fail, budget: Budget | None) -> None:
    """Fold the whole log once, in order; at each ``game.finished`` compare the
    recorded result with the result of the state just before it (the fold itself
    checks each correction's result)."""
    history = fold.InMemoryHistory(envelopes, seed)
    previous: fold.PlatformState | None = None
    seq = 0
    try:
        for envelope, state in history.states():
            seq = envelope["seq"]
            if budget is not None:
                budget.tick(seq)
            if envelope["type"] == "game.finished":
                if previous is None:
                    raise fold.FoldError("game.finished before game.created")
                expected = final_result(fold.game_of(previous), previous)
                if expected != envelope["payload"]["result"]:
                    fail("result", seq, f"seq {seq}: the recorded result is not the refolded one")
                    return
            previous = state
    except (fold.FoldError, IllegalAction, KeyError, TypeError, ValueError) as exc:
        fail("refold", seq + 1, f"seq {seq + 1}: refold failed: {exc}")  # the entry after the last good one
        return
    checks["refold"] = "ok"
    checks["result"] = "ok" if previous is not None and previous["result"] is not None else "skipped"


def _check_signature(
    envelopes: list[Envelope],
    trailer: Any,
    keys: Keys | None,
    required: bool,
    checks: dict[str, str],
    messages: list[str],
    fail: Fail,
) -> None:
    """The export's closing head statement: it must name this log's game, last seq and
    head, and (given keys) be signed by one of them."""
    last = envelopes[-1]
    if trailer is None:
        if keys and required:
            fail("signature", None, "the export carries no signature, but a key was given")
        else:
            checks["signature"] = "unsigned"
            messages.append(UNSIGNED)
        return
    game_id = envelopes[0]["payload"].get("game_id")
    claimed = {k: trailer.get(k) for k in ("kind", "game_id", "seq", "head")} if isinstance(trailer, dict) else {}
    if claimed.get("kind") == "head":
        fail(
            "signature",
            last["seq"],
            "the closing line signs a head (a receipt), not an export: it does not show "
            "that the log ended there; export the game again",
        )
        return
    if claimed != export_statement(game_id, last["seq"], last["hash"]):
        fail("signature", last["seq"], "the signed head is not this log's game, last seq and head")
        return
    if not keys:
        checks["signature"] = "unchecked"
        messages.append(UNSIGNED + " (signed, but no key was given to check it)")
        return
    outcome = check_signature(trailer, keys)
    if outcome == "ok":
        checks["signature"] = "ok"
    else:
        fail(
            "signature",
            last["seq"],
            "the head signature does not check against the given keys"
            if outcome == "bad"
            else f"the head is signed by key {trailer.get('key_id')}, not a given one",
        )


def _check_corrections(envelopes: list[Envelope], keys: Keys | None, checks: dict[str, str], fail: Fail) -> None:
    """Each correction after the end carries the server's signature over what it changes."""
    game_id = envelopes[0]["payload"].get("game_id")
    for envelope in envelopes:
        if envelope["type"] != fold.CORRECTION or envelope.get("redacted"):
            continue
        attestation = envelope["payload"].get("attestation") or {}
        expected = fold.correction_statement(game_id, envelope)
        if {k: attestation.get(k) for k in expected} != expected:
            fail("signature", envelope["seq"], f"seq {envelope['seq']}: the correction's attestation is not about it")
        elif keys and check_signature(attestation, keys) != "ok":
            fail("signature", envelope["seq"], f"seq {envelope['seq']}: the correction is not signed by a given key")


def _check_receipts(
    envelopes: list[JSON], receipts: list[JSON] | None, keys: Keys | None, checks: dict[str, str], fail: Fail
) -> None:
    """Receipts a player kept against this export: the first seq where they disagree."""
    if not receipts:
        return
    checks["receipts"] = "ok"
    hashes = {e.get("seq"): e.get("hash") for e in envelopes if isinstance(e, dict)}
    game_id = envelopes[0].get("payload", {}).get("game_id") if envelopes and isinstance(envelopes[0], dict) else None
    for receipt in sorted(receipts, key=lambda r: r.get("seq", 0) if isinstance(r, dict) else 0):
        seq = receipt.get("seq") if isinstance(receipt, dict) else None
        if keys and check_signature(receipt, keys) != "ok":
            fail("receipts", None, f"the receipt for seq {seq} is not signed by a given key")
        elif receipt.get("game_id") != game_id:
            fail("receipts", None, f"the receipt for seq {seq} is for game {receipt.get('game_id')}")
        elif hashes.get(seq) != receipt.get("head"):
            fail(
                "receipts", seq, f"seq {seq}: the export disagrees with a receipt (the log was rewritten or cut short)"
            )
            return


def named_game(envelopes: list[JSON]) -> str | None:
    """The game id ``game.created`` names (None for a legacy or malformed log)."""
    first = envelopes[0] if envelopes and isinstance(envelopes[0], dict) else {}
    payload = first.get("payload") if first.get("type") == "game.created" else None
    return payload.get("game_id") if isinstance(payload, dict) else None


def against_log(report: JSON, envelopes: list[JSON], stored: list[Envelope] | None) -> JSON:
    """The server's own check of an export against its log of the same game, from the
    export's last seq on (``stored``): ``current`` is "ok" (the export is the log as it
    is), "behind" (genuine, but the log has gone on: the entries since are named, a
    correction among them), "diverged" (this server's entry at that seq is another:
    failed) or "unknown" (no such game here)."""
    checks, messages = report["checks"], report["messages"]
    if not stored or report["checks"].get("chain") != "ok":
        checks["current"] = "unknown"
        return report
    last = envelopes[-1]
    if stored[0]["seq"] != last["seq"] or stored[0]["hash"] != last["hash"]:
        checks["current"] = "diverged"
        messages.append(f"seq {last['seq']}: this server's log has another entry there")
        report.update(
            ok=False, verdict="failed", first_bad_seq=min(filter(None, [report["first_bad_seq"], last["seq"]]))
        )
        return report
    later = stored[1:]
    checks["current"] = "behind" if later else "ok"
    if later:
        types = ", ".join(sorted({e["type"] for e in later}))
        messages.append(
            f"this server's log goes on after seq {last['seq']} (to seq {later[-1]['seq']} or "
            f"beyond): {types}; the export is genuine but not the whole log now"
        )
    return report


def _revealed_seed(envelopes: list[Envelope]) -> str | None:
    """The seed ``game.finished`` reveals; raises Malformed when it is not text."""
    for envelope in envelopes:
        if envelope["type"] == "game.finished" and envelope["payload"].get("seed"):
            seed: object = envelope["payload"]["seed"]
            if not isinstance(seed, str):
                raise Malformed(f"seq {envelope['seq']}: the revealed seed is {type(seed).__name__}, not text")
            return seed
    return None
