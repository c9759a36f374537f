"""One name check for game seats, tournament players and annotation authors: invisible
characters (every default-ignorable code point: Hangul fillers, variation selectors,
the combining grapheme joiner, zero-width characters) and blank-looking letters do not
make a name different, a name shows something, role words are reserved."""

from __future__ import annotations

import pytest

from tests.platform.helpers import GameHandle

# Each looks like "Alice" on screen.
ALICE_LOOKALIKES = [
    "Alice\u3164",
    "Alice\u115f",
    "Alice\u1160",
    "Alice\uffa0",
    "Alic\u034fe",
    "Alice\ufe0f",
    "Alice\U000e0041",
    "Alice\u2800",
    "A\u200dlice",
    "Alice\u180e",
    "\ufeffAlice",
]
# Each shows nothing (or only a mark with nothing to sit on).
BLANK = ["\u3164", "\u2800", "\u115f\u1160", "\ufe0f", "\u034f", "\u0301\u0301", " \u200b "]
ROLES = ["referee", "director", "Director", "REFEREE\u115f", "refere\u034fe", "system\u3164", "admin"]


@pytest.fixture()
def tournament(client):
    r = client.post("/api/tournaments", json={"game": "toy", "name": "Open", "options": {"table_size": 2, "rounds": 1}})
    assert r.status_code == 201, r.json
    return r.json["id"]


def register(client, tid, name):
    return client.post(f"/api/tournaments/{tid}/players", json={"name": name})


@pytest.mark.parametrize("name", ALICE_LOOKALIKES)
def test_a_player_name_with_invisible_letters_is_the_name_without_them(client, tournament, name):
    assert register(client, tournament, "Alice").status_code == 201
    r = register(client, tournament, name)
    assert r.status_code == 409 and r.json["error"]["code"] == "already_registered", (name, r.json)


@pytest.mark.parametrize("name", BLANK)
def test_a_blank_looking_player_name_is_refused(client, tournament, name):
    r = register(client, tournament, name)
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_name", (name, r.json)


@pytest.mark.parametrize("name", ROLES)
def test_role_words_are_not_player_names(client, tournament, name):
    r = register(client, tournament, name)
    assert r.status_code == 403 and r.json["error"]["code"] == "reserved_name", (name, r.json)


def test_a_stored_name_is_shown_without_invisible_letters(client, tournament):
    r = register(client, tournament, "Bob\u3164 \ufe0fSmith")
    assert r.status_code == 201 and r.json["name"] == "Bob Smith"


@pytest.mark.parametrize("name", ["referee\u3164", "refere\u034fe", "REFEREE\u115f", "system\u3164", "ann\ufe0f"])
def test_annotation_authors_cannot_pass_for_a_role_or_a_seat(client, name):
    g = GameHandle(client, seats=("ann", "bob"))
    r = client.post(g.url("/annotations"), json={"seq": 1, "text": "B wins", "kind": "comment", "author": name})
    assert r.status_code == 403 and r.json["error"]["code"] == "reserved_name", (name, r.json)


@pytest.mark.parametrize(
    "seats",
    [["A", "A"], ["A", "\u200b"], ["Alice", "Alice\u3164"], ["Alice", "ALICE"], ["\u2800", "B"], ["referee", "B"]],
)
def test_game_seats_are_distinct_visible_names(client, seats):
    r = client.post("/api/games", json={"game": "toy", "seats": seats})
    assert r.status_code in (400, 403), (seats, r.status_code, r.json)
    assert r.json["error"]["code"] in ("same_seat_names", "bad_name", "reserved_name")


def test_game_seat_names_are_stored_normalised(client):
    r = client.post("/api/games", json={"game": "toy", "seats": ["Ａｎｎ\ufe0f", "Bob\u3164"]})
    assert r.status_code == 201, r.json
    assert [s["name"] for s in client.get(f"/api/games/{r.json['id']}").json["seats"]] == ["Ann", "Bob"]


# Small capitals read as the letter itself at a glance ("ᴀlice" beside "Alice").
SMALL_CAPITAL_LOOKALIKES = ["\u1d00lice", "Alic\u1d07", "\u1d00\u029f\u026a\u1d04\u1d07", "Al\u026ace"]


@pytest.mark.parametrize("name", SMALL_CAPITAL_LOOKALIKES)
def test_small_capitals_do_not_make_a_name_different(client, tournament, name):
    assert register(client, tournament, "Alice").status_code == 201
    second = register(client, tournament, name)
    assert second.status_code == 409 and second.json["error"]["code"] == "already_registered", second.json
