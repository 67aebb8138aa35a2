"""Hosting hardening for a public read-only viewer: request limits, payload validation, error pages
without tracebacks, and security headers.

Anyone can POST anything to ``/_dash-update-component``. Before Dash sees a request, its body must be
small, valid JSON (nesting bounded by orjson), and shaped like a call of one of this app's server-side
callbacks with exactly that callback's inputs and state; anything else is a 4xx with a short message.
What still fails inside a callback is logged with an error id that the visitor sees and can quote.
"""

from __future__ import annotations

import io
import logging
import os
import uuid
from typing import Any

import orjson
from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import BadRequest, ClientDisconnected, HTTPException, RequestEntityTooLarge
from werkzeug.serving import WSGIRequestHandler
from werkzeug.wsgi import get_content_length, get_input_stream

log = logging.getLogger("citemap.security")

MAX_BODY = 256 * 1024  # bytes of a callback request; a real one is far smaller
TOO_LARGE = "request body too large: a callback request may be at most 256 kB"  # nginx says the same
ENDED_EARLY = "it ended before its Content-Length"
READ_STEP = 1 << 16  # bytes asked of the WSGI input at a time
MAX_LIST = 2000  # items of a pattern-matching input list
MAX_DEPTH = 32  # nesting of a callback request's JSON; the browser's are a few levels deep
UPDATE_PATH = "/_dash-update-component"
# Dash's own folders: a path under them that no route of theirs serves is a wrong path, not a page of the app
RESERVED_PREFIXES = ("_dash-", "assets/")


def error_id() -> str:
    return uuid.uuid4().hex[:10]


def _values_problem(value: Any) -> str | None:
    """What is wrong with the values of a parsed body, or None: nesting deeper than MAX_DEPTH (orjson parses up to
    1,024 levels, Dash's own parsing and the callbacks' code recurse, and a real request is a few levels deep), or an
    integer beyond what JavaScript represents exactly. Iterative: no recursion on the client's structure."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int | float) and not -(2**53) <= v <= 2**53:
            # also floats: a huge integer may parse as one here and as an int in Dash
            return "a number is out of range (a browser sends at most 2**53)"
        if isinstance(v, dict | list):
            if depth > MAX_DEPTH:
                return f"values are nested more than {MAX_DEPTH} deep"
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return None


def _is_pattern(spec_id: Any) -> bool:
    return isinstance(spec_id, str) and spec_id.startswith("{")


def _check_args(given: Any, spec: list[dict], what: str) -> str | None:
    if not isinstance(given, list) or len(given) != len(spec):
        return f"{what}: expected a list of {len(spec)} items"
    for item, want in zip(given, spec, strict=True):
        if _is_pattern(want["id"]):
            if not isinstance(item, list) or len(item) > MAX_LIST:
                return f"{what}: {want['id']} expects a list of at most {MAX_LIST} items"
            pattern = orjson.loads(want["id"])
            for sub in item:
                if (
                    not isinstance(sub, dict)
                    or not isinstance(sub.get("id"), dict)
                    or sub.get("property") != want["property"]
                ):
                    return f"{what}: malformed item for {want['id']}.{want['property']}"
                if any(k not in sub["id"] for k in pattern):
                    return f"{what}: item id does not match {want['id']}"
        else:
            if not isinstance(item, dict) or item.get("id") != want["id"] or item.get("property") != want["property"]:
                return f"{what}: expected {want['id']}.{want['property']}"
    return None


def validate_update(body: bytes, callback_map: dict[str, dict]) -> str | None:
    """Why a callback request is not acceptable, or None if it is."""
    if len(body) > MAX_BODY:
        return TOO_LARGE
    try:
        payload = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        return f"body is not valid JSON ({str(e)[:80]})"
    if not isinstance(payload, dict):
        return "body must be a JSON object"
    why = _values_problem(payload)
    if why:
        return why
    output = payload.get("output")
    if not isinstance(output, str) or output not in callback_map:
        return "unknown callback output"
    spec = callback_map[output]
    if "callback" not in spec:
        return "this callback runs in the browser"
    for name, what in (("inputs", "inputs"), ("state", "state")):
        problem = _check_args(payload.get(name, []), spec.get(name, []), what)
        if problem:
            return problem
    changed = payload.get("changedPropIds", [])
    if not isinstance(changed, list) or len(changed) > 5 * MAX_LIST or not all(isinstance(c, str) for c in changed):
        return "changedPropIds must be a list of strings"
    return _check_outputs(payload.get("outputs"), output)


def output_specs(output: str) -> tuple[bool, list[tuple[str, str]]]:
    """(multi, [(id, property), ...]) of a callback's output key ("a.b" or "..a.b...c.d..")."""
    multi = output.startswith("..")
    parts = output[2:-2].split("...") if multi else [output]
    return multi, [tuple(p.rsplit(".", 1)) for p in parts]  # type: ignore[misc]


