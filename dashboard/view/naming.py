"""Names: of what a view exports (file stems, the title line an image of the map carries) and of the dataset the
page shows (its about line)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from dashboard.dataset.index import UNKNOWN_AREA
from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState

NO_AREA = "no area given"  # how the papers without an area (stored as UNKNOWN_AREA) are named on the page

TITLE_SEEDS = 3  # seed titles named in an image's title line; the others are counted
TITLE_CHARS = 60  # each cut to this many characters


def area_label(area: str) -> str:
    """How an area is named on the page: the dataset's own name, or :data:`NO_AREA` for the papers without one (the
    URL and the exports keep the stored name)."""
    return NO_AREA if area == UNKNOWN_AREA else area


def file_stem(seeds: Sequence[str], n: int) -> str:
    """``citemap-2110.10090-60-papers``: names say what the file holds."""
    head = seeds[0] if seeds else "view"
    more = f"-and-{len(seeds) - 1}-more" if len(seeds) > 1 else ""
    return f"citemap-{head}{more}-{n}-papers"


def image_title(store: Store, state: ViewState, n_papers: int) -> str:
    """The line above an exported image of the map: dataset, seeds, what filters and layout the view has, size."""
    parts = [store.meta.get("name") or "citemap", _seeds_part(store, state.seeds)]
    if state.years:
        parts.append(f"years {state.years[0]}–{state.years[1]}")
    if state.areas is not None:
        parts.append("areas " + ", ".join(state.areas) if state.areas else "no area")
    if state.min_citations:
        parts.append(f"at least {state.min_citations:,} citing")
    parts.append(f"{state.layout} layout, colour by {state.color}")
    parts.append(f"{n_papers:,} papers")
    return " · ".join(parts)


@lru_cache(maxsize=256)  # per seed list: a view's title is built on every view, the seeds change seldom
def _seeds_part(store: Store, seeds: tuple[str, ...]) -> str:
    rows = [r for r in (store.row(s) for s in seeds) if r is not None]
    titles = [_cut(t) for t in store.titles(rows[:TITLE_SEEDS])]
    if len(rows) > TITLE_SEEDS:
        titles.append(f"and {len(rows) - TITLE_SEEDS} more")
    return "seeds: " + "; ".join(titles) if titles else "no seeds"


def _cut(title: str) -> str:
    title = " ".join(title.split())
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1].rstrip() + "…"


def about_line(store: Store) -> str:
    """What the page shows, in one line: ``arxiv-2023: 30,281 papers, 280,567 citations (from ...)``."""
    name = store.meta.get("name") or store.folder.name
    source = short_source(store.meta.get("source") or "")
    return f"{name}: {store.n:,} papers, {store.n_citations:,} citations" + (f" (from {source})" if source else "")


def short_source(source: str) -> str:
    """A dataset's ``source`` as a visitor reads it: ``saved mlsanity.com paper pages: a.txt, b.txt;
    data/arxiv-2023`` -> ``saved mlsanity.com paper pages; arxiv-2023`` (no file lists, no paths)."""
    parts = []
    for part in source.split(";"):
        part = part.split(": ", 1)[0].strip().rstrip("/")
        if "/" in part and " " not in part:
            part = part.rsplit("/", 1)[1]
        if part:
            parts.append(part)
    return "; ".join(parts)
