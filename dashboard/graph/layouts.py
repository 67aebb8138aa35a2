"""Node positions computed on the server (the browser only draws them: Cytoscape ``preset``).

Three layouts, each deterministic (the same state gives the same picture after a reload):

* ``force``: igraph Fruchterman-Reingold on the seeds and their neighbours (cached per seed set),
  then the neighbours of each expanded paper on arcs around it, facing away from the centre; an
  expansion therefore never moves what is already on screen.
* ``timeline``: x = year, papers of one year stacked in a column around the centre line, seeds on it.
* ``concentric``: seeds in the middle, then rings of papers from most to least cited, each ring
  ordered by year.

Positions are computed on ``Subgraph.layout_rows`` (the view without filters), so a filter only
hides nodes and never moves the others.
"""

from __future__ import annotations

import math
import random
import threading
from collections import OrderedDict
from collections.abc import Sequence

import igraph as ig
import numpy as np

from dashboard.graph.neighbourhood import Subgraph
from dashboard.store import Store

Positions = dict[int, tuple[float, float]]
EDGE_LENGTH = 110.0  # px, median edge length of a force layout
NODE_GAP = 46.0  # px between nodes on an arc or in a column
YEAR_GAP = 300.0  # px between the columns of the timeline
_CACHE: OrderedDict[tuple, Positions] = OrderedDict()
_CACHE_SIZE = 64
_LOCK = threading.Lock()
_RNG_LOCK = threading.Lock()


def _jitter(row: int, salt: int = 0) -> tuple[float, float]:
    """A fixed pseudo-random unit offset per row (deterministic, no global RNG)."""
    h = (row * 2654435761 + salt * 40503) & 0xFFFFFFFF
    a = (h % 6283) / 1000.0
    return math.cos(a), math.sin(a)


def force_base(store: Store, seeds: Sequence[int], rows: Sequence[int], parent: dict[int, int]) -> Positions:
    """Fruchterman-Reingold positions of the seeds and their neighbours, scaled to pixels."""
    key = (store.meta.get("build_id"), id(store), tuple(seeds), tuple(rows))
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    rows_arr = np.asarray(rows, dtype=np.int64)
    where = {r: i for i, r in enumerate(rows)}
    src, dst = store.edges_among(rows_arr)
    edges = [(where[a], where[b]) for a, b in zip(src.tolist(), dst.tolist(), strict=True)]
    n = len(rows)
    # start: seeds on a circle, every other paper near the seed that brought it in
    start = []
    ring = max(1.0, math.sqrt(n) / 2)
    for i, r in enumerate(rows):
        if r in seeds:
            k = list(seeds).index(r)
            a = 2 * math.pi * k / max(1, len(seeds))
            start.append([ring * math.cos(a) if len(seeds) > 1 else 0.0, ring * math.sin(a) if len(seeds) > 1 else 0.0])
        else:
            p = parent.get(r)
            base = start[where[p]] if p is not None and where.get(p, n) < i else [0.0, 0.0]
            jx, jy = _jitter(r)
            start.append([base[0] + jx, base[1] + jy])
    if n == 1:
        coords = np.zeros((1, 2))
    else:
        g = ig.Graph(n=n, edges=edges, directed=False)
        with _RNG_LOCK:  # igraph's FR draws random numbers even from a given start: seed them
            ig.set_random_number_generator(random.Random(n))
            try:
                layout = g.layout_fruchterman_reingold(seed=start, niter=300, grid="nogrid" if n < 1500 else "grid")
            finally:
                ig.set_random_number_generator(random)
        coords = np.asarray(layout.coords, dtype=float)
    coords = _scale(coords, src=[where[a] for a in src.tolist()], dst=[where[b] for b in dst.tolist()])
    out = {r: (float(coords[i, 0]), float(coords[i, 1])) for i, r in enumerate(rows)}
    with _LOCK:
        _CACHE[key] = out
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return out


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


