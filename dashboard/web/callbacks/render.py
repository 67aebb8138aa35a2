"""Callbacks that draw a state: the graph and its status line, the paper panel and its chart."""

from __future__ import annotations

import json

import numpy as np
from dash import Dash, Input, Output, html

from dashboard.dataset.store import Store
from dashboard.graph.discovery import view_clusters
from dashboard.graph.neighbourhood import Subgraph, filter_fn, show_more
from dashboard.graph.similarity import prior_derivative
from dashboard.graph.state import ViewState
from dashboard.view import figures
from dashboard.view.colors import NEW_MARK, NEW_MARK_COLOR
from dashboard.view.colour_key import Category, ColourKey, colour_key
from dashboard.view.describe import map_summary
from dashboard.view.field import field_status
from dashboard.view.figures import chart_only_categories
from dashboard.view.library import MAX_ENTRIES
from dashboard.view.naming import area_label, figure_sources, figure_sources_of, source_name
from dashboard.view.panel import LIST_FIRST, LIST_SHOWN, SORTS, ListEntry, PaperList, paper_panel
from dashboard.view.payload import MAX_DRAWN_EDGES, build_subgraph, short_label
from dashboard.web.budget import work
from dashboard.web.callbacks.common import read_state

DISCOVERY_SHOWN = 10  # prior and derivative works listed


def status_text(store: Store, sub: Subgraph) -> str:
    if sub.kind == "similar":
        parts = [f"{len(sub.rows) - len(sub.seeds):,} similar papers · {len(sub.edge_i):,} similarity links"]
    elif sub.kind == "path":
        steps = len(sub.chains[0]) - 1 if sub.chains else None
        parts = [
            f"{len(sub.chains)} shortest chain{'s' if len(sub.chains) != 1 else ''} of {steps} "
            f"step{'s' if steps != 1 else ''} · {len(sub.rows):,} papers"
            if steps
            else "no chain found"
        ]
    else:
        parts = [f"{len(sub.rows):,} papers · {len(sub.edge_i):,} citations"]
    if len(sub.edge_i) > MAX_DRAWN_EDGES:
        parts[0] += f" ({MAX_DRAWN_EDGES:,} drawn: those of the seeds and expanded papers first)"
    for t in sub.truncated[:3]:
        title = short_label(store.titles([t.paper])[0])
        parts.append(f"showing {t.shown:,} of {t.total:,} {t.direction} of “{title}”")
    if len(sub.truncated) > 3:
        parts.append(f"and {len(sub.truncated) - 3} more papers with links not all shown")
    if sub.hidden:
        parts.append(f"{sub.hidden:,} hidden by filters")
    if sub.capped:
        parts.append("node limit reached")
    return " · ".join(parts)


def more_papers(store: Store, sub: Subgraph, state: ViewState) -> int:
    """How many papers "Show more" adds to the view (:func:`~dashboard.graph.neighbourhood.show_more`: the next step
    of an expanded paper, else of the seeds' lists): 0 if nothing is cut."""
    bigger = show_more(store, sub, state)
    if bigger == state:
        return 0
    return max(0, len(build_subgraph(store, bigger).rows) - len(sub.rows))


def panel_paper(state: ViewState) -> str:
    """The paper the panel shows: the one selected, else a path's start, else the first seed (a paper of the map)."""
    return state.selected or (state.path[0] if state.path else state.seeds[0])


def _swatch(category: Category) -> html.Span:
    return html.Span(className="swatch", style={"backgroundColor": category.color})


def _entry(category: Category) -> html.Div:
    return html.Div(className="legend-item", children=[_swatch(category), html.Span(category.name)])


def _year_scale(key: ColourKey) -> list:
    """By year: the scale, one step of colour a year from the first to the last year in view, the two ends named."""
    years = key.categories[: key.unknown]
    if not years:
        return []
    return [
        html.Div(
            className="year-bar",
            children=[
                html.Span(className="year-step", title=c.name, style={"backgroundColor": c.color}) for c in years
            ],
        ),
        html.Div(className="year-ends", children=[html.Span(years[0].name), html.Span(years[-1].name)]),
    ]


