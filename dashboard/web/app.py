"""The Dash application: ``create_app(data)`` (``dashboard.app`` makes the one gunicorn serves)."""

from __future__ import annotations

import gc
import logging
import os
from html import escape
from pathlib import Path
from typing import Any

# pandas imported here, once: plotly's JSON encoder imports it lazily, and two threads doing so at once (the page's
# first requests: the layout and the first view) see a half-initialised module ("pandas has no attribute NaT")
import orjson
import pandas  # noqa: F401
from dash import Dash, html, set_props
from dash.exceptions import DependencyException
from flask import Response, request
from werkzeug.exceptions import HTTPException

from dashboard.dataset.store import Store
from dashboard.errors import DatasetError
from dashboard.graph import free_places
from dashboard.graph.state import encode_query, view_query
from dashboard.resources import ASSETS
from dashboard.view import field as field_mod
from dashboard.view import library as library_mod
from dashboard.view.naming import about_line, file_stem, image_title
from dashboard.view.payload import build_subgraph, graph_json
from dashboard.view.preview import preview_svg
from dashboard.web import compression, reloads, security
from dashboard.web.budget import CONFIG_KEY, Budget, work
from dashboard.web.callbacks import register_callbacks
from dashboard.web.callbacks.common import read_state
from dashboard.web.callbacks.render import register_ping
from dashboard.web.layout import make_layout
from dashboard.web.page_scripts import BOOT_PICTURE, LightDash

log = logging.getLogger(__name__)


def create_app(
    data: str | Path,
    *,
    store: Store | None = None,
    library: str | Path | None = None,
    bench_ping: bool | None = None,
    budget: Budget | None = None,
) -> Dash:
    """A Dash app serving the dataset folder ``data`` (never in debug mode unless run() asks). ``library``: a
    BibTeX, RIS, Web of Science, CSL-JSON or citemap JSON file whose papers every visitor's page marks until the
    visitor loads their own.
    ``bench_ping``: add the no-op ``store-ping -> store-pong`` callback the benchmarks time as their baseline; by
    default only when the environment sets ``CITEMAP_BENCH_PING=1`` (bench/run.py does, for the servers it starts).
    ``budget``: the work each client address may cause (dashboard/web/budget.py); none by default (the WSGI entry,
    dashboard/app.py, gives the hosted server one)."""
    if bench_ping is None:
        bench_ping = os.environ.get("CITEMAP_BENCH_PING") == "1"
    store = store or Store.load(data)
    default_library = load_default_library(store, library) if library else None
    gc.collect()
    gc.freeze()  # the store's long-lived objects leave the collector's scans (tail latency)
    app = LightDash(
        __name__,
        assets_folder=str(ASSETS),
        # served, not put in the page by Dash: the page's modules (page_scripts.py puts their entry in the page), and
        # the published libraries they load when due
        assets_path_ignore=["^js$", "^vendor$"],
        title="citemap",
        update_title=None,
        serve_locally=True,
        compress=False,
        on_error=callback_error,
        meta_tags=[{"name": "description", "content": description(store)}],  # Dash escapes it
    )
    app.index_string = boot_page(store)

    def boot_picture(query: str) -> str:
        """The first page's picture of the map of the view in its query string (none for the whole field)."""
        state, _ = read_state(store, query)
        if state.mode == "field":
            return ""
        return f'<img class="boot-map" src="/preview.svg{escape(encode_query(state))}" alt="">'

    app.boot_picture = boot_picture
    app.layout = make_layout(store, default_library, bench_ping=bench_ping)
    register_callbacks(app, store)
    free_places.warm()  # the title rooms' compiled search, loaded once here (gunicorn's workers inherit it)
    if store.n > field_mod.MAX_POINTS and store.field_xy is not None:
        # a big store: the field's points and their regions are made here, once (in gunicorn's master, before the
        # workers fork), not while the first visitor of each worker waits for them
        field_mod.field_points_json(store)
    if bench_ping:
        register_ping(app)
    app.server.config["CITEMAP_STORE"] = store
    app.server.config[CONFIG_KEY] = budget
    app.server.config["CITEMAP_CALLBACK_MAP"] = app.callback_map
    reloads.install(app.server, store)  # first: a server of an older build refuses before anything else is done
    security.install(app.server, list(app.csp_hashes()))
    if compression.wanted():
        compression.install(app.server)

    @app.server.errorhandler(DependencyException)
    def unknown_component_file(e: DependencyException) -> Response:
        """A script path Dash does not serve (``/_dash-component-suites/...``): the client's error, not ours."""
        return security.problem(404, "no such file")

    build_id = store.meta.get("build_id", "")

    @app.server.get("/graph")
    def graph() -> Response:
        """The graph payload of the view in the query string (the browser fetches it after every change).
        A GET, so that browsers and proxies may keep it. A view of one dataset build never changes, but a reload
        may bring another build: caches must ask again each time ("no-cache"), with the ETag, which names the
        build and the view (a story's step by the view it holds now), and get a bodiless 304 while both are the
        same. The work is spent from the client's budget."""
        state, _ = read_state(store, request.query_string.decode("utf-8", "replace"))
        return compression.revalidated(
            f"{build_id}-{view_query(state)}", lambda: work(store, state, "graph", lambda: graph_json(store, state))
        )

    @app.server.get("/preview.svg")
    def preview() -> Response:
        """A picture of the map of the view in the query string (dashboard/view/preview.py), which the first page
        shows while its scripts load; cached as ``GET /graph`` is."""
        state, _ = read_state(store, request.query_string.decode("utf-8", "replace"))
        return compression.revalidated(
            f"{build_id}-preview-{view_query(state)}",
            lambda: work(store, state, "preview", lambda: preview_svg(graph_json(store, state))),
            mimetype="image/svg+xml",
        )

    @app.server.get("/image-title")
    def image_title_of() -> Response:
        """The title line and file name of an image of the view in the query string (asked for on export only:
        building it on every view cost an expand a tenth of its time)."""
        state, _ = read_state(store, request.query_string.decode("utf-8", "replace"))
        n = len(work(store, state, "subgraph", lambda: build_subgraph(store, state)).rows)
        answer = {
            "title": image_title(store, state, n),
            "file": file_stem(state.seeds, n).removesuffix("-papers") + "-graph",
        }
        return Response(orjson.dumps(answer), mimetype="application/json", headers={"Cache-Control": "no-store"})

    @app.server.post("/library")
    def library_match() -> Response:
        """A visitor's library file (the request body; ``?name=`` its file name) -> the ids of the dataset's
        papers it holds, the encoding it was read in and the entries skipped (see library.match_file). Nothing is
        kept: the page stores the answer in the visitor's browser."""
        given = request.args.get("name", "")[:200]
        name = given or "library"
        # refused before it is read whole, naming the file (nginx, which cannot know its name, says the same words)
        data = security.read_body(library_mod.MAX_BYTES, library_mod.too_large(given or "the library file"))
        try:
            answer = library_mod.match_file(store, name, data)
        except library_mod.LibraryError as e:
            return security.problem(400, str(e))
        return Response(orjson.dumps(answer), mimetype="application/json", headers={"Cache-Control": "no-store"})

    robots_txt = (ASSETS / "robots.txt").read_bytes()
    favicon_ico = (ASSETS / "favicon.ico").read_bytes()
    day = {"Cache-Control": "public, max-age=86400"}

    @app.server.get("/robots.txt")
    def robots() -> Response:
        """What crawlers may read (assets/robots.txt says which and why). Without this route the page route would
        answer the app's page here."""
        return Response(robots_txt, mimetype="text/plain", headers=day)

    @app.server.get("/favicon.ico")
    def favicon() -> Response:
        """The icon at the path where browsers and crawlers look for it without reading the page's link."""
        return Response(favicon_ico, mimetype="image/x-icon", headers=day)

    @app.server.get("/health")
    def health() -> tuple[dict[str, Any], int]:
        return {
            "status": "ok",
            "dataset": store.meta.get("name"),
            "build": store.meta.get("build_id"),
            "papers": store.n,
            "citations": store.n_citations,
        }, 200

    log.info("citemap: %s papers, %s citations from %s", f"{store.n:,}", f"{store.n_citations:,}", store.folder)
    return app