def _check_outputs(outputs: Any, output: str) -> str | None:
    multi, specs = output_specs(output)
    items = outputs if multi else [outputs]
    if not isinstance(items, list) or len(items) != len(specs):
        return f"outputs: expected {len(specs)} output(s)"
    for item, (oid, prop) in zip(items, specs, strict=True):
        if not isinstance(item, dict) or item.get("id") != oid or item.get("property") != prop:
            return f"outputs: expected {oid}.{prop}"
    return None


def unreadable(e: Exception) -> str | None:
    """Why reading a request body failed on the client's side, or None for an error of the server's own. The client's
    are what a WSGI server raises from its input: gunicorn's HTTP parser errors (a bad chunk size line, a chunk without
    its CRLF, a body that ends early: ``gunicorn.http.errors``, matched by module so that nothing imports gunicorn
    where it does not serve), werkzeug's development server's OSError (``Invalid chunk header``), a socket error, and
    werkzeug's ClientDisconnected (fewer bytes than the Content-Length)."""
    if isinstance(e, ClientDisconnected):
        return ENDED_EARLY
    if type(e).__module__ == "gunicorn.http.errors" and type(e).__name__ == "NoMoreData":
        return "it ended before its last chunk"  # gunicorn's own words name no place: "No more data after: None"
    if type(e).__module__ == "gunicorn.http.errors" or isinstance(e, OSError):
        return str(e)[:80] or type(e).__name__
    return None


def read_body(limit: int, too_large: str = TOO_LARGE) -> bytes:
    """The current request's body, read once from the WSGI input, whether it comes with a Content-Length or chunked:
    at most ``limit`` bytes. A longer body is a 413 (``too_large``: its message), refused on its Content-Length
    alone or once ``limit`` + 1 bytes have arrived, the rest unread. A body that cannot be read (bad chunked framing,
    a client that stops sending) is a 400 saying why, with one warning line in the log and no traceback. Both are
    HTTP errors that :func:`install`'s handler answers in the JSON error shape.

    Afterwards the request reads as one of these bytes with their Content-Length (``request.get_data()`` gives
    them: Dash reads the callback's body that way)."""
    environ = request.environ
    length = get_content_length(environ)  # None when chunked
    if length is not None and length > limit:
        raise RequestEntityTooLarge(too_large)
    # a stream that ends where the body does: the Content-Length's bytes, a chunked body up to its last chunk (a server
    # that dechunks says so, wsgi.input_terminated), else nothing (a body without a length that no server delimits)
    stream = get_input_stream(environ, max_content_length=None)
    body = bytearray()
    why = None
    try:
        while len(body) <= limit:
            piece = stream.read(min(READ_STEP, limit + 1 - len(body)))
            if not piece:
                break
            body += piece
    except Exception as e:
        why = unreadable(e)
        if why is None:
            raise
    if why is None and length is not None and len(body) < length:
        why = ENDED_EARLY  # gunicorn's input just ends where the client stopped sending
    if why is not None:
        log.warning("unreadable request body on %s %s: %s", request.method, request.path[:200], why)
        raise BadRequest(f"the request body cannot be read ({why})")
    if len(body) > limit:
        raise RequestEntityTooLarge(too_large)
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    return bytes(body)


