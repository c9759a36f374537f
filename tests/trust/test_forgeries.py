"""Forgeries an adversary can build from public material (after the end the seed is in
the log): the server's own /api/verify and the offline verifier refuse each."""

from __future__ import annotations

from events.envelope import entry_hash
from service.audit.exports import parse_lines, verify
from tests.platform.helpers import GameHandle, auth
from tests.trust.test_verdicts import dump, finished_game, rechain, server_keys


def forged_finished_export(client):
    """A finished export rewritten so that it still refolds (a forfeit moved to the other
    seat, the result recomputed to match), every digest and hash recomputed with the
    revealed seed, and the signature line dropped (a forger cannot make it)."""
    g = GameHandle(client, options={"rounds": 1})
    client.post(g.url("/referee/forfeit"), json={"seat": 0, "reason": "x"}, headers=g.ref())
    entries = [line for line in parse_lines(g.export()) if "seq" in line]
    forfeit, finished = entries[1], entries[-1]
    assert finished["type"] == "game.finished" and forfeit["payload"]["seat"] == 0
    forfeit["payload"]["seat"] = 1
    result = finished["payload"]["result"]
    result["ranking"].reverse()
    result["forfeited"] = [1]
    assert verify(rechain(entries, finished["payload"]["seed"]))["checks"]["refold"] == "ok"
    return entries


def as_legacy(entries):
    prev, out = "", []
    for e in entries:
        old = {k: v for k, v in e.items() if k not in ("v", "payload_digest", "hash")}
        old["prev"] = prev
        old["hash"] = entry_hash(old)
        prev = old["hash"]
        out.append(old)
    return out


def test_the_servers_verify_refuses_a_rehashed_unsigned_export(client):
    forged = forged_finished_export(client)
    report = client.post("/api/verify", data=dump(forged)).json
    assert not report["ok"] and report["verdict"] == "failed"
    assert report["checks"]["signature"] == "failed"


def test_the_servers_verify_refuses_a_rewritten_log_posing_as_legacy(client):
    report = client.post("/api/verify", data=dump(as_legacy(forged_finished_export(client)))).json
    assert not report["ok"] and report["verdict"] == "failed"


def test_a_legacy_game_exported_by_the_server_still_verifies_there(client, services):
    """A game recorded before payload digests (stored here as such) is exported with the
    server's signed closing line, and its own verify accepts it as legacy."""
    from events.store import game_stream

    g = finished_game(client)
    gid = "legacy" + g.id
    entries = [line for line in parse_lines(g.export()) if "seq" in line]
    entries[0]["payload"]["game_id"] = gid
    legacy = as_legacy(entries)
    services.store.keep_seed(game_stream(gid), services.log.seed(g.id))
    assert services.store.append(game_stream(gid), 0, None, legacy).status == "ok"
    export = client.get(f"/api/games/{gid}/export").get_data()
    report = client.post("/api/verify", data=export).json
    assert report["ok"] and report["verdict"] == "legacy" and report["checks"]["signature"] == "ok", report
    assert report["checks"]["current"] == "ok"


def test_an_export_that_reveals_the_seed_hides_nothing(client):
    """An entry marked redacted in a finished export, its payload altered: the seed is in the
    file, so nothing may be hidden; the verdict is failed, not sealed."""
    g = GameHandle(client, options={"rounds": 1})
    client.post(g.url("/referee/forfeit"), json={"seat": 0, "reason": "x"}, headers=g.ref())
    lines = parse_lines(g.export())
    lines[1]["payload"]["seat"] = 1
    lines[1]["redacted"] = True
    for report in (verify(lines, keys=server_keys(client)), client.post("/api/verify", data=dump(lines)).json):
        assert report["verdict"] == "failed" and report["first_bad_seq"] == 2, report


def test_a_finished_fork_of_a_live_game_keeps_its_seed_while_the_source_plays(client):
    """Its seed would give every entry's nonce, and the source's hidden state in the fork's
    game.created could be found by hashing candidates against the digest."""
    source = GameHandle(client, options={"rounds": 2})
    source.act(0, "roll")
    fork = client.post(source.url("/fork"), json={"at_seq": 2}, headers=source.ref()).json
    url = f"/api/games/{fork['id']}"
    client.post(f"{url}/referee/forfeit", json={"seat": 0, "reason": "x"}, headers=auth(fork["referee_token"]))
    for token in (None, fork["seats"][1]["token"]):
        events = client.get(f"{url}/events", headers=auth(token)).json["events"]
        export = parse_lines(client.get(f"{url}/export", headers=auth(token)).get_data(as_text=True))
        for log in (events, export):
            assert all("seed" not in e.get("payload", {}) for e in log if e.get("type") == "game.finished")
        assert client.post("/api/verify", data=dump(export)).json["verdict"] == "sealed"
    while source.meta()["status"] == "active":
        source.act(source.meta()["to_act"][0], "roll")
    events = client.get(f"{url}/events").json["events"]
    assert events[-1]["type"] == "game.finished" and events[-1]["payload"]["seed"]
    assert client.post("/api/verify", data=client.get(f"{url}/export").get_data()).json["verdict"] == "verified"


def corrected_game(client):
    g = GameHandle(client, options={"rounds": 1})
    finishing = client.post(g.url("/referee/forfeit"), json={"seat": 0, "reason": "x"}, headers=g.ref()).json
    before = g.export()
    r = client.post(
        g.url("/referee/correct"),
        json={"adjustments": [{"seat": 0, "points": 50}], "reason": "miscount"},
        headers=g.ref(),
    )
    assert r.status_code == 201
    return g, finishing["receipt"], before


def test_a_receipt_cannot_pose_as_the_signature_of_an_export_cut_short(client):
    """Cut at game.finished, dropping the correction, and end it with the receipt for the
    finishing action: a receipt signs a head, not "this was the whole log"."""
    g, receipt, _ = corrected_game(client)
    entries = [line for line in parse_lines(g.export()) if "seq" in line]
    cut = [e for e in entries if e["type"] != "referee.correction"]
    assert receipt["seq"] == cut[-1]["seq"] and receipt["head"] == cut[-1]["hash"]
    lines = [*cut, {"head_signature": receipt}]
    for report in (verify(lines, keys=server_keys(client)), client.post("/api/verify", data=dump(lines)).json):
        assert not report["ok"] and report["checks"]["signature"] == "failed", report


def test_the_server_says_when_an_export_is_behind_its_log(client):
    """An export taken before a correction is genuine, but no longer the whole story."""
    g, _, before = corrected_game(client)
    report = client.post("/api/verify", data=before).json
    assert report["checks"]["current"] == "behind"
    assert any("referee.correction" in m for m in report["messages"])
    now = client.post("/api/verify", data=g.export()).json
    assert now["ok"] and now["checks"]["current"] == "ok"
    assert parse_lines(g.export())[-1]["head_signature"]["kind"] == "export"
