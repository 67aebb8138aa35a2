"""Load test: replay realistic browsing (open, search, expand, filter) against a running citemap.

    python bench/load.py --url http://127.0.0.1:8050 --users 8 --seconds 20
    python bench/load.py --serve DATASET --workers 2 --seconds 20 --kill-worker-at 8
    python bench/load.py --serve DATASET --workers 2 --seconds 10 --via-nginx [--rounds 3] [--attack 50] [--threads 4]

With ``--serve`` it starts gunicorn itself (the project's settings), and with ``--kill-worker-at S``
it kills one worker with SIGKILL after S seconds and checks that the master replaces it. Loopback
only, bounded in time (``--seconds``) and count (``--max-requests``). Prints throughput, p50/p99
latency per kind of request, and errors (a request lost to the killed worker counts as an error).

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
import importlib.util
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import requests
from requests.adapters import HTTPAdapter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadgen import dash_payload

ROOT = Path(__file__).resolve().parent.parent
NGINX = Path(os.environ.get("CITEMAP_NGINX", "/usr/sbin/nginx"))


class SourceAddressAdapter(HTTPAdapter):
    """requests' connections from a given local address: on loopback, 127.0.0.x are client addresses of their own
    to nginx's per-address limits."""

    def __init__(self, source: str) -> None:
        self.source = source  # before HTTPAdapter.__init__, which makes the pool manager
        super().__init__()

    def init_poolmanager(self, connections: int, maxsize: int, block: bool = False, **pool_kwargs: Any) -> None:
        super().init_poolmanager(connections, maxsize, block, source_address=(self.source, 0), **pool_kwargs)


def session_from(source: str | None = None) -> requests.Session:
    """A requests session, its connections from ``source`` (a local address) when given."""
    session = requests.Session()
    if source:
        session.mount("http://", SourceAddressAdapter(source))
    return session


class DashClient:
    """Calls a Dash app's server callbacks the way the browser's renderer does."""

    def __init__(self, base: str, session: requests.Session | None = None, timeout: float = 30) -> None:
        self.base = base.rstrip("/")
        self.http = session or requests.Session()
        deps = self.http.get(self.base + "/_dash-dependencies", timeout=timeout).json()
        self.callbacks = {d["output"]: d for d in deps if not d.get("clientside_function")}

    def find(self, output_prefix: str) -> str:
        return next(k for k in self.callbacks if k.lstrip(".").startswith(output_prefix))

    def body(self, output: str, values: dict[str, object], changed: list[str]) -> bytes:
        return dash_payload(self.callbacks[output], {k: values[k] for k in [*changed, *values] if k in values})

    def call(
        self, output_prefix: str, values: dict[str, object], changed: list[str] | None = None, timeout: float = 30
    ) -> requests.Response:
        output = self.find(output_prefix)
        changed = changed if changed is not None else list(values)[:1]
        return self.http.post(
            self.base + "/_dash-update-component",
            data=self.body(output, values, changed),
            headers={"Content-Type": "application/json"},
            timeout=timeout,
        )


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

    def __init__(
        self,
        base: str,
        papers: list[tuple[str, str, list[str]]],
        stats: Stats,
        rng: random.Random,
        source: str | None = None,
        timeout: float = 30,
    ) -> None:
        self.base, self.papers, self.stats, self.rng, self.timeout = base, papers, stats, rng, timeout
        self.client = DashClient(base, session_from(source), timeout=timeout)

    def call(
        self,
        output_prefix: str,
        values: dict[str, object],
        changed: list[str] | None = None,
    ) -> requests.Response:
        return self.client.call(output_prefix, values, changed, timeout=self.timeout)

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
        self.timed("graph", self.client.http.get, self.base + "/graph" + query, timeout=self.timeout)
        self.timed("render-side", self.call, "span-status.children", {"store-view-state.data": query})
        self.timed(
            "render-panel",
            self.call,
            "div-paper.children",
            {"store-view-state.data": query, "radio-list-sort.value": "citations"},
        )

    def navigate(self, query: str) -> str:
        resp = self.timed("state", self.call, "url.search", {"url.search": query})
        if resp is None:
            return query
        new = resp.json()["response"]["store-view-state"]["data"]
        self.render(new)
        return new

    def visit(self) -> None:
        seed, title, neighbours = self.rng.choice(self.papers)
        self.timed("open", self.client.http.get, self.base + "/", timeout=self.timeout)
        self.timed("open", self.client.http.get, self.base + "/_dash-layout", timeout=self.timeout)
        query = self.navigate(f"?seeds={seed}")
        words = title.split()[:3]
        for i in range(1, len(" ".join(words)) + 1, 4):  # typing, a suggestion request every few keys
            self.timed("search", self.call, "div-search-results.children", {"input-search.value": " ".join(words)[:i]})
        if neighbours:
            target = self.rng.choice(neighbours)
            resp = self.timed(
                "expand",
                self.call,
                "url.search",
                {
                    "graph-citations.tapNodeData": {"id": target, "timeStamp": time.time()},
                    "store-view-state.data": query,
                    "url.search": query,
                },
                changed=["graph-citations.tapNodeData"],
            )
            if resp is not None:
                query = resp.json()["response"]["store-view-state"]["data"]
                self.render(query)
        self.navigate(query + "&years=2015-2023&min_citations=1")
        self.navigate(f"?seeds={seed}&layout=timeline&color=year")


