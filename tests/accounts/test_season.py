"""A whole season through the API: 12 accounts, 30 ranked games of three game types at
mixed player counts (random legal moves), then ``python -m service verify-ratings``
recomputes every rating from the 30 exports and finds the live numbers; a changed
number or a missing export is named."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from service.adapters.connection import start_embedded
from service.entrypoints.cli import main

from .helpers import bound_game, new_account, play_out

# (game, seat counts, games, options): the toy game (1-4 seats) and two of the real games
SEASON = [("toy", (2, 3, 4), 20, {"rounds": 2}), ("caylus", (2, 3), 5, {}), ("shadow_of_the_emperor", (2, 3), 5, {})]


@pytest.fixture(scope="module")
def season_client(tmp_path_factory):
    """A server of its own (its own Redis): the live ratings are the season's alone."""
    from service.app import create_app

    server, url = start_embedded(str(tmp_path_factory.mktemp("season-redis")))
    app = create_app(
        {
            "REDIS_URL": url,
            "CLOCK_SWEEP_SECONDS": 0,
            "TESTING": True,
            "DATA_DIR": str(tmp_path_factory.mktemp("season-data")),
        }
    )
    yield app.test_client()
    server.shutdown()


def verify_ratings(folder, exports, live, capsys) -> tuple[int, dict]:
    """``python -m service verify-ratings`` in this process (where the toy game is
    registered; a separate process would not know it)."""
    live_path = folder / "live.json"
    live_path.write_text(json.dumps(live))
    capsys.readouterr()
    code = main(["verify-ratings", *map(str, exports), "--live", str(live_path)])
    return code, json.loads(capsys.readouterr().out)


def test_a_season_recomputed_from_its_exports(season_client, tmp_path, capsys):
    client, rand = season_client, random.Random(2026)
    accounts = [new_account(client, f"member{i:02d}-") for i in range(12)]
    counts, exports = Counter(), []
    for game, seat_counts, how_many, options in SEASON:
        for k in range(how_many):
            seats = seat_counts[k % len(seat_counts)]  # every count, whatever the games' own draws
            table = rand.sample(accounts, seats)
            created = bound_game(client, [s for _, s in table], game=game, options=options)
            meta = play_out(client, created, rand)
            assert meta["ranked"] and meta["accounts"] == {str(i): n for i, (n, _) in enumerate(table)}
            counts[(game, seats)] += 1
            path = tmp_path / f"{created['id']}.jsonl"
            path.write_text(client.get(f"/api/games/{created['id']}/export").get_data(as_text=True))
            exports.append(path)
    assert sum(counts.values()) == 30 and len({g for g, _ in counts}) == 3
    assert all(len({n for g, n in counts if g == game}) > 1 for game, *_ in SEASON)  # mixed player counts
    live = client.get("/api/ratings").get_json()
    assert live["results"] == 30 and len(live["games"]) == 30
    assert sum(e[2] for table in live["ratings"].values() for e in table.values()) == sum(
        n * c for (_, n), c in counts.items()
    )  # every seat of every game counted once

    code, report = verify_ratings(tmp_path, exports, live, capsys)
    assert code == 0, report
    assert report["ok"] and report["rated_games"] == 30 and report["differences"] == []

    game, table = next(iter(live["ratings"].items()))
    name = next(iter(table))
    changed = json.loads(json.dumps(live))
    changed["ratings"][game][name][0] += 0.5
    code, wrong = verify_ratings(tmp_path, exports, changed, capsys)
    assert code == 1
    assert any(name in line and game in line for line in wrong["differences"])

    code, missing = verify_ratings(tmp_path, exports[1:], live, capsys)
    assert code == 1
    assert any(exports[0].stem in line and "no export" in line for line in missing["differences"])

    tampered = tmp_path / "tampered.jsonl"  # one binding moved to another account: the chain breaks
    lines = [json.loads(line) for line in exports[-1].read_text().splitlines()]
    bound = next(e for e in lines if e.get("type") == "seat.bound")
    bound["payload"]["account"] = next(n for n, _ in accounts if n != bound["payload"]["account"])
    tampered.write_text("".join(json.dumps(e) + "\n" for e in lines))
    code, bad = verify_ratings(tmp_path, [*exports[:-1], tampered], live, capsys)
    assert code == 1 and any("does not verify" in line for line in bad["differences"])

    # the profile's history is the fold's: one point per rated game, ending at the live rating
    profile = client.get(f"/api/accounts/{name}").get_json()
    history = profile["ratings"][game]["history"]
    assert len(history) == table[name][2] and history[-1]["mu"] == table[name][0]
