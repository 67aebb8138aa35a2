"""gunicorn settings for hosting citemap: `gunicorn --config python:dashboard.serving.gunicorn_conf` (the Procfile)
and `citemap serve --production` use them.

The dataset is loaded once in the master (``preload_app``) and shared by the forked workers.
Environment: PORT (default 8050), CITEMAP_DATA (dataset folder), WEB_CONCURRENCY (workers),
CITEMAP_TIMEOUT (seconds).

A worker goes as soon as its master dies (``post_fork``), so that a supervisor (systemd's ``Restart=``,
deploy/systemd/) can start a new master on the same port at once.

The access log is bounded as nginx's is (deploy/nginx.conf.template): a request line is logged cut to its first
``LOGGED_LINE`` characters of printable ASCII, and a refusal (the per-address budget's 429, a body over its limit)
one time in ``REFUSALS_LOGGED``. Forwarded headers are trusted only from ``FORWARDED_ALLOW_IPS`` (gunicorn's
default: this machine), and of them only ``X-Forwarded-Proto`` says whether the request came over HTTPS.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import random
import re
import signal
import sys
from typing import TYPE_CHECKING, Any

import gunicorn.glogging
import gunicorn.http.wsgi

if TYPE_CHECKING:
    from gunicorn.arbiter import Arbiter
    from gunicorn.workers.base import Worker

# gunicorn writes "Server: gunicorn" itself, before the app's headers (the app drops any Server header of its
# own): it names the software a visitor's request reached; "citemap" names only the site.
gunicorn.http.wsgi.SERVER = "citemap"

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8050')}"
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, min(8, multiprocessing.cpu_count()))))
threads = int(os.environ.get("CITEMAP_THREADS", "1"))
preload_app = True
timeout = int(os.environ.get("CITEMAP_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("CITEMAP_LOGLEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# Whether a request came over HTTPS: nginx's X-Forwarded-Proto alone. gunicorn's default also reads X-Forwarded-Ssl
# and X-Forwarded-Protocol, and answers 400 when a client's copy of one disagrees with nginx's.
secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}
wsgi_app = "dashboard.app:server"
control_socket_disable = True  # gunicorn's control socket would be a file under $HOME: the viewer writes nothing


LOGGED_LINE = 256  # characters of a request line logged (nginx's log cuts at the same place)
REFUSALS_LOGGED = 1024  # a refusal is logged one time in this many
REFUSALS = {"413", "429"}  # the app's refusals; nginx's own never reach gunicorn
_PRINTABLE = re.compile(r"[ !#-\[\]-~]{0," + str(LOGGED_LINE) + "}")  # printable ASCII but the quote and the backslash


def cut_request_line(line: str) -> str:
    """What the access log shows of a request line: its first LOGGED_LINE characters of printable ASCII (no quote,
    no backslash), then "..." when there was more (longer, or with other characters): at most LOGGED_LINE + 3
    characters, whatever a client sent."""
    head = _PRINTABLE.match(line).group()
    return head if len(head) == len(line) else head + "..."


LOGGED_MESSAGE = 512  # characters of an error log message (gunicorn's own quote the request line)


class CutLogger(gunicorn.glogging.Logger):
    """gunicorn's logger, with request lines cut (:func:`cut_request_line`), refusals sampled, and its own messages
    (such as "Invalid request from ip=...: Invalid HTTP request line: '<the whole line>'") cut to LOGGED_MESSAGE
    characters; a traceback is kept whole."""

    def log(self, lvl: Any, msg: Any, *args: Any, **kwargs: Any) -> None:
        try:
            text = str(msg) % args if args else str(msg)
        except (TypeError, ValueError):
            text = " ".join(map(str, (msg, *args)))
        if len(text) > LOGGED_MESSAGE:
            text = text[:LOGGED_MESSAGE] + "..."
        super().log(lvl, text, **kwargs)  # no arguments left: logging formats nothing more

    def warning(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(logging.WARNING, msg, *args, **kwargs)

    def error(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(logging.ERROR, msg, *args, **kwargs)

    def exception(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(logging.ERROR, msg, *args, exc_info=True, **kwargs)

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        atoms["r"] = cut_request_line(atoms["r"])
        for key in ("U", "q"):
            if isinstance(atoms.get(key), str):
                atoms[key] = cut_request_line(atoms[key])
        # the request's and answer's headers ({name}i, {name}o) are not in the format; none is kept
        return {k: v for k, v in atoms.items() if not k.startswith("{")}

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        status = str(resp.status).split(None, 1)[0]
        if status in REFUSALS and random.randrange(REFUSALS_LOGGED):
            return
        super().access(resp, req, environ, request_time)


logger_class = CutLogger


PR_SET_PDEATHSIG = 1  # prctl(2) option, from <linux/prctl.h>


def die_with_parent(parent: int, sig: int = signal.SIGTERM) -> bool:
    """Have the kernel send ``sig`` to this process when its parent, ``parent``, dies (Linux's PR_SET_PDEATHSIG);
    exit at once if the parent is already gone. Returns whether the signal is armed (False where prctl is not
    available).

    A sync worker notices on its own that its master died only between two waits for a connection (half the
    worker timeout), and until then it keeps the listening socket, so a new master cannot bind the port. SIGTERM is
    what a master sends its workers when it stops: an idle worker exits at once (the signal wakes its wait), a busy
    one after the request in hand."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, *(ctypes.c_ulong(a) for a in (sig, 0, 0, 0))) != 0:
        return False
    if os.getppid() != parent:  # the parent died before the signal was armed: nobody will send it
        raise SystemExit(0)
    return True


def post_fork(server: Arbiter, worker: Worker) -> None:
    """gunicorn's hook, in a new worker right after the fork: the worker dies with its master."""
    die_with_parent(server.pid)
