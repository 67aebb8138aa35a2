"""Plane geometry the layouts share: arcs of places around a paper, free places, nearest-neighbour gaps."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from scipy.spatial import cKDTree

from dashboard.graph import free_places

NODE_GAP = 46.0  # px between nodes on an arc


def arc_xy(
    centre: tuple[float, float], away_from: tuple[float, float], k: int, full: bool = False, skip: int = 0
) -> np.ndarray:
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


def free_arc_xy(
    centre: tuple[float, float],
    away_from: tuple[float, float],
    k: int,
    taken: Sequence[cKDTree | np.ndarray],
    skip: int = 0,
    gap: float = NODE_GAP * 0.7,
    full: bool = False,
) -> tuple[np.ndarray, int]:
    """``k`` places on the arcs of :func:`arc_xy` that are at least ``gap`` from every point ``taken`` (trees, or
    (m, 2) arrays of a few points): the arcs are walked outwards and places near a paper already drawn are passed
    over. Returns the places and how many arc places were used up (taken or not: the next call's ``skip``).
    ``full``: whole circles. (Few numpy calls: an expand places one such group, and must cost about a no-op
    request.)"""
    if k == 0:
        return np.empty((0, 2)), skip
    dx, dy = centre[0] - away_from[0], centre[1] - away_from[1]
    facing = math.atan2(dy, dx) if (dx or dy) else -math.pi / 2
    turn, at = complex(math.cos(facing), math.sin(facing)), complex(*centre)
    ask = k + k // 8 + 16  # room for the places near papers already drawn: usually one pass
    while True:  # one set of arcs for the whole group (their spacing depends on how many they hold)
        z = _arcs(ask, full, skip) * turn + at
        bad = None
        for points in taken:
            if isinstance(points, cKDTree):
                near = points.query_ball_point(centre, _reach(ask, full, skip) + gap)
                if not near:
                    continue
                if len(near) > 32:
                    hit = np.isfinite(
                        points.query(z.view(np.float64).reshape(ask, 2), k=1, distance_upper_bound=gap)[0]
                    )
                    bad = hit if bad is None else bad | hit
                    continue
                points = points.data[near]
            if not len(points):
                continue
            pz = np.ascontiguousarray(points, dtype=np.float64).view(np.complex128).ravel()
            hit = (np.abs(z[:, None] - pz[None, :]) < gap).any(axis=1)  # a few points: compared directly
            bad = hit if bad is None else bad | hit
        take = np.arange(k) if bad is None else np.flatnonzero(~bad)[:k]
        if len(take) == k:
            return np.ascontiguousarray(z[take]).view(np.float64).reshape(k, 2), skip + int(take[-1]) + 1
        ask *= 2


@lru_cache(maxsize=1024)
def _reach(k: int, full: bool, skip: int) -> float:
    """The radius of the outermost of :func:`_arcs`' places."""
    return float(np.abs(_arcs(k, full, skip)).max())


def nearest_distances(xy: np.ndarray) -> np.ndarray:
    """Distance from each point to its nearest other point (empty for fewer than two points)."""
    if len(xy) < 2:
        return np.empty(0)
    return cKDTree(xy).query(xy, k=2)[0][:, 1]


def settle(fixed: cKDTree, want: np.ndarray, free: np.ndarray, gap: float) -> np.ndarray:
    """Each point of ``want`` where it is, if no point of ``fixed`` is within ``gap`` and no point settled before
    it shares its cell (a square ``gap`` wide); else the point halfway to its ``free`` place if that is so; else that
    place (clear of ``fixed``). Vectorised: two passes."""
    out = free.copy()
    left = np.arange(len(want))
    cells = np.empty(0, np.int64)
    for t in (0.0, 0.5):
        cand = want[left] + t * (free[left] - want[left])
        ok = np.isinf(fixed.query(cand, k=1, distance_upper_bound=gap)[0])
        key = np.floor(cand / gap).astype(np.int64) @ np.array([1 << 32, 1], dtype=np.int64)
        ok &= ~np.isin(key, cells)
        idx = np.flatnonzero(ok)
        idx = idx[np.unique(key[idx], return_index=True)[1]]  # one a cell
        out[left[idx]] = cand[idx]
        cells = np.concatenate([cells, key[idx]])
        left = np.delete(left, idx)
        if not len(left):
            break
    return out


def push_apart(fixed: cKDTree | None, xy: np.ndarray, gap: float, rounds: int = 2) -> np.ndarray:
    """``xy`` moved until none of its points is nearer than ``gap`` to another of them or to a point of ``fixed``
    (which stay put): ``rounds`` passes that move each point of a too-near pair by the overlap, away from the other
    (half each when both move), then each point still too near goes to the nearest free place on rings around it
    (in a crowd, nudging cannot make room)."""
    xy = np.array(xy, dtype=float)
    n = len(xy)
    for _ in range(rounds):
        delta = np.zeros_like(xy)
        crowded = _crowded(fixed, xy, gap)
        if not len(crowded[0]) and not len(crowded[2]):
            return xy
        near, other, pairs = crowded
        if len(near):
            d = xy[near] - fixed.data[other]  # type: ignore[union-attr]
            delta[near] += _away(d, np.hypot(d[:, 0], d[:, 1]), near, other, gap, 1.0)
        if len(pairs):
            i, j = pairs[:, 0], pairs[:, 1]
            d = xy[i] - xy[j]
            move = _away(d, np.hypot(d[:, 0], d[:, 1]), i, j, gap, 0.5)
            for axis in (0, 1):
                delta[:, axis] += np.bincount(i, weights=move[:, axis], minlength=n) - np.bincount(
                    j, weights=move[:, axis], minlength=n
                )
        xy += delta
    near, _, pairs = _crowded(fixed, xy, gap)
    bad = np.unique(np.concatenate([near, pairs[:, 1]])) if len(pairs) else near
    if len(bad):  # all at once: each to the first place on the rings clear of the others' present places
        cand = (xy[bad][:, None, :] + _RING[None, :, :] * gap).reshape(-1, 2)
        ok = np.ones(len(cand), dtype=bool)
        if fixed is not None and fixed.n:
            ok &= np.isinf(fixed.query(cand, k=1, distance_upper_bound=gap)[0])
        dist, idx = cKDTree(xy, balanced_tree=False, compact_nodes=False).query(cand, k=2, distance_upper_bound=gap)
        own = np.repeat(bad, len(_RING))[:, None]
        ok &= np.isinf(np.where(idx == own, np.inf, dist)).all(axis=1)
        ok = ok.reshape(len(bad), len(_RING))
        found = ok.any(axis=1)
        first = ok.argmax(axis=1)
        xy[bad[found]] = cand.reshape(len(bad), len(_RING), 2)[found, first[found]]
    return xy


def _crowded(fixed: cKDTree | None, xy: np.ndarray, gap: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(points of ``xy`` too near a fixed point, that fixed point, pairs of ``xy`` too near each other)."""
    near = other = np.empty(0, np.int64)
    if fixed is not None and fixed.n:
        dist, nearest = fixed.query(xy, k=1, distance_upper_bound=gap)
        near = np.flatnonzero(np.isfinite(dist))
        other = nearest[near]
    pairs = np.empty((0, 2), np.int64)
    if len(xy) > 1:
        pairs = cKDTree(xy, balanced_tree=False, compact_nodes=False).query_pairs(gap, output_type="ndarray")
    return near, other, pairs


def _ring_offsets() -> np.ndarray:
    """Offsets on rings of radius 1, 2, 3 (in units of the gap), nearest first, evenly spaced on each ring."""
    out = [np.zeros((0, 2))]
    for r in range(1, 4):
        m = 6 * r
        a = 2 * math.pi * np.arange(m) / m + r * 0.5
        out.append(np.column_stack([r * np.cos(a), r * np.sin(a)]))
    return np.vstack(out)


_RING = _ring_offsets()


def _away(d: np.ndarray, dist: np.ndarray, i: np.ndarray, j: np.ndarray, gap: float, share: float) -> np.ndarray:
    """Moves along ``d`` (from j to i) that make up ``share`` of each pair's overlap; pairs on one spot part
    along a direction fixed by their indices."""
    d = d.copy()
    dist = dist.copy()
    same = dist < 1e-9
    angle = (i * 2.399963 + j * 0.7) % (2 * math.pi)
    d[same] = np.column_stack([np.cos(angle[same]), np.sin(angle[same])])
    dist[same] = 1.0
    step = (gap - np.where(same, 0.0, dist)) / dist * share
    return d * step[:, None]


TITLE_ROOM = (300.0, 56.0)  # px: under a paper, two lines of its title at the zoom a map is usually fitted to


TITLED = 12  # the most cited papers of a map that get room for their titles (after the seeds)


def title_owners(weights: np.ndarray, seeds: np.ndarray, k: int = TITLED) -> np.ndarray:
    """The papers (indices) whose titles get room under them, most important first: ``seeds``, then the ``k`` with
    the greatest ``weights`` (citers in the dataset)."""
    top = np.argsort(-weights, kind="stable")[:k]
    seeds = np.asarray(seeds, dtype=np.int64)
    return np.concatenate([seeds, top[~np.isin(top, seeds)]]).astype(np.int64)


def title_rooms(xy: np.ndarray, owners: np.ndarray, room: tuple[float, float] = TITLE_ROOM) -> np.ndarray:
    """(k, 4) boxes x1, y1, x2, y2: the room under each of ``owners`` where its title goes."""
    w, h = room
    x, y = xy[owners, 0], xy[owners, 1]
    return np.column_stack([x - w / 2, y + NODE_GAP * 0.2, x + w / 2, y + NODE_GAP * 0.2 + h])


def room_points(rooms: np.ndarray, step: float = NODE_GAP * 0.5) -> np.ndarray:
    """Points filling ``rooms`` ``step`` apart (edges included): rooms as places taken, for placings that keep a
    gap from taken points (:func:`free_arc_xy`)."""
    out = [np.empty((0, 2))]
    for x1, y1, x2, y2 in rooms.tolist():
        gx = np.linspace(x1, x2, max(2, math.ceil((x2 - x1) / step) + 1))
        gy = np.linspace(y1, y2, max(2, math.ceil((y2 - y1) / step) + 1))
        out.append(np.stack(np.meshgrid(gx, gy), axis=-1).reshape(-1, 2))
    return np.vstack(out)


def _inside(points: np.ndarray, rooms: np.ndarray, margin: float) -> np.ndarray:
    """(points, rooms) booleans: whether each point lies in each room (grown by ``margin``)."""
    px, py = points[:, 0, None], points[:, 1, None]
    x1, y1, x2, y2 = (rooms[:, k][None, :] for k in range(4))
    return (px > x1 - margin) & (px < x2 + margin) & (py > y1 - margin) & (py < y2 + margin)


def in_rooms(points: np.ndarray, rooms: np.ndarray, margin: float = 0.0) -> np.ndarray:
    """For each point, whether it lies in one of ``rooms`` (grown by ``margin``)."""
    if not len(rooms) or not len(points):
        return np.zeros(len(points), dtype=bool)
    return _inside(points, rooms, margin).any(axis=1)


def in_rooms_each(points: np.ndarray, rooms: np.ndarray, margin: float = 0.0) -> np.ndarray:
    """For each room, whether one of ``points`` lies in it (grown by ``margin``)."""
    if not len(rooms) or not len(points):
        return np.zeros(len(rooms), dtype=bool)
    return _inside(points, rooms, margin).any(axis=0)


def clear_rooms(
    xy: np.ndarray, owners: np.ndarray, movable: np.ndarray, gap: float, room: tuple[float, float] = TITLE_ROOM
) -> np.ndarray:
    """``xy`` with its ``movable`` points (a boolean mask) moved out of the rooms for the titles of ``owners``
    (:func:`title_rooms`; most important first): first each owner out of the others' rooms, to a place whose own
    room holds no point that cannot move, then every other point out of all of them, then one of each pair still
    nearer than three quarters of ``gap`` (as nudging may leave a few). A point goes to the nearest place on rings
    around it that is in none of those rooms and at least ``gap`` from every other point; with no such place within
    reach it stays (:func:`dashboard.graph.free_places.move`)."""
    xy = np.array(xy, dtype=float)
    owners = np.asarray(owners, dtype=np.int64)
    if not len(owners):
        return xy
    margin = NODE_GAP * 0.3
    grid = free_places.grid_of(xy, gap)  # the places before any move
    placed = free_places.Placed(len(xy) + 4 * len(owners))
    fixed_xy = xy[~movable]
    fixed = free_places.by_x(fixed_xy)
    shape = (room[0], NODE_GAP * 0.2, room[1])  # a room's width, top below its paper, height
    nothing = free_places.by_x(np.empty((0, 2)))

    def to_free_place(i: int, rooms: np.ndarray, near: free_places.Grid, keep_out: np.ndarray = nothing) -> bool:
        if placed.count[0] >= len(placed.xy):  # full (a point moved many times): room for as many again
            more = free_places.Placed(2 * len(placed.xy))
            more.xy[: len(placed.xy)] = placed.xy
            more.count[0] = placed.count[0]
            placed.xy, placed.count = more.xy, more.count
        return free_places.move(xy, i, _RING_OFFSETS, gap, rooms, margin, near, placed, keep_out, shape)

    for _ in range(3):  # an owner moved may bring its room onto one placed before it: again, a few times
        moved = False
        for k, o in enumerate(owners):
            if not movable[o]:
                continue
            others = title_rooms(xy, np.delete(owners, k), room)
            own = title_rooms(xy, owners[k : k + 1], room)
            if in_rooms(xy[o : o + 1], others, margin)[0] or in_rooms(fixed_xy, own, margin).any():
                moved |= to_free_place(o, others, grid, fixed)
        if not moved:
            break
    rooms = title_rooms(xy, owners, room)
    todo = movable.copy()
    todo[owners] = False
    for i in np.flatnonzero(todo & in_rooms(xy, rooms, margin)):
        to_free_place(int(i), rooms, grid)
    near = cKDTree(xy)
    pairs = near.query_pairs(gap * 0.75, output_type="ndarray")  # what nudging left too near: set apart
    if len(pairs):
        grid = free_places.grid_of(xy, gap)
    for i, j in pairs.tolist():
        k = j if todo[j] else i if todo[i] else j if movable[j] else i if movable[i] else -1
        too_near = k >= 0 and np.hypot(*(xy[i] - xy[j])) < gap * 0.75
        if too_near and not to_free_place(k, rooms, grid):
            to_free_place(k, rooms[:0], grid)  # papers apart come before rooms
    return xy


def rings_out(reach: int) -> np.ndarray:
    """Offsets on rings of radius 0.5, 1, 1.5, ... ``reach`` (in units of a gap), nearest first: where to look for
    a free place around a point."""
    out = []
    for r in np.arange(0.5, reach + 0.5, 0.5):
        m = max(8, int(2 * math.pi * r * 2))
        a = 2 * math.pi * np.arange(m) / m + r
        out.append(np.column_stack([r * np.cos(a), r * np.sin(a)]))
    return np.vstack(out)


_RING_OFFSETS = np.ascontiguousarray(rings_out(20))  # where a point looks for a free place, nearest first
