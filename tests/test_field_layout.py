"""The map of the whole dataset (dashboard/graph/field_layout.py): papers that cite each other sit close, the same
graph gives the same places, and every paper has a finite place; the default dataset's build holds it."""

from __future__ import annotations

import numpy as np
import pytest

from dashboard.graph import field_layout
from dashboard.graph.field_layout import edge_distance_ratio, edges_of, layout_edges

COMMUNITIES, SIZE = 6, 200


def planted(seed: int = 7, p_in: float = 0.05, p_out: float = 0.0005) -> tuple[int, np.ndarray, np.ndarray]:
    """A planted-partition graph: ``COMMUNITIES`` groups of ``SIZE`` papers, dense inside, sparse across; each
    pair at most once, the lower row cited by the higher."""
    rng = np.random.default_rng(seed)
    n = COMMUNITIES * SIZE
    a, b = np.triu_indices(n, k=1)
    same = a // SIZE == b // SIZE
    keep = rng.random(len(a)) < np.where(same, p_in, p_out)
    return n, b[keep].astype(np.int32), a[keep].astype(np.int32)


def csr(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(src, kind="stable")
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=offsets[1:])
    return offsets, dst[order]


def test_planted_communities_sit_apart() -> None:
    n, src, dst = planted()
    xy = field_layout.field_layout(*csr(n, src, dst))
    assert xy.shape == (n, 2) and xy.dtype == np.float32 and np.isfinite(xy).all()
    assert edge_distance_ratio(xy, src, dst) <= 0.2
    group = np.arange(n) // SIZE
    centres = np.array([xy[group == g].mean(axis=0) for g in range(COMMUNITIES)])
    within = np.mean([np.hypot(*(xy[group == g] - centres[g]).T).mean() for g in range(COMMUNITIES)])
    apart = np.hypot(*(centres[:, None] - centres[None]).T)[np.triu_indices(COMMUNITIES, 1)]
    assert apart.min() > 2 * within  # every pair of groups further apart than a group is wide


def test_random_places_measure_about_one() -> None:
    n, src, dst = planted()
    xy = np.random.default_rng(0).standard_normal((n, 2))
    assert 0.8 < edge_distance_ratio(xy, src, dst) < 1.2


def test_same_graph_same_places_and_seed_changes_them() -> None:
    n, src, dst = planted(seed=3)
    offsets, targets = csr(n, src, dst)
    first = field_layout.field_layout(offsets, targets)
    assert np.array_equal(first, field_layout.field_layout(offsets.copy(), targets.copy()))
    assert not np.array_equal(first, field_layout.field_layout(offsets, targets, seed=2))


def test_papers_without_a_citation_get_finite_places_outside() -> None:
    n, src, dst = planted()
    alone = 50
    xy = layout_edges(n + alone, src, dst)
    assert np.isfinite(xy).all() and len(np.unique(xy[n:], axis=0)) == alone
    linked = np.hypot(*xy[:n].T).max()
    assert (np.hypot(*xy[n:].T) >= linked).all()
    assert edge_distance_ratio(xy, src, dst) <= 0.2


@pytest.mark.parametrize("n", [0, 1, 5])
def test_tiny_graphs(n: int) -> None:
    xy = layout_edges(n, np.zeros(0, np.int32), np.zeros(0, np.int32))
    assert xy.shape == (n, 2) and np.isfinite(xy).all()
    two = layout_edges(2, np.array([1], np.int32), np.array([0], np.int32))
    assert np.isfinite(two).all() and not np.array_equal(two[0], two[1])


def test_edges_of_reads_the_csr_lists() -> None:
    src, dst = edges_of(np.array([0, 2, 2, 3]), np.array([1, 2, 0]))
    assert src.tolist() == [0, 0, 2] and dst.tolist() == [1, 2, 0]


def test_the_default_dataset_holds_its_map(default_store) -> None:
    store = default_store
    xy = store.field_xy
    assert xy.shape == (store.n, 2) and xy.dtype == np.float32 and np.isfinite(xy).all()
    span = np.abs(xy).max()
    assert np.abs(xy.mean(axis=0)).max() < 0.1 * span  # roughly centred
    src, dst = edges_of(store.arrays["ref_offsets"], store.arrays["ref_targets"])
    assert edge_distance_ratio(xy, src, dst) <= 0.2