def sample_papers(data: Path, n: int = 200, seed: int = 1) -> list[tuple[str, str, list[str]]]:
    """Papers to browse: (id, title, a few neighbour ids), from a dataset folder."""
    sys.path.insert(0, str(ROOT))
    from dashboard.dataset.store import Store

    store = Store.load(data)
    rng = random.Random(seed)
    rows = [int(r) for r in store.arrays["rank_rows"][: max(n * 5, 1000)]]
    rng.shuffle(rows)
    out = []
    for r in rows[:n]:
        nb = store.ids(list(store.references(r, 20)) + list(store.citers(r, 20)))
        out.append((store.id(r), store.titles([r])[0], nb[:10]))
    return out


def run_load(
    base: str,
    papers: list[tuple[str, str, list[str]]],
    users: int,
    seconds: float,
    max_requests: int,
    on_tick=None,
    sources: list[str] | None = None,
    timeout: float = 30,
) -> tuple[Stats, float]:
    """Run ``users`` visitors until ``seconds`` pass or ``max_requests`` are made; visitor k connects from
    ``sources[k % len(sources)]`` when given; ``timeout``: seconds a request may take."""
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
                source = sources[k % len(sources)] if sources else None
                visitor = visitor or Visitor(base, papers, stats, rng, source, timeout)
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

    def __init__(
        self,
        cmd: list[str],
        port: int,
        env: dict[str, str] | None = None,
        log: Path | None = None,
        timeout: float = 120,
    ) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"citemap-server-{port}.log"
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=self.log.open("w"), stderr=subprocess.STDOUT
        )
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

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def workers(self) -> list[int]:
        import psutil

        return [c.pid for c in psutil.Process(self.proc.pid).children() if c.is_running()]

    def kill(self) -> list[int]:
        """SIGKILL the master and its workers at once (a crashed machine, an OOM kill): nothing is closed cleanly.
        Returns the pids killed."""
        import psutil

        master = psutil.Process(self.proc.pid)
        procs = [master, *master.children()]
        for proc in procs:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.kill()
        self.proc.wait(10)
        psutil.wait_procs(procs[1:], timeout=10)
        return [proc.pid for proc in procs]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Gunicorn(Server):
    """gunicorn with the project's settings on a loopback port (a free one unless given); ``threads`` > 1 sets
    CITEMAP_THREADS, which makes gunicorn use its gthread worker."""

    def __init__(
        self, data: Path, workers: int = 2, log: Path | None = None, *, port: int | None = None, threads: int = 1
    ) -> None:
        port = port or free_port()
        exe = Path(sys.executable).with_name("gunicorn")
        cmd = [
            str(exe),
            "--config",
            "python:dashboard.serving.gunicorn_conf",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "dashboard.app:server",
        ]
        env = {"CITEMAP_DATA": str(data), "CITEMAP_THREADS": str(threads)}
        super().__init__(cmd, port, env=env, log=log)


