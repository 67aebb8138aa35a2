"""OpenAlex JSON Lines on DuckDB: the same dataset as the Python importer, the same errors, lines SQL cannot read
exactly handed to parse_work."""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from dashboard.dataset import index_write, search_write, spill
from dashboard.dataset.format import read_meta, read_tables
from dashboard.importers import duckdb_engine, openalex, openalex_duckdb, run_import
from dashboard.importers.common import InputError
from tests.conftest import FIXTURES

FIXTURES = FIXTURES / "openalex"
W = "https://openalex.org/"


def work(n: int, title: str, **fields: Any) -> dict[str, Any]:
    """A work in the snapshot's shape: primary topic, location, authors, counts, references."""
    base = {
        "id": f"{W}W{n}",
        "doi": f"https://doi.org/10.5555/t.{n}",
        "display_name": title,
        "title": title,
        "publication_year": 2020,
        "publication_date": "2020-05-17",
        "ids": {"openalex": f"{W}W{n}", "doi": f"https://doi.org/10.5555/t.{n}"},
        "primary_location": {
            "landing_page_url": f"https://doi.org/10.5555/t.{n}",
            "pdf_url": None,
            "source": {"display_name": "Journal of Tests"},
        },
        "authorships": [{"author": {"display_name": "Ada Li"}, "raw_author_name": "A. Li"}],
        "primary_topic": {
            "field": {"display_name": "Computer Science"},
            "subfield": {"display_name": "Artificial Intelligence"},
        },
        "concepts": [],
        "cited_by_count": 7,
        "counts_by_year": [{"year": 2021, "cited_by_count": 7}],
        "referenced_works_count": 0,
        "referenced_works": [],
    }
    base.update(fields)
    return base


def odd_works() -> list[dict[str, Any]]:
    """Every shape the SQL reads or hands on: each one changes a value the dataset holds."""
    return [
        work(
            1,
            "Preprint and its published version",
            doi="https://doi.org/10.48550/arxiv.2101.00001",
            referenced_works=[f"{W}W2", f"{W}W3", f"{W}W3", f"{W}W1", f"{W}W999", "w4", "https://api.openalex.org/W5"],
        ),
        work(
            2,
            "Preprint  and its published\tversion ",
            publication_year=2021,
            doi="doi:10.1234/ABC.def",
            referenced_works=[f"{W}W1"],
        ),
        work(
            3,
            'Quoted "title" with é, ﬁ and a\u00a0space',
            ids={"arxiv": " 2102.00002v3 "},
            authorships=[
                None,
                {"author": None, "raw_author_name": "  Raw   Name "},
                {"author": {"display_name": " "}, "raw_author_name": None},
                {"author": {"display_name": "Real  Name"}, "raw_author_name": 12},
            ],
        ),
        work(
            4,
            "Old style arXiv in a location",
            primary_location=None,
            locations=[
                {"landing_page_url": "https://example.org/x"},
                {"pdf_url": "http://arxiv.org/pdf/CS.LG/0101001v2.pdf"},
            ],
            host_venue={"display_name": "Host Venue"},
        ),
        work(
            5,
            "Areas from concepts",
            primary_topic=None,
            concepts=[
                {"level": 1, "display_name": "Deep learning", "score": 0.5},
                {"level": 0, "display_name": "Computer science", "score": 0.9},
                {"level": 2, "display_name": "Too deep", "score": 1.0},
            ],
        ),
        work(
            6,
            "Counts with a repeated year",
            counts_by_year=[{"year": 2021, "cited_by_count": 1}, {"year": 2021, "cited_by_count": 4}],
        ),
        work(7, "Chain of titles", publication_year=2000, publication_date=None),
        work(8, "Chain  of titles", publication_year=2001, publication_date=None),
        work(9, "chain of TITLES", publication_year=2003, publication_date=None, referenced_works=[f"{W}W7"]),
        work(10, "Two arXiv papers, one title", doi="https://doi.org/10.48550/arXiv.2103.00003"),
        work(11, "Two arXiv papers, one title", doi="https://doi.org/10.48550/arxiv.2103.00004v1"),
        work(
            12,
            "No display name",
            display_name=None,
            cited_by_count=None,
            counts_by_year=None,
            referenced_works_count=None,
            referenced_works=[f"{W}W10", f"{W}W12"],
            doi="https://dx.doi.org/10.1/too-short",
        ),
        work(
            13,
            "Same field and subfield",
            primary_topic={"field": {"display_name": "Physics"}, "subfield": {"display_name": "Physics"}},
        ),
        work(
            14,
            "Year only from the date",
            publication_year=None,
            publication_date="1999-12-31",
            ids={"openalex": f"{W}W14", "mag": 123, "pmid": "https://arxiv.org/abs/2104.00005"},
        ),
        work(16, "An id with leading zeros", id=f"{W}W0016"),
        work(17, "Cites it by both spellings", referenced_works=[f"{W}W0016", f"{W}W16", f"{W}W12345678901234567890"]),
        work(18, "Hyphen-ated titles one paper", publication_year=2010, publication_date=None),
        work(19, "hyphen ated Titles one paper", publication_year=2010, publication_date=None),
        work(  # the DOI of W13: one work, merged
            20,
            "Another title",
            doi="https://doi.org/10.5555/T.13",
            primary_topic={"field": {"display_name": "Physics"}, "subfield": {"display_name": "Physics"}},
        ),
        work(21, "深度学习"),  # no Latin letter or digit: a title key says nothing of it, two papers
        work(22, "强化学习"),
        work(
            1,
            "Preprint and its published version",
            display_name="Preprint and its published version (again)",
            cited_by_count=99,
        ),  # the same work in a second place: merged, the first one's facts win
    ]


