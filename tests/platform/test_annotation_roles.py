"""Annotation authors are marked by the role their token proves; a spectator cannot
sign as the referee or as a seat; notes are paginated and bounded."""

from __future__ import annotations

from tests.platform.helpers import GameHandle


def note(client, g, headers=None, **body):
    return client.post(g.url("/annotations"), json={"seq": 1, "text": "hello", **body}, headers=headers or {})


def test_a_spectator_signing_referee_is_refused(client):
    g = GameHandle(client)
    for name in (
        "referee",
        "Referee",
        "REFEREE",
        "rеferee",
        "ref\u200beree",
        "ann",
        "Ann",
    ):  # Cyrillic е; a seat's name
        r = note(client, g, author=name)
        assert r.status_code in (400, 403), (name, r.json)
    assert client.get(g.url("/annotations")).json["annotations"] == []


def test_roles_come_from_the_token(client):
    g = GameHandle(client)
    by_ref = note(client, g, g.ref(), author="someone else").json
    by_seat = note(client, g, g.seat(1), author="referee").json
    by_guest = note(client, g, author="Chloé").json
    assert (by_ref["role"], by_ref["author"]) == ("referee", "referee")
    assert (by_seat["role"], by_seat["author"], by_seat["seat"]) == ("seat", "bob", 1)
    assert (by_guest["role"], by_guest["author"], by_guest["seat"]) == ("spectator", "Chloé", None)
    listed = client.get(g.url("/annotations")).json["annotations"]
    assert [a["role"] for a in listed] == ["referee", "seat", "spectator"]


def test_author_names_and_texts_are_bounded(client):
    g = GameHandle(client)
    assert note(client, g, author="x" * 41).status_code == 400
    assert note(client, g, text="x" * 2001).status_code == 400


def test_annotations_are_paginated(client):
    g = GameHandle(client)
    for i in range(5):
        assert note(client, g, text=f"note {i}").status_code == 201
    first = client.get(g.url("/annotations?limit=2")).json
    assert [a["text"] for a in first["annotations"]] == ["note 0", "note 1"] and first["next"]
    texts, after = [], None
    while True:
        page = client.get(g.url("/annotations?limit=2" + (f"&after={after}" if after else ""))).json
        texts += [a["text"] for a in page["annotations"]]
        after = page["next"]
        if not after:
            break
    assert texts == [f"note {i}" for i in range(5)]
    assert client.get(g.url("/annotations?limit=201")).status_code == 400
    assert client.get(g.url("/annotations?after=nonsense")).status_code == 400
