"""Sultans of Karaya's sealed window answers, which random play reaches too rarely for
the general property: while the window is open, a spectator and every seat but the
one answering get byte-identical /events, /export, /stream data, meta and views
whichever answer was sealed (the salted digest is all they see of it)."""

from __future__ import annotations

import random

from projections import fold
from tests.platform.helpers import GameHandle
from tests.trust.test_indistinguishable import rechain, served, store_copy, view

GAME = "sultans_of_karaya"


def a_sealed_answer(client, tries=12, steps=120):
    """A game through the API up to a sealed answer after which its window stays open."""
    for attempt in range(tries):
        rand = random.Random(attempt)
        g = GameHandle(client, game=GAME, seats=[f"p{i}" for i in range(5)])
        for _ in range(steps):
            meta = g.meta()
            if meta["status"] != "active" or not meta["to_act"]:
                break
            seat = rand.choice(meta["to_act"])
            actions = g.legal(seat)
            answers = [a for a in actions if a["type"] == "respond"]
            if len(answers) > 1 and len(meta["to_act"]) > 1:
                choice = rand.choice(answers)
                assert g.act(seat, "respond", choice["payload"]).status_code == 201
                if g.meta()["to_act"]:
                    return g, seat, [a["payload"] for a in answers if a != choice]
                continue
            pref = [a for a in actions if a["type"] == "execute"] if rand.random() < 0.5 else []
            action = rand.choice(pref or actions)
            assert g.act(seat, action["type"], action["payload"]).status_code in (200, 201)
    raise AssertionError("no sealed answer with the window still open was reached")


def test_a_sealed_answer_leaves_no_trace_while_its_window_is_open(client, services):
    g, seat, others = a_sealed_answer(client)
    log = g.events(g.referee)
    n = log[-1]["seq"]
    assert fold.game_event(log[-1], GAME)["type"] == "respond"
    b_log = rechain([*log[:-1], {**log[-1], "payload": others[0]}])
    a_id, a_tokens = store_copy(services, g.id, log)
    b_id, b_tokens = store_copy(services, g.id, b_log)
    for viewer in [None, *(s for s in range(5) if s != seat)]:
        token_a = None if viewer is None else a_tokens[viewer]
        token_b = None if viewer is None else b_tokens[viewer]
        assert view(client, a_id, token_a) == view(client, b_id, token_b), viewer
        assert served(client, services, a_id, token_a, n) == served(client, services, b_id, token_b, n), viewer
