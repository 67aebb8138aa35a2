"""Node positions computed on the server (the browser only draws them: Cytoscape ``preset``).

Three layouts, each deterministic (the same state gives the same picture after a reload) and each bounded in work
(even a view at the node cap, :data:`~dashboard.graph.neighbourhood.MAX_NODES`, is laid out quickly):

* ``force`` (:mod:`dashboard.graph.force_layout`): the seeds and their neighbours placed step by step, a step never
  moving what an earlier one placed (igraph Fruchterman-Reingold within a budget, free arcs, nudging off papers
  already drawn), then the neighbours of each expanded paper on free arcs around it, facing away from the centre.
* ``timeline``: x = publication month, y = citers in the dataset on a log scale; papers that would overlap
  move up or down just enough (most important placed first); tick labels along the bottom and the left.
* ``concentric``: seeds in the middle, then rings of papers from most to least cited, each ring
  ordered by year.

Positions are computed on ``Subgraph.layout_rows`` (the view without filters), so a filter only
hides nodes and never moves the others.
"""

from __future__ import annotations

import bisect
import math

import numpy as np

from dashboard.dataset.store import Store
from dashboard.graph.force_layout import force, fruchterman_reingold, scale_to_px
from dashboard.graph.geometry import NODE_GAP, clear_rooms, push_apart, title_owners
from dashboard.graph.neighbourhood import Subgraph

Positions = dict[int, tuple[float, float]]
Placed = tuple[np.ndarray, np.ndarray]  # rows, and their (n, 2) positions


def _placed(pos: Positions) -> Placed:
    rows = np.fromiter(pos.keys(), dtype=np.int64, count=len(pos))
    return rows, np.array(list(pos.values()), dtype=float).reshape(-1, 2)


def node_radius(in_cited: int | np.ndarray, seed: bool | np.ndarray) -> float | np.ndarray:
    """Half the drawn size of a node, or of each of arrays of them (assets/js/logic/map-elements.js, nodeSize:
    9 + 4 log10(1 + citers), seeds at least 28). Small against the layouts' gaps, so papers never overlap and
    there is room for titles between them."""
    size = 9 + 4 * np.log10(1 + np.maximum(in_cited, 0))
    return np.where(seed, np.maximum(size, 28), size) / 2


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


CITES_TICKS = (1, 10, 100, 1000, 10000)


def timeline_scale(n: int, span: float, top: int) -> tuple[float, float]:
    """(px per year, px per decade of citers) of a timeline of n papers over ``span`` years whose most cited has
    ``top`` citers: 3.5 times as wide as its citation scale is high, as most papers crowd the lower part; high in
    proportion to the square root of n, so that papers keep one size on screen from small to big timelines."""
    height = max(300.0, 26.0 * math.sqrt(max(n, 1)))
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
    """x = publication month, y = citers in the dataset on a log scale (more cited higher, as Litmaps draws it).
    Each paper, seeds first then most cited first, takes the free spot nearest its own height, moved up or down only
    as far as the papers already there require, so that no two bodies overlap: the plane is cut in columns half a
    node wide, and a paper's box takes its height in every column it spans. Papers of unknown year: a column at the
    left. The work is a sorted-list search per paper (no pairwise tests): cheap even at the node cap."""
    rows = np.asarray(sub.layout_rows if sub.layout_rows is not None else sub.rows, dtype=np.int64)
    if not len(rows):
        return rows, np.empty((0, 2))
    seeds = set(sub.seeds)
    lo, _, px_year, px_decade = timeline_frame(store, rows)
    when = month_of(store, rows)
    when = np.where(np.isnan(when), lo - 1.0, when)  # unknown year: a column before the first year
    cites = store.in_cited[rows].astype(np.int64)
    is_seed = np.isin(rows, list(seeds))
    radius = node_radius(cites, is_seed) + 1.5
    # columns a quarter of a node wide: a paper takes its height in each column its body spans (as a box, so that
    # boxes, and so bodies, never overlap) and x stays its own date
    width = float(radius[~is_seed].max(initial=radius.max())) / 2
    xs = (when - lo) * px_year
    first = np.floor((xs - radius) / width).astype(np.int64)
    last = np.floor((xs + radius) / width).astype(np.int64)
    y0 = -np.log10(1 + cites) * px_decade
    slack = 2 * float(radius.min())
    order = np.lexsort((rows, -cites, ~is_seed))
    columns: dict[int, tuple[list[float], list[float]]] = {}  # column -> sorted, disjoint (starts, ends) taken
    ys = np.zeros(len(rows))
    for k in order.tolist():
        r = float(radius[k])
        span = range(int(first[k]), int(last[k]) + 1)
        y = _free_y(columns, span, float(y0[k]), r)
        ys[k] = y
        for c in span:
            _take(columns.setdefault(c, ([], [])), y - r, y + r, slack)
    return rows, np.column_stack([xs, ys])


