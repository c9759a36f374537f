"""A bad option is 400 ``bad_options`` in every game and writes nothing: options that fail
their schema, and options that pass it but not the table (``Game.check_options``, which
the platform calls before anything is written; a refusal in setup was a 422 or a 500)."""

from __future__ import annotations

import pytest

from projections.games import GAME_PACKAGES, get
from tests.platform.test_bad_input import error_of, unchanged  # noqa: F401 (a fixture)

FAILS_SCHEMA = {
    "caylus": {"lawyer_prestige": 5},
    "carcassonne_castle": {"first_player": "seat1"},
    "shadow_of_the_emperor": {"tiebreak": "coin"},
    "sultans_of_karaya": {"rounds": 0},
    "age_of_rome": {"lure_max_legions": 3},
}

FAILS_TABLE = {
    "shadow_of_the_emperor": ({"first_emperor": 2}, 2),
    "sultans_of_karaya": ({"first_player": 5}, 5),
}
"""Options each schema accepts that the table refuses: a first player beyond the seats."""


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_options_failing_their_schema_are_bad_options(client, unchanged, game):  # noqa: F811
    seats = [f"p{i}" for i in range(get(game).min_seats)]
    r = client.post("/api/games", json={"game": game, "seats": seats, "options": FAILS_SCHEMA[game]})
    assert error_of(r)["code"] == "bad_options"


@pytest.mark.parametrize("game", sorted(FAILS_TABLE))
def test_options_the_table_refuses_are_bad_options(client, unchanged, game):  # noqa: F811
    options, seats = FAILS_TABLE[game]
    r = client.post("/api/games", json={"game": game, "seats": [f"p{i}" for i in range(seats)], "options": options})
    error = error_of(r)
    assert error["code"] == "bad_options" and error["message"]


@pytest.mark.parametrize("game", sorted(FAILS_TABLE))
def test_the_same_options_at_a_larger_table_are_accepted(client, game):
    options, seats = FAILS_TABLE[game]
    r = client.post("/api/games", json={"game": game, "seats": [f"p{i}" for i in range(seats + 1)], "options": options})
    assert r.status_code == 201, r.get_data(as_text=True)[:300]


def test_every_game_checks_its_options_before_setup():
    """check_options is the one place for a table rule: setup trusts what it is given."""
    for game, (options, seats) in FAILS_TABLE.items():
        with pytest.raises(Exception) as caught:
            get(game).check_options({**get(game).options_schema().load({}), **options}, seats)
        assert caught.value.code == "bad_options"


WRONG_TYPE = [
    ("caylus", {"include_jeweller": 1}),
    ("caylus", {"beginner_favours": "yes"}),
    ("caylus", {"lawyer_prestige": "3"}),
    ("sultans_of_karaya", {"rounds": True}),
    ("sultans_of_karaya", {"rounds": 2.5}),
    ("carcassonne_castle", {"first_player": 0}),
]
"""Values marshmallow's own fields would take (1 and "yes" as true, "3" as 3) that the
document's JSON types do not: a new game's options are the types the document names."""


@pytest.mark.parametrize(("game", "options"), WRONG_TYPE)
def test_options_of_another_json_type_are_bad_options(client, unchanged, game, options):  # noqa: F811
    seats = [f"p{i}" for i in range(get(game).min_seats)]
    r = client.post("/api/games", json={"game": game, "seats": seats, "options": options})
    error = error_of(r)
    assert error["code"] == "bad_options" and set(error["details"]["options"]) == set(options)
    tournament = {"table_size": max(2, get(game).min_seats), "rounds": 1, "game_options": options}
    r = client.post("/api/tournaments", json={"game": game, "name": "Club", "options": tournament})
    assert error_of(r)["code"] == "bad_options"


def test_an_integer_option_may_be_written_with_a_zero_fraction(client):
    """4.0 is the integer 4 to JSON Schema 2020-12 (OpenAPI 3.1): taken, and kept as 4."""
    r = client.post("/api/games", json={"game": "caylus", "seats": ["ann", "bob"], "options": {"lawyer_prestige": 3.0}})
    assert r.status_code == 201, r.json
    options = client.get(f"/api/games/{r.json['id']}").json["options"]
    assert options["lawyer_prestige"] == 3 and isinstance(options["lawyer_prestige"], int)
