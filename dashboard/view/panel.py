"""The paper panel's content as plain data: key facts and the two lists (references, citers)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dashboard.dataset import index
from dashboard.dataset.store import Store
from dashboard.graph.neighbourhood import ROLES, Subgraph
from dashboard.graph.state import ViewState

# entries rendered per list, the rest counted: LIST_FIRST until the visitor asks for more (each entry is a few page
# components, and a panel of hundreds holds the page up whenever it is drawn again), then LIST_SHOWN
LIST_FIRST = 20
LIST_SHOWN = 100


@dataclass
class ListEntry:
    id: str
    title: str
    year: int | None
    in_cited: int  # citers in the dataset
    cited_by: int | None  # the source's own figure
    in_view: bool
    cited_by_from: str | None = None  # the source whose figure ``cited_by`` is (as the dataset names it)


@dataclass
class PaperList:
    entries: list[ListEntry]
    total: int  # in the dataset
    matching: int  # passing the filters
    more: int  # matching but not rendered


@dataclass(frozen=True)
class Badge:
    text: str  # what the paper is in this view, in plain words
    kind: str  # its look: class badge-<kind>


@dataclass
class PaperPanel:
    paper: dict
    is_seed: bool
    is_expanded: bool
    in_view: bool
    references: PaperList
    citers: PaperList
    badges: list[Badge]


def _paper_list(
    store: Store, rows: np.ndarray, state: ViewState, shown: set[int], sort: str, limit: int = LIST_SHOWN
) -> PaperList:
    rows = np.asarray(rows, dtype=np.int64)
    total = len(rows)
    rows = rows[store.filter_mask(rows, years=state.years, areas=state.areas, min_citations=state.min_citations)]
    if sort == "year":  # newest first, then most cited (rows are already most cited first)
        rows = rows[np.argsort(-store.year[rows].astype(np.int64), kind="stable")]
    elif sort == "source":  # the source's own figure, highest first; papers without one last
        rows = rows[np.argsort(-store.cited_by(rows), kind="stable")]
    matching = len(rows)
    head = rows[:limit]
    ids, titles, figures = store.ids(head), store.titles(head), store.cited_by(head).tolist()
    whose = index.take(index.column(store.papers.column("cited_by_from")), head).to_pylist()
    entries = [
        ListEntry(
            ids[i],
            titles[i],
            int(store.year[r]) if store.year[r] >= 0 else None,
            int(store.in_cited[r]),
            figures[i] if figures[i] >= 0 else None,
            int(r) in shown,
            whose[i] if figures[i] >= 0 else None,
        )
        for i, r in enumerate(head.tolist())
    ]
    return PaperList(entries, total, matching, matching - len(head))


SORTS = ("citations", "source", "year")  # in the dataset, the source's own figure, newest first


def paper_badges(row: int, pid: str, sub: Subgraph, state: ViewState) -> list[Badge]:
    """What the panel's paper is in this view, in plain words: a seed, the paper selected, an end of the chains of
    citations, a paper on them or similar to the seeds, expanded, kept although it fails the filters, or not in the
    map at all."""
    where = np.flatnonzero(sub.rows == row)
    role = ROLES[int(sub.roles[where[0]])] if len(where) else None
    out = []
    if pid in state.seeds:  # on a map of chains the seeds' map is one click away (the sidebar's ×)
        out.append(Badge("★ seed" if sub.kind == "path" else "★ seed: the map starts from it", "seed"))
    if pid == state.selected:
        out.append(Badge("selected", "selected"))
    if state.path and pid in state.path:
        end = "start" if pid == state.path[0] else "end"
        out.append(Badge(f"{end} of the chains of citations", f"path-{end}"))
    elif role == "onpath":
        out.append(Badge("on a chain of citations", "onpath"))
    elif role == "similar":
        out.append(Badge("similar to the seeds", "similar"))
    if sub.kind == "citations" and pid not in state.seeds and row in sub.expanded:
        out.append(Badge("expanded: its references and citers are shown", "expanded"))
    if row in sub.dimmed:
        out.append(Badge("outside the filters: kept, faded, for its links", "dimmed"))
    if role is None:
        out.append(Badge("not in the map", "hidden"))
    return out


def paper_panel(
    store: Store, row: int, sub: Subgraph, state: ViewState, sort: str = "citations", limit: int = LIST_SHOWN
) -> PaperPanel:
    """The panel of the paper at ``row``: its facts, badges, and its references and citers (``limit`` of each)."""
    shown = set(sub.rows.tolist())
    pid = store.id(row)
    return PaperPanel(
        paper=store.paper(row),
        is_seed=pid in state.seeds,
        is_expanded=pid in state.expand,
        in_view=row in shown,
        references=_paper_list(store, store.references(row), state, shown, sort, limit),
        citers=_paper_list(store, store.citers(row), state, shown, sort, limit),
        badges=paper_badges(row, pid, sub, state),
    )
