"""The deployment of deploy/: nginx (deploy/nginx.conf.template, rendered by deploy/render.py) in front of two
gunicorn replicas of the app on the default dataset, all real processes on loopback.

Client addresses are loopback addresses of their own (127.0.0.x) so that nginx's per-address limits see separate
visitors: 127.0.0.1 a visitor, .2 a greedy script, .3 a slow-header attacker, .4 slow uploads, .5 a browsing
session, .10-.13 the request streams of the replica-kill test.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import random
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import servers
from tests.conftest import DEFAULT_DATA, ROOT

pytestmark = [
    pytest.mark.slow,  # nginx and gunicorn processes, a 30 s attack: not in the mutation run
    pytest.mark.skipif(
        not servers.NGINX.exists(), reason=f"needs nginx at {servers.NGINX} (apt-get install nginx-light)"
    ),
]

BIG_VIEW = "/graph?seeds=1412.6980,1512.03385,1409.1556&limit=3000"  # 5,000 nodes


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    seconds: float


def get(
    port: int,
    path: str,
    source: str = "127.0.0.1",
    headers: dict[str, str] | None = None,
    timeout: float = 5.0,
    method: str = "GET",
    body: bytes | None = None,
) -> Answer:
    """One request on a new connection from ``source``; the body as sent (http.client decompresses nothing)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    t = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
    finally:
        conn.close()
    return Answer(resp.status, resp.headers, data, time.perf_counter() - t)


def wire_bytes(port: int, path: str, headers: str = "") -> bytes:
    """Everything the server sends for a GET (status line, headers, chunked or plain body), as it crosses the wire."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}\r\n".encode())
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def served(replica: servers.Server) -> int:
    """Requests a replica has answered (its access log)."""
    return len(re.findall(r'^127\.0\.0\.1 "', replica.log.read_text(), re.M))


@dataclass
class Stack:
    replicas: list[servers.Server]
    nginx: servers.Nginx
    logs: Path

    @property
    def port(self) -> int:
        return self.nginx.port


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    logs = tmp_path_factory.mktemp("deploy")
    replicas = servers.start_all(
        [lambda i=i: servers.Gunicorn(DEFAULT_DATA, 2, logs / f"replica-{i}.log") for i in (1, 2)]
    )
    try:
        nginx = servers.Nginx([r.address for r in replicas])
    except Exception:
        for r in replicas:
            r.stop()
        raise
    s = Stack(replicas, nginx, logs)
    try:
        yield s
    finally:
        nginx.stop(keep=True)
        shutil.copytree(nginx.root, logs / "nginx", dirs_exist_ok=True, ignore=shutil.ignore_patterns("cache", "*temp"))
        shutil.rmtree(nginx.root, ignore_errors=True)
        for r in s.replicas:
            r.stop()


def probe(
    port: int, seconds: float, source: str = "127.0.0.1", interval: float = 0.2, timeout: float = 3.0
) -> list[tuple[str, int | str, float]]:
    """A visitor's requests, one every ``interval`` seconds on new connections: (path, status or error, seconds)."""
    paths = ["/health", "/graph?seeds=1706.03762", "/"]
    out: list[tuple[str, int | str, float]] = []
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        path = paths[i % len(paths)]
        i += 1
        t = time.perf_counter()
        try:
            status: int | str = get(port, path, source, timeout=timeout).status
        except (OSError, http.client.HTTPException) as e:
            status = type(e).__name__
        took = time.perf_counter() - t
        out.append((path, status, took))
        time.sleep(max(0.0, interval - took))
    return out


def summary(results: list[tuple[str, int | str, float]]) -> str:
    bad = [r for r in results if r[1] != 200]
    p99 = servers.percentile([r[2] for r in results], 0.99)
    kinds = {str(s): sum(1 for r in results if r[1] == s) for s in {r[1] for r in results}}
    return f"{len(results)} requests, p99 {p99 * 1000:.0f} ms, not 200: {len(bad)} {kinds}"


