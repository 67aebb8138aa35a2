"""gunicorn settings for hosting citemap: `gunicorn --config python:dashboard.serving.gunicorn_conf` (the Procfile)
and `citemap serve --production` use them.

The dataset is loaded once in the master (``preload_app``) and shared by the forked workers.
Environment: PORT (default 8050), CITEMAP_DATA (dataset folder), WEB_CONCURRENCY (workers),
CITEMAP_TIMEOUT (seconds).

A worker goes as soon as its master dies (``post_fork``), so that a supervisor (systemd's ``Restart=``,
deploy/systemd/) can start a new master on the same port at once.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from typing import TYPE_CHECKING

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
wsgi_app = "dashboard.app:server"
control_socket_disable = True  # gunicorn's control socket would be a file under $HOME: the viewer writes nothing


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
