"""One colour key: the charts colour papers as the map does (the payload's palette), stacked by the key's categories,
and every colour a chart shows is in the legend beside the map (dashboard/view/colour_key.py, figures.py, the legend
of dashboard/web/callbacks/render.py)."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.view import colors, figures
from dashboard.view.colour_key import NO_CLUSTER, OTHER_AREAS, ColourKey, colour_key
from dashboard.view.naming import NO_AREA
from dashboard.view.payload import build_subgraph, compute_view, payload_nodes
from dashboard.web.callbacks.render import legend, map_legend

SEEDS = ("2106.03764", "2006.04862", "2110.10090")
ATTENTION = "1706.03762"  # its citers in the dataset reach well beyond the seeds' map
COLOURINGS = ("area", "year", "cluster")


def trace_colours(figure: dict) -> set[str]:
    """Every colour the bars of a Plotly figure (as figures.py builds it) are drawn in."""
    out: set[str] = set()
    for trace in figure["data"]:
        c = trace["marker"]["color"]
        out |= set(c) if isinstance(c, list) else {c}
    return {c.upper() for c in out}


def swatch_colours(component: object) -> set[str]:
    """Every colour a legend's components show (their background colours), found at any depth."""
    out: set[str] = set()
    if isinstance(component, list | tuple):
        for c in component:
            out |= swatch_colours(c)
        return out
    style = getattr(component, "style", None) or {}
    if "backgroundColor" in style:
        out.add(style["backgroundColor"].upper())
    return out | swatch_colours(getattr(component, "children", None) or [])


def texts(component: object) -> str:
    """The text of components, found at any depth, one piece a line."""
    if isinstance(component, str):
        return component
    if isinstance(component, list | tuple):
        return "\n".join(texts(c) for c in component)
    return texts(getattr(component, "children", None) or [])


def charts(store: Store, state: ViewState) -> tuple[dict, dict, ColourKey]:
    """The overview chart, the paper's citations chart and the colour key of a state, as the page builds them."""
    sub = build_subgraph(store, state)
    key = colour_key(store, state, sub.rows)
    row = store.row(state.selected or state.seeds[0])
    return figures.overview(store, sub.rows, key), figures.citations_by_year(store, row, state, key)[0], key


@pytest.mark.parametrize("color", COLOURINGS)
@pytest.mark.parametrize("selected", [None, ATTENTION, "2110.10090"])
def test_every_colour_of_the_charts_is_in_the_legend(default_store: Store, color: str, selected: str | None) -> None:
    """For each colouring, and a panel paper whose citers lie mostly outside the map (Attention) or whose chart is
    the source's counts (2110.10090): the bars' colours are among the legend's swatches."""
    state = ViewState(SEEDS, selected=selected, color=color)
    overview, cited, _ = charts(default_store, state)
    assert overview["data"] and cited["data"]
    shown = swatch_colours(legend(default_store, build_subgraph(default_store, state), state))
    assert trace_colours(overview) <= shown
    assert trace_colours(cited) <= shown, trace_colours(cited) - shown


@pytest.mark.parametrize("color", COLOURINGS)
def test_the_key_gives_each_paper_the_colour_the_map_draws(default_store: Store, color: str) -> None:
    """The map's colour of a paper, as assets/js/logic/colour-key.js takes it from the payload's palette, is the colour
    of the paper's category in the key."""
    view = compute_view(default_store, ViewState(SEEDS, selected=ATTENTION, color=color))
    p = json.loads(view.payload_json)
    pal, nodes = p["palette"], payload_nodes(p)
    if color == "year":
        drawn = [pal["unknown"] if n["year"] is None else pal["year"][n["year"] - pal["year0"]] for n in nodes]
    elif color == "cluster":
        drawn = [pal["cluster"][k] if k >= 0 else pal["unknown"] for k in p["cluster"]]
    else:
        drawn = [pal["area"].get(n["areas"][0], pal["unknown"]) for n in nodes]
    key = colour_key(default_store, view.state, view.sub.rows)
    assert [key.categories[k].color for k in key.of(view.sub.rows).tolist()] == drawn
    assert len(set(drawn)) >= 4


def test_charts_stack_by_the_keys_categories_in_the_legends_order(default_store: Store) -> None:
    """By area: one trace a category, in the legend's order, each in its category's colour, rare areas lumped as
    "other areas" (as the map colours them), and the stack counts every dated citer once."""
    state = ViewState(SEEDS, selected=ATTENTION)
    _, cited, key = charts(default_store, state)
    names = [t["name"] for t in cited["data"]]
    order = [c.name for c in key.categories]
    assert names == sorted(names, key=order.index) and len(set(names)) == len(names)
    assert OTHER_AREAS in names and NO_AREA in order
    for t in cited["data"]:
        assert t["marker"]["color"] == key.categories[order.index(t["name"])].color
    citers = figures.counted_citers(default_store, default_store.row(ATTENTION), state)
    assert sum(sum(t["y"]) for t in cited["data"]) == len(citers)
    rare = {a for a in default_store.area_names if colors.area_color(default_store.area_names, a) == colors.OTHER_COLOR}
    assert rare and not rare & set(names)  # no area of those the map draws dark grey has its own bars


