"""Request bodies read straight from the WSGI input (dashboard/web/security.py ``read_body``), as the app meets them
when nothing buffers in front of it: ``POST /library`` (2 MiB) and ``POST /_dash-update-component`` (256 kB), with a
Content-Length or chunked. A body over the limit is a 413 (for a library, naming the file and the limit); broken
chunked framing or a body that ends early is a 400 in the app's JSON error shape, logged as one warning line with no
traceback. Through Flask's test client first, then raw bytes on a socket to gunicorn (what ``citemap serve
--production`` runs) and to the development server (``citemap serve``)."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
import socket
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from werkzeug.serving import DechunkedInput

from dashboard.view.library import MAX_BYTES
from dashboard.web.security import MAX_BODY, TOO_LARGE, read_body, unreadable
from tests import servers
from tests.conftest import SEED_IDS, seed_data

URL = "/_dash-update-component"
LIBRARY = "/library?name=library.bib"
LIBRARY_TOO_LARGE = {"error": "library.bib is larger than 2 MiB, the most this server reads", "status": 413}
CALLBACK_TOO_LARGE = {"error": TOO_LARGE, "status": 413}
# two of the seed pages' papers, by arXiv id, and one the dataset does not hold
BIB = b"""@article{a, title = {First}, year = {2021}, eprint = {2106.03764}, archivePrefix = {arXiv}}
@article{b, title = {Second}, year = {2021}, eprint = {2110.10090}, archivePrefix = {arXiv}}
@misc{c, title = {A paper this dataset does not hold at all}, year = {1999}}
"""
BIB_ANSWER = {
    "name": "library.bib",
    "format": "BibTeX",
    "encoding": "UTF-8",
    "entries": 3,
    "matched": 2,
    "ids": [SEED_IDS[0], SEED_IDS[2]],
    "skipped": 0,
    "log": [],
    "summary": "library.bib: 2 of 3 entries are papers of this dataset.",
}


def chunked(body: bytes, size: int = 65536) -> bytes:
    """``body`` in chunked transfer coding, ``size`` bytes a chunk, with the last chunk and an empty trailer."""
    out = bytearray()
    for i in range(0, len(body), size):
        piece = body[i : i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return bytes(out + b"0\r\n\r\n")


# -- Flask's test client: the WSGI input as gunicorn or the development server hands it over --------------------------
def post_stream(client, path: str, stream: io.RawIOBase | io.BytesIO, *, length: int | None = None):
    """A POST whose WSGI input is ``stream``: with a Content-Length when ``length`` is given, else chunked, the input
    ending where the server's dechunking says (``wsgi.input_terminated``, as gunicorn and werkzeug's server set it)."""
    if length is not None:
        framing = {"CONTENT_LENGTH": str(length)}
    else:
        framing = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True}
    return client.post(path, content_type="application/json", environ_overrides={"wsgi.input": stream, **framing})


class Unreadable(io.RawIOBase):
    """A WSGI input that raises ``error`` once ``after`` bytes have been read."""

    def __init__(self, error: Exception, after: bytes = b"") -> None:
        self.error, self.rest = error, after

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:  # type: ignore[override]
        if not self.rest:
            raise self.error
        n = min(len(buf), len(self.rest))
        buf[:n], self.rest = self.rest[:n], self.rest[n:]
        return n


def test_a_chunked_library_upload_is_matched(client) -> None:
    resp = post_stream(client, LIBRARY, io.BytesIO(BIB))
    assert resp.status_code == 200 and resp.get_json() == BIB_ANSWER


def test_a_chunked_library_over_the_limit_is_413_naming_the_file_and_the_limit(client) -> None:
    resp = post_stream(client, LIBRARY, io.BytesIO(b"%" * (3 * 1024 * 1024)))
    assert resp.status_code == 413 and resp.get_json() == LIBRARY_TOO_LARGE
    # the limit itself is read whole (and then found to hold no entries), one byte more is refused
    resp = post_stream(client, "/library?name=under.bib", io.BytesIO(b"\xff" * MAX_BYTES))
    assert resp.status_code == 400 and resp.get_json()["error"].startswith("under.bib: no BibTeX entries")
    resp = post_stream(client, LIBRARY, io.BytesIO(b"\xff" * (MAX_BYTES + 1)))
    assert resp.status_code == 413 and resp.get_json() == LIBRARY_TOO_LARGE


def test_a_content_length_over_the_limit_is_refused_unread(client) -> None:
    never = Unreadable(AssertionError("the body was read"))
    resp = post_stream(client, "/library?name=big.ris", never, length=MAX_BYTES + 1)
    assert resp.status_code == 413
    assert resp.get_json()["error"] == "big.ris is larger than 2 MiB, the most this server reads"
    resp = post_stream(client, URL, never, length=MAX_BODY + 1)
    assert resp.status_code == 413 and resp.get_json() == CALLBACK_TOO_LARGE


def test_a_chunked_callback_over_256_kb_is_413(client) -> None:
    resp = post_stream(client, URL, io.BytesIO(b" " * (300 * 1024)))
    assert resp.status_code == 413 and resp.get_json() == CALLBACK_TOO_LARGE


def test_a_chunked_callback_reaches_dash(app, client) -> None:
    """The body read for the checks is the one Dash then reads (the request is handed on with a Content-Length)."""
    from tests.test_security import real_request

    body = json.dumps(real_request(app, "url.search", {"url.search": "?seeds=2110.10090&years=0-999999"})).encode()
    resp = post_stream(client, URL, io.BytesIO(body))
    assert resp.status_code == 200
    assert resp.get_json()["response"]["url"]["search"] == "?seeds=2110.10090"


@pytest.mark.parametrize("path", [LIBRARY, URL])
def test_bad_chunked_framing_is_400_with_one_warning_and_no_traceback(client, caplog, path: str) -> None:
    """The development server's dechunking of a bad chunk size line raises an OSError; gunicorn's raises its own
    InvalidChunkSize. Both are the client's error."""
    from gunicorn.http.errors import ChunkMissingTerminator, InvalidChunkSize

    cases = [
        (DechunkedInput(io.BytesIO(b"zz\r\nabc\r\n0\r\n\r\n")), "Invalid chunk header"),
        (Unreadable(InvalidChunkSize(b"zz"), after=b"@misc{"), "Invalid chunk size: b'zz'"),
        (Unreadable(ChunkMissingTerminator(b"XY")), "Invalid chunk terminator is not '\\r\\n': b'XY'"),
    ]
    for stream, why in cases:
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            resp = post_stream(client, path, stream)
        assert resp.status_code == 400
        assert resp.get_json() == {"error": f"the request body cannot be read ({why})", "status": 400}
        method_path = path.split("?")[0]
        assert [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records] == [
            ("WARNING", f"unreadable request body on POST {method_path}: {why}", None)
        ]


