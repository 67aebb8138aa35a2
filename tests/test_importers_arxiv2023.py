"""arxiv-2023 importer: real files, years from ids and ogbn metadata, merges, precise errors."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dashboard.dataset.store import Store
from dashboard.importers import run_import
from dashboard.importers.arxiv2023 import arxiv_year, read_nodes
from dashboard.importers.common import InputError
from tests.conftest import ARXIV2023


@pytest.mark.slow  # imports the real 280k-edge graph
def test_real_dataset(arxiv_store: Store) -> None:
    meta = arxiv_store.meta
    s = meta["summary"]
    assert s["records"] == 33868 and s["edges_seen"] == 305672
    assert s["self_loops"] > 0 and s["merged"] > 0  # the README's duplicates: arXiv id + ogbn node
    assert arxiv_store.n == s["papers"] == 33868 - s["merged"]
    assert arxiv_store.n_citations == s["citations"]
    adam = arxiv_store.row("1412.6980")
    assert arxiv_store.id(int(arxiv_store.arrays["rank_rows"][0])) == "1412.6980"
    assert arxiv_store.paper(adam)["areas"] == ["cs.LG"] and arxiv_store.year[adam] == 2014
    # 1706.03762 and ogbn node 41480 are one paper
    att = arxiv_store.row("1706.03762")
    assert arxiv_store.row("ogbn-41480") is None
    assert [t.lower() for t in arxiv_store.titles(range(arxiv_store.n))].count("attention is all you need") == 1
    assert arxiv_store.n_citers(att) > 100


def test_years_of_ids() -> None:
    assert arxiv_year("2010.07922") == 2020 and arxiv_year("0704.0001") == 2007
    assert arxiv_year("cs/9901001") == 1999 and arxiv_year("hep-th/0101001") == 2001
    assert arxiv_year("162972") is None


def _copy(tmp_path: Path) -> Path:
    out = tmp_path / "a23"
    shutil.copytree(ARXIV2023, out)
    for p in out.iterdir():
        p.chmod(0o644)
    return out


@pytest.mark.slow  # imports the real 280k-edge graph
def test_truncated_gzip_is_named(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    data = (folder / "edges.csv.gz").read_bytes()
    (folder / "edges.csv.gz").write_bytes(data[: len(data) // 2])
    out = tmp_path / "out"
    with pytest.raises(InputError, match=r"edges\.csv\.gz: file is truncated or not valid gzip"):
        run_import("arxiv2023", [folder], out, argv=["t"], progress=False)
    assert not out.exists()


@pytest.mark.slow  # imports the real 280k-edge graph
def test_missing_column_and_bad_rows_are_named(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    with gzip.open(folder / "labels.csv.gz", "wt") as f:
        f.write("label\ncs.LG\n")
    with pytest.raises(InputError, match=r"labels\.csv\.gz, line 1, field 'header': header is \['label'\]"):
        read_nodes(folder)
    folder = _copy(tmp_path / "2")
    with gzip.open(folder / "edges.csv.gz", "wt") as f:
        f.write("source,target\n0,1\n2,x\n")
    with pytest.raises(InputError, match=r"edges\.csv\.gz, line 3, field 'target': node index is not a number"):
        run_import("arxiv2023", [folder], tmp_path / "o", argv=["t"], progress=False)
    with gzip.open(folder / "edges.csv.gz", "wt") as f:
        f.write("source,target\n0,99999999\n")
    with pytest.raises(InputError, match=r"line 2, field 'target': node 99999999 is not in ids\.csv\.gz"):
        run_import("arxiv2023", [folder], tmp_path / "o", argv=["t"], progress=False)
    # the first index past the end (ids.csv.gz has 33,868 rows: 0..33867), on either side of an edge
    for edge, field in (("0,33868", "target"), ("33868,0", "source"), ("0,-1", "target")):
        with gzip.open(folder / "edges.csv.gz", "wt") as f:
            f.write(f"source,target\n0,1\n{edge}\n")
        named = rf"line 3, field '{field}': node -?\d+ is not in ids\.csv\.gz \(33868 nodes\)"
        with pytest.raises(InputError, match=named):
            run_import("arxiv2023", [folder], tmp_path / "o", argv=["t"], progress=False)
    assert not (tmp_path / "o").exists()  # nothing partial written


ID = st.one_of(st.from_regex(r"\A\d{4}\.\d{4,5}\Z"), st.from_regex(r"\A\d{1,6}\Z"), st.text(max_size=12))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(ID, st.text(max_size=30), st.text(max_size=8)), min_size=1, max_size=8))
def test_record_parser_property(tmp_path_factory, rows) -> None:
    """Any rows: papers with a title, or an InputError naming a file; never another exception."""
    folder = tmp_path_factory.mktemp("p")
    for name, col, values in (
        ("ids", "ids", [r[0] for r in rows]),
        ("titles", "titles", [r[1] for r in rows]),
        ("labels", "labels", [r[2] for r in rows]),
    ):
        with gzip.open(folder / f"{name}.csv.gz", "wt", newline="") as f:
            import csv

            w = csv.writer(f)
            w.writerow([col])
            for v in values:
                w.writerow([v])
    try:
        recs = read_nodes(folder, meta=None)
    except InputError as e:
        assert ".csv.gz" in str(e)
        return
    assert len(recs) == len(rows) and all(r.title.strip() and r.id for r in recs)