def place_around(centre: tuple[float, float], away_from: tuple[float, float], rows: Sequence[int],
                 occupied: int = 0) -> Positions:
    """Arcs of nodes around ``centre`` facing away from ``away_from`` (the middle of the picture)."""
    out: Positions = {}
    if not rows:
        return out
    cx, cy = centre
    dx, dy = cx - away_from[0], cy - away_from[1]
    facing = math.atan2(dy, dx) if (dx or dy) else -math.pi / 2
    radius = 130.0 + 40.0 * occupied
    i = 0
    while i < len(rows):
        span = min(2 * math.pi, max(math.pi / 2, (len(rows) - i) * NODE_GAP / radius))
        capacity = max(1, int(span * radius / NODE_GAP))
        chunk = rows[i:i + capacity]
        for j, r in enumerate(chunk):
            a = facing + (j - (len(chunk) - 1) / 2) * (span / max(len(chunk), 1))
            out[r] = (cx + radius * math.cos(a), cy + radius * math.sin(a))
        i += capacity
        radius += NODE_GAP * 1.3
    return out


def force(store: Store, sub: Subgraph) -> Positions:
    rows = sub.layout_rows.tolist() if sub.layout_rows is not None else sub.rows.tolist()
    parent = sub.layout_parent or sub.parent
    seeds = set(sub.seeds)
    base_rows = [r for r in rows if r in seeds or parent.get(r) in seeds]
    pos = dict(force_base(store, sub.seeds, base_rows, parent))
    placed = np.array(list(pos.values())) if pos else np.zeros((1, 2))
    middle = (float(placed[:, 0].mean()), float(placed[:, 1].mean()))
    children: dict[int, list[int]] = {}
    for r in rows:
        if r not in pos:
            children.setdefault(parent.get(r, -1), []).append(r)
    # parents in the order they were expanded; their children are placed after them
    for p in list(children):
        if p == -1:
            continue
        if p not in pos:
            continue
        pos.update(place_around(pos[p], middle, children.pop(p)))
    pending = [r for kids in children.values() for r in kids]
    for k, r in enumerate(pending):  # no placed parent (e.g. a selected paper out of view): outer ring
        p = parent.get(r)
        if p in pos:
            pos.update(place_around(pos[p], middle, [r]))
            continue
        spread = max(float(np.ptp(placed, axis=0).max()) if len(placed) > 1 else 0.0, 200.0)
        a = 2 * math.pi * k / max(1, len(pending)) - math.pi / 2
        pos[r] = (middle[0] + spread * 0.7 * math.cos(a), middle[1] + spread * 0.7 * math.sin(a))
    return pos


def timeline(store: Store, sub: Subgraph) -> Positions:
    rows = sub.layout_rows.tolist() if sub.layout_rows is not None else sub.rows.tolist()
    seeds = set(sub.seeds)
    years = store.year[np.asarray(rows, dtype=np.int64)] if rows else np.empty(0)
    known = years[years >= 0]
    unknown_col = (int(known.min()) - 2) if len(known) else 0
    columns: dict[int, list[int]] = {}
    for r, y in zip(rows, years.tolist(), strict=True):
        columns.setdefault(y if y >= 0 else unknown_col, []).append(r)
    pos: Positions = {}
    y0 = int(known.min()) if len(known) else 0
    for year, members in columns.items():
        members.sort(key=lambda r: (r not in seeds, -int(store.citations[r]), r))
        x = (year - y0) * YEAR_GAP
        for k, r in enumerate(members):
            slot = (k + 1) // 2 * (1 if k % 2 else -1)  # 0, +1, -1, +2, -2, ...
            pos[r] = (x, slot * NODE_GAP * 1.15)
    return pos


def concentric(store: Store, sub: Subgraph) -> Positions:
    rows = sub.layout_rows.tolist() if sub.layout_rows is not None else sub.rows.tolist()
    seeds = [r for r in rows if r in set(sub.seeds)]
    rest = sorted((r for r in rows if r not in set(seeds)), key=lambda r: (-int(store.citations[r]), r))
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
    return pos


LAYOUT_FUNCTIONS = {"force": force, "timeline": timeline, "concentric": concentric}


def positions(store: Store, sub: Subgraph, layout: str) -> Positions:
    """Positions of every visible node (a superset may be returned)."""
    return LAYOUT_FUNCTIONS.get(layout, force)(store, sub)
