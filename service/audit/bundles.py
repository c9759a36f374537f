"""The tournament audit bundle, verified offline (the server writes it: ``Tournaments.bundle``).

A bundle is one JSON document::

    {"format": "tournament-bundle/1",
     "manifest": {"tournament": id, "game": name, "exported_at",
                  "tournament_head": {"seq", "hash"},
                  "games": [{"game_id", "round", "table", "seq", "head_hash", "finished"}]},
     "tournament": [envelope, ...],          # the tournament stream, hash-chained
     "games": {game_id: [envelope, ...]},    # each game's export (seed in game.finished)
     "standings": [...],                     # the standings as the server computed them
     "signature": {...}}                     # the server's Ed25519 signature of all the above

``verify_tournament`` needs nothing but the bundle: it re-checks the tournament chain
and payload schemas, refolds the tournament, re-verifies every game (chain, seed
commitment, refold, result) with the platform's verifier, checks that each reported
result is the one the game's own log reaches and that the manifest names the real
chain heads, then recomputes the standings from scratch and compares them. A result
corrected after a game's end reaches the stream as ``game.corrected``; each table's
last recorded result must be the game's own final one. Given the server's public key
(``--key``), the bundle's signature is checked; without one the report says the
bundle is unsigned (integrity only, not authenticity).

The tournament stream has no secret seed, and every payload in it is public, so its
entries use format 2 with an unsalted digest (an empty nonce): nothing is hidden that
a salt would protect, and anyone can check every payload at once.
``python -m service verify-tournament BUNDLE`` calls ``main``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from marshmallow import ValidationError

from events.chain import ChainError, chain_format, check_links, check_payloads
from events.shapes import JSON, Envelope
from events.signing import BUNDLE_FORMAT, bundle_statement
from events.signing import check as check_signature
from events.tournament_schemas import SCHEMAS
from projections.tournaments import fold as tfold
from projections.tournaments import standings as tstandings
from projections.tournaments.fold import TournamentError, table_result

FORMAT = BUNDLE_FORMAT

if TYPE_CHECKING:
    from service.audit.exports import Keys

Fail = Callable[[str, str], None]
"""Records a failed check and why."""


def verify_tournament(bundle: object, keys: Keys | None = None) -> JSON:
    """``{ok, checks: {...}, games: {id: report}, messages, standings}``; each check is
    "ok", "failed" or "skipped". A bundle of the wrong shape fails, never raises."""
    try:
        return _verify(bundle, keys)
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
        checks = dict.fromkeys(
            ("format", "chain", "fold", "manifest", "games", "results", "standings", "signature"), "skipped"
        )
        checks["format"] = "failed"
        return {
            "ok": False,
            "checks": checks,
            "games": {},
            "standings": None,
            "messages": [f"the bundle is malformed: {type(exc).__name__}: {exc}"],
        }


def _verify(bundle: object, keys: Keys | None) -> JSON:
    checks = {
        "format": "ok",
        "chain": "skipped",
        "fold": "skipped",
        "manifest": "skipped",
        "games": "skipped",
        "results": "skipped",
        "standings": "skipped",
        "signature": "skipped",
    }
    messages: list[str] = []
    out: JSON = {"ok": False, "checks": checks, "games": {}, "messages": messages, "standings": None}

    def fail(check: str, message: str) -> None:
        checks[check] = "failed"
        messages.append(message)

    if not isinstance(bundle, dict) or bundle.get("format") != FORMAT:
        fail("format", f"not a {FORMAT} document")
        return out
    stream = bundle.get("tournament") or []
    games = bundle.get("games") or {}
    manifest = bundle.get("manifest") or {}

    _check_bundle_signature(bundle, keys, checks, messages, fail)
    checks["chain"] = "ok"
    for problem in _chain_problems(stream):
        fail("chain", "tournament stream: " + problem)
    if checks["chain"] != "ok":
        return out

    state, at_finish = None, None
    try:
        for envelope in stream:
            SCHEMAS[envelope["type"]]().load(envelope["payload"])
            if envelope["type"] == "tournament.finished":
                at_finish = state
            state = tfold.apply(state, envelope)
        checks["fold"] = "ok"
    except (ValidationError, KeyError) as exc:
        fail("fold", f"seq {envelope.get('seq')}: payload of {envelope.get('type')} is invalid: {exc}")
    except TournamentError as exc:
        fail("fold", f"seq {envelope.get('seq')}: {exc.code}: {exc.message}")
    if state is None:
        return out

    checks["manifest"] = "ok"
    head = manifest.get("tournament_head") or {}
    if head.get("hash") != stream[-1]["hash"] or head.get("seq") != stream[-1]["seq"]:
        fail("manifest", "the manifest's tournament head is not the stream's last entry")
    if manifest.get("tournament") != state["id"]:
        fail("manifest", "the manifest names another tournament")
    in_tournament = {t["game_id"]: (r["round"], t) for r in state["rounds"] for t in r["tables"]}
    listed = {g.get("game_id"): g for g in manifest.get("games") or []}
    if set(listed) != set(in_tournament) or set(games) != set(in_tournament):
        fail("manifest", "the bundle's games are not exactly the tournament's games")
    for gid, entry in listed.items():
        log = games.get(gid) or []
        if not log or entry.get("head_hash") != log[-1].get("hash") or entry.get("seq") != log[-1].get("seq"):
            fail("manifest", f"game {gid}: the manifest's head is not the log's last entry")

    _verify_games(state, in_tournament, games, out, fail, keys)

    if checks["games"] != "failed" and checks["results"] != "failed":
        recomputed = tstandings.compute(_with_game_results(state, games))
        out["standings"] = recomputed
        checks["standings"] = "ok"
        if bundle.get("standings") is not None and bundle["standings"] != recomputed:
            fail("standings", "the bundle's standings differ from the ones recomputed from the games")
        final = next((e["payload"] for e in stream if e["type"] == "tournament.finished"), None)
        if (
            final
            and final.get("standings")
            and (at_finish is None or final["standings"] != tstandings.compute(at_finish))
        ):
            fail("standings", "the standings recorded at the end differ from the recomputed ones")
    out["ok"] = "failed" not in checks.values()
    return out


def _check_bundle_signature(
    bundle: JSON, keys: Keys | None, checks: dict[str, str], messages: list[str], fail: Fail
) -> None:
    signed = bundle.get("signature")
    if signed is None:
        checks["signature"] = "unsigned"
        if keys:
            fail("signature", "the bundle carries no signature, but a key was given")
        else:
            messages.append("unsigned: integrity only, not authenticity")
        return
    claimed = {k: signed.get(k) for k in ("kind", "tournament", "digest")} if isinstance(signed, dict) else {}
    if claimed != bundle_statement(bundle):
        fail("signature", "the bundle's signature is not over this bundle")
    elif not keys:
        checks["signature"] = "unchecked"
        messages.append("unsigned: integrity only, not authenticity (signed, but no key was given to check it)")
    elif check_signature(signed, keys) != "ok":
        fail("signature", "the bundle's signature does not check against the given keys")
    else:
        checks["signature"] = "ok"


def _verify_games(
    state: JSON, in_tournament: dict[str, tuple[int, JSON]], games: JSON, out: JSON, fail: Fail, keys: Keys | None
) -> None:
    from service.audit.exports import Malformed, verify

    checks = out["checks"]
    checks["games"] = checks["results"] = "ok"
    for gid, (_rnd, table) in in_tournament.items():
        log = games.get(gid) or []
        report: JSON = {"ok": False, "verdict": "failed", "checks": {}, "messages": ["no log"]}
        if log:
            try:
                report = verify(log, keys=keys, require_signature=False)
            except Malformed as exc:
                report = {"ok": False, "verdict": "failed", "checks": {}, "messages": [str(exc)]}
        out["games"][gid] = report
        sealed_in_play = report.get("verdict") == "sealed" and table["result"] is None
        if not report["ok"] and not sealed_in_play:
            fail("games", f"game {gid}: " + "; ".join(report.get("messages") or ["verification failed"]))
            continue
        created = log[0]["payload"]
        names = tfold.seat_names(state, table)
        computers = table.get("computers") or {}
        if (
            created.get("tournament") != state["id"]
            or created.get("seats") != names
            or created.get("game") != state["game"]
            or any((created.get("bots") or {}).get(s) != n for s, n in computers.items())
        ):
            fail("results", f"game {gid} was not created for this table (tournament, game or seats differ)")
        reported = table["result"]
        if reported is None:
            continue
        actual = final_recorded_result(log)
        if actual is None:
            fail("results", f"game {gid}: a result was reported but the log has no game.finished")
            continue
        if [actual["scores"], actual["ranking"]] != [reported["scores"], reported["ranking"]]:
            fail("results", f"game {gid}: the reported result is not the game's own result")
        elif table.get("head_hash") and not any(e["hash"] == table["head_hash"] for e in log):
            fail("results", f"game {gid}: the reported head hash is not in the game's log")


def _with_game_results(state: JSON, games: JSON) -> JSON:
    """The tournament state with each reported result taken from the game's own log."""
    new: JSON = json.loads(json.dumps(state))
    for rnd in new["rounds"]:
        for table in rnd["tables"]:
            if table["result"] is None:
                continue
            # _verify_games failed any reported game whose log records no result
            table["result"] = table_result(cast(JSON, final_recorded_result(games[table["game_id"]])))
    return new