def write_jsonl(path: Path, works: list[Any], *, gz: bool = False, blank_after: int | None = None) -> Path:
    lines = [json.dumps(w, ensure_ascii=False) for w in works]
    lines = [t if t.isascii() or "\ud800" not in t else json.dumps(w) for t, w in zip(lines, works, strict=True)]
    if blank_after is not None:
        lines.insert(blank_after, "")
    text = "\n".join(lines) + "\n"
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def both(sources: list[Path]) -> tuple[tuple[pa.Table, pa.Table, dict, dict], tuple[pa.Table, pa.Table, dict, dict]]:
    builder, info = openalex.build(sources, progress=False)
    papers, citations, summary = builder.build()
    imported = openalex_duckdb.build(sources, progress=False)
    return (papers, citations, summary, info), (imported.papers, imported.citations(), imported.summary, imported.info)


def assert_same(python: tuple, duck: tuple) -> None:
    for name in python[0].schema.names:
        assert duck[0].column(name).to_pylist() == python[0].column(name).to_pylist(), name
    assert duck[0].equals(python[0])
    assert duck[1].to_pylist() == python[1].to_pylist()
    assert duck[2] == python[2]
    assert duck[3] == python[3]


def test_odd_shapes_give_the_python_importers_dataset(tmp_path: Path) -> None:
    works = odd_works()
    a = write_jsonl(tmp_path / "part_000.gz", works[:9], gz=True, blank_after=3)
    b = write_jsonl(tmp_path / "part_001.jsonl", works[9:])
    python, duck = both([a, b])
    assert_same(python, duck)
    ids = python[0].column("id").to_pylist()
    # what the shapes mean, so that both importers cannot agree on a wrong reading
    assert ids[:2] == ["2101.00001", "2102.00002"] and "cs.LG_0101001" in ids and "2104.00005" in ids
    assert {"2103.00003", "2103.00004"} <= set(ids) and "W8" not in ids and "W9" in ids  # 2003: three years on
    assert "W18" in ids and "W19" not in ids  # the same words: merged
    assert "W20" not in ids and {"W21", "W22"} <= set(ids)
    assert [python[2][f"merged_by_{part}"] for part in ("id", "doi", "title", "title_arxiv")] == [1, 1, 3, 0]
    papers = {p["id"]: p for p in python[0].to_pylist()}
    assert papers["2101.00001"]["cited_by"] == 7 and papers["2101.00001"]["doi"] == "10.48550/arxiv.2101.00001"
    assert papers["2102.00002"]["authors"] == ["Raw Name", "Real Name"]
    assert papers["W5"]["areas"] == ["Computer science", "Deep learning"]
    assert papers["W6"]["citations_by_year"] == [{"year": 2021, "count": 4}]
    assert papers["W12"]["title"] == "No display name" and papers["W12"]["doi"] is None
    assert papers["W13"]["areas"] == ["Physics"] and papers["2104.00005"]["year"] == 1999
    # W1 -> W1, W1 -> W2 and W2 -> W1 (merged into one paper), W12 -> W12; W3 twice; W999, W16 (not W0016), W1234...
    assert python[2]["self_loops"] == 4 and python[2]["duplicate_edges"] == 1 and python[2]["edges_outside"] == 3
    assert ("W17", "W0016") in {(e["citing"], e["cited"]) for e in python[1].to_pylist()}


def test_the_recorded_api_works_give_the_same_dataset(tmp_path: Path) -> None:
    page = json.loads((FIXTURES / "works-list-page.json").read_text())
    single = json.loads((FIXTURES / "work-W2741809807.json").read_text())
    src = write_jsonl(tmp_path / "works.jsonl", [*page["results"], single])
    python, duck = both([src])
    assert_same(python, duck)
    assert duck[2]["records"] == len(page["results"]) + 1 and duck[2]["merged"] > 0


