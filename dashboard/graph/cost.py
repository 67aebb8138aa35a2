"""What a view costs the server, estimated from its state before any of the work is done.

The estimate is in **units**, one unit being about the work of laying out a citation map of 1,000 papers with the
force layout. It reads the state and the store's neighbour counts (two array lookups a seed or expanded paper),
never the neighbours themselves, so it takes microseconds whatever the view; a host uses it to bound the work each
client address may cause (dashboard/web/budget.py) before it starts that work.

What is counted, by what a request does with the view (its **kind**):

* ``graph`` (``GET /graph``), ``preview`` (``GET /preview.svg``), ``export`` (a file of the view): the whole map,
  its positions included. A force layout grows a little faster than the papers it places; a timeline or concentric
  layout costs almost nothing per paper; coloured by cluster, the clusters are found as well.
* ``side`` (the status line, legends and overview): the papers in view, and the clusters when coloured by them.
* ``subgraph`` (the panel, the state callback, the field's layer, an image's title): the papers in view alone.

Whatever the kind, a similarity map searches the whole dataset from its seeds, and a path searches for chains of
citations between two papers; a view narrowed to some clusters finds its clusters first.
"""

from __future__ import annotations

from dashboard.dataset.store import Store
from dashboard.graph.neighbourhood import MAX_NODES
from dashboard.graph.state import ViewState

KINDS = ("graph", "preview", "export", "side", "subgraph")
MAPS = ("graph", "preview", "export")  # the kinds that lay the map out
PAPERS_PER_UNIT = 1000  # a force layout of this many papers: one unit
SPREAD_LAYOUT = 0.02  # a timeline or concentric layout, per paper, against a force layout's
PICKING = 0.01  # finding which papers are in view, per paper, against laying them out
SIMILAR_BASE, SIMILAR_PER_SEED = 0.1, 0.02  # a similarity search: once, and again for each seed
PATH = 0.3  # a search for chains of citations between two papers (at most six steps)
PICTURE = 0.05  # drawing a map's picture once its positions are known


def papers_in_view(store: Store, state: ViewState) -> int:
    """At most how many papers ``state`` shows (before its filters, which only hide papers): each seed with up to
    ``limit`` of its references and as many citers, each expanded paper with up to ``state.expand_total`` of its
    references and citers together, at most MAX_NODES in all; a similarity map its seeds and the papers asked for."""
    if state.mode == "similar":
        return min(MAX_NODES, len(state.seeds) + state.limit + 1)
    n = 0
    for pid in state.seeds:
        if (r := store.row(pid)) is not None:
            n += 1 + min(state.limit, store.n_references(r)) + min(state.limit, store.n_citers(r))
    for pid in state.expand:
        if (r := store.row(pid)) is not None:
            n += 1 + min(state.expand_total(pid), store.n_references(r) + store.n_citers(r))
    return min(MAX_NODES, n + (1 if state.selected else 0))


def force_units(papers: int) -> float:
    """A force layout of ``papers`` papers, in units: a little more than linear (a map of 5,000 papers costs about
    eleven times one of 1,000)."""
    size = papers / PAPERS_PER_UNIT
    return size * (1 + papers / (4 * PAPERS_PER_UNIT))


def view_cost(store: Store, state: ViewState, kind: str) -> float:
    """The estimated cost of a request of ``kind`` (one of KINDS) on the view ``state``, in units."""
    if kind not in KINDS:
        raise ValueError(f"not a kind of request: {kind!r}")
    papers = papers_in_view(store, state)
    cost = PICKING * papers / PAPERS_PER_UNIT
    if state.mode == "similar":
        cost += SIMILAR_BASE + SIMILAR_PER_SEED * len(state.seeds)
    if state.path:
        cost += PATH
    clusters = state.color == "cluster" and (kind in (*MAPS, "side") or state.clusters is not None)
    if clusters:
        cost += force_units(papers)
    if kind in MAPS:
        if state.layout == "force":
            cost += force_units(papers)
        else:
            cost += SPREAD_LAYOUT * papers / PAPERS_PER_UNIT
    if kind == "preview":
        cost += PICTURE
    return cost
