"""Key rotation takes effect without a restart; a revoked key (a leak) no longer
vouches for anything at this server, while a retired one (routine rotation) does."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from service.audit.exports import parse_lines
from tests.trust.test_verdicts import finished_game


def run_key(app, *args):
    env = {**os.environ, "DATA_DIR": app.config["DATA_DIR"]}
    env.pop("SIGNING_KEY", None)
    done = subprocess.run([sys.executable, "-m", "service", "key", *args], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_rotated_key_is_used_at_once_and_a_revoked_one_vouches_for_nothing(client, app):
    g = finished_game(client, rounds=1)
    old_export = g.export()
    old = parse_lines(old_export)[-1]["head_signature"]["key_id"]
    new = run_key(app, "--rotate")["current"]
    assert new != old
    assert client.get("/api/keys").json["current"] == new  # no restart
    assert parse_lines(g.export())[-1]["head_signature"]["key_id"] == new
    assert client.post("/api/verify", data=old_export).json["ok"]  # retired: still vouches
    listed = run_key(app, "--revoke", old)
    assert {k["key_id"]: k["status"] for k in listed["keys"]}[old] == "revoked"
    assert {k["key_id"]: k["status"] for k in client.get("/api/keys").json["keys"]}[old] == "revoked"
    report = client.post("/api/verify", data=old_export).json
    assert not report["ok"] and report["checks"]["signature"] == "failed"
    assert client.post("/api/verify", data=g.export()).json["ok"]  # the log itself: export it again


def test_the_current_key_is_not_revoked_without_a_rotation(app):
    env = {**os.environ, "DATA_DIR": app.config["DATA_DIR"]}
    env.pop("SIGNING_KEY", None)
    current = run_key(app)["current"]
    done = subprocess.run(
        [sys.executable, "-m", "service", "key", "--revoke", current], capture_output=True, text=True, env=env
    )
    assert done.returncode == 2 and "rotate" in done.stderr


def test_the_offline_verifiers_drop_a_revoked_key_as_the_server_does(client, app, tmp_path, capsys):
    """An export signed with a key that leaked and was revoked: the published key list
    still shows the key (as revoked), and the offline verify (the same key reader serves
    verify-tournament and verify-ratings) must not trust it."""
    from service.entrypoints.cli import verify_command

    g = finished_game(client, rounds=1)
    export = tmp_path / "game.jsonl"
    export.write_text(g.export())
    old = parse_lines(export.read_text())[-1]["head_signature"]["key_id"]
    run_key(app, "--rotate")
    run_key(app, "--revoke", old)
    published = tmp_path / "keys.json"
    published.write_text(json.dumps(client.get("/api/keys").json))
    assert client.post("/api/verify", data=export.read_text()).json["checks"]["signature"] == "failed"
    capsys.readouterr()
    assert verify_command(str(export), [str(published)], None) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["checks"]["signature"] == "failed"
    assert f"revoked key {old}" in err


def test_only_revoked_keys_given_is_an_input_error_not_an_unsigned_pass(client, app, tmp_path, capsys):
    from service.entrypoints.cli import verify_command

    g = finished_game(client, rounds=1)
    export = tmp_path / "game.jsonl"
    export.write_text(g.export())
    old = parse_lines(export.read_text())[-1]["head_signature"]["key_id"]
    run_key(app, "--rotate")
    run_key(app, "--revoke", old)
    only = [k for k in client.get("/api/keys").json["keys"] if k["status"] == "revoked"]
    published = tmp_path / "keys.json"
    published.write_text(json.dumps({"keys": only}))
    assert verify_command(str(export), [str(published)], None) == 2
    assert "every key given is revoked" in capsys.readouterr().err


def test_a_signing_key_that_is_not_ed25519_is_refused_by_name(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from service.signing import load_signer

    pem = (
        ec.generate_private_key(ec.SECP256R1())
        .private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        .decode()
    )
    with pytest.raises(ValueError, match="not an Ed25519 private key"):
        load_signer(str(tmp_path), pem)
