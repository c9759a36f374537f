"""What an eyes-closed swap (a revealed seat hides, §6.2 B) lets each seat know.

The rules (the Chinese text is the authority) end the action with "請其他所有玩家睜開眼睛,
並再觀看自家角色卡內容": everyone opens their eyes and looks at their own card again.
So the partner sees its new card, and knows it was the partner whenever that card
differs from its old one; the game shows it so. What no one but the actor learns is
the partner's seat: the log keeps it sealed from all others (``redact``), a bystander's
and a spectator's views do not depend on it, nor does the partner's when both cards
were the same role."""

from __future__ import annotations

from events.rng import SeededRng
from projections.games.base import REFEREE
from projections.games.sultans_of_karaya import GAME
from tests.games import harness


def hides_with_a_partner(limit=6):
    """(state, actor, partner) where the actor may hide with the partner or with no one."""
    found = []
    for seed in range(40):
        play = harness.play(
            GAME, 5, f"hide-{seed}", options={"rounds": 2}, keep_states=True, check_views=False, check_schemas=False
        )
        for state in play.states:
            for actor in sorted(GAME.to_act(state)):
                hides = [a for a in GAME.legal_actions(state, actor) if a["type"] == "hide"]
                if any(a["payload"].get("with") is None for a in hides):
                    found += [
                        (state, actor, a["payload"]["with"]) for a in hides if isinstance(a["payload"].get("with"), int)
                    ]
        if len(found) >= limit:
            break
    assert found, "no eyes-closed swap reached"
    return found[:limit]


def own_card_aside(view, seat):
    seats = [{**row, "card": None} if row["seat"] == seat else row for row in view["seats"]]
    return {**{k: v for k, v in view.items() if k != "you"}, "seats": seats}


def after(state, actor, partner):
    event = {"type": "hide", "seat": actor, "payload": {"with": partner}}
    return GAME.apply(state, event, SeededRng("swap", 0))


def test_only_the_partners_own_card_tells_it_apart():
    for state, actor, partner in hides_with_a_partner():
        swapped, alone = after(state, actor, partner), after(state, actor, None)
        cards = GAME.view(state, REFEREE)["seats"]
        same_role = cards[actor]["card"] == cards[partner]["card"]
        for viewer in [None, *range(state["seats"])]:
            if viewer == actor:
                continue
            a, b = GAME.view(swapped, viewer), GAME.view(alone, viewer)
            if viewer == partner and not same_role:
                assert a["you"]["card"] == cards[actor]["card"] != b["you"]["card"]  # it looks at its new card
                a, b = (own_card_aside(view, partner) for view in (a, b))
            assert a == b, (viewer, actor, partner)
            event = {"type": "hide", "seat": actor, "payload": {"with": partner}}
            assert (
                GAME.redact(event, viewer)["payload"]
                == GAME.redact({**event, "payload": {"with": None}}, viewer)["payload"]
            )