def test_a_body_shorter_than_its_content_length_is_400(client) -> None:
    resp = post_stream(client, LIBRARY, io.BytesIO(b"@misc{"), length=100)
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "the request body cannot be read (it ended before its Content-Length)"


def test_an_error_of_the_servers_own_is_still_a_500(client, caplog) -> None:
    """Only what a client causes becomes a 400: anything else stays the logged 500 with an error id."""
    with caplog.at_level(logging.ERROR, logger="citemap.security"):
        resp = post_stream(client, LIBRARY, Unreadable(RuntimeError("a bug of ours")))
    assert resp.status_code == 500 and "error id" in resp.get_json()["error"]
    assert "a bug of ours" in caplog.text and "a bug of ours" not in resp.get_data(as_text=True)


def test_unreadable_names_only_the_clients_errors() -> None:
    from gunicorn.http.errors import InvalidChunkSize, NoMoreData
    from werkzeug.exceptions import ClientDisconnected

    assert unreadable(InvalidChunkSize(b"zz")) == "Invalid chunk size: b'zz'"
    assert unreadable(NoMoreData(None)) == unreadable(NoMoreData(b"")) == "it ended before its last chunk"
    assert unreadable(ConnectionResetError()) == "ConnectionResetError"
    assert unreadable(ClientDisconnected()) == "it ended before its Content-Length"
    assert unreadable(InvalidChunkSize(b"z" * 500)) == ("Invalid chunk size: b'" + "z" * 500)[:80]
    assert unreadable(ValueError("x")) is None and unreadable(RuntimeError("y")) is None


def test_read_body_hands_the_body_on(app) -> None:
    """After ``read_body``, the request reads as one with a Content-Length: a later ``get_data`` (Dash's) gives the
    same bytes."""
    from flask import request

    body = b"x" * (MAX_BODY - 10)
    environ = {"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"}
    with app.server.test_request_context("/library", method="POST", environ_overrides=environ):
        assert read_body(MAX_BYTES) == body
        assert request.environ["CONTENT_LENGTH"] == str(len(body))
        assert "HTTP_TRANSFER_ENCODING" not in request.environ
        assert request.get_data() == body


# -- raw bytes on a socket, to gunicorn and to the development server -------------------------------------------------
@dataclass
class Answer:
    status: int
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)


