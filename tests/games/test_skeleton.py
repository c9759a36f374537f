"""One apply skeleton for every game (projections/games/README.md): no game writes its own
``apply``, the generic refusals come in one order with one code each, and no game raises a
generic code from its own checks."""

from __future__ import annotations

import importlib
import pathlib
import re

import pytest

from events.rng import SeededRng
from projections.games import GAME_PACKAGES, base, registry
from projections.games.base import GENERIC_REFUSALS, Game
from tests.games.harness import assert_refused
from tests.toygame import TOY

GAMES = pathlib.Path(base.__file__).parent


@pytest.mark.parametrize("name", sorted(registry()))
def test_no_game_writes_its_own_apply(name):
    assert type(registry()[name]).apply is Game.apply


@pytest.mark.parametrize("name", sorted(registry()))
def test_no_game_raises_a_generic_code_itself(name):
    """The generic codes come from ``Game.guard`` alone, so they mean the same in every game.
    (``bad_payload`` is also a game's, for a payload malformed only in context, such as the
    fields a Caylus favour needs.)"""
    generic = "|".join(code for code in GENERIC_REFUSALS if code != "bad_payload")
    for path in (GAMES / name).glob("*.py"):
        text = path.read_text()
        found = re.findall(rf"""(?:refuse|IllegalAction|fail)\(\s*["']({generic})["']""", text)
        found += re.findall(rf"""require\([^\n]*,\s*["']({generic})["']""", text)
        assert not found, f"{path.name} raises {found}"


def toy_state(**changes):
    return {**TOY.setup({"rounds": 1}, 2, SeededRng("s", 0)), **changes}


def test_the_guards_run_in_one_order():
    """game over, then not your turn, then unknown action, then a malformed payload, then
    an action that does not answer what is awaited: each case also breaks the later rules."""
    over = toy_state(moves=2)
    assert_refused(TOY, over, {"type": "nope", "seat": 1, "payload": None}, "game_over")
    state = toy_state()
    refused = assert_refused(TOY, state, {"type": "nope", "seat": 1, "payload": 3}, "not_your_turn")
    assert refused.details == {"awaiting": [0]}
    assert_refused(TOY, state, {"type": "nope", "seat": 0, "payload": 3}, "unknown_action")
    assert_refused(TOY, state, {"type": "play", "seat": 0, "payload": 3}, "bad_payload")


def test_a_kind_not_awaited_is_wrong_action():
    class Waiting(type(TOY)):
        def awaits(self, state, seat, kind):
            return kind == "roll"

    assert_refused(Waiting(), toy_state(), {"type": "play", "seat": 0, "payload": {"card": 1}}, "wrong_action")


def test_the_game_check_runs_on_the_untouched_state_before_the_copy():
    state = toy_state()
    card = next(c for c in range(1, 41) if c not in state["hands"][0])
    assert_refused(TOY, state, {"type": "play", "seat": 0, "payload": {"card": card}}, "not_in_hand")


@pytest.mark.parametrize("name", GAME_PACKAGES)
def test_a_game_names_its_parts_and_its_name_is_its_package(name):
    """Every part of a game is a line of its class (projections/games/README.md), so
    go-to-definition on any part reaches the rule; the name is the package's."""
    cls = type(registry()[name])
    assert cls.name == name
    assert cls.options_schema is importlib.import_module(f"projections.games.{name}.schemas").OptionsSchema
    for part in ("to_act", "legal_actions", "view", "effect", "copy"):
        assert any(part in vars(klass) for klass in cls.__mro__ if klass is not base.Game), part
