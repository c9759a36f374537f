"""``python -m service verify-ratings EXPORT... --live RATINGS``: recompute every rating
from game exports and compare with the live ones.

Each export is checked first (``service/audit/exports.py``: chain, digests, seed, refold,
recorded result; signatures with ``--key``); its bindings (``seat.bound``) and last
recorded result feed the same fold the server runs (``projections/ratings.py``). The
live ratings are the answer of ``GET /api/ratings``, given as a file or a URL. Exit 0
when every number and every rated game agree, 1 with the differences, 2 when an
input cannot be read.
"""

from __future__ import annotations

import json
import sys
import urllib.request

from events.shapes import JSON
from projections import ratings as rfold


def load_live(source: str) -> JSON:
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=30) as answer:  # the auditor names the server
            live: JSON = json.load(answer)
            return live
    with open(source, encoding="utf-8") as handle:
        stored: JSON = json.load(handle)
        return stored


def recompute(exports: list[list[JSON]]) -> tuple[JSON, dict[str, str]]:
    """(numbers, {game_id: head}) of the rated games among ``exports``."""
    results = [r for r in (rfold.results_from_export(lines) for lines in exports) if r is not None]
    return rfold.numbers(rfold.fold(results)), {r["game_id"]: r["head"] for r in results}


def differences(live: JSON, numbers: JSON, heads: dict[str, str]) -> list[str]:
    out = []
    live_heads = live.get("games", {})
    for game_id in sorted(set(live_heads) | set(heads)):
        if game_id not in heads:
            out.append(f"game {game_id}: rated live, but no export of it was given (or it is not rateable)")
        elif game_id not in live_heads:
            out.append(f"game {game_id}: rateable by its export, but not in the live ratings")
        elif live_heads[game_id] != heads[game_id]:
            out.append(
                f"game {game_id}: rated at head {live_heads[game_id][:12]}, export ends at {heads[game_id][:12]}"
            )
    live_numbers = live.get("ratings", {})
    for game in sorted(set(live_numbers) | set(numbers)):
        mine, theirs = numbers.get(game, {}), live_numbers.get(game, {})
        for account in sorted(set(mine) | set(theirs)):
            if mine.get(account) != theirs.get(account):
                out.append(
                    f"{game} / {account}: live {theirs.get(account)}, recomputed {mine.get(account)} "
                    "([mu, sigma, games])"
                )
    return out


def main(paths: list[str], live_source: str, key_args: list[str]) -> int:
    from service.audit.cli_keys import read_keys
    from service.audit.exports import parse_lines, split_trailer, verify

    try:
        keys = read_keys(key_args)
        exports = []
        for path in paths:
            with open(path, encoding="utf-8") as handle:
                exports.append(parse_lines(handle.read()))
        live = load_live(live_source)
    except (OSError, ValueError) as exc:
        print(f"cannot read an export, a key or the live ratings: {exc}", file=sys.stderr)
        return 2
    problems = []
    for path, lines in zip(paths, exports):
        report = verify(lines, keys=keys)
        if not report["ok"]:
            problems.append(f"{path}: the export does not verify ({report['verdict']})")
    numbers, heads = recompute([split_trailer(lines)[0] for lines in exports])
    problems += differences(live, numbers, heads)
    summary = {
        "ok": not problems,
        "exports": len(paths),
        "rated_games": len(heads),
        "accounts": sum(len(t) for t in numbers.values()),
        "parameters": rfold.parameters(),
        "differences": problems,
    }
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0 if not problems else 1
