"""The one callback that changes the view state: every user action comes here, the URL goes out.

Inputs are the URL and every control; outputs are the URL, the canonical state (a query string in
``store-view-state``) and the controls, so that controls and URL never disagree. Rendering reads
``store-view-state`` in other callbacks.
"""

from __future__ import annotations

import math
from dataclasses import replace

from dash import ALL, Dash, Input, Output, State, ctx, html, no_update
from dash.exceptions import PreventUpdate

from dashboard.dataset.store import Store
from dashboard.graph.neighbourhood import expand_steps, show_more
from dashboard.graph.state import (
    MAX_SEEDS,
    ViewState,
    add_seed,
    default_limit,
    encode_query,
    remove_seed,
    seeds_full,
    switch_mode,
    toggle_cluster,
    toggle_expand,
)
from dashboard.view.payload import build_subgraph
from dashboard.view.years import slider_value, slider_years
from dashboard.web.budget import work
from dashboard.web.callbacks.common import dataset_story, read_state
from dashboard.web.callbacks.field import field_action
from dashboard.web.components import values_json, values_of


def _years_from_chart(data: object) -> tuple[int, int] | None:
    if not isinstance(data, dict):
        return None
    points = data.get("points")
    if not isinstance(points, list):
        return None
    years = []
    for p in points[:500]:
        if isinstance(p, dict) and _finite(p.get("x")):
            years.append(int(p["x"]))
    return (min(years), max(years)) if years else None


def _paper_id(value: object) -> str | None:
    if isinstance(value, dict):
        value = value.get("id")
    return value if isinstance(value, str) else None


def _add_seed(store: Store, state: ViewState, pid: str, notices: list[str]) -> ViewState:
    """``add_seed``, and a notice when the seeds are full (the paper is then only selected)."""
    if seeds_full(state, pid):
        title = store.titles([store.row(pid)])[0]
        notices.append(
            f"A view takes at most {MAX_SEEDS} seeds: “{title}” is selected, not added. "
            "Remove a seed to make room for it."
        )
    return add_seed(state, pid)


