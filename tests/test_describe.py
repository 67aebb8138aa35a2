"""The map in words (dashboard/view/describe.py): what the screen reader hears beside the map."""

from __future__ import annotations

from dashboard.dataset.store import Store
from dashboard.view.describe import map_summary, paper_words
from dashboard.view.payload import build_subgraph
from dashboard.web.callbacks.common import read_state
from dashboard.web.callbacks.render import status_text


def summary(store: Store, query: str) -> str:
    state, _ = read_state(store, query)
    return map_summary(store, build_subgraph(store, state), state)


def test_the_default_view_in_words(store: Store) -> None:
    state, _ = read_state(store, "")
    sub = build_subgraph(store, state)
    text = map_summary(store, sub, state)
    assert text == f"{len(sub.rows)} papers, {len(sub.edge_i)} citations, 3 seeds; no paper selected"
    assert status_text(store, sub).startswith(f"{len(sub.rows)} papers · {len(sub.edge_i)} citations")  # the same


def test_the_selected_paper_with_both_counts_named(store: Store) -> None:
    text = summary(store, "?selected=2106.03764")
    p = store.paper(store.row("2106.03764"))
    assert p["in_cited"] == 30 and p["cited_by"] == 47
    assert text.endswith(
        "; selected: On the Expressive Power of Self-Attention Matrices, 2021, cited by 30 papers in "
        "this dataset (47 according to mlsanity.com)"
    )


def test_a_paper_without_a_source_figure_or_year(store: Store) -> None:
    row = next(r for r in range(store.n) if store.paper(r)["cited_by"] is None)
    words = paper_words(store, row)
    assert "according to" not in words and "in this dataset" in words


def test_other_kinds_of_map(store: Store) -> None:
    similar = summary(store, "?seeds=2110.10090&mode=similar")
    assert " similar papers, " in similar and "similarity links" in similar and "1 seed;" in similar
    path = summary(store, "?seeds=2110.10090&path=2110.10090,2006.04862")
    assert "shortest chain" in path or "no chain of citations found" in path
    filtered = summary(store, "?years=2024-2025")
    assert "hidden by filters" in filtered
