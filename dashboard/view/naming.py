"""Names: of what a view exports (file stems, the title line an image of the map carries), of the dataset the page
shows (its about line) and of the sources its facts come from, as a visitor reads them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import pyarrow.compute as pc

from dashboard.dataset import index
from dashboard.dataset.index import UNKNOWN_AREA
from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.view.arxiv_names import ARCHIVE_NAMES, category_name

NO_AREA = "no area given"  # how the papers without an area (stored as UNKNOWN_AREA) are named on the page

# the layouts (their names in the URL) as the page names them
LAYOUT_NAMES = {"force": "network", "timeline": "timeline", "concentric": "concentric"}

TITLE_SEEDS = 3  # seed titles named in an image's title line; the others are counted
TITLE_CHARS = 60  # each cut to this many characters


def area_label(area: str) -> str:
    """How an area is named on the page, its charts and its pictures: an arXiv category in plain words with its code
    (``Machine learning (cs.LG)``), another name as the dataset gives it, :data:`NO_AREA` for the papers without one
    (the URL and the data files keep the stored name)."""
    return NO_AREA if area == UNKNOWN_AREA else category_name(area)


@lru_cache(maxsize=8)  # per dataset: every payload carries them
def area_labels(area_names: tuple[str, ...]) -> dict[str, str]:
    """Each of a dataset's areas (its stored name) as the page names it (:func:`area_label`), for the browser."""
    return {a: area_label(a) for a in (*area_names, UNKNOWN_AREA)}


def file_stem(seeds: Sequence[str], n: int) -> str:
    """``citemap-2110.10090-60-papers``: names say what the file holds."""
    head = seeds[0] if seeds else "view"
    more = f"-and-{len(seeds) - 1}-more" if len(seeds) > 1 else ""
    return f"citemap-{head}{more}-{n}-papers"


def image_title(store: Store, state: ViewState, n_papers: int) -> str:
    """The line above an exported image of the map: dataset, seeds, what filters and layout the view has, size."""
    parts = [image_source(store), _seeds_part(store, state.seeds)]
    if state.years:
        parts.append(f"years {state.years[0]}–{state.years[1]}")
    if state.areas is not None:
        parts.append("areas " + ", ".join(map(area_label, state.areas)) if state.areas else "no area")
    if state.min_citations:
        parts.append(f"at least {state.min_citations:,} citing")
    parts.append(f"{LAYOUT_NAMES.get(state.layout, state.layout)} layout, colour by {state.color}")
    parts.append(f"{n_papers:,} papers")
    return " · ".join(parts)


def image_source(store: Store) -> str:
    """What an image's papers are and where they come from, in the about line's words: ``Citation map of
    computer-science papers from an arXiv citation dataset (2023) and 3 paper pages of mlsanity.com``."""
    return " ".join(w for w in ("Citation map of", papers_field(store), "papers", about_parts(store)[1]) if w)


@lru_cache(maxsize=256)  # per seed list: a view's title is built on every view, the seeds change seldom
def _seeds_part(store: Store, seeds: tuple[str, ...]) -> str:
    rows = [r for r in (store.row(s) for s in seeds) if r is not None]
    titles = [cut_title(t, TITLE_CHARS) for t in store.titles(rows[:TITLE_SEEDS])]
    if len(rows) > TITLE_SEEDS:
        titles.append(f"and {len(rows) - TITLE_SEEDS} more")
    return "seeds: " + "; ".join(titles) if titles else "no seeds"


def cut_title(title: str, chars: int) -> str:
    """A title on one line (runs of spaces and line breaks made one space), cut to ``chars`` characters with "…"
    when longer."""
    title = " ".join(title.split())
    return title if len(title) <= chars else title[: chars - 1].rstrip() + "…"


# The importers' names of their sources (a paper's ``sources`` and ``cited_by_from``) as a visitor reads them: where
# the facts come from. A name not listed (OpenAlex, Semantic Scholar, a CSV file's name) is shown as it is.
MLSANITY = "mlsanity pages"  # dashboard/importers/mlsanity.py SOURCE
SOURCE_NAMES = {MLSANITY: "mlsanity.com", "arxiv-2023": "arXiv citation dataset (2023)"}
# the same in the about line's "from ..." (mlsanity.com's pages counted there)
ABOUT_SOURCES = {"arxiv-2023": "an arXiv citation dataset (2023)"}
ARXIV_CATEGORY = re.compile(r"^([a-z-]+)\.[A-Za-z-]+$")
FIELD_SHARE = 0.9  # of all papers (those without an area included), the share one archive must hold to name them


