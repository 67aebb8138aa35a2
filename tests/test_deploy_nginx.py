"""The deployment of deploy/: nginx (deploy/nginx.conf.template, rendered by deploy/render.py) in front of two
gunicorn replicas of the app on the default dataset, all real processes on loopback.

Client addresses are loopback addresses of their own (127.0.0.x) so that nginx's per-address limits, and the app's
per-address budget, see separate visitors: 127.0.0.1 a visitor, .2 a greedy script, .3 a slow-header attacker and
half-open connections, .4 slow uploads, .5 a browsing session, .6 a sender of malformed requests, .7 a client of the
header test, .8 and .9 uploads and readers, .10-.13 the request streams of the replica-kill test, .14 long URLs,
.20 an address flooding views of every family.

The replicas run with a small budget (REPLICA_ENV: 12 units an address, where a map of 5,000 papers costs 11) so
that an address's budget runs out within seconds; nginx is started with 1,024 open files, as a supervisor gives it
unless told otherwise (its config raises that for its workers).
"""

from __future__ import annotations

import contextlib
import gzip
import http.client
import http.server
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import requests

from tests import servers
from tests.conftest import DEFAULT_DATA, ROOT
from tests.test_request_bodies import chunked

pytestmark = [
    pytest.mark.slow,  # nginx and gunicorn processes, a 30 s attack: not in the mutation run
    pytest.mark.skipif(
        not servers.NGINX.exists(), reason=f"needs nginx at {servers.NGINX} (apt-get install nginx-light)"
    ),
]

BIG_VIEW = "/graph?seeds=1412.6980,1512.03385,1409.1556&limit=3000&layout=concentric"  # 5,000 nodes, laid out cheaply
REPLICA_ENV = {"CITEMAP_BUDGET_UNITS": "12"}  # the rate stays the default's
BUDGET_UNITS, BUDGET_RATE = 12.0, 0.5
NGINX_FILES = 1024  # the open files nginx is started with (systemd's usual soft limit)


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


def status_lines(socks: list[socket.socket], waiting: bytes) -> list[bytes]:
    """The first line of what each socket was answered so far, or ``waiting`` for one answered nothing yet."""
    lines = []
    for s in socks:
        s.settimeout(0.05)
        try:
            lines.append(s.recv(4096).split(b"\r\n", 1)[0])
        except TimeoutError:
            lines.append(waiting)
    return lines


def wire_bytes(port: int, path: str, headers: str = "", source: str = "127.0.0.1") -> bytes:
    """Everything the server sends for a GET (status line, headers, chunked or plain body), as it crosses the wire."""
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
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


def replica(log: Path, port: int | None = None) -> servers.Gunicorn:
    return servers.Gunicorn(DEFAULT_DATA, 2, log, port=port, env=REPLICA_ENV)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    logs = tmp_path_factory.mktemp("deploy")
    replicas = servers.start_all([lambda i=i: replica(logs / f"replica-{i}.log") for i in (1, 2)])
    try:
        nginx = servers.Nginx([r.address for r in replicas], nofile=NGINX_FILES)
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
    gunicorn with two sync workers (the "why"): through nginx a visitor's requests all succeed (how fast: printed;
    bench/load.py --via-nginx --attack measures it), and nginx cuts each slow connection after its header timeout."""
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
    assert at_nginx.closed >= 100  # client_header_timeout: each slow connection was cut after 5 s, then reopened
    # the "why": the same attack on gunicorn's sync workers leaves a visitor without answers
    failed = [r for r in plain if r[1] != 200 or r[2] > 1.0]
    assert len(failed) >= 0.8 * len(plain), summary(plain)


def test_killing_a_replica_loses_no_get(stack: Stack) -> None:
    """SIGKILL one replica (master and workers) during four streams of GETs: nginx passes every request that met
    the dead replica before its answer began (refused, or reset in flight) to the other one. An answer cut after
    nginx began to send it cannot be passed on; the client asks again once, as the page does
    (assets/js/logic/graph-fetch.js). Every request ends in a 200, and at most one needed asking again."""
    victim = stack.replicas[0]
    seeds = [n[0] for n in json.loads(get(stack.port, "/graph?seeds=1706.03762").body)["nodes"]][:200]
    results: list[tuple[str, int | str]] = []
    asked_again: list[str] = []
    lock = threading.Lock()
    start = time.monotonic()
    served_before_kill: list[int] = []

    def stream(k: int) -> None:
        rng = random.Random(k)
        while time.monotonic() - start < 6.0:
            path = rng.choice(["/health", "/", "/_dash-layout", f"/graph?seeds={rng.choice(seeds)}"])
            status: int | str = ""
            for attempt in range(2):
                try:
                    status = get(stack.port, path, f"127.0.0.{10 + k}", timeout=10).status
                    break
                except (OSError, http.client.HTTPException) as e:
                    status = type(e).__name__
                    if attempt == 0:
                        with lock:
                            asked_again.append(f"{path}: {status}")
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
        f"{len(retried)} passed on to the other replica; asked again by the client: {asked_again}"
    )
    try:
        assert served_before_kill[0] > 10  # the victim was serving its share
        assert len(results) - before > 50
        assert [r for r in results if r[1] != 200] == []
        assert len(asked_again) <= 1, asked_again
        assert retried  # the kill was felt: requests met the dead replica and went on
    finally:  # the replica back (same port), for the tests after this one
        stack.replicas[0] = replica(stack.logs / "replica-1b.log", port=victim.port)


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
        answers = status_lines(socks, b"")  # b"": still uploading
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
    assert other.status == 200
    assert after == before  # the uploads in progress reached no gunicorn worker


BODY_LIMITS = {"/library?name=lib.bib": 2 * 1024 * 1024, "/_dash-update-component": 256 * 1024, "/": 256 * 1024}


def refused_on_length(port: int, path: str, length: int) -> bytes:
    """The status line nginx answers to a POST that declares ``length`` bytes and sends none of them: a refusal
    comes at once; a length within the limit gets no answer while nginx waits for the body (b"waiting"). A
    connection closed with no answer is b"closed"."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode())
        s.settimeout(0.5)
        try:
            return s.recv(4096).split(b"\r\n", 1)[0] or b"closed"
        except TimeoutError:
            return b"waiting"


