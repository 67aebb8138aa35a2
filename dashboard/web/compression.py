"""Compressed responses: the JSON, HTML, JavaScript and CSS the app serves go out as Brotli or gzip, whichever the
client accepts (flask-compress). Off with ``CITEMAP_COMPRESS=0`` where a proxy in front compresses instead
(deploy/nginx.conf.template), so that the replicas spend no CPU on it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from flask import Flask, Response, request
from flask_compress import Compress
from werkzeug.http import quote_etag

MIMETYPES = [
    "application/json",
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "text/plain",
    "image/svg+xml",
    "application/xml",
]


def wanted() -> bool:
    return os.environ.get("CITEMAP_COMPRESS", "1").strip().lower() not in ("0", "false", "no", "off")


def install(server: Flask) -> None:
    """Compress responses of at least 1 KiB (smaller ones gain less than the header costs): Brotli at quality 4
    (about gzip's speed, smaller), else gzip at level 6; a strong ETag gets the encoding appended (``X:br``)."""
    server.config.update(
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_STREAMS=False,
        COMPRESS_BR_LEVEL=4,
        COMPRESS_LEVEL=6,
        COMPRESS_MIN_SIZE=1024,
        COMPRESS_MIMETYPES=MIMETYPES,
    )
    Compress(server)

    @server.after_request
    def read_files(resp: Response) -> Response:
        """Scripts and styles leave Flask as file streams, which flask-compress would compress without ever
        closing the file: read here (the app's own files, small enough to hold), they are compressed as any answer
        is, and the file is closed with the response. Runs before the compression (Flask runs these hooks
        last-added first)."""
        if resp.direct_passthrough and resp.status_code == 200 and resp.mimetype in MIMETYPES:
            resp.direct_passthrough = False
            resp.get_data()
        return resp


def revalidated(etag: str, body: Callable[[], str | bytes], mimetype: str = "application/json") -> Response:
    """An answer caches must check each time ("no-cache") by its ``etag``: a bodiless 304 while the request's
    If-None-Match names it, else ``body()``."""
    headers = {"Cache-Control": "public, no-cache", "ETag": quote_etag(etag)}
    if etag_matches(request.if_none_match.as_set(include_weak=True), etag):
        return Response(status=304, headers=headers)
    return Response(body(), mimetype=mimetype, headers=headers)


def etag_matches(if_none_match: Iterable[str], etag: str) -> bool:
    """Whether a client's If-None-Match names ``etag``, as sent plain or with the encoding install() appended."""
    return any(tag == "*" or tag == etag or tag.rsplit(":", 1)[0] == etag for tag in if_none_match)
