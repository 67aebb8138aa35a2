"""The map of the whole dataset (dashboard/graph/field_layout.py): papers that cite each other sit close, the same
graph gives the same places whatever the threads, and every paper has a finite place. It is made after the build
is published (dashboard/importers/field_map.py): the build serves without it, the field view says how far along
it is, and it is added whole; the default dataset's build holds it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numba
import numpy as np
import pytest

from dashboard.dataset import builds, index
from dashboard.dataset.format import papers_table
from dashboard.dataset.store import Store
from dashboard.dataset.write import write_dataset
from dashboard.graph import field_layout
from dashboard.graph.field_layout import csr_of, edge_distance_ratio, edges_of, layout_edges
from dashboard.importers import field_map
from dashboard.view import field as field_view

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
    assert np.array_equal(first, field_layout.field_layout(offsets, targets, *csr_of(n, dst, src)))
    assert not np.array_equal(first, field_layout.field_layout(offsets, targets, seed=2))


def test_the_places_do_not_depend_on_the_threads(monkeypatch) -> None:
    n, src, dst = planted(seed=4)
    monkeypatch.setattr(field_layout, "EDGE_SAMPLE", len(src))  # each paper takes a sample of its neighbours too
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = layout_edges(n, src, dst)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(one, layout_edges(n, src, dst))
    assert edge_distance_ratio(one, src, dst) <= 0.2


def test_a_sample_of_the_edges_still_gathers_the_communities(monkeypatch) -> None:
    n, src, dst = planted()
    monkeypatch.setattr(field_layout, "EDGE_SAMPLE", len(src) // 2)  # a quarter of the edge ends an epoch
    assert edge_distance_ratio(layout_edges(n, src, dst), src, dst) <= 0.2


def test_progress_is_told_in_order_up_to_all() -> None:
    n, src, dst = planted()
    told: list[float] = []
    layout_edges(n, src, dst, progress=told.append)
    assert told[-1] == 1.0 and told == sorted(told) and len(told) > 10


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


def planted_dataset(folder: Path, alone: int = 3) -> tuple[Path, np.ndarray, np.ndarray]:
    """The planted graph written as a dataset (and ``alone`` papers without a citation): a new build of ``folder``."""
    n, src, dst = planted()
    total = n + alone
    ids = [f"p{k}" for k in range(total)]
    from dashboard.dataset.format import PAPERS_SCHEMA

    papers = papers_table(
        {name: [None] * total for name in PAPERS_SCHEMA.names} | {"id": ids, "sources": [["t"]] * total}
    )
    write_dataset(folder, papers, (src, dst), {"name": "planted"})
    return folder, src, dst


def test_a_build_serves_before_its_map_and_gets_it_whole(tmp_path: Path) -> None:
    folder, src, dst = planted_dataset(tmp_path / "d")
    store = Store.load(folder)
    assert store.field_xy is None and store.field_progress() is None
    making = field_view.field_making(store)
    assert making["share"] is None and "citemap field-map" in making["text"]
    assert field_view.field_status(store, store_state()) == f"whole field: {store.n:,} papers"
    build = builds.served(folder)
    before = {p.name for p in (build / index.INDEX_DIR).iterdir()}

    assert field_map.make(folder)
    xy = store.field_xy  # the running store sees it once it is there
    assert xy.shape == (store.n, 2) and np.isfinite(xy).all()
    assert edge_distance_ratio(xy, src, dst) <= 0.2
    after = {p.name for p in (build / index.INDEX_DIR).iterdir()}
    assert after - before == {f"{index.FIELD_XY}.npy"}  # no temporary or progress file left
    assert field_view.field_making(store) is None
    assert np.array_equal(Store.load(folder).field_xy, xy)  # and a new one loads the build, checksums and all
    assert field_map.make(folder)  # made already: nothing to do
    assert np.array_equal(np.load(build / index.INDEX_DIR / f"{index.FIELD_XY}.npy"), xy)


def store_state():
    from dashboard.graph.state import ViewState

    return ViewState((), mode="field")


def test_while_it_is_made_the_view_says_how_far_along(tmp_path: Path, monkeypatch) -> None:
    folder, _, _ = planted_dataset(tmp_path / "d")
    store = Store.load(folder)
    seen: list[dict] = []
    real = field_layout.field_layout

    def watched(*lists, progress):
        def told(share: float) -> None:
            progress(share)
            if share >= 0.5 and not seen:
                monkeypatch.setattr(field_map, "PROGRESS_EVERY", 0.0)
                progress(share)  # written now
                seen.append(field_view.field_making(store))
                seen.append(store.field_progress())

        return real(*lists, progress=told)

    monkeypatch.setattr(field_layout, "field_layout", watched)
    assert field_map.make(folder)
    making, progress = seen
    assert 0.5 <= making["share"] < 1 and f"{making['share']:.0%} done" in making["text"]
    assert "being made" in making["text"] and progress["share"] == making["share"]
    assert store.field_progress() is None and store.field_xy is not None


def test_a_progress_file_left_by_a_stopped_maker_is_not_progress(tmp_path: Path) -> None:
    folder, _, _ = planted_dataset(tmp_path / "d")
    build = builds.served(folder)
    (build / index.INDEX_DIR / index.FIELD_PROGRESS).write_text(json.dumps({"share": 0.4, "started": 0}))
    store = Store.load(folder)
    assert store.field_progress() is None  # nobody holds the lock
    lock = index.field_lock(build)
    try:
        assert store.field_progress()["share"] == 0.4
        assert "40% done" in field_view.field_making(store)["text"]
        assert not field_map.make(folder)  # another process is making it: this one does not
        assert store.field_xy is None
    finally:
        os.close(lock)
    assert field_map.make(folder) and store.field_xy is not None


def test_the_field_endpoints_answer_the_progress_until_the_map_is_there(tmp_path: Path) -> None:
    from dashboard.web.app import create_app

    folder, _, _ = planted_dataset(tmp_path / "d")
    client = create_app(folder).server.test_client()
    for url in ("/field/points", "/field?mode=field"):
        got = client.get(url)
        assert got.status_code == 200 and "not made yet" in got.get_json()["making"]["text"]
    assert field_map.make(folder)
    points = client.get("/field/points").get_json()
    assert "making" not in points and sorted(points["r"]) == list(range(COMMUNITIES * SIZE + 3))
    assert "making" not in client.get("/field?mode=field").get_json()