def test_body_limits_per_location_match_the_apps(stack: Stack) -> None:
    """nginx's body limits are the app's, where by where: callbacks 256 kB (dashboard/web/security.py), /library
    2 MiB (dashboard/view/library.py), nothing else takes more than 256 kB. A body one byte over is refused by nginx
    in the app's error shape, naming the limit; a body at the limit reaches the app, which answers it itself."""
    from dashboard.view.library import MAX_BYTES
    from dashboard.web.security import MAX_BODY, TOO_LARGE

    assert BODY_LIMITS["/library?name=lib.bib"] == MAX_BYTES and BODY_LIMITS["/_dash-update-component"] == MAX_BODY
    for path, limit in BODY_LIMITS.items():
        for length in (limit + 1, limit + 10, 10 * limit, 1000 * limit):
            status = refused_on_length(stack.port, path, length)
            assert status == b"HTTP/1.1 413 Request Entity Too Large", (path, length)
        assert refused_on_length(stack.port, path, limit) == b"waiting", path  # within the limit: the body is awaited
        assert refused_on_length(stack.port, path, limit - 9) == b"waiting", path
    big = get(stack.port, "/library?name=big.bib", method="POST", body=b"x" * (2 * 1024 * 1024 + 1), timeout=10)
    assert big.status == 413
    assert json.loads(big.body)["error"] == "the library file is larger than 2 MiB, the most this server reads"
    under = get(stack.port, "/library?name=under.bib", method="POST", body=b"\xff" * (2 * 1024 * 1024), timeout=10)
    assert under.status == 400 and json.loads(under.body)["error"].startswith("under.bib")
    callback = get(stack.port, "/_dash-update-component", method="POST", body=b"[" * (256 * 1024 + 1), timeout=10)
    assert callback.status == 413 and json.loads(callback.body)["error"] == TOO_LARGE  # the app's words
    at_limit = get(stack.port, "/_dash-update-component", method="POST", body=b" " * (256 * 1024), timeout=10)
    assert at_limit.status == 400 and json.loads(at_limit.body)["error"].startswith("body is not valid JSON")
    # a body sent in chunks, with no length to refuse it by, is closed before it is read (a browser sends lengths)
    seen = len(stack.nginx.error_log.read_text())
    for size in (10, 300_000):
        with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)):
            get(
                stack.port,
                "/_dash-update-component",
                method="POST",
                body=chunked(b" " * size, 100_000),
                headers={"Transfer-Encoding": "chunked"},
                timeout=10,
            )
    assert stack.nginx.error_log.read_text()[seen:] == ""
    # a body where the app takes none is read by nginx and passed on whole: the app answers; no replica fails
    seen = len(stack.nginx.error_log.read_text())
    for method, path in (("GET", "/"), ("POST", "/"), ("GET", "/health"), ("POST", "/graph?seeds=1706.03762")):
        answer = get(stack.port, path, method=method, body=b"x" * (256 * 1024), timeout=10)
        assert answer.status == (200 if method == "GET" else 405), (method, path, answer.status)
    assert "upstream" not in stack.nginx.error_log.read_text()[seen:]


def test_big_posts_from_one_address_do_not_take_the_site_down(stack: Stack) -> None:
    """One 2 MB callback POST a second from one address for 30 s (the app refuses callbacks over 256 kB; when
    nginx passed them on, the app closed the connection early, nginx answered 502 and set the replica aside, and
    another visitor's requests failed): nginx refuses each itself, and another address browses without a failure."""
    stop = threading.Event()
    sent: list[int | str] = []
    body = b'{"output": "a.b", "inputs": [' + b" " * 2_000_000 + b"]}"
    seen_before = [r.log.read_text().count("POST /_dash-update-component") for r in stack.replicas]

    def sender() -> None:
        while not stop.is_set():
            t = time.monotonic()
            try:
                sent.append(get(stack.port, "/_dash-update-component", "127.0.0.2", method="POST", body=body).status)
            except (OSError, http.client.HTTPException) as e:
                sent.append(type(e).__name__)
            stop.wait(max(0.0, 1.0 - (time.monotonic() - t)))

    thread = threading.Thread(target=sender)
    thread.start()
    try:
        visits = probe(stack.port, 30.0)
    finally:
        stop.set()
        thread.join(15)
    seen_after = [r.log.read_text().count("POST /_dash-update-component") for r in stack.replicas]
    print(f"\nvisitor: {summary(visits)}; the sender's answers: {Counter(sent)}")
    assert len(sent) >= 25 and set(sent) == {413}
    assert [r for r in visits if r[1] != 200] == []
    assert seen_after == seen_before  # no replica saw one of them


