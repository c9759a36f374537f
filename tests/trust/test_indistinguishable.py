"""A viewer learns nothing from the log about what is hidden from it (hypothesis).

World A is a real game played through the API to some entry n that hides something
from a viewer V. World B is the same log with entry n's hidden part changed to
another legal choice that V cannot tell apart (same type, same redaction for V).
Everything in B that is computable without the secret seed is recomputed (hashes,
links); the salted digest is kept, as it is indistinguishable from any other nonce's.
Both are stored as games and served. Where V's view of the two is the same (the
games' views are tested on their own; an entry that reveals, such as the last secret
vote that shows them all, makes the worlds differ in public), V must get
byte-identical /events, /export, /stream data and meta, hashes included; the toy
game's test also asserts the views.
On a chain hashing payloads in clear this fails at once: B's hashes differ.
"""

from __future__ import annotations

import json
import random
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.envelope import entry_hash
from events.store import game_stream
from projections import fold
from projections.games import get as get_game
from service.http.live import LiveTails, event_stream
from tests.platform.helpers import GameHandle, auth

GAMES = {"toy": (2, 12), "shadow_of_the_emperor": (4, 100), "sultans_of_karaya": (5, 40), "age_of_rome": (2, 40)}
# Choices a game does not list among its legal actions but accepts (the toy offers one note text).
EXTRA_CHOICES = {"toy": [{"type": "note", "payload": {"text": "b"}}]}
PUBLIC_ONLY = ["caylus", "carcassonne_castle"]


def play(client, game, seats, rand, steps):
    g = GameHandle(client, game=game, seats=[f"p{i}" for i in range(seats)])
    for _ in range(steps):
        meta = g.meta()
        if meta["status"] != "active" or not meta["to_act"]:
            break
        seat = rand.choice(meta["to_act"])
        actions = g.legal(seat)
        if not actions:
            break
        action = rand.choice(actions)
        assert g.act(seat, action["type"], action["payload"]).status_code in (200, 201)
    return g


def store_copy(services, source_id, entries):
    """A new game holding ``entries`` as its log, with the source's seed and fresh tokens."""
    gid = "copy" + uuid.uuid4().hex[:12]
    services.store.keep_seed(game_stream(gid), services.log.seed(source_id))
    assert services.store.append(game_stream(gid), 0, None, entries).status == "ok"
    tokens, _ = services.tokens.issue(gid, len(entries[0]["payload"]["seats"]))
    return gid, tokens


def rechain(entries):
    """Recompute what anyone can compute without the seed: each hash and link."""
    out, prev = [], ""
    for e in entries:
        e = {**e, "prev": prev}
        e["hash"] = entry_hash(e)
        out.append(e)
        prev = e["hash"]
    return out


def served(client, services, gid, token, n):
    headers = auth(token)
    meta = client.get(f"/api/games/{gid}").json
    meta.pop("id")  # the address it is served under
    meta.pop("now")  # the server's time as it answered
    stream = []
    chunks = event_stream(LiveTails(services.log, services.games), gid, 0, 5)
    for message in (m for chunk in chunks for m in chunk.split(b"\n\n")):  # a batch is one write
        if message.startswith(b"id:") and b"data: " in message:
            data = json.loads(message.split(b"data: ", 1)[1])
            if "meta" in data:
                data["meta"].pop("id")  # the address it is served under, as above
            stream.append(data)
            if len(stream) == n:
                break
    return {
        "events": client.get(f"/api/games/{gid}/events", headers=headers).get_data(),
        "export": [
            line
            for line in client.get(f"/api/games/{gid}/export", headers=headers).get_data(as_text=True).splitlines()
            if "head_signature" not in line
        ],
        "stream": stream,
        "meta": meta,
    }


def view(client, gid, token):
    return client.get(f"/api/games/{gid}/view", headers=auth(token)).get_data()


def check_indistinguishable(client, services, game_name, data):
    seats, most = GAMES[game_name]
    rand = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    g = play(client, game_name, seats, rand, data.draw(st.integers(most // 2, most), label="steps"))
    game = get_game(game_name)
    log = g.events(g.referee)
    viewers = [None, *range(seats)]
    candidates = []
    for e in log:
        event = fold.game_event(e, game_name)
        if event is None or event["seat"] is None:
            continue
        for viewer in viewers:
            if viewer != event["seat"] and game.redact(event, viewer) != event:
                candidates.append((e["seq"], viewer))
    if not candidates:
        return False
    n, viewer = data.draw(st.sampled_from(candidates), label="entry and viewer")
    before = services.log.state_at(g.id, n - 1)["state"]
    original = fold.game_event(log[n - 1], game_name)
    short_type = original["type"]
    seen = game.redact(original, viewer)
    others = [
        a
        for a in game.legal_actions(before, original["seat"]) + EXTRA_CHOICES.get(game_name, [])
        if a["type"] == short_type
        and a["payload"] != original["payload"]
        and game.redact({**original, "payload": a["payload"]}, viewer) == seen
    ]
    if not others:
        return False
    other = data.draw(st.sampled_from(others), label="other choice")
    a_entries = log[:n]
    b_entries = rechain([*log[: n - 1], {**log[n - 1], "payload": other["payload"]}])
    a_id, a_tokens = store_copy(services, g.id, a_entries)
    b_id, b_tokens = store_copy(services, g.id, b_entries)
    token_a = None if viewer is None else a_tokens[viewer]
    token_b = None if viewer is None else b_tokens[viewer]
    if view(client, a_id, token_a) != view(client, b_id, token_b):
        return False  # the entry reveals (the last vote shows them all): the worlds differ in public
    assert served(client, services, a_id, token_a, n) == served(client, services, b_id, token_b, n)
    return True


@pytest.mark.parametrize("game_name", sorted(GAMES))
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_what_is_hidden_from_a_viewer_leaves_no_trace_in_what_it_gets(client, services, game_name, data):
    check_indistinguishable(client, services, game_name, data)


def test_the_toy_property_finds_hidden_entries(client, services):
    """The property above is not vacuous: the toy's secret notes are always candidates."""
    g = GameHandle(client)
    g.act(0, "note", {"text": "a"})
    log = g.events(g.referee)
    b = rechain([*log[:-1], {**log[-1], "payload": {"text": "b"}}])
    a_id, a_tokens = store_copy(services, g.id, log)
    b_id, b_tokens = store_copy(services, g.id, b)
    for viewer in (None, 1):
        ta = None if viewer is None else a_tokens[viewer]
        tb = None if viewer is None else b_tokens[viewer]
        assert served(client, services, a_id, ta, 2) == served(client, services, b_id, tb, 2)
        assert view(client, a_id, ta) == view(client, b_id, tb)


@pytest.mark.parametrize("game_name", PUBLIC_ONLY)
def test_games_without_hidden_moves_log_nothing_hidden(client, game_name):
    """Caylus and Carcassonne: The Castle hide no move from anyone, so no payload has a
    hidden part; Carcassonne's secret, the order of its tile pile, lives only in the
    seed (never in a payload) and each tile is public once drawn."""
    g = play(client, game_name, 2, random.Random(7), 25)
    game = get_game(game_name)
    for e in g.events(g.referee):
        event = fold.game_event(e, game_name)
        if event is not None:
            assert all(game.redact(event, viewer) == event for viewer in (None, 0, 1))
