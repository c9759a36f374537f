"""The app with the test-only counting game registered: ``gunicorn tests.platform.upgrade.serve:app``.

Which release of the game is served depends on which ``counting_game`` module is first
on PYTHONPATH (``tests/platform/upgrade/v1`` or ``.../v2``): the code itself changes
between two starts, as it does when a server is upgraded.
"""

from counting_game import GAME

from projections.games import registry
from service.app import create_app

registry()[GAME.name] = GAME
app = create_app()