def start_all(factories: list[Callable[[], Server]]) -> list[Server]:
    """Start servers at once (each loads the dataset); if one fails, stop the others and raise."""
    with ThreadPoolExecutor(len(factories)) as pool:
        futures = [pool.submit(f) for f in factories]
    started = [f.result() for f in futures if f.exception() is None]
    errors = [f.exception() for f in futures if f.exception() is not None]
    if errors:
        for s in started:
            s.stop()
        raise errors[0]
    return started


def _render_module() -> Any:
    spec = importlib.util.spec_from_file_location("citemap_deploy_render", ROOT / "deploy" / "render.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Nginx:
    """nginx with deploy/nginx.conf.template (rendered by deploy/render.py) on a free loopback port, in front of
    ``upstreams`` ("host:port"). Its files (config, pid, temporary files, cache, logs) go to a fresh directory
    that nginx's workers can reach when nginx starts as root (they run as nobody then)."""

    def __init__(
        self,
        upstreams: list[str],
        *,
        rate: str | None = None,
        burst: int | None = None,
        conn_limit: int | None = None,
        timeout: float = 20,
    ) -> None:
        render = _render_module()
        self.root = Path(tempfile.mkdtemp(prefix="citemap-nginx-"))
        self.root.chmod(0o755)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        options = {k: v for k, v in {"rate": rate, "burst": burst, "conn_limit": conn_limit}.items() if v is not None}
        self.conf = render.write(f"127.0.0.1:{self.port}", upstreams, self.root, **options)
        self.error_log = self.root / "error.log"
        self.access_log = self.root / "access.log"
        cmd = [str(NGINX), "-p", str(self.root), "-c", str(self.conf), "-e", str(self.error_log), "-g", "daemon off;"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=(self.root / "stderr.log").open("w"))
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.root / 'stderr.log').read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("nginx did not start")

    def cache_statuses(self) -> Counter[str]:
        """How many requests the access log shows per cache status (HIT, MISS, ...; "-": not cacheable)."""
        return Counter(re.findall(r" cache=(\S+)$", self.access_log.read_text(), re.M))

    def stop(self, keep: bool = False) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # fast shutdown: open connections are closed
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if not keep:
            shutil.rmtree(self.root, ignore_errors=True)


class SlowHeaders:
    """A slow-header ("slowloris") client: ``n`` connections from ``source`` to a loopback ``port``, each sending
    a request's header lines one every ``interval`` seconds and never the blank line that ends them. A connection
    the server closes (or answers) is opened again at the next round, so ``n`` stay open for as long as it runs.
    ``closed``: how many the server closed."""

    def __init__(self, port: int, n: int = 50, interval: float = 2.0, source: str = "127.0.0.3") -> None:
        self.port, self.n, self.interval, self.source = port, n, interval, source
        self.opened = self.closed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> SlowHeaders:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _open(self) -> socket.socket | None:
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=2, source_address=(self.source, 0))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow-headers\r\n")
            s.setblocking(False)
        except OSError:
            return None
        self.opened += 1
        return s

    def _alive(self, s: socket.socket, k: int) -> bool:
        try:
            s.recv(4096)  # an answer (408, 400) or b"" (closed): the server is done with this one
            return False
        except BlockingIOError:
            pass  # nothing to read: still waiting for the rest of the header
        except OSError:
            return False
        try:
            s.send(b"X-Slow-%d: %d\r\n" % (k, time.monotonic_ns()))
        except OSError:
            return False
        return True

    def _run(self) -> None:
        socks: list[socket.socket | None] = [self._open() for _ in range(self.n)]
        k = 0
        while not self._stop.wait(self.interval):
            k += 1
            for i, s in enumerate(socks):
                if s is not None and self._alive(s, k):
                    continue
                if s is not None:
                    self.closed += 1
                    s.close()
                socks[i] = self._open()
        for s in socks:
            if s is not None:
                s.close()