def final_recorded_result(log: list[JSON]) -> JSON | None:
    """A game's result as its log last records it: a correction's, else game.finished's."""
    results = [e["payload"].get("result") for e in log if e.get("type") in ("game.finished", "referee.correction")]
    last: JSON | None = results[-1] if results else None
    return last


def _chain_problems(stream: list[JSON]) -> list[str]:
    """The tournament stream checked as a game's log is (service/audit/exports.py), by the same
    functions of events/chain.py: no format downgrade, every link, every payload (the
    tournament's digests are unsalted)."""
    if not stream:
        return ["empty"]
    try:
        chain_format(stream)
        check_links(stream)
        check_payloads(cast(list[Envelope], stream), None)  # linked and re-hashed: sealed envelopes
    except ChainError as exc:
        return [exc.message]
    return []


def main(argv: list[str] | None = None) -> int:
    """``verify-tournament BUNDLE [--key KEY]`` (``-`` reads standard input); exit 0
    when all is well."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "verify-tournament":
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="python -m service verify-tournament")
    parser.add_argument("bundle")
    parser.add_argument("--key", action="append", default=[], help="the server's public key (base64 or a file)")
    try:
        args = parser.parse_args(argv)
    except SystemExit:
        return 2
    from service.audit.cli_keys import read_keys

    try:
        keys = read_keys(args.key)
        if args.bundle == "-":
            bundle = json.load(sys.stdin)
        else:
            with open(args.bundle, encoding="utf-8") as handle:
                bundle = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"cannot read the bundle or key: {exc}", file=sys.stderr)
        return 2
    report = verify_tournament(bundle, keys)
    summary = {k: report[k] for k in ("ok", "checks", "messages")}
    summary["games"] = {gid: r.get("checks") for gid, r in report["games"].items()}
    summary["standings"] = report["standings"]
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
