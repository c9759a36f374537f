"""The fresh-machine walkthrough of docs/DEPLOY.md, run as written as far as a machine
without root or containers can: paths moved under a temporary root, ports to free
ones, root-only commands checked for syntax and stood in for, the units verified by
``systemd-analyze`` (when present) and started by a supervisor this test controls, with
their own environment file and state directories, exactly their ``ExecStart=`` lines."""

from __future__ import annotations

import configparser
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.redis_servers import free_port

pytestmark = [
    pytest.mark.xdist_group("durability"),
    pytest.mark.skipif(not shutil.which("redis-server") or not shutil.which("curl"), reason="needs redis-server, curl"),
]
ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)
STAND_INS = ("apt-get ", "useradd ", "git clone ", "python3 -m venv ", ".venv/bin/pip ", "journalctl ", "systemctl ")
START = "systemctl enable --now "


def walkthrough() -> list[str]:
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    block = text.split("<!-- walkthrough", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


class Box:
    """The machine, moved under ``root``: every path and port the walkthrough names."""

    def __init__(self, root: Path) -> None:
        self.root, self.redis_port, self.http_port = root, free_port(), free_port()
        self.moves = [
            ("/srv/boardgames", f"{root}/srv/boardgames"),
            ("/etc/boardgames", f"{root}/etc/boardgames"),
            ("/etc/systemd/system", f"{root}/etc/systemd/system"),
            ("/var/lib/", f"{root}/var/lib/"),
            ("/run/boardgames", f"{root}/run/boardgames"),
            ("6390", str(self.redis_port)),
            ("8000", str(self.http_port)),
        ]

    def render(self, text: str) -> str:
        for old, new in self.moves:
            text = re.sub(rf"(?<![\w/.]){re.escape(old)}", new, text)
        return text

    def checkout(self) -> None:
        """/srv/boardgames: the code as it is, its deploy/ files rendered, the shared venv."""
        for present in ("etc/systemd/system", "var/lib", "run"):  # what any machine has
            (self.root / present).mkdir(parents=True)
        srv = self.root / "srv" / "boardgames"
        srv.mkdir(parents=True)
        for entry in ROOT.iterdir():
            if entry.name not in ("deploy", ".venv", "data", ".git"):
                (srv / entry.name).symlink_to(entry)
        (srv / ".venv").symlink_to(VENV)
        for source in (ROOT / "deploy").rglob("*"):
            target = srv / "deploy" / source.relative_to(ROOT / "deploy")
            if source.is_dir():
                target.mkdir(parents=True, exist_ok=True)
            elif source.suffix != ".pyc":
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(self.render(source.read_text()))
                target.chmod(source.stat().st_mode)

    def script(self, lines: list[str]) -> str:
        out = ["set -eu", 'sudo() { if [ "$1" = "-u" ]; then shift 2; fi; "$@"; }']
        # install's -o/-g need the users that useradd (stood in for) would have made
        out.append(
            'install() { a=""; while [ $# -gt 0 ]; do case "$1" in -o|-g) shift 2;; *) a="$a $1"; shift;; esac; done; command install $a; }'
        )
        for line in lines:
            command = line.removeprefix("sudo ").removeprefix("-u boardgames ")
            if any(stand in command for stand in STAND_INS) or (
                command.startswith("systemd-analyze") and not shutil.which("systemd-analyze")
            ):
                check = subprocess.run(["bash", "-n"], input=line, text=True, capture_output=True)
                assert check.returncode == 0, check.stderr
                out.append(f"echo {shlex.quote('stood in: ' + line)}")
            else:
                out.append(self.render(line))
        return "\n".join(out) + "\n"

    def run(self, lines: list[str]) -> str:
        env = {"PATH": os.environ["PATH"], "HOME": str(self.root), "LANG": "C.UTF-8"}
        done = subprocess.run(["bash", "-c", self.script(lines)], capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout + done.stderr


class Supervisor:
    """``systemctl start`` for units installed under the box: each unit's ExecStart with
    its EnvironmentFile, WorkingDirectory, StateDirectory and RuntimeDirectory, and
    nothing else of this test's environment."""

    def __init__(self, box: Box) -> None:
        self.box, self.running, self.logs = box, [], {}

    def start(self, unit: str) -> None:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.optionxform = str
        parser.read(self.box.root / "etc" / "systemd" / "system" / unit)
        service = parser["Service"]
        env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8"}
        if "EnvironmentFile" in service:
            for line in Path(service["EnvironmentFile"]).read_text().splitlines():
                if line.strip() and not line.startswith("#"):
                    key, _, value = line.partition("=")
                    env[key.strip()] = value.strip()
        for kind in ("StateDirectory", "RuntimeDirectory"):
            if kind in service:
                base = "var/lib" if kind == "StateDirectory" else "run"
                path = self.box.root / base / service[kind]
                path.mkdir(parents=True, exist_ok=True)
                path.chmod(int(service.get(kind + "Mode", "0755"), 8))
        log = open(self.box.root / f"{unit}.log", "w")  # noqa: SIM115 (closed in stop)
        self.logs[unit] = log
        proc = subprocess.Popen(
            shlex.split(service["ExecStart"]),
            env=env,
            cwd=service.get("WorkingDirectory", "/"),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.running.append((proc, getattr(signal, service.get("KillSignal", "SIGTERM"))))

    def stop(self) -> None:
        for proc, kill in reversed(self.running):
            if proc.poll() is None:
                proc.send_signal(kill)
            try:
                proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for log in self.logs.values():
            log.close()


def test_the_walkthrough_runs_as_written(tmp_path):
    box = Box(tmp_path)
    box.checkout()
    lines = walkthrough()
    start = next(i for i, line in enumerate(lines) if START in line)
    before = box.run(lines[:start])
    units = lines[start].split(START, 1)[1].split()
    assert units == ["boardgames-redis.service", "boardgames.service"], "storage first"
    assert "systemd-analyze" not in before or "error" not in before.lower()
    supervisor = Supervisor(box)
    try:
        supervisor.start(units[0])
        time.sleep(0.5)
        supervisor.start(units[1])
        after = box.run(lines[start + 1 :])
    finally:
        supervisor.stop()
    assert '{"status":"ready"}' in after
    health = json.loads(next(line for line in after.splitlines() if line.startswith('{"redis"') or '"version"' in line))
    assert health["status"] == "ok" and health["redis"]["kind"] == "external"
    assert '"current"' in after  # the public key, to publish
    backup = tmp_path / "var" / "lib" / "boardgames" / "backups" / "first"
    assert sorted(os.listdir(backup)) == ["keys", "manifest.json", "redis.rdb"]
    assert (tmp_path / "var" / "lib" / "boardgames" / "signing-key.pem").stat().st_mode & 0o077 == 0
    assert (tmp_path / "var" / "lib" / "boardgames-redis" / "appendonlydir").is_dir(), "the AOF is written"
    served = (tmp_path / "boardgames.service.log").read_text()
    assert f"Listening at: http://127.0.0.1:{box.http_port}" in served
    assert f"DATA_DIR {tmp_path}/var/lib/boardgames" in served


def test_the_units_name_each_other_and_their_own_port():
    units = ROOT / "deploy" / "systemd"
    assert sorted(p.name for p in units.iterdir()) == ["boardgames-redis.service", "boardgames.service"]
    app = (units / "boardgames.service").read_text()
    assert "Requires=boardgames-redis.service" in app and "redis-server.service" not in app
    assert "EnvironmentFile=/etc/boardgames/boardgames.env" in app and "StateDirectory=boardgames" in app
    assert "StateDirectory=boardgames-redis" in (units / "boardgames-redis.service").read_text()
    env = (ROOT / "deploy" / "boardgames.env").read_text()
    conf = (ROOT / "deploy" / "redis.conf").read_text()
    assert "REDIS_URL=redis://127.0.0.1:6390/0" in env and "\nport 6390\n" in conf and "6379" not in env
    assert "DATA_DIR=/var/lib/boardgames" in env