def test_colour_by_year_spans_the_years_in_view_in_the_charts_too(store: Store) -> None:
    """Viridis over the years of the papers in view, as on the map, not over the dataset's years."""
    state = ViewState(("2110.10090",), color="year", years=(2022, 2024))
    overview, _, key = charts(store, state)
    bars = overview["data"][0]
    first, last = (bars["marker"]["color"][i] for i in (0, -1))
    assert (first, last) == (colors.YEAR_SCALE[0], colors.YEAR_SCALE[-1])
    assert key.first_year == bars["x"][0] != store.year_min


def test_a_source_s_counts_have_a_colour_of_their_own_named_in_the_legend(default_store: Store) -> None:
    """The source's counts by year say nothing of area, cluster or year filters: a line in one colour, apart from the
    key's, named after the source in the chart and in the legend; the bars stay the dataset's citers."""
    state = ViewState(SEEDS, selected="2110.10090")
    _, cited, key = charts(default_store, state)
    line = [t for t in cited["data"] if t["type"] == "scatter"]
    assert (
        len(line) == 1
        and line[0]["line"]["color"] == colors.SOURCE_COLOR
        and line[0]["name"] == "according to mlsanity.com"
    )
    assert colors.SOURCE_COLOR not in {c.color for c in key.categories}
    text = texts(legend(default_store, build_subgraph(default_store, state), state))
    assert "citing papers according to mlsanity.com" in text
    _, by_year, key = charts(default_store, ViewState(SEEDS, selected="2110.10090", color="year"))
    bars = by_year["data"][0]
    assert bars["type"] == "bar" and bars["marker"]["color"] == [key.year_color(y) for y in bars["x"]]


@pytest.mark.parametrize(
    "filters", [{}, {"years": (2023, 2023)}, {"areas": ("cs.LG",)}, {"min_citations": 2, "years": (2021, 2022)}]
)
def test_the_citations_chart_counts_the_dataset_s_citers_narrowed_by_the_filters(
    default_store: Store, filters: dict
) -> None:
    """The bars count the paper's citing papers in this dataset that pass the filters, as its list of citers does;
    the source's yearly figures are a second series, the same whatever the filters."""
    s = default_store
    row = s.row("2110.10090")
    state = ViewState(SEEDS, selected="2110.10090", **filters)
    _, cited, _ = charts(s, state)
    bars = [t for t in cited["data"] if t["type"] == "bar"]
    want: Counter[int] = Counter()
    for r in s.citers(row).tolist():
        year = int(s.year[r])
        if year < 0 or (state.years and not state.years[0] <= year <= state.years[1]):
            continue
        if state.areas and not set(state.areas) & set(s.areas_of([r])[0]):
            continue
        if int(s.in_cited[r]) < state.min_citations:
            continue
        want[year] += 1
    got: Counter[int] = Counter()
    for t in bars:
        for x, y in zip(t["x"], t["y"], strict=True):
            got[x] += y
    assert +got == want and (sum(want.values()) > 0 or not filters)
    source = dict(s.paper(row)["citations_by_year"])
    line = next(t for t in cited["data"] if t["type"] == "scatter")
    assert dict(zip(line["x"], line["y"], strict=True)) == source


def test_the_legend_names_the_papers_of_no_named_cluster(default_store: Store) -> None:
    """With colour by cluster, the map draws a paper of no named cluster light grey: the legend names that colour,
    and the citations chart counts the citers outside the map there."""
    state = ViewState(SEEDS, selected=ATTENTION, color="cluster")
    sub = build_subgraph(default_store, state)
    key = colour_key(default_store, state, sub.rows)
    _, cited, _ = charts(default_store, state)
    assert cited["data"][-1]["name"] == NO_CLUSTER and cited["data"][-1]["marker"]["color"] == colors.UNKNOWN_COLOR
    text = texts(legend(default_store, sub, state))
    assert NO_CLUSTER in text
    assert key.categories[key.unknown].name == NO_CLUSTER


@pytest.mark.parametrize("color", COLOURINGS)
def test_the_compact_legend_shows_the_maps_colours_only(default_store: Store, color: str) -> None:
    """Presenting, the legend over the map lists every colour of the map and nothing the charts add."""
    state = ViewState(SEEDS, selected=ATTENTION, color=color)
    sub = build_subgraph(default_store, state)
    key = colour_key(default_store, state, sub.rows)
    drawn = {key.categories[k].color.upper() for k in key.of(sub.rows).tolist()}
    compact = map_legend(key, sub.rows)
    shown = swatch_colours(compact)
    assert texts(compact[0]).split("\n") == ["★ seed", "■ reference", "● citing paper"]  # the shapes first
    assert drawn <= shown
    assert shown <= {c.color.upper() for c in key.categories}
    if color == "area":
        assert shown == drawn  # no more than the map's own areas
        counts = Counter(key.of(sub.rows).tolist())
        assert len(counts) == len(shown)


def test_a_year_outside_the_map_takes_the_nearest_end(store: Store) -> None:
    sub = build_subgraph(store, ViewState(("2110.10090",), color="year", years=(2022, 2024)))
    key = colour_key(store, ViewState(("2110.10090",), color="year", years=(2022, 2024)), sub.rows)
    lo, hi = key.first_year, key.first_year + key.unknown - 1
    assert key.year_color(lo - 5) == key.year_color(lo) == colors.YEAR_SCALE[0]
    assert key.year_color(hi + 3) == key.year_color(hi) == colors.YEAR_SCALE[-1]
    assert key.of(np.asarray([], dtype=np.int64)).tolist() == []
