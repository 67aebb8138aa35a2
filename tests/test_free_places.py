"""Free places for points that must move (dashboard/graph/free_places.py): each point goes to the first candidate
around it that is out of every room, a gap from every other point where it is now, and (where asked) whose own room
holds none of a set of points; checked against the same rule written plainly."""

from __future__ import annotations

import numpy as np

from dashboard.graph import free_places
from dashboard.graph.geometry import NODE_GAP, rings_out

OFFSETS = np.ascontiguousarray(rings_out(6))
GAP = NODE_GAP * 0.6
MARGIN = NODE_GAP * 0.3
ROOM = (120.0, NODE_GAP * 0.2, 40.0)  # width, top below the paper, height


def inside(points: np.ndarray, box: np.ndarray, margin: float) -> np.ndarray:
    x1, y1, x2, y2 = box
    return (
        (points[:, 0] > x1 - margin)
        & (points[:, 0] < x2 + margin)
        & (points[:, 1] > y1 - margin)
        & (points[:, 1] < y2 + margin)
    )


def plain_move(xy, i, rooms, others, placed, keep):
    """The rule written plainly: ``others`` (a dict index -> place of the points not moved yet), ``placed`` (a
    list of places moves took)."""
    for off in OFFSETS:
        c = xy[i] + off * GAP
        if any(inside(c[None], r, MARGIN)[0] for r in rooms):
            continue
        if len(keep):
            own = np.array([c[0] - ROOM[0] / 2, c[1] + ROOM[1], c[0] + ROOM[0] / 2, c[1] + ROOM[1] + ROOM[2]])
            if inside(keep, own, MARGIN).any():
                continue
        if any(j != i and np.hypot(*(p - c)) < GAP for j, p in others.items()):
            continue
        if any(np.hypot(*(p - c)) < GAP for p in placed):
            continue
        xy[i] = c
        placed.append(c.copy())
        others.pop(i, None)
        return True
    return False


def test_moves_follow_the_rule_written_plainly() -> None:
    rng = np.random.default_rng(5)
    for trial in range(20):
        xy = rng.uniform(0, 300, (60, 2))
        centres = rng.uniform(0, 300, (3, 2))
        low, high = np.array([ROOM[0] / 2, -ROOM[1]]), np.array([ROOM[0] / 2, ROOM[1] + ROOM[2]])
        rooms = np.column_stack([centres - low, centres + high])
        keep = free_places.by_x(rng.uniform(0, 300, (10, 2))) if trial % 2 else free_places.by_x(np.empty((0, 2)))
        fast, slow = xy.copy(), xy.copy()
        grid, placed = free_places.grid_of(xy, GAP), free_places.Placed(200)
        others, plain_placed = dict(enumerate(xy.copy())), []
        movers = [int(i) for i in rng.permutation(60)[:25]] + [int(rng.integers(60))]  # one of them twice
        for i in movers:
            got = free_places.move(fast, i, OFFSETS, GAP, rooms, MARGIN, grid, placed, keep, ROOM)
            want = plain_move(slow, i, rooms, others, plain_placed, keep)
            assert got == want
            assert np.array_equal(fast, slow)


def test_a_point_in_a_room_leaves_it_for_the_nearest_clear_place() -> None:
    xy = np.array([[0.0, 10.0], [0.0, 60.0]])
    rooms = np.array([[-50.0, 0.0, 50.0, 30.0]])
    grid, placed = free_places.grid_of(xy, GAP), free_places.Placed(4)
    assert free_places.move(xy, 0, OFFSETS, GAP, rooms, MARGIN, grid, placed, free_places.by_x(np.empty((0, 2))), ROOM)
    assert not inside(xy[:1], rooms[0], MARGIN).any() and np.hypot(*(xy[0] - xy[1])) >= GAP
    moved = np.hypot(*(xy[0] - [0.0, 10.0]))
    assert moved <= 30.0 + MARGIN + GAP  # out of the room's nearer side, not across the plane
    assert placed.count[0] == 1 and np.array_equal(placed.xy[0], xy[0])


def test_with_no_clear_place_within_reach_a_point_stays() -> None:
    xy = np.array([[0.0, 0.0]])
    rooms = np.array([[-1e4, -1e4, 1e4, 1e4]])  # the whole reach is a room
    grid, placed = free_places.grid_of(xy, GAP), free_places.Placed(1)
    none = free_places.by_x(np.empty((0, 2)))
    assert not free_places.move(xy, 0, OFFSETS, GAP, rooms, MARGIN, grid, placed, none, ROOM)
    assert xy.tolist() == [[0.0, 0.0]] and placed.count[0] == 0
