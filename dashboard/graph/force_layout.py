"""The ``force`` layout: placed step by step, so that what is on screen stays where it is, at a bounded cost.

A view's seeds and the papers they bring in are placed as a **chain of steps**: the first seed's references and
citers up to 300, then up to 600, ... up to the view's limit (the "Show more" ladder), then each other seed's, in
URL order. A step
places only its new papers, around its seed, and never moves a paper an earlier step placed:

* the first step is a Fruchterman-Reingold layout (igraph) of the seed and its neighbours, scaled to pixels;
* a later step starts its new papers on free arcs around the seed (a new seed with papers already on the map
  starts among them; one with none, outside the picture), nudged towards the papers they cite or are cited by,
  then refines them with Fruchterman-Reingold while every paper already placed is pinned, and pushes the new
  ones off any paper they landed on.

The chain of a state begins with the chain of every state that has fewer seeds (same order, same limit) or, for one
seed, a lower limit; each step's result is cached by the chain so far. So adding a seed or showing more of a single seed
moves nothing, and costs one step. Expanded papers' neighbours go on free arcs around them (no force: an expand
costs about a no-op callback). The browser keeps the places of papers that stay in view for every other change
(removing a seed, collapsing, more of one seed among several): ``assets/js/logic/map-elements.js`` (``keepPlaces``).

**Bounded work**: the force iterations of a whole chain share ``BUDGET`` units (a unit: igraph's work on one edge
in one iteration, see :func:`cost`). A step moves by force only as many of its papers as what the chain left of the
budget affords (those with the most links; the others stay on their arcs), and a step left with too little is
placed on its arcs alone.
So the most expensive view any URL can ask for costs a fixed amount.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import igraph as ig
import numpy as np
from scipy.spatial import cKDTree

from dashboard.dataset.store import Store
from dashboard.graph import free_places
from dashboard.graph.geometry import (
    NODE_GAP,
    TITLE_ROOM,
    arc_xy,
    clear_rooms,
    free_arc_xy,
    nearest_distances,
    push_apart,
    rings_out,
    room_points,
    settle,
    title_owners,
    title_rooms,
)
from dashboard.graph.neighbourhood import Subgraph, step_from
from dashboard.graph.state import DEFAULT_LIMIT, LIMIT_STEP

EDGE_LENGTH = 110.0  # px, median edge length of a first step
SEED_GAP = 260.0  # px at least between a new seed and the seeds placed before it
SMALL_STAR = 24  # a first step of at most this many papers: a ring, no force layout needed
BUDGET = 600_000  # force units a whole chain may spend (see the module docstring)
MAX_ITER = 300
ITER_TARGET = 100  # force iterations a step aims for: it moves as many papers as the budget affords that
MIN_ITER = 6  # fewer iterations than this are not worth starting: the step stays on its arcs
UNIT_PX = 40.0  # px per force-layout unit before the first step's scale is known (a ring)
IGRAPH_RNG_LOCK = threading.Lock()
_LOCK = threading.Lock()
_CACHE: dict[tuple, Chain] = {}  # (store, steps so far) -> Chain; insertion-ordered, the oldest goes first
CACHE_SIZE = 256

Step = tuple[int, int]  # (seed row, how many of its references and of its citers)


@dataclass(frozen=True)
class Chain:
    """Where the steps so far put their papers: ``rows`` in the order placed, ``xy`` (n, 2) px."""

    rows: np.ndarray
    xy: np.ndarray
    scale: float  # px per force-layout unit
    spent: int  # force units used so far
    around: tuple[tuple[int, int], ...] = ()  # (seed row, arc places used around it)

    @cached_property
    def tree(self) -> cKDTree:
        """The placed papers for nearest-neighbour queries (built once per chain, when a next step needs it)."""
        return cKDTree(self.xy, balanced_tree=False, compact_nodes=False)

    @cached_property
    def seed_places(self) -> np.ndarray:
        """Where the chain's seeds (``around`` names them) are in ``rows``, in the order placed."""
        return np.flatnonzero(np.isin(self.rows, [r for r, _ in self.around]))

    @cached_property
    def seed_rooms(self) -> cKDTree:
        """Points filling the rooms of the seeds' titles (:func:`room_points`), as places an expand keeps clear."""
        return cKDTree(room_points(title_rooms(self.xy, self.seed_places)), balanced_tree=False, compact_nodes=False)

    @cached_property
    def middle(self) -> tuple[float, float]:
        x, y = np.mean(self.xy, axis=0).tolist() if len(self.xy) else (0.0, 0.0)
        return x, y


