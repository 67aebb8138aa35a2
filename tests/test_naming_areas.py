"""Papers without an area are named "no area given" wherever the page shows areas, while the URL and the exports
keep the stored name."""

from __future__ import annotations

import json

from dashboard.dataset.index import UNKNOWN_AREA
from dashboard.graph.state import ViewState
from dashboard.view.colour_key import colour_key
from dashboard.view.figures import overview
from dashboard.view.naming import NO_AREA, area_label, area_labels
from dashboard.view.payload import build_subgraph, graph_json


def test_area_label_names_arxiv_categories_in_words_and_the_missing_area() -> None:
    assert area_label(UNKNOWN_AREA) == NO_AREA == "no area given"
    assert area_label("cs.LG") == "Machine learning (cs.LG)"
    assert area_label("cs.CV") == "Computer vision (cs.CV)" and area_label("stat.ML").endswith(" (stat.ML)")
    assert area_label("my own area") == "my own area"  # a dataset's own name, not an arXiv category: as it is


def test_every_area_of_the_default_data_has_a_plain_name(default_store) -> None:
    """The menu, key, panel, charts and pictures name each area of the default dataset in words, from one table; the
    browser gets the same names with every view (the palette's area_names)."""
    names = area_labels(tuple(default_store.area_names))
    assert set(names) == set(default_store.area_names) | {UNKNOWN_AREA}
    unnamed = [a for a, n in names.items() if a != UNKNOWN_AREA and n == a]
    assert unnamed == []
    assert all(n.endswith(f" ({a})") for a, n in names.items() if a != UNKNOWN_AREA)
    state = ViewState(seeds=("2106.03764", "2006.04862", "2110.10090"))
    payload = json.loads(graph_json(default_store, state))
    assert payload["palette"]["area_names"]["cs.LG"] == "Machine learning (cs.LG)"
    key = colour_key(default_store, state, build_subgraph(default_store, state).rows)
    assert "Machine learning (cs.LG)" in [c.name for c in key.categories]
    assert not any(c.name in default_store.area_names for c in key.categories)  # no bare code in the key


def test_the_overview_chart_names_papers_without_an_area(store) -> None:
    state = ViewState(seeds=("2106.03764", "2006.04862", "2110.10090"))  # two of them have no area
    rows = build_subgraph(store, state).rows
    fig = overview(store, rows, colour_key(store, state, rows))
    names = [t["name"] for t in fig["data"]]
    assert NO_AREA in names and UNKNOWN_AREA not in names