def new_mark_entry() -> html.Div:
    """The colour key's entry for the dotted ring round the papers the last action added (layout.py, ``node.new``)."""
    return html.Div(
        className="legend-item legend-new",
        children=[html.Span(className="swatch swatch-new", style={"borderColor": NEW_MARK_COLOR}), html.Span(NEW_MARK)],
    )


def legend(store: Store, sub: Subgraph, state: ViewState, key: ColourKey | None = None) -> list:
    """The legend beside the map: every colour of the map and of the charts, named (the colour key's categories of
    the papers in view, then those only the paper's chart shows), and the ring of the papers the last action
    added."""
    key = key or colour_key(store, state, sub.rows)
    in_view = [key.categories[k] for k in key.in_view(sub.rows)]
    unknown = [_entry(c) for c in in_view if c == key.categories[key.unknown]]  # no named cluster, no year
    if key.by == "cluster":
        found = view_clusters(store, state)
        items = [html.Div("Colour: cluster (click to show only some)", className="legend-title")]
        for k, name in found.names.items():
            on = state.clusters is None or k in state.clusters
            items.append(
                html.Button(
                    className="legend-item cluster-item" + ("" if on else " off"),
                    id={"type": "cluster-toggle", "index": str(k)},
                    n_clicks=0,
                    title="show only the clusters picked",
                    children=[_swatch(key.categories[k]), html.Span(f"{name} ({found.sizes[k]:,})")],
                )
            )
        if not found.names:
            items.append(html.Div("No cluster of 3 or more papers in this map.", className="legend-item"))
        items += unknown
    elif key.by == "year":
        items = [html.Div("Colour: year (the papers in view)", className="legend-title"), *_year_scale(key), *unknown]
    else:
        items = [html.Div("Colour: primary area", className="legend-title"), *(_entry(c) for c in in_view)]
    items.append(new_mark_entry())
    extra = chart_only_categories(store, sub.rows, store.row(panel_paper(state)), state, key)
    if extra:
        items.append(html.Div("Only in the chart of citations by year", className="legend-subtitle"))
        items += [_entry(c) for c in extra]
    return items


def map_legend(key: ColourKey, rows: np.ndarray) -> list:
    """The compact legend over the map while presenting (the sidebar is hidden): the shapes, and the map's colours."""
    in_view = [key.categories[k] for k in key.in_view(rows)]
    shapes = html.Div(
        className="map-legend-items map-legend-shapes",
        children=[html.Span(s) for s in ("★ seed", "■ reference", "● citing paper")],
    )
    title = html.Div(f"Colour: {'primary area' if key.by == 'area' else key.by}", className="legend-title")
    if key.by == "year":
        return [shapes, title, *_year_scale(key), *(_entry(c) for c in in_view if c == key.categories[key.unknown])]
    return [shapes, title, html.Div(className="map-legend-items", children=[_entry(c) for c in in_view])]


def seeds_list(store: Store, state: ViewState) -> list:
    out = []
    if state.path:
        a, b = (store.titles([store.row(p)])[0] for p in state.path)
        out.append(
            html.Div(
                className="seed-item path-item",
                children=[
                    html.Span(f"Chains of citations between “{short_label(a)}” and “{short_label(b)}”"),
                    html.Button(
                        "×",
                        id={"type": "path-clear", "index": "path"},
                        className="remove",
                        title="back to the seeds' map",
                        n_clicks=0,
                        **{"aria-label": "Back to the seeds' map"},
                    ),
                ],
            )
        )
    for pid in state.seeds:
        row = store.row(pid)
        title = store.titles([row])[0] if row is not None else pid
        out.append(
            html.Div(
                className="seed-item",
                children=[
                    html.Button(
                        title, id={"type": "paper-link", "index": pid}, className="link", title=f"select {pid}"
                    ),
                    html.Button(
                        "×",
                        id={"type": "seed-remove", "index": pid},
                        className="remove",
                        title="remove this seed",
                        n_clicks=0,
                        **{"aria-label": f"Remove the seed {title}"},
                    ),
                ],
            )
        )
    return out


