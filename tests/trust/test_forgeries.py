"""Forgeries an adversary can build from public material (after the end the seed is in
the log): the server's own /api/verify and the offline verifier refuse each."""
from __future__ import annotations

from events.envelope import entry_hash
from service.audit import parse_lines, verify
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


def test_a_legacy_export_the_server_signed_still_verifies_there(client, platform):
    """A game recorded before payload digests is exported with the server's signed head."""
    from events.signing import head_statement

    g = finished_game(client)
    legacy = as_legacy([line for line in parse_lines(g.export()) if "seq" in line])
    trailer = {"head_signature": platform.signer.sign(head_statement(g.id, legacy[-1]["seq"], legacy[-1]["hash"]))}
    report = client.post("/api/verify", data=dump([*legacy, trailer])).json
    assert report["ok"] and report["verdict"] == "legacy" and report["checks"]["signature"] == "ok"


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
