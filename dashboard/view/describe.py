"""The map in words, for screen readers: what a view shows and which paper is selected (the page reads it out in an
``aria-live`` region beside the map, ``div-map-summary``; the panel's lists are the map's text equivalent)."""

from __future__ import annotations

from dashboard.dataset.store import Store
from dashboard.graph.neighbourhood import Subgraph
from dashboard.graph.state import ViewState
from dashboard.view.naming import source_name


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def paper_words(store: Store, row: int) -> str:
    """``Attention Is All You Need, 2017, cited by 743 papers in this dataset (59,932 according to mlsanity.com)``:
    the two counts, each named, never mixed."""
    p = store.paper(row)
    text = (
        f"{' '.join(str(p['title']).split())}, {p['year'] or 'year unknown'}, cited by "
        f"{_plural(p['in_cited'], 'paper')} in this dataset"
    )
    if p["cited_by"] is not None:
        text += f" ({p['cited_by']:,} according to {source_name(p['cited_by_from'])})"
    return text


def map_summary(store: Store, sub: Subgraph, state: ViewState) -> str:
    """``156 papers, 181 citations, 3 seeds; selected: <title>, 2021, cited by 30 papers in this dataset (47
    according to mlsanity.com)``."""
    n, links = len(sub.rows), len(sub.edge_i)
    if sub.kind == "similar":
        head = f"{_plural(n - len(sub.seeds), 'similar paper')}, {_plural(links, 'similarity link')}"
    elif sub.kind == "path":
        head = (
            f"{_plural(len(sub.chains), 'shortest chain')} of citations, {_plural(n, 'paper')}"
            if sub.chains
            else "no chain of citations found"
        )
    else:
        head = f"{_plural(n, 'paper')}, {_plural(links, 'citation')}"
    head += f", {_plural(len(sub.seeds), 'seed')}"
    if sub.hidden:
        head += f", {sub.hidden:,} hidden by filters"
    row = store.row(state.selected) if state.selected else None
    return head + (f"; selected: {paper_words(store, row)}" if row is not None else "; no paper selected")
