"""The tournament audit bundle: writing it, and verifying it offline.

A bundle is one JSON document::

    {"format": "tournament-bundle/1",
     "manifest": {"tournament": id, "game": name, "exported_at",
                  "tournament_head": {"seq", "hash"},
                  "games": [{"game_id", "round", "table", "seq", "head_hash", "finished"}]},
     "tournament": [envelope, ...],          # the tournament stream, hash-chained
     "games": {game_id: [envelope, ...]},    # each game's export (seed in game.finished)
     "standings": [...]}                     # the standings as the server computed them

``verify_tournament`` needs nothing but the bundle: it re-checks the tournament chain
and payload schemas, refolds the tournament, re-verifies every game (chain, seed
commitment, refold, result) with the platform's verifier, checks that each reported
result is the one the game's own log reaches and that the manifest names the real
chain heads, then recomputes the standings from scratch and compares them.
``python -m service verify-tournament BUNDLE`` calls ``main``.
"""
from __future__ import annotations

import json
import sys

from marshmallow import ValidationError

from events.envelope import EnvelopeSchema, entry_hash, now_rfc3339
from events.tournament_schemas import SCHEMAS
from projections.tournaments import fold as tfold
from projections.tournaments import standings as tstandings
from projections.tournaments.fold import TournamentError

FORMAT = "tournament-bundle/1"


def build_bundle(service, tid: str) -> dict:
    """The bundle of a tournament as it stands (after catching up finished games)."""
    from .callers import SPECTATOR

    state = service.sync(tid)
    stream = service.events(tid)
    games, listed = {}, []
    for rnd in state["rounds"]:
        for table in rnd["tables"]:
            gid = table["game_id"]
            log = service.platform.export(gid, SPECTATOR)
            games[gid] = log
            listed.append({"game_id": gid, "round": rnd["round"], "table": table["table"],
                           "seq": log[-1]["seq"] if log else 0, "head_hash": log[-1]["hash"] if log else None,
                           "finished": any(e["type"] == "game.finished" for e in log)})
    manifest = {"tournament": tid, "game": state["game"], "exported_at": now_rfc3339(),
                "tournament_head": {"seq": stream[-1]["seq"], "hash": stream[-1]["hash"]}, "games": listed}
    return {"format": FORMAT, "manifest": manifest, "tournament": stream, "games": games,
            "standings": tstandings.compute(state)}


def verify_tournament(bundle: dict) -> dict:
    """``{ok, checks: {...}, games: {id: report}, messages, standings}``; each check is
    "ok", "failed" or "skipped". A bundle of the wrong shape fails, never raises."""
    try:
        return _verify(bundle)
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
        checks = dict.fromkeys(("format", "chain", "fold", "manifest", "games", "results", "standings"), "skipped")
        checks["format"] = "failed"
        return {"ok": False, "checks": checks, "games": {}, "standings": None,
                "messages": [f"the bundle is malformed: {type(exc).__name__}: {exc}"]}


def _verify(bundle: dict) -> dict:
    checks = {"format": "ok", "chain": "skipped", "fold": "skipped", "manifest": "skipped",
              "games": "skipped", "results": "skipped", "standings": "skipped"}
    messages: list[str] = []
    out = {"ok": False, "checks": checks, "games": {}, "messages": messages, "standings": None}

    def fail(check, message):
        checks[check] = "failed"
        messages.append(message)

    if not isinstance(bundle, dict) or bundle.get("format") != FORMAT:
        fail("format", f"not a {FORMAT} document")
        return out
    stream = bundle.get("tournament") or []
    games = bundle.get("games") or {}
    manifest = bundle.get("manifest") or {}

    checks["chain"] = "ok"
    for problem in _chain_problems(stream):
        fail("chain", "tournament stream: " + problem)
    if checks["chain"] != "ok":
        return out

    state = None
    try:
        for envelope in stream:
            SCHEMAS[envelope["type"]]().load(envelope["payload"])
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

    _verify_games(state, in_tournament, games, out, fail)

    if checks["games"] != "failed" and checks["results"] != "failed":
        recomputed = tstandings.compute(_with_game_results(state, games))
        out["standings"] = recomputed
        checks["standings"] = "ok"
        if bundle.get("standings") is not None and bundle["standings"] != recomputed:
            fail("standings", "the bundle's standings differ from the ones recomputed from the games")
        final = next((e["payload"] for e in stream if e["type"] == "tournament.finished"), None)
        if final and final.get("standings") and final["standings"] != recomputed:
            fail("standings", "the standings recorded at the end differ from the recomputed ones")
    out["ok"] = "failed" not in checks.values()
    return out


