"""Plotly figures as plain dicts (no figure validation on the hot path): the selected paper's
citations by year, and the overview of papers in view by year, both coloured as the map is (the view's
:class:`~dashboard.view.colour_key.ColourKey`)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.view.colour_key import Category, ColourKey, source_counts

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


def _opacity(years: list[int], state: ViewState) -> list[float]:
    if not state.years:
        return [1.0] * len(years)
    lo, hi = state.years
    return [1.0 if lo <= y <= hi else 0.25 for y in years]


def counted_citers(store: Store, row: int, state: ViewState) -> np.ndarray:
    """The citers a paper's chart counts when the source gives no figures by year: those inside the dataset that
    pass the area and citation filters, with a known year."""
    citers = np.asarray(store.citers(row), dtype=np.int64)
    citers = citers[store.filter_mask(citers, areas=state.areas, min_citations=state.min_citations)]
    return citers[store.year[citers] >= 0]


def citation_chart_categories(store: Store, row: int, state: ViewState, key: ColourKey) -> list[Category]:
    """The colours the paper's citations-by-year chart (:func:`citations_by_year`) shows, as categories of the key
    (or the colour of the source's counts), for the legend."""
    source = store.paper(row).get("citations_by_year")
    if source and key.by != "year":
        return [source_counts(key.by)]
    if source:
        return [key.categories[key.year_code(y)] for y in sorted(source)]
    citers = counted_citers(store, row, state)
    return [key.categories[k] for k in key.used(citers)]


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
    """Bar chart of the paper's citations per year, and a caption saying where the figures come from.

    The source's per-year figures where the dataset has them (coloured by year with colour by year; else in the one
    colour of a source's counts: they say nothing of area or cluster); else the citers inside the dataset that pass
    the area and citation filters, counted by year and coloured by ``key``, the map's colour key (stacked by its
    categories). Years outside the year filter are drawn faint; selecting bars sets the year filter.
    """
    paper = store.paper(row)
    title = "Citations by year"
    source = paper.get("citations_by_year")
    traces: list[dict] = []
    if source:
        years = sorted(source)
        counts = [source[y] for y in years]
        color = [key.year_color(y) for y in years] if key.by == "year" else source_counts(key.by).color
        traces.append(
            {
                "type": "bar",
                "x": years,
                "y": counts,
                "name": "citations",
                "marker": {"color": color, "opacity": _opacity(years, state)},
                "hovertemplate": "%{x}: %{y} citing papers<extra></extra>",
            }
        )
        caption = "Citing papers per year as the source reports them."
    else:
        citers = counted_citers(store, row, state)
        if not len(citers):
            return {
                "data": [],
                "layout": _layout(
                    title,
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
            }, "No citing paper with a known year in this dataset."
        years_arr = store.year[citers].astype(np.int64)
        all_years = list(range(int(years_arr.min()), int(years_arr.max()) + 1))
        traces = _bars(key, citers, years_arr, "citing papers", opacity=_opacity(all_years, state))
        caption = f"Counted from the {len(citers):,} citing papers in this dataset that pass the filters."
    layout = _layout(title, 190, dragmode="select", selectdirection="h", uirevision=paper["id"])
    return {"data": traces, "layout": layout}, caption


def overview(store: Store, rows: np.ndarray, key: ColourKey) -> dict:
    """Papers in view by year, coloured by ``key``, the map's colour key (stacked by its categories)."""
    rows = np.asarray(rows, dtype=np.int64)
    years = store.year[rows].astype(np.int64)
    keep = years >= 0
    rows, years = rows[keep], years[keep]
    if not len(rows):
        return {"data": [], "layout": _layout("Papers in view by year", 170)}
    traces = _bars(key, rows, years, "papers")
    layout = _layout("Papers in view by year", 170)
    layout["xaxis"].pop("dtick")
    layout["xaxis"].update(nticks=5, tickangle=0)
    return {"data": traces, "layout": layout}
