"""Exports: the graph as an image (drawn by Cytoscape in the browser), the view's papers as files."""

from __future__ import annotations

from dash import Dash, Input, Output, State, ctx, dcc
from dash.exceptions import PreventUpdate

from dashboard.callbacks.common import read_state
from dashboard.graph.export import export, file_stem
from dashboard.graph.view import build_subgraph, compute_view
from dashboard.store import Store


def register(app: Dash, store: Store) -> None:
    @app.callback(
        Output("graph-citations", "generateImage"),
        Input("button-export-png", "n_clicks"),
        Input("button-export-svg", "n_clicks"),
        State("store-view-state", "data"),
        prevent_initial_call=True,
    )
    def export_image(_png, _svg, query):
        kind = {"button-export-png": "png", "button-export-svg": "svg"}.get(ctx.triggered_id)
        if kind is None:
            raise PreventUpdate
        state, _ = read_state(store, query)
        stem = file_stem(state.seeds, len(build_subgraph(store, state).rows)).removesuffix("-papers")
        return {"type": kind, "action": "download", "filename": f"{stem}-graph",
                "options": {"full": True, "scale": 2, "bg": "#ffffff"}}

    @app.callback(
        Output("download-export", "data"),
        Input("button-export-csv", "n_clicks"),
        Input("button-export-bibtex", "n_clicks"),
        Input("button-export-json", "n_clicks"),
        Input("button-export-graphml", "n_clicks"),
        State("store-view-state", "data"),
        prevent_initial_call=True,
    )
    def export_file(*args):
        kind = str(ctx.triggered_id or "").removeprefix("button-export-")
        if kind not in ("csv", "bibtex", "json", "graphml"):
            raise PreventUpdate
        state, _ = read_state(store, args[-1])
        content, name = export(store, compute_view(store, state), kind)
        if isinstance(content, bytes):
            content = content.decode()
        return dcc.send_string(content, name)