def problem(status: int, message: str) -> Response:
    """A JSON error response: ``{"error": message, "status": status}``."""
    resp = jsonify({"error": message, "status": status})
    resp.status_code = status
    return resp


# The browser features the page uses: full screen (presenting) on its own origin; none of the others.
PERMISSIONS_POLICY = ", ".join(
    [
        "fullscreen=(self)",
        *(
            f"{f}=()"
            for f in (
                "camera",
                "microphone",
                "geolocation",
                "payment",
                "usb",
                "serial",
                "midi",
                "magnetometer",
                "gyroscope",
                "accelerometer",
                "display-capture",
                "browsing-topics",
            )
        ),
    ]
)


def content_security_policy(dash_hashes: list[str], frame_ancestors: str) -> str:
    """A CSP the app works under: scripts only from this origin plus Dash's one inline bootstrap script
    (by hash); styles inline too (Plotly and Cytoscape set them); images as data/blob (exports)."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' " + " ".join(dash_hashes),
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            f"frame-ancestors {frame_ancestors}",
        ]
    )


def reserved_path_unserved() -> bool:
    """Whether the request went to Dash's catch-all page route (``<prefix><path:path>``, which answers any path
    with the app's page) with a path under Dash's own folders: ``/_dash-component-suites/`` with no package or file
    was a 200 page instead of a 404."""
    rule = request.url_rule
    if rule is None or not rule.rule.endswith("<path:path>") or not request.view_args:
        return False
    path = str(request.view_args.get("path", ""))
    return path.startswith(RESERVED_PREFIXES) or path + "/" in RESERVED_PREFIXES


class BannerlessRequestHandler(WSGIRequestHandler):
    """The development server's handler without its ``Server: Werkzeug/x Python/y`` banner (gunicorn's is set in
    gunicorn_conf.py): a version tells an attacker which published bugs to try."""

    def version_string(self) -> str:
        return "citemap"


def install(server: Flask, dash_hashes: list[str]) -> None:
    """Request limits, validation, error handlers and security headers on the Flask server."""
    frame_ancestors = os.environ.get("CITEMAP_FRAME_ANCESTORS", "'none'")
    csp = content_security_policy(dash_hashes, frame_ancestors)
    server.config["MAX_CONTENT_LENGTH"] = MAX_BODY

    @server.before_request
    def check_request() -> Response | None:
        if request.path != UPDATE_PATH:
            return problem(404, "no such file") if reserved_path_unserved() else None
        if request.method != "POST":
            return problem(405, "callbacks are POST requests")
        body = read_body(MAX_BODY)
        why = validate_update(body, server.config["CITEMAP_CALLBACK_MAP"])
        if why:
            return problem(400, why)
        return None

    @server.after_request
    def headers(resp: Response) -> Response:
        resp.headers["Content-Security-Policy"] = csp
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        resp.headers["Permissions-Policy"] = PERMISSIONS_POLICY
        if frame_ancestors == "'none'":
            resp.headers["X-Frame-Options"] = "DENY"
        resp.headers.pop("Server", None)
        return resp

    @server.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> Response:
        resp = problem(e.code or 400, e.description or e.name)
        for name, value in e.get_headers():
            if name == "Retry-After":  # a refusal says when to ask again (429, 503)
                resp.headers[name] = value
        return resp

    @server.errorhandler(Exception)
    def unexpected(e: Exception) -> Response:
        eid = error_id()
        log.exception("error %s on %s %s", eid, request.method, request.path[:200])
        return problem(500, f"Something went wrong on the server (error id {eid}).")