def library_ids(data: object) -> frozenset[str]:
    """The paper ids of the visitor's library as the page holds it (``store-library``); anything else: none."""
    ids = data.get("ids") if isinstance(data, dict) else None
    if not isinstance(ids, list):
        return frozenset()
    return frozenset(i for i in ids[:MAX_ENTRIES] if isinstance(i, str))


def _list_block(title: str, plist: PaperList, direction: str, mine: frozenset[str] = frozenset()) -> html.Div:
    head = f"{title} · {plist.matching:,}"
    if plist.matching != plist.total:
        head += f" of {plist.total:,} (filtered)"
    items = [
        html.Li(
            className="entry" + (" in-view" if e.in_view else "") + (" lib" if e.id in mine else ""),
            children=[
                html.Button(
                    e.title,
                    id={"type": "paper-link", "index": e.id},
                    className="link",
                    n_clicks=0,
                    title=f"select {e.id}",
                    **{"aria-label": f"{e.title}, {entry_meta(e)}"},
                ),
                html.Span("in your library", className="lib-badge") if e.id in mine else None,
                html.Span(entry_meta(e), className="meta"),
            ],
        )
        for e in plist.entries
    ]
    if plist.more and len(plist.entries) < LIST_SHOWN:  # the first entries: the rest one click away
        rest = min(plist.more, LIST_SHOWN - len(plist.entries))
        items.append(
            html.Li(
                className="more",
                children=html.Button(
                    f"Show {rest:,} more" + (f" (of {plist.more:,})" if rest < plist.more else ""),
                    id={"type": "list-more", "index": direction},
                    className="button small",
                    n_clicks=0,
                    title=f"list up to {LIST_SHOWN} of them, in every list of the panel",
                ),
            )
        )
    elif plist.more:
        items.append(html.Li(f"… and {plist.more:,} more", className="more"))
    if not plist.entries:
        items.append(
            html.Li("None in this dataset" + (" that pass the filters" if plist.total else "") + ".", className="more")
        )
    return html.Div(className=f"list list-{direction}", children=[html.H2(head), html.Ol(items)])


def entry_meta(e: ListEntry) -> str:
    """``2017 · 512 citing in dataset · 120,345 according to mlsanity.com``: the two counts, each named (the second
    by where it was counted)."""
    text = f"{e.year or '?'} · {e.in_cited:,} citing in dataset"
    return text + (f" · {e.cited_by:,} according to {source_name(e.cited_by_from)}" if e.cited_by is not None else "")


def paper_facts(p: dict) -> list:
    """The panel's facts of one paper (``Store.paper``): who, where, when, and both citation counts, labelled."""
    facts = []
    if p["authors"]:
        shown = p["authors"] if len(p["authors"]) <= 12 else [*p["authors"][:10], f"… {len(p['authors']) - 10} more"]
        facts.append(html.Li("Authors: " + ", ".join(shown), className="fact-authors"))
    if p["venue"]:
        facts.append(html.Li(f"Venue: {p['venue']}", className="fact-venue"))
    if p["doi"]:
        facts.append(
            html.Li(
                [
                    "DOI: ",
                    html.A(
                        p["doi"],
                        href=f"https://doi.org/{p['doi']}",
                        target="_blank",
                        rel="noopener",
                        className="external",
                    ),
                ],
                className="fact-doi",
            )
        )
    facts += [
        html.Li(f"First posted {p['posted']}" if p["posted"] else f"Year {p['year'] or 'unknown'}"),
        html.Li("Areas: " + ", ".join(area_label(a) for a in p["areas"])),
        html.Li(f"Cited by {p['in_cited']:,} papers in this dataset", className="fact-in-dataset"),
    ]
    if p["cited_by"] is not None:
        source = source_name(p["cited_by_from"])
        facts.append(
            html.Li(
                f"Cited by {p['cited_by']:,} papers according to {source} (its own figure)",
                className="fact-source-figure",
            )
        )
    of = f"of its {p['reference_count']:,} " if p["reference_count"] is not None else ""
    facts.append(html.Li(f"Builds on {p['in_refs']:,} {of}references in this dataset"))
    if p["sources"]:
        facts.append(html.Li("Sources: " + ", ".join(map(source_name, p["sources"])), className="fact-sources"))
    return facts