def test_the_first_arxiv_id_is_taken_in_parse_works_order_of_places(tmp_path: Path) -> None:
    """A work whose DOI, ids, primary, best open-access and other locations each name another arXiv id: the first
    place that names one gives it, and within a place, its first URL. Work k has the first k places emptied."""

    def abs_(n: int, kind: str = "abs") -> str:
        return f"https://arxiv.org/{kind}/2201.{n:05}"

    fields: dict[str, Any] = {
        "doi": "https://doi.org/10.48550/arxiv.2201.00001",
        "ids": {"openalex": "x", "arxiv": "2201.00002", "pmid": abs_(3)},
        "primary_location": {"landing_page_url": abs_(4), "pdf_url": abs_(5, "pdf")},
        "best_oa_location": {"landing_page_url": "https://example.org/b", "id": abs_(6)},
        "locations": [
            {"landing_page_url": "https://example.org/l"},
            {"pdf_url": abs_(7, "pdf") + "v2"},
            {"landing_page_url": abs_(8)},
        ],
    }
    emptied = [
        {"doi": "https://doi.org/10.5555/arx"},
        {"ids": {"openalex": "x", "pmid": abs_(3)}},
        {"ids": {"openalex": "x"}},
        {"primary_location": {"landing_page_url": "https://example.org/p"}},
        {"best_oa_location": None},
    ]
    works = [work(60, "Many arXiv ids 0", **fields)]
    for k, change in enumerate(emptied, 1):
        fields = {**fields, **change}
        works.append(work(60 + k, f"Many arXiv ids {k}", **{**fields, "doi": f"https://doi.org/10.5555/arx.{k}"}))
    src = write_jsonl(tmp_path / "w.jsonl", works)
    python, duck = both([src])
    assert_same(python, duck)
    assert duck[0].column("id").to_pylist() == [
        "2201.00001",
        "2201.00002",
        "2201.00003",
        "2201.00004",
        "2201.00006",
        "2201.00007",
    ]


def test_lines_sql_cannot_read_go_to_parse_work(tmp_path: Path) -> None:
    """A line that is a list page, escapes, concepts: still read, and counted apart from the fast ones."""
    import duckdb

    works = odd_works()
    page_line = {"meta": {"count": 2}, "results": [work(20, "In a page"), work(21, "Also in a page")]}
    src = write_jsonl(tmp_path / "w.jsonl", [works[0], works[3], page_line, works[4]])
    python, duck = both([src])
    assert_same(python, duck)
    con = duckdb_engine.connect(tmp_path, macros=openalex_duckdb.MACROS)
    openalex_duckdb.extract(con, [src], tmp_path)
    fast = [r[0] for r in con.execute("SELECT fast FROM lines ORDER BY line").fetchall()]
    assert fast == [True, True, False, False]  # the page, the concepts
    assert openalex_duckdb.slow_rows(con) == 2
    assert con.execute("SELECT count(*) FROM works").fetchall()[0][0] == 5
    con.close()
    assert isinstance(con, duckdb.DuckDBPyConnection)


def test_authors_sql_reads_named_or_checks_each_authorship(tmp_path: Path) -> None:
    """Authorships that all name their author are read as those names; any other (a null, no author, a blank or
    missing name, a raw name only) each part checked as parse_work reads it; a part parse_work would reject, or
    a name that is not text, goes to parse_work. SQL reads the other lines, as Python does."""
    authorships = [
        [{"author": {"display_name": "Ada  Li"}, "raw_author_name": 12}, {"author": {"display_name": "Bo"}}],
        [
            None,
            {"author": None, "raw_author_name": "  Raw   Name "},
            {"raw_author_name": "Only Raw"},
            {"author": {"display_name": " "}, "raw_author_name": "Spare"},
            {"author": {"display_name": "Cy"}},
        ],
        [],
        [{"author": {"id": "A1"}, "raw_author_name": "Ed Raw"}, {"author": {"display_name": "Di"}, "x": [1]}],
        [{"author": {"display_name": None}, "raw_author_name": "Fay Raw"}, {"author": {"display_name": "Gus"}}],
        [{"author": {"id": "A2"}, "raw_author_name": None}],
        [{"author": {"display_name": 7}}],  # not text: parse_work's error, located
    ]
    src = write_jsonl(
        tmp_path / "w.jsonl", [work(30 + i, f"Authors case {i}", authorships=a) for i, a in enumerate(authorships[:-1])]
    )
    python, duck = both([src])
    assert_same(python, duck)
    assert [p["authors"] for p in duck[0].to_pylist()] == [
        ["Ada Li", "Bo"],
        ["Raw Name", "Only Raw", "Spare", "Cy"],
        [],
        ["Ed Raw", "Di"],
        ["Fay Raw", "Gus"],
        [],
    ]
    con = duckdb_engine.connect(tmp_path, macros=openalex_duckdb.MACROS)
    openalex_duckdb.extract(con, [src], tmp_path)
    assert [r[0] for r in con.execute("SELECT fast FROM lines ORDER BY line").fetchall()] == [True] * 6
    con.close()
    bad = write_jsonl(tmp_path / "bad.jsonl", [work(40, "Fine"), work(41, "Not text", authorships=authorships[-1])])
    with pytest.raises(InputError) as python_error:
        openalex.build([bad], progress=False)
    with pytest.raises(InputError) as duck_error:
        openalex_duckdb.build([bad], progress=False)
    assert str(duck_error.value) == str(python_error.value) and "line 2" in str(duck_error.value)
    assert "authorships[0].author.display_name" in str(duck_error.value)


def python_error(src: Path, tmp_path: Path) -> str:
    with pytest.raises(InputError) as e:
        run_import("openalex", [src], tmp_path / "py", engine="python", progress=False)
    return str(e.value)