def report(stats: Stats, elapsed: float) -> str:
    lines = [f"{'request':<14}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}"]
    for kind, lat in sorted(stats.latencies.items()):
        p50, p99 = percentile(lat, 0.5) * 1000, percentile(lat, 0.99) * 1000
        lines.append(f"{kind:<14}{len(lat):>8}{p50:>10.1f}{p99:>10.1f}")
    everything = [v for lat in stats.latencies.values() for v in lat]
    lines.append(
        f"{'all':<14}{len(everything):>8}{percentile(everything, 0.5) * 1000:>10.1f}"
        f"{percentile(everything, 0.99) * 1000:>10.1f}"
    )
    lines.append(
        f"throughput {len(everything) / elapsed:.1f} requests/s over {elapsed:.1f} s; errors {len(stats.errors)}"
    )
    for e in stats.errors[:10]:
        lines.append(f"  error: {e}")
    return "\n".join(lines)


@dataclass
class Phase:
    target: str
    load: str
    stats: Stats
    elapsed: float
    loadavg: float  # the machine's 1-minute load average at the end: other work on it skews the numbers

    def row(self) -> str:
        everything = [v for lat in self.stats.latencies.values() for v in lat]
        return (
            f"{self.target:<44}{self.load:<22}{len(everything) / self.elapsed:>8.1f}"
            f"{percentile(everything, 0.5) * 1000:>9.1f}{percentile(everything, 0.99) * 1000:>9.1f}"
            f"{len(self.stats.errors):>8}{self.loadavg:>9.2f}"
        )

    @property
    def throughput(self) -> float:
        return self.stats.count / self.elapsed

    @property
    def p99(self) -> float:
        return percentile([v for lat in self.stats.latencies.values() for v in lat], 0.99)


def compare(a: argparse.Namespace, papers: list[tuple[str, str, list[str]]]) -> int:
    """--via-nginx: deploy/'s nginx + 2 replicas against one gunicorn (sync, then gthread) of as many workers,
    under the browsing load and again under a slow-header attack."""
    data = Path(a.serve or ROOT / "data")
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
    print(f"{'target':<44}{'load':<22}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'loadavg':>9}")
    for phase in phases:
        print(phase.row())
    plain = [p for p in phases if p.load == "browsing"]
    via = [p for p in plain if p.target == targets[0][0]]
    direct = [p for p in plain if p.target == targets[1][0]]
    ratios = sorted(v.throughput / d.throughput for v, d in zip(via, direct, strict=True))
    p99s = sorted(v.p99 / d.p99 for v, d in zip(via, direct, strict=True))
    ratio = ratios[len(ratios) // 2]
    print(
        f"through nginx / direct sync, browsing, round by round: throughput "
        f"{', '.join(f'{x:.2f}x' for x in ratios)} (median {ratio:.2f}x; target >= 0.8x); p99 "
        f"{', '.join(f'{x:.2f}x' for x in p99s)}"
    )
    print("nginx cache, all phases: " + ", ".join(f"{k} {v}" for k, v in sorted(cache.items())))
    nginx_errors = sum(len(p.stats.errors) for p in phases if p.target == targets[0][0])
    return 0 if ratio >= 0.8 and nginx_errors == 0 else 1


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
    data = Path(a.data or a.serve or ROOT / "data")
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
        if killed:
            time.sleep(2)
            now = server.workers()
            replaced = killed["pid"] not in now and len(now) == a.workers
            print(
                f"killed worker {killed['pid']} at {killed['at']:.1f} s; workers now {now}; "
                f"replaced: {replaced}; requests lost: {len(stats.errors)} (in flight at most {a.users})"
            )
            if not replaced or len(stats.errors) > a.users:
                return 1
        return 0 if not stats.errors or killed else 1
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
