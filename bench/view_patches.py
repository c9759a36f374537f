"""What a push sends of a real game's view: each of the five games played to the end by
random legal moves (tests/games/harness.py), and at each step the view of seat 0 and of
a spectator whole, against the patch the push sends instead (service/http/json_patch.py:
the patch, or the whole when that is shorter), and what computing the patch costs.
Asserts that each patch gives the view. Prints per game and viewer.

    .venv/bin/python bench/view_patches.py [--seed s1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from projections.games import registry  # noqa: E402
from service.http import json_patch  # noqa: E402
from tests.games import harness  # noqa: E402

SEATS = {"caylus": 3, "carcassonne_castle": 2, "shadow_of_the_emperor": 3, "sultans_of_karaya": 5, "age_of_rome": 3}


def size(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", default="s1")
    args = parser.parse_args()
    for name, seats in SEATS.items():
        game = registry()[name]
        states = harness.play(game, seats, args.seed, keep_states=True, check_views=False, check_schemas=False).states
        for viewer in (0, None):
            whole, sent, spent = [], [], 0.0
            before = game.view(states[0], viewer)
            for state in states[1:]:
                view = game.view(state, viewer)
                start = time.process_time()
                ops = json_patch.smaller(before, view)
                spent += time.process_time() - start
                assert ops is None or json_patch.apply(before, ops) == view
                whole.append(size(view))
                sent.append(size(view) if ops is None else size(ops))
                before = view
            n = len(whole)
            print(
                f"{name:22} {'seat 0' if viewer == 0 else 'spectator':9} {n:4} steps  view {whole[0]:>6} B at the "
                f"first step, {whole[-1]:>6} B at the last, median {statistics.median(whole):>6.0f} B;  sent: median "
                f"{statistics.median(sent):>5.0f} B, p90 {sorted(sent)[int(n * 0.9)]:>5} B, largest {max(sent):>5} B;  "
                f"patch computed in {1e6 * spent / n:4.0f} µs of CPU a step",
                flush=True,
            )


if __name__ == "__main__":
    main()