def connect_buttons(store: Store, state: ViewState, pid: str) -> list:
    """ "Chain of citations to …": the shortest chains of citations from this paper to each seed (``path=``)."""
    others = [s for s in state.seeds if s != pid][:5]
    if not others or state.path:
        return []
    # a row of its own under the buttons: beside them at 1280 px the titles were cut to three letters ("O(…")
    return [
        html.Div(
            className="connect-row",
            children=[
                html.Span("Chain of citations to", className="control-label"),
                *(
                    html.Button(
                        short_label(store.titles([store.row(s)])[0]),
                        id={"type": "path-to", "index": s},
                        className="button small connect",
                        n_clicks=0,
                        title=f"shortest chains of citations to {s}",
                    )
                    for s in others
                ),
            ],
        )
    ]


def discovery_blocks(store: Store, sub: Subgraph, state: ViewState, mine: frozenset[str]) -> list:
    """Prior works (outside the map, cited by most of its papers) and derivative works (outside it, citing most of
    them), each with its count and a button that adds it as a seed (as Connected Papers and Local Citation
    Network list them)."""
    prior, derivative = prior_derivative(store, sub.rows, k=DISCOVERY_SHOWN, mask=filter_fn(store, state))
    blocks = []
    for title, ranked, verb, kind in (
        ("Prior works", prior, "cited by", "prior"),
        ("Derivative works", derivative, "cites", "derivative"),
    ):
        rows = [r.row for r in ranked]
        ids, titles = store.ids(rows), store.titles(rows)
        items = [
            html.Li(
                className="entry" + (" lib" if ids[k] in mine else ""),
                children=[
                    # ids of their own: a paper may be in the paper's lists too, or be both prior and derivative
                    html.Button(
                        titles[k],
                        id={"type": "discover-link", "index": ids[k], "list": kind},
                        className="link",
                        n_clicks=0,
                        title=f"select {ids[k]}",
                        **{"aria-label": f"{titles[k]}, {verb} {r.count:,} of the {r.of:,} in view"},
                    ),
                    html.Span(f"{verb} {r.count:,} of the {r.of:,} in view", className="meta count"),
                    html.Button(
                        "+ seed",
                        id={"type": "seed-add", "index": ids[k], "list": kind},
                        className="button tiny",
                        n_clicks=0,
                        title="add it as a seed",
                        **{"aria-label": f"Add {titles[k]} as a seed"},
                    ),
                ],
            )
            for k, r in enumerate(ranked)
        ]
        if not items:
            items.append(
                html.Li(
                    "None outside the map" + (" that pass the filters." if state.filtered else "."), className="more"
                )
            )
        hint = (
            "outside the map, most cited by its papers"
            if kind == "prior"
            else "outside the map, citing the most of its papers"
        )
        blocks.append(html.Div(className=f"list list-{kind}", children=[html.H2(f"{title} · {hint}"), html.Ol(items)]))
    return blocks


def register_ping(app: Dash) -> None:
    """The no-op ``store-ping -> store-pong`` round trip that the benchmarks time as their baseline: only in an app
    created for a benchmark (``create_app(..., bench_ping=True)``)."""

    @app.callback(Output("store-pong", "data"), Input("store-ping", "data"), prevent_initial_call=True)
    def pong(data):
        return data if isinstance(data, int) and abs(data) < 2**53 else None


def register_figure_sources(app: Dash, store: Store) -> None:
    """Whose figure each paper's own citation count is, for the hover card: the page carries the name of a dataset's
    one source of figures (``div-figure-sources``, layout.py); with several, each view sends its papers' sources."""
    if len(figure_sources(store)) < 2:
        return

    @app.callback(
        Output("div-figure-sources", "children"), Input("store-view-state", "data"), prevent_initial_call=True
    )
    def view_figure_sources(query):
        state, _ = read_state(store, query)
        rows = work(store, state, "subgraph", lambda: build_subgraph(store, state)).rows
        return json.dumps(figure_sources_of(store, rows), separators=(",", ":"))


