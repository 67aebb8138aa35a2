"""Pure view changes done in the browser (functions in assets/citemap.js, namespace ``citemap``)."""

from __future__ import annotations

from dash import ClientsideFunction, Dash, Input, Output


def register(app: Dash) -> None:
    app.clientside_callback(  # fetches GET /graph?<query> (dashboard/app.py) and draws it
        ClientsideFunction(namespace="citemap", function_name="loadGraph"),
        Output("graph-citations", "elements"),
        Output("div-rendered-graph", "children"),
        Input("store-view-state", "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction(namespace="citemap", function_name="hoverCard"),
        Output("div-hover", "children"),
        Input("graph-citations", "mouseoverNodeData"),
    )
