"""``python -m service backup DIR`` and ``python -m service restore DIR``.

A backup directory holds everything a server needs to continue: ``redis.rdb`` (Redis's
point-in-time snapshot of every stream and key, service/adapters/backup.py), ``keys/``
(the signing key, the VAPID key of Web Push, and the retired and revoked public keys of ``DATA_DIR``: signatures
already given must still verify, and new ones be made under the same key), and
``manifest.json`` (what was copied, the current key id, a SHA-256 of every file).

A restore goes onto a *fresh* data directory and an *empty* Redis (the embedded one under
the new ``DATA_DIR``, or ``REDIS_URL``), then checks what it restored with the audit code:
every game's chain, contents and stored signatures (service/audit/exports.py), every
tournament bundle (service/audit/bundles.py), the ratings refolded from the games'
exports against the live ones (service/audit/cli_ratings.py), and the signing key
against the manifest. It prints what it restored and exits 1 if anything fails.

No seat is charged for the time between backup and restore: the clock sweepers'
heartbeat is restored as old as the backup, so the server's first start credits every
running clock with the time since (``clock.credited``, docs/DEPLOY.md), and games held
by ``maintenance on`` at backup time stay held until ``maintenance off``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any, cast

from events.shapes import JSON
from events.signing import export_statement, keyring, trusted
from service.adapters import backup as store_backup
from service.adapters.connection import UNAVAILABLE, connect, start_embedded
from service.adapters.durability import DurabilityCheck
from service.audit.bundles import verify_tournament
from service.audit.cli_ratings import differences, recompute
from service.audit.exports import TRAILER, verify
from service.config import from_env
from service.services.callers import Caller
from service.signing import KEY_FILE, RETIRED, REVOKED, load_signer, published
from service.vapid import KEY_FILE as VAPID_KEY_FILE

FORMAT = "boardgames-backup/1"
SNAPSHOT = "redis.rdb"
KEYS = "keys"
MANIFEST = "manifest.json"
REFEREE = Caller(referee=True, operator=True)


def data_dir_line(config: dict[str, Any]) -> str:
    """Which data directory a command uses, and where that choice came from."""
    source = "DATA_DIR" if os.environ.get("DATA_DIR") else "the default ./data: DATA_DIR is not set"
    return f"data directory: {os.path.abspath(config['DATA_DIR'])} ({source})"


def backup(target: str) -> int:
    config = from_env()
    print(data_dir_line(config), file=sys.stderr)
    out = Path(target)
    if out.exists() and any(out.iterdir()):
        print(f"{out} is not empty: a backup goes into a new directory", file=sys.stderr)
        return 2
    data = Path(config["DATA_DIR"])
    with _redis_of(config, data, create=False) as url:
        out.mkdir(parents=True, exist_ok=True)
        os.chmod(out, 0o700)  # the signing key and the seeds are in it
        try:
            store_backup.snapshot(url, out / SNAPSHOT)
        except store_backup.BackupError as exc:
            print(f"backup failed: {exc}", file=sys.stderr)
            return 2
    copied = _copy_keys(data, out / KEYS)
    if config["SIGNING_KEY"]:
        print("the signing key comes from SIGNING_KEY: keep that secret with this backup", file=sys.stderr)
    signer = load_signer(str(data), config["SIGNING_KEY"])
    manifest = {
        "format": FORMAT,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "data_dir": os.path.abspath(data),
        "key_id": signer.key_id,
        "key_files": copied,
        "sha256": {name: _sha256(out / name) for name in [SNAPSHOT, *(f"{KEYS}/{f}" for f in copied)]},
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    print(json.dumps({"backup": os.path.abspath(out), "key_id": signer.key_id, "key_files": copied}, indent=2))
    return 0


def restore(source: str) -> int:
    config = from_env()
    print(data_dir_line(config), file=sys.stderr)
    given = Path(source)
    try:
        manifest = json.loads((given / MANIFEST).read_text())
        if manifest.get("format") != FORMAT:
            raise ValueError(f"not a backup of this server (format {manifest.get('format')!r})")
        for name, digest in manifest["sha256"].items():
            if _sha256(given / name) != digest:
                raise ValueError(f"{name} does not match its checksum: the backup is damaged")
    except (OSError, ValueError, KeyError) as exc:
        print(f"cannot restore from {given}: {exc}", file=sys.stderr)
        return 2
    data = Path(config["DATA_DIR"])
    if (data / KEY_FILE).exists() or (data / "redis.db").exists() or (data / "appendonlydir").exists():
        print(f"{data} already holds a server's data: restore into a fresh DATA_DIR", file=sys.stderr)
        return 2
    with _redis_of(config, data, create=True) as url:
        refusal = _target_refusal(config, url)
        if refusal:  # before anything is written
            print(refusal, file=sys.stderr)
            return 2
        data.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(data, 0o700)
        for name in manifest["key_files"]:
            _place(given / KEYS / name, data / name)
        with store_backup.served(given / SNAPSHOT) as snapshot:
            copied = store_backup.copy_every_key(snapshot, store_backup.raw_client(url))
        report = check_restored(config, url, data, manifest)
    report = {"restored_keys": copied, **report}
    after_restore(report)
    print(json.dumps(report, indent=2))
    return 0 if report["ok"] else 1


def after_restore(report: dict[str, Any]) -> None:
    """Say what becomes of the restored games' clocks."""
    report["clocks"] = (
        "credited: the heartbeat is as old as the backup, so the server's first start credits "
        "every running clock with the time since (clock.credited); games held by maintenance "
        "stay held until `python -m service maintenance off`"
    )