EMPTY = Chain(np.empty(0, np.int64), np.empty((0, 2)), UNIT_PX, 0)


def ladder(limit: int) -> list[int]:
    """The limits "Show more" passes through on the way to ``limit``: 300, 600, ... and ``limit`` itself."""
    steps = list(range(DEFAULT_LIMIT, limit, LIMIT_STEP)) if limit > DEFAULT_LIMIT else []
    return [*steps, limit]


def chain_steps(seeds: Sequence[int], limit: int) -> tuple[Step, ...]:
    """The first seed by the "Show more" ladder (showing more of one seed moves nothing), the others in one step
    each (showing more of several is kept in place by the browser)."""
    return tuple((seeds[0], k) for k in ladder(limit)) + tuple((s, limit) for s in seeds[1:]) if seeds else ()


def seed_chain(store: Store, seeds: Sequence[int], limit: int) -> Chain:
    """The placement of the seeds and their neighbours (cached step by step)."""
    steps = chain_steps(seeds, limit)
    done = len(steps)
    while done and (store, steps[:done]) not in _CACHE:
        done -= 1
    chain = _CACHE[(store, steps[:done])] if done else EMPTY
    if done == len(steps):
        return chain
    rows, ends = _chain_rows(store, steps)
    edges: list[tuple[np.ndarray, np.ndarray]] = []  # computed when a step needs them (a small ring does not)

    def edges_among() -> tuple[np.ndarray, np.ndarray]:
        if not edges:
            edges.append(store.edge_positions(rows))
        return edges[0]

    for k in range(done, len(steps)):
        chain = _place_step(chain, steps[k], rows[: ends[k]], edges_among, k, store.in_cited[rows[: ends[k]]])
        with _LOCK:
            _CACHE[(store, steps[: k + 1])] = chain
            while len(_CACHE) > CACHE_SIZE:
                _CACHE.pop(next(iter(_CACHE)))
    return chain


def _chain_rows(store: Store, steps: Sequence[Step]) -> tuple[np.ndarray, list[int]]:
    """Every row the chain places, in order, and the count placed after each step."""
    ends: list[int] = []
    with store.row_slots() as slots:
        parts = []
        for seed, k in steps:
            new = [] if seed in slots else [np.array([seed], dtype=np.int64)]
            if new:
                slots.add(new[0])
            new += [run for _, run in step_from(store, slots, seed, k)[0]]  # as the view's walk takes them
            parts.extend(new)
            ends.append(slots.count)
    rows = np.concatenate(parts).astype(np.int64) if parts else np.empty(0, np.int64)
    return rows, ends


