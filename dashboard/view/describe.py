"""The map in words, for screen readers: what a view shows and which paper is selected (the page reads it out in an
``aria-live`` region beside the map, ``div-map-summary``; the panel's lists are the map's text equivalent)."""

from __future__ import annotations

from dashboard.dataset.index import UNKNOWN_AREA
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


NUMBER_WORDS = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")


def first_view_line(store: Store, seeds: list[str], about: str | None) -> str:
    """What the first view shows, in one line: ``Three papers on what self-attention can express (★), with the
    papers they cite (■) and those citing them (●); grey ones have no area in the data.`` ``about``: what the seeds
    are (the title of the dataset's story about them), else they are counted only."""
    rows = [r for r in (store.row(s) for s in seeds) if r is not None]
    n = len(rows)
    count = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else f"{n:,}"
    if about and about.lower().startswith(count.lower() + " "):
        what = about  # the story's title already counts them ("Three papers on ...")
    elif about:
        what = f"{count} seed {'paper' if n == 1 else 'papers'}: {about}"
    else:
        what = f"{count} seed {'paper' if n == 1 else 'papers'}"
    they, them = ("it cites", "it") if n == 1 else ("they cite", "them")
    line = f"{what} (★), with the papers {they} (■) and those citing {them} (●)"
    areas = [int(store.primary_area[r]) for r in rows]
    grey = sum(a < 0 or store.area_names[a] == UNKNOWN_AREA for a in areas)
    if grey:
        line += "; grey ones have no area in the data" if grey > 1 else "; a grey one has no area in the data"
    return line + "."
