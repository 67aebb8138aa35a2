"""dashboard/serving/gunicorn_conf.py: a worker dies with its master (``die_with_parent``, run by the post_fork
hook). tests/test_production.py kills a real master."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from dashboard.serving import gunicorn_conf
from tests.conftest import ROOT

# a child of the test: arms the signal for the parent it is given, then prints what it got and the signal the kernel
# holds for it (PR_GET_PDEATHSIG)
CHILD = """
import ctypes, sys
from dashboard.serving.gunicorn_conf import die_with_parent
armed = die_with_parent(int(sys.argv[1]))
held = ctypes.c_int(-1)
ctypes.CDLL(None).prctl(2, ctypes.byref(held), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
print(armed, held.value)
"""

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")


def child(parent: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(parent)], capture_output=True, text=True, timeout=60, cwd=ROOT
    )


@linux_only
def test_a_worker_holds_sigterm_for_its_parents_death() -> None:
    r = child(os.getpid())
    assert r.returncode == 0 and r.stdout.split() == ["True", str(int(signal.SIGTERM))], r.stderr


@linux_only
def test_a_worker_whose_parent_is_already_gone_exits_at_once() -> None:
    """The parent it was forked by is not its parent any more (it died, the worker was adopted): nobody will send
    the signal, so it goes now."""
    r = child(-1)
    assert r.returncode == 0 and r.stdout == "", r.stderr


def test_elsewhere_nothing_is_armed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert gunicorn_conf.die_with_parent(-1) is False  # no prctl, no exit: -1 is not this process's parent
