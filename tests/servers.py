"""Real server processes on loopback, for the tests that start them and for bench/ (its helper module imports them
from here): citemap under ``citemap serve`` or gunicorn, nginx in front of replicas, each started, waited for and
stopped; and what puts them under load: a browsing visitor, a slow-header client."""

from __future__ import annotations

import contextlib
import importlib.util
import json
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
from types import ModuleType
from typing import Any
from urllib.parse import urlparse

import requests
from requests.adapters import HTTPAdapter

ROOT = Path(__file__).resolve().parent.parent
NGINX = Path(os.environ.get("CITEMAP_NGINX", "/usr/sbin/nginx"))
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0 <= q <= 1) of ``values``, interpolated between the two nearest ranks (numpy's default);
    nan when there are none."""
    if not values:
        return float("nan")
    s = sorted(values)
    at = q * (len(s) - 1)
    lo = int(at)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (at - lo)


def end(proc: subprocess.Popen, grace: float = 20.0, *, group: bool = False) -> None:
    """Stop a process we started: SIGTERM, then SIGKILL after ``grace`` seconds. ``group``: signal its whole process
    group (it was started with ``start_new_session``), and kill whatever of the group is left, so that no child of
    it (a gunicorn worker) outlives it."""

    def send(sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            if group:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)

    if proc.poll() is None:
        send(signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            send(signal.SIGKILL)
            proc.wait(10)
    if group:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


class Server:
    """A server process on a loopback port: started, waited for (until ``GET health`` answers), stopped. ``group``:
    the process leads a process group of its own, and :meth:`stop` ends the whole group. If it does not come up (or
    the wait is interrupted), it is stopped and the error raised."""

    def __init__(
        self,
        cmd: list[str],
        port: int,
        env: dict[str, str] | None = None,
        log: Path | None = None,
        timeout: float = 120,
        *,
        health: str = "/health",
        group: bool = False,
    ) -> None:
        self.port = port
        self.url = f"http://{HOST}:{port}"
        self.group = group
        self.log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"citemap-server-{port}.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                env={**os.environ, **(env or {})},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=group,
            )
        try:
            self._wait(health, timeout)
        except BaseException:
            self.stop(grace=5)
            raise

    def _wait(self, health: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited ({self.proc.returncode}): {self.log.read_text()[-2000:]}")
            try:
                if requests.get(self.url + health, timeout=2).ok:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server did not answer {health} in {timeout:.0f} s; see {self.log}")

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"

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

    def stop(self, grace: float = 20.0) -> None:
        end(self.proc, grace, group=self.group)


class Gunicorn(Server):
    """gunicorn with the project's settings on a loopback port (a free one unless given); ``threads`` > 1 sets
    CITEMAP_THREADS, which makes gunicorn use its gthread worker; ``env``: more of the server's environment."""

    def __init__(
        self,
        data: Path,
        workers: int = 2,
        log: Path | None = None,
        *,
        port: int | None = None,
        threads: int = 1,
        env: dict[str, str] | None = None,
        timeout: float = 120,
        group: bool = False,
    ) -> None:
        port = port or free_port()
        exe = Path(sys.executable).with_name("gunicorn")
        cmd = [
            str(exe),
            "--config",
            "python:dashboard.serving.gunicorn_conf",
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            str(workers),
            "dashboard.app:server",
        ]
        env = {"CITEMAP_DATA": str(data), "CITEMAP_THREADS": str(threads), **(env or {})}
        super().__init__(cmd, port, env=env, log=log, timeout=timeout, group=group)


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


def render_module() -> ModuleType:
    """deploy/render.py (not a package), which renders deploy/nginx.conf.template."""
    spec = importlib.util.spec_from_file_location("citemap_deploy_render", ROOT / "deploy" / "render.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Nginx:
    """nginx with deploy/nginx.conf.template (rendered by deploy/render.py) on a free loopback port, in front of
    ``upstreams`` ("host:port"); with ``tls`` (certificate, key) HTTPS on ``tls_port`` too, its host name
    ``server_name``. Its files (config, pid, temporary files, cache, logs) go to a fresh directory that nginx's
    workers can reach when nginx starts as root (they run as nobody then). ``nofile``: the open files nginx is
    started with (soft limit; what a supervisor gives it), else this process's."""

    def __init__(
        self,
        upstreams: list[str],
        *,
        rate: str | None = None,
        burst: int | None = None,
        conn_limit: int | None = None,
        transfers: int | None = None,
        tls: tuple[Path, Path] | None = None,
        server_name: str = HOST,
        nofile: int | None = None,
        timeout: float = 20,
    ) -> None:
        render = render_module()
        self.root = Path(tempfile.mkdtemp(prefix="citemap-nginx-"))
        self.root.chmod(0o755)
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.tls_port = free_port() if tls else None
        limits = {"rate": rate, "burst": burst, "conn_limit": conn_limit, "transfers": transfers}
        options = {k: v for k, v in limits.items() if v is not None}
        if tls:  # (certificate chain, key): HTTPS on tls_port, and HTTP redirects there
            options["tls"] = render.Tls(f"{HOST}:{self.tls_port}", *tls, server_name)
        self.conf = render.write(f"{HOST}:{self.port}", upstreams, self.root, **options)
        self.error_log = self.root / "error.log"
        self.access_log = self.root / "access.log"
        cmd = [str(NGINX), "-p", str(self.root), "-c", str(self.conf), "-e", str(self.error_log), "-g", "daemon off;"]

        def limited() -> None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

        with (self.root / "stderr.log").open("w") as err:
            self.proc = subprocess.Popen(
                cmd, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=limited if nofile else None
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.root / 'stderr.log').read_text()[-2000:]}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("nginx did not start")

    def cache_statuses(self) -> Counter[str]:
        """How many requests the access log shows per cache status (HIT, MISS, ...; "-": not cacheable)."""
        return Counter(re.findall(r" cache=(\S+)$", self.access_log.read_text(), re.M))

    def stop(self, keep: bool = False) -> None:
        end(self.proc, 10)  # SIGTERM, nginx's fast shutdown: open connections are closed
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
            s = socket.create_connection((HOST, self.port), timeout=2, source_address=(self.source, 0))
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


# -- the Dash callbacks, called as the browser's renderer calls them ------------------------------------------------
def dash_payload(callback: dict[str, Any], values: dict[str, Any]) -> bytes:
    """The body the Dash renderer posts to ``/_dash-update-component`` for ``callback`` (an entry of
    ``/_dash-dependencies``) when the inputs named in ``values`` (``"id.prop"``) changed."""
    output: str = callback["output"]
    if output.startswith("..") and output.endswith(".."):
        outputs: Any = []
        for part in output[2:-2].split("..."):
            cid, _, prop = part.rpartition(".")
            outputs.append({"id": cid, "property": prop})
    else:
        cid, _, prop = output.rpartition(".")
        outputs = {"id": cid, "property": prop}

    def arg(dep: dict[str, Any]) -> Any:
        if isinstance(dep["id"], dict) or str(dep["id"]).startswith("{"):
            return []  # a pattern-matching input (ALL) with no matching component on the page
        return {"id": dep["id"], "property": dep["property"], "value": values.get(f"{dep['id']}.{dep['property']}")}

    changed = [k for k in values if any(f"{d['id']}.{d['property']}" == k for d in callback["inputs"])][:1]
    body: dict[str, Any] = {
        "output": output,
        "outputs": outputs,
        "inputs": [arg(d) for d in callback["inputs"]],
        "state": [arg(d) for d in callback.get("state", [])],
        "changedPropIds": changed,
        "parsedChangedPropsIds": changed,
    }
    return json.dumps(body, separators=(",", ":")).encode()


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


# -- browsing load ----------------------------------------------------------------------------------------------------
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
        raise SystemExit("the load only targets loopback")
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


def reload_master(server: Server, timeout: float = 60) -> Any:
    """gunicorn's zero-downtime reload of ``server`` (docs/hosting.md): USR2 makes a new master (a child of the old
    one) that loads the dataset afresh; once its workers are up, TERM sends the old master away, gracefully. Returns
    the new master (a psutil.Process), which the caller stops."""
    import psutil

    old = psutil.Process(server.proc.pid)
    children = {p.pid for p in old.children()}
    workers = len(children)
    os.kill(server.proc.pid, signal.SIGUSR2)
    deadline = time.monotonic() + timeout
    new_master = None
    while new_master is None:
        assert time.monotonic() < deadline, f"no new master with {workers} workers in {timeout:.0f} s"
        fresh = [p for p in old.children() if p.pid not in children]
        new_master = next((p for p in fresh if len(p.children()) == workers), None)
        time.sleep(0.1)
    # the old master's workers finish the requests in hand and go (QUIT is gunicorn's quick shutdown: a worker
    # reading a request when it comes answered it 500)
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(30)
    return new_master


# -- one address flooding views: the families of views that cost the app most --------------------------------------
FAMILIES = ("many seeds", "previews", "field", "story steps", "heaviest expands")


def family_views(family: str, top: list[str], n: int, seed: int, story: tuple[str, int] = ("seeds", 5)) -> list[str]:
    """``n`` distinct request paths of one family of views around the papers ``top`` (at least 60 ids): 20 seeds;
    the picture (``/preview.svg``) of 20 seeds; the field's layer over 20 seeds and their expanded papers; a story's
    steps (``story``: its name and number of steps; a step's query differs only by a word the app ignores); one seed
    with 60 papers expanded and the largest limit."""
    rng = random.Random(seed)

    def seeds(k: int = 20) -> str:
        return ",".join(rng.sample(top, k))

    make = {
        "many seeds": lambda k: f"/graph?seeds={seeds()}",
        "previews": lambda k: f"/preview.svg?seeds={seeds()}&limit=1000",
        "field": lambda k: f"/field?seeds={seeds()}&expand={seeds(10)}&limit=3000",
        "story steps": lambda k: f"/graph?story={story[0]}&step={k % story[1] + 1}&n={k}",
        "heaviest expands": lambda k: f"/graph?seeds={seeds(1)}&expand={seeds(60)}&limit=3000",
    }[family]
    return [make(k) for k in range(n)]


def ask(
    port: int, path: str, source: str, timeout: float = 60.0, opened: Callable[[Any], None] | None = None
) -> tuple[int | str, float, bytes]:
    """One GET on a new connection from ``source`` to nginx or a server on loopback ``port``: (status, or the
    error's name; seconds; the first bytes of the body). ``opened``: told of the connection (http.client's) once
    it is made."""
    import http.client

    conn = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0))
    t = time.perf_counter()
    try:
        conn.connect()
        if opened:
            opened(conn)
        conn.request("GET", path)
        resp = conn.getresponse()
        body = resp.read()
        status: int | str = resp.status
    except (OSError, http.client.HTTPException) as e:
        status, body = type(e).__name__, b""
    finally:
        conn.close()
    return status, time.perf_counter() - t, body[:200]


