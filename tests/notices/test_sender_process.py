"""gunicorn's master starts the notice sender beside its workers, as it starts the bot
pool, and the sender stops with the master."""

from __future__ import annotations

import re
import time

import psutil

from tests.platform.gunicorn_server import gunicorn_process


def command(process: psutil.Process) -> list[str]:
    try:
        return process.cmdline()
    except psutil.Error:  # a child may be gone (or a zombie) between the listing and this look
        return []


def test_the_master_starts_the_notice_sender_and_it_stops_with_it(tmp_path):
    with gunicorn_process(NOTICES="1", DATA_DIR=str(tmp_path), WEB_CONCURRENCY="1") as (_, output, master):
        deadline = time.time() + 30
        sender = None
        while sender is None and time.time() < deadline:
            children = psutil.Process(master.pid).children(recursive=True)
            sender = next((c for c in children if command(c)[-2:] == ["service", "notices"]), None)
            time.sleep(0.2)
        assert sender is not None, "no notice sender among the master's children"
    sender.wait(timeout=20)
    assert any(re.search(r"notice sender pid \d+", line) for line in output)