def description(store: Store) -> str:
    """The page's description for search results and link previews: what the map shows, of which dataset."""
    return f"A citation map of {about_line(store)}: find a paper, see what it cites and what cites it."


def boot_page(store: Store) -> str:
    """Dash's page with what shows before its script has drawn anything: the page's frame, a picture of the map
    where the map will be (made per request: ``LightDash.boot_picture``), the dataset it shows, and a spinner
    (instead of a bare "Loading..."); the app covers it once drawn (assets/style.css, .boot). One icon
    link, the SVG (Dash's own link would have browsers fetch the ICO as well); browsers without SVG icons ask for
    /favicon.ico, which create_app() answers."""
    about = escape(about_line(store))
    boot = (
        f'<div class="boot" aria-hidden="true"><div class="boot-head"><span class="logo">citemap</span>'
        f'<span class="boot-about">{about}</span></div>'
        f"{BOOT_PICTURE}"
        f'<div class="boot-body"><div class="boot-spinner"></div><div class="boot-line">Loading the map…</div></div>'
        f"</div>"
    )
    return (
        """<!DOCTYPE html>
<html lang="en">
    <head>
        {%metas%}
        <title>{%title%}</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
        {%css%}
    </head>
    <body>
        """
        + boot
        + """
        {%app_entry%}
        <footer>
            {%config%}
            {%scripts%}
            {%renderer%}
        </footer>
    </body>
</html>"""
    )


def load_default_library(store: Store, path: str | Path) -> dict[str, Any]:
    """``citemap serve --library FILE``: the file matched once at start-up; a bad file stops start-up, named."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise DatasetError(f"{path}: cannot be read ({e.strerror})") from e
    try:
        answer = library_mod.match_file(store, str(path), data)
    except library_mod.LibraryError as e:
        raise DatasetError(str(e)) from e
    return {**answer, "name": path.name}  # messages name the path; the page shows the file's name


def callback_error(err: Exception) -> None:
    """A callback failed: log it with an id, tell the visitor the id, keep the rest of the page. A refusal (an HTTP
    error, such as a budget's 429) is answered as such, by the server's error handler."""
    if isinstance(err, HTTPException):
        raise err
    eid = security.error_id()
    log.error("callback error %s", eid, exc_info=err)
    set_props(
        "div-notices",
        {
            "children": [
                html.Div(
                    f"Something went wrong while updating the view (error id {eid}); the rest of the page still works.",
                    className="notice",
                )
            ]
        },
    )