def source_name(source: str | None) -> str:
    """A source as the page names it: ``mlsanity pages`` -> ``mlsanity.com``; none -> ``its source``."""
    if not source:
        return "its source"
    return SOURCE_NAMES.get(source, source)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def papers_field(store: Store) -> str:
    """What the papers are, when their areas say it: ``computer-science`` when nearly all papers have a primary
    arXiv category of cs; else empty."""
    names = store.area_names
    counts = np.bincount(store.primary_area.astype(np.int64), minlength=len(names)) if store.n else []
    archives: dict[str, int] = {}
    for name, count in zip(names, counts, strict=False):
        if name == UNKNOWN_AREA or not count:
            continue
        m = ARXIV_CATEGORY.match(name)
        if not m:
            return ""  # not arXiv categories
        archives[m[1]] = archives.get(m[1], 0) + int(count)
    if not archives:
        return ""
    archive, count = max(archives.items(), key=lambda kv: kv[1])
    return ARCHIVE_NAMES.get(archive, "") if count >= FIELD_SHARE * store.n else ""


def _files_listed(meta_source: str, marker: str) -> int:
    """How many files the dataset's ``source`` lists in its part that names ``marker``: ``saved mlsanity.com paper
    pages: a.txt, b.txt`` -> 2 (0 if it lists none)."""
    for part in meta_source.split(";"):
        head, _, files = part.partition(": ")
        if marker in head and files.strip():
            return len([f for f in files.split(",") if f.strip()])
    return 0


def about_source(store: Store, source: str) -> str:
    """One source in the about line's "from ...": ``3 paper pages of mlsanity.com``, ``an arXiv citation dataset
    (2023)``, ``OpenAlex``."""
    if source == MLSANITY:
        pages = _files_listed(store.meta.get("source") or "", "mlsanity.com")
        return f"{_plural(pages, 'paper page')} of mlsanity.com" if pages else "paper pages of mlsanity.com"
    return ABOUT_SOURCES.get(source, source_name(source))


@lru_cache(maxsize=8)  # per dataset: the page and its first paint ask for it
def about_parts(store: Store) -> tuple[str, str]:
    """What the page shows, in two parts: what and how many (``30,352 computer-science papers and the 280,542
    citations among them``), and where they come from (``from an arXiv citation dataset (2023) and 3 paper pages of
    mlsanity.com``; empty if the dataset does not say)."""
    field = papers_field(store)
    what = f"{_plural(store.n, (field + ' ' if field else '') + 'paper')} and the "
    what += f"{_plural(store.n_citations, 'citation')} among them"
    described = store.source_counts()  # papers each source describes: the biggest first
    sources = [about_source(store, s) for s in sorted(described, key=lambda s: -described[s])]
    if not sources and store.meta.get("source"):
        sources = short_source(store.meta["source"]).split("; ")
    if not sources:
        return what, ""
    return what, "from " + (", ".join(sources[:-1]) + " and " + sources[-1] if len(sources) > 1 else sources[0])


def about_line(store: Store) -> str:
    """What the page shows, in one line: ``30,352 computer-science papers and the 280,542 citations among them, from
    an arXiv citation dataset (2023) and 3 paper pages of mlsanity.com``."""
    what, where = about_parts(store)
    return f"{what}, {where}" if where else what


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


@lru_cache(maxsize=8)  # per dataset: read once
def figure_sources(store: Store) -> tuple[str, ...]:
    """The sources that give the papers' own citation figures (``cited_by_from``), most papers first."""
    col = store.papers.column("cited_by_from").drop_null()
    counts = pc.value_counts(col).to_pylist() if len(col) else []
    return tuple(d["values"] for d in sorted(counts, key=lambda d: -d["counts"]))


def figure_sources_of(store: Store, rows: np.ndarray) -> dict:
    """Whose figure each paper of ``rows`` with one has, for the page: ``{"names": ["mlsanity.com", "OpenAlex"],
    "of": {paper id: position in names}}`` (a dataset whose figures come from several sources)."""
    rows = np.asarray(rows, dtype=np.int64)
    whose = index.take(index.column(store.papers.column("cited_by_from")), rows).to_pylist()
    position: dict[str, int] = {}  # name -> its place in names
    of = {}
    for pid, source in zip(store.ids(rows), whose, strict=True):
        if source is not None:
            of[pid] = position.setdefault(source_name(source), len(position))
    return {"names": list(position), "of": of}


def one_figure_source(store: Store) -> str:
    """The name of the one source that gives this dataset's own citation figures; empty if none or several."""
    found = figure_sources(store)
    return source_name(found[0]) if len(found) == 1 else ""
