"""The field view (``mode=field``): ``GET /field/points`` serves its points (the same for every state of a build)
and ``GET /field?<view query>`` a state's layer over them (dashboard/view/field.py); the browser draws them
(assets/js/field.js, clientside callback ``loadField``), and the state callback applies its actions
(:func:`field_action`): a click selects a paper, "Map these N papers" makes a box or lasso selection the seeds of a
citation map. The page listens to the plot itself (field.js says why) and sends them: a click as
``store-field-click``, a selection as ``store-field-selection`` and the button's text."""

from __future__ import annotations

from dataclasses import replace

from dash import ClientsideFunction, Dash, Input, Output
from flask import Response, request

from dashboard.dataset.store import Store
from dashboard.graph.state import MAX_SEEDS, ViewState, encode_query
from dashboard.view.field import field_json, field_making_json, field_points_json, seeds_from_selection
from dashboard.web import compression
from dashboard.web.budget import work
from dashboard.web.callbacks.common import read_state


def _clicked(data: object) -> int | None:
    """The row of the point a click names (``store-field-click``: ``{row, at}``), or None."""
    r = data.get("row") if isinstance(data, dict) else None
    return r if isinstance(r, int) and not isinstance(r, bool) else None


def _selection(data: object) -> tuple[list[int], int]:
    """A selection as the page sends it (``store-field-selection``: ``rows``, its most cited papers, and ``n``, how
    many it holds), hostile input dropped."""
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        return [], 0
    rows = [r for r in data["rows"][:MAX_SEEDS] if isinstance(r, int) and not isinstance(r, bool)]
    n = data.get("n")
    return rows, n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else len(rows)


def field_action(store: Store, state: ViewState, trig: str, value: object) -> tuple[ViewState, list[str]]:
    """The state after an action in the field view: ``store-field-click`` (``value``: ``{row, at}``: select the
    paper clicked) or ``button-field-map`` (``value``: the selection, ``{rows, n}``: its most cited ``MAX_SEEDS`` papers
    become the seeds of a citation map)."""
    if trig == "store-field-click":
        row = _clicked(value)
        if row is None or not 0 <= row < store.n:
            return state, []
        return replace(state, selected=store.id(row)), []
    rows, n = _selection(value)
    seeds, valid = seeds_from_selection(store, rows, MAX_SEEDS)
    if not seeds:
        return state, ["Select papers in the field first (box or lasso in its toolbar)."]
    notices = []
    n = max(n, valid)
    if n > len(seeds):
        notices.append(f"A map takes at most {MAX_SEEDS} seeds: the {len(seeds)} most cited of the {n:,} selected.")
    new = replace(state, seeds=tuple(seeds), expand=(), selected=None, path=None, mode="citations", clusters=None)
    return new, notices


def register(app: Dash, store: Store) -> None:
    build_id = store.meta.get("build_id", "")

    @app.server.get("/field/points")
    def field_points() -> Response:
        """The field's points: one answer a build (cached by it); while its map is being made, how far along."""
        making = field_making_json(store)
        if making is not None:
            return compression.revalidated(making[0], lambda: making[1])
        return compression.revalidated(f"{build_id}-field-points", lambda: field_points_json(store))

    @app.server.get("/field")
    def field() -> Response:
        """The layer of the view in the query string over the points (as GET /graph: cached by build and view,
        the work spent from the client's budget)."""
        state, _ = read_state(store, request.query_string.decode("utf-8", "replace"))
        state = replace(state, mode="field", story=None, step=1)
        making = field_making_json(store)
        if making is not None:
            return compression.revalidated(making[0], lambda: making[1])
        return compression.revalidated(
            f"{build_id}-field-{encode_query(state)}",
            lambda: work(store, state, "subgraph", lambda: field_json(store, state)),
        )

    app.clientside_callback(  # fetches GET /field?<query> and draws it (WebGL), shown instead of the citation map
        ClientsideFunction(namespace="citemap", function_name="loadField"),
        Output("graph-field", "figure"),
        Output("div-field", "className"),
        Output("span-field-status", "children"),
        Input("store-view-state", "data"),
        Input("radio-mode", "data-value"),  # the state's mode (a story's query does not show it); set with the state
        prevent_initial_call=True,
    )
