"""``python -m service golden``: records complete bot games through the platform as new
golden files, and never overwrites one (a recorded log is evidence; only a new rules
version adds logs, beside the old)."""

from __future__ import annotations

import subprocess
import sys

from events.envelope import canonical_json
from projections.games import get as get_game
from service.entrypoints import golden
from tests.golden.test_golden import recorded

GAME = "shadow_of_the_emperor"  # the shortest complete games
V = f"v{get_game(GAME).rules_version}"  # files are named for the rules version they record


def run_tool(*args):
    command = [sys.executable, "-m", "service", "golden", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_the_tool_records_a_verifiable_log_and_refuses_to_overwrite_it(tmp_path):
    first = run_tool("--game", GAME, "--seats", "2", "--count", "1", "--out", str(tmp_path))
    assert first.returncode == 0, first.stderr
    log = tmp_path / GAME / f"{V}-2p-01.jsonl.gz"
    final = tmp_path / GAME / f"{V}-2p-01.final.json.gz"
    envelopes, expected = recorded(log)
    assert envelopes[0]["type"] == "game.created" and envelopes[-1]["type"] == "game.finished"
    assert envelopes[-1]["payload"]["seed"]
    assert canonical_json(golden.final_record(golden.refold(envelopes))) == canonical_json(expected)
    assert set(expected["views"]) == {"0", "1", "spectator", "referee"}
    before = (log.read_bytes(), final.read_bytes())

    again = run_tool("--game", GAME, "--seats", "2", "--count", "1", "--out", str(tmp_path))
    assert again.returncode == 2
    assert "refusing to overwrite" in again.stderr and str(log) in again.stderr
    assert (log.read_bytes(), final.read_bytes()) == before
    assert sorted(p.name for p in (tmp_path / GAME).iterdir()) == [final.name, log.name]


def test_missing_adds_only_new_names_and_options_are_named_in_the_file(tmp_path):
    (tmp_path / GAME).mkdir()
    (tmp_path / GAME / f"{V}-2p-01.jsonl.gz").write_bytes(b"taken")
    written = golden.record(GAME, seats=2, count=2, out=tmp_path, missing=True, say=lambda _: None)
    assert [p.name for p in written] == [f"{V}-2p-02.jsonl.gz"]
    assert (tmp_path / GAME / f"{V}-2p-01.jsonl.gz").read_bytes() == b"taken"
    written = golden.record(GAME, options={"tiebreak": "thalers_then_emperor"}, out=tmp_path, say=lambda _: None)
    assert [p.name for p in written] == [f"{V}-3p-tiebreak=thalers_then_emperor-01.jsonl.gz"]
    envelopes, _ = recorded(written[0])
    assert envelopes[0]["payload"]["options"]["tiebreak"] == "thalers_then_emperor"


def test_the_full_set_is_every_player_count_and_every_non_default_option_value():
    caylus = get_game("caylus")
    planned = golden.plan(caylus)
    assert [(n, c) for n, o, c, trail in planned if not o and not trail] == [(2, 5), (3, 5), (4, 5), (5, 5)]
    assert [(n, o, c) for n, o, c, trail in planned if trail] == [(3, {}, 1)]
    assert {next(iter(o.items())) for n, o, c, trail in planned if o} == {
        ("include_jeweller", True),
        ("lawyer_prestige", 3),
        ("church_payment", "deniers"),
        ("beginner_favours", True),
        ("house_limit", 8),
        ("favour_lawyer_payment", "cloth"),
        ("locked_favour_columns", "blocked"),
    }
    solo = {"solo_difficulty": "hard"}
    assert golden.plan(get_game("age_of_rome"), options=solo) == [(1, solo, 1, False)]
    label = golden.stem(2, 3, {"house_limit": 8, "include_jeweller": True}, 4)
    assert label == "v2-3p-house_limit=8,include_jeweller=true-04"