def test_gzip_shrinks_a_big_view(stack: Stack) -> None:
    """The 5,000-node view with Accept-Encoding: gzip crosses the wire at under a third of its plain size (gzip
    cannot reach a quarter on this payload at any level: its titles and author lists compress about 3.3 times)."""
    plain = wire_bytes(stack.port, BIG_VIEW, source="127.0.0.9")
    packed = wire_bytes(stack.port, BIG_VIEW, "Accept-Encoding: gzip, deflate, br\r\n", source="127.0.0.9")
    answer = get(stack.port, BIG_VIEW, "127.0.0.9", headers={"Accept-Encoding": "gzip"})
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


def replica_saw(stack: Stack, path: str) -> int:
    return sum(r.log.read_text().count(f'"GET {path} ') for r in stack.replicas)


def test_maps_are_revalidated_and_scripts_cached(stack: Stack) -> None:
    """GET /graph is not kept by nginx (a reload may bring a new build): each request reaches a replica, and one
    with the ETag (which names the build) gets the app's bodiless 304, whatever the client's Accept-Encoding.
    Dash's versioned scripts (a year) are kept: the second request does not reach a replica."""
    path = "/graph?seeds=2106.03764"
    before = replica_saw(stack, path)
    first = get(stack.port, path)
    assert first.status == 200 and first.headers["Cache-Control"] == "public, no-cache"
    assert "X-Cache-Status" not in first.headers
    etag = first.headers["ETag"]
    assert etag.startswith('"' + json.loads(get(stack.port, "/health").body)["build"] + "-")
    packed = get(stack.port, path, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(packed.body) == first.body
    for encoding in ("identity", "gzip", "gzip, deflate, br, zstd"):
        again = get(stack.port, path, headers={"If-None-Match": etag, "Accept-Encoding": encoding})
        assert again.status == 304 and again.body == b"" and again.headers["ETag"] == etag
    end = time.monotonic() + 5
    while replica_saw(stack, path) < before + 5:
        assert time.monotonic() < end, f"the replicas saw {replica_saw(stack, path) - before} of 5 requests"
        time.sleep(0.01)
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


KIND = {"/graph": "graph", "/preview.svg": "preview", "/field": "subgraph"}


def admitted_units(store, answered: set[str]) -> float:
    """The least work the app spent on the distinct views it answered: each one's estimated cost (dashboard/graph/
    cost.py), as the budget counts it (at most a full bucket), once (a worker that built a view answers it again for
    nothing)."""
    from dashboard.graph.cost import view_cost
    from dashboard.web.callbacks.common import read_state

    total = 0.0
    for path in answered:
        route, _, query = path.partition("?")
        state, _ = read_state(store, query)
        if route == "/field":
            state = replace(state, mode="field", story=None, step=1)
        total += min(BUDGET_UNITS, view_cost(store, state, KIND[route]))
    return total


def test_one_address_flooding_every_family_of_views_is_held_to_its_budget(stack: Stack, default_store) -> None:
    """One address floods distinct views of every family at once for 8 s (20 seeds, their pictures, the field's
    layer, story steps, 60 expanded papers), on 4 connections each: 20, its limit. The address is refused beyond
    its share (429), by nginx's first line (its zones are per address, whatever the family) or by the app's budget,
    which counts the address nginx forwards and holds it on each replica to 12 units, 0.5 a second, one map at a
    time: the work of the views answered stays within two budgets, and another visitor's requests all succeed
    meanwhile. The requests still waiting when the flood stops are left (their connections closed). (How fast the
    visitor is answered meanwhile: bench/flood.py; every family against the budget alone: tests/test_budget.py.)"""
    top = [default_store.id(int(r)) for r in default_store.arrays["rank_rows"][:300]]
    papers = servers.light_papers(DEFAULT_DATA, 100, seed=3)
    floods = {
        family: servers.Flood(stack.port, servers.family_views(family, top, 400, seed=k), "127.0.0.20", 4, abandon=True)
        for k, family in enumerate(servers.FAMILIES)
    }
    started = time.monotonic()
    with contextlib.ExitStack() as running:
        for flood in floods.values():
            running.enter_context(flood)
        visitor = servers.visitor_requests(stack.port, 8.0, papers, pause=0.2)
        # on a busy machine a family's first answers can come after the visitor's 8 s: each family floods until
        # some of its requests are answered, so that what it was answered can be checked
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and any(
            sum(isinstance(r[1], int) for r in list(flood.results)) < 6 for flood in floods.values()
        ):
            time.sleep(0.2)
    elapsed = time.monotonic() - started
    bound = 2 * (BUDGET_UNITS + BUDGET_RATE * elapsed)  # two replicas, each with its own budget
    answered = {path for flood in floods.values() for path, status, _, _ in flood.results if status == 200}
    spent = admitted_units(default_store, answered)
    said = {f: sum(1 for r in flood.results if r[1] == 429 and b"this address" in r[3]) for f, flood in floods.items()}
    print(
        f"\nin {elapsed:.0f} s: {spent:.1f} units of views answered (at most {bound:.0f}); "
        + "; ".join(f"{f}: {dict(flood.statuses())}, {said[f]} of the 429s the budget's" for f, flood in floods.items())
    )
    print("visitor: " + ", ".join(f"{k} {dict(Counter(r[0] for r in v))}" for k, v in visitor.items()))
    for family, flood in floods.items():  # answered or refused, nothing else
        assert flood.statuses() and set(flood.statuses()) <= {200, 429}, (family, flood.statuses())
    # the address is refused beyond its share, by nginx's first line or by the budget; a family whose requests wait
    # long for their answers (a busy machine) can stay under the address's rate, so the refusals are counted over
    # the address's families, and what was answered is held to the budget below
    assert sum(flood.statuses()[429] for flood in floods.values()) > sum(
        flood.statuses()[200] for flood in floods.values()
    )
    assert sum(said.values()) >= 1  # the budget counted the address nginx forwards
    assert spent <= bound
    assert all(r[0] == 200 for v in visitor.values() for r in v) and len(visitor["map"]) >= 5


def log_size(stack: Stack) -> int:
    return sum(f.stat().st_size for f in (stack.nginx.access_log, stack.nginx.error_log) if f.exists())


def test_a_flood_of_refusals_writes_little_log(stack: Stack) -> None:
    """Two addresses flood nginx for 10 s: one with requests over the rate (429), one with uploads over the limit
    (413). The logs grow by well under 1 MB a minute, while requests that are answered are all still logged."""
    before = log_size(stack)
    access_before = len(stack.nginx.access_log.read_text())
    refused: Counter[int] = Counter()
    end = time.monotonic() + 10.0

    def over_rate() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5, source_address=("127.0.0.2", 0))
        while time.monotonic() < end:
            conn.request("GET", "/health")
            resp = conn.getresponse()
            resp.read()
            refused[resp.status] += 1

    def over_limit() -> None:
        while time.monotonic() < end:
            refused[int(refused_on_length(stack.port, "/library?name=x.bib", 10**7).split()[1])] += 1

    with ThreadPoolExecutor(3) as pool:
        for f in [pool.submit(over_rate), pool.submit(over_limit), pool.submit(over_limit)]:
            f.result()
    marker = f"/health?logged={random.randrange(10**9)}"
    assert get(stack.port, marker, "127.0.0.1").status == 200
    logged(stack, marker)  # an answered request is logged as before
    grew = log_size(stack) - before
    per_minute = grew * 6
    print(f"\nrefusals in 10 s: {dict(refused)}; the logs grew {grew:,} bytes ({per_minute / 1e6:.2f} MB a minute)")
    assert refused[429] >= 2000 and refused[413] >= 2000
    assert per_minute < 1_000_000
    # the requests that were answered (200) are all in the access log
    answered = stack.nginx.access_log.read_text()[access_before:].count('"GET /health HTTP/1.1" 200')
    assert answered == refused[200] > 0


