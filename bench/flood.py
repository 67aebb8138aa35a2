"""One address flooding the deployment of deploy/ (nginx in front of two replicas, as deployed: the app's per-address
budget on, nginx's limits as rendered by deploy/render.py), and what another visitor sees meanwhile.

    python bench/flood.py [--seconds 10] [--families "many seeds,previews"] [--connections 4,20]

For each family of views that costs the app most (tests/servers.py FAMILIES: 20 seeds, the pictures of 20 seeds,
the field's layer over 20 seeds and 10 expanded papers, story steps, one seed with 60 expanded papers and the
largest limit) and each number of connections, in one run and in turns: another visitor (127.0.0.1: /health and a
light map no one asked for before, alternately, a request every 0.1 s on new connections) alone for ``--seconds``,
then the same visitor while one address (127.0.0.20...) floods distinct views of the family on that many
connections (from a process of its own, at the lowest CPU priority: an attacker's machine is not the server's; what
it leaves running on the replicas ends before the next phase).
Printed side by side: the visitor's p99 without and with the flood (targets: /health <= 250 ms, a light map
<= 1 s), what the flood got, and the bytes the logs (nginx's and both replicas') grew by per minute of the flood.
Then the log floods: one address sending requests nginx cannot read (400, 414, 494, 501, HTTP/0.9), and one
asking for answered URLs of 7 kB at its rate (target: at most 1 MB of logs a minute per address, in every case).

Loopback only; the processes it starts are ended on exit. Prints one table and writes it, with every phase's
details, to bench/out/results-flood.json (bench/results.py); exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import common
from common import Gunicorn, Nginx, percentile, start_all

from tests.servers import FAMILIES, Flood, family_views, light_papers, visitor_requests

HEALTH_P99, MAP_P99 = 0.250, 1.0  # seconds: the targets of the visitor's p99
LOG_BYTES_PER_MINUTE = 1_000_000  # the target of the logs an address may cause a minute

MALFORMED = [  # requests nginx refuses while reading them
    b"POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx",
    b"GET /health HTTP/1.1\r\n\r\n",
    b"POST /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
    b"GET /" + b"x" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"y" * 9000 + b"\r\n\r\n",
    b"GET /health\r\n",
]


def log_bytes(nginx: Nginx, replicas: list[Gunicorn]) -> int:
    files = [nginx.access_log, nginx.error_log, *(r.log for r in replicas)]
    return sum(f.stat().st_size for f in files if f.exists())


def p99(results: list[tuple[int | str, float]]) -> float:
    return percentile([r[1] for r in results], 0.99)


def failed(results: list[tuple[int | str, float]]) -> int:
    return sum(1 for r in results if r[0] != 200)


def send_raw(port: int, request: bytes, source: str) -> None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
            s.sendall(request)
            s.recv(256)
    except OSError:
        pass


def settle(replicas: list[Gunicorn], limit: float = 120.0) -> None:
    """Wait until the replicas are idle again: the maps a flood left running (a worker goes on with a request whose
    client has gone) are done, or ended by gunicorn's timeout. Idle: no worker used over 50 ms of CPU in a second;
    or ``limit`` seconds."""
    import psutil

    end = time.monotonic() + limit
    while time.monotonic() < end:
        procs = []
        for r in replicas:
            for pid in r.workers():
                with contextlib.suppress(psutil.Error):
                    procs.append(psutil.Process(pid))
        before = {}
        for proc in procs:
            with contextlib.suppress(psutil.Error):
                before[proc.pid] = sum(proc.cpu_times()[:2])
        time.sleep(1.0)
        used = 0.0
        for proc in procs:
            with contextlib.suppress(psutil.Error):
                used = max(used, sum(proc.cpu_times()[:2]) - before.get(proc.pid, 0.0))
        if used < 0.05:
            return


def flood_process(port: int, paths: list[str], source: str, connections: int, stop, out) -> None:
    """A Flood in a process of its own (its threads would otherwise share this process's interpreter with the
    visitor being timed), at the lowest CPU priority (an attacker's own machine is not the server's: here it shares
    the server's cores), until ``stop`` is set; its statuses are put on ``out``."""
    os.nice(19)
    with Flood(port, paths, source, connections, abandon=True, cycle=True) as flood:
        stop.wait()
    out.put(dict(flood.statuses()))


def log_flood(port: int, source: str, seconds: float, requests: list[bytes], pause: float) -> int:
    """``requests`` sent in turn from ``source``, on 4 connections at once, for ``seconds``; how many were sent."""
    stop = time.monotonic() + seconds
    sent = [0]
    lock = threading.Lock()

    def run(k: int) -> None:
        i = k
        while time.monotonic() < stop:
            send_raw(port, requests[i % len(requests)], source)
            i += 4
            with lock:
                sent[0] += 1
            time.sleep(pause)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sent[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds of each phase (default 10)")
    ap.add_argument("--families", default=",".join(FAMILIES), help="families of views, comma-separated")
    ap.add_argument("--connections", default="4,20", help="the flooding address's connections, comma-separated")
    ap.add_argument("--workers", type=int, default=2, help="sync workers a replica (default 2)")
    a = ap.parse_args()
    families = [f.strip() for f in a.families.split(",") if f.strip()]
    unknown = sorted(set(families) - set(FAMILIES))
    if unknown:
        ap.error(f"unknown families {unknown}; there are {list(FAMILIES)}")
    counts = [int(c) for c in a.connections.split(",")]
    data = common.default_data()
    from dashboard.dataset.store import Store

    store = Store.load(data)
    top = [store.id(int(r)) for r in store.arrays["rank_rows"][:300]]
    light = light_papers(data, 200, seed=7)
    logs = Path(tempfile.mkdtemp(prefix="citemap-flood-"))
    replicas = start_all([lambda i=i: Gunicorn(data, a.workers, logs / f"replica-{i}.log") for i in (1, 2)])
    nginx = Nginx([r.address for r in replicas])
    rows: list[dict] = []
    print(
        f"nginx + 2 replicas x {a.workers} sync workers, as deployed (budget and limits on); {a.seconds:.0f} s a "
        f"phase; logs in {logs}",
        flush=True,
    )
    try:
        source = 20
        for family in families:
            for n in counts:
                settle(replicas)
                quiet = visitor_requests(nginx.port, a.seconds, light)
                paths = family_views(family, top, 5000, seed=source)
                before = log_bytes(nginx, replicas)
                started = time.monotonic()
                fork = multiprocessing.get_context("fork")
                stop, out = fork.Event(), fork.Queue()
                flooder = fork.Process(  # a daemon: ended with this process, however it ends
                    target=flood_process, args=(nginx.port, paths, f"127.0.0.{source}", n, stop, out), daemon=True
                )
                flooder.start()
                time.sleep(1.0)  # the flood is on before the visitor comes
                busy = visitor_requests(nginx.port, a.seconds, light)
                stop.set()
                statuses = out.get(timeout=120)
                flooder.join(30)
                settle(replicas)  # what the flood left running is done: its logs are written
                flooded = time.monotonic() - started
                grew = log_bytes(nginx, replicas) - before
                row = {
                    "family": family,
                    "connections": n,
                    "health_p99_ms": [p99(quiet["health"]) * 1000, p99(busy["health"]) * 1000],
                    "map_p99_ms": [p99(quiet["map"]) * 1000, p99(busy["map"]) * 1000],
                    "visitor_failed": failed(quiet["health"] + quiet["map"] + busy["health"] + busy["map"]),
                    "visitor_over_target": [
                        sum(1 for r in busy["health"] if r[1] > HEALTH_P99),
                        sum(1 for r in busy["map"] if r[1] > MAP_P99),
                        len(busy["health"]) + len(busy["map"]),
                    ],
                    "loadavg": os.getloadavg()[0],
                    "flood": {str(k): v for k, v in statuses.items()},
                    "flood_seconds": flooded,
                    "log_bytes_per_minute": grew / flooded * 60,
                }
                rows.append(row)
                print(
                    f"{family:<17} {n:>3} conn  /health p99 {row['health_p99_ms'][0]:6.0f} -> "
                    f"{row['health_p99_ms'][1]:6.0f} ms   map p99 {row['map_p99_ms'][0]:6.0f} -> "
                    f"{row['map_p99_ms'][1]:6.0f} ms   over target {row['visitor_over_target'][0]}+"
                    f"{row['visitor_over_target'][1]} of {row['visitor_over_target'][2]}   visitor failures "
                    f"{row['visitor_failed']}   flood {statuses}   logs {row['log_bytes_per_minute'] / 1e6:.2f} MB/min"
                    f"   loadavg {row['loadavg']:.1f}",
                    flush=True,
                )
                source += 1
        for name, requests, pause in (
            ("requests nginx cannot read", MALFORMED, 0.0),
            (
                "answered 7 kB URLs at the rate",
                [f"GET /health?pad={k}-{'a' * 7000} HTTP/1.1\r\nHost: x\r\n\r\n".encode() for k in range(100)],
                0.2,  # 4 connections, 20 requests a second: the per-address rate
            ),
        ):
            before = log_bytes(nginx, replicas)
            started = time.monotonic()
            sent = log_flood(nginx.port, f"127.0.0.{source}", a.seconds, requests, pause)
            took = time.monotonic() - started
            per_minute = (log_bytes(nginx, replicas) - before) / took * 60
            rows.append({"family": name, "sent": sent, "log_bytes_per_minute": per_minute})
            print(f"{name:<32} {sent:>7} requests   logs {per_minute / 1e6:.3f} MB/min", flush=True)
            source += 1
    finally:
        nginx.stop(keep=True)
        for r in replicas:
            r.stop()
    ok = all(
        r["log_bytes_per_minute"] <= LOG_BYTES_PER_MINUTE
        and ("health_p99_ms" not in r or (r["health_p99_ms"][1] <= HEALTH_P99 * 1000 and r["visitor_failed"] == 0))
        and ("map_p99_ms" not in r or r["map_p99_ms"][1] <= MAP_P99 * 1000)
        for r in rows
    )
    table = table_rows(rows)
    print()
    print(common.markdown(COLUMNS, table))
    verdict = (
        f"targets (another visitor's /health p99 <= 250 ms and light map p99 <= 1 s beside each flood, none of its "
        f"requests failed, logs <= 1 MB a minute per flooding address): {'met' if ok else 'missed'}"
    )
    print(verdict)
    common.write_results("flood", COLUMNS, table, verdict, seconds=a.seconds, phases=rows)
    return 0 if ok else 1


LABELS = {  # tests/servers.py FAMILIES, as the table names them
    "many seeds": "20 seeds",
    "previews": "pictures of 20 seeds",
    "field": "the field's layer",
    "story steps": "story steps",
    "heaviest expands": "60 expanded papers",
}
COLUMNS = [
    "flood",
    "connections",
    "/health p99 ms, alone -> flooded",
    "light map p99 ms, alone -> flooded",
    "logs MB a minute",
    "load average",
]


def side_by_side(phases: list[dict], key: str) -> str:
    return ", ".join(f"{p[key][0]:.0f} -> {p[key][1]:.0f}" for p in phases)


def table_rows(phases: list[dict]) -> list[list[str]]:
    """The printed table: a row per family, its phases (4 and 20 connections) side by side in each cell; a row per
    log flood."""
    out: list[list[str]] = []
    for family in dict.fromkeys(p["family"] for p in phases):
        mine = [p for p in phases if p["family"] == family]
        if "health_p99_ms" not in mine[0]:  # a log flood
            out.append([family, "4", "-", "-", f"{mine[0]['log_bytes_per_minute'] / 1e6:.3f}", "-"])
            continue

        out.append(
            [
                LABELS[family],
                ", ".join(str(p["connections"]) for p in mine),
                side_by_side(mine, "health_p99_ms"),
                side_by_side(mine, "map_p99_ms"),
                ", ".join(f"{p['log_bytes_per_minute'] / 1e6:.2f}" for p in mine),
                ", ".join(f"{p['loadavg']:.0f}" for p in mine),
            ]
        )
    return out


if __name__ == "__main__":
    common.guard()
    sys.exit(main())