def _free_y(columns: dict[int, tuple[list[float], list[float]]], span: range, y0: float, r: float) -> float:
    """The height nearest ``y0`` where ``[y - r, y + r]`` is free in every column of ``span``: searched upwards, then
    downwards no further than that; each search moves past the taken interval in its way and stops once every
    column in turn has had nothing in the way."""
    cols = [got for got in map(columns.get, span) if got]
    n = len(cols)
    if not n:
        return y0
    bisect_right = bisect.bisect_right
    best = None
    for up in (True, False):
        y, i, clear = y0, 0, 0
        while clear < n:
            starts, ends = cols[i]
            k = bisect_right(ends, y - r)  # the first interval ending below the body's top
            if k < len(starts) and starts[k] < y + r:
                y = starts[k] - r - 1e-6 if up else ends[k] + r + 1e-6
                clear = 0
                if best is not None and y - y0 >= y0 - best:
                    break  # downwards is no nearer than upwards
            else:
                clear += 1
                i = (i + 1) % n
        if y == y0:
            return y0
        if best is None or abs(y - y0) < abs(best - y0):
            best = y
    return best if best is not None else y0


def _take(col: tuple[list[float], list[float]], a: float, b: float, slack: float) -> None:
    """Mark ``[a, b]`` taken in a column, merged with the intervals it touches or leaves a gap of less than ``slack``
    to (the smallest body: no paper fits there, and a search then passes one interval, not a stack of them)."""
    starts, ends = col
    k = bisect.bisect_left(ends, a - slack)
    m = k
    while m < len(starts) and starts[m] <= b + slack:
        a, b = min(a, starts[m]), max(b, ends[m])
        m += 1
    starts[k:m] = [a]
    ends[k:m] = [b]


def timeline_axis(
    store: Store, rows: np.ndarray, xy: np.ndarray, shown: np.ndarray, years: tuple[int, int] | None = None
) -> list[dict]:
    """Tick labels of a timeline (not papers: class ``axis``): years along the bottom, citer counts in a column at the
    left (``c...`` ids; their labels end at their place) with the unit ``citing`` in the corner under them.
    ``rows``, ``xy``: what :func:`timeline` placed (the layout's rows, so that the ticks share its scale); ``shown``:
    the places of the papers in view; ``years``: a years filter, whose years alone get ticks (the map fits them)."""
    if not np.any(store.year[rows] >= 0) or not len(shown):
        return []
    lo, hi, px_year, px_decade = timeline_frame(store, rows)
    first, last = (max(lo, years[0]), min(hi - 1, years[1])) if years else (lo, hi - 1)
    top = int(store.in_cited[rows].max(initial=0))
    bottom = float(xy[:, 1].max()) + 70.0
    step = max(1, math.ceil((last + 1 - first) / 14))  # at most ~14 year ticks
    out = [
        {"id": f"y{y}", "label": str(y), "x": round((y + 0.5 - lo) * px_year, 1), "y": round(bottom, 1)}
        for y in range(first, last + 1, step)
    ]
    left = float(shown[:, 0].min()) - 24.0
    highest = float(shown[:, 1].min())
    for c in CITES_TICKS:
        y = -math.log10(1 + c) * px_decade
        if 0 < c <= max(top, 1) and y >= highest - px_decade / 2:  # no "0": the bottom row is 0
            out.append({"id": f"c{c}", "label": f"{c:,}", "x": round(left, 1), "y": round(y, 1)})
    out.append({"id": "cunit", "label": "citing", "x": round(left, 1), "y": round(bottom, 1)})
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
        ring = rest[i : i + capacity]
        ring.sort(key=lambda r: (int(store.year[r]), r))
        for j, r in enumerate(ring):
            a = 2 * math.pi * j / len(ring) - math.pi / 2
            pos[r] = (radius * math.cos(a), radius * math.sin(a))
        i += capacity
        radius += NODE_GAP * 2.2
    return _placed(pos)


