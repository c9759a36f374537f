"""``python service/adapters/with_parent.py PARENT_PID COMMAND...``: exec COMMAND so that it
gets SIGTERM when the process PARENT_PID (its parent) dies.

Linux keeps PR_SET_PDEATHSIG across exec, so this small process asks for it and then
becomes the command. It is a separate program rather than a ``preexec_fn`` because
Python code run between fork and exec can deadlock when the parent has threads (the
gunicorn master and the test sessions do). SIGTERM rather than SIGKILL: Redis then
writes out its AOF buffer before it exits.
"""

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def main() -> None:
    parent, command = int(sys.argv[1]), sys.argv[2:]
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the command then outlives a parent killed with -9
    if os.getppid() != parent:  # the parent died before the request took effect
        sys.exit(1)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
