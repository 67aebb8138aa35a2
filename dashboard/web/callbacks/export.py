"""Exports of the view's papers as files (images of the map are drawn in the browser: assets/js/export-image.js)."""

from __future__ import annotations

from dash import Dash, Input, Output, State, ctx, dcc
from dash.exceptions import PreventUpdate

from dashboard.dataset.store import Store
from dashboard.view.export import EXPORTS, export
from dashboard.view.payload import compute_view
from dashboard.web.budget import work
from dashboard.web.callbacks.common import read_state


def register(app: Dash, store: Store) -> None:
    @app.callback(
        Output("download-export", "data"),
        Input("button-export-csv", "n_clicks"),
        Input("button-export-bibtex", "n_clicks"),
        Input("button-export-ris", "n_clicks"),
        Input("button-export-json", "n_clicks"),
        Input("button-export-graphml", "n_clicks"),
        State("store-view-state", "data"),
        prevent_initial_call=True,
    )
    def export_file(*args):
        kind = str(ctx.triggered_id or "").removeprefix("button-export-")
        if kind not in EXPORTS:
            raise PreventUpdate
        state, _ = read_state(store, args[-1])
        content, name = work(store, state, "export", lambda: export(store, compute_view(store, state), kind))
        if isinstance(content, bytes):
            content = content.decode()
        return dcc.send_string(content, name)
