"""Helper of bench/run.py, not an entry point: a small HTTP/1.1 client, prebuilt requests on raw sockets, bounded load.

The request bytes are built once, so the client spends microseconds per request and the server's time
dominates what is measured. One connection per request (gunicorn's sync workers close the connection
after each response, as they do for a browser); the response is read to its ``Content-Length``.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


class HTTPError(RuntimeError):
    pass


def post_request(host: str, port: int, path: str, body: bytes) -> bytes:
    """The bytes of a POST request like the one the Dash renderer's ``fetch`` sends."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: application/json\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: keep-alive\r\n\r\n"
    )
    return head.encode("ascii") + body


def get_request(host: str, port: int, path: str) -> bytes:
    """The bytes of a GET like the browser's ``fetch`` of /graph (same connection header as a POST)."""
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: application/json\r\nConnection: keep-alive\r\n\r\n"
    ).encode("ascii")


def send(host: str, port: int, request: bytes, timeout: float = 60.0) -> tuple[int, bytes]:
    """Send one request on a new connection; the status code and the body."""
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(request)
        buf = bytearray()
        while b"\r\n\r\n" not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                raise HTTPError(f"connection closed before the response headers ({bytes(buf[:80])!r})")
            buf += chunk
        head, _, body = bytes(buf).partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        try:
            status = int(lines[0].split()[1])
        except (IndexError, ValueError) as e:
            raise HTTPError(f"bad status line {lines[0][:80]!r}") from e
        length = None
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        if length is None:  # read to the end of the connection
            rest = bytearray(body)
            while chunk := sock.recv(65536):
                rest += chunk
            return status, bytes(rest)
        rest = bytearray(body)
        while len(rest) < length:
            chunk = sock.recv(max(65536, length - len(rest)))
            if not chunk:
                raise HTTPError(f"connection closed after {len(rest)} of {length} body bytes")
            rest += chunk
        return status, bytes(rest)


def timed(host: str, port: int, request: bytes) -> float:
    """Seconds of one round trip; raises unless the status is 200."""
    t0 = time.perf_counter()
    status, body = send(host, port, request)
    elapsed = time.perf_counter() - t0
    if status != 200:
        raise HTTPError(f"status {status}: {body[:300]!r}")
    return elapsed


@dataclass
class LoadResult:
    seconds: float
    done: int
    errors: int
    latencies: list[float] = field(default_factory=list)
    first_error: str = ""

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0


def load(
    host: str, port: int, requests: Sequence[bytes], *, connections: int, seconds: float, max_requests: int
) -> LoadResult:
    """``connections`` threads sending ``requests`` in turn (cycling) for ``seconds`` or ``max_requests``,
    whichever comes first. Counts successful responses and errors."""
    lock = threading.Lock()
    counter = [0]
    done: list[float] = []
    errors: list[str] = []
    deadline = time.perf_counter() + seconds

    def next_index() -> int | None:
        with lock:
            i = counter[0]
            if i >= max_requests:
                return None
            counter[0] = i + 1
            return i

    def worker() -> None:
        while time.perf_counter() < deadline:
            i = next_index()
            if i is None:
                return
            try:
                elapsed = timed(host, port, requests[i % len(requests)])
            except (OSError, HTTPError) as e:
                with lock:
                    errors.append(str(e))
                continue
            with lock:
                done.append(elapsed)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(connections)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 120)
    elapsed = time.perf_counter() - t0
    return LoadResult(
        seconds=elapsed, done=len(done), errors=len(errors), latencies=done, first_error=errors[0] if errors else ""
    )


def parallel(fn: Callable[[int], Any], n: int, threads: int) -> list[Any]:
    """``fn(i)`` for i in range(n) on ``threads`` threads (warm-up: keeps every worker busy)."""
    out: list[Any] = [None] * n
    lock = threading.Lock()
    it = iter(range(n))

    def run() -> None:
        while True:
            with lock:
                i = next(it, None)
            if i is None:
                return
            out[i] = fn(i)

    pool = [threading.Thread(target=run, daemon=True) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return out
