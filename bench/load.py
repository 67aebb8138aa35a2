"""Load test: replay realistic browsing (open, search, expand, filter) against a running citemap.

    python bench/load.py --url http://127.0.0.1:8050 --users 8 --seconds 20
    python bench/load.py --serve DATASET --workers 2 --seconds 20 --kill-worker-at 8

With ``--serve`` it starts gunicorn itself (the project's settings), and with ``--kill-worker-at S``
it kills one worker with SIGKILL after S seconds and checks that the master replaces it. Loopback
only, bounded in time (``--seconds``) and count (``--max-requests``). Prints throughput, p50/p99
latency per kind of request, and errors (a request lost to the killed worker counts as an error).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadgen import dash_payload

ROOT = Path(__file__).resolve().parent.parent


class DashClient:
    """Calls a Dash app's server callbacks the way the browser's renderer does."""

    def __init__(self, base: str, session: requests.Session | None = None) -> None:
        self.base = base.rstrip("/")
        self.http = session or requests.Session()
        deps = self.http.get(self.base + "/_dash-dependencies", timeout=30).json()
        self.callbacks = {d["output"]: d for d in deps if not d.get("clientside_function")}

    def find(self, output_prefix: str) -> str:
        return next(k for k in self.callbacks if k.lstrip(".").startswith(output_prefix))

    def body(self, output: str, values: dict[str, object], changed: list[str]) -> bytes:
        return dash_payload(self.callbacks[output], {k: values[k] for k in [*changed, *values] if k in values})

    def call(self, output_prefix: str, values: dict[str, object], changed: list[str] | None = None,
             timeout: float = 30) -> requests.Response:
        output = self.find(output_prefix)
        changed = changed if changed is not None else list(values)[:1]
        return self.http.post(self.base + "/_dash-update-component", data=self.body(output, values, changed),
                              headers={"Content-Type": "application/json"}, timeout=timeout)


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, seconds: float, error: str | None = None) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            if error:
                self.errors.append(f"{kind}: {error}")

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.latencies.values())


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


class Visitor:
    """One browsing session: open a seed, type a search, expand a neighbour, filter, reset."""

    def __init__(self, base: str, papers: list[tuple[str, str, list[str]]], stats: Stats, rng: random.Random) -> None:
        self.base, self.papers, self.stats, self.rng = base, papers, stats, rng
        self.client = DashClient(base)

    def timed(self, kind: str, fn, *args, **kwargs) -> requests.Response | None:
        t = time.perf_counter()
        try:
            resp = fn(*args, **kwargs)
        except requests.RequestException as e:
            self.stats.record(kind, time.perf_counter() - t, type(e).__name__)
            return None
        err = None if resp.status_code == 200 else f"HTTP {resp.status_code}"
        if err is None and "Traceback" in resp.text:
            err = "traceback in body"
        self.stats.record(kind, time.perf_counter() - t, err)
        return resp if err is None else None

    def render(self, query: str) -> None:
        self.timed("graph", self.client.http.get, self.base + "/graph" + query, timeout=30)
        self.timed("render-side", self.client.call, "span-status.children", {"store-view-state.data": query})
        self.timed("render-panel", self.client.call, "div-paper.children",
                   {"store-view-state.data": query, "radio-list-sort.value": "citations"})

    def navigate(self, query: str) -> str:
        resp = self.timed("state", self.client.call, "url.search", {"url.search": query})
        if resp is None:
            return query
        new = resp.json()["response"]["store-view-state"]["data"]
        self.render(new)
        return new

    def visit(self) -> None:
        seed, title, neighbours = self.rng.choice(self.papers)
        self.timed("open", self.client.http.get, self.base + "/", timeout=30)
        self.timed("open", self.client.http.get, self.base + "/_dash-layout", timeout=30)
        query = self.navigate(f"?seeds={seed}")
        words = title.split()[:3]
        for i in range(1, len(" ".join(words)) + 1, 4):  # typing, a suggestion request every few keys
            self.timed("search", self.client.call, "div-search-results.children",
                       {"input-search.value": " ".join(words)[:i]})
        if neighbours:
            target = self.rng.choice(neighbours)
            resp = self.timed("expand", self.client.call, "url.search",
                              {"graph-citations.tapNodeData": {"id": target, "timeStamp": time.time()},
                               "store-view-state.data": query, "url.search": query},
                              changed=["graph-citations.tapNodeData"])
            if resp is not None:
                query = resp.json()["response"]["store-view-state"]["data"]
                self.render(query)
        self.navigate(query + "&years=2015-2023&min_citations=1")
        self.navigate(f"?seeds={seed}&layout=timeline&color=year")


def sample_papers(data: Path, n: int = 200, seed: int = 1) -> list[tuple[str, str, list[str]]]:
    """Papers to browse: (id, title, a few neighbour ids), from a dataset folder."""
    sys.path.insert(0, str(ROOT))
    from dashboard.store import Store

    store = Store.load(data)
    rng = random.Random(seed)
    rows = [int(r) for r in store.arrays["rank_rows"][: max(n * 5, 1000)]]
    rng.shuffle(rows)
    out = []
    for r in rows[:n]:
        nb = store.ids(list(store.references(r, 20)) + list(store.citers(r, 20)))
        out.append((store.id(r), store.titles([r])[0], nb[:10]))
    return out


def run_load(base: str, papers: list[tuple[str, str, list[str]]], users: int, seconds: float,
             max_requests: int, on_tick=None) -> tuple[Stats, float]:
    """Run ``users`` visitors until ``seconds`` pass or ``max_requests`` are made."""
    host = urlparse(base).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("load.py only targets loopback")
    stats = Stats()
    stop = time.monotonic() + seconds

    def user(k: int) -> None:
        rng = random.Random(k)
        visitor = None
        while time.monotonic() < stop and stats.count < max_requests:
            try:
                visitor = visitor or Visitor(base, papers, stats, rng)
                visitor.visit()
            except (requests.RequestException, KeyError, ValueError) as e:
                stats.record("session", 0.0, type(e).__name__)
                visitor = None
                time.sleep(0.05)

    threads = [threading.Thread(target=user, args=(k,), daemon=True) for k in range(users)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        if on_tick:
            on_tick(time.monotonic() - t0)
        time.sleep(0.1)
    return stats, time.monotonic() - t0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A citemap server process on a loopback port: started, waited for (GET /health), stopped."""

    def __init__(self, cmd: list[str], port: int, env: dict[str, str] | None = None, log: Path | None = None,
                 timeout: float = 120) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"citemap-server-{port}.log"
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **(env or {})},
                                     stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                if requests.get(self.url + "/health", timeout=2).ok:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise RuntimeError("server did not start")

    def workers(self) -> list[int]:
        import psutil

        return [c.pid for c in psutil.Process(self.proc.pid).children() if c.is_running()]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Gunicorn(Server):
    """gunicorn with the project's settings on a free loopback port."""

    def __init__(self, data: Path, workers: int = 2, log: Path | None = None) -> None:
        port = free_port()
        exe = Path(sys.executable).with_name("gunicorn")
        cmd = [str(exe), "--config", "python:dashboard.gunicorn_conf", "--bind", f"127.0.0.1:{port}",
               "--workers", str(workers), "dashboard.app:server"]
        super().__init__(cmd, port, env={"CITEMAP_DATA": str(data)}, log=log)


