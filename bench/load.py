"""Load test: replay realistic browsing (open, search, expand, filter) against a running citemap.

    python bench/load.py --url http://127.0.0.1:8050 --users 8 --seconds 20
    python bench/load.py --serve DATASET --workers 2 --seconds 20 --kill-worker-at 8
    python bench/load.py --serve DATASET --workers 2 --seconds 10 --via-nginx [--rounds 3] [--attack 50] [--threads 4]

With ``--serve`` it starts gunicorn itself (the project's settings), and with ``--kill-worker-at S``
it kills one worker with SIGKILL after S seconds and checks that the master replaces it. Loopback
only, bounded in time (``--seconds``) and count (``--max-requests``). Prints throughput, p50/p99
latency per kind of request, and errors (a request lost to the killed worker counts as an error), and writes them
to bench/out/results-load.json (``--via-nginx``: results-load-via-nginx.json).

``--via-nginx`` compares, in one run, the deployment of deploy/ (nginx with deploy/nginx.conf.template in
front of two replicas of ``--workers`` sync workers each) with one gunicorn of as many workers in all, sync
and gthread (``--threads`` threads a worker, CITEMAP_THREADS), each under the plain load (``--rounds`` times,
in turns, so that other work on the machine weighs on all alike) and once while ``--attack`` slow-header
connections (a header line every 2 s, never finished) are held open. Each visitor
comes from a loopback address of its own (127.0.0.10, .11, ...); the visitors here are robots with no pause
between requests (some 30 requests/s each), so nginx's per-address rate is raised to ``--nginx-rate`` for
the run (its burst and connection limits stay as deployed).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import common
from common import Gunicorn, Nginx, SlowHeaders, Stats, markdown, percentile, run_load, sample_papers, start_all

REQUEST_COLUMNS = ["request", "count", "p50 ms", "p99 ms"]
PHASE_COLUMNS = ["target", "load", "req/s", "p50 ms", "p99 ms", "errors", "loadavg"]


def request_rows(stats: Stats) -> list[list[str]]:
    """Per kind of request, then all: the count, p50 and p99 in ms."""
    rows = []
    for kind, lat in [*sorted(stats.latencies.items()), ("all", [v for x in stats.latencies.values() for v in x])]:
        p50, p99 = percentile(lat, 0.5) * 1000, percentile(lat, 0.99) * 1000
        rows.append([kind, f"{len(lat):,}", f"{p50:.1f}", f"{p99:.1f}"])
    return rows


def throughput(stats: Stats, elapsed: float) -> str:
    return f"throughput {stats.count / elapsed:.1f} requests/s over {elapsed:.1f} s; errors {len(stats.errors)}"


def report(stats: Stats, elapsed: float) -> str:
    lines = [markdown(REQUEST_COLUMNS, request_rows(stats)), throughput(stats, elapsed)]
    lines += [f"  error: {e}" for e in stats.errors[:10]]
    return "\n".join(lines)


@dataclass
class Phase:
    target: str
    load: str
    stats: Stats
    elapsed: float
    loadavg: float  # the machine's 1-minute load average at the end: other work on it skews the numbers

    def row(self) -> list[str]:
        everything = [v for lat in self.stats.latencies.values() for v in lat]
        return [
            self.target,
            self.load,
            f"{len(everything) / self.elapsed:.1f}",
            f"{percentile(everything, 0.5) * 1000:.1f}",
            f"{percentile(everything, 0.99) * 1000:.1f}",
            str(len(self.stats.errors)),
            f"{self.loadavg:.2f}",
        ]

    @property
    def throughput(self) -> float:
        return self.stats.count / self.elapsed

    @property
    def p99(self) -> float:
        return percentile([v for lat in self.stats.latencies.values() for v in lat], 0.99)


def compare(a: argparse.Namespace, papers: list[tuple[str, str, list[str]]]) -> int:
    """--via-nginx: deploy/'s nginx + 2 replicas against one gunicorn (sync, then gthread) of as many workers,
    under the browsing load and again under a slow-header attack."""
    data = Path(a.serve) if a.serve else common.default_data()
    w, total = a.workers, 2 * a.workers
    sources = [f"127.0.0.{10 + k}" for k in range(a.users)]
    logs = Path(tempfile.mkdtemp(prefix="citemap-bench-"))
    servers = start_all(
        [
            lambda: Gunicorn(data, w, logs / "replica-1.log"),
            lambda: Gunicorn(data, w, logs / "replica-2.log"),
            lambda: Gunicorn(data, total, logs / "sync.log"),
            lambda: Gunicorn(data, total, logs / "gthread.log", threads=a.threads),
        ]
    )
    replica1, replica2, sync, gthread = servers
    nginx = Nginx([replica1.address, replica2.address], rate=a.nginx_rate)
    targets = [
        (f"nginx + 2 replicas x {w} sync workers", nginx.url, nginx.port),
        (f"gunicorn {total} sync workers", sync.url, sync.port),
        (f"gunicorn {total} gthread workers x {a.threads} threads", gthread.url, gthread.port),
    ]
    phases: list[Phase] = []
    print(
        f"{a.users} visitors ({sources[0]}..{sources[-1]}), {a.seconds:.0f} s a phase, {a.rounds} rounds of the "
        f"plain load (the order of the targets turns each round), request timeout {a.timeout:.0f} s; nginx rate "
        f"{a.nginx_rate} a client address for this run; {os.cpu_count()} CPUs; logs in {logs}",
        flush=True,
    )

    def run(name: str, url: str, port: int, attack: int) -> None:
        load = f"browsing + {attack} slow" if attack else "browsing"
        attacker = SlowHeaders(port, attack) if attack else contextlib.nullcontext()
        with attacker:
            if attack:
                time.sleep(1.0)  # the attack's connections are open before the visitors come
            stats, elapsed = run_load(
                url, papers, a.users, a.seconds, a.max_requests, sources=sources, timeout=a.timeout
            )
        phases.append(Phase(name, load, stats, elapsed, os.getloadavg()[0]))
        print(f"== {name}, {load}", flush=True)
        print(report(stats, elapsed), flush=True)
        if attack:
            print(
                f"slow-header connections opened {attacker.opened}, closed by the server {attacker.closed}", flush=True
            )

    try:
        for r in range(a.rounds):
            for name, url, port in targets[r % 3 :] + targets[: r % 3]:
                run(name, url, port, 0)
        if a.attack:
            for name, url, port in targets:
                run(name, url, port, a.attack)
        cache = nginx.cache_statuses()
    finally:
        nginx.stop()
        for server in servers:
            server.stop()
    print()
    print(markdown(PHASE_COLUMNS, [phase.row() for phase in phases]))
    plain = [p for p in phases if p.load == "browsing"]
    via = [p for p in plain if p.target == targets[0][0]]
    direct = [p for p in plain if p.target == targets[1][0]]
    ratios = sorted(v.throughput / d.throughput for v, d in zip(via, direct, strict=True))
    p99s = sorted(v.p99 / d.p99 for v, d in zip(via, direct, strict=True))
    ratio = ratios[len(ratios) // 2]
    verdict = (
        f"through nginx / direct sync, browsing, round by round: throughput "
        f"{', '.join(f'{x:.2f}x' for x in ratios)} (median {ratio:.2f}x; target >= 0.8x); p99 "
        f"{', '.join(f'{x:.2f}x' for x in p99s)}"
    )
    print(verdict)
    print("nginx cache, all phases: " + ", ".join(f"{k} {v}" for k, v in sorted(cache.items())))
    nginx_errors = sum(len(p.stats.errors) for p in phases if p.target == targets[0][0])
    common.write_results(
        "load-via-nginx",
        PHASE_COLUMNS,
        [phase.row() for phase in phases],
        verdict,
        nginx_cache=dict(cache),
        requests={f"{p.target}, {p.load}": request_rows(p.stats) for p in phases},
    )
    return 0 if ratio >= 0.8 and nginx_errors == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a running citemap (loopback)")
    ap.add_argument("--serve", help="dataset folder: start gunicorn on it")
    ap.add_argument("--data", help="dataset folder to draw papers from (default: --serve, else the default dataset)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--users", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--max-requests", type=int, default=100_000)
    ap.add_argument("--kill-worker-at", type=float, default=None, help="SIGKILL one worker after S seconds")
    ap.add_argument(
        "--via-nginx",
        action="store_true",
        help="compare nginx + 2 replicas of --workers with one gunicorn of as many (sync, gthread)",
    )
    ap.add_argument("--attack", type=int, default=50, help="slow-header connections (--via-nginx; 0: none)")
    ap.add_argument("--threads", type=int, default=4, help="threads a gthread worker (--via-nginx)")
    ap.add_argument("--nginx-rate", default="1000r/s", help="nginx's per-address rate for the robots (--via-nginx)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the plain load (--via-nginx)")
    ap.add_argument("--timeout", type=float, default=30, help="seconds a request may take")
    a = ap.parse_args()
    data = Path(a.data or a.serve) if a.data or a.serve else common.default_data()
    papers = sample_papers(data)
    if a.via_nginx:
        return compare(a, papers)
    server = Gunicorn(Path(a.serve), a.workers) if a.serve else None
    base = server.url if server else a.url
    if not base:
        ap.error("give --url or --serve")
    killed: dict[str, object] = {}

    def tick(t: float) -> None:
        if server and a.kill_worker_at is not None and "pid" not in killed and t >= a.kill_worker_at:
            victim = server.workers()[0]
            os.kill(victim, signal.SIGKILL)
            killed.update(pid=victim, at=t)

    try:
        stats, elapsed = run_load(base, papers, a.users, a.seconds, a.max_requests, on_tick=tick, timeout=a.timeout)
        print(report(stats, elapsed))
        verdict = throughput(stats, elapsed)
        replaced = True
        if killed:
            time.sleep(2)
            now = server.workers()
            replaced = killed["pid"] not in now and len(now) == a.workers
            kill = (
                f"killed worker {killed['pid']} at {killed['at']:.1f} s; workers now {now}; "
                f"replaced: {replaced}; requests lost: {len(stats.errors)} (in flight at most {a.users})"
            )
            print(kill)
            verdict += f"; {kill}"
        common.write_results("load", REQUEST_COLUMNS, request_rows(stats), verdict, errors=stats.errors[:10])
        if killed:
            return 0 if replaced and len(stats.errors) <= a.users else 1
        return 0 if not stats.errors else 1
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
