"""Maps beyond the seeds' direct links, as plain data: which papers a state shows in each mode, and the clusters
of a map.

* ``mode=citations`` (:func:`dashboard.graph.neighbourhood.neighbourhood`): the seeds, their references and
  citers, and those of the expanded papers;
* ``mode=similar`` (:func:`similar_subgraph`): the papers most similar to the seeds by co-citation and
  bibliographic coupling (:mod:`dashboard.graph.similarity`), joined by their similarity links;
* ``path=A,B`` (:func:`path_subgraph`): the shortest chains of citations between two papers
  (:mod:`dashboard.graph.paths`), whatever the mode;
* ``color=cluster`` (:func:`view_clusters`): communities of the map's links, named by their titles' most
  distinctive words (:mod:`dashboard.graph.clusters`), computed on the map without filters so that a filter
  never renames them; ``clusters=`` shows some of them only.

Each mode builds its map without the filters; the filters then narrow it (:func:`subgraph`), in every mode alike.

Every function takes plain data (a store, a state) and returns plain data (a :class:`Subgraph`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from dashboard.dataset.store import Store
from dashboard.graph import clusters as clustering
from dashboard.graph.neighbourhood import (
    ONPATH,
    SEED,
    SELECTED,
    SIMILAR,
    Subgraph,
    keep_rows,
    narrow,
    neighbourhood,
)
from dashboard.graph.paths import chain_rows, shortest_paths
from dashboard.graph.similarity import similar
from dashboard.graph.state import ViewState

MAX_STEPS = 6  # a path longer than this is "not found"
PATHS_SHOWN = 3  # shortest chains drawn at most
DIRECT_SHARE = 1 / 3  # a similarity map: at most a third of its papers are direct references or citers of a seed,
# unless too few other papers qualify as similar


def unfiltered(state: ViewState) -> ViewState:
    """``state`` without its filters (years, areas, minimum citations): the map they narrow."""
    return replace(state, years=None, areas=None, min_citations=0) if state.filtered else state


def subgraph(store: Store, state: ViewState) -> Subgraph:
    """The papers and links a state shows, in any mode: its map without filters, narrowed by the cluster choice and
    then by the filters (:func:`dashboard.graph.neighbourhood.narrow`), so that a filter only hides papers."""
    whole = unfiltered(state)
    if state.path:
        sub = path_subgraph(store, whole)
    elif state.mode == "similar":
        sub = similar_subgraph(store, whole)
    else:
        sub = neighbourhood(store, whole)
    if state.color == "cluster" and state.clusters is not None:
        found = view_clusters(store, state)
        shown = [c for c in state.clusters if c in found.names]
        absent = [c for c in state.clusters if c not in found.names]
        if shown:
            sub = keep_rows(store, sub, np.isin(found.labels_of(sub.rows), shown))
        if absent:
            sub = replace(sub, notices=[*sub.notices, _absent_clusters(found, absent, bool(shown))])
    return narrow(store, sub, state)


def _absent_clusters(found: Clusters, absent: list[int], some_shown: bool) -> str:
    """The notice for ``clusters=`` numbers a map does not have."""
    if not found.names:
        return f"This map has no named clusters; cluster {', '.join(map(str, absent))} left out."
    return (
        f"This map has {len(found.names)} named clusters (0-{len(found.names) - 1}); cluster "
        f"{', '.join(map(str, absent))} left out" + ("" if some_shown else ": showing them all") + "."
    )


def without_no_ops(
    store: Store, state: ViewState, build: Callable[[Store, ViewState], Subgraph] = subgraph
) -> tuple[ViewState, list[str]]:
    """``state`` without the parts of its link that do nothing in its map, and a notice for each (what the state
    alone tells is left out when the link is read: :func:`dashboard.graph.state.parse_query`): expanded papers that
    are not in the map (nothing to expand from), clusters the map does not have. ``build`` makes a state's map (a
    cached :func:`subgraph`)."""
    notices: list[str] = []
    if state.expand and not state.path and state.mode != "similar":
        expanded = set(build(store, replace(state, mode="citations") if state.mode == "field" else state).expanded)
        gone = [pid for pid in state.expand if store.row(pid) not in expanded]
        if gone:
            named = gone[:3]
            titles = [
                f"“{t}” ({pid})" for t, pid in zip(store.titles([store.row(g) for g in named]), named, strict=True)
            ]
            more = f" and {len(gone) - 3} more" if len(gone) > 3 else ""
            notices.append(f"Not in this map, so nothing to expand: {', '.join(titles)}{more}; left out of expand.")
            state = replace(state, expand=tuple(pid for pid in state.expand if pid not in gone))
    if state.color == "cluster" and state.clusters is not None:
        found = view_clusters(store, state)
        absent = [c for c in state.clusters if c not in found.names]
        if absent:
            shown = tuple(c for c in state.clusters if c in found.names)
            notices.append(_absent_clusters(found, absent, bool(shown)))
            state = replace(state, clusters=shown or None)
    return state, notices


def why(cocited: int, coupled: int) -> str:
    """What a similarity link stands for, in words."""
    parts = []
    if cocited:
        parts.append(f"cited together by {cocited:,} paper{'s' if cocited != 1 else ''}")
    if coupled:
        parts.append(f"share {coupled:,} reference{'s' if coupled != 1 else ''}")
    return " · ".join(parts) or "similar"


def _with_selected(
    store: Store, state: ViewState, rows: np.ndarray, roles: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int | None]:
    selected = store.row(state.selected) if state.selected else None
    if selected is not None and selected not in set(rows.tolist()):
        rows = np.append(rows, selected)
        roles = np.append(roles, np.uint8(SELECTED))
    return rows, roles, selected


def similar_subgraph(store: Store, state: ViewState) -> Subgraph:
    """The seeds and the ``state.limit`` papers most similar to them, linked where a pair is similar enough (edge
    weight: the pair's strength; why: its counts). Only papers sharing at least ``MIN_SHARED`` citers or references
    with one seed are similar (:mod:`dashboard.graph.similarity`); a notice says when fewer than ``state.limit``
    do, and another when the seeds' lists were too long to read whole (``approximate``: a more similar paper may be
    missing)."""
    seeds = list(dict.fromkeys(r for r in (store.row(s) for s in state.seeds) if r is not None))
    found = similar(store, seeds, n=state.limit, direct_share=DIRECT_SHARE)
    roles = np.full(len(found.rows), SIMILAR, dtype=np.uint8)
    roles[: len(seeds)] = SEED
    rows, roles, selected = _with_selected(store, state, np.asarray(found.rows, dtype=np.int64), roles)
    reasons = [
        why(int(c), int(b)) for c, b in zip(found.pair_cocited.tolist(), found.pair_coupled.tolist(), strict=True)
    ]
    notices = []
    shown, least = len(found.rows) - found.n_seeds, found.min_shared
    evidence = (
        f"at least {least} citing papers or {least} references with {'the seed' if len(seeds) == 1 else 'a seed'}"
    )
    if seeds and shown == 0 and state.limit > 0:
        notices.append(f"No paper of this dataset shares {evidence}, the least a similar paper needs.")
    elif shown < state.limit and seeds:
        notices.append(
            f"Only {shown:,} paper{'s' if shown != 1 else ''} share{'s' if shown == 1 else ''} {evidence}, the least a "
            f"similar paper needs: showing {'it' if shown == 1 else 'those'}, not {state.limit:,}."
        )
    if found.approximate:
        notices.append(
            f"{'This seed is' if len(seeds) == 1 else 'These seeds are'} linked to so many papers that this map was "
            "found from a sample of their citations: a paper more similar than those shown may be missing."
        )
    return Subgraph(
        rows=rows,
        roles=roles,
        edge_i=np.asarray(found.pair_i, dtype=np.int64),
        edge_j=np.asarray(found.pair_j, dtype=np.int64),
        expanded=[],
        seeds=seeds,
        selected=selected,
        layout_rows=rows,
        layout_links=(
            np.asarray(found.pair_i, dtype=np.int64),
            np.asarray(found.pair_j, dtype=np.int64),
            np.asarray(found.pair_strength, dtype=float),
        ),
        limit=state.limit,
        kind="similar",
        edge_weight=np.asarray(found.pair_strength, dtype=float),
        edge_why=reasons,
        notices=notices,
        approximate=found.approximate,
    )


def path_subgraph(store: Store, state: ViewState) -> Subgraph:
    """Both ends of ``state.path`` and every paper of the few shortest chains of citations between them (directions
    ignored), with the citations among them."""
    assert state.path is not None
    a, b = store.row(state.path[0]), store.row(state.path[1])
    assert a is not None and b is not None  # the state parser keeps known ids only
    found = shortest_paths(store, a, b, max_steps=MAX_STEPS, k=PATHS_SHOWN)
    middle = [r for r in chain_rows(found).tolist() if r not in (a, b)]
    rows = np.asarray([a, b, *middle], dtype=np.int64)
    roles = np.asarray([SEED, SEED] + [ONPATH] * len(middle), dtype=np.uint8)
    rows, roles, selected = _with_selected(store, state, rows, roles)
    notices = []
    ta, tb = (f"“{t}”" for t in store.titles([a, b]))
    if found.steps is None:
        notices.append(
            f"No chain of citations joins {ta} and {tb} within {MAX_STEPS} steps"
            + (" (the search stopped at its size limit: a longer chain may exist)" if found.capped else "")
            + "."
        )
    edge_i, edge_j = store.edge_positions(rows)
    return Subgraph(
        rows=rows,
        roles=roles,
        edge_i=edge_i,
        edge_j=edge_j,
        expanded=[],
        seeds=[a, b],
        selected=selected,
        layout_rows=rows,
        limit=state.limit,
        kind="path",
        chains=[list(map(int, c)) for c in found.chains],
        notices=notices,
    )


@dataclass(frozen=True)
class Clusters:
    """Communities of a map (on its rows without filters): a label per row (-1: in no named cluster), each
    named cluster's name and size, largest first."""

    rows: np.ndarray
    labels: np.ndarray
    names: dict[int, str]
    sizes: dict[int, int]

    def labels_of(self, rows: np.ndarray) -> np.ndarray:
        """The label of each of ``rows`` (-1 for a row of no cluster or not in the map)."""
        out = np.full(len(rows), -1, dtype=np.int64)
        if not len(self.rows) or not len(rows):
            return out
        order = np.argsort(self.rows, kind="stable")
        ranked = self.rows[order]
        at = np.clip(np.searchsorted(ranked, rows), 0, len(ranked) - 1)
        found = ranked[at] == rows
        out[found] = self.labels[order][at[found]]
        return out


def view_clusters(store: Store, state: ViewState) -> Clusters:
    """The clusters of a state's map (the same for every filter, colour, layout and cluster choice)."""
    return _clusters(
        store,
        replace(
            state,
            clusters=None,
            color="cluster",
            layout="force",
            years=None,
            areas=None,
            min_citations=0,
            selected=None,
        ),
    )


@lru_cache(maxsize=32)
def _clusters(store: Store, base: ViewState) -> Clusters:
    sub = subgraph(store, base)
    rows = np.asarray(sub.layout_rows if sub.layout_rows is not None else sub.rows, dtype=np.int64)
    if sub.kind == "citations":
        i, j = store.edge_positions(rows)
        weight = None
    else:
        i, j, weight = sub.edge_i, sub.edge_j, sub.edge_weight
    labels, names = clustering.clusters_of(store, rows, i, j, weight)
    counts = np.bincount(labels[labels >= 0], minlength=max(names, default=-1) + 1)
    return Clusters(rows=rows, labels=labels, names=names, sizes={k: int(counts[k]) for k in names})
