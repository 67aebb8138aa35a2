"""A local stand-in for a web API, for the fetcher tests (``tests/test_fetch_*.py``): never the real API.

:class:`StandIn` listens on 127.0.0.1 (a free port), answers each GET or POST with :meth:`StandIn.route` (a
subclass knows the API), and logs every request: ``{"method", "path", **query, "body", "headers"}`` (the
query's parameters by name, the JSON body of a POST, the request headers with lower-case names). A test sets
:attr:`StandIn.faults` to answer otherwise: an HTTP error, a ``Retry-After``, a slow or a malformed answer.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from dashboard.fetch.http import HttpSettings


@dataclass
class Fault:
    """An answer instead of the normal one, ``times`` times (None: always), to the requests ``match`` picks."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    times: int | None = 1
    match: str = ""  # a substring of "METHOD /path?query body", or "" for any


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    body: Any  # the JSON body of a POST, else None


class StandIn(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.log: list[dict[str, Any]] = []
        self.faults: list[Fault] = []
        self.lock = threading.Lock()
        self.url = f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up on a slow answer closed its end: expected

    def fault_for(self, request_line: str) -> Fault | None:
        with self.lock:
            for f in self.faults:
                if (f.times is None or f.times > 0) and f.match in request_line:
                    f.times = None if f.times is None else f.times - 1
                    return f
        return None

    def route(self, request: Request) -> tuple[int, Any]:
        """The status and the JSON body of the normal answer to ``request``."""
        raise NotImplementedError


class Handler(BaseHTTPRequestHandler):
    server: StandIn

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.answer("GET")

    def do_POST(self) -> None:
        self.answer("POST")

    def answer(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        body = json.loads(raw) if raw else None
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.server.log.append({"method": method, "path": url.path, **query, "body": body, "headers": headers})
        fault = self.server.fault_for(f"{method} {url.path}?{url.query} {raw}")
        if fault is not None:
            time.sleep(fault.delay)
            self.send(fault.status, fault.body, fault.headers)
            return
        status, answer = self.server.route(Request(method, url.path, query, body))
        self.send(status, json.dumps(answer).encode())

    def send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for k, v in {"Content-Type": "application/json", **(headers or {})}.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


S = TypeVar("S", bound=StandIn)


def serving(server: S) -> Iterator[S]:
    """``server`` answering in a thread until the generator is closed (a fixture's body: ``yield from``)."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def fast_settings(sleeps: list[float]) -> HttpSettings:
    """No rate limit, short time-outs, and waits recorded in ``sleeps`` instead of waited."""
    return HttpSettings(timeout=2.0, max_tries=3, rate=0, backoff=1.0, sleep=sleeps.append)