def _verify_games(state, in_tournament, games, out, fail):
    from .audit import verify

    checks = out["checks"]
    checks["games"] = checks["results"] = "ok"
    for gid, (rnd, table) in in_tournament.items():
        log = games.get(gid) or []
        report = verify(log) if log else {"ok": False, "checks": {}, "messages": ["no log"]}
        out["games"][gid] = report
        if not report["ok"]:
            fail("games", f"game {gid}: " + "; ".join(report.get("messages") or ["verification failed"]))
            continue
        created = log[0]["payload"]
        names = [state["players"][pid]["name"] for pid in table["seats"]]
        if created.get("tournament") != state["id"] or created.get("seats") != names or created.get("game") != state["game"]:
            fail("results", f"game {gid} was not created for this table (tournament, game or seats differ)")
        finished = next((e for e in log if e["type"] == "game.finished"), None)
        reported = table["result"]
        if reported is None:
            continue
        if finished is None:
            fail("results", f"game {gid}: a result was reported but the log has no game.finished")
            continue
        actual = finished["payload"]["result"]
        if [actual["scores"], actual["ranking"]] != [reported["scores"], reported["ranking"]]:
            fail("results", f"game {gid}: the reported result is not the game's own result")
        elif table.get("head_hash") and not any(e["hash"] == table["head_hash"] for e in log):
            fail("results", f"game {gid}: the reported head hash is not in the game's log")


def _with_game_results(state: dict, games: dict) -> dict:
    """The tournament state with each reported result taken from the game's own log."""
    new = json.loads(json.dumps(state))
    for rnd in new["rounds"]:
        for table in rnd["tables"]:
            if table["result"] is None:
                continue
            finished = next(e for e in games[table["game_id"]] if e["type"] == "game.finished")
            result = finished["payload"]["result"]
            table["result"] = {"scores": result["scores"], "ranking": result["ranking"],
                               "forfeited": result.get("forfeited") or []}
    return new


def _chain_problems(stream: list) -> list[str]:
    if not stream:
        return ["empty"]
    schema, prev = EnvelopeSchema(), ""
    for index, envelope in enumerate(stream, start=1):
        try:
            schema.load(envelope)
        except (ValidationError, TypeError) as exc:
            return [f"entry {index} is not an envelope: {exc}"]
        if envelope["seq"] != index:
            return [f"entry {index} says seq {envelope['seq']}"]
        if envelope["prev"] != prev:
            return [f"seq {index}: prev does not match the hash of seq {index - 1}"]
        if entry_hash(envelope) != envelope["hash"]:
            return [f"seq {index}: the content does not match its hash"]
        prev = envelope["hash"]
    return []


def main(argv: list[str] | None = None) -> int:
    """``verify-tournament BUNDLE`` (``-`` reads standard input); exit 0 when all is well."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "verify-tournament":
        argv = argv[1:]
    if len(argv) != 1:
        print("usage: python -m service verify-tournament BUNDLE", file=sys.stderr)
        return 2
    try:
        if argv[0] == "-":
            bundle = json.load(sys.stdin)
        else:
            with open(argv[0], encoding="utf-8") as handle:
                bundle = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"cannot read the bundle: {exc}", file=sys.stderr)
        return 2
    report = verify_tournament(bundle)
    summary = {k: report[k] for k in ("ok", "checks", "messages")}
    summary["games"] = {gid: r.get("checks") for gid, r in report["games"].items()}
    summary["standings"] = report["standings"]
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
