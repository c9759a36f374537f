"""Faint marks beyond the dot below and the dot above: every mark drawn under a letter
(below left or right, a double mark below, the iota subscript) and the small commas
above read as nothing at a name's size, so a name carrying one is the name without it."""

from __future__ import annotations

import pytest

from service.services import names
from tests.accounts.helpers import PASSWORD, unique

FAINT = [
    "\u0345",  # combining Greek ypogegrammeni: a tiny iota under the letter
    "\u035c",  # double breve below
    "\u0362",  # double rightwards arrow below
    "\u302a",  # ideographic level tone mark: below left
    "\u0314",  # reversed comma above (the comma above is already caught)
    "\u0315",  # comma above right
]


@pytest.mark.parametrize("mark", FAINT)
def test_a_name_with_a_faint_mark_is_taken_by_the_name_without_it(client, mark):
    name = unique("kelly")
    assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    lookalike = name[:2] + mark + name[2:]
    answer = client.post("/api/accounts", json={"name": lookalike, "password": PASSWORD})
    assert answer.status_code == 409, answer.get_json()
    assert names.skeletons(lookalike) & names.skeletons(name)


def test_marks_a_reader_sees_keep_names_apart():
    assert not names.skeletons("mo\u0301lly") & names.skeletons("molly")  # an acute
    assert not names.skeletons("mo\u0308lly") & names.skeletons("molly")  # a diaeresis
