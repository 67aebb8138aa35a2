"""Which papers a view shows: seeds, the neighbours of seeds and expanded papers, filters and caps.

Plain data in, plain data out: a :class:`Subgraph` of store rows, held as arrays (no Python object per
paper). A view's map is walked without filters (the limits and the cap apply to it); filters then only narrow
it (:func:`narrow`): they hide the papers that fail them and never bring one in, the seeds, the expanded papers
and the selected paper staying as anchors (dimmed when they fail). Positions are computed on the unfiltered
map (``layout_rows``), so a filter moves no paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from dashboard.dataset.store import RowSlots, Store
from dashboard.graph.state import (
    DEFAULT_LIMIT,
    EXPAND_FIRST,
    EXPAND_STEP,
    LIMIT_STEP,
    MAX_LIMIT,
    MAX_MORE,
    ViewState,
    show_more_of,
)

MAX_NODES = 5000  # hard cap of nodes sent to a browser, whatever the state asks
SEED, REFERENCE, CITER, SELECTED, SIMILAR, ONPATH = range(6)  # role codes
ROLES = ("seed", "reference", "citer", "selected", "similar", "onpath")


@dataclass
class Truncation:
    paper: int
    direction: str  # "references" | "citers"
    shown: int
    total: int


@dataclass(frozen=True)
class Group:
    """The rows one paper brought into a walk: ``rows[start:end]``, its references, then its citers."""

    paper: int
    start: int
    end: int


@dataclass
class Walk:
    """One step from each source, in order: rows in walk order (seeds first) with role codes and the row
    of the paper that brought each in (-1 for seeds and the selected paper)."""

    rows: np.ndarray
    roles: np.ndarray
    parents: np.ndarray
    groups: list[Group]
    truncated: list[Truncation] = field(default_factory=list)
    capped: bool = False  # MAX_NODES reached


@dataclass
class Subgraph:
    rows: np.ndarray  # visible rows, in walk order (seeds first)
    roles: np.ndarray  # role code per row (see ROLES)
    edge_i: np.ndarray  # visible citation edges as positions in rows: rows[edge_i[k]] cites rows[edge_j[k]]
    edge_j: np.ndarray
    expanded: list[int]  # expanded rows that are visible (seeds excluded)
    seeds: list[int]
    selected: int | None
    truncated: list[Truncation] = field(default_factory=list)
    hidden: int = 0  # papers of the map without its filters that the filters hide: each counted once
    capped: bool = False
    # what positions are computed on: the map without filters (a selected paper out of view included); is
    # ``rows`` itself when nothing is hidden
    layout_rows: np.ndarray | None = None
    layout_parents: np.ndarray | None = None  # aligned with layout_rows (-1: none)
    layout_groups: list[Group] = field(default_factory=list)  # slices of layout_rows, in walk order
    # a map laid out by its own links (similar papers): those links among ``layout_rows`` (positions in it) and
    # their weights, whatever the filters hide; None: the map's citations
    layout_links: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    limit: int = DEFAULT_LIMIT  # references and citers per paper (the state's)
    kind: str = "citations"  # "citations" (a walk), "similar" (edges: similar pairs), "path" (chains of citations)
    # similar: each edge's strength (0-1] and why, e.g. "cited together by 14 papers · share 9 references"
    edge_weight: np.ndarray | None = None
    edge_why: list[str] | None = None
    chains: list[list[int]] = field(default_factory=list)  # path: each chain's rows, from one end to the other
    notices: list[str] = field(default_factory=list)  # what the view has to tell (no path found, ...)
    dimmed: list[int] = field(default_factory=list)  # anchors shown although they fail the filters
    approximate: bool = False  # similar: found by sampling the seeds' lists, so a more similar paper may be missing

    @property
    def src(self) -> np.ndarray:
        """Citing rows of the visible edges."""
        return self.rows[self.edge_i]

    @property
    def dst(self) -> np.ndarray:
        """Cited rows of the visible edges."""
        return self.rows[self.edge_j]

    def role_names(self) -> list[str]:
        """The role of each row, as a word."""
        return [ROLES[c] for c in self.roles.tolist()]


def step_from(
    store: Store, slots: RowSlots, src: int, limit: int
) -> tuple[list[tuple[int, np.ndarray]], list[Truncation], bool]:
    """One step from ``src``: its references, then its citers, the first ``limit`` of each (most cited first),
    those not in ``slots`` yet, added to them, at most ``MAX_NODES`` in all.
    Returns the (role code, rows) runs added, the lists the limit cut, and whether the cap cut. (The view's walk
    and the force layout's steps both take neighbours this way.)"""
    runs: list[tuple[int, np.ndarray]] = []
    truncated: list[Truncation] = []
    capped = False
    for code, direction, fetch in ((REFERENCE, "references", store.references), (CITER, "citers", store.citers)):
        nbrs = fetch(src)
        if len(nbrs) > limit:
            truncated.append(Truncation(src, direction, limit, len(nbrs)))
            nbrs = nbrs[:limit]
        new = slots.absent(nbrs)  # a CSR list has no repeats
        room = MAX_NODES - slots.count
        if len(new) > room:
            new, capped = new[: max(0, room)], True
        if len(new):
            slots.add(new)
            runs.append((code, new))
    return runs, truncated, capped


def split(n_refs: int, n_citers: int, total: int) -> tuple[int, int]:
    """How many of its references and of its citers an expanded paper shows when it shows ``total`` of them: half
    each, the share one list cannot fill going to the other. Neither count shrinks when ``total`` grows."""
    refs = min(n_refs, max((total + 1) // 2, total - n_citers))
    return refs, min(n_citers, total - refs)


def expand_runs(store: Store, src: int, total: int) -> tuple[list[tuple[int, np.ndarray]], list[Truncation]]:
    """The references and citers expanded paper ``src`` shows when it shows ``total`` of them together (most cited
    first, :func:`split`), as (role code, rows) runs in the order of the "Show more" steps that brought them in
    (``EXPAND_FIRST``, then ``EXPAND_STEP`` at a time: a step's papers follow the earlier steps' ones, so that their
    places do not change), and the lists cut."""
    n_refs, n_citers = store.n_references(src), store.n_citers(src)
    refs, cites = split(n_refs, n_citers, total)
    runs: list[tuple[int, np.ndarray]] = []
    done_r = done_c = 0
    upto = EXPAND_FIRST
    while True:
        r, c = split(n_refs, n_citers, min(upto, total))
        if r > done_r:
            runs.append((REFERENCE, store.references(src, r)[done_r:]))
        if c > done_c:
            runs.append((CITER, store.citers(src, c)[done_c:]))
        done_r, done_c = r, c
        if upto >= total:
            break
        upto += EXPAND_STEP
    cut = [Truncation(src, d, k, n) for d, k, n in (("references", refs, n_refs), ("citers", cites, n_citers)) if k < n]
    return runs, cut


def expand_rows(store: Store, src: int, total: int) -> np.ndarray:
    """Every row :func:`expand_runs` brings in, in order."""
    runs = expand_runs(store, src, total)[0]
    return np.concatenate([r for _, r in runs]).astype(np.int64) if runs else np.empty(0, np.int64)


def _expand_from(
    store: Store, slots: RowSlots, src: int, total: int
) -> tuple[list[tuple[int, np.ndarray]], list[Truncation], bool]:
    """As :func:`step_from`, for an expanded paper: the ``total`` references and citers of :func:`expand_runs`."""
    runs, truncated = expand_runs(store, src, total)
    out: list[tuple[int, np.ndarray]] = []
    capped = False
    for code, nbrs in runs:
        new = slots.absent(nbrs)
        room = MAX_NODES - slots.count
        if len(new) > room:
            new, capped = new[: max(0, room)], True
        if len(new):
            slots.add(new)
            out.append((code, new))
    return out, truncated, capped


def _walk(
    store: Store,
    slots: RowSlots,
    sources: list[int],
    seeds: list[int],
    limit: int,
    totals: dict[int, int] | None = None,
) -> Walk:
    """Breadth of one step from each source in order: a seed's first ``limit`` references and citers, an expanded
    paper's ``totals[row]`` of them together (:func:`expand_runs`). ``slots`` (empty) ends up holding the walk's rows
    in order."""
    first = np.asarray(seeds, dtype=np.int64)
    slots.add(first)
    rows, roles, parents, sizes = [first], [SEED], [-1], [len(first)]  # in runs: role and parent of each run
    groups: list[Group] = []
    truncated: list[Truncation] = []
    capped = False
    for src in sources:
        if src not in slots:
            continue  # an expanded paper that is not in view adds nothing
        start = slots.count
        if totals is not None and src in totals:
            runs, cut, hit = _expand_from(store, slots, src, totals[src])
        else:
            runs, cut, hit = step_from(store, slots, src, limit)
        truncated += cut
        capped |= hit
        for code, new in runs:
            rows.append(new)
            roles.append(code)
            parents.append(src)
            sizes.append(len(new))
        if slots.count > start:
            groups.append(Group(src, start, slots.count))
    return Walk(
        rows=np.concatenate(rows, dtype=np.int64),
        roles=np.array(roles, dtype=np.uint8).repeat(sizes),
        parents=np.array(parents, dtype=np.int64).repeat(sizes),
        groups=groups,
        truncated=truncated,
        capped=capped,
    )


def neighbourhood(store: Store, state: ViewState) -> Subgraph:
    """The papers and citation edges of a state's citation map (the seeds' walk), without its filters (see
    :func:`narrow`)."""
    seeds = list(dict.fromkeys(r for r in (store.row(s) for s in state.seeds) if r is not None))
    expand = [r for r in (store.row(e) for e in state.expand) if r is not None and r not in seeds]
    totals = {r: state.expand_total(e) for e in state.expand if (r := store.row(e)) is not None}
    selected = store.row(state.selected) if state.selected else None
    with store.row_slots() as slots:
        walk = _walk(store, slots, seeds + expand, seeds, state.limit, totals)
        rows, roles, parents = walk.rows, walk.roles, walk.parents
        if selected is not None and selected not in slots:
            slots.add(np.array([selected], dtype=np.int64))
            rows = np.append(rows, selected)
            roles = np.append(roles, np.uint8(SELECTED))
            parents = np.append(parents, -1)
        edge_i, edge_j = store.edge_positions(rows, slots)
        expanded = [e for e in expand if e in slots]
    return Subgraph(
        rows=rows,
        roles=roles,
        edge_i=edge_i,
        edge_j=edge_j,
        expanded=expanded,
        seeds=seeds,
        selected=selected,
        truncated=walk.truncated,
        capped=walk.capped,
        layout_rows=rows,
        layout_parents=parents,
        layout_groups=walk.groups,
        limit=state.limit,
    )


def filter_fn(store: Store, state: ViewState):
    """The state's filters as a function of rows -> bool mask, or None when it has none."""
    if not state.filtered:
        return None
    return lambda rows: store.filter_mask(rows, years=state.years, areas=state.areas, min_citations=state.min_citations)


def anchors(sub: Subgraph) -> list[int]:
    """The rows a view keeps whatever hides papers: its seeds (a path's two ends), expanded and selected papers."""
    return [*sub.seeds, *sub.expanded, *([sub.selected] if sub.selected is not None else [])]


def narrow(store: Store, sub: Subgraph, state: ViewState) -> Subgraph:
    """``sub`` (a map without filters) narrowed by ``state``'s filters: the papers that fail them are hidden, except
    the anchors (:func:`anchors`), which stay dimmed so that their neighbours that pass keep their link to the
    map. Nothing is added, and nothing moves (positions are those of ``sub``)."""
    passes = filter_fn(store, state)
    if passes is None or not len(sub.rows):
        return sub
    ok = passes(sub.rows)
    kept = keep_rows(store, sub, ok)
    failing = set(sub.rows[~ok].tolist())
    return replace(kept, dimmed=[r for r in anchors(kept) if r in failing])


def keep_rows(store: Store, sub: Subgraph, keep: np.ndarray) -> Subgraph:
    """``sub`` showing only the rows where ``keep`` is true (its anchors always stay): edges among them, the rest
    counted as hidden; positions are still computed on the whole (``layout_rows``)."""
    keep = keep | np.isin(sub.rows, anchors(sub))
    if keep.all():
        return sub
    rows = sub.rows[keep]
    pos = np.full(len(sub.rows), -1, dtype=np.int64)
    pos[keep] = np.arange(len(rows))
    both = keep[sub.edge_i] & keep[sub.edge_j]
    weight = sub.edge_weight[both] if sub.edge_weight is not None else None
    why = [w for w, b in zip(sub.edge_why, both.tolist(), strict=True) if b] if sub.edge_why is not None else None
    layout_rows = sub.layout_rows if sub.layout_rows is not None else sub.rows
    return replace(
        sub,
        rows=rows,
        roles=sub.roles[keep],
        edge_i=pos[sub.edge_i[both]],
        edge_j=pos[sub.edge_j[both]],
        edge_weight=weight,
        edge_why=why,
        hidden=sub.hidden + int(np.count_nonzero(~keep)),
        layout_rows=layout_rows,
    )


def expand_steps(store: Store, sub: Subgraph, row: int, state: ViewState) -> int | None:
    """How many "Show more" steps expanding ``row`` needs to add a paper to what ``sub`` shows that passes the
    filters: 0 when its first ``EXPAND_FIRST`` references and citers (:func:`expand_runs`) hold one (a paper whose
    most cited neighbours are all shown already goes on to the next ones); None when no step would add one (for
    "nothing more to show")."""
    total = min(store.n_references(row) + store.n_citers(row), EXPAND_FIRST + EXPAND_STEP * MAX_MORE)
    nbrs = expand_rows(store, row, total)
    ok = store.filter_mask(nbrs, years=state.years, areas=state.areas, min_citations=state.min_citations)
    ok &= ~np.isin(nbrs, sub.rows)
    if not ok.any():
        return None
    first = int(np.argmax(ok))
    return max(0, -(-(first + 1 - EXPAND_FIRST) // EXPAND_STEP))


def more_of(store: Store, sub: Subgraph, state: ViewState) -> str | None:
    """The expanded paper "Show more" shows more of: the selected paper if it is expanded and shows only some of its
    references and citers, else the last expanded paper that does; None when none does (it then shows more of
    the seeds)."""
    cut = {t.paper for t in sub.truncated}
    rows = {e: store.row(e) for e in state.expand}
    cut_ids = [
        e for e in state.expand if rows[e] in cut and rows[e] in sub.expanded and dict(state.more).get(e, 0) < MAX_MORE
    ]
    if state.selected in cut_ids:
        return state.selected
    return cut_ids[-1] if cut_ids else None


def show_more(store: Store, sub: Subgraph, state: ViewState) -> ViewState:
    """The state after "Show more": ``EXPAND_STEP`` more references and citers of :func:`more_of`'s paper, else
    the seeds' limit one step up (``LIMIT_STEP`` more of each list); the same state when nothing is cut."""
    pid = more_of(store, sub, state)
    if pid is not None:
        return show_more_of(state, pid)
    seeds_cut = {t.paper for t in sub.truncated} & set(sub.seeds)
    if seeds_cut and state.limit < MAX_LIMIT:
        return replace(state, limit=min(MAX_LIMIT, state.limit + LIMIT_STEP))
    return state
