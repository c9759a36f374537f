"""Command line: ``verify FILE``, ``verify-tournament BUNDLE``, ``verify-ratings EXPORT...
--live RATINGS`` (service/audit/cli_ratings.py), ``key`` and ``golden
--game X`` (record golden playthroughs; see service/audit/golden.py).

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
    from service.audit.exports import UNSIGNED, parse_lines, verify

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
    report = verify(lines, keys=keys, receipts=receipts)
    if not keys:
        report["authenticity"] = UNSIGNED
    print(json.dumps(report, indent=2))
    return 0 if report["ok"] else 1


def key_command(rotate: bool, revoke: str | None = None) -> int:
    from service.audit.signing_keys import load_signer, published
    from service.audit.signing_keys import revoke as revoke_key
    from service.audit.signing_keys import rotate as rotate_key
    from service.config import from_env

    config = from_env()
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
    from service.audit import golden

    golden.add_arguments(commands.add_parser("golden", help="record new golden playthroughs (adds, never overwrites)"))
    args = parser.parse_args(argv)
    if args.command == "bots":
        from service.services.bot_runner import main as run_bots

        run_bots()
        return 0
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


if __name__ == "__main__":
    sys.exit(main())