def check_restored(config: dict[str, Any], url: str, data: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """Every game, tournament and rating as the audit code sees them after a restore."""
    from service.bootstrap import build

    signer = load_signer(str(data), config["SIGNING_KEY"])
    keys = keyring(trusted(published(signer, str(data))))
    built = build(connect(url), signer, snapshot_every=config["SNAPSHOT_EVERY"])
    client = connect(url)
    problems: list[str] = []
    if signer.key_id != manifest["key_id"]:
        problems.append(f"the signing key is {signer.key_id}, the backup's was {manifest['key_id']}")
    exports: list[list[JSON]] = []
    verdicts: dict[str, int] = {}
    for game_id in store_backup.ids_of(client, store_backup.GAME_PATTERN):
        lines = cast(list[JSON], built.games.export(game_id, REFEREE))  # an envelope is a JSON object
        trailer = signer.sign(export_statement(game_id, lines[-1]["seq"], lines[-1]["hash"]))
        report = verify([*lines, {TRAILER: trailer}], keys=keys)
        built.log.state(game_id)  # the fold from the restored log and seed
        verdicts[report["verdict"]] = verdicts.get(report["verdict"], 0) + 1
        if report["verdict"] not in ("verified", "legacy", "sealed"):
            problems.append(f"game {game_id}: {report['verdict']}: {'; '.join(report['messages'])}")
        exports.append(lines)
    tournaments = store_backup.ids_of(client, store_backup.TOURNAMENT_PATTERN)
    for tid in tournaments:
        checked = verify_tournament(built.tournaments.bundle(tid), keys)
        if not checked["ok"]:
            problems.append(f"tournament {tid}: {'; '.join(checked['messages'])}")
    numbers, heads = recompute(exports)
    problems += [f"ratings: {d}" for d in differences(built.ratings.everything(), numbers, heads)]
    return {
        "ok": not problems,
        "data_dir": os.path.abspath(data),
        "redis": _shown(url),
        "games": len(exports),
        "game_verdicts": verdicts,
        "tournaments": len(tournaments),
        "rated_games": len(heads),
        "key_id": signer.key_id,
        "problems": problems,
    }


class _redis_of:
    """The Redis a command works on: ``REDIS_URL``; else the embedded Redis of ``data``,
    the running server's (its socket answers) or one started for the command."""

    def __init__(self, config: dict[str, Any], data: Path, create: bool) -> None:
        self._config, self._data, self._create = config, data, create
        self._server: Any = None

    def __enter__(self) -> str:
        if self._config["REDIS_URL"]:
            return str(self._config["REDIS_URL"])
        running = f"unix://{os.path.abspath(self._data / 'redis.sock')}"
        if (self._data / "redis.sock").exists():
            try:
                connect(running).ping()
                return running
            except UNAVAILABLE:
                pass
        if not self._create and not self._data.is_dir():
            raise SystemExit(f"no data directory {os.path.abspath(self._data)} (set DATA_DIR)")
        self._server, url = start_embedded(str(self._data), appendfsync=self._config["APPENDFSYNC"])
        return str(url)

    def __exit__(self, *_: object) -> None:
        if self._server is not None:
            self._server.shutdown()


def _target_refusal(config: dict[str, Any], url: str) -> str | None:
    client = connect(url)
    if client.dbsize():
        return f"the Redis at {_shown(url)} is not empty: restore into an empty one"
    reasons = DurabilityCheck(client, config["APPENDFSYNC"], config["REDIS_DURABILITY_CHECK"]).reasons()
    if reasons:
        return "the target Redis would not keep the restored data: " + "; ".join(reasons)
    return None


def _copy_keys(data: Path, target: Path) -> list[str]:
    """The key files of ``data`` copied under ``target``; their relative names."""
    names = [name for name in (KEY_FILE, VAPID_KEY_FILE) if (data / name).is_file()]
    for folder in (RETIRED, REVOKED):
        if (data / folder).is_dir():
            names += sorted(f"{folder}/{p.name}" for p in (data / folder).iterdir() if p.is_file())
    for name in names:
        _place(data / name, target / name)
    return names


def _place(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    shutil.copyfile(source, target)
    os.chmod(target, 0o600)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _shown(url: str) -> str:
    """``url`` without its password."""
    head, at, tail = url.rpartition("@")
    return f"{head.split('//')[0]}//***@{tail}" if at else url
