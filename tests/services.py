"""Services built for a test over a given Redis, as ``create_app`` builds them: a second
worker, a cold one, or one with its own snapshot interval."""

from __future__ import annotations

import tempfile

from service import bootstrap
from service.signing import signer_for


def services_over(redis, snapshot_every: int = 100, **kwargs) -> bootstrap.Services:
    return bootstrap.build(
        redis, signer_for(tempfile.mkdtemp(prefix="signing-")), snapshot_every=snapshot_every, **kwargs
    )