MALFORMED = {  # requests nginx refuses while reading them: what it answers, and what its access log says
    "duplicate Content-Length": (
        b"POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx",
        b"HTTP/1.1 400",
    ),
    "no Host": (b"GET /health HTTP/1.1\r\n\r\n", b"HTTP/1.1 400"),
    "unknown Transfer-Encoding": (
        b"POST /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
        b"HTTP/1.1 501",
    ),
    "a body in (bad) chunks": (
        b"POST /_dash-update-component HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"",  # closed, nothing read (a browser sends lengths)
    ),
    "a 9 kB request line": (b"GET /" + b"x" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", b"HTTP/1.1 414"),
    "a 9 kB header": (b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"y" * 9000 + b"\r\n\r\n", b"HTTP/1.1 400"),
    "HTTP/0.9": (b"GET /health\r\n", b""),  # closed with nothing sent: no bare body
    "bytes a browser escapes": (
        b"GET /health?q=" + "é".encode() * 2000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"HTTP/1.1 400",
    ),
}


def raw(port: int, request: bytes, source: str = "127.0.0.6") -> bytes:
    """The first line of what nginx answers to raw bytes (b"" if it closes the connection without a word)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
        s.sendall(request)
        data = b""
        with contextlib.suppress(ConnectionResetError):
            while b"\r\n" not in data and (chunk := s.recv(4096)):
                data += chunk
    return data.split(b"\r\n", 1)[0] if data else b""


def test_every_refusal_nginx_makes_is_sampled_and_logged_lines_are_cut(stack: Stack) -> None:
    """2,400 requests nginx refuses while reading them (400, 414, 494, 501; HTTP/0.9 and bodies in chunks closed
    unanswered; bytes a browser would have escaped, which gunicorn would refuse and quote whole in its error log) add
    a line or so to nginx's access log and none to its error log, and never reach a replica; answered requests with
    7 kB URLs are all logged, each line cut (the request line to at most 259 characters), by nginx and gunicorn."""
    replica_logs = [len(r.log.read_text()) for r in stack.replicas]
    for name, (request, answer) in MALFORMED.items():
        assert raw(stack.port, request).startswith(answer) and (answer or raw(stack.port, request) == b""), name
    access, errors = (len(f.read_text().splitlines()) for f in (stack.nginx.access_log, stack.nginx.error_log))
    size = log_size(stack)
    with ThreadPoolExecutor(4) as pool:
        answers = Counter(pool.map(lambda r: raw(stack.port, r)[:12], [r for r, _ in MALFORMED.values()] * 300))
    refusals_logged = len(stack.nginx.access_log.read_text().splitlines()) - access
    errors_logged = len(stack.nginx.error_log.read_text().splitlines()) - errors
    replica_before = [len(r.log.read_text().splitlines()) for r in stack.replicas]
    long_urls = [f"/health?pad={k}-".encode() + b"a" * 7000 for k in range(30)]
    for url in long_urls:  # from an address of its own, under its rate
        request = b"GET " + url + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        assert raw(stack.port, request, "127.0.0.14") == b"HTTP/1.1 200 OK"

    def replica_logged() -> list[str]:
        return [
            line
            for r, k in zip(stack.replicas, replica_before, strict=True)
            for line in r.log.read_text().splitlines()[k:]
            if "pad=" in line
        ]

    end = time.monotonic() + 5
    while len(padded := [x for x in stack.nginx.access_log.read_text().splitlines()[access:] if "pad=" in x]) < 30 or (
        len(replica_logged()) < 30
    ):
        assert time.monotonic() < end, f"nginx logged {len(padded)} of 30, the replicas {len(replica_logged())}"
        time.sleep(0.01)
    replica_lines = replica_logged()
    print(
        f"\n{sum(answers.values())} refusals {dict(answers)}: {refusals_logged} access log lines, "
        f"{errors_logged} error log lines; 30 answered 7 kB URLs: {len(padded)} lines in nginx's log, longest "
        f"{max(map(len, padded))} characters; {len(replica_lines)} in the replicas' logs, longest "
        f"{max(map(len, replica_lines), default=0)}; logs grew {log_size(stack) - size:,} bytes"
    )
    assert sum(answers.values()) == 300 * len(MALFORMED) and refusals_logged <= 20 and errors_logged == 0
    assert len(padded) == 30 and max(map(len, padded)) <= 512
    assert all(re.search(r'"GET /health\?pad=\d+-a+\.\.\." 200 ', line) for line in padded)
    assert len(replica_lines) == 30 and max(map(len, replica_lines)) <= 512
    assert all("q=" not in r.log.read_text()[k:] for r, k in zip(stack.replicas, replica_logs, strict=True))


def test_thousands_of_half_open_connections_from_one_address_fail_no_visitor(stack: Stack) -> None:
    """9,000 connections from one address send a request line and a header, and never the rest (nginx was started
    with 1,024 open files, as a supervisor gives it by default): another address's requests all succeed meanwhile,
    and nginx's error log stays quiet (no "worker_connections are not enough", no "Too many open files")."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 9000 + 1000
    workers = int(re.search(r"^worker_rlimit_nofile (\d+);", stack.nginx.conf.read_text(), re.M)[1])
    if hard != resource.RLIM_INFINITY and hard < max(need, workers):
        pytest.skip(f"this machine allows {hard} open files; nginx's workers take {workers}, the test needs {need}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, need), hard))
    errors = stack.nginx.error_log.read_text()
    socks: list[socket.socket] = []
    visitor: list[int | str] = []
    try:
        for _ in range(9000):
            s = socket.socket()
            s.bind(("127.0.0.3", 0))
            s.connect(("127.0.0.1", stack.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            socks.append(s)
        for k in range(30):
            path = ("/health", "/graph?seeds=1706.03762", "/")[k % 3]
            visitor.append(servers.ask(stack.port, path, "127.0.0.1", timeout=10)[0])
    finally:
        for s in socks:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    said = stack.nginx.error_log.read_text()[len(errors) :]
    print(f"\n9,000 half-open connections held; the visitor's answers: {Counter(visitor)}; error log: {said[:300]!r}")
    assert visitor == [200] * 30
    assert "worker_connections are not enough" not in said and "Too many open files" not in said


@pytest.mark.skipif(shutil.which("nft") is None or shutil.which("unshare") is None, reason="needs nft and unshare")
def test_the_kernel_rule_caps_connections_per_address(tmp_path: Path) -> None:
    """deploy/nftables/citemap.nft, loaded in a network namespace of the test's own (its port changed to the test
    listener's, its cap to 50): of 300 connections from one address 50 are taken and the rest reset at once, and
    another address still connects."""
    rule = (ROOT / "deploy" / "nftables" / "citemap.nft").read_text()
    assert rule.count("{ 80, 443 }") == 2 and rule.count("ct count over 256") == 2
    (tmp_path / "rule.nft").write_text(rule.replace("{ 80, 443 }", "18080").replace("over 256", "over 50"))
    check = f"""
import socket, subprocess
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
subprocess.run(["nft", "-f", {str(tmp_path / "rule.nft")!r}], check=True)
listener = socket.socket()
listener.bind(("127.0.0.1", 18080))
listener.listen(1000)
taken = reset = 0
held = []
for _ in range(300):
    s = socket.socket()
    s.bind(("127.0.0.3", 0))
    try:
        s.connect(("127.0.0.1", 18080))
        held.append(s)
        taken += 1
    except ConnectionRefusedError:
        reset += 1
other = socket.create_connection(("127.0.0.1", 18080), source_address=("127.0.0.4", 0))
print(taken, reset)
"""
    done = subprocess.run(["unshare", "--net", sys.executable, "-c", check], capture_output=True, text=True, timeout=60)
    if done.returncode and "Operation not permitted" in done.stderr:
        pytest.skip(f"no network namespace or firewall rule allowed here: {done.stderr[-200:]}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["50", "250"]


def echo_server() -> tuple[http.server.ThreadingHTTPServer, int]:
    """A server on loopback that answers any GET or POST with the headers it got, as JSON pairs."""

    class Echo(http.server.BaseHTTPRequestHandler):
        def answer(self) -> None:
            body = json.dumps(list(self.headers.items())).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = answer

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, httpd.server_address[1]


def test_the_replicas_see_only_the_headers_nginx_sets(stack: Stack) -> None:
    """Whatever a client sends, nginx passes on its own few headers (the client's address as it saw it, the scheme,
    the host) and the ones the app reads: no X-Forwarded-* or Forwarded of the client's, and never more than a
    dozen, however many it sent. The app, behind it, answers a request with 150 headers, or with X-Forwarded-Ssl
    against nginx's X-Forwarded-Proto (gunicorn answered 431 and 400)."""
    httpd, port = echo_server()
    nginx = servers.Nginx([f"127.0.0.1:{port}"])
    try:
        sent = {f"X-Junk-{k}": str(k) for k in range(150)}
        sent |= {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Ssl": "on", "X-Forwarded-Host": "evil.example"}
        sent |= {"X-Forwarded-Proto": "https", "Forwarded": "for=203.0.113.9", "X-Real-IP": "203.0.113.9"}
        sent |= {"Cookie": "citemap_build=b1", "If-None-Match": '"e1"', "Content-Type": "application/json"}
        seen = dict(json.loads(get(nginx.port, "/graph?seeds=a", "127.0.0.7", headers=sent).body))
        posted = dict(json.loads(get(nginx.port, "/library?name=x", "127.0.0.7", method="POST", body=b"x" * 10).body))
    finally:
        nginx.stop()
        httpd.shutdown()
    print(f"\nthe replica saw: {seen}")
    assert seen == {
        "Host": "127.0.0.1",
        "X-Real-IP": "127.0.0.7",
        "X-Forwarded-For": "127.0.0.7",
        "X-Forwarded-Proto": "http",
        "Connection": "close",
        "Content-Type": "application/json",
        "Cookie": "citemap_build=b1",
        "If-None-Match": '"e1"',
    }
    assert posted["Content-Length"] == "10" and "X-Junk-1" not in posted
    many = get(stack.port, "/health", headers={f"X-Junk-{k}": str(k) for k in range(150)})
    mixed = get(stack.port, "/health", headers={"X-Forwarded-Ssl": "on", "X-Forwarded-Protocol": "ssl"})
    assert (many.status, mixed.status) == (200, 200)


def test_junk_queries_on_scripts_make_no_new_cache_entries(stack: Stack) -> None:
    """Dash's scripts are kept once a path: 30 requests of one script with 30 junk queries are all answered from
    the one copy nginx keeps, and none adds a file to its cache. The field's points are kept too, and a browser that
    has them gets a bodiless 304."""
    page = gzip.decompress(get(stack.port, "/", headers={"Accept-Encoding": "gzip"}).body).decode()
    script = re.findall(r'src="(/_dash-component-suites/[^"?]+)', page)[-1]
    cache = stack.nginx.root / "cache"
    first = get(stack.port, script)
    logged(stack, script, 1)
    files = sum(1 for p in cache.rglob("*") if p.is_file())
    # from an address of their own, whose rate (and burst) no other test's requests have spent
    junk = [get(stack.port, f"{script}?junk={k}-{random.random()}", "127.0.0.31") for k in range(30)]
    assert first.status == 200 and [(r.status, r.headers.get("X-Cache-Status")) for r in junk] == [(200, "HIT")] * 30
    assert sum(1 for p in cache.rglob("*") if p.is_file()) == files
    points = [get(stack.port, "/field/points", "127.0.0.9", timeout=60) for _ in range(2)]
    assert [p.status for p in points] == [200, 200] and points[0].body == points[1].body
    assert points[1].headers["X-Cache-Status"] in ("HIT", "UPDATING", "REVALIDATED")
    etag = points[0].headers["ETag"]
    again = get(stack.port, "/field/points", "127.0.0.9", headers={"If-None-Match": etag}, timeout=60)
    assert again.status == 304 and again.body == b"" and again.headers["ETag"] == etag


def test_requests_in_progress_are_capped_in_all(stack: Stack) -> None:
    """With at most 10 requests in progress in all (render.py --transfers 10; what bounds the answers nginx holds for
    slow readers), 20 uploads trickling in from two addresses, 10 each (within each address's limit): 10 are taken
    and 10 refused at once (429), whoever sent them."""
    nginx = servers.Nginx([r.address for r in stack.replicas], transfers=10)
    head = (
        b"POST /library?name=lib.bib HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
        b"Content-Length: 100000\r\n\r\n@article{a,\n"
    )
    socks = []
    try:
        for k in range(20):
            s = socket.create_connection(
                ("127.0.0.1", nginx.port), timeout=5, source_address=(f"127.0.0.{8 + k % 2}", 0)
            )
            s.sendall(head)
            socks.append(s)
        time.sleep(1.0)  # the refusals are answered at once; the others wait for their bodies
        answers = status_lines(socks, b"taken")
    finally:
        for s in socks:
            s.close()
        nginx.stop()
    print(f"\n20 uploads from two addresses with 10 requests in progress in all: {Counter(answers)}")
    assert Counter(answers) == {b"taken": 10, b"HTTP/1.1 429 Too Many Requests": 10}


SECURITY_HEADERS = (
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "X-Frame-Options",
    "Cross-Origin-Opener-Policy",
    "Permissions-Policy",
)


def test_nginxs_own_answers_carry_the_security_headers(stack: Stack) -> None:
    """413, 429 and 502 come from nginx, not the app: they carry the app's security headers, once each, with a
    CSP that allows nothing; the app's answers keep the app's own headers, not doubled."""
    page = get(stack.port, "/")
    too_large = get(stack.port, "/library?name=x.bib", method="POST", headers={"Content-Length": str(10**7)})
    greedy = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5, source_address=("127.0.0.2", 0))
    too_many = None
    for _ in range(200):
        greedy.request("GET", "/health")
        resp = greedy.getresponse()
        body = resp.read()
        if resp.status == 429:
            too_many = Answer(resp.status, resp.headers, body, 0.0)
            break
    greedy.close()
    dead = servers.Nginx([f"127.0.0.1:{servers.free_port()}"])  # a replica that is not there: nginx answers 502
    try:
        bad_gateway = get(dead.port, "/health")
    finally:
        dead.stop()
    assert too_many is not None and (too_large.status, too_many.status, bad_gateway.status) == (413, 429, 502)
    for answer in (page, too_large, too_many, bad_gateway):
        for name in SECURITY_HEADERS:
            assert len(answer.headers.get_all(name) or []) == 1, (answer.status, name)
    for answer in (too_large, too_many, bad_gateway):
        assert answer.headers["Content-Security-Policy"].startswith("default-src 'none'")
        for name in SECURITY_HEADERS[1:]:
            assert answer.headers[name] == page.headers[name], name
        assert json.loads(answer.body)["status"] == answer.status
    assert "'sha256-" in page.headers["Content-Security-Policy"]  # the app's own
    assert "Strict-Transport-Security" not in page.headers  # over plain HTTP


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, valid for a day, and its key (openssl)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    command = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"]
    command += ["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)]
    subprocess.run(
        command,
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
def test_https_with_hsts_and_http_redirected(stack: Stack, tmp_path: Path) -> None:
    """With a certificate (render.py --tls-listen/--tls-cert/--tls-key), the app is served over HTTPS with HSTS on
    every answer, nginx's own included, and plain HTTP answers only a redirect to the same path over HTTPS."""
    import ssl

    cert, key = self_signed(tmp_path)
    tls = servers.Nginx([r.address for r in stack.replicas], tls=(cert, key))
    try:
        context = ssl.create_default_context(cafile=str(cert))

        def over_tls(path: str, **kw: object) -> Answer:
            conn = http.client.HTTPSConnection("127.0.0.1", tls.tls_port, timeout=10, context=context)
            try:
                conn.request(kw.get("method", "GET"), path, headers=kw.get("headers", {}))
                resp = conn.getresponse()
                return Answer(resp.status, resp.headers, resp.read(), 0.0)
            finally:
                conn.close()

        redirect = get(tls.port, "/graph?seeds=1706.03762")
        assert redirect.status == 301
        assert redirect.headers["Location"] == f"https://127.0.0.1:{tls.tls_port}/graph?seeds=1706.03762"
        elsewhere = get(tls.port, "/graph?seeds=1706.03762", headers={"Host": "evil.example"})  # never the Host sent
        assert elsewhere.headers["Location"] == redirect.headers["Location"]
        assert raw(tls.port, b"GET /health\r\n") == b""  # HTTP/0.9: closed, nothing sent
        assert "Strict-Transport-Security" not in redirect.headers
        assert redirect.headers["X-Content-Type-Options"] == "nosniff"
        health = over_tls("/health")
        assert health.status == 200 and json.loads(health.body)["status"] == "ok"
        refused = over_tls("/library?name=x.bib", method="POST", headers={"Content-Length": str(10**7)})
        assert refused.status == 413
        for answer in (health, refused):
            assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert "'sha256-" in over_tls("/").headers["Content-Security-Policy"]
    finally:
        tls.stop()


def test_a_reload_behind_nginx_serves_no_old_map(tmp_path: Path) -> None:
    """Two imports into a folder two replicas serve behind nginx, then a reload of both, one after the other, as
    docs/hosting.md says: as soon as both replicas answer from the new build, every map (also one asked for with the
    old ETag), search and callback through nginx is the new build's; before the reload every answer was the old
    build's. A browser asking all along (its cookies kept, asking again a moment later when told to) never gets
    the old build back once it has had the new one, although one replica serves the old build for a while."""
    from dashboard.dataset.format import read_meta
    from tests.conftest import write_records
    from tests.test_builds import world
    from tests.test_production import answers

    data = tmp_path / "d"
    write_records(data, *world("a", "Kernels", 20))
    first = read_meta(data)["build_id"]
    replicas = servers.start_all([lambda i=i: servers.Gunicorn(data, 2, tmp_path / f"r{i}.log") for i in (1, 2)])
    masters = []
    nginx = None
    try:
        nginx = servers.Nginx([r.address for r in replicas], rate="1000r/s", burst=1000)  # one client, many asks
        view = "/graph?seeds=a-3&expand=a-2"  # the view test_production's answers() asks for
        before = answers(nginx)  # (the build /health names, search suggestions, the view's papers)
        old_etag = get(nginx.port, view).headers["ETag"]
        assert before[0] == first and first in old_etag and before[2] == "a-1 a-2 a-3 a-4"
        write_records(data, *world("b", "Kernels", 5))
        write_records(data, *world("b", "Kernels", 8))
        newest = read_meta(data)["build_id"]
        for _ in range(6):
            assert answers(nginx) == before  # until the reload, the old build, whichever replica answers
            assert get(nginx.port, view).headers["ETag"] == old_etag
        browser = requests.Session()  # keeps the build cookie, as a browser does
        builds_seen: list[str] = []
        stop = threading.Event()

        def browse() -> None:
            while not stop.is_set():
                answer = browser.get(nginx.url + "/health", timeout=30)
                if answer.status_code == 200:
                    builds_seen.append(answer.json()["build"])
                else:  # a replica reloading onto the build this browser has seen: asked again a moment later
                    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1", answer.text
                    builds_seen.append("asked again")
                    stop.wait(0.2)
                stop.wait(0.02)

        with ThreadPoolExecutor(1) as pool:
            browsing = pool.submit(browse)
            for r in replicas:
                masters.append(servers.reload_master(r))
                time.sleep(1.0)  # the reloaded replica and the other one both serve for a moment
            stop.set()
            browsing.result()
        first_new = builds_seen.index(newest)
        print(f"\nduring the reload a browser got {Counter(builds_seen)}; the new build first at answer {first_new}")
        assert set(builds_seen[first_new:]) <= {newest, "asked again"} and set(builds_seen[:first_new]) == {first}
        reloaded = time.monotonic()
        for _ in range(10):  # both replicas, more than once each
            build, found, papers = answers(nginx)
            assert build == newest and "a-3" not in papers and found == sorted(f"b-{k}" for k in range(8))
            revalidated = get(nginx.port, view, headers={"If-None-Match": old_etag})
            assert revalidated.status == 200 and newest in revalidated.headers["ETag"]
        print(
            f"\n10 rounds of answers through nginx after the reload, all of the new build, "
            f"in {time.monotonic() - reloaded:.2f} s"
        )
    finally:
        if nginx is not None:
            nginx.stop()
        for m in masters:
            m.terminate()
            m.wait(20)
        for r in replicas:
            r.stop()


@pytest.mark.skipif(shutil.which("envsubst") is None, reason="needs envsubst (gettext-base)")
@pytest.mark.parametrize("site", ["http", "https"])
def test_envsubst_renders_what_render_py_renders(tmp_path: Path, site: str) -> None:
    """The official nginx image fills every template with envsubst, of the variables set in its environment (its
    20-envsubst-on-templates.sh): the result is the config render.py writes, so the tests test the deployment."""
    render = servers.render_module()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": "/root",
        "SITE": site,
        "LISTEN": "8080",
        "UPSTREAMS": "server app1:8050;\n        server app2:8050;",
        "STATE_DIR": "/var/cache/nginx/citemap",
        "LOG_DIR": "/var/log/nginx",
        "RATE": "20r/s",
        "BURST": "40",
        "CONN_LIMIT": "20",
        "TRANSFERS": "512",
    }
    tls = None
    if site == "https":
        env |= {
            "TLS_LISTEN": "8443",
            "TLS_CERT": "/etc/nginx/tls/fullchain.pem",
            "TLS_KEY": "/etc/nginx/tls/privkey.pem",
            "HTTPS_PORT": ":8443",
            "SERVER_NAME": "localhost",
        }
        tls = render.Tls("8443", Path(env["TLS_CERT"]), Path(env["TLS_KEY"]), "localhost")
        self_signed(tmp_path)
    defined = " ".join(f"${{{name}}}" for name in env)
    expected = render.render(
        8080, ["app1:8050", "app2:8050"], Path("/var/cache/nginx/citemap"), log_dir=Path("/var/log/nginx"), tls=tls
    )
    assert sorted(expected) == sorted(["nginx.conf", "citemap-app.conf", f"citemap-{site}.conf"])
    compose = (ROOT / "deploy" / "docker-compose.yml").read_text()
    for name in env.keys() - {"PATH", "HOME"}:
        assert re.search(rf"^\s+{name}: ", compose, re.M), f"docker-compose.yml does not set {name}"
    for name, text in expected.items():
        out = subprocess.run(
            ["envsubst", defined],
            input=(ROOT / "deploy" / f"{name}.template").read_text(),
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        assert out == text, name
        if tls:  # nginx -t reads the certificate and key
            out = out.replace(env["TLS_CERT"], str(tmp_path / "cert.pem")).replace(
                env["TLS_KEY"], str(tmp_path / "key.pem")
            )
        (tmp_path / name).write_text(
            out.replace("app1:8050", "127.0.0.1:1")
            .replace("app2:8050", "127.0.0.1:2")
            .replace("/var/cache/nginx/citemap", str(tmp_path))
            .replace("/var/log/nginx", str(tmp_path))
        )
    conf = tmp_path / "nginx.conf"
    check = subprocess.run(
        [str(servers.NGINX), "-t", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr


def test_compose_trusts_forwarded_headers_from_nginx_alone_and_logs_rotate_by_size() -> None:
    """deploy/docker-compose.yml: the replicas trust forwarded headers (the client's address, the scheme) from
    nginx's fixed address alone, never from any peer ("*"); every container's log is rotated by size. Under systemd,
    deploy/logrotate/citemap-nginx rotates by size the logs of the unit's LogsDirectory."""
    import ipaddress

    compose = (ROOT / "deploy" / "docker-compose.yml").read_text()
    nginx_address = ipaddress.ip_address(re.search(r"^\s+ipv4_address: ([\d.]+)", compose, re.M)[1])
    assert nginx_address in ipaddress.ip_network(re.search(r"^\s+- subnet: ([\d./]+)", compose, re.M)[1])
    assert re.findall(r'^\s+FORWARDED_ALLOW_IPS: "([^"]*)"', compose, re.M) == [str(nginx_address)]
    assert re.search(r"^x-logging: &logging\n(\s+.*\n)*?\s+max-size: \d+m$", compose, re.M)
    services = re.split(r"^  (?=\w+:)", compose.split("\nservices:\n", 1)[1].split("\nnetworks:\n", 1)[0], flags=re.M)
    anchored = compose.split("\nservices:\n", 1)[0]  # x-app, which app1 and app2 are
    assert "logging: *logging" in anchored and "app1: *app" in compose and "app2: *app" in compose
    assert "logging: *logging" in next(s for s in services if s.startswith("nginx:"))
    rotation = (ROOT / "deploy" / "logrotate" / "citemap-nginx").read_text()
    logs = re.search(
        r"^LogsDirectory=(\S+)$", (ROOT / "deploy" / "systemd" / "citemap-nginx.service").read_text(), re.M
    )
    assert f"/var/log/{logs[1]}/*.log {{" in rotation and re.search(r"^\s+size \d+M$", rotation, re.M)
