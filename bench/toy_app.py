"""The game server with the platform's test game registered: bench/append.py drives it
with a cheap, always-legal action so the figure measures the platform, not a rule engine."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from projections.games import registry  # noqa: E402
from service.app import create_app  # noqa: E402
from tests.toygame import TOY  # noqa: E402

registry()["toy"] = TOY
app = create_app()
