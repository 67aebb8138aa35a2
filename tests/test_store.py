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


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Five papers, two of unknown year, built through the importers' builder: a, b, c cite d; e cites a."""
    from dashboard.dataset import write_dataset
    from dashboard.importers.common import DatasetBuilder, PaperRecord

    b = DatasetBuilder()
    k = {pid: b.add(PaperRecord(title=f"Paper {pid}", id=pid, year=year, areas=areas, cited_by=cited))
         for pid, year, areas, cited in [("a", 2000, ["cs.LG"], 5), ("b", 2005, ["cs.CL", "cs.LG"], None),
                                         ("c", 2010, [], 1), ("d", None, ["cs.CL"], 40), ("e", None, [], None)]}
    for x, y in [("a", "d"), ("b", "d"), ("c", "d"), ("e", "a")]:
        b.cite(k[x], k[y])
    papers, citations, _ = b.build()
    return Store.load(write_dataset(tmp_path_factory.mktemp("tiny") / "t", papers, citations, {"name": "tiny"}))


def test_unknown_years_pass_only_a_year_filter_that_covers_the_dataset(tiny: Store) -> None:
    rows = np.array([tiny.row(p) for p in "abcde"])
    assert (tiny.year_min, tiny.year_max) == (2000, 2010)

    def passing(**kw) -> str:
        return "".join(tiny.id(r) for r in rows[tiny.filter_mask(rows, **kw)])

    assert passing() == "abcde"
    assert passing(years=(2000, 2010)) == "abcde"  # the whole range: nothing is filtered out
    assert passing(years=(1990, 2020)) == "abcde"
    assert passing(years=(2000, 2009)) == "ab"  # any narrower range leaves unknown years out
    assert passing(years=(2001, 2010)) == "bc"
    assert passing(years=(2005, 2005)) == "b"
    assert passing(areas=["cs.LG"]) == "ab" and passing(areas=["cs.CL"]) == "bd"
    assert passing(areas=["unknown"]) == "ce" and passing(areas=["cs.CL", "unknown"]) == "bcde"
    assert passing(areas=["nope"]) == "" and passing(areas=[]) == ""
    assert passing(min_citations=5) == "ad" and passing(min_citations=40) == "d"  # d: its source's figure
    assert passing(years=(2000, 2009), areas=["cs.LG"], min_citations=1) == "a"


def test_counts_of_a_small_dataset(tiny: Store) -> None:
    row = {p: tiny.row(p) for p in "abcde"}
    assert [int(tiny.in_cited[row[p]]) for p in "abcde"] == [1, 0, 0, 3, 0]
    assert [int(tiny.in_refs[row[p]]) for p in "abcde"] == [1, 1, 1, 0, 1]
    assert [int(tiny.citations[row[p]]) for p in "abcde"] == [5, 0, 1, 40, 0]  # max(source, in dataset)
    assert tiny.area_counts() == {"cs.LG": 2, "cs.CL": 2, "unknown": 2}
    assert tiny.areas_of([row["b"], row["c"]]) == [["cs.CL", "cs.LG"], ["unknown"]]
    assert sorted(tiny.ids(tiny.citers(row["d"]))) == ["a", "b", "c"] and tiny.n_citers(row["d"]) == 3
    assert tiny.ids(tiny.references(row["e"])) == ["a"] and tiny.n_references(row["e"]) == 1
    assert tiny.ids(tiny.citers(row["d"], limit=1)) == ["a"]  # most cited first
    assert tiny.n_citations == 4
    rows = np.array([row["e"], row["a"], row["d"], row["b"]])
    i, j = tiny.edge_positions(rows)
    assert sorted(zip(rows[i].tolist(), rows[j].tolist(), strict=True)) == sorted(
        [(row["e"], row["a"]), (row["a"], row["d"]), (row["b"], row["d"])])
    assert tiny.ids(tiny.search("paper", 10))[:1] == ["d"] and set(tiny.ids(tiny.search("paper", 10))) == set("abcde")