def test_slow_header_clients_do_not_stop_the_site(stack: Stack, tmp_path: Path) -> None:
    """50 connections that send a header line every 2 s and never finish, for 30 s, at nginx and, at once, at one
    gunicorn with two sync workers (the "why"): through nginx a visitor's requests all succeed, quickly."""
    direct = servers.Gunicorn(DEFAULT_DATA, 2, tmp_path / "direct.log")  # sync workers, as the Procfile runs them
    try:
        with (
            servers.SlowHeaders(stack.port, 50, source="127.0.0.3") as at_nginx,
            servers.SlowHeaders(direct.port, 50, source="127.0.0.3") as at_direct,
        ):
            time.sleep(1.0)  # the attack's connections are open before the visitor comes
            with ThreadPoolExecutor(2) as pool:
                via_f = pool.submit(probe, stack.port, 30.0)
                direct_f = pool.submit(probe, direct.port, 30.0)
                via, plain = via_f.result(), direct_f.result()
        print(
            f"\nthrough nginx: {summary(via)}; slow connections opened {at_nginx.opened}, "
            f"closed by nginx {at_nginx.closed}"
        )
        print(
            f"gunicorn alone (2 sync workers): {summary(plain)}; slow connections opened {at_direct.opened}, "
            f"closed by gunicorn {at_direct.closed}"
        )
    finally:
        direct.stop()
    assert len(via) >= 100
    assert [r for r in via if r[1] != 200] == []
    assert servers.percentile([r[2] for r in via], 0.99) < 1.0, summary(via)
    assert at_nginx.closed >= 50  # client_header_timeout: each slow connection was cut after 10 s, then reopened
    # the "why": the same attack on gunicorn's sync workers leaves a visitor without answers
    failed = [r for r in plain if r[1] != 200 or r[2] > 1.0]
    assert len(failed) >= 0.8 * len(plain), summary(plain)


def test_killing_a_replica_loses_no_get(stack: Stack) -> None:
    """SIGKILL one replica (master and workers) during four streams of GETs: nginx passes every request that met
    the dead replica (refused, or reset in flight) to the other one; every answer is 200."""
    victim = stack.replicas[0]
    seeds = [n[0] for n in json.loads(get(stack.port, "/graph?seeds=1706.03762").body)["nodes"]][:200]
    results: list[tuple[str, int | str]] = []
    lock = threading.Lock()
    start = time.monotonic()
    served_before_kill: list[int] = []

    def stream(k: int) -> None:
        rng = random.Random(k)
        while time.monotonic() - start < 6.0:
            path = rng.choice(["/health", "/", "/_dash-layout", f"/graph?seeds={rng.choice(seeds)}"])
            try:
                status: int | str = get(stack.port, path, f"127.0.0.{10 + k}", timeout=10).status
            except (OSError, http.client.HTTPException) as e:
                status = type(e).__name__
            with lock:
                results.append((path, status))
            time.sleep(0.08)  # some 10 requests/s a stream: under the per-address rate

    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(stream, k) for k in range(4)]
        time.sleep(2.0)
        served_before_kill.append(served(victim))
        with lock:
            before = len(results)
        pids = victim.kill()
        for f in futures:
            f.result()
    access = stack.nginx.access_log.read_text()
    retried = [line for line in access.splitlines() if re.search(r"upstream=\S+, \S+", line)]
    print(
        f"\nkilled replica {victim.address} (pids {pids}) after {before} requests; {len(results)} in all; "
        f"{len(retried)} passed on to the other replica"
    )
    try:
        assert served_before_kill[0] > 10  # the victim was serving its share
        assert len(results) - before > 50
        assert [r for r in results if r[1] != 200] == []
        assert retried  # the kill was felt: requests met the dead replica and went on
    finally:  # the replica back (same port), for the tests after this one
        stack.replicas[0] = servers.Gunicorn(DEFAULT_DATA, 2, stack.logs / "replica-1b.log", port=victim.port)


def test_rate_limit_is_per_client_address(stack: Stack) -> None:
    """A script above the rate gets 429 while another address is served; a visitor's browsing session is not
    limited."""
    greedy = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5, source_address=("127.0.0.2", 0))
    statuses = []
    refused: tuple[http.client.HTTPMessage, bytes] | None = None
    for _ in range(100):  # one keep-alive connection, as fast as it goes
        greedy.request("GET", "/health")
        resp = greedy.getresponse()
        body = resp.read()
        statuses.append(resp.status)
        if resp.status == 429:
            refused = (resp.headers, body)
    other = get(stack.port, "/health", "127.0.0.1")
    for _ in range(10):
        greedy.request("GET", "/health")
        resp = greedy.getresponse()
        resp.read()
        statuses.append(resp.status)
    greedy.close()
    print(f"\ngreedy client: {statuses.count(200)} answered, {statuses.count(429)} refused (429)")
    assert statuses[:41] == [200] * 41  # the burst (40) passes
    assert statuses.count(429) >= 20 and set(statuses) == {200, 429}  # 69 of 110 here: 20 r/s refill the bucket
    assert 429 in statuses[100:]  # still refused after the other address was served
    assert other.status == 200
    assert refused is not None
    headers, body = refused
    assert json.loads(body) == {"error": "too many requests: slow down", "status": 429}
    assert headers["Retry-After"] == "1" and headers["Content-Type"] == "application/json"

    stats = servers.Stats()
    visitor = servers.Visitor(
        stack.nginx.url,
        servers.sample_papers(DEFAULT_DATA, n=20),
        stats,
        random.Random(3),
        source="127.0.0.5",
        timeout=10,
    )
    visitor.visit()  # open, search as one types, expand, filter, change layout: with no pause between
    print(f"a browsing session: {stats.count} requests, errors {stats.errors}")
    assert stats.count >= 20 and stats.errors == []


