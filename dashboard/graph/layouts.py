"""Node positions computed on the server (the browser only draws them: Cytoscape ``preset``).

Three layouts, each deterministic (the same state gives the same picture after a reload):

* ``force``: igraph Fruchterman-Reingold on the seeds and their neighbours (cached per seed set),
  then the neighbours of each expanded paper on arcs around it, facing away from the centre; an
  expansion therefore never moves what is already on screen.
* ``timeline``: x = publication month, y = citers in the dataset on a log scale; papers that would overlap
  move up or down just enough (most important placed first); tick labels along the bottom and the left.
* ``concentric``: seeds in the middle, then rings of papers from most to least cited, each ring
  ordered by year.

Positions are computed on ``Subgraph.layout_rows`` (the view without filters), so a filter only
hides nodes and never moves the others.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Sequence
from functools import lru_cache

import igraph as ig
import numpy as np

from dashboard.graph.neighbourhood import Subgraph
from dashboard.store import Store

Positions = dict[int, tuple[float, float]]
Placed = tuple[np.ndarray, np.ndarray]  # rows, and their (n, 2) positions
EDGE_LENGTH = 110.0  # px, median edge length of a force layout
SMALL_STAR = 24  # one seed with at most this many neighbours: a ring, no force layout needed
NODE_GAP = 46.0  # px between nodes on an arc or in a column
_RNG_LOCK = threading.Lock()
_LOCK = threading.Lock()
_BASE_CACHE: dict[tuple, tuple[np.ndarray, tuple[float, float]]] = {}  # insertion-ordered; the oldest goes first


def _jitter(row: int, salt: int = 0) -> tuple[float, float]:
    """A fixed pseudo-random unit offset per row (deterministic, no global RNG)."""
    h = (row * 2654435761 + salt * 40503) & 0xFFFFFFFF
    a = (h % 6283) / 1000.0
    return math.cos(a), math.sin(a)


def force_base(store: Store, seeds: Sequence[int], rows: np.ndarray, parents: np.ndarray,
               edges: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, tuple[float, float]]:
    """(len(rows), 2) Fruchterman-Reingold positions of the seeds and their neighbours (``rows``, seeds
    first; ``parents``: the row that brought each in), scaled to pixels, and their centre; cached.
    ``edges``: the citations among ``rows`` as positions, when the caller has them."""
    if len(seeds) == 1 and len(rows) <= SMALL_STAR:  # a star: its force layout is a ring, drawn directly
        ring = np.vstack([np.zeros((1, 2)), arc_xy((0.0, 0.0), (0.0, 0.0), len(rows) - 1, full=True)])
        return ring, _centre(ring)
    key = (store, tuple(seeds), rows.tobytes(), parents.tobytes())
    cached = _BASE_CACHE.get(key)
    if cached is None:
        xy = _force_base(seeds, rows.tolist(), parents.tolist(), edges or store.edge_positions(rows))
        xy.setflags(write=False)
        cached = xy, _centre(xy)
        with _LOCK:
            _BASE_CACHE[key] = cached
            while len(_BASE_CACHE) > 64:
                _BASE_CACHE.pop(next(iter(_BASE_CACHE)))
    return cached


def _centre(xy: np.ndarray) -> tuple[float, float]:
    x, y = xy.mean(axis=0).tolist() if len(xy) else (0.0, 0.0)
    return x, y


def _force_base(seeds: Sequence[int], rows: list[int], parents: list[int],
                edges: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    where = {r: i for i, r in enumerate(rows)}
    si, di = edges[0].tolist(), edges[1].tolist()
    n = len(rows)
    seeds = list(seeds)
    # start: seeds on a circle, every other paper near the seed that brought it in
    start = []
    ring = max(1.0, math.sqrt(n) / 2)
    for i, (r, p) in enumerate(zip(rows, parents, strict=True)):
        if r in seeds:
            a = 2 * math.pi * seeds.index(r) / len(seeds)
            start.append([ring * math.cos(a), ring * math.sin(a)] if len(seeds) > 1 else [0.0, 0.0])
        else:
            base = start[where[p]] if p in where and where[p] < i else [0.0, 0.0]
            jx, jy = _jitter(r)
            start.append([base[0] + jx, base[1] + jy])
    if n == 1:
        coords = np.zeros((1, 2))
    else:
        g = ig.Graph(n=n, edges=list(zip(si, di, strict=True)), directed=False)
        with _RNG_LOCK:  # igraph's FR draws random numbers even from a given start: seed them
            ig.set_random_number_generator(random.Random(n))
            try:
                layout = g.layout_fruchterman_reingold(seed=start, niter=min(300, 60 + 4 * n),
                                                       grid="nogrid" if n < 1500 else "grid")
            finally:
                ig.set_random_number_generator(random)
        coords = np.asarray(layout.coords, dtype=float)
    return _scale(coords, src=si, dst=di)


def _scale(coords: np.ndarray, src: list[int], dst: list[int]) -> np.ndarray:
    """Centre and scale to pixels: median edge ``EDGE_LENGTH``, and most nodes at least ``NODE_GAP`` from
    their nearest neighbour (leaves of a star crowd together in a plain force layout)."""
    coords = coords - coords.mean(axis=0)
    if src:
        lengths = np.hypot(*(coords[src] - coords[dst]).T)
        median = float(np.median(lengths)) or 1.0
    else:
        median = 1.0
    coords = coords * (EDGE_LENGTH / median)
    nn = _nearest_distances(coords)
    if len(nn):
        low = float(np.percentile(nn, 20))
        if 0 < low < NODE_GAP:
            coords = coords * min(4.0, NODE_GAP / low)
    return coords


def _nearest_distances(coords: np.ndarray, chunk: int = 512) -> np.ndarray:
    n = len(coords)
    if n < 2:
        return np.empty(0)
    out = np.empty(n)
    for start in range(0, n, chunk):
        block = coords[start:start + chunk]
        d = np.hypot(block[:, None, 0] - coords[None, :, 0], block[:, None, 1] - coords[None, :, 1])
        d[np.arange(len(block)), np.arange(start, start + len(block))] = np.inf
        out[start:start + chunk] = d.min(axis=1)
    return out


def arc_xy(centre: tuple[float, float], away_from: tuple[float, float], k: int, full: bool = False,
           skip: int = 0) -> np.ndarray:
    """(k, 2) positions on arcs around ``centre`` facing away from ``away_from`` (the middle of the
    picture): the first arc holds as many as fit at ``NODE_GAP`` apart, the next ones further out.
    ``full``: whole circles (for a node in the middle). ``skip``: places already taken around ``centre``
    (the arcs continue after them)."""
    dx, dy = centre[0] - away_from[0], centre[1] - away_from[1]
    facing = math.atan2(dy, dx) if (dx or dy) else -math.pi / 2
    turned = _arcs(k, full, skip) * complex(math.cos(facing), math.sin(facing)) + complex(*centre)
    return turned.view(np.float64).reshape(k, 2)


@lru_cache(maxsize=1024)
def _arcs(k: int, full: bool, skip: int) -> np.ndarray:
    """:func:`arc_xy` around 0 facing angle 0, as complex numbers (read-only; a pure function of three
    small ints)."""
    radii, spans, sizes = [], [], []
    radius, left = 130.0, k + skip
    while left > 0:  # how many go on each arc: a few numbers, then one vectorised pass
        span = 2 * math.pi if full else min(2 * math.pi, max(math.pi / 2, left * NODE_GAP / radius))
        m = min(max(1, int(span * radius / NODE_GAP)), left)
        radii.append(radius)
        spans.append(span)
        sizes.append(m)
        left -= m
        radius += NODE_GAP * 1.3
    sizes_arr = np.asarray(sizes, dtype=np.int64)
    arc = np.repeat(np.arange(len(sizes)), sizes_arr)[skip:]
    j = np.arange(skip, skip + k) - (np.cumsum(sizes_arr) - sizes_arr)[arc]
    m = sizes_arr[arc]
    angles = (j - (m - 1) / 2) * (np.asarray(spans)[arc] / m)
    r = np.asarray(radii)[arc]
    out = r * np.exp(1j * angles)
    out.setflags(write=False)
    return out


def force(store: Store, sub: Subgraph) -> Placed:
    """Force layout of the seeds and their neighbours, then each expanded paper's own on arcs around it
    (in walk order: a paper is placed before what it brings in)."""
    rows = sub.layout_rows if sub.layout_rows is not None else sub.rows
    parents = sub.layout_parents if sub.layout_parents is not None else np.full(len(rows), -1, np.int64)
    k = sub.base_count or len(sub.seeds)
    edges = None
    if rows is sub.rows:  # the base is a prefix of the visible rows: its edges are among the visible ones
        keep = (sub.edge_i < k) & (sub.edge_j < k)
        edges = (sub.edge_i[keep], sub.edge_j[keep])
    xy = np.full((len(rows), 2), np.nan)
    middle = (0.0, 0.0)
    if k:
        xy[:k], middle = force_base(store, sub.seeds, rows[:k], parents[:k], edges)
    seeds = set(sub.seeds)
    around: dict[int, int] = {}  # papers placed around each paper so far
    for g in sub.layout_groups:
        if g.paper in seeds:
            continue
        at = np.flatnonzero(rows[: g.start] == g.paper)
        if not len(at) or np.isnan(xy[at[0], 0]):
            continue  # what brought it in is not placed: the ring below
        centre = (float(xy[at[0], 0]), float(xy[at[0], 1]))
        xy[g.start:g.end] = arc_xy(centre, middle, g.end - g.start, skip=around.get(g.paper, 0))
        around[g.paper] = around.get(g.paper, 0) + g.end - g.start
    pending = np.flatnonzero(np.isnan(xy[:, 0]))
    if len(pending):  # no placed parent (a selected paper out of view): a ring around everything
        placed = xy[~np.isnan(xy[:, 0])]
        spread = max(float(np.ptp(placed, axis=0).max()) if len(placed) > 1 else 0.0, 200.0) * 0.7
        a = 2 * math.pi * np.arange(len(pending)) / len(pending) - math.pi / 2
        xy[pending] = np.column_stack([middle[0] + spread * np.cos(a), middle[1] + spread * np.sin(a)])
    return rows, xy


def _placed(pos: Positions) -> Placed:
    rows = np.fromiter(pos.keys(), dtype=np.int64, count=len(pos))
    return rows, np.array(list(pos.values()), dtype=float).reshape(-1, 2)


def node_radius(in_cited: int, seed: bool) -> float:
    """Half the drawn size of a node (assets/citemap.js: 14 + 5.5 log10(1 + citers), seeds at least 42)."""
    size = 14 + 5.5 * math.log10(1 + max(in_cited, 0))
    return (max(size, 42) if seed else size) / 2


def month_of(store: Store, rows: np.ndarray) -> np.ndarray:
    """Publication time of each row in years with the month as a fraction (2017.42 = June 2017): the first-posted
    date where known, else the month of a new-style arXiv id (``1706.03762``: June 2017), else a fixed point of
    the year chosen by the row (so that papers known only by year spread over it); NaN if the year is unknown."""
    years = store.year[rows].astype(float)
    posted = store.papers.column("posted").take(np.asarray(rows, dtype=np.int64)).to_pylist()
    ids = store.ids(rows)
    # month unknown: spread over the year by a fixed hash of the row, not all on mid-year
    spread = np.asarray([(int(r) * 2654435761 & 0xFFFF) / 65536 for r in np.asarray(rows).tolist()])
    out = np.where(years >= 0, years + 0.04 + 0.92 * spread, np.nan)
    for k, (date, pid) in enumerate(zip(posted, ids, strict=True)):
        if years[k] < 0:
            continue
        month = None
        if date and len(date) >= 7 and date[5:7].isdigit():
            month = int(date[5:7])
        elif len(pid) >= 9 and pid[4] == "." and pid[:4].isdigit() and 2000 + int(pid[:2]) == years[k]:
            month = int(pid[2:4])
        if month and 1 <= month <= 12:
            out[k] = years[k] + (month - 0.5) / 12
    return out


CITES_TICKS = (0, 1, 10, 100, 1000, 10000)


def timeline_scale(n: int, span: float, top: int) -> tuple[float, float]:
    """(px per year, px per decade of citers) of a timeline of n papers over ``span`` years whose most cited has
    ``top`` citers: 3.5 times as wide as its citation scale is high, as most papers crowd the lower part."""
    height = max(900.0, 26.0 * math.sqrt(max(n, 1)))
    return 3.5 * height / max(span, 1.0), height / (math.log10(1 + max(top, 1)) + 0.3)


def timeline_frame(store: Store, rows: np.ndarray) -> tuple[int, int, float, float]:
    """(first year, last year + 1, px per year, px per decade of citers) of a timeline of ``rows``: what the layout
    and its ticks share (a publication month always lies inside its year)."""
    years = store.year[rows]
    known = years[years >= 0]
    lo, hi = (int(known.min()), int(known.max()) + 1) if len(known) else (0, 1)
    px_year, px_decade = timeline_scale(len(rows), hi - lo + 1, int(store.in_cited[rows].max(initial=0)))
    return lo, hi, px_year, px_decade


def timeline(store: Store, sub: Subgraph) -> Placed:
    """x = publication month, y = citers in the dataset on a log scale (more cited higher, as Litmaps draws it);
    each paper, most important first, takes the free spot nearest its own: moved up or down only as far as the
    papers already placed require, so that no two bodies overlap. Papers of unknown year: a column at the left."""
    rows = np.asarray(sub.layout_rows if sub.layout_rows is not None else sub.rows, dtype=np.int64)
    if not len(rows):
        return rows, np.empty((0, 2))
    seeds = set(sub.seeds)
    lo, _, px_year, px_decade = timeline_frame(store, rows)
    when = month_of(store, rows)
    when = np.where(np.isnan(when), lo - 1.0, when)  # unknown year: a column before the first year
    cites = store.in_cited[rows].astype(np.int64)
    order = sorted(range(len(rows)), key=lambda k: (int(rows[k]) not in seeds, -int(cites[k]), int(rows[k])))
    cell = 2 * node_radius(int(cites.max(initial=0)), True) + 4
    grid: dict[tuple[int, int], list[tuple[float, float, float]]] = {}
    xy = np.zeros((len(rows), 2))
    for k in order:
        r = node_radius(int(cites[k]), int(rows[k]) in seeds) + 2
        x = (when[k] - lo) * px_year
        y0 = -math.log10(1 + cites[k]) * px_decade
        for step in range(4000):
            y = y0 + ((step + 1) // 2) * (1 if step % 2 else -1) * r * 0.75
            gx, gy = int(x // cell), int(y // cell)
            if all((x - ox) ** 2 + (y - oy) ** 2 >= (r + orad) ** 2
                   for dx in (-1, 0, 1) for dy in (-1, 0, 1) for ox, oy, orad in grid.get((gx + dx, gy + dy), ())):
                break
        grid.setdefault((gx, gy), []).append((x, y, r))
        xy[k] = (x, y)
    return rows, xy


def timeline_axis(store: Store, rows: np.ndarray, xy: np.ndarray) -> list[dict]:
    """Tick labels of a timeline (not papers: class ``axis``): years along the bottom, citer counts on the left.
    ``rows``, ``xy``: what :func:`timeline` placed (the layout's rows, so that the ticks share its scale)."""
    if not np.any(store.year[rows] >= 0):
        return []
    lo, hi, px_year, px_decade = timeline_frame(store, rows)
    top = int(store.in_cited[rows].max(initial=0))
    bottom = float(xy[:, 1].max()) + 70.0
    step = max(1, math.ceil((hi - lo) / 14))  # at most ~14 year ticks
    out = [{"id": f"y{y}", "label": str(y), "x": round((y + 0.5 - lo) * px_year, 1), "y": round(bottom, 1)}
           for y in range(lo, hi, step)]
    left = float(xy[:, 0].min()) - 140.0
    for c in CITES_TICKS:
        if c <= max(top, 1):
            label = f"{c:,} citing" if c else "0 citing"
            out.append({"id": f"c{c}", "label": label, "x": round(left, 1),
                        "y": round(-math.log10(1 + c) * px_decade, 1)})
    return out


def concentric(store: Store, sub: Subgraph) -> Placed:
    rows = sub.layout_rows.tolist() if sub.layout_rows is not None else sub.rows.tolist()
    seeds = [r for r in rows if r in set(sub.seeds)]
    rest = sorted((r for r in rows if r not in set(seeds)), key=lambda r: (-int(store.in_cited[r]), r))
    pos: Positions = {}
    if len(seeds) == 1:
        pos[seeds[0]] = (0.0, 0.0)
    else:
        for k, r in enumerate(seeds):
            a = 2 * math.pi * k / len(seeds) - math.pi / 2
            pos[r] = (90.0 * math.cos(a), 90.0 * math.sin(a))
    radius, i = 220.0, 0
    while i < len(rest):
        capacity = max(6, int(2 * math.pi * radius / (NODE_GAP * 1.2)))
        ring = rest[i:i + capacity]
        ring.sort(key=lambda r: (int(store.year[r]), r))
        for j, r in enumerate(ring):
            a = 2 * math.pi * j / len(ring) - math.pi / 2
            pos[r] = (radius * math.cos(a), radius * math.sin(a))
        i += capacity
        radius += NODE_GAP * 2.2
    return _placed(pos)


LAYOUT_FUNCTIONS = {"force": force, "timeline": timeline, "concentric": concentric}


def positions(store: Store, sub: Subgraph, layout: str) -> Placed:
    """(rows, (n, 2) positions) covering every visible node (and the layout's other rows)."""
    return LAYOUT_FUNCTIONS.get(layout, force)(store, sub)


def positions_of(placed: Placed, rows: np.ndarray) -> np.ndarray:
    """The (len(rows), 2) positions of ``rows`` in a placement (rows must all be placed)."""
    lrows, lxy = placed
    if lrows is rows:
        return lxy
    order = np.argsort(lrows, kind="stable")
    return lxy[order[np.searchsorted(lrows[order], rows)]]
