"""Key rotation takes effect without a restart; a revoked key (a leak) no longer
vouches for anything at this server, while a retired one (routine rotation) does."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
