"""Verify says ok only for what it checked; exports, receipts, corrections and
tournament bundles carry the server's Ed25519 signature."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from events.envelope import entry_hash
from service.audit.exports import parse_lines, verify
from tests.platform.helpers import GameHandle


def finished_game(client, rounds=2):
    g = GameHandle(client, options={"rounds": rounds})
    g.act(0, "note", {"text": "a"})
    while g.meta()["status"] == "active":
        g.play_first()
    return g


def server_keys(client):
    from events.signing import keyring

    return keyring([k["public_key"] for k in client.get("/api/keys").json["keys"]])


def rechain(entries, seed=None):
    """What a forger can do once the seed is public: every digest and hash recomputed."""
    prev = ""
    for e in entries:
        if seed is not None and "v" in e:
            from events.envelope import payload_digest, payload_nonce

            e["payload_digest"] = payload_digest(payload_nonce(seed, e["seq"]), e["payload"])
        e["prev"] = prev
        e["hash"] = entry_hash(e)
        prev = e["hash"]
    return entries


def dump(lines):
    return "\n".join(json.dumps(line) for line in lines)


def test_an_entry_marked_redacted_cannot_hide_a_flipped_winner(client):
    g = finished_game(client)
    lines = parse_lines(g.export())
    finished = next(line for line in lines if line.get("type") == "game.finished")
    finished["payload"]["result"]["ranking"].reverse()
    finished["redacted"] = True
    report = client.post("/api/verify", data=dump(lines)).json
    assert not report["ok"] and report["verdict"] != "verified"


def test_an_edited_and_rehashed_export_fails_its_signature(client):
    g = finished_game(client)
    lines = parse_lines(g.export())
    entries = [line for line in lines if "seq" in line]
    seed = entries[-1]["payload"]["seed"]
    entries[2]["ts"] = "2020-01-01T00:00:00.000000Z"  # nothing the refold reads: only the signature can tell
    rechain(entries, seed)
    report = client.post("/api/verify", data=dump(lines)).json
    assert not report["ok"]
    assert report["checks"]["signature"] == "failed"
    assert report["checks"]["refold"] == "ok"


def test_a_sealed_export_checks_its_chain_and_claims_nothing_about_its_contents(client):
    g = GameHandle(client)
    g.act(0, "note", {"text": "a"})
    g.act(0, "roll")
    for token in (None, g.referee):
        report = client.post("/api/verify", data=g.export(token)).json
        assert report["verdict"] == "sealed" and not report["ok"]
        assert report["checks"]["chain"] == "ok" and report["checks"]["refold"] == "sealed"


def test_game_created_names_its_game_and_the_export_ends_with_a_signed_head(client):
    g = finished_game(client, rounds=1)
    lines = parse_lines(g.export())
    assert lines[0]["payload"]["game_id"] == g.id
    signed = lines[-1]["head_signature"]
    assert (signed["game_id"], signed["seq"], signed["head"]) == (g.id, lines[-2]["seq"], lines[-2]["hash"])
    assert verify(lines, keys=server_keys(client))["checks"]["signature"] == "ok"
    unsigned = verify(lines)
    assert unsigned["ok"] and unsigned["checks"]["signature"] == "unchecked"
    assert any("integrity only, not authenticity" in m for m in unsigned["messages"])


def test_receipts_name_the_first_rewritten_seq(client):
    g = GameHandle(client, options={"rounds": 2})
    receipts = []
    while g.meta()["status"] == "active":
        answer = g.play_first().json
        receipts.append(answer["receipt"])
        assert answer["receipt"]["game_id"] == g.id and answer["receipt"]["seq"] >= answer["seq"]
    lines = parse_lines(g.export())
    keys = server_keys(client)
    assert verify(lines, keys=keys, receipts=receipts)["checks"]["receipts"] == "ok"
    entries = lines[:-1]
    entries[3]["ts"] = "2020-01-01T00:00:00.000000Z"
    rechain(entries, entries[-1]["payload"]["seed"])
    report = verify(entries, receipts=receipts)
    assert report["checks"]["receipts"] == "failed" and report["first_bad_seq"] == 4
    forged = [{**receipts[0], "head": "0" * 64}]
    assert verify(lines, keys=keys, receipts=forged)["checks"]["receipts"] == "failed"


def test_legacy_exports_still_verify_and_say_what_they_cannot_prove(client):
    g = finished_game(client)
    legacy, prev = [], ""
    for e in parse_lines(g.export())[:-1]:
        old = {k: v for k, v in e.items() if k not in ("v", "payload_digest", "hash")}
        old["prev"] = prev
        old["hash"] = entry_hash(old)
        prev = old["hash"]
        legacy.append(old)
    report = verify(legacy)  # offline, without a key: integrity only (the server's own verify
    assert report["ok"] and report["verdict"] == "legacy" and report["format"] == "legacy"  # wants its signature)
    assert any("legacy chain format" in m for m in report["messages"])


def test_the_key_is_published_printed_and_kept_private(client, app, tmp_path):
    published = client.get("/api/keys").json
    current = published["keys"][0]
    assert current["status"] == "current" and current["algorithm"] == "Ed25519"
    key_file = Path(app.config["DATA_DIR"]) / "signing-key.pem"
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    env = {**os.environ, "DATA_DIR": app.config["DATA_DIR"]}
    env.pop("SIGNING_KEY", None)
    shown = subprocess.run([sys.executable, "-m", "service", "key"], capture_output=True, text=True, env=env)
    assert shown.returncode == 0 and json.loads(shown.stdout)["keys"][0]["public_key"] == current["public_key"]


def test_rotation_keeps_the_old_key_published(tmp_path):
    from service.signing import load_signer, published, rotate

    old = load_signer(str(tmp_path))
    new = rotate(str(tmp_path))
    listed = published(new, str(tmp_path))
    assert new.key_id != old.key_id and listed["current"] == new.key_id
    assert {k["key_id"]: k["status"] for k in listed["keys"]} == {new.key_id: "current", old.key_id: "retired"}


def test_the_cli_checks_a_key_and_receipts(client, tmp_path):
    g = GameHandle(client, options={"rounds": 1})
    receipts = [g.play_first().json["receipt"], g.play_first().json["receipt"]]
    export, key = tmp_path / "game.jsonl", tmp_path / "keys.json"
    export.write_text(g.export())
    key.write_text(json.dumps(client.get("/api/keys").json))
    (tmp_path / "receipts.jsonl").write_text(dump(receipts))
    code = "import sys; from tests.conftest import TOY; from service.entrypoints.cli import main; sys.exit(main(sys.argv[1:]))"
    ok = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "verify",
            str(export),
            "--key",
            str(key),
            "--receipts",
            str(tmp_path / "receipts.jsonl"),
        ],
        capture_output=True,
        text=True,
    )
    report = json.loads(ok.stdout)
    assert ok.returncode == 0 and report["checks"]["signature"] == "ok" and report["checks"]["receipts"] == "ok"
    bare = subprocess.run([sys.executable, "-c", code, "verify", str(export)], capture_output=True, text=True)
    assert json.loads(bare.stdout)["authenticity"] == "unsigned: integrity only, not authenticity"


def test_verify_bounds_its_work(client, app):
    g = finished_game(client, rounds=1)
    config = app.config
    saved = {k: config[k] for k in ("VERIFY_MAX_BYTES", "VERIFY_MAX_EVENTS", "VERIFY_SECONDS")}
    try:
        config["VERIFY_MAX_BYTES"] = 200
        assert client.post("/api/verify", data=g.export()).status_code == 413
        config.update(saved, VERIFY_MAX_EVENTS=2)
        r = client.post("/api/verify", data=g.export())
        assert r.status_code == 413 and r.json["error"]["code"] == "too_many_events"
        long = GameHandle(client, options={"rounds": 40})
        while long.meta()["status"] == "active":
            long.act(long.meta()["to_act"][0], "roll")
        config.update(saved, VERIFY_SECONDS=0)
        r = client.post("/api/verify", data=long.export())
        assert r.status_code == 422 and r.json["error"]["code"] == "too_costly"
    finally:
        config.update(saved)


def test_a_game_begun_in_the_legacy_format_goes_on_in_format_2(client):
    """A game in play during the upgrade: a legacy prefix, then format-2 entries."""
    g = finished_game(client)
    entries, prev = [], ""
    for e in parse_lines(g.export())[:-1]:
        e = {k: v for k, v in e.items() if not (e["seq"] <= 3 and k in ("v", "payload_digest"))}
        e["prev"] = prev
        e["hash"] = entry_hash(e)
        prev = e["hash"]
        entries.append(e)
    report = verify(entries)
    assert report["ok"] and report["verdict"] == "legacy"
    entries[5] = {k: v for k, v in entries[5].items() if k not in ("v", "payload_digest")}
    assert verify(entries)["verdict"] == "failed"