@pytest.mark.parametrize(
    "case",
    [
        "bad json",
        "year as text",
        "year as a float",
        "count as a float",
        "bad reference",
        "bad date",
        "date without zeros",
        "date past year 9999",
        "no title",
        "surrogate",
        "truncated gzip",
        "not utf-8",
    ],
)
def test_errors_are_the_python_importers_errors(tmp_path: Path, case: str) -> None:
    works = [work(n, f"Paper {n}") for n in range(1, 6)]
    bad = copy.deepcopy(works)
    path = tmp_path / "part.jsonl"
    if case == "bad json":
        write_jsonl(path, bad)
        path.write_text(path.read_text().replace('"id": "https://openalex.org/W4"', '"id": ', 1))
    elif case == "truncated gzip":
        data = gzip.compress(("\n".join(json.dumps(w) for w in bad) + "\n").encode())
        path = tmp_path / "part.gz"
        path.write_bytes(data[: len(data) // 2])
    elif case == "not utf-8":
        write_jsonl(path, bad)
        path.write_bytes(path.read_bytes().replace(b"Paper 3", b"Paper \xff3"))
    else:
        field, value = {
            "year as text": ("publication_year", "2020"),
            "year as a float": ("publication_year", 2020.0),
            "count as a float": ("cited_by_count", 1000.0),
            "date without zeros": ("publication_date", "2020-1-5"),
            "date past year 9999": ("publication_date", "12345-01-01"),
            "bad reference": ("referenced_works", [f"{W}W1", "https://example.org/x"]),
            "bad date": ("publication_date", "2020-02-30"),
            "no title": ("display_name", None),
            "surrogate": ("display_name", "\ud800 x"),
        }[case]
        bad[3][field] = value
        if case == "no title":
            bad[3]["title"] = "   "
        write_jsonl(path, bad)
    expected = python_error(path, tmp_path)
    with pytest.raises(InputError) as e:
        run_import("openalex", [path], tmp_path / "duck", engine="duckdb", progress=False)
    assert str(e.value) == expected
    assert str(path) in expected and ("line 4" in expected or case in ("truncated gzip", "not utf-8", "bad json"))
    assert not (tmp_path / "duck").exists()  # nothing written


def test_citemap_import_takes_the_duckdb_path_for_json_lines_and_serves_it(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "part_000.jsonl", odd_works())
    summary = run_import("openalex", [src], tmp_path / "out", progress=False)
    meta = read_meta(tmp_path / "out")
    assert meta["engine"] == "duckdb" and meta["summary"] == summary
    papers, citations = read_tables(tmp_path / "out")
    assert papers.num_rows == summary["papers"] and citations.num_rows == summary["citations"]
    run_import("openalex", [src], tmp_path / "py", engine="python", progress=False)
    assert read_meta(tmp_path / "py")["engine"] == "python"
    assert read_tables(tmp_path / "py")[0].equals(papers)
    page = json.loads((FIXTURES / "works-list-page.json").read_text())
    listed = tmp_path / "page.json"
    listed.write_text(json.dumps(page))  # a list page is not JSON Lines: the Python importer reads it
    run_import("openalex", [listed], tmp_path / "page", progress=False)
    assert read_meta(tmp_path / "page")["engine"] == "python"


def test_citations_given_as_rows_write_the_same_dataset_and_index(tmp_path: Path) -> None:
    import numpy as np

    from dashboard.dataset import index
    from dashboard.dataset.write import write_dataset
    from dashboard.errors import DatasetError

    src = write_jsonl(tmp_path / "part.jsonl", odd_works())
    imported = openalex_duckdb.build([src], progress=False)
    rows = (imported.citing, imported.cited)
    write_dataset(tmp_path / "rows", imported.papers, rows, {"name": "rows"})
    write_dataset(tmp_path / "table", imported.papers, imported.citations(), {"name": "table"})
    for a, b in zip(read_tables(tmp_path / "rows"), read_tables(tmp_path / "table"), strict=True):
        assert a.equals(b)
    assert imported.citations().num_rows == len(imported.citing) > 0
    served = [Path(tmp_path / name / "current").resolve() for name in ("rows", "table")]
    arrays = [index.load_arrays(folder) for folder in served]
    for name in index.ARRAYS:
        assert np.array_equal(arrays[0][name], arrays[1][name]), name
    bad = [
        (rows[0], np.where(rows[1] == rows[1][0], rows[0][0], rows[1])),  # a self-citation
        (rows[0], rows[1] + imported.papers.num_rows),
    ]  # a row past the last paper
    for citing, cited in bad:
        with pytest.raises(DatasetError):
            write_dataset(tmp_path / "bad", imported.papers, (citing, cited), {"name": "bad"})


# -- CSV tables -----------------------------------------------------------------------------------------------
CSV_PAPERS = """\ufeffpaper_id, name ,year,areas,cited_by,reference_count,posted,authors,venue,doi,notes
2106.03764,On the Expressive Power of Self-Attention Matrices,2021,cs.LG; stat.ML,47,46,2021-06-07,Ada Li;  Bo Chen ,NeurIPS,https://doi.org/10.48550/ARXIV.2106.03764,x
1706.03762,Attention Is All You Need,2017,cs.CL,"59,932",,2017-06-12,,,,
cs/9901001,An old paper,,math.AG,,,1999-01-05,,,doi:10.1000/OLD,
2106.03764,"On the expressive power of
 self-attention matrices",,cs.AI;cs.LG,50,,,,,,duplicate row: merged
W123,A paper known to OpenAlex only,2019,cs.LG;cs.LG,,,,,,,
t1,Un  titre   accentué ﬁnal,2020, ;cs.CV; ,0,0,,Élodie  Dupont,Revue,,
t2,Un titre accentue final,2021,,,,2021-02-28,,,,
t3,"A title with ""quotes"" inside",,,,,,,,,
t4,Another title,2000,,,,,,,https://doi.org/10.1000/old,the DOI of cs/9901001: merged
t5,Глубокое обучение,2020,,,,,,,,
t6,Обучение с подкреплением,2020,,,,,,,,no Latin letter in either title: two papers
"""
CSV_CITATIONS = """source,target
2106.03764,1706.03762
2106.03764,cs/9901001
2106.03764,2106.03764
2106.03764,1706.03762
W123,9999.99999
W123,2106.03764
 t2 ,t1
t3,W123
"""
CSV_MAPPING = "id=paper_id,title=name,citing=source,cited=target"


def csv_both(sources: list[Path], mapping: str | None) -> tuple[tuple, tuple]:
    from dashboard.importers import csv_duckdb, csv_tables

    builder, info = csv_tables.build(sources, mapping=mapping, progress=False)
    papers, citations, summary = builder.build()
    imported = csv_duckdb.build(sources, csv_tables.parse_mapping(mapping), progress=False)
    return (papers, citations, summary, info), (imported.papers, imported.citations(), imported.summary, imported.info)


def test_csv_tables_give_the_python_importers_dataset(tmp_path: Path) -> None:
    papers = tmp_path / "papers.csv"
    papers.write_text(CSV_PAPERS, encoding="utf-8")
    cites = tmp_path / "citations.csv.gz"
    cites.write_bytes(gzip.compress(CSV_CITATIONS.encode()))
    python, duck = csv_both([papers, cites], CSV_MAPPING)
    assert_same(python, duck)
    rows = {p["id"]: p for p in python[0].to_pylist()}
    assert rows["1706.03762"]["cited_by"] == 59932 and rows["cs_9901001"]["doi"] == "10.1000/old"
    assert rows["2106.03764"]["areas"] == ["cs.LG", "stat.ML", "cs.AI"] and "t2" not in rows  # t2 merged into t1
    assert rows["t1"]["authors"] == ["Élodie Dupont"] and rows["W123"]["areas"] == ["cs.LG"]
    assert "t4" not in rows and rows["cs_9901001"]["alt_ids"] == ["t4"] and {"t5", "t6"} <= rows.keys()
    assert python[2]["merged_by_doi"] == 1
    assert python[2]["edges_outside"] == 1 and python[2]["self_loops"] == 2 and python[2]["duplicate_edges"] == 1
    alone = csv_both([papers], CSV_MAPPING)
    assert_same(*alone)
    assert alone[0][2]["citations"] == 0


def test_csv_import_takes_duckdb_and_hands_odd_files_to_python(tmp_path: Path) -> None:
    papers = tmp_path / "papers.csv"
    papers.write_text(CSV_PAPERS, encoding="utf-8")
    cites = tmp_path / "citations.csv"
    cites.write_text(CSV_CITATIONS, encoding="utf-8")
    run_import("csv", [papers, cites], tmp_path / "duck", mapping=CSV_MAPPING, progress=False)
    assert read_meta(tmp_path / "duck")["engine"] == "duckdb"
    odd = tmp_path / "odd.csv"  # mixed line endings and a line of spaces: Python's csv reads it, DuckDB's does not
    odd.write_text(CSV_PAPERS.replace("\nt3,", "\r\n   \nt3,"), encoding="utf-8")
    run_import("csv", [odd, cites], tmp_path / "odd", mapping=CSV_MAPPING, progress=False)
    assert read_meta(tmp_path / "odd")["engine"] == "python"
    facts = [read_tables(tmp_path / name)[0].drop_columns(["cited_by_from", "sources"]) for name in ("odd", "duck")]
    assert facts[0].equals(facts[1])  # the same papers; only the source's name (the file's) differs


@pytest.mark.parametrize("case", ["bad year", "no id", "bad doi", "bad date", "empty citing", "short row"])
def test_csv_errors_are_the_python_importers_errors(tmp_path: Path, case: str) -> None:
    papers_text, cites_text = CSV_PAPERS, CSV_CITATIONS
    if case == "bad year":
        papers_text = papers_text.replace("W123,A paper known to OpenAlex only,2019", "W123,A paper,20x9")
    elif case == "no id":
        papers_text = papers_text.replace("\nt2,", "\n,")
    elif case == "bad doi":
        papers_text = papers_text.replace("doi:10.1000/OLD", "not a doi")
    elif case == "bad date":
        papers_text = papers_text.replace("2021-02-28", "2021-02-30")
    elif case == "empty citing":
        cites_text = cites_text.replace("W123,9999.99999", ",9999.99999")
    else:
        papers_text = papers_text.replace('t3,"A title with ""quotes"" inside",,,,,,,,,', "t3,short")
    papers, cites = tmp_path / "papers.csv", tmp_path / "citations.csv"
    papers.write_text(papers_text, encoding="utf-8")
    cites.write_text(cites_text, encoding="utf-8")
    errors = []
    for engine in ("python", "duckdb"):
        with pytest.raises(InputError) as e:
            run_import("csv", [papers, cites], tmp_path / engine, engine=engine, mapping=CSV_MAPPING, progress=False)
        errors.append(str(e.value))
        assert not (tmp_path / engine).exists()
    assert errors[0] == errors[1] and "line " in errors[0]


def test_a_streamed_import_in_small_batches_writes_the_python_importers_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """citemap import on DuckDB writes the dataset while DuckDB holds it, a few papers and citations at a time:
    every index file (arrays, node text, search, the papers read back) is the Python importer's."""
    import numpy as np

    from dashboard.dataset import index
    from dashboard.dataset.store import Store

    works = odd_works() + [
        work(
            100 + i,
            f"Paper number {i} on graphs",
            referenced_works=[f"{W}W{100 + (i * 7 + k) % 40}" for k in range(1, 1 + i % 6)] + [f"{W}W{(i % 17) + 1}"],
        )
        for i in range(40)
    ]
    src = write_jsonl(tmp_path / "part_000.jsonl", works)
    run_import("openalex", [src], tmp_path / "py", engine="python", progress=False)
    monkeypatch.setattr(index_write, "BATCH", 4)  # papers a batch
    monkeypatch.setattr(duckdb_engine, "STREAM_ROWS", 3)  # citations a chunk from DuckDB, and a range of lists
    monkeypatch.setattr(duckdb_engine, "READ_ROWS", 2)  # citations a chunk from the citations file
    monkeypatch.setattr(search_write, "SEARCH_BATCH", 6)  # the search index's text: ranks a block
    monkeypatch.setattr(spill, "SPREAD_FILES", 4)  # ... in at most 4 blocks: 15 ranks a block
    monkeypatch.setattr(index_write, "KEY_BLOCK", 5)  # sorted keys padded a block at a time
    closed, close = [], duckdb_engine.Streamed.close
    monkeypatch.setattr(duckdb_engine.Streamed, "close", lambda self: (closed.append(self.n), close(self)))
    run_import("openalex", [src], tmp_path / "duck", engine="duckdb", progress=False)
    assert len(closed) == 1  # DuckDB was given back while the dataset was written: the rest read files
    assert read_meta(tmp_path / "duck")["engine"] == "duckdb"
    py, duck = Store.load(tmp_path / "py"), Store.load(tmp_path / "duck")
    assert py.n == duck.n > 50 and py.n_citations == duck.n_citations > 100
    chunks = [len(c) for c in duck._titles.col.chunks]  # a batch: 4 works as read, and the others among them
    assert isinstance(duck._node_json, index.Chunks) and len(chunks) >= duck.n // 8 and max(chunks) <= 8
    for name in index.ARRAYS:
        assert np.array_equal(py.arrays[name], duck.arrays[name]), name
    rows = list(range(py.n))
    assert json.loads(f"[{duck.node_json(rows)}]") == json.loads(f"[{py.node_json(rows)}]")
    assert duck.papers.to_pylist() == py.papers.to_pylist()
    for query in ("paper", "graphs", "chain", "preprint", "ada"):
        assert duck.search(query, 20) == py.search(query, 20)
    duck_tables, py_tables = read_tables(tmp_path / "duck"), read_tables(tmp_path / "py")
    assert duck_tables[0].equals(py_tables[0]) and duck_tables[1].equals(py_tables[1])  # Parquet: other encodings


@pytest.mark.parametrize("seed", range(6))
def test_the_bulk_and_the_rest_come_together_in_order(seed: int) -> None:
    """in_order: the bulk's rows (ascending, some dropped) and the rest's (ascending, in tables of any size) in one
    ascending order, each bulk table once with the rest's rows before its end; a bulk out of order is refused."""
    import numpy as np

    rng = np.random.default_rng(seed)
    ords = rng.choice(10_000, size=int(rng.integers(0, 400)), replace=False)
    is_bulk = rng.random(len(ords)) < [0.0, 1.0, 0.9, 0.5, 0.1, 0.7][seed]
    bulk_ords, rest_ords = np.sort(ords[is_bulk]), np.sort(ords[~is_bulk])
    dropped = (
        np.sort(rng.choice(bulk_ords, size=len(bulk_ords) // 5, replace=False))
        if len(bulk_ords)
        else np.zeros(0, np.int64)
    )

    def tables(values: np.ndarray) -> list[pa.Table]:
        cuts = np.sort(rng.integers(0, len(values) + 1, int(rng.integers(0, 8))))
        return [
            pa.table({"ord": part, "label": [f"row {o}" for o in part]})
            for part in np.split(values.astype(np.int64), cuts)
        ]

    bulk = tables(bulk_ords)
    out = list(duckdb_engine.in_order(bulk, tables(rest_ords), dropped))
    got = [o for t in out for o in t.column("ord").to_pylist()]
    assert got == sorted(set(ords.tolist()) - set(dropped.tolist()))
    assert [x for t in out for x in t.column("label").to_pylist()] == [f"row {o}" for o in got]
    assert len(out) >= len(bulk)
    if len(bulk_ords) > 1:  # backwards in a table, or a table after one it should precede
        half = len(bulk_ords) // 2
        for backwards in ([bulk_ords[::-1]], [bulk_ords[half:], bulk_ords[:half]]):
            with pytest.raises(ValueError, match="out of their order"):
                list(
                    duckdb_engine.in_order(
                        [pa.table({"ord": part.astype(np.int64)}) for part in backwards], [], dropped
                    )
                )


def test_duckdbs_memory_is_an_option_and_running_out_of_it_says_so(tmp_path: Path, capsys) -> None:
    """``--memory`` sets DuckDB's memory: too little for the input stops with a message naming the option (no
    traceback, nothing published); enough builds the dataset and the rebuild command keeps the option."""
    from dashboard.cli import main

    works = [
        work(i, f"Paper {i} on topic {i % 97}", referenced_works=[f"{W}W{(i * 31 + k) % 20000}" for k in range(8)])
        for i in range(20000)
    ]
    src = write_jsonl(tmp_path / "part_000.jsonl", works)
    assert main(["import", "openalex", str(src), "--out", str(tmp_path / "small"), "--memory", "4MB", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "4MB" in err and "--memory" in err and "Traceback" not in err
    assert not (tmp_path / "small").exists() or not list((tmp_path / "small").glob("**/dataset.json"))
    assert main(["import", "openalex", str(src), "--out", str(tmp_path / "ok"), "--memory", "300MB", "--quiet"]) == 0
    meta = read_meta(tmp_path / "ok")
    assert meta["engine"] == "duckdb" and meta["summary"]["papers"] == 20000
    assert "--memory 300MB" in meta["built_with"]
    with pytest.raises(SystemExit):
        main(["import", "openalex", str(src), "--out", str(tmp_path / "x"), "--memory", "lots"])
    assert "not a memory size" in capsys.readouterr().err


def test_memory_sizes_read_as_duckdb_reads_them_and_the_output_takes_its_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--memory`` sizes in bytes (KB 1000, KiB 1024); DuckDB has all of it while it extracts, its link share while
    it merges and links, its output share while the dataset is read, so that a larger ``--memory`` helps in every
    step (what running out of it says)."""
    assert duckdb_engine.memory_bytes("500MB") == 500_000_000
    assert duckdb_engine.memory_bytes(" 1.5GiB") == 3 * 2**29
    assert duckdb_engine.memory_bytes("64kb") == 64_000
    assert duckdb_engine.memory_bytes("2048B") == 2048
    for bad in ("lots", "5", "5 PB", "-1GB", "1e3MB", "5iB"):
        with pytest.raises(ValueError, match="not a memory size"):
            duckdb_engine.memory_bytes(bad)
    src = write_jsonl(
        tmp_path / "part_000.jsonl", [work(i, f"Paper {i}", referenced_works=[f"{W}W{i - 1}"]) for i in range(1, 30)]
    )
    import duckdb

    reader = openalex_duckdb.OpenAlexLines(openalex_duckdb.source_files([src]))
    setting = "SELECT current_setting('memory_limit')"
    seen: list[tuple[str, str]] = []

    def spying(step: str, run: Callable[..., Any]) -> Callable[..., Any]:
        def spy(con: Any, *args: Any) -> Any:
            seen.append((step, con.execute(setting).fetchall()[0][0]))
            return run(con, *args)

        return spy

    monkeypatch.setattr(reader, "extract", spying("extract", reader.extract))
    for step in ("merge", "edges"):
        monkeypatch.setattr(duckdb_engine, step, spying(step, getattr(duckdb_engine, step)))

    def text(size: int) -> str:  # DuckDB's own text for that many bytes
        con = duckdb.connect()
        con.execute(f"SET memory_limit = '{size}B'")
        try:
            return con.execute(setting).fetchall()[0][0]
        finally:
            con.close()

    for given, whole, link, output in (
        ("1GB", 10**9, 600_000_000, 400_000_000),
        ("500MB", 500_000_000, 300_000_000, 200_000_000),
    ):
        seen.clear()
        with duckdb_engine.streamed(reader, progress=False, workdir=tmp_path, memory_limit=given) as imported:
            assert imported.con.execute(setting).fetchall()[0][0] == text(output)
            assert imported.summary["papers"] == 29 and imported.summary["citations"] == 28
        assert seen == [("extract", text(whole)), ("merge", text(link)), ("edges", text(link))]
    spill = tmp_path / "spill"
    spill.mkdir()
    with (
        pytest.raises(ValueError, match="not a memory size"),
        duckdb_engine.streamed(reader, progress=False, workdir=spill, memory_limit="400 megabytes"),
    ):
        pass  # refused before any work, nothing left
    assert list(spill.iterdir()) == []


def test_items_made_ahead_come_in_order_and_a_failure_reaches_the_caller() -> None:
    import itertools
    import threading

    assert list(duckdb_engine.ahead(range(50))) == list(range(50)) and list(duckdb_engine.ahead([])) == []

    def failing() -> Iterator[int]:
        yield 1
        yield 2
        raise OSError("disk gone")

    got = []
    with pytest.raises(OSError, match="disk gone"):
        for item in duckdb_engine.ahead(failing()):
            got.append(item)
    assert got == [1, 2]
    before = threading.active_count()
    for item in duckdb_engine.ahead(itertools.count()):  # the caller stops early: the thread ends, not blocked
        if item == 3:
            break
    assert threading.active_count() == before


@pytest.mark.parametrize("rows", [1, 2, 3, 7, 100])
def test_edges_are_each_stated_citation_once_in_the_builders_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: int
) -> None:
    """The citations stream out of DuckDB ``rows`` at a time, in any order, and are sorted a range of citing papers
    at a time: ends outside the papers, self-citations and repeats (also across chunks) are counted and dropped;
    the file holds the rest once, by citing then cited paper, as rows of the papers table."""
    import random

    ids = ["P3", "P0", "P5", "P1", "P4", "P2", "Q1", "Q2"]  # rows in this order (ord), not their names' order
    row = {key: r for r, key in enumerate(ids)}
    rng = random.Random(rows)
    stated = [(rng.choice([*ids[:6], "X"]), rng.choice([*ids[:6], "Y"])) for _ in range(60)]
    stated += [("P0", "P5")] * 3 + [("P2", "P2"), ("Q2", "P5"), ("Q1", "P5")]  # repeats; Q1, Q2: rows 6, 7 cite P5
    paper = pa.table(  # noqa: F841 (DuckDB's)
        {
            "ord": list(range(0, 80, 10)),
            "id": ids,
            "doi": [None] * 8,
            "alt_ids": pa.array([[]] * 8, pa.list_(pa.string())),
        }
    )
    said = pa.table({"citing": [a for a, _ in stated], "cited": [b for _, b in stated]})  # noqa: F841
    con = duckdb_engine.connect(tmp_path)
    con.execute("CREATE TABLE paper AS SELECT * FROM paper")
    con.execute("CREATE TABLE keys AS SELECT ord, id AS key FROM paper")  # what merge leaves: no work merged
    con.execute("CREATE TABLE cand (ord BIGINT)")
    con.execute("CREATE TABLE cand_ords (ord BIGINT, pord BIGINT)")
    con.execute("CREATE TABLE cand_keys (key VARCHAR, pord BIGINT)")
    con.execute("CREATE TABLE said AS SELECT * FROM said")
    monkeypatch.setattr(duckdb_engine, "STREAM_ROWS", rows)
    monkeypatch.setattr(duckdb_engine, "EDGE_RANGE", max(1, rows // 3))  # 1 paper a range (of 8) ... all in one
    stats = duckdb_engine.edges(
        con,
        """CREATE VIEW refs AS SELECT a.r AS citing, b.r AS cited
        FROM said s LEFT JOIN keyrank a ON s.citing = a.key LEFT JOIN keyrank b ON s.cited = b.key""",
        tmp_path / "edges",
    )
    inside = [(row[a], row[b]) for a, b in stated if a in row and b in row]
    expected = sorted({(a, b) for a, b in inside if a != b})
    chunks = list(duckdb_engine.read_pairs(tmp_path / "edges", 4))
    written = [(int(a), int(b)) for citing, cited in chunks for a, b in zip(citing, cited, strict=True)]
    assert written == expected and len(expected) > 10
    assert stats == {
        "edges_seen": len(stated),
        "self_loops": sum(a == b for a, b in inside),
        "duplicate_edges": len(inside) - sum(a == b for a, b in inside) - len(expected),
        "edges_outside": len(stated) - len(inside),
        "citations": len(expected),
    }
    assert stats["self_loops"] >= 1 and stats["duplicate_edges"] >= 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("spread-")] == []  # the ranges' files: gone
    assert con.execute("SELECT current_setting('disabled_optimizers')").fetchall() == [("",)]  # as it was


def test_the_staged_lines_keep_the_input_order_across_row_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What SQL extracts goes to a Parquet file written by both threads in many row groups: each line's ``line``
    is still its place in the input, and the dataset is the Python importer's."""
    works = [
        work(1000 + i, f"Paper {i} on graphs", referenced_works=[f"{W}W{1000 + (i * 7) % 9000}"]) for i in range(9000)
    ]
    src = [write_jsonl(tmp_path / f"part_{k:03}.jsonl", works[k * 1500 : (k + 1) * 1500]) for k in range(6)]
    monkeypatch.setattr(duckdb_engine, "STAGED_GROUP", 100)  # DuckDB rounds it up to 2,048
    con = duckdb_engine.connect(tmp_path, macros=openalex_duckdb.MACROS)
    openalex_duckdb.extract(con, src, tmp_path)  # files read by both threads
    groups = con.execute(f"SELECT count(DISTINCT row_group_id) FROM parquet_metadata('{tmp_path / 'lines.parquet'}')")
    assert groups.fetchall()[0][0] >= 5
    assert [w for (w,) in con.execute("SELECT wid FROM lines ORDER BY line").fetchall()] == [
        f"W{1000 + i}" for i in range(9000)
    ]
    con.close()
    python, duck = both(src)
    assert_same(python, duck)
    assert duck[0].column("id").to_pylist()[:3] == ["W1000", "W1001", "W1002"] and duck[2]["citations"] == sum(
        (i * 7) % 9000 != i for i in range(9000)
    )
