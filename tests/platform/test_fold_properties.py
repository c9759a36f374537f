"""Properties of the fold, with hypothesis driving random histories through the API
(moves, immediate undos, undo requests approved or declined, referee rewinds):

- the same log folds to the same state, offline and live;
- the state at every seq from the projector (cache + snapshots) equals a cold
  in-memory refold at that seq;
- the log always verifies.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections.fold import InMemoryHistory
from tests.platform.helpers import GameHandle

STEPS = st.lists(
    st.sampled_from(["move", "move", "move", "note", "undo", "approve", "decline", "rewind"]), min_size=1, max_size=25
)


def run(client, steps, rand):
    g = GameHandle(client, options={"rounds": 6})
    for step in steps:
        meta = g.meta()
        if meta["status"] != "active":
            break
        history = [e["seq"] for e in g.events(g.referee)]
        if step == "move":
            g.play_first()
        elif step == "note":
            g.act(meta["to_act"][0], "note", {"text": "a"})
        elif step in ("undo", "rewind") and meta["seq"] > 1:
            target = rand.draw(st.sampled_from(history[:-1] or [1]))
            if step == "undo":
                g.client.post(g.url("/undo"), json={"to_seq": target}, headers=g.seat(meta["to_act"][0]))
            else:
                g.client.post(g.url("/referee/rewind"), json={"to_seq": target, "reason": "test"}, headers=g.ref())
        elif step in ("approve", "decline") and meta["pending_undo"]:
            req = meta["pending_undo"]
            g.client.post(g.url(f"/undo/{req['id']}/{step}"), headers=g.seat(req["needed"][0]))
    return g


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=STEPS, rand=st.data())
def test_live_states_equal_cold_refolds_at_every_seq(client, services, steps, rand):
    g = run(client, steps, rand)
    log = g.events(g.referee)
    cold = InMemoryHistory(log, services.log.seed(g.id), every=7)
    for seq in range(1, len(log) + 1):
        assert json.dumps(services.log.state_at(g.id, seq), sort_keys=True) == json.dumps(
            cold.state_at(seq), sort_keys=True
        )
    services.log.forget(g.id)
    assert services.log.state(g.id) == cold.final()
    assert client.post("/api/verify", data=g.export(g.referee)).json["checks"]["chain"] == "ok"
