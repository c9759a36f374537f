"""Every sentence of a rulebook that grants a choice has, in the game's concordance, a test
showing the engine offers it (and its decline) or a reason it grants nothing to decide."""

from __future__ import annotations

import pytest

from projections.games import GAME_PACKAGES
from tests.games import concordance


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_listed_sentence_has_a_test_or_a_reason(game):
    assert concordance.problems(game) == []


def test_the_pattern_finds_permissions_and_leaves_gains_alone():
    found = concordance.modal_sentences(
        "玩家可移動1名軍團。玩家獲得3分。建築物效能。隨時公開。不得拘留。得分最高者獲勝。"
    )
    assert found == ["玩家可移動1名軍團。", "隨時公開。", "不得拘留。"]
