"""Plotly figures as plain dicts (no figure validation on the hot path): the selected paper's
citations by year (its citers in the dataset, narrowed by the filters, and its source's own figures as a second,
named series), and the overview of papers in view by year, both coloured as the map is (the view's
:class:`~dashboard.view.colour_key.ColourKey`)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.view.colour_key import Category, ColourKey, source_counts
from dashboard.view.naming import source_name

OVERVIEW_HEIGHT = 140  # the sidebar's chart of papers in view by year, in CSS pixels
FONT = {"family": "Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "size": 12, "color": "#1d2430"}


def _layout(title: str, height: int, **extra: object) -> dict:
    return {
        "title": {"text": title, "font": {"size": 13}, "x": 0.0, "xanchor": "left", "y": 0.97},
        "height": height,
        "margin": {"l": 36, "r": 8, "t": 30, "b": 28},
        "font": FONT,
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "barmode": "stack",
        "bargap": 0.15,
        "showlegend": False,
        "xaxis": {"dtick": 1, "tickformat": "d", "fixedrange": True, "gridcolor": "#eef0f3"},
        "yaxis": {"fixedrange": True, "gridcolor": "#eef0f3", "rangemode": "tozero"},
        "hovermode": "closest",
        **extra,
    }


def counted_citers(store: Store, row: int, state: ViewState) -> np.ndarray:
    """The citers a paper's chart counts: those inside the dataset that pass the view's filters (as its list of
    citers does), with a known year."""
    citers = np.asarray(store.citers(row), dtype=np.int64)
    citers = citers[store.filter_mask(citers, years=state.years, areas=state.areas, min_citations=state.min_citations)]
    return citers[store.year[citers] >= 0]


def source_series(store: Store, row: int) -> tuple[dict[int, int], str]:
    """The paper's citing papers per year as its source reports them (empty when it gives none), and the source's
    name as the page writes it (the source of its own citation figure, which gives both)."""
    paper = store.paper(row)
    return dict(paper.get("citations_by_year") or {}), source_name(paper.get("cited_by_from"))


def citation_chart_categories(store: Store, row: int, state: ViewState, key: ColourKey) -> list[Category]:
    """The colours the paper's citations-by-year chart (:func:`citations_by_year`) shows, as categories of the key,
    then the colour of the source's series, for the legend."""
    out = [key.categories[k] for k in key.used(counted_citers(store, row, state))]
    series, name = source_series(store, row)
    return [*out, source_counts(name)] if series else out


def chart_only_categories(store: Store, rows: np.ndarray, row: int, state: ViewState, key: ColourKey) -> list[Category]:
    """The colours the charts show beyond those of the map of ``rows`` (:meth:`ColourKey.in_view`), for the legend:
    the paper ``row``'s chart counts citers outside the map too (or shows the source's counts). The overview chart
    shows the map's papers only."""
    in_map = {key.categories[k] for k in key.in_view(rows)}
    return list(dict.fromkeys(c for c in citation_chart_categories(store, row, state, key) if c not in in_map))


def _bars(key: ColourKey, rows: np.ndarray, years: np.ndarray, what: str, **marker: object) -> list[dict]:
    """Bars of ``rows`` by year (``years``, all known), coloured by the key: stacked by its categories, or by year
    one colour a bar. ``what``: what the bars count, for the hover text."""
    all_years = list(range(int(years.min()), int(years.max()) + 1))
    if key.by == "year":
        counts = Counter(years.tolist())
        return [
            {
                "type": "bar",
                "x": all_years,
                "y": [counts.get(y, 0) for y in all_years],
                "name": what,
                "marker": {"color": [key.year_color(y) for y in all_years], **marker},
                "hovertemplate": f"%{{x}}: %{{y}} {what}<extra></extra>",
            }
        ]
    codes, traces = key.of(rows), []
    for k in key.used(rows):
        counts = Counter(years[codes == k].tolist())
        category = key.categories[k]
        traces.append(
            {
                "type": "bar",
                "x": all_years,
                "y": [counts.get(y, 0) for y in all_years],
                "name": category.name,
                "marker": {"color": category.color, **marker},
                "hovertemplate": f"%{{x}}: %{{y}} {what}, {category.name}<extra></extra>",
            }
        )
    return traces


def citations_by_year(store: Store, row: int, state: ViewState, key: ColourKey) -> tuple[dict, str]:
    """Bar chart of the paper's citing papers in this dataset per year, and a caption saying whose numbers it shows.

    The bars count the citers inside the dataset that pass the view's filters (:func:`counted_citers`), coloured by
    ``key``, the map's colour key (stacked by its categories; by year, one colour a bar). Where the source gives
    figures by year, they are a second series, a line in a colour of their own named after the source: they count
    citing papers the dataset may not hold, so no filter applies to them. Selecting bars sets the year filter.
    """
    paper = store.paper(row)
    citers = counted_citers(store, row, state)
    series, name = source_series(store, row)
    traces: list[dict] = []
    if len(citers):
        years_arr = store.year[citers].astype(np.int64)
        traces = _bars(key, citers, years_arr, "citing papers in this dataset")
        for t in traces:
            t["showlegend"] = False
        caption = f"Bars: the {len(citers):,} citing papers in this dataset that pass the filters, by year."
    else:
        caption = "No citing paper in this dataset with a known year passes the filters."
    if series:
        years = sorted(series)
        source = source_counts(name)
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "x": years,
                "y": [series[y] for y in years],
                "name": f"according to {name}",
                "line": {"color": source.color, "width": 2},
                "marker": {"color": source.color, "size": 6},
                "hovertemplate": f"%{{x}}: %{{y}} citing papers according to {name}<extra></extra>",
                "showlegend": True,
            }
        )
        caption += (
            f" Line: citing papers per year as {name} reports them ({sum(series.values()):,} in all; the filters do"
            " not apply to them)."
        )
    if not traces:
        return {
            "data": [],
            "layout": _layout(
                "Citations by year",
                190,
                annotations=[
                    {
                        "text": "No dated citers in this dataset",
                        "showarrow": False,
                        "xref": "paper",
                        "yref": "paper",
                        "x": 0.5,
                        "y": 0.5,
                        "font": {"color": "#6b7280"},
                    }
                ],
            ),
        }, caption
    layout = _layout(
        "Citations by year",
        190,
        dragmode="select",
        selectdirection="h",
        uirevision=paper["id"],
        showlegend=bool(series),
        legend={"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.12, "yanchor": "bottom", "font": {"size": 11}},
    )
    return {"data": traces, "layout": layout}, caption


def overview(store: Store, rows: np.ndarray, key: ColourKey) -> dict:
    """Papers in view by year, coloured by ``key``, the map's colour key (stacked by its categories)."""
    rows = np.asarray(rows, dtype=np.int64)
    years = store.year[rows].astype(np.int64)
    keep = years >= 0
    rows, years = rows[keep], years[keep]
    if not len(rows):
        return {"data": [], "layout": _layout("Papers in view by year", OVERVIEW_HEIGHT)}
    traces = _bars(key, rows, years, "papers")
    layout = _layout("Papers in view by year", OVERVIEW_HEIGHT)
    layout["xaxis"].pop("dtick")
    layout["xaxis"].update(nticks=5, tickangle=0)
    return {"data": traces, "layout": layout}