def report(stats: Stats, elapsed: float) -> str:
    lines = [f"{'request':<14}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}"]
    for kind, lat in sorted(stats.latencies.items()):
        p50, p99 = percentile(lat, 0.5) * 1000, percentile(lat, 0.99) * 1000
        lines.append(f"{kind:<14}{len(lat):>8}{p50:>10.1f}{p99:>10.1f}")
    everything = [v for lat in stats.latencies.values() for v in lat]
    lines.append(f"{'all':<14}{len(everything):>8}{percentile(everything, 0.5) * 1000:>10.1f}"
                 f"{percentile(everything, 0.99) * 1000:>10.1f}")
    lines.append(f"throughput {len(everything) / elapsed:.1f} requests/s over {elapsed:.1f} s; "
                 f"errors {len(stats.errors)}")
    for e in stats.errors[:10]:
        lines.append(f"  error: {e}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a running citemap (loopback)")
    ap.add_argument("--serve", help="dataset folder: start gunicorn on it")
    ap.add_argument("--data", help="dataset folder to draw papers from (default: --serve)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--users", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--max-requests", type=int, default=100_000)
    ap.add_argument("--kill-worker-at", type=float, default=None, help="SIGKILL one worker after S seconds")
    a = ap.parse_args()
    data = Path(a.data or a.serve or ROOT / "data")
    papers = sample_papers(data)
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
        stats, elapsed = run_load(base, papers, a.users, a.seconds, a.max_requests, on_tick=tick)
        print(report(stats, elapsed))
        if killed:
            time.sleep(2)
            now = server.workers()
            replaced = killed["pid"] not in now and len(now) == a.workers
            print(f"killed worker {killed['pid']} at {killed['at']:.1f} s; workers now {now}; "
                  f"replaced: {replaced}; requests lost: {len(stats.errors)} (in flight at most {a.users})")
            if not replaced or len(stats.errors) > a.users:
                return 1
        return 0 if not stats.errors or killed else 1
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
