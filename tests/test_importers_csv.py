"""The CSV importer: papers and citations tables, column mapping, merging, precise errors."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.dataset.store import Store
from dashboard.importers import run_import
from dashboard.importers.common import DatasetBuilder, InputError, PaperRecord, clean_id, normalise_title
from dashboard.importers.csv_tables import DEFAULT_COLUMNS, build, parse_mapping, parse_paper_row
from dashboard.importers.fields import Where
from tests.conftest import FIXTURES

S2_PAPER = FIXTURES / "semanticscholar" / "Paper.json"
MAPPING = "id=paper_id,title=name,citing=source,cited=target"

PAPERS = """\ufeffpaper_id,name,year,areas,cited_by,reference_count,posted,notes
2106.03764,On the Expressive Power of Self-Attention Matrices,2021,cs.LG; stat.ML,47,46,2021-06-07,x
1706.03762,Attention Is All You Need,2017,cs.CL,"59,932",,2017-06-12,
cs/9901001,An old paper,,math.AG,,,1999-01-05,
2106.03764,"On the expressive power of
 self-attention matrices",,cs.AI;cs.LG,50,,,duplicate row: merged

W123,A paper known to OpenAlex only,2019,,,,,
"""
CITATIONS = """source,target
2106.03764,1706.03762
2106.03764,cs/9901001
2106.03764,2106.03764
2106.03764,1706.03762
W123,9999.99999
W123,2106.03764
"""


def write(path: Path, text: str) -> Path:
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tables(tmp_path: Path) -> tuple[Path, Path]:
    return write(tmp_path / "papers.csv", PAPERS), write(tmp_path / "citations.csv.gz", CITATIONS)


def test_mapped_tables_through_store(tmp_path: Path, tables: tuple[Path, Path]) -> None:
    out = tmp_path / "out"
    summary = run_import("csv", list(tables), out, argv=["test"], progress=False, mapping=MAPPING)
    assert summary["records"] == 5 and summary["merged"] == 1 and summary["papers"] == 4
    assert summary["citations"] == 3 and summary["self_loops"] == 1 and summary["duplicate_edges"] == 1
    assert summary["edges_outside"] == 1 and summary["edges_seen"] == 6
    store = Store.load(out)
    assert store.n == 4 and store.n_citations == 3
    row = store.row("2106.03764")
    p = store.paper(row)
    assert p["title"] == "On the Expressive Power of Self-Attention Matrices"  # first row wins
    assert (p["year"], p["posted"], p["cited_by"], p["reference_count"]) == (2021, "2021-06-07", 47, 46)
    assert p["areas"] == ["cs.LG", "stat.ML", "cs.AI"]
    assert set(store.ids(store.references(row))) == {"1706.03762", "cs_9901001"}
    assert store.ids(store.citers(row)) == ["W123"]
    assert store.paper(store.row("1706.03762"))["cited_by"] == 59932
    old = store.paper(store.row("cs_9901001"))
    assert old["year"] == 1999 and old["areas"] == ["math.AG"]
    assert store.paper(store.row("W123"))["areas"] == ["unknown"]
    assert any("paper_id" in n for n in store.meta["notes"])


def test_papers_only_with_default_columns(tmp_path: Path) -> None:
    src = write(tmp_path / "p.csv", "title,id\nA title,a1\nAnother,a2\n")
    builder, info = build([src], progress=False)
    papers, citations, _ = builder.build()
    assert papers.column("id").to_pylist() == ["a1", "a2"] and citations.num_rows == 0
    assert any("no citations table" in n for n in info["notes"])


def s2_tables(tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    """The Semantic Scholar fixture turned into the two CSV tables (ids: paperId, else made up)."""
    paper = json.loads(S2_PAPER.read_text())
    listed = [("cit", p) for p in paper["citations"]] + [("ref", p) for p in paper["references"]]

    def pid(p: dict[str, Any], k: int) -> str:
        return p["paperId"] or f"noid-{k}"

    with open(tmp_path / "papers.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "title", "year", "areas", "cited_by", "reference_count", "posted"])
        for k, (_, p) in enumerate([("self", paper), *listed]):
            w.writerow(
                [
                    pid(p, k),
                    p["title"],
                    p["year"] or "",
                    ";".join(p["fieldsOfStudy"] or []),
                    p["citationCount"] if p["citationCount"] is not None else "",
                    p["referenceCount"] or "",
                    p["publicationDate"] or "",
                ]
            )
    with open(tmp_path / "citations.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["citing", "cited"])
        for k, (kind, p) in enumerate(listed, start=1):
            w.writerow([pid(p, k), paper["paperId"]] if kind == "cit" else [paper["paperId"], pid(p, k)])
    return tmp_path / "papers.csv", tmp_path / "citations.csv", paper


def test_real_data_as_csv(tmp_path: Path) -> None:
    papers_csv, citations_csv, paper = s2_tables(tmp_path)
    out = tmp_path / "out"
    summary = run_import("csv", [papers_csv, citations_csv], out, argv=["test"], progress=False)
    everyone = [paper, *paper["citations"], *paper["references"]]
    titles = {normalise_title(p["title"]) for p in everyone}
    assert summary["records"] == len(everyone) == 1015
    assert summary["papers"] == len(titles) == 1014 and summary["merged"] == 1
    assert summary["citations"] == 1013 and summary["duplicate_edges"] == 1 and summary["edges_outside"] == 0
    store = Store.load(out)
    row = store.row(paper["paperId"])
    assert store.n_citers(row) == 999 and store.n_references(row) == 14
    p = store.paper(row)
    assert (p["title"], p["cited_by"], p["areas"]) == (paper["title"], 10059, ["Computer Science", "Sociology"])


# -- bad input -------------------------------------------------------------------------------------
def assert_failed_import(
    tmp_path: Path, sources: list[Path], bad: str, *parts: str, mapping: str | None = MAPPING
) -> InputError:
    out = tmp_path / "out"
    with pytest.raises(InputError) as exc:
        run_import("csv", sources, out, argv=["test"], progress=False, mapping=mapping)
    message = str(exc.value)
    assert bad in message
    for part in parts:
        assert part in message, message
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]
    return exc.value


def test_missing_required_column(tmp_path: Path, tables: tuple[Path, Path]) -> None:
    err = assert_failed_import(
        tmp_path, list(tables), "papers.csv", "line 1", "field 'id'", "--mapping id=", mapping=None
    )
    assert err.line == 1


def test_empty_required_cell_names_line_and_column(tmp_path: Path, tables: tuple[Path, Path]) -> None:
    text = PAPERS.replace("Attention Is All You Need", "")
    src = write(tmp_path / "papers-bad.csv", text)
    assert_failed_import(tmp_path, [src, tables[1]], "papers-bad.csv", "line 3", "field 'name'", "required")
    cits = write(tmp_path / "cits-bad.csv", CITATIONS.replace("W123,9999.99999", "W123,"))
    assert_failed_import(tmp_path, [tables[0], cits], "cits-bad.csv", "line 6", "field 'target'")


def test_truncated_csv(tmp_path: Path, tables: tuple[Path, Path]) -> None:
    cut = PAPERS[: PAPERS.index("self-attention matrices")]  # inside a quoted title
    src = write(tmp_path / "cut-quote.csv", cut)
    assert_failed_import(tmp_path, [src, tables[1]], "cut-quote.csv", "line 5", "truncated")
    cut = PAPERS[: PAPERS.index("2021,cs.LG")]  # in the middle of the first row
    src = write(tmp_path / "cut-row.csv", cut)
    assert_failed_import(tmp_path, [src, tables[1]], "cut-row.csv", "line 2", "field 'areas'", "found 3")


def test_truncated_gzip(tmp_path: Path, tables: tuple[Path, Path]) -> None:
    lines = "source,target\n" + "".join(f"a{i},b{i}\n" for i in range(5000))
    full = gzip.compress(lines.encode())
    src = tmp_path / "citations.csv.gz"
    src.write_bytes(full[: len(full) // 2])
    err = assert_failed_import(tmp_path, [tables[0], src], "citations.csv.gz", "truncated", "line")
    assert err.line is not None and err.line > 1


def test_bad_values_name_line_and_column(tmp_path: Path, tables: tuple[Path, Path]) -> None:
    cases = [
        ("2017,cs.CL", "20x7,cs.CL", "field 'year'"),
        ("2017-06-12", "2017-06-31", "field 'posted'"),
        ('"59,932"', "-4", "field 'cited_by'"),
        ("1706.03762,", "17 06,", "field 'paper_id'"),
    ]
    for old, new, field in cases:
        src = write(tmp_path / "papers-bad.csv", PAPERS.replace(old, new))
        assert_failed_import(tmp_path, [src, tables[1]], "papers-bad.csv", "line 3", field)


def test_bad_mapping_and_sources(tmp_path: Path, tables: tuple[Path, Path]) -> None:
    assert parse_mapping(" id = paper_id , title=name,") == {"id": "paper_id", "title": "name"}
    assert_failed_import(tmp_path, list(tables), "--mapping", "NAME=COLUMN", mapping="id:paper_id")
    assert_failed_import(tmp_path, list(tables), "--mapping", "field 'author'", mapping="author=x")
    assert_failed_import(tmp_path, list(tables), "papers.csv", "line 1", "field 'yr'", mapping=MAPPING + ",year=yr")
    assert_failed_import(tmp_path, [tables[1], tables[0]], "citations.csv.gz", "give the papers table first")
    assert_failed_import(tmp_path, [*tables, tables[0]], "papers.csv", "two sources at most")
    empty = write(tmp_path / "empty.csv", "")
    assert_failed_import(tmp_path, [empty], "empty.csv", "line 1", "empty")


# -- the record parser on arbitrary input ------------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
VALID_CELLS = {
    "year": st.integers(-5, 12000).map(str) | st.just(""),
    "areas": st.lists(st.text(max_size=8), max_size=3).map(";".join),
    "cited_by": st.integers(-5, 2**64).map(str) | st.just("1,234"),
    "reference_count": st.integers(0, 10**6).map(str),
    "posted": st.dates().map(str) | st.text(max_size=10),
}
ROWS = st.fixed_dictionaries(
    {
        "id": st.from_regex(r"[A-Za-z0-9._~/-]{1,20}", fullmatch=True) | st.text(max_size=10),
        "title": st.text(max_size=30),
    },
    optional=VALID_CELLS,
)
JUNK = st.dictionaries(st.sampled_from(list(DEFAULT_COLUMNS)), st.text(max_size=10) | JSON, min_size=1, max_size=2)
ANY_ROWS = st.one_of(JSON, ROWS, st.builds(lambda row, junk: {**row, **junk}, ROWS, JUNK))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(row=ANY_ROWS)
def test_parse_paper_row_returns_a_record_or_raises_input_error(row: Any) -> None:
    where = Where(Path("papers.csv"), line=7)
    try:
        rec = parse_paper_row(row, where)
    except InputError as e:
        assert "papers.csv, line 7" in str(e)
        return
    assert isinstance(rec, PaperRecord) and rec.title.strip()
    assert rec.id is not None and clean_id(rec.id) == rec.id
    builder = DatasetBuilder()  # the record must also make a valid table
    builder.add(rec, authoritative=True)
    papers, _, _ = builder.build()
    assert papers.num_rows == 1
