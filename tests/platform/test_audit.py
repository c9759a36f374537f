"""Export and verify: the chain, the seed commitment, a full refold, the result;
a flipped byte anywhere is reported at the seq where the chain breaks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.platform.helpers import GameHandle


@pytest.fixture()
def finished_export(client):
    g = GameHandle(client, options={"rounds": 3})
    g.act(0, "note", {"text": "a"})
    while g.meta()["status"] == "active":
        g.play_first()
    return g.export()


def verify(client, text):
    return client.post("/api/verify", data=text).json


def test_a_finished_export_verifies(client, finished_export):
    report = verify(client, finished_export)
    assert report == {
        "ok": True,
        "verdict": "verified",
        "format": "2",
        "first_bad_seq": None,
        "messages": [],
        "game": "toy",
        "rules_version": 1,
        "checks": {
            "chain": "ok",
            "payloads": "ok",
            "game_id": "ok",
            "commitment": "ok",
            "refold": "ok",
            "result": "ok",
            "signature": "ok",
            "receipts": "none",
            "current": "ok",
        },
    }


def test_the_export_is_json_lines_with_the_seed_at_the_end(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "roll")
    g.act(1, "roll")
    r = client.get(g.url("/export"))
    assert r.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in r.get_data(as_text=True).splitlines()]
    assert lines[-2]["type"] == "game.finished" and len(lines[-2]["payload"]["seed"]) == 64
    assert lines[-1]["head_signature"]["head"] == lines[-2]["hash"]


def test_a_flipped_byte_is_reported_at_its_seq(client, finished_export):
    lines = finished_export.splitlines()
    for target in range(len(lines) - 1):  # every entry; the last line is the signed head
        tampered = list(lines)
        tampered[target] = (
            tampered[target].replace('"seat":0', '"seat":1', 1)
            if '"seat":0' in tampered[target]
            else tampered[target].replace('"ts":"2', '"ts":"3', 1)
        )
        report = verify(client, "\n".join(tampered))
        assert not report["ok"]
        assert report["first_bad_seq"] == target + 1


def test_a_reordered_log_is_caught(client, finished_export):
    lines = finished_export.splitlines()
    lines[2], lines[3] = lines[3], lines[2]
    assert verify(client, "\n".join(lines))["first_bad_seq"] == 3


def test_a_rechained_forgery_fails_the_refold_or_result(client, finished_export):
    """Someone who recomputes every digest and hash after editing the result (the seed
    is public by then) is caught by the refold, and by the signature."""
    from events.envelope import entry_hash, payload_digest, payload_nonce

    entries = [json.loads(line) for line in finished_export.splitlines()]
    finished = entries[-2]
    finished["payload"]["result"]["scores"][0] += 1
    finished["payload_digest"] = payload_digest(
        payload_nonce(finished["payload"]["seed"], finished["seq"]), finished["payload"]
    )
    finished["hash"] = entry_hash(finished)
    report = verify(client, "\n".join(json.dumps(e) for e in entries))
    assert not report["ok"] and report["checks"]["result"] == "failed" and report["checks"]["signature"] == "failed"


def test_a_wrong_seed_fails_the_commitment(client, finished_export):
    from events.envelope import entry_hash

    entries = [json.loads(line) for line in finished_export.splitlines()]
    entries[-2]["payload"]["seed"] = "0" * 64
    entries[-2]["hash"] = entry_hash(entries[-2])
    report = verify(client, "\n".join(json.dumps(e) for e in entries))
    assert report["checks"]["commitment"] == "failed"


def test_an_ongoing_game_verifies_its_chain_and_waits_for_the_seed(client):
    g = GameHandle(client)
    g.act(0, "note", {"text": "a"})
    report = verify(client, g.export())
    assert report["verdict"] == "sealed" and not report["ok"]
    assert report["checks"]["chain"] == "ok" and report["checks"]["refold"] == "sealed"


def test_garbage_is_a_400(client):
    r = client.post("/api/verify", data="{not json")
    assert r.status_code == 400 and r.json["error"]["code"] == "malformed"


def test_the_cli_verifies_a_file(client, finished_export, tmp_path, redis_url):
    path = tmp_path / "game.jsonl"
    path.write_text(finished_export)
    code = (
        "import sys; from tests.conftest import TOY; from service.entrypoints.cli import main; "
        f"sys.exit(main(['verify', {str(path)!r}]))"
    )
    ok = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert ok.returncode == 0 and '"ok": true' in ok.stdout
    path.write_text(finished_export.replace('"seat":1', '"seat":0', 1))
    bad = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert bad.returncode == 1 and '"first_bad_seq"' in bad.stdout


@pytest.mark.parametrize("seed", [12345, ["a"], {"s": 1}, True])
def test_a_seed_that_is_not_text_is_a_400(client, finished_export, seed):
    """A finished game's seed is hex text; any other JSON there is a malformed export,
    refused with a 400 (it once reached the commitment's hash as an int: a 500)."""
    from events.envelope import entry_hash

    entries = [json.loads(line) for line in finished_export.splitlines()]
    entries[-2]["payload"]["seed"] = seed
    entries[-2]["hash"] = entry_hash(entries[-2])
    r = client.post("/api/verify", data="\n".join(json.dumps(e) for e in entries))
    assert r.status_code == 400 and r.json["error"]["code"] == "malformed"
