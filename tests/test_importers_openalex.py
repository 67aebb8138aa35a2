"""The OpenAlex importer on real API responses: counts, fields, edges, and precise errors."""

from __future__ import annotations

import copy
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.dataset.store import Store
from dashboard.importers import run_import
from dashboard.importers.common import DatasetBuilder, InputError, PaperRecord, clean_id, normalise_title
from dashboard.importers.fields import Where
from dashboard.importers.openalex import build, parse_work, referenced_works
from tests.conftest import FIXTURES

FIXTURES = FIXTURES / "openalex"
PAGE = FIXTURES / "works-list-page.json"
SINGLE = FIXTURES / "work-W2741809807.json"
W = "https://openalex.org/"


@pytest.fixture(scope="module")
def page() -> dict[str, Any]:
    return json.loads(PAGE.read_text())


@pytest.fixture(scope="module")
def works(page: dict[str, Any]) -> list[dict[str, Any]]:
    return page["results"]


def by_id(works: list[dict[str, Any]], short: str) -> dict[str, Any]:
    return next(w for w in works if w["id"] == W + short)


def short(url: str) -> str:
    return url.rsplit("/", 1)[1]


def title_groups(works: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Works grouped as the builder merges them: same normalised title, years at most two apart."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for w in works:
        groups.setdefault(normalise_title(w["display_name"]), []).append(w)
    for g in groups.values():
        assert max(w["publication_year"] for w in g) - min(w["publication_year"] for w in g) <= 2
    return list(groups.values())


# -- the list page ---------------------------------------------------------------------------------
def test_list_page_counts(works: list[dict[str, Any]]) -> None:
    builder, info = build([PAGE], progress=False)
    papers, citations, summary = builder.build()
    ids = {w["id"] for w in works}
    inside = sum(1 for w in works for r in w["referenced_works"] if r in ids)
    all_refs = sum(len(w["referenced_works"]) for w in works)
    groups = title_groups(works)
    assert len(works) == 49 and all_refs == 930 and inside == 0
    assert summary["records"] == len(works)
    assert summary["papers"] == papers.num_rows == len(groups) == 47
    assert summary["merged"] == len(works) - len(groups) == 2
    assert summary["citations"] == citations.num_rows == inside
    assert summary["edges_outside"] == all_refs - inside
    assert summary["self_loops"] == 0
    assert info["name"] and info["source"] and isinstance(info["notes"], list)


def test_known_work_fields(works: list[dict[str, Any]]) -> None:
    raw = by_id(works, "W2068311567")
    rec = parse_work(raw, Where(PAGE, record=0))
    assert rec.id == "W2068311567" and rec.alt_ids == []
    assert rec.title.startswith("Redefining climate regions in the United States")
    assert (rec.year, rec.posted, rec.cited_by) == (2014, "2014-12-01", 8)
    assert rec.reference_count == raw["referenced_works_count"] == 50
    assert rec.areas == ["Environmental Science", "Health, Toxicology and Mutagenesis"]
    assert rec.citations_by_year == {c["year"]: c["cited_by_count"] for c in raw["counts_by_year"]}
    assert rec.citations_by_year[2019] == 3
    assert referenced_works(raw, Where(PAGE)) == [short(r) for r in raw["referenced_works"]]


def test_arxiv_ids_from_locations_and_doi(works: list[dict[str, Any]]) -> None:
    from_location = parse_work(by_id(works, "W4307407919"), Where(PAGE))  # journal DOI, arXiv location
    assert from_location.id == "2208.03461" and from_location.alt_ids == ["W4307407919"]
    from_doi = parse_work(by_id(works, "W4365441044"), Where(PAGE))  # doi 10.48550/arxiv.2304.04761
    assert from_doi.id == "2304.04761" and from_doi.alt_ids == ["W4365441044"]


def test_arxiv_id_variants() -> None:
    base = {"id": "W1", "display_name": "T"}
    cases = {
        "https://arxiv.org/pdf/2106.03764v2.pdf": "2106.03764",
        "http://arxiv.org/abs/math.ag/0101001": "math.AG_0101001",
        "https://arxiv.org/abs/hep-th/9901001v3": "hep-th_9901001",
    }
    for url, expected in cases.items():
        rec = parse_work({**base, "locations": [{"landing_page_url": url}]}, Where(PAGE))
        assert rec.id == expected and rec.alt_ids == ["W1"]
    assert (
        parse_work({**base, "ids": {"doi": "https://doi.org/10.48550/ARXIV.2310.08532"}}, Where(PAGE)).id
        == "2310.08532"
    )
    assert parse_work({**base, "doi": "https://doi.org/10.1234/arxiv.org/abs/2106.03764x"}, Where(PAGE)).id == "W1"


def test_merged_duplicates_keep_the_arxiv_id(works: list[dict[str, Any]]) -> None:
    builder, _ = build([PAGE], progress=False)
    papers, _, _ = builder.build()
    rows = {r["id"]: r for r in papers.to_pylist()}
    # two works titled "Connecting Fairness in Machine Learning with Public Health Equity"; one is the arXiv preprint
    assert "2304.04761" in rows and "W4389543639" not in rows and "W4365441044" not in rows
    assert builder.find("W4389543639") == builder.find("W4365441044") == builder.find("2304.04761")
    # "Crowdsourcing ... Amazon Mechanical Turk": 2022 article and 2021 preprint, the first one listed wins
    assert "W3212676313" in rows and "W4242624664" not in rows
    assert rows["W3212676313"]["cited_by"] == by_id(works, "W3212676313")["cited_by_count"]


def test_concepts_when_there_is_no_primary_topic(works: list[dict[str, Any]]) -> None:
    raw = copy.deepcopy(by_id(works, "W2068311567"))
    raw["primary_topic"] = None
    expected = [c["display_name"] for c in sorted(raw["concepts"], key=lambda c: -c["score"]) if c["level"] in (0, 1)][
        :3
    ]
    assert (
        parse_work(raw, Where(PAGE)).areas
        == expected
        == ["Remote sensing", "Geography", "Environmental resource management"]
    )
    raw["concepts"] = []
    assert parse_work(raw, Where(PAGE)).areas == []


def test_single_work_newer_schema() -> None:
    raw = json.loads(SINGLE.read_text())
    builder, _ = build([SINGLE], progress=False)
    papers, citations, summary = builder.build()
    (row,) = papers.to_pylist()
    assert row["id"] == "W2741809807"
    assert row["title"] == raw["display_name"]
    assert (row["year"], row["posted"], row["cited_by"]) == (2018, "2018-02-13", 962)
    assert row["reference_count"] == raw["referenced_works_count"] == 45
    assert row["areas"] == ["Decision Sciences", "Statistics, Probability and Uncertainty"]
    assert {c["year"]: c["count"] for c in row["citations_by_year"]}[2024] == 118
    assert citations.num_rows == 0 and summary["edges_outside"] == len(raw["referenced_works"])


# -- JSON Lines snapshot, through run_import and the store -----------------------------------------
def stub(short_id: str, title: str) -> dict[str, Any]:
    return {"id": W + short_id, "display_name": title, "publication_year": 2017, "referenced_works": []}


def write_snapshot(path: Path, works: list[dict[str, Any]]) -> Path:
    text = "".join(json.dumps(w) + "\n" for w in works)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


@pytest.mark.parametrize("name", ["part_000.gz", "works.jsonl"])
def test_snapshot_edges_through_store(tmp_path: Path, works: list[dict[str, Any]], name: str) -> None:
    stubs = [
        stub("W2781122472", "Cited work A"),
        stub("W2981869278", "Cited work B"),
        {**stub("W2068311567", "A duplicate of the first work"), "display_name": works[0]["display_name"]},
    ]
    src = write_snapshot(tmp_path / name, [*works, *stubs])
    out = tmp_path / "out"
    summary = run_import("openalex", [src], out, argv=["test"], progress=False)
    stub_ids = {s["id"] for s in stubs}
    expected_edges = sum(1 for w in works for r in w["referenced_works"] if r in stub_ids)
    assert expected_edges == 8
    assert summary["citations"] == expected_edges
    assert summary["edges_outside"] == sum(len(w["referenced_works"]) for w in works) - expected_edges
    assert summary["records"] == len(works) + 3 and summary["merged"] == 3  # 2 title pairs + the duplicate
    assert summary["papers"] == 47 + 2

    store = Store.load(out)
    assert store.n == 49 and store.n_citations == expected_edges
    # W2981869278 is cited by four works, one of which (W4307407919) has an arXiv id
    citers = set(store.ids(store.citers(store.row("W2981869278"))))
    assert citers == {"W4387792577", "W3096165595", "W4206121799", "2208.03461"}
    assert set(store.ids(store.citers(store.row("W2781122472")))) == {
        short(w["id"]) for w in works if W + "W2781122472" in w["referenced_works"]
    }
    assert set(store.ids(store.references(store.row("W4387792577")))) == {"W2781122472", "W2981869278"}
    assert set(store.ids(store.references(store.row("2208.03461")))) == {"W2981869278"}
    p = store.paper(store.row("W2068311567"))
    assert p["cited_by"] == 8 and p["title"] == works[0]["display_name"]  # the authoritative first record


def test_folder_of_files_and_duplicate_works_merge(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.json").write_bytes(PAGE.read_bytes())
    (folder / "b.json").write_bytes(SINGLE.read_bytes())
    (folder / "c.json").write_bytes(SINGLE.read_bytes())  # the same work again
    (folder / "manifest").write_text("not JSON, and not read")
    builder, info = build([folder], progress=False)
    _, _, summary = builder.build()
    assert summary["records"] == 49 + 2 and summary["papers"] == 47 + 1 and summary["merged"] == 3
    assert "a.json" in info["name"]


# -- bad input -------------------------------------------------------------------------------------
def assert_failed_import(tmp_path: Path, src: Path, *parts: str) -> InputError:
    out = tmp_path / "out"
    with pytest.raises(InputError) as exc:
        run_import("openalex", [src], out, argv=["test"], progress=False)
    message = str(exc.value)
    assert src.name in message
    for part in parts:
        assert part in message, message
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]
    return exc.value


def test_truncated_json_file(tmp_path: Path) -> None:
    data = PAGE.read_bytes()
    src = tmp_path / "works-list-page.json"
    src.write_bytes(data[: len(data) // 2])
    err = assert_failed_import(tmp_path, src, "line 1", "truncated")
    assert err.line == 1


def test_truncated_pretty_printed_json_names_the_last_line(tmp_path: Path, page: dict[str, Any]) -> None:
    text = json.dumps(page, indent=1)
    src = tmp_path / "pretty.json"
    src.write_text(text[: len(text) // 3])
    err = assert_failed_import(tmp_path, src, "not valid JSON")
    assert err.line == src.read_text().count("\n") + 1


def test_truncated_gzip_snapshot(tmp_path: Path, works: list[dict[str, Any]]) -> None:
    full = write_snapshot(tmp_path / "full.gz", works)
    src = tmp_path / "part_001.gz"
    src.write_bytes(full.read_bytes()[:-200])
    full.unlink()
    err = assert_failed_import(tmp_path, src, "line")
    assert err.line is not None and err.line > 1


def test_json_lines_line_that_is_not_json(tmp_path: Path, works: list[dict[str, Any]]) -> None:
    src = write_snapshot(tmp_path / "part.jsonl", works[:4])
    lines = src.read_text().splitlines()
    lines[2] = lines[2][:100]
    src.write_text("\n".join(lines) + "\n")
    assert_failed_import(tmp_path, src, "line 3", "not valid JSON")


def test_missing_title_names_record_and_field(tmp_path: Path, page: dict[str, Any]) -> None:
    bad = copy.deepcopy(page)
    del bad["results"][5]["display_name"]
    bad["results"][5]["title"] = "   "
    src = tmp_path / "no-title.json"
    src.write_text(json.dumps(bad))
    err = assert_failed_import(tmp_path, src, "line 1", "record 5", "field 'display_name'")
    assert err.record == 5 and err.field == "display_name"


def test_missing_id_in_json_lines_names_line_and_field(tmp_path: Path, works: list[dict[str, Any]]) -> None:
    bad = copy.deepcopy(works[:3])
    bad[1]["id"] = None
    src = write_snapshot(tmp_path / "part.jsonl", bad)
    assert_failed_import(tmp_path, src, "line 2", "field 'id'")


def test_bad_field_values_name_the_field(tmp_path: Path, works: list[dict[str, Any]]) -> None:
    cases = [
        ("publication_year", "2014", "field 'publication_year'"),
        ("publication_date", "2014-13-01", "field 'publication_date'"),
        ("cited_by_count", -1, "field 'cited_by_count'"),
        ("referenced_works", ["https://openalex.org/W1", "not-an-id"], "field 'referenced_works[1]'"),
        ("counts_by_year", [{"year": 2020}], "field 'counts_by_year[0]'"),
    ]
    for name, value, expected in cases:
        bad = {**works[7], name: value}
        with pytest.raises(InputError, match=re.escape(expected)):
            parse_work(bad, Where(PAGE, record=7))
            referenced_works(bad, Where(PAGE, record=7))


def test_empty_file_and_wrong_top_level(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("\n\n")
    assert_failed_import(tmp_path, empty, "empty")
    number = tmp_path / "number.json"
    number.write_text("42\n")
    assert_failed_import(tmp_path, number, "line 1", "expected a work object")


# -- the record parser on arbitrary input ------------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
WORK_URL = st.from_regex(r"https://openalex\.org/W[0-9]{1,12}", fullmatch=True)
NAMED = st.fixed_dictionaries({}, optional={"display_name": st.text(max_size=12)})
VALID_FIELDS = {  # values of the right shape (still including blank titles, NaN scores, odd ids)
    "title": st.text(max_size=30),
    "publication_year": st.integers(1, 9999),
    "publication_date": st.dates().map(str),
    "cited_by_count": st.integers(0, 2**63 - 1),
    "referenced_works_count": st.integers(0, 10**6),
    "referenced_works": st.lists(WORK_URL, max_size=4),
    "counts_by_year": st.lists(
        st.fixed_dictionaries({"year": st.integers(1, 9999), "cited_by_count": st.integers(0, 2**31 - 1)}), max_size=3
    ),
    "primary_topic": st.fixed_dictionaries({}, optional={"field": NAMED, "subfield": NAMED}) | st.none(),
    "concepts": st.lists(
        st.fixed_dictionaries(
            {}, optional={"display_name": st.text(max_size=10), "level": st.integers(-1, 3), "score": st.floats()}
        ),
        max_size=4,
    ),
    "doi": st.sampled_from(["https://doi.org/10.48550/arxiv.2304.04761", "10.48550/arXiv.cs/9901001v2"]),
    "ids": st.dictionaries(st.sampled_from(["doi", "arxiv", "mag"]), st.text(max_size=30) | JSON, max_size=3),
    "locations": st.lists(
        st.dictionaries(
            st.sampled_from(["landing_page_url", "pdf_url"]),
            st.sampled_from(["https://arxiv.org/abs/2106.03764v1"]) | JSON,
        ),
        max_size=3,
    ),
}
VALID_WORKS = st.fixed_dictionaries(
    {"id": WORK_URL | st.from_regex(r"W[0-9]{1,5}", fullmatch=True), "display_name": st.text(min_size=1, max_size=30)},
    optional=VALID_FIELDS,
)
JUNK = st.dictionaries(st.sampled_from(["id", "display_name", *VALID_FIELDS]), JSON, min_size=1, max_size=2)
WORKS = st.one_of(
    JSON,  # anything at all
    VALID_WORKS,  # well-formed works
    st.builds(lambda work, junk: {**work, **junk}, VALID_WORKS, JUNK),  # a well-formed work with one or two bad fields
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=WORKS)
def test_parse_work_returns_a_record_or_raises_input_error(raw: Any) -> None:
    where = Where(Path("works.jsonl"), line=3)
    try:
        rec = parse_work(raw, where)
        refs = referenced_works(raw, where)
    except InputError as e:
        assert "works.jsonl, line 3" in str(e)
        return
    assert isinstance(rec, PaperRecord) and rec.title.strip()
    assert rec.id is not None and clean_id(rec.id) == rec.id
    assert all(r.startswith("W") for r in refs)
    builder = DatasetBuilder()  # the record must also make a valid table
    builder.add(rec, authoritative=True)
    papers, _, _ = builder.build()
    assert papers.num_rows == 1
