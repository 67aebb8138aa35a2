"""The store: lookups, neighbour slices ordered by citations, search, filters, index freshness."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from dashboard.dataset import DatasetError
from dashboard.store import Store
from tests.conftest import DEFAULT_DATA, SEED_IDS


def test_lookup_round_trip(store: Store) -> None:
    for pid in SEED_IDS:
        row = store.row(pid)
        assert row is not None and store.id(row) == pid
    assert store.row("nope") is None and store.row("") is None and store.row("x" * 500) is None
    rows, unknown = store.rows(["2110.10090", "bad", "2006.04862"])
    assert store.ids(rows) == ["2110.10090", "2006.04862"] and unknown == ["bad"]


def test_neighbours_are_most_cited_first(store: Store) -> None:
    row = store.row("2110.10090")
    refs = store.references(row)
    assert len(refs) == store.n_references(row) == 43
    counts = store.citations[refs]
    assert list(counts) == sorted(counts, reverse=True)
    assert store.titles(refs[:1]) == ["Attention Is All You Need"]
    assert store.n_citers(row) == 50 and len(store.citers(row, limit=7)) == 7
    # the edges agree both ways
    for r in refs.tolist():
        assert row in store.citers(r).tolist()


def test_paper_facts(store: Store) -> None:
    p = store.paper(store.row("2110.10090"))
    assert p["areas"] == ["cs.LG", "stat.ML"]
    assert (p["cited_by"], p["in_cited"], p["in_refs"], p["reference_count"]) == (144, 50, 43, 79)
    assert p["citations_by_year"][2023] == 42
    unknown = store.paper(store.row("2006.04862"))
    assert unknown["areas"] == ["unknown"]


def test_search_by_words_prefix_and_id(store: Store) -> None:
    titles = store.titles(store.search("attention is all", 5))
    assert titles[0] == "Attention Is All You Need"
    hits = store.titles(store.search("expressive pow", 10))
    assert "On the Expressive Power of Self-Attention Matrices" in hits
    assert store.ids(store.search("2110.10090"))[0] == "2110.10090"
    assert store.search("zzzzqqq") == [] and store.search("   ") == [] and store.search(None) == []
    assert isinstance(store.search('"unbalanced AND (quote*'), list)  # FTS syntax in the input never raises


def test_search_results_are_most_cited_first(store: Store) -> None:
    rows = store.search("transformers", 10)
    assert len(rows) == 10
    counts = store.citations[rows]
    assert list(counts) == sorted(counts, reverse=True)


def test_filters(store: Store) -> None:
    rows = np.arange(store.n)
    years = store.filter_mask(rows, years=(2021, 2022))
    assert years.sum() == np.count_nonzero((store.year >= 2021) & (store.year <= 2022))
    lg = store.filter_mask(rows, areas=["cs.LG"])
    assert lg.sum() == store.area_counts()["cs.LG"]
    unknown = store.filter_mask(rows, areas=["unknown"])
    assert unknown.sum() == store.area_counts()["unknown"] and not (lg & unknown).any()
    cited = store.filter_mask(rows, min_citations=1000)
    assert set(store.ids(rows[cited])) >= {"1706.03762"}
    assert (store.citations[rows[cited]] >= 1000).all()


def test_area_counts_cover_every_paper(store: Store) -> None:
    counts = store.area_counts()
    assert counts["unknown"] + int((np.diff(store.arrays["area_offsets"]) > 0).sum()) == store.n
    assert counts["cs.LG"] >= 20


def test_stale_index_is_rebuilt_in_memory(tmp_path: Path) -> None:
    copy = tmp_path / "d"
    shutil.copytree(DEFAULT_DATA, copy)
    shutil.rmtree(copy / "index")
    s = Store.load(copy)
    assert s.n == 156 and s.index_folder != copy
    assert s.ids(s.search("attention is all", 1)) == ["1706.03762"]
    assert not (copy / "index").exists()  # the dataset folder is not written to


def test_missing_or_corrupt_files_are_named(tmp_path: Path) -> None:
    copy = tmp_path / "d"
    shutil.copytree(DEFAULT_DATA, copy)
    (copy / "citations.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(DatasetError, match=r"citations\.parquet: cannot be read as Parquet"):
        Store.load(copy)
    (copy / "citations.parquet").unlink()
    with pytest.raises(DatasetError, match=r"citations\.parquet: missing"):
        Store.load(copy)
    (copy / "dataset.json").write_text("{ not json")
    with pytest.raises(DatasetError, match=r"dataset.json, line 1: not valid JSON"):
        Store.load(copy)
    with pytest.raises(DatasetError, match="no such dataset folder"):
        Store.load(tmp_path / "absent")