def exchange(port: int, data: bytes, timeout: float = 20, *, then_stop: bool = False) -> Answer:
    """Send ``data`` (a whole request) from a thread while reading the answer, up to its Content-Length: a server
    that refuses a big body answers before it has read it all, and may then stop reading (gunicorn) or read on until
    the client closes (the development server), so neither sending nor waiting for the close may block reading.
    ``then_stop``: end the sending side after ``data`` (a client that stops in the middle of its body)."""
    sock = socket.create_connection((servers.HOST, port), timeout=timeout)

    def send() -> None:
        with contextlib.suppress(OSError):  # the server answered and closed before taking all of it
            sock.sendall(data)
            if then_stop:
                sock.shutdown(socket.SHUT_WR)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    got = bytearray()
    try:
        while b"\r\n\r\n" not in got or len(got.partition(b"\r\n\r\n")[2]) < content_length(got):
            chunk = sock.recv(65536)
            if not chunk:
                break
            got += chunk
    finally:
        sock.close()
        sender.join(timeout)
    head, _, body = bytes(got).partition(b"\r\n\r\n")
    return Answer(int(head.split(b" ", 2)[1]), body)


def content_length(answer: bytes | bytearray) -> int:
    found = re.search(rb"\r\ncontent-length: *(\d+)\r\n", answer.partition(b"\r\n\r\n")[0], re.IGNORECASE)
    assert found, answer[:500]
    return int(found[1])


def chunked_post(path: str, framed: bytes) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: {servers.HOST}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    ).encode() + framed


@pytest.fixture(scope="module", params=["gunicorn", "development server"])
def server(request, tmp_path_factory: pytest.TempPathFactory) -> Iterator[servers.Server]:
    log = tmp_path_factory.mktemp("bodies") / "server.log"
    if request.param == "gunicorn":
        started: servers.Server = servers.Gunicorn(seed_data(), workers=1, log=log)
    else:
        port = servers.free_port()
        cmd = [sys.executable, "-m", "dashboard", "serve", "--data", str(seed_data()), "--port", str(port)]
        started = servers.Server(cmd, port, log=log)
    try:
        yield started
    finally:
        started.stop()


@pytest.mark.slow
def test_bad_chunked_framing_is_400_json_with_no_traceback(server: servers.Server) -> None:
    """A bad chunk size line, a chunk not ended by CRLF, a body that stops in the middle of a chunk: each a 400 in the
    app's error shape saying what the server's HTTP parser found, and one warning line in the log."""
    gunicorn = isinstance(server, servers.Gunicorn)
    cases = [
        (b"zz\r\nabc\r\n0\r\n\r\n", "Invalid chunk size: b'zz'" if gunicorn else "Invalid chunk header"),
        (
            b"3\r\nabcXY0\r\n\r\n",
            "Invalid chunk terminator is not '\\r\\n': b'XY'" if gunicorn else "Missing chunk terminating newline",
        ),
        (b"a\r\nabc", "it ended before its last chunk" if gunicorn else "Missing chunk terminating newline"),
    ]
    for path in (LIBRARY, URL):
        for framed, why in cases:
            answer = exchange(server.port, chunked_post(path, framed), then_stop=True)
            assert answer.status == 400
            assert answer.json() == {"error": f"the request body cannot be read ({why})", "status": 400}
    log = server.log.read_text()
    assert "Traceback" not in log
    for path in ("/library", URL):
        for _, why in cases:
            assert f"unreadable request body on POST {path}: {why}\n" in log


@pytest.mark.slow
def test_a_body_cut_short_of_its_content_length_is_400(server: servers.Server) -> None:
    """A client that stops before the Content-Length it announced: gunicorn's input just ends there, werkzeug's
    raises; either way a 400, never the part that came treated as the whole."""
    for path in (LIBRARY, URL):
        head = f"POST {path} HTTP/1.1\r\nHost: {servers.HOST}\r\nContent-Length: 100\r\nConnection: close\r\n\r\n"
        answer = exchange(server.port, head.encode() + BIB[:60], then_stop=True)
        assert answer.status == 400
        assert answer.json() == {
            "error": "the request body cannot be read (it ended before its Content-Length)",
            "status": 400,
        }
    assert "Traceback" not in server.log.read_text()


@pytest.mark.slow
def test_chunked_bodies_over_the_limits_are_413(server: servers.Server) -> None:
    answer = exchange(server.port, chunked_post(LIBRARY, chunked(b"%" * (3 * 1024 * 1024))))
    assert answer.status == 413 and answer.json() == LIBRARY_TOO_LARGE
    answer = exchange(server.port, chunked_post(URL, chunked(b" " * (300 * 1024))))
    assert answer.status == 413 and answer.json() == CALLBACK_TOO_LARGE
    assert "Traceback" not in server.log.read_text()


@pytest.mark.slow
def test_a_good_chunked_library_upload_is_matched(server: servers.Server) -> None:
    answer = exchange(server.port, chunked_post(LIBRARY, chunked(BIB, size=7)))
    assert answer.status == 200 and answer.json() == BIB_ANSWER
    assert "Traceback" not in server.log.read_text()