def test_connection_limit_per_address_and_slow_uploads_hold_no_worker(stack: Stack) -> None:
    """30 uploads from one address that send their headers and then trickle: 20 are taken (and buffered by nginx:
    the replicas see none of them), 10 get 429 at once; another address is served meanwhile."""
    before = [r.log.read_text().count('"POST /library') for r in stack.replicas]
    head = (
        b"POST /library?name=lib.bib HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
        b"Content-Length: 100000\r\n\r\n@article{a,\n"
    )
    socks = []
    try:
        for _ in range(30):
            s = socket.create_connection(("127.0.0.1", stack.port), timeout=5, source_address=("127.0.0.4", 0))
            s.sendall(head)
            socks.append(s)
        time.sleep(1.0)
        answers = []
        for s in socks:
            s.settimeout(0.05)
            try:
                answers.append(s.recv(4096).split(b"\r\n", 1)[0])
            except TimeoutError:
                answers.append(b"")  # still uploading
        other = get(stack.port, "/", "127.0.0.1")
        after = [r.log.read_text().count('"POST /library') for r in stack.replicas]
    finally:
        for s in socks:
            s.close()
    print(
        f"\n30 slow uploads from one address: {answers.count(b'')} taken, {len(answers) - answers.count(b'')} "
        f"answered {set(answers) - {b''}}; a page from another address in {other.seconds * 1000:.0f} ms"
    )
    assert answers.count(b"HTTP/1.1 429 Too Many Requests") == 10 and answers.count(b"") == 20
    assert other.status == 200 and other.seconds < 1.0
    assert after == before  # the uploads in progress reached no gunicorn worker


def test_request_bodies_up_to_the_apps_limit(stack: Stack) -> None:
    """client_max_body_size matches POST /library's 2 MiB: a bigger file is refused by nginx (413, the app's error
    shape), a file just under it reaches the app (which names the file it cannot read)."""
    big = get(stack.port, "/library?name=big.bib", method="POST", body=b"x" * (2 * 1024 * 1024 + 1), timeout=10)
    assert big.status == 413
    assert json.loads(big.body) == {"error": "request body too large", "status": 413}
    under = get(stack.port, "/library?name=under.bib", method="POST", body=b"\xff" * (2 * 1024 * 1024), timeout=10)
    assert under.status == 400 and json.loads(under.body)["error"].startswith("under.bib")


def test_gzip_shrinks_a_big_view(stack: Stack) -> None:
    """The 5,000-node view with Accept-Encoding: gzip crosses the wire at under a third of its plain size (gzip
    cannot reach a quarter on this payload at any level: its titles and author lists compress about 3.3 times)."""
    plain = wire_bytes(stack.port, BIG_VIEW)
    packed = wire_bytes(stack.port, BIG_VIEW, "Accept-Encoding: gzip, deflate, br\r\n")
    answer = get(stack.port, BIG_VIEW, headers={"Accept-Encoding": "gzip"})
    assert answer.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in answer.headers["Vary"]
    document = json.loads(gzip.decompress(answer.body))
    assert len(document["nodes"]) == 5000
    assert b"Content-Encoding: gzip" in packed.split(b"\r\n\r\n", 1)[0]
    assert b"Content-Encoding" not in plain.split(b"\r\n\r\n", 1)[0]
    ratio = len(packed) / len(plain)
    print(f"\n{BIG_VIEW}: {len(plain):,} bytes plain, {len(packed):,} gzipped on the wire ({ratio:.3f})")
    assert ratio <= 1 / 3


