"""Undo benchmark: prints figures, asserts nothing.

Folds (as ``verify`` does, in memory) a log of 1,000 plain cycles (a note, then a
roll) and a log of 1,000 undo cycles (a note, an undo back to the last roll, then a
roll), and prints the time of each and their ratio. Each undo goes back to a step
after the previous undo, the case in which a fold that refolds to answer an undo
re-runs every earlier one. The goal is a ratio of at most 3.

    .venv/bin/python bench/undo.py [--cycles N] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from marshmallow import Schema, fields  # noqa: E402

from events.envelope import seal  # noqa: E402
from events.rng import commitment  # noqa: E402
from projections.fold import InMemoryHistory  # noqa: E402
from projections.games import registry  # noqa: E402
from tests.toygame import ToyGame  # noqa: E402

SEED = "b" * 64
TS = "2026-01-01T00:00:00.000000Z"


class LongOptions(Schema):
    rounds = fields.Integer(load_default=3)


class LongToy(ToyGame):
    """The platform tests' toy game, allowed as many rounds as the benchmark needs."""

    name = "bench-toy"
    options_schema = LongOptions


def build(cycles: int, undo: bool) -> list[dict]:
    entries, prev = [], ""

    def add(type_, actor, payload):
        nonlocal prev
        envelope = seal(len(entries) + 1, type_, actor, payload, prev, None, TS, SEED)
        entries.append(envelope)
        prev = envelope["hash"]
        return envelope["seq"]

    add(
        "game.created",
        {"role": "system"},
        {
            "game": "bench-toy",
            "seats": ["a", "b"],
            "options": {"rounds": cycles},
            "seed_commitment": commitment(SEED),
            "clock": None,
        },
    )
    point = 1
    for i in range(cycles):
        seat = {"seat": i % 2}
        add("bench-toy.note", seat, {"text": "a"})
        if undo:
            add("game.undo", seat, {"to_seq": point})
        point = add("bench-toy.roll", seat, {})
    return entries


def timed(entries: list[dict], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        final = InMemoryHistory(entries, SEED).final()
        best = min(best, time.perf_counter() - start)
    assert final["seq"] == len(entries)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    registry()["bench-toy"] = LongToy()
    plain, undone = build(args.cycles, False), build(args.cycles, True)
    t_plain, t_undo = timed(plain, args.repeat), timed(undone, args.repeat)
    print(f"fold of {args.cycles} plain cycles ({len(plain)} entries): {1000 * t_plain:.1f} ms")
    print(f"fold of {args.cycles} undo cycles  ({len(undone)} entries): {1000 * t_undo:.1f} ms")
    print(f"ratio undo/plain: {t_undo / t_plain:.2f} (goal <= 3)")


if __name__ == "__main__":
    main()