def _place_step(
    chain: Chain,
    step: Step,
    rows: np.ndarray,
    edges_among: Callable[[], tuple[np.ndarray, np.ndarray]],
    index: int,
    weights: np.ndarray,
) -> Chain:
    """The chain after one more step: ``rows`` = the chain's rows then the step's new ones; ``edges_among()``: the
    citations among the rows of the whole chain, as positions; ``weights``: each row's citers in the dataset."""
    seed = step[0]
    old, n = len(chain.rows), len(rows)
    if n == old:
        return chain
    if old == 0 and n - 1 <= SMALL_STAR:  # a small star: a ring around the seed (what a force layout makes of it)
        xy = np.vstack([np.zeros((1, 2)), arc_xy((0.0, 0.0), (0.0, 0.0), n - 1, full=True)])
        xy.setflags(write=False)
        return Chain(rows=rows, xy=xy, scale=chain.scale, spent=0, around=((seed, n - 1),))
    edges = edges_among()
    hi = np.maximum(*edges)
    keep = (hi < n) & (hi >= old)  # the edges this step adds: with a new end
    i, j = edges[0][keep], edges[1][keep]
    at = int(np.flatnonzero(rows == seed)[0])
    xy = np.vstack([chain.xy, np.full((n - old, 2), np.nan)]) if old else np.full((n, 2), np.nan)
    scale, spent = chain.scale, chain.spent
    around = dict(chain.around)
    middle = chain.middle
    if old == 0:  # the first seed: a force layout of as much of its star as the budget affords
        xy[0] = 0.0
        core = _most_linked(np.arange(1, n), i, j, at, _affordable(BUDGET // 2))
        if len(core) > SMALL_STAR:  # else too few have links for a force layout to say anything: arcs
            local = np.concatenate([[0], core])
            li, lj = _edges_among(local, i, j, n)
            start = np.vstack([np.zeros((1, 2)), arc_xy((0.0, 0.0), (0.0, 0.0), len(core), full=True)]) / UNIT_PX
            iters = min(MAX_ITER, 60 + 4 * len(local), BUDGET // 2 // cost(len(local), len(li)))
            coords = fruchterman_reingold(len(local), li, lj, start, iters) if iters >= MIN_ITER else start
            spent += iters * cost(len(local), len(li)) if iters >= MIN_ITER else 0
            placed, scale = scale_to_px(coords, li, lj)
            xy[local] = placed
    elif at >= old:  # a new seed: among the papers it links to, else beside the picture
        linked = np.concatenate([j[i == at], i[j == at]])
        linked = linked[linked < old]
        if len(linked):
            xy[at] = chain.xy[linked].mean(axis=0) + 60.0 * np.asarray(_turn(index))
        else:
            reach = float(np.hypot(*(chain.xy - middle).T).max()) + 4 * NODE_GAP
            xy[at] = np.asarray(middle) + reach * np.asarray(_turn(index))
        xy[at] = _room_near(_apart_from_seeds(xy[at], chain, index), chain)
    done = ~np.isnan(xy[:, 0])
    first = 1 if old == 0 else old  # what stays put: the papers placed before (the first seed: the middle)
    fixed = chain.tree if old else cKDTree(xy[:1])
    todo = np.flatnonzero(~done)
    centre = (float(xy[at, 0]), float(xy[at, 1]))
    taken = [fixed] if old == 0 or done[first:].sum() == 0 else [fixed, cKDTree(xy[first:][done[first:]])]
    xy[todo], around[seed] = free_arc_xy(centre, middle, len(todo), taken, skip=around.get(seed, 0), full=old == 0)
    free = xy[todo].copy()  # places clear of every paper already drawn
    _pull(xy, todo, done, i, j, at)
    if old:  # refine the new papers, with the old ones they link to pinned
        share = (BUDGET - spent) // 2  # what this step may use: half of what is left
        movable = _most_linked(np.setdiff1d(todo, [at]), i, j, at, _affordable(share) // 2)
        if at >= old:
            movable = np.concatenate([[at], movable]).astype(np.int64)
        li_all = np.isin(i, movable) | np.isin(j, movable)
        pinned = np.setdiff1d(np.concatenate([i[li_all], j[li_all]]), movable)
        pinned = pinned[pinned < old] if len(pinned) else pinned
        local = np.concatenate([pinned, movable])
        li, lj = _edges_among(local, i, j, n)
        iters = min(MAX_ITER, share // max(cost(len(local), len(li)), 1))
        if iters >= MIN_ITER and len(li) and len(movable):
            start = xy[local] / scale
            lo = np.full((len(local), 2), -np.inf)
            hi = np.full((len(local), 2), np.inf)
            lo[: len(pinned)] = hi[: len(pinned)] = start[: len(pinned)]
            coords = fruchterman_reingold(
                len(local), li, lj, start, iters, lo, hi, start_temp=max(0.5, math.sqrt(len(movable)) / 10)
            )
            xy[movable] = coords[len(pinned) :] * scale
            spent += iters * cost(len(local), len(li))
    if old:  # where the pull and the force put a paper on one already drawn: back towards its free place
        xy[todo] = settle(fixed, xy[todo], free, NODE_GAP * 0.6)
    movable = np.zeros(n, dtype=bool)
    movable[first:] = True
    xy[first:] = push_apart(fixed, xy[first:], NODE_GAP * 0.6)
    xy = clear_rooms(xy, _title_owners(rows, weights, chain, at), movable, NODE_GAP * 0.6)
    xy.setflags(write=False)
    return Chain(rows=rows, xy=xy, scale=scale, spent=spent, around=tuple(around.items()))


def _title_owners(rows: np.ndarray, weights: np.ndarray, chain: Chain, at: int) -> np.ndarray:
    """The papers whose titles get room under them (:func:`title_owners`): the seeds placed so far, then the most
    cited (``weights``: citers in the dataset of each row)."""
    return title_owners(weights, np.union1d(chain.seed_places, [at]).astype(np.int64))


def _room_near(at: np.ndarray, chain: Chain) -> np.ndarray:
    """The place nearest ``at`` (on rings around it) with room for a new seed's title under it: no paper placed
    before in that room, and ``SEED_GAP`` from the seeds placed before. ``at`` if there is none within reach."""
    room = (TITLE_ROOM[0], NODE_GAP * 0.2, TITLE_ROOM[1])  # as title_rooms lays a room out under its paper
    k = free_places.first_clear(
        at + _AROUND, chain.xy[chain.seed_places], SEED_GAP, free_places.by_x(chain.xy), room, NODE_GAP * 0.3
    )
    return (at + _AROUND[k]) if k >= 0 else at


_AROUND = np.vstack([np.zeros((1, 2)), rings_out(12) * NODE_GAP])  # where a new seed may go: here, then round


def _apart_from_seeds(at: np.ndarray, chain: Chain, index: int) -> np.ndarray:
    """``at`` moved, if need be, to ``SEED_GAP`` from every seed placed before (seeds and their labels stand apart)."""
    where = chain.seed_places
    for _ in range(len(where) + 1):
        d = np.hypot(*(chain.xy[where] - at).T) if len(where) else np.empty(0)
        if not len(d) or d.min() >= SEED_GAP:
            break
        near = chain.xy[where[int(np.argmin(d))]]
        away = at - near if d.min() > 1e-6 else np.asarray(_turn(index))
        at = near + away / np.hypot(*away) * SEED_GAP
    return at


def _affordable(units: int) -> int:
    """How many nodes a force layout of ``ITER_TARGET`` iterations can move within ``units`` (pairs dominate)."""
    return int(math.sqrt(12 * max(units, 0) / ITER_TARGET))


def _most_linked(candidates: np.ndarray, i: np.ndarray, j: np.ndarray, seed: int, k: int) -> np.ndarray:
    """Up to ``k`` of ``candidates``, those with the most citation links other than to the seed first (then in
    order): the ones a force layout places best; the rest sit well on arcs around the seed."""
    if len(candidates) <= k:
        return candidates
    size = max(int(candidates.max()), int(i.max(initial=0)), int(j.max(initial=0))) + 1
    off = (i != seed) & (j != seed)
    links = np.bincount(i[off], minlength=size) + np.bincount(j[off], minlength=size)
    order = np.argsort(-links[candidates], kind="stable")[:k]
    return np.sort(candidates[order])


def _edges_among(local: np.ndarray, i: np.ndarray, j: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The edges with both ends in ``local``, as positions in ``local``."""
    where = np.full(n, -1, np.int64)
    where[local] = np.arange(len(local))
    ok = (where[i] >= 0) & (where[j] >= 0)
    return where[i[ok]], where[j[ok]]


def _pull(xy: np.ndarray, todo: np.ndarray, done: np.ndarray, i: np.ndarray, j: np.ndarray, seed: int) -> None:
    """Each of ``todo`` halfway towards the mean of the placed papers it links to, other than the seed."""
    is_todo = np.zeros(len(xy), dtype=bool)
    is_todo[todo] = True
    n = len(xy)
    sums = np.zeros((n, 2))
    count = np.zeros(n)
    for a, b in ((i, j), (j, i)):
        ok = is_todo[a] & done[b] & (b != seed)
        count += np.bincount(a[ok], minlength=n)
        for axis in (0, 1):
            sums[:, axis] += np.bincount(a[ok], weights=xy[b[ok], axis], minlength=n)
    pulled = count > 0
    xy[pulled] = 0.5 * xy[pulled] + 0.5 * sums[pulled] / count[pulled, None]


def cost(n: int, m: int) -> int:
    """Force units of one iteration on n nodes and m edges: igraph compares every pair of these compact layouts
    (a unit is the work on an edge, and a pair costs about a twelfth of that)."""
    return m + n * n // 12 + n


def _turn(index: int) -> tuple[float, float]:
    a = index * 2.399963229728653  # the golden angle: later seeds go round the picture
    return math.cos(a), math.sin(a)


def fruchterman_reingold(
    n: int,
    i: np.ndarray,
    j: np.ndarray,
    start: np.ndarray,
    iters: int,
    lo: np.ndarray | None = None,
    hi: np.ndarray | None = None,
    start_temp: float | None = None,
) -> np.ndarray:
    """igraph's Fruchterman-Reingold from ``start`` (within the boxes lo-hi where given), seeded: deterministic."""
    g = ig.Graph(n=n, edges=np.column_stack([i, j]).tolist(), directed=False)
    kwargs: dict = {}
    if lo is not None and hi is not None:
        kwargs = {
            "minx": lo[:, 0].tolist(),
            "maxx": hi[:, 0].tolist(),
            "miny": lo[:, 1].tolist(),
            "maxy": hi[:, 1].tolist(),
        }
    if start_temp is not None:
        kwargs["start_temp"] = start_temp
    with IGRAPH_RNG_LOCK:  # igraph's FR draws random numbers even from a given start: seed them
        ig.set_random_number_generator(random.Random(n))
        try:
            layout = g.layout_fruchterman_reingold(seed=start.tolist(), niter=int(iters), grid="nogrid", **kwargs)
        finally:
            ig.set_random_number_generator(random)
    return np.asarray(layout.coords, dtype=float).reshape(n, 2)


def scale_to_px(coords: np.ndarray, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, float]:
    """Centre on the seed (row 0) and scale to pixels: median edge ``EDGE_LENGTH``, and most nodes at least
    ``NODE_GAP`` from their nearest neighbour (leaves of a star crowd together in a plain force layout).
    Returns the pixels and the scale (px per unit)."""
    coords = coords - coords[0]
    median = float(np.median(np.hypot(*(coords[i] - coords[j]).T))) if len(i) else 0.0
    scale = EDGE_LENGTH / (median or 1.0)
    nn = nearest_distances(coords * scale)
    if len(nn):
        low = float(np.percentile(nn, 20))
        if 0 < low < NODE_GAP:
            scale *= min(4.0, NODE_GAP / low)
    return coords * scale, scale


def force(store: Store, sub: Subgraph) -> tuple[np.ndarray, np.ndarray]:
    """(rows, (n, 2) px) of the force layout of a view: the seed chain, then each expanded paper's new
    neighbours on free arcs around it (in walk order), then papers with nothing placed to go around (a selected
    paper out of view) on a ring around everything."""
    rows = sub.layout_rows if sub.layout_rows is not None else sub.rows
    chain = seed_chain(store, sub.seeds, sub.limit)
    with store.row_slots() as slots:
        slots.add(chain.rows)
        at = slots.positions(rows)
    done = at >= 0
    xy = np.zeros((len(rows), 2))
    xy[done] = chain.xy[at[done]]
    if done.all():
        return rows, xy
    groups = [g for g in sub.layout_groups if not done[g.start : g.end].all()]
    if groups:
        where = []  # each group's paper, placed before the group (a few compares: cheaper than row slots)
        for g in groups:
            at_paper = np.flatnonzero(rows[: g.start] == g.paper)
            where.append(int(at_paper[0]) if len(at_paper) else -1)
        around = dict(chain.around)
        taken: list = [chain.tree if len(chain.rows) > 32 else chain.xy]  # a few points: compared directly
        taken.append(chain.seed_rooms)  # the seeds' titles keep their room
        last: np.ndarray | None = None  # the group placed last, a tree once a next group needs it
        for g, k in zip(groups, where, strict=True):
            if k < 0 or not done[k]:
                continue  # what brought them in is not placed: the ring below
            if last is not None:
                taken.append(cKDTree(last) if len(last) > 32 else last)
            todo = g.start + np.flatnonzero(~done[g.start : g.end])
            last, around[g.paper] = free_arc_xy(
                (float(xy[k, 0]), float(xy[k, 1])), chain.middle, len(todo), taken, skip=around.get(g.paper, 0)
            )
            xy[todo] = last
            done[todo] = True
    pending = np.flatnonzero(~done)
    if len(pending):  # no placed parent (a selected paper out of view): a ring around everything
        middle = chain.middle
        spread = max(float(np.ptp(xy[done], axis=0).max()) if done.sum() > 1 else 0.0, 200.0) * 0.7
        a = 2 * math.pi * np.arange(len(pending)) / len(pending) - math.pi / 2
        xy[pending] = np.column_stack([middle[0] + spread * np.cos(a), middle[1] + spread * np.sin(a)])
    return rows, xy
