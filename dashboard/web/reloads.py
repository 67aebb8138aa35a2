"""A reload onto a new build never goes backwards for a browser.

During a rolling reload (docs/hosting.md) one replica already serves the new build while another still serves the
old one, and nginx sends a browser's requests to either. So every answer names the build that made it in a cookie
(``citemap_build``, the build's id, for this site and this browser session; it holds nothing else), and a server
whose dataset folder now points at a newer build (``current``, dashboard/dataset/builds.py) than the one it serves
answers a browser that has already seen that newer build with ``503`` and ``Retry-After: 1`` before doing any work;
the page asks again after that second (assets/js/logic/graph-fetch.js), and nginx may send it to the other replica
then. (nginx does not pass the 503 on to the next replica itself: it would count it as the replica failing.) A
browser that has not seen the new build yet is served as before, and a roll-back (the folder pointed at an older
build again) is followed: only the build the folder points at is insisted on.

Files nginx may keep (scripts, assets, icons) carry no cookie: nginx keeps no answer that sets one.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from flask import Flask, Response, request
from werkzeug.exceptions import ServiceUnavailable

from dashboard.dataset import builds
from dashboard.dataset.format import read_meta
from dashboard.dataset.store import Store
from dashboard.errors import DatasetError

COOKIE = "citemap_build"  # nginx keys its copy of the field's points by it ($cookie_citemap_build)
UNCOOKED = ("/assets/", "/_dash-component-suites/", "/favicon.ico", "/robots.txt", "/field/points")  # nginx may keep
STALE = "this server is being reloaded onto the newer build you have seen: try again in a moment"


class CurrentBuild:
    """The id of the build a dataset folder points at now (its ``current`` link), read again when the link
    changes."""

    def __init__(self, folder: Path, served: Path, served_id: str) -> None:
        self.folder = folder
        self.flat = served == folder  # a build folder served as it is: it never points elsewhere
        self._known: tuple[str, str] = ("", served_id) if self.flat else (os.fspath(served), served_id)
        self._lock = threading.Lock()

    def build_id(self) -> str:
        if self.flat:
            return self._known[1]
        try:
            target = os.fspath(builds.served(self.folder))
        except (OSError, DatasetError):
            return self._known[1]
        with self._lock:
            if target != self._known[0]:
                try:
                    self._known = (target, str(read_meta(Path(target)).get("build_id", "")))
                except (OSError, ValueError, DatasetError):
                    return self._known[1]
            return self._known[1]


def install(server: Flask, store: Store) -> None:
    """The cookie on every answer but the files nginx may keep, and the refusal of a browser that has seen the build
    the folder points at, by a server of an older one."""
    mine = str(store.meta.get("build_id", ""))
    current = CurrentBuild(store.folder, store.build, mine)

    def cooked() -> bool:
        return bool(mine) and not request.path.startswith(UNCOOKED)

    @server.before_request
    def newer_build_seen() -> None:
        seen = request.cookies.get(COOKIE)
        if not seen or seen == mine or not cooked():
            return
        if current.build_id() == seen:
            raise ServiceUnavailable(STALE, retry_after=1)

    @server.after_request
    def name_the_build(resp: Response) -> Response:
        if cooked() and resp.status_code < 500 and request.cookies.get(COOKIE) != mine:
            resp.set_cookie(COOKIE, mine, path="/", secure=request.is_secure, httponly=True, samesite="Strict")
        return resp
