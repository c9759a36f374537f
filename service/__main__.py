"""``python -m service ...``: the command line (``service/entrypoints/cli.py``)."""

import sys

from service.entrypoints.cli import main

sys.exit(main())
