"""Command line: ``verify FILE``, ``verify-tournament BUNDLE``, ``verify-ratings EXPORT...
--live RATINGS`` (service/audit/cli_ratings.py), ``key`` and ``golden
--game X`` (record golden playthroughs; see service/entrypoints/golden.py).

``bots`` runs the computer seats (``service/entrypoints/bots.py``); ``maintenance
on|off`` holds and resumes every running clock (``service/entrypoints/maintenance.py``).

``archive`` moves idle finished and abandoned games' logs out of Redis
(``service/entrypoints/archive.py``).

``backup DIR`` and ``restore DIR`` copy the store and the signing keys out and back in,
and check what was restored (``service/entrypoints/backup.py``).

Every command that works on a data directory (``key``, ``bots``, ``backup``,
``restore``) first says which one on stderr, and where that came from; ``key --rotate``
and ``--revoke`` refuse to guess it (``DATA_DIR`` must be set).

``verify`` and ``verify-tournament`` take ``--key`` (the server's public key, base64
or a file; repeat it for retired keys) to check signatures; ``verify`` also takes
``--receipts FILE`` (JSON Lines of receipts a player kept). ``key`` prints the
server's public key (``--rotate`` replaces it, keeping the old one published;
``--revoke KEY_ID`` marks a retired key revoked)."""

from __future__ import annotations

import argparse
import json
import sys


def verify_command(path: str, key_args: list[str], receipts_path: str | None) -> int:
    from service.audit.cli_keys import read_keys
    from service.audit.exports import UNSIGNED, Malformed, parse_lines, verify

    try:
        keys = read_keys(key_args)
        with open(path, encoding="utf-8") as handle:
            lines = parse_lines(handle.read())
        receipts = None
        if receipts_path:
            with open(receipts_path, encoding="utf-8") as handle:
                receipts = parse_lines(handle.read())
    except (OSError, ValueError) as exc:
        print(f"cannot read the export, key or receipts: {exc}", file=sys.stderr)
        return 2
    try:
        report = verify(lines, keys=keys, receipts=receipts)
    except Malformed as exc:
        print(f"the export is malformed: {exc}", file=sys.stderr)
        return 2
    if not keys:
        report["authenticity"] = UNSIGNED
    print(json.dumps(report, indent=2))
    return 0 if report["ok"] else 1


def key_command(rotate: bool, revoke: str | None = None) -> int:
    import os

    from service.config import from_env
    from service.entrypoints.backup import data_dir_line
    from service.signing import load_signer, published
    from service.signing import revoke as revoke_key
    from service.signing import rotate as rotate_key

    config = from_env()
    print(data_dir_line(config), file=sys.stderr)
    if (rotate or revoke) and not os.environ.get("DATA_DIR") and not config["SIGNING_KEY"]:
        print(
            "set DATA_DIR to the server's data directory: changing keys in ./data would leave the server's untouched",
            file=sys.stderr,
        )
        return 2
    if revoke:
        try:
            revoke_key(config["DATA_DIR"], revoke)
        except ValueError as exc:
            print(str(exc), file=sys.stderr)
            return 2
    if rotate:
        if config["SIGNING_KEY"]:
            print("the key comes from SIGNING_KEY: rotate it there", file=sys.stderr)
            return 2
        rotate_key(config["DATA_DIR"])
    signer = load_signer(config["DATA_DIR"], config["SIGNING_KEY"])
    print(json.dumps(published(signer, config["DATA_DIR"]), indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service")
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("verify", help="re-check an exported game log")
    one.add_argument("file")
    one.add_argument("--key", action="append", default=[], help="the server's public key (base64 or a file)")
    one.add_argument("--receipts", help="JSON Lines of receipts to check the export against")
    many = commands.add_parser("verify-tournament", help="re-check a tournament bundle")
    many.add_argument("bundle")
    many.add_argument("--key", action="append", default=[])
    rated = commands.add_parser(
        "verify-ratings", help="recompute every rating from game exports, compare with the live"
    )
    rated.add_argument("exports", nargs="+")
    rated.add_argument("--live", required=True, help="GET /api/ratings: a file or the URL")
    rated.add_argument("--key", action="append", default=[])
    key = commands.add_parser("key", help="print the server's public signing key")
    key.add_argument("--rotate", action="store_true", help="replace the key; the old one stays published")
    key.add_argument("--revoke", metavar="KEY_ID", help="a retired key no longer vouches (after a leak)")
    commands.add_parser("bots", help="run the computer seats and evaluation jobs (gunicorn's master starts it)")
    commands.add_parser("notices", help="send notices by e-mail and Web Push (docs/DEPLOY.md)")
    saved = commands.add_parser("backup", help="copy the store and the signing keys into a new directory")
    saved.add_argument("dir")
    back = commands.add_parser("restore", help="restore a backup onto a fresh DATA_DIR and check it")
    back.add_argument("dir")
    hold = commands.add_parser("maintenance", help="pause (on) or resume (off) every running clock")
    hold.add_argument("state", choices=["on", "off"])
    hold.add_argument("--reason", default="maintenance", help="recorded in each clock.paused/clock.resumed entry")
    commands.add_parser("lobby-index", help="file every stored game in the lobby's indexes (an upgrade step)")
    archive = commands.add_parser("archive", help="move idle finished and abandoned games out of Redis")
    archive.add_argument("--finished-days", type=float, default=7, help="finished this long ago (default 7)")
    archive.add_argument("--abandoned-days", type=float, default=30, help="unrated, no move this long (default 30)")
    from service.entrypoints import golden

    golden.add_arguments(commands.add_parser("golden", help="record new golden playthroughs (adds, never overwrites)"))
    args = parser.parse_args(argv)
    if args.command in ("backup", "restore"):
        from service.entrypoints import backup

        return backup.backup(args.dir) if args.command == "backup" else backup.restore(args.dir)
    if args.command == "bots":
        from service.config import from_env
        from service.entrypoints.backup import data_dir_line
        from service.entrypoints.bots import main as run_bots

        print(data_dir_line(from_env()), file=sys.stderr)
        run_bots()
        return 0
    if args.command == "archive":
        from service.entrypoints import archive as archiving

        return archiving.main(args.finished_days * 86400, args.abandoned_days * 86400)

    if args.command == "notices":
        from service.entrypoints.notices import main as send_notices

        send_notices()
        return 0
    if args.command == "maintenance":
        from service.entrypoints import maintenance

        return maintenance.main(args.state, args.reason)
    if args.command == "lobby-index":
        from service.entrypoints import lobby_index

        return lobby_index.main()
    if args.command == "verify":
        return verify_command(args.file, args.key, args.receipts)
    if args.command == "verify-ratings":
        from service.audit import cli_ratings

        return cli_ratings.main(args.exports, args.live, args.key)
    if args.command == "key":
        return key_command(args.rotate, args.revoke)
    if args.command == "golden":
        return golden.main(args)
    from service.audit import bundles as tournament_bundle

    return tournament_bundle.main([args.bundle, *sum((["--key", k] for k in args.key), [])])
