"""The paper panel's content as plain data: key facts and the two lists (references, citers)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dashboard.dataset.store import Store
from dashboard.graph.neighbourhood import Subgraph
from dashboard.graph.state import ViewState

LIST_SHOWN = 100  # entries rendered per list; the rest are counted


@dataclass
class ListEntry:
    id: str
    title: str
    year: int | None
    in_cited: int  # citers in the dataset
    cited_by: int | None  # the source's own figure
    in_view: bool


@dataclass
class PaperList:
    entries: list[ListEntry]
    total: int  # in the dataset
    matching: int  # passing the filters
    more: int  # matching but not rendered


@dataclass
class PaperPanel:
    paper: dict
    is_seed: bool
    is_expanded: bool
    in_view: bool
    references: PaperList
    citers: PaperList


def _paper_list(store: Store, rows: np.ndarray, state: ViewState, shown: set[int], sort: str) -> PaperList:
    rows = np.asarray(rows, dtype=np.int64)
    total = len(rows)
    rows = rows[store.filter_mask(rows, years=state.years, areas=state.areas, min_citations=state.min_citations)]
    if sort == "year":  # newest first, then most cited (rows are already most cited first)
        rows = rows[np.argsort(-store.year[rows].astype(np.int64), kind="stable")]
    elif sort == "source":  # the source's own figure, highest first; papers without one last
        rows = rows[np.argsort(-store.cited_by(rows), kind="stable")]
    matching = len(rows)
    head = rows[:LIST_SHOWN]
    ids, titles, figures = store.ids(head), store.titles(head), store.cited_by(head).tolist()
    entries = [
        ListEntry(
            ids[i],
            titles[i],
            int(store.year[r]) if store.year[r] >= 0 else None,
            int(store.in_cited[r]),
            figures[i] if figures[i] >= 0 else None,
            int(r) in shown,
        )
        for i, r in enumerate(head.tolist())
    ]
    return PaperList(entries, total, matching, matching - len(head))


SORTS = ("citations", "source", "year")  # in the dataset, the source's own figure, newest first


def paper_panel(store: Store, row: int, sub: Subgraph, state: ViewState, sort: str = "citations") -> PaperPanel:
    shown = set(sub.rows.tolist())
    pid = store.id(row)
    return PaperPanel(
        paper=store.paper(row),
        is_seed=pid in state.seeds,
        is_expanded=pid in state.expand,
        in_view=row in shown,
        references=_paper_list(store, store.references(row), state, shown, sort),
        citers=_paper_list(store, store.citers(row), state, shown, sort),
    )