def apply_action(
    store: Store, state: ViewState, trig: object, value: object, search_text: object
) -> tuple[ViewState, list[str]]:
    """The state after one user action (``trig``: the triggering component id, ``value``: its value)."""
    notices: list[str] = []
    if trig == "graph-citations":
        pid = _paper_id(value)
        row = store.row(pid) if pid else None
        if row is None:
            return state, notices
        if state.mode == "similar" or state.path:  # no walk to expand: the paper is selected, its panel shows
            return replace(state, selected=pid), notices
        if pid in state.seeds:  # a seed stays expanded: say what the click did
            notices.append(
                f"“{store.titles([row])[0]}” is a seed: its references and citers in this dataset are already on the "
                "map; it is selected, its details are in the panel."
            )
            return replace(state, selected=pid), notices
        expanding = pid not in state.expand
        steps = expand_steps(store, build_subgraph(store, state), row, state) if expanding else 0
        if steps is None:
            title = store.titles([row])[0]
            notices.append(
                f"“{title}” has no references or citers to add: all of them are already shown, "
                "hidden by the filters, or not in this dataset."
            )
            return replace(state, selected=pid), notices
        return toggle_expand(state, pid, steps), notices
    if trig == "button-reset":
        return read_state(store, "")[0], notices
    if trig == "range-years":
        if isinstance(value, list) and len(value) == 2 and all(_finite(v) for v in value):
            return replace(state, years=slider_years(store, int(min(value)), int(max(value)))), notices
        return state, notices
    if trig == "dropdown-areas":
        areas = [a for a in value if isinstance(a, str)] if isinstance(value, list) else []
        return replace(state, areas=tuple(areas) if areas else None), notices
    if trig == "input-min-citations":
        n = int(value) if _finite(value) and value >= 0 else 0
        return replace(state, min_citations=n), notices
    if trig == "radio-color":
        return replace(state, color=value if isinstance(value, str) else state.color), notices
    if trig == "radio-layout":
        return replace(state, layout=value if isinstance(value, str) else state.layout), notices
    if trig == "radio-mode":
        mode = value if isinstance(value, str) else state.mode
        if "field" in (mode, state.mode):  # the field view marks the citation map: both keep it
            return switch_mode(state, mode), notices
        return replace(state, mode=mode, limit=default_limit(mode), path=None, expand=()), notices
    if trig == "button-show-more":
        return show_more(store, build_subgraph(store, state), state), notices
    if trig in ("store-field-click", "button-field-map"):
        return field_action(store, state, trig, value)
    if trig == "graph-by-year":
        years = _years_from_chart(value)  # a cleared selection (redrawn chart) keeps the filter
        return (replace(state, years=years) if years else state), notices
    if trig == "store-chart-clear":  # a double-click on the chart: its year selection cleared
        return replace(state, years=None), notices
    if trig == "store-escape":  # leaves a story being presented (at its step's view), else the selection
        if state.story:
            return replace(state, story=None, step=1), notices
        return replace(state, selected=None), notices
    if trig == "input-search":
        rows = store.search_suggesting(search_text, 1).rows if isinstance(search_text, str) else []
        if not rows:
            notices.append("No paper matches that search.")
            return state, notices
        return replace(state, selected=store.id(rows[0])), notices
    if isinstance(trig, dict) and trig.get("type") == "path-clear":
        return replace(state, path=None), notices
    if isinstance(trig, dict) and trig.get("type") == "cluster-toggle":
        return toggle_cluster(state, trig.get("index")), notices
    if isinstance(trig, dict):
        pid = trig.get("index")
        if not isinstance(pid, str) or store.row(pid) is None:
            return state, notices
        kind = trig.get("type")
        if kind in ("paper-link", "search-select", "discover-link"):
            return replace(state, selected=pid), notices
        if kind == "search-seed":
            return _add_seed(store, state, pid, notices), notices
        if kind == "seed-remove":
            if len(state.seeds) == 1:
                notices.append("A view needs at least one seed; add another before removing this one.")
            return remove_seed(state, pid), notices
        if kind == "seed-add":  # a full list keeps the path too: nothing changes but the selection
            return _add_seed(
                store, state if seeds_full(state, pid) else replace(state, path=None), pid, notices
            ), notices
        if kind == "path-to":
            start = state.selected or state.seeds[0]
            if start == pid:
                notices.append("A path joins two different papers: select another paper first.")
                return state, notices
            # the chains replace the seeds' map: what shaped it goes, as when the mode changes
            mode = "field" if state.mode == "field" else "citations"
            return replace(state, path=(start, pid), expand=(), mode=mode, limit=default_limit(mode)), notices
        if kind == "seed-toggle":
            if pid in state.seeds:
                if len(state.seeds) == 1:
                    notices.append("A view needs at least one seed; add another before removing this one.")
                return remove_seed(state, pid), notices
            return _add_seed(store, state, pid, notices), notices
    return state, notices


def story_data(store: Store, state: ViewState) -> dict:
    """The story a state presents, as the page presents it (assets/js/story.js: its steps, which one)."""
    story = dataset_story(store, state.story)
    return {"source": "dataset", "name": story.name, "step": state.step, **story.as_json()}


def notice_list(notices: list[str]) -> list:
    """Notices above the graph, each with a button that dismisses it (assets/js/controls.js)."""
    return [
        html.Div(
            className="notice",
            children=[
                html.Span(n),
                html.Button(
                    "×", className="notice-close", title="dismiss", n_clicks=0, **{"aria-label": "Dismiss this notice"}
                ),
            ],
        )
        for n in notices
    ]


