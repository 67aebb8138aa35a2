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


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        ("GET /graph?seeds=1706.03762 HTTP/1.1", "GET /graph?seeds=1706.03762 HTTP/1.1"),
        ("GET /" + "x" * 8000 + " HTTP/1.1", "GET /" + "x" * 251 + "..."),
        ("GET /caf\u00e9 HTTP/1.1", "GET /caf..."),
        ('GET /a"b HTTP/1.1', "GET /a..."),
        ("GET /a\\b\x1b[31m HTTP/1.1", "GET /a..."),
        ("", ""),
    ],
)
def test_a_request_line_is_logged_cut_to_printable_ascii(line: str, logged: str) -> None:
    assert gunicorn_conf.cut_request_line(line) == logged
    assert len(gunicorn_conf.cut_request_line(line)) <= gunicorn_conf.LOGGED_LINE + 3


def test_the_access_log_cuts_request_lines_and_samples_refusals() -> None:
    """gunicorn's access log through the project's logger: a line per answer, its request line cut, and one
    refusal (413, 429) in REFUSALS_LOGGED; nginx's own settings: only X-Forwarded-Proto says HTTPS."""
    import datetime
    import logging

    from gunicorn.config import Config

    cfg = Config()
    for name in ("accesslog", "access_log_format", "logger_class", "secure_scheme_headers"):
        cfg.set(name, getattr(gunicorn_conf, name))
    assert cfg.secure_scheme_headers == {"X-FORWARDED-PROTO": "https"}
    logger = cfg.logger_class(cfg)
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger.access_log.addHandler(Keep())

    class Resp:
        def __init__(self, status: str) -> None:
            self.status, self.sent, self.headers = status, 10, []

    took = datetime.timedelta(milliseconds=3)
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": "/" + "é" * 5000, "SERVER_PROTOCOL": "HTTP/1.1"}
    environ |= {"REMOTE_ADDR": "127.0.0.1", "PATH_INFO": "/", "QUERY_STRING": ""}
    for _ in range(2000):
        logger.access(Resp("429 Too Many Requests"), [], environ, took)
    refused = len(lines)
    for _ in range(10):
        logger.access(Resp("200 OK"), [], environ, took)
    assert refused <= 12 and len(lines) == refused + 10  # 2,000 refusals: about 2 lines; every answer logged
    assert lines[-1] == '127.0.0.1 "GET /..." 200 10 3ms' and max(map(len, lines)) <= 300


def test_gunicorn_s_own_messages_are_cut_and_tracebacks_kept() -> None:
    """gunicorn quotes a bad request line whole in its error log ("Invalid request from ip=...: Invalid HTTP request
    line: '...'"): the project's logger cuts every message to LOGGED_MESSAGE characters, and keeps a traceback."""
    import logging

    from gunicorn.config import Config

    cfg = Config()
    cfg.set("logger_class", gunicorn_conf.logger_class)
    logger = cfg.logger_class(cfg)
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger.error_log.addHandler(Keep())
    logger.warning("Invalid request from ip={ip}: {error}".format(ip="127.0.0.1", error="x" * 5000))
    logger.info("Booting worker with pid: %s", 42)
    try:
        raise ValueError("boom")
    except ValueError:
        logger.exception("Error handling request %s", "/" + "y" * 5000)
    messages = [r.getMessage() for r in records]
    assert messages[1] == "Booting worker with pid: 42" and records[2].exc_info[0] is ValueError
    assert len(messages[0]) == len(messages[2]) == gunicorn_conf.LOGGED_MESSAGE + 3