ABANDONED = "abandoned"  # a Flood's request still waiting when the flood stopped, its connection closed


class Flood:
    """``connections`` connections from ``source`` asking for ``paths`` in turn (each connection a request at a time,
    a new connection each; with ``cycle``, from the first again once all were asked), from entering the block until
    leaving it; then the requests still waiting are waited for, or with ``abandon`` their connections are closed
    (their status: ABANDONED). ``results``: (path, status, seconds, the body's first bytes) of each."""

    def __init__(
        self,
        port: int,
        paths: list[str],
        source: str,
        connections: int,
        timeout: float = 60.0,
        abandon: bool = False,
        cycle: bool = False,
    ) -> None:
        self.port, self.paths, self.source, self.connections, self.timeout = port, paths, source, connections, timeout
        self.abandon, self.cycle = abandon, cycle
        self.results: list[tuple[str, int | str, float, bytes]] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._next = 0
        self._open: dict[int, Any] = {}
        self._threads = [threading.Thread(target=self._run, args=(k,), daemon=True) for k in range(connections)]

    def _take(self) -> str | None:
        with self._lock:
            if self._stop.is_set() or (self._next >= len(self.paths) and not self.cycle):
                return None
            self._next += 1
            return self.paths[(self._next - 1) % len(self.paths)]

    def _opened(self, k: int, conn: Any) -> None:
        with self._lock:
            self._open[k] = conn

    def _run(self, k: int) -> None:
        while (path := self._take()) is not None:
            status, seconds, body = ask(self.port, path, self.source, self.timeout, lambda c: self._opened(k, c))
            with self._lock:
                self._open.pop(k, None)
                if self._stop.is_set() and self.abandon and not isinstance(status, int):
                    status = ABANDONED
                self.results.append((path, status, seconds, body))

    def __enter__(self) -> Flood:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self.abandon:
            with self._lock:
                for conn in self._open.values():
                    with contextlib.suppress(OSError, AttributeError):
                        conn.sock.shutdown(socket.SHUT_RDWR)
        for t in self._threads:
            t.join(self.timeout + 10)

    def statuses(self) -> Counter:
        return Counter(r[1] for r in self.results if r[1] != ABANDONED)


