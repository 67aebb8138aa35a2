"""Plotly figures as plain dicts (no figure validation on the hot path): the selected paper's
citations by year, and the overview of papers in view by year."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.view import colors
from dashboard.view.naming import area_label

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


def citations_by_year(store: Store, row: int, state: ViewState) -> tuple[dict, str]:
    """Bar chart of the paper's citations per year, and a caption saying where the figures come from.

    The source's per-year figures where the dataset has them; else the citers inside the dataset
    that pass the area and citation filters, counted by year (stacked by area when colour is by area).
    Years outside the year filter are drawn faint; selecting bars sets the year filter.
    """
    paper = store.paper(row)
    title = "Citations by year"
    source = paper.get("citations_by_year")
    traces: list[dict] = []
    if source:
        years = sorted(source)
        counts = [source[y] for y in years]
        traces.append(
            {
                "type": "bar",
                "x": years,
                "y": counts,
                "name": "citations",
                "marker": {"color": "#0072B2", "opacity": _opacity(years, state)},
                "hovertemplate": "%{x}: %{y} citing papers<extra></extra>",
            }
        )
        caption = "Citing papers per year as the source reports them."
    else:
        citers = np.asarray(store.citers(row), dtype=np.int64)
        mask = store.filter_mask(citers, areas=state.areas, min_citations=state.min_citations)
        citers = citers[mask]
        years_arr = store.year[citers]
        citers, years_arr = citers[years_arr >= 0], years_arr[years_arr >= 0]
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
        all_years = list(range(int(years_arr.min()), int(years_arr.max()) + 1))
        if state.color == "area":
            by_area: dict[str, Counter] = defaultdict(Counter)
            for c, y in zip(store.primary_area[citers].tolist(), years_arr.tolist(), strict=True):
                by_area[store.area_names[c] if c >= 0 else "unknown"][y] += 1
            for area in sorted(by_area, key=lambda a: -sum(by_area[a].values())):
                ys = [by_area[area].get(y, 0) for y in all_years]
                traces.append(
                    {
                        "type": "bar",
                        "x": all_years,
                        "y": ys,
                        "name": area_label(area),
                        "marker": {
                            "color": colors.area_color(store.area_names, area),
                            "opacity": _opacity(all_years, state),
                        },
                        "hovertemplate": f"%{{x}}: %{{y}} citing papers, {area_label(area)}<extra></extra>",
                    }
                )
        else:
            counts_by_year = Counter(years_arr.tolist())
            ys = [counts_by_year.get(y, 0) for y in all_years]
            traces.append(
                {
                    "type": "bar",
                    "x": all_years,
                    "y": ys,
                    "name": "citers",
                    "marker": {
                        "color": [colors.year_color(y, store.year_min, store.year_max) for y in all_years],
                        "opacity": _opacity(all_years, state),
                    },
                    "hovertemplate": "%{x}: %{y} citing papers<extra></extra>",
                }
            )
        caption = f"Counted from the {len(citers):,} citing papers in this dataset that pass the filters."
    layout = _layout(title, 190, dragmode="select", selectdirection="h", uirevision=paper["id"])
    return {"data": traces, "layout": layout}, caption


def overview(store: Store, rows: np.ndarray, state: ViewState) -> dict:
    """Papers in view by year, stacked by area (or coloured by year)."""
    rows = np.asarray(rows, dtype=np.int64)
    years = store.year[rows]
    keep = years >= 0
    rows, years = rows[keep], years[keep]
    if not len(rows):
        return {"data": [], "layout": _layout("Papers in view by year", 170)}
    all_years = list(range(int(years.min()), int(years.max()) + 1))
    traces = []
    if state.color == "area":
        by_area: dict[str, Counter] = defaultdict(Counter)
        for c, y in zip(store.primary_area[rows].tolist(), years.tolist(), strict=True):
            by_area[store.area_names[c] if c >= 0 else "unknown"][y] += 1
        for area in sorted(by_area, key=lambda a: -sum(by_area[a].values())):
            traces.append(
                {
                    "type": "bar",
                    "x": all_years,
                    "y": [by_area[area].get(y, 0) for y in all_years],
                    "name": area_label(area),
                    "marker": {"color": colors.area_color(store.area_names, area)},
                    "hovertemplate": f"%{{x}}: %{{y}} papers, {area_label(area)}<extra></extra>",
                }
            )
    else:
        counts = Counter(years.tolist())
        traces.append(
            {
                "type": "bar",
                "x": all_years,
                "y": [counts.get(y, 0) for y in all_years],
                "marker": {"color": [colors.year_color(y, store.year_min, store.year_max) for y in all_years]},
                "hovertemplate": "%{x}: %{y} papers<extra></extra>",
            }
        )
    layout = _layout("Papers in view by year", 170)
    layout["xaxis"].pop("dtick")
    layout["xaxis"].update(nticks=5, tickangle=0)
    return {"data": traces, "layout": layout}