def register(app: Dash, store: Store) -> None:
    @app.callback(
        Output("url", "search"),
        Output("store-view-state", "data"),
        Output("range-years", "value"),
        Output("dropdown-areas", "data-values"),  # a checkbox menu: dashboard/web/components.py
        Output("input-min-citations", "value"),
        Output("radio-color", "data-value"),  # radio groups: dashboard/web/components.py
        Output("radio-layout", "data-value"),
        Output("radio-mode", "data-value"),
        Output("input-search", "value"),
        Output("div-notices", "children"),
        Output("store-story", "data"),
        Input("url", "search"),
        Input("graph-citations", "tapNodeData"),
        Input("button-reset", "n_clicks"),
        Input("range-years", "value"),
        Input("dropdown-areas", "data-values"),
        Input("input-min-citations", "value"),
        Input("radio-color", "data-value"),
        Input("radio-layout", "data-value"),
        Input("radio-mode", "data-value"),
        Input("button-show-more", "n_clicks"),
        Input("graph-by-year", "selectedData"),
        Input("store-escape", "data"),
        Input("store-chart-clear", "data"),
        Input("input-search", "n_submit"),
        Input({"type": "paper-link", "index": ALL}, "n_clicks"),
        Input({"type": "search-select", "index": ALL}, "n_clicks"),
        Input({"type": "search-seed", "index": ALL}, "n_clicks"),
        Input({"type": "seed-remove", "index": ALL}, "n_clicks"),
        Input({"type": "seed-toggle", "index": ALL}, "n_clicks"),
        Input({"type": "seed-add", "index": ALL, "list": ALL}, "n_clicks"),
        Input({"type": "discover-link", "index": ALL, "list": ALL}, "n_clicks"),
        Input({"type": "path-to", "index": ALL}, "n_clicks"),
        Input({"type": "path-clear", "index": ALL}, "n_clicks"),
        Input({"type": "cluster-toggle", "index": ALL}, "n_clicks"),
        Input("store-field-click", "data"),  # the field view (dashboard/web/callbacks/field.py)
        Input("button-field-map", "n_clicks"),
        State("store-field-selection", "data"),
        State("store-view-state", "data"),
        State("input-search", "value"),
    )
    def update_state(search, *args):
        current, search_text = args[-2], args[-1]
        trig = ctx.triggered_id
        value = ctx.triggered[0]["value"] if ctx.triggered else None
        if trig == "button-field-map":
            value = args[-3]  # the field's selection: its most cited papers
        if trig == "dropdown-areas":
            value = values_of(value)  # the JSON list of the checkbox menu
        if any(t.get("prop_id") == "store-chart-clear.data" for t in ctx.triggered or []):
            trig = "store-chart-clear"  # the double-click also deselects the chart, in the same request
        if isinstance(trig, dict) and not value:
            raise PreventUpdate  # a list was re-rendered, nothing was clicked
        if trig is None or trig == "url" or not isinstance(current, str):
            state, notices = read_state(store, search)
        else:
            state, _ = read_state(store, current)
            state, notices = apply_action(store, state, trig, value, search_text)
            if state.story:  # any action but the story's own keys (which change the URL) leaves the story
                state = replace(state, story=None, step=1)
            state, more = read_state(store, encode_query(state))  # clamp whatever the action did
            notices += more
        # what the view itself has to say (a path not found), spent from the client's budget
        notices += work(store, state, "subgraph", lambda: build_subgraph(store, state)).notices
        query = encode_query(state)
        years = slider_value(store, state.years)
        clear_search = (
            ""
            if trig == "input-search" or (isinstance(trig, dict) and trig.get("type", "").startswith("search"))
            else no_update
        )
        was_story = isinstance(current, str) and "story=" in current
        story = story_data(store, state) if state.story else (None if was_story else no_update)
        return (
            query,
            query,
            years,
            values_json(list(state.areas or [])),
            state.min_citations,
            state.color,
            state.layout,
            state.mode,
            clear_search,
            notice_list(notices),
            story,
        )


def _finite(value: object) -> bool:
    """A number a control may send: not a bool, not NaN or infinite (int() of those raises)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
