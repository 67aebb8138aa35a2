"""Papers without an area are named "no area given" wherever the page shows areas, while the URL and the exports
keep the stored name."""

from __future__ import annotations

from dashboard.dataset.index import UNKNOWN_AREA
from dashboard.graph.state import ViewState
from dashboard.view.colour_key import colour_key
from dashboard.view.figures import overview
from dashboard.view.naming import NO_AREA, area_label
from dashboard.view.payload import build_subgraph


def test_area_label_names_only_the_missing_area() -> None:
    assert area_label(UNKNOWN_AREA) == NO_AREA == "no area given"
    assert area_label("cs.LG") == "cs.LG"


def test_the_overview_chart_names_papers_without_an_area(store) -> None:
    state = ViewState(seeds=("2106.03764", "2006.04862", "2110.10090"))  # two of them have no area
    rows = build_subgraph(store, state).rows
    fig = overview(store, rows, colour_key(store, state, rows))
    names = [t["name"] for t in fig["data"]]
    assert NO_AREA in names and UNKNOWN_AREA not in names
