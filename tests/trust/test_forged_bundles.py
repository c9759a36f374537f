"""Forged tournament bundles: everything a forger can recompute (game chains with the
revealed seeds, the manifest, the standings) is recomputed; only the server's signature
over the whole bundle tells, and a receipt or a correction's signature cannot stand in."""

from __future__ import annotations

import copy
import json

from service.audit.bundles import verify_tournament
from tests.tournaments.bots import played_cup
from tests.trust.test_verdicts import rechain, server_keys


def finished_bundle(client):
    tid, _ = played_cup(client, seed=5)
    return client.get(f"/api/tournaments/{tid}/export").get_json()


def rewritten(bundle):
    """One game's entry changed where no refold looks (its ts), its chain, the manifest
    and the signature's digest recomputed; the signature itself cannot be."""
    forged = copy.deepcopy(bundle)
    gid, log = next(iter(forged["games"].items()))
    log[1]["ts"] = "2020-01-01T00:00:00.000000Z"
    rechain(log, log[-1]["payload"]["seed"])
    for line in forged["manifest"]["games"]:
        if line["game_id"] == gid:
            line["head_hash"] = log[-1]["hash"]
    return forged


def test_a_rehashed_bundle_fails_its_signature_and_an_unsigned_one_says_so(client):
    bundle = finished_bundle(client)
    keys = server_keys(client)
    assert verify_tournament(bundle, keys)["ok"]
    forged = rewritten(bundle)
    report = verify_tournament(forged, keys)
    assert not report["ok"] and report["checks"]["signature"] == "failed"
    unsigned = {k: v for k, v in forged.items() if k != "signature"}
    assert not verify_tournament(unsigned, keys)["ok"]
    offline = verify_tournament(unsigned)  # without a key: integrity only, and it says so
    assert offline["checks"]["signature"] == "unsigned"
    assert any("integrity only, not authenticity" in m for m in offline["messages"])


def test_another_signed_statement_cannot_sign_a_bundle(client):
    bundle = finished_bundle(client)
    gid, log = next(iter(bundle["games"].items()))
    export = client.get(f"/api/games/{gid}/export").get_data(as_text=True).splitlines()
    statement = json.loads(export[-1])["head_signature"]  # signed by the server, about a game
    forged = {**rewritten(bundle), "signature": statement}
    assert verify_tournament(forged, server_keys(client))["checks"]["signature"] == "failed"


def test_a_tournament_entry_downgraded_to_the_legacy_format_fails_the_chain(client):
    """The bundle's chain check is the audit's: a legacy entry after a format-2 one is
    refused (the format is never downgraded), as it is in a game's log."""
    bundle = {k: v for k, v in finished_bundle(client).items() if k != "signature"}
    stream = bundle["tournament"]
    for key in ("v", "payload_digest"):
        del stream[-1][key]
    rechain(stream)
    bundle["manifest"]["tournament_head"]["hash"] = stream[-1]["hash"]
    report = verify_tournament(bundle)
    assert not report["ok"] and report["checks"]["chain"] == "failed"
    assert any("legacy entry after a format-2 one" in m for m in report["messages"])


def test_a_stream_that_stops_folding_is_reported_check_by_check(client):
    """A tournament stream whose entry no longer folds (its type rewritten, the chain
    rehashed) fails the fold at that entry, and the standings recorded at its end are
    not confirmed: a report of each check, never "the bundle is malformed"."""
    bundle = {k: v for k, v in finished_bundle(client).items() if k != "signature"}
    stream = bundle["tournament"]
    assert stream[1]["type"] == "player.registered" and stream[-1]["type"] == "tournament.finished"
    stream[1]["type"] = "tournament.created"
    rechain(stream)
    bundle["manifest"]["tournament_head"]["hash"] = stream[-1]["hash"]
    report = verify_tournament(bundle)
    assert not report["ok"]
    assert report["checks"]["format"] == "ok" and report["checks"]["chain"] == "ok"
    assert report["checks"]["fold"] == "failed" and report["checks"]["standings"] == "failed"
    assert not any("malformed" in m for m in report["messages"])