def register(app: Dash, store: Store) -> None:
    register_figure_sources(app, store)

    @app.callback(
        Output("span-status", "children"),
        Output("button-show-more", "style"),
        Output("button-show-more", "children"),
        Output("div-legend", "children"),
        Output("div-map-legend", "children"),
        Output("graph-overview", "figure"),
        Output("div-seeds", "children"),
        Output("div-rendered-side", "children"),
        Output("span-keys", "children"),
        Output("div-map-summary", "children"),
        Input("store-view-state", "data"),
        prevent_initial_call=True,
    )
    def render_side(query):  # what goes around the graph: needs the papers in view, not their positions
        state, _ = read_state(store, query)
        return work(store, state, "side", lambda: side(state, query))

    def side(state: ViewState, query: str) -> tuple:
        sub = build_subgraph(store, state)
        key = colour_key(store, state, sub.rows)
        added = more_papers(store, sub, state)
        more_style = {"display": "inline-block"} if added and state.mode != "field" else {"display": "none"}
        more_label = f"Show {added:,} more"
        click = {"citations": "click: expand / collapse", "similar": "click: select · hover a line: why"}.get(
            sub.kind, "click: select"
        )
        keys = f"{click} · Esc: clear · arrows: move · wheel, + −: zoom"
        if state.mode == "field":  # the field is shown: the line describes it, and its own keys
            keys = "click: select · drag: pan · wheel: zoom"
        return (
            field_status(store, state) if state.mode == "field" else status_text(store, sub),
            more_style,
            more_label,
            legend(store, sub, state, key),
            map_legend(key, sub.rows),
            figures.overview(store, sub.rows, key),
            seeds_list(store, state),
            query,
            keys,
            map_summary(store, sub, state),
        )

    @app.callback(
        Output("div-paper", "children"),
        Output("div-lists", "children"),
        Output("graph-by-year", "figure"),
        Output("div-chart-caption", "children"),
        Output("div-rendered-panel", "children"),
        Input("store-view-state", "data"),
        Input("radio-list-sort", "data-value"),
        Input("store-library", "data"),
        Input("store-lists-full", "data"),
        prevent_initial_call=True,
    )
    def render_panel(query, sort, library, full):
        state, _ = read_state(store, query)
        return work(store, state, "subgraph", lambda: panel_of(state, query, sort, library, full))

    def panel_of(state: ViewState, query: str, sort: object, library: object, full: object) -> tuple:
        mine = library_ids(library)
        row = store.row(panel_paper(state))
        sub = build_subgraph(store, state)
        limit = LIST_SHOWN if full is True else LIST_FIRST
        panel = paper_panel(store, row, sub, state, sort if sort in SORTS else "citations", limit)
        p = panel.paper
        facts = paper_facts(p)
        head = html.Div(
            className="paper-head",
            children=[
                html.Div(
                    className="badges",
                    children=[  # what the paper shown is in this view (dashboard/view/panel.py paper_badges)
                        *(html.Span(b.text, className=f"badge badge-{b.kind}") for b in panel.badges),
                        html.Span(p["id"], className="paper-id"),
                        html.Span("in your library", className="badge badge-lib") if p["id"] in mine else None,
                    ],
                ),
                html.H1(p["title"], className="paper-title", id="paper-title"),
                html.Ul(facts, className="facts"),
                html.Div(
                    className="paper-actions",
                    children=[
                        html.Button(
                            "Remove seed" if panel.is_seed else "Add as seed",
                            id={"type": "seed-toggle", "index": p["id"]},
                            className="button small",
                            n_clicks=0,
                        ),
                        *connect_buttons(store, state, p["id"]),
                        html.A(
                            "arXiv ↗",
                            href=f"https://arxiv.org/abs/{p['id']}",
                            target="_blank",
                            rel="noopener",
                            className="external",
                        )
                        if p["id"][:1].isdigit()
                        else None,
                    ],
                ),
            ],
        )
        lists = [
            _list_block("Builds on", panel.references, "references", mine),
            _list_block("Built on by", panel.citers, "citers", mine),
            *discovery_blocks(store, sub, state, mine),
        ]
        figure, caption = figures.citations_by_year(store, row, state, colour_key(store, state, sub.rows))
        return head, lists, figure, caption, query
