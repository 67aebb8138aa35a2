"""Free places for points that must move (compiled with numba): the search :func:`dashboard.graph.geometry.clear_rooms`
runs for every point in a title's room, a point at a time, each move seen by the next.

A point goes to the first of a list of candidate offsets around it (rings, nearest first) that is clear: outside
every given room (grown by a margin), at least ``gap`` from every other point where it is: the points of a set not
moved yet (a uniform grid of ``gap`` cells: the 3 x 3 cells around a candidate hold every point nearer than
``gap``; a point that moves leaves it) and the places of the moves so far, and, where asked, with its own title's
room free of the points of another set (sorted by x: a binary search finds those within the room's width).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np


@dataclass
class Grid:
    """Points in cells of ``cell`` px: ``keys`` (each point's cell, ascending), ``xy`` and ``ids`` (the points and
    their indices, in that order; a point moved away is at infinity), ``slot`` (each index's place in that order),
    the cells' origin and the grid's height in cells."""

    keys: np.ndarray
    xy: np.ndarray
    ids: np.ndarray
    slot: np.ndarray
    cell: float
    x0: int
    y0: int
    height: int


def grid_of(xy: np.ndarray, cell: float) -> Grid:
    """The :class:`Grid` of the points ``xy`` ((n, 2))."""
    xy = np.ascontiguousarray(xy, dtype=np.float64)
    if not len(xy):
        return Grid(
            np.zeros(0, np.int64), np.zeros((0, 2)), np.zeros(0, np.int64), np.zeros(0, np.int64), cell, 0, 0, 1
        )
    c = np.floor(xy / cell).astype(np.int64)
    x0, y0 = int(c[:, 0].min()) - 1, int(c[:, 1].min()) - 1
    height = int(c[:, 1].max()) - y0 + 2
    keys = (c[:, 0] - x0) * height + (c[:, 1] - y0)
    order = np.argsort(keys, kind="stable")
    slot = np.empty(len(xy), np.int64)
    slot[order] = np.arange(len(xy))
    return Grid(keys[order], xy[order], order.astype(np.int64), slot, cell, x0, y0, height)


class Placed:
    """Where earlier moves put their points (a buffer, filled in order)."""

    def __init__(self, capacity: int) -> None:
        self.xy = np.zeros((max(capacity, 1), 2))
        self.count = np.zeros(1, np.int64)


def warm() -> None:
    """Load (or, the first time on a machine, compile) the compiled search, so that no view waits for it."""
    xy = np.zeros((2, 2))
    none = by_x(np.empty((0, 2)))
    move(xy, 0, np.ones((1, 2)), 1.0, np.zeros((0, 4)), 0.0, grid_of(xy, 1.0), Placed(1), none, (1.0, 0.0, 1.0))
    first_clear(xy, xy, 1.0, by_x(xy), (1.0, 0.0, 1.0), 0.0)


def by_x(points: np.ndarray) -> np.ndarray:
    """``points`` sorted by x (what :func:`move` reads the points a candidate's room must not hold from)."""
    points = np.ascontiguousarray(points, dtype=np.float64).reshape(-1, 2)
    return points[np.argsort(points[:, 0], kind="stable")]


def move(
    xy: np.ndarray,
    i: int,
    offsets: np.ndarray,
    gap: float,
    rooms: np.ndarray,
    margin: float,
    grid: Grid,
    placed: Placed,
    keep_out: np.ndarray,
    room: tuple[float, float, float],
) -> bool:
    """Move point ``i`` of ``xy`` (in place) to the first clear candidate ``xy[i] + offsets * gap`` (module
    docstring): outside ``rooms`` ((k, 4) boxes x1, y1, x2, y2) grown by ``margin``; ``gap`` from the ``grid``'s
    points but ``i`` (which leaves it, if it is one of them) and from those ``placed`` (which it joins); with its
    own room (width, top below it, height: ``room``) grown by ``margin`` holding none of ``keep_out`` (sorted by x:
    :func:`by_x`). Returns whether it moved (it stays when no candidate is clear)."""
    return _move(
        xy,
        i,
        offsets,
        gap,
        np.ascontiguousarray(rooms, dtype=np.float64).reshape(-1, 4),
        margin,
        grid.keys,
        grid.xy,
        grid.ids,
        grid.slot,
        grid.cell,
        grid.x0,
        grid.y0,
        grid.height,
        placed.xy,
        placed.count,
        keep_out,
        room[0],
        room[1],
        room[2],
    )


@numba.njit(cache=True)
def _move(
    xy,
    i,
    offsets,
    gap,
    rooms,
    margin,
    keys,
    gxy,
    ids,
    slot,
    cell,
    x0,
    y0,
    height,
    placed,
    count,
    keep,
    width,
    top,
    tall,
):
    x, y = xy[i, 0], xy[i, 1]
    for c in range(len(offsets)):
        cx = x + offsets[c, 0] * gap
        cy = y + offsets[c, 1] * gap
        if _in_rooms(cx, cy, rooms, margin):
            continue
        if len(keep) and _room_holds(cx, cy, keep, width, top, tall, margin):
            continue
        if _near_grid(cx, cy, i, gap, keys, gxy, ids, cell, x0, y0, height):
            continue
        near = False
        for p in range(count[0]):
            if math.hypot(cx - placed[p, 0], cy - placed[p, 1]) < gap:
                near = True
                break
        if near:
            continue
        xy[i, 0] = cx
        xy[i, 1] = cy
        placed[count[0], 0] = cx
        placed[count[0], 1] = cy
        count[0] += 1
        if i < len(slot):
            gxy[slot[i], 0] = np.inf  # where it was is free now
            gxy[slot[i], 1] = np.inf
        return True
    return False


def first_clear(
    cands: np.ndarray,
    seeds: np.ndarray,
    seed_gap: float,
    keep_out: np.ndarray,
    room: tuple[float, float, float],
    margin: float,
) -> int:
    """The first of ``cands`` ((k, 2)) at least ``seed_gap`` from every one of ``seeds`` and whose own room (as in
    :func:`move`) grown by ``margin`` holds none of ``keep_out`` (sorted by x: :func:`by_x`); -1 if none is."""
    return _first_clear(
        np.ascontiguousarray(cands, dtype=np.float64),
        np.ascontiguousarray(seeds, dtype=np.float64).reshape(-1, 2),
        seed_gap,
        keep_out,
        room[0],
        room[1],
        room[2],
        margin,
    )


@numba.njit(cache=True)
def _first_clear(cands, seeds, seed_gap, keep, width, top, tall, margin):
    for c in range(len(cands)):
        x, y = cands[c, 0], cands[c, 1]
        near = False
        for s in range(len(seeds)):
            if math.hypot(seeds[s, 0] - x, seeds[s, 1] - y) < seed_gap:
                near = True
                break
        if near:
            continue
        if len(keep) and _room_holds(x, y, keep, width, top, tall, margin):
            continue
        return c
    return -1


@numba.njit(inline="always")
def _in_rooms(x, y, rooms, margin):
    for r in range(len(rooms)):
        if rooms[r, 0] - margin < x < rooms[r, 2] + margin and rooms[r, 1] - margin < y < rooms[r, 3] + margin:
            return True
    return False


@numba.njit(inline="always")
def _room_holds(x, y, keep, width, top, tall, margin):
    """Whether the room under (x, y) (grown by ``margin``) holds one of ``keep`` (sorted by x)."""
    x1, x2 = x - width / 2 - margin, x + width / 2 + margin
    y1, y2 = y + top - margin, y + top + tall + margin
    k = np.searchsorted(keep[:, 0], x1, side="right")
    while k < len(keep) and keep[k, 0] < x2:
        if y1 < keep[k, 1] < y2:
            return True
        k += 1
    return False


@numba.njit(inline="always")
def _near_grid(x, y, i, gap, keys, gxy, ids, cell, x0, y0, height):
    """Whether a point of the grid other than ``i`` is nearer than ``gap`` to (x, y)."""
    if not len(keys):
        return False
    cx = np.int64(np.floor(x / cell)) - x0
    cy = np.int64(np.floor(y / cell)) - y0
    for a in range(cx - 1, cx + 2):
        for b in range(cy - 1, cy + 2):
            if b < 0 or b >= height:
                continue
            key = a * height + b
            k = np.searchsorted(keys, key)
            while k < len(keys) and keys[k] == key:
                if ids[k] != i:
                    dx = gxy[k, 0] - x
                    dy = gxy[k, 1] - y
                    if np.sqrt(dx * dx + dy * dy) < gap:
                        return True
                k += 1
    return False
