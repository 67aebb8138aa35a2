"""Helper of the bench entry points, not an entry point: what run.py, browser.py, import_scale.py, load.py and
startup.py share.

The server processes (citemap under gunicorn or ``citemap serve``, nginx; each started and waited for until it
answers) and the browsing load are the tests' own, from tests/servers.py, re-exported here. This module adds what
only the benchmarks need: every process a benchmark starts is kept in one list and ended, with its whole process
group, on exit, on an exception, on Ctrl-C and on SIGTERM (:func:`guard`); gunicorn and other servers as context
managers; a child process run to completion with a time limit; the default dataset; progress on stderr; each
command's results written to bench/out/results-<name>.json (:func:`write_results`, from bench/results.py).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
# generated datasets, results and server logs (gitignored); CITEMAP_BENCH_OUT puts them elsewhere
OUT = Path(os.environ.get("CITEMAP_BENCH_OUT") or BENCH / "out")
for _p in (ROOT, BENCH):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import results  # noqa: E402
from results import markdown  # noqa: E402

from tests.servers import (  # noqa: E402
    HOST,
    Gunicorn,
    Nginx,
    Server,
    SlowHeaders,
    Stats,
    dash_payload,
    end,
    free_port,
    percentile,
    run_load,
    sample_papers,
    start_all,
)

__all__ = [  # what the entry points take from here
    "BENCH",
    "HOST",
    "OUT",
    "ROOT",
    "Gunicorn",
    "Nginx",
    "Server",
    "SlowHeaders",
    "Stats",
    "dash_payload",
    "default_data",
    "free_port",
    "guard",
    "gunicorn",
    "log",
    "markdown",
    "percentile",
    "run_child",
    "run_load",
    "sample_papers",
    "server",
    "start_all",
    "stop_all",
    "write_results",
]

# -- processes a benchmark starts: each leads its own process group, and is ended on the way out ----------------------
_LIVE: list[subprocess.Popen] = []


def stop(proc: subprocess.Popen, grace: float = 25.0) -> None:
    """End a process this benchmark started, and whatever is left of its process group (a gunicorn's workers)."""
    end(proc, grace, group=True)
    if proc in _LIVE:
        _LIVE.remove(proc)


def stop_all() -> None:
    for proc in list(_LIVE):
        stop(proc, grace=5.0)


def _on_sigterm(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def guard() -> None:
    """From here on, SIGTERM and SIGINT (even when the benchmark was started with SIGINT ignored) raise
    KeyboardInterrupt, so that every ``finally`` runs, and every process still in the list is ended at exit."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    atexit.register(stop_all)


def run_child(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    """Run a command (in its own process group, from the repository's root) to its end, its output captured as text;
    ended at ``timeout`` seconds (raising ``TimeoutExpired``) or when the benchmark is interrupted."""
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=ROOT
    )
    _LIVE.append(proc)
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        stop(proc, grace=2.0)
        raise
    _LIVE.remove(proc)
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@contextlib.contextmanager
def _kept(started: Server) -> Iterator[Server]:
    _LIVE.append(started.proc)
    try:
        yield started
    finally:
        stop(started.proc)


@contextlib.contextmanager
def gunicorn(
    data: Path, log_path: Path, workers: int = 2, env: dict[str, str] | None = None
) -> Iterator[tuple[Gunicorn, float]]:
    """gunicorn with the project's settings and ``workers`` workers on a free loopback port, serving ``data``, as
    (the server, seconds from its start until ``/health`` answered); ended on exit. Without the per-address budget
    (``CITEMAP_BUDGET=0``, unless ``env`` says otherwise): the benchmarks time the work itself, all from one address."""
    t0 = time.perf_counter()
    env = {"CITEMAP_BUDGET": "0", **(env or {})}
    started = Gunicorn(data, workers, log_path, env=env, timeout=180, group=True)
    ready = time.perf_counter() - t0
    with _kept(started):
        yield started, ready


@contextlib.contextmanager
def server(cmd: list[str], port: int, log_path: Path, health: str = "/health") -> Iterator[Server]:
    """Any server command listening on loopback ``port``, once ``GET health`` answers; ended on exit."""
    with _kept(Server(cmd, port, log=log_path, health=health, group=True)) as started:
        yield started


def default_data() -> Path:
    """The default dataset's folder (built from data/ into the cache first if it is not there yet)."""
    from dashboard.importers.defaults import default_data as built

    return built(progress=True)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def write_results(name: str, columns: list[str], rows: list[list[str]], verdict: str, /, **details: Any) -> Path:
    """Write a command's printed table, its verdict line and its details to bench/out/results-<name>.json."""
    return results.write(OUT, name, columns, rows, verdict, **details)
