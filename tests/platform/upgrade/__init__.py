"""A test-only game in two releases (``v1/`` and ``v2/``, each a ``counting_game`` module)
and the app that serves it; the upgrade test puts one or the other on PYTHONPATH."""
