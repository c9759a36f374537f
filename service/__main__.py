"""Command line: ``python -m service verify FILE``, ``verify-tournament BUNDLE`` and
``golden --game X`` (record golden playthroughs; see service/golden.py)."""
from __future__ import annotations

import argparse
import json
import sys


def verify_command(path: str) -> int:
    from service.audit import parse_lines, verify

    with open(path, encoding="utf-8") as handle:
        report = verify(parse_lines(handle.read()))
    print(json.dumps(report, indent=2))
    return 0 if report["ok"] else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("verify", help="re-check an exported game log").add_argument("file")
    commands.add_parser("verify-tournament", help="re-check a tournament bundle").add_argument("bundle")
    commands.add_parser("bots", help="run the computer seats and evaluation jobs (gunicorn's master starts it)")
    from service import golden

    golden.add_arguments(commands.add_parser("golden", help="record new golden playthroughs (adds, never overwrites)"))
    args = parser.parse_args(argv)
    if args.command == "bots":
        from service.bot_runner import main as run_bots

        run_bots()
        return 0
    if args.command == "verify":
        return verify_command(args.file)
    if args.command == "golden":
        return golden.main(args)
    from service import tournament_bundle

    return tournament_bundle.main([args.bundle])


if __name__ == "__main__":
    sys.exit(main())