def similar_force(store: Store, sub: Subgraph) -> Placed:
    """A similarity map: a force layout of its similarity links (stronger links pull harder: edges repeated by
    strength), the first seed in the middle, scaled like the citation maps, pushed apart where bodies meet, with
    room for the titles of the seeds and the most cited (:func:`clear_rooms`). Laid out on the map without its
    filters (``layout_rows`` and ``layout_links``), so that a filter moves no paper."""
    rows = sub.layout_rows if sub.layout_rows is not None else sub.rows
    n = len(rows)
    if n <= 1:
        return rows, np.zeros((n, 2))
    if sub.layout_links is not None:
        li, lj, weight = sub.layout_links
    else:
        li, lj = sub.edge_i, sub.edge_j
        weight = sub.edge_weight if sub.edge_weight is not None else np.ones(len(sub.edge_i))
    times = np.clip(np.round(weight / max(float(weight.max(initial=0)), 1e-9) * 3), 1, 3).astype(np.int64)
    i, j = np.repeat(li, times), np.repeat(lj, times)
    angle = np.arange(n) * 2.399963229728653
    start = np.column_stack([np.cos(angle), np.sin(angle)]) * np.sqrt(np.arange(n) + 1.0)[:, None]
    coords = fruchterman_reingold(n, i, j, start, 300)
    xy, _ = scale_to_px(coords, li, lj)
    xy = push_apart(None, xy, NODE_GAP, rounds=3)
    movable = np.ones(n, dtype=bool)
    movable[0] = False  # the first seed, in the middle
    owners = title_owners(store.in_cited[rows], np.flatnonzero(np.isin(rows, list(sub.seeds))), k=max(12, n // 2))
    return rows, clear_rooms(xy, owners, movable, NODE_GAP * 0.6)


def path_force(store: Store, sub: Subgraph) -> Placed:
    """Chains between two papers, read left to right: one end at the left, the other at the right, each chain's
    papers in their order between them, chains one above the other (a paper on several chains where it first
    appears)."""
    rows = sub.layout_rows if sub.layout_rows is not None else sub.rows
    pos: Positions = {}
    for c, chain in enumerate(sub.chains):
        steps = max(len(chain) - 1, 1)
        for k, r in enumerate(chain):
            if r not in pos:
                pos[int(r)] = (k * 900.0 / steps, (c - (len(sub.chains) - 1) / 2) * 160.0 if 0 < k < steps else 0.0)
    for k, r in enumerate(r for r in rows.tolist() if r not in pos):  # ends without a chain: side by side
        pos[r] = (k * 900.0, 0.0)
    return _placed(pos)


LAYOUT_FUNCTIONS = {"force": force, "timeline": timeline, "concentric": concentric}
OWN_FORCE = {"similar": similar_force, "path": path_force}  # maps that are not a walk have their own force layout


def positions(store: Store, sub: Subgraph, layout: str) -> Placed:
    """(rows, (n, 2) positions) covering every visible node (and the layout's other rows)."""
    if layout == "force" and sub.kind in OWN_FORCE:
        return OWN_FORCE[sub.kind](store, sub)
    return LAYOUT_FUNCTIONS.get(layout, force)(store, sub)


def positions_of(placed: Placed, rows: np.ndarray) -> np.ndarray:
    """The (len(rows), 2) positions of ``rows`` in a placement (rows must all be placed)."""
    lrows, lxy = placed
    if lrows is rows:
        return lxy
    order = np.argsort(lrows, kind="stable")
    return lxy[order[np.searchsorted(lrows[order], rows)]]
