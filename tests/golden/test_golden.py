"""The golden corpus: complete games recorded through the platform (``python -m service
golden``), refolded on every run. Each log must fold, with today's platform fold and
rules, to exactly the result and the final views recorded beside it (compared as
canonical JSON, byte for byte), and verify offline with every check ok. A change that
breaks one is a rules change: it belongs behind a new rules version, and the old logs
keep folding as they were recorded.
"""

from __future__ import annotations

import functools
import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from events.envelope import canonical_json
from projections.games import get as get_game
from service.audit.exports import split_trailer, verify
from service.entrypoints import golden

HERE = Path(__file__).resolve().parent
LOGS = sorted(HERE.glob("*/*.jsonl.gz"))
GAMES = ("caylus", "carcassonne_castle", "shadow_of_the_emperor", "sultans_of_karaya", "age_of_rome")


def recorded(log: Path) -> tuple[list[dict], dict]:
    """The log's entries (without the signed head an export ends with) and its record."""
    envelopes, _ = split_trailer([json.loads(line) for line in golden.read_lines(log)])
    final_path = log.with_name(log.name.replace(".jsonl.gz", ".final.json.gz"))
    with gzip.open(final_path, "rt", encoding="utf-8") as handle:
        return envelopes, json.loads(handle.read())


@pytest.mark.parametrize("log", LOGS, ids=[f"{p.parent.name}/{p.name[: -len('.jsonl.gz')]}" for p in LOGS])
def test_a_golden_log_refolds_to_its_recorded_views_and_result_and_verifies(log):
    envelopes, expected = recorded(log)
    final = golden.final_record(golden.refold(envelopes))
    assert final["status"] == "finished"
    assert canonical_json(final["result"]) == canonical_json(expected["result"])
    for viewer, view in expected["views"].items():
        assert canonical_json(final["views"][viewer]) == canonical_json(view), f"the view of {viewer} differs"
    assert canonical_json(final) == canonical_json(expected)
    report = verify(envelopes)
    assert report["ok"], report
    assert {k: report["checks"][k] for k in ("chain", "commitment", "refold", "result")} == dict.fromkeys(
        ("chain", "commitment", "refold", "result"), "ok"
    )
    assert "failed" not in report["checks"].values()
    assert (report["game"], report["rules_version"]) == (expected["game"], expected["rules_version"])


@functools.cache
def corpus() -> dict:
    """{(game, rules version, seats, changed options as JSON, trail): number of logs}."""
    out: dict = {}
    for log in LOGS:
        envelopes, _ = split_trailer([json.loads(line) for line in golden.read_lines(log)])
        created = envelopes[0]["payload"]
        game = get_game(created["game"])
        changed = canonical_json(golden.changed_options(game, created["options"]))
        key = (
            created["game"],
            created.get("rules_version", 1),
            len(created["seats"]),
            changed,
            golden.has_trail(envelopes),
        )
        out[key] = out.get(key, 0) + 1
    return out


@pytest.mark.parametrize("name", GAMES)
def test_the_corpus_covers_every_player_count_and_option_of_the_current_rules_version(name):
    """At least 5 logs per player count, one per non-default option value and one trail
    (platform events too), under the rules version new games start with: raising a version
    means recording its logs (``python -m service golden --game NAME``)."""
    game = get_game(name)
    have = corpus()
    for seats, options, count, trail in golden.plan(game):
        key = (name, game.rules_version, seats, canonical_json(options), trail)
        assert have.get(key, 0) >= count, f"{key}: {have.get(key, 0)} golden logs, {count} needed"


def test_every_log_is_stored_compact_and_the_corpus_stays_small():
    total = 0
    for path in HERE.glob("*/*.gz"):
        total += path.stat().st_size
        for line in golden.read_lines(path):
            assert line == canonical_json(json.loads(line)), f"{path.name}: not one canonical JSON per line"
    assert total < 20 * 1024 * 1024


def test_the_command_line_verify_names_the_rules_version_of_a_golden_log(tmp_path):
    log = next(p for p in LOGS if p.parent.name == "caylus")
    path = tmp_path / "game.jsonl"
    path.write_text("".join(line + "\n" for line in golden.read_lines(log)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "service", "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["ok"]
    assert (report["game"], report["rules_version"]) == ("caylus", 1)