def test_server_header_carries_no_version_and_app_headers_pass(stack: Stack) -> None:
    page = get(stack.port, "/")
    health = get(stack.port, "/health")
    refused = get(
        stack.port, "/library?name=x.bib", method="POST", headers={"Content-Length": str(3 * 1024 * 1024)}, body=b""
    )  # refused on the header alone
    for answer in (page, health, refused):
        assert answer.headers.get_all("Server") == ["nginx"]
        assert b"nginx/" not in answer.body
    assert refused.status == 413
    assert "script-src 'self' 'sha256-" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"


def logged(stack: Stack, path: str, times: int = 1) -> None:
    """Wait until nginx's access log holds ``times`` GETs of ``path``. nginx commits a cache entry just before it
    logs the request that filled it, and a client can be quicker: in back-to-back pairs of the same new view, about
    1 in 100 second requests went to a replica too (none of 322 after waiting for the log line)."""
    line = f'"GET {path} HTTP/1.1"'
    end = time.monotonic() + 5.0
    while stack.nginx.access_log.read_text().count(line) < times:
        assert time.monotonic() < end, f"nginx never logged {line}"
        time.sleep(0.002)


def test_cache_honours_the_apps_headers(stack: Stack) -> None:
    """GET /graph (public, an hour, ETag) and Dash's versioned scripts (a year) are kept by nginx: the second
    request does not reach a replica, a revalidation with the ETag gets 304; whatever the client's
    Accept-Encoding, one copy serves all."""
    path = "/graph?seeds=2106.03764"
    before = stack.nginx.access_log.read_text().count(f'"GET {path} HTTP/1.1"')
    first = get(stack.port, path)
    logged(stack, path, before + 1)
    second = get(stack.port, path, headers={"Accept-Encoding": "gzip"})
    third = get(stack.port, path, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert (first.headers["X-Cache-Status"], second.headers["X-Cache-Status"], third.headers["X-Cache-Status"]) == (
        "MISS",
        "HIT",
        "HIT",
    )
    assert first.headers["Cache-Control"] == "public, max-age=3600"
    etag = first.headers["ETag"]
    assert gzip.decompress(second.body) == first.body
    again = get(stack.port, path, headers={"If-None-Match": etag})
    assert again.status == 304 and again.body == b""
    script = re.search(
        r'src="(/_dash-component-suites/[^"]+)"',
        gzip.decompress(get(stack.port, "/", headers={"Accept-Encoding": "gzip"}).body).decode(),
    ).group(1)
    before = stack.nginx.access_log.read_text().count(f'"GET {script} HTTP/1.1"')
    statuses = [get(stack.port, script).headers["X-Cache-Status"]]
    logged(stack, script, before + 1)
    statuses.append(get(stack.port, script).headers["X-Cache-Status"])
    assert statuses[1] == "HIT"
    health = [get(stack.port, "/health").headers.get("X-Cache-Status") for _ in range(2)]
    assert health == [None, None]  # not a cached location


@pytest.mark.skipif(shutil.which("envsubst") is None, reason="needs envsubst (gettext-base)")
def test_envsubst_renders_what_render_py_renders(tmp_path: Path) -> None:
    """The official nginx image fills the template with envsubst, of the variables set in its environment (its
    20-envsubst-on-templates.sh): the result is the config render.py writes, so the tests test the deployment."""
    render = servers.render_module()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": "/root",
        "LISTEN": "8080",
        "UPSTREAMS": "server app1:8050;\n        server app2:8050;",
        "STATE_DIR": "/var/cache/nginx/citemap",
        "LOG_DIR": "/var/log/nginx",
        "RATE": "20r/s",
        "BURST": "40",
        "CONN_LIMIT": "20",
    }
    defined = " ".join(f"${{{name}}}" for name in env)
    out = subprocess.run(
        ["envsubst", defined],
        input=(ROOT / "deploy" / "nginx.conf.template").read_text(),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    expected = render.render(
        8080, ["app1:8050", "app2:8050"], Path("/var/cache/nginx/citemap"), log_dir=Path("/var/log/nginx")
    )
    assert out == expected
    compose = (ROOT / "deploy" / "docker-compose.yml").read_text()
    for name in ("LISTEN", "UPSTREAMS", "STATE_DIR", "LOG_DIR", "RATE", "BURST", "CONN_LIMIT"):
        assert re.search(rf"^\s+{name}: ", compose, re.M), f"docker-compose.yml does not set {name}"
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        out.replace("app1:8050", "127.0.0.1:1")
        .replace("app2:8050", "127.0.0.1:2")
        .replace("/var/cache/nginx/citemap", str(tmp_path))
        .replace("/var/log/nginx", str(tmp_path))
    )
    check = subprocess.run(
        [str(servers.NGINX), "-t", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
