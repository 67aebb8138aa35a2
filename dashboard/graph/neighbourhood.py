"""Which papers a view shows: seeds, the neighbours of seeds and expanded papers, filters and caps.

Plain data in, plain data out: a :class:`Subgraph` of store rows. Two node sets are computed:
``rows`` (what passes the filters; seeds and the selected paper always do) and ``layout_rows``
(the same walk without filters), so that positions can be computed on a set that does not change
when a filter does, and filtering only hides nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dashboard.graph.state import ViewState
from dashboard.store import Store

MAX_NODES = 5000  # hard cap of nodes sent to a browser, whatever the state asks


@dataclass
class Truncation:
    paper: int
    direction: str  # "references" | "citers"
    shown: int
    total: int


@dataclass
class Subgraph:
    rows: np.ndarray  # visible rows, in discovery order (seeds first)
    role: dict[int, str]  # row -> seed | reference | citer | selected
    parent: dict[int, int]  # row -> row of the paper that brought it in
    src: np.ndarray  # visible edges: src cites dst
    dst: np.ndarray
    expanded: list[int]  # expanded rows that are visible (seeds excluded)
    seeds: list[int]
    selected: int | None
    truncated: list[Truncation] = field(default_factory=list)
    hidden: int = 0  # neighbours hidden by the filters
    capped: bool = False  # MAX_NODES reached
    layout_rows: np.ndarray | None = None
    layout_parent: dict[int, int] = field(default_factory=dict)
    # (paper, the rows it brought in) in walk order, over layout_rows: what a layout places around what
    layout_groups: list[tuple[int, list[int]]] = field(default_factory=list)


def _walk(store: Store, sources: list[int], seeds: list[int], limit: int,
          state: ViewState | None) -> tuple[dict[int, str], dict[int, int], list[Truncation], int, bool,
                                            list[tuple[int, list[int]]]]:
    """Breadth of one step from each source in order; ``state`` None = no filters."""
    role: dict[int, str] = dict.fromkeys(seeds, "seed")
    parent: dict[int, int] = {}
    groups: list[tuple[int, list[int]]] = []
    truncated: list[Truncation] = []
    hidden = 0
    capped = False
    for src in sources:
        if src not in role:
            continue  # an expanded paper that is not in view adds nothing
        for direction, fetch in (("references", store.references), ("citers", store.citers)):
            nbrs = fetch(src)
            total = len(nbrs)
            if state is not None and total:
                mask = store.filter_mask(nbrs, years=state.years, areas=state.areas,
                                         min_citations=state.min_citations)
                hidden += int(total - mask.sum())
                nbrs = nbrs[mask]
            if len(nbrs) > limit:
                truncated.append(Truncation(src, direction, limit, len(nbrs)))
                nbrs = nbrs[:limit]
            new = [r for r in nbrs.tolist() if r not in role]  # a CSR list has no repeats
            if len(role) + len(new) > MAX_NODES:
                new, capped = new[: max(0, MAX_NODES - len(role))], True
            role.update(dict.fromkeys(new, "reference" if direction == "references" else "citer"))
            parent.update(dict.fromkeys(new, src))
            if new:
                groups.append((src, new))
    return role, parent, truncated, hidden, capped, groups


def neighbourhood(store: Store, state: ViewState) -> Subgraph:
    """The papers and citation edges a state shows."""
    seeds = [r for r in (store.row(s) for s in state.seeds) if r is not None]
    expand = [r for r in (store.row(e) for e in state.expand) if r is not None and r not in seeds]
    selected = store.row(state.selected) if state.selected else None
    sources = seeds + expand
    filtered = state.years is not None or state.areas is not None or state.min_citations > 0
    role, parent, truncated, hidden, capped, groups = _walk(store, sources, seeds, state.limit,
                                                            state if filtered else None)
    if filtered:
        layout_role, layout_parent, _, _, _, layout_groups = _walk(store, sources, seeds, state.limit, None)
    else:
        layout_role, layout_parent, layout_groups = role, parent, groups
    if selected is not None and selected not in role:
        role[selected] = "selected"
    rows = np.fromiter(role.keys(), dtype=np.int64, count=len(role))
    src, dst = store.edges_among(rows)
    layout_rows = list(layout_role)
    extra = [r for r in role if r not in layout_role] if layout_role is not role else []
    if extra:  # papers only the filters let in (beyond a cap): placed around what brought them in
        layout_parent = dict(layout_parent)
        layout_groups = list(layout_groups)
        by_parent: dict[int, list[int]] = {}
        for r in extra:
            if r in parent:
                layout_parent[r] = parent[r]
                by_parent.setdefault(parent[r], []).append(r)
        layout_groups += list(by_parent.items())
    return Subgraph(
        rows=rows, role=role, parent=parent, src=src, dst=dst,
        expanded=[e for e in expand if e in role], seeds=seeds, selected=selected,
        truncated=truncated, hidden=hidden, capped=capped,
        layout_rows=np.asarray(layout_rows + extra, dtype=np.int64), layout_parent=layout_parent,
        layout_groups=layout_groups,
    )


def new_neighbours(store: Store, sub: Subgraph, row: int, state: ViewState) -> int:
    """How many papers expanding ``row`` would add to what ``sub`` shows (for "nothing more to show")."""
    nbrs = np.concatenate([store.references(row), store.citers(row)]).astype(np.int64)
    nbrs = nbrs[store.filter_mask(nbrs, years=state.years, areas=state.areas, min_citations=state.min_citations)]
    return int(np.count_nonzero(~np.isin(nbrs, sub.rows)))