def light_papers(data: Path, n: int = 100, seed: int = 1) -> list[str]:
    """``n`` papers whose maps are light (at most 60 references and citers in all), from a dataset folder."""
    from dashboard.dataset.store import Store

    store = Store.load(data)
    rng = random.Random(seed)
    rows = [int(r) for r in store.arrays["rank_rows"]]
    light = [r for r in rows[len(rows) // 20 :] if 0 < store.n_references(r) + store.n_citers(r) <= 60]
    return store.ids(rng.sample(light, min(n, len(light))))


def visitor_requests(
    port: int, seconds: float, papers: list[str], source: str = "127.0.0.1", pause: float = 0.1, timeout: float = 30.0
) -> dict[str, list[tuple[int | str, float]]]:
    """Another visitor, a request every ``pause`` seconds on new connections for ``seconds``: /health, and maps of
    views no one asked for before (a seed of ``papers``, filtered by a number that changes): (status, seconds)
    by kind."""
    rng = random.Random(len(papers))
    out: dict[str, list[tuple[int | str, float]]] = {"health": [], "map": []}
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        kind = ("health", "map")[i % 2]
        i += 1
        path = "/health" if kind == "health" else f"/graph?seeds={rng.choice(papers)}&min_citations={i}"
        status, took, _ = ask(port, path, source, timeout)
        out[kind].append((status, took))
        time.sleep(pause)
    return out
