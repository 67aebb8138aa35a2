"""Pure view changes done in the browser (assets/js/clientside.js: namespace ``citemap``, each a call into a
module of assets/js/)."""

from __future__ import annotations

from dash import ALL, ClientsideFunction, Dash, Input, Output, State


def register(app: Dash) -> None:
    app.clientside_callback(  # "Show all" under a list of the paper panel (assets/js/controls.js)
        ClientsideFunction(namespace="citemap", function_name="listsFull"),
        Output("store-lists-full", "data"),
        Input({"type": "list-more", "index": ALL}, "n_clicks"),
        prevent_initial_call=True,
    )
    app.clientside_callback(  # fetches GET /graph?<query> (dashboard/web/app.py) and draws it into Cytoscape directly
        ClientsideFunction(namespace="citemap", function_name="loadGraph"),
        Output("store-drawn", "data"),
        Output("div-rendered-graph", "children"),
        Output("span-library-count", "children"),
        Input("store-view-state", "data"),
        Input("store-library", "data"),
        Input("radio-library", "data-value"),
        State("store-story", "data"),  # a story's step may set the camera
        prevent_initial_call=True,
    )
    app.clientside_callback(  # POST /library (dashboard/web/app.py): the file's papers in this dataset, kept in the tab
        ClientsideFunction(namespace="citemap", function_name="loadLibrary"),
        Output("store-library", "data"),
        Output("store-library-error", "data"),
        Input("upload-library", "contents"),
        State("upload-library", "filename"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction(namespace="citemap", function_name="libraryStatus"),
        Output("div-library-status", "children"),
        Output("div-library-status", "className"),
        Output("div-library-controls", "style"),
        Input("store-library", "data"),
        Input("store-library-error", "data"),
    )
    app.clientside_callback(
        ClientsideFunction(namespace="citemap", function_name="forgetLibrary"),
        Output("store-library", "data", allow_duplicate=True),
        Output("radio-library", "data-value"),
        Input("button-library-clear", "n_clicks"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction(namespace="citemap", function_name="hoverCard"),
        Output("div-hover", "children"),
        Input("graph-citations", "mouseoverNodeData"),
        Input("graph-citations", "mouseoverEdgeData"),  # a similarity link, hovered or tapped: why they are similar
        Input("graph-citations", "tapEdgeData"),
    )
    app.clientside_callback(  # the first view's line (what it shows, its story offered): while it is shown
        ClientsideFunction(namespace="citemap", function_name="firstViewHidden"),
        Output("div-first-view", "hidden"),
        Input("url", "search"),
    )
    app.clientside_callback(  # the years slider's range in words beside its label, while dragged and after
        ClientsideFunction(namespace="citemap", function_name="yearsRange"),
        Output("span-years-range", "children"),
        Input("range-years", "drag_value"),
        Input("range-years", "value"),
    )
    app.clientside_callback(  # a story written here or loaded from a file: present it from its first step
        ClientsideFunction(namespace="citemap", function_name="presentDraft"),
        Output("store-story", "data", allow_duplicate=True),
        Output("url", "search", allow_duplicate=True),
        Input("button-story-present", "n_clicks"),
        State("store-story-draft", "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(  # presenting: the page's frame, the step's title, caption and number
        ClientsideFunction(namespace="citemap", function_name="presentOverlay"),
        Output("div-app", "className"),
        Output("div-present", "style"),
        Output("div-present-title", "children"),
        Output("md-present-caption", "children"),
        Output("span-present-count", "children"),
        Input("store-story", "data"),
        Input("store-view-state", "data"),
    )
