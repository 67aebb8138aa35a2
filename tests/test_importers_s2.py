"""The Semantic Scholar importer on real Graph API responses: counts, fields, edges, precise errors."""

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
from dashboard.importers.s2 import build, parse_paper
from tests.conftest import FIXTURES

FIXTURES = FIXTURES / "semanticscholar"
PAPER = FIXTURES / "Paper.json"
CITATION = FIXTURES / "Citation.json"
REFERENCE = FIXTURES / "Reference.json"
TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"


@pytest.fixture(scope="module")
def paper() -> dict[str, Any]:
    return json.loads(PAPER.read_text())


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Store]:
    out = tmp_path_factory.mktemp("s2") / "out"
    summary = run_import("s2", [PAPER], out, argv=["test"], progress=False)
    return summary, Store.load(out)


def collapse(title: str) -> str:
    return " ".join(title.split())


def test_paper_counts(paper: dict[str, Any], imported: tuple[dict[str, Any], Store]) -> None:
    summary, store = imported
    cits, refs = paper["citations"], paper["references"]
    assert (len(cits), len(refs)) == (1000, 14)
    # every listed paper has a title; the builder merges papers by id, else by normalised title
    titles = {normalise_title(p["title"]) for p in [paper, *cits, *refs]}
    edges = {("cites", normalise_title(p["title"])) for p in cits}
    edges |= {("ref", normalise_title(p["title"])) for p in refs}
    assert summary["records"] == 1 + len(cits) + len(refs) == 1015
    assert summary["papers"] == store.n == len(titles) == 1014
    assert summary["merged"] == 1 + len(cits) + len(refs) - len(titles) == 1  # "Proof in the time of machines" x2
    assert summary["citations"] == store.n_citations == len(edges) == 1013
    assert summary["duplicate_edges"] == 1 and summary["self_loops"] == 0 and summary["edges_outside"] == 0
    assert (
        summary["papers_with_areas"]
        == sum(1 for p in [paper, *cits, *refs] if p.get("fieldsOfStudy") or p.get("s2FieldsOfStudy")) - 1
    )


def test_focal_paper_fields_and_neighbours(paper: dict[str, Any], imported: tuple[dict[str, Any], Store]) -> None:
    _, store = imported
    row = store.row(TURING)
    p = store.paper(row)
    assert p["title"] == "Computing Machinery and Intelligence"
    assert (p["year"], p["posted"], p["cited_by"], p["reference_count"]) == (1950, "1950-10-01", 10059, 14)
    assert p["areas"] == ["Computer Science", "Sociology"]
    assert set(store.titles(store.references(row))) == {collapse(r["title"]) for r in paper["references"]}
    assert set(store.titles(store.citers(row))) == {collapse(c["title"]) for c in paper["citations"]}
    assert store.n_citers(row) == 999 and store.n_references(row) == 14
    # references without a paperId get a title id, and cite nothing here
    unresolved = [r for r in paper["references"] if not r["paperId"]]
    assert len(unresolved) == 6
    ids = store.ids(store.references(row))
    assert sum(1 for i in ids if i.startswith("t-")) == 6
    assert store.meta["seeds"] == [TURING]
    assert any("1,000 of its 10,059 citations" in n for n in store.meta["notes"])


def test_listed_papers(paper: dict[str, Any], imported: tuple[dict[str, Any], Store]) -> None:
    _, store = imported
    raw = paper["citations"][1]
    rec = parse_paper(raw, Where(PAPER, record="0, citations[1]"), require_id=False)
    assert rec.id == raw["externalIds"]["ArXiv"] == "2405.19561" and rec.alt_ids == [raw["paperId"]]
    assert (rec.year, rec.posted, rec.cited_by, rec.reference_count) == (2024, "2024-05-29", 0, 114)
    assert rec.areas == ["Computer Science"]
    assert store.ids(store.references(store.row("2405.19561"))) == [TURING]
    # no fieldsOfStudy: the s2FieldsOfStudy categories, deduplicated
    first = paper["citations"][0]
    assert first["fieldsOfStudy"] is None
    assert parse_paper(first, Where(PAPER), require_id=False).areas == ["Computer Science"]
    assert parse_paper(
        {**first, "s2FieldsOfStudy": [{"category": "Physics"}, {"category": "Biology"}, {"category": "Physics"}]},
        Where(PAPER),
    ).areas == ["Physics", "Biology"]


def test_list_of_papers_and_search_page_and_merging(tmp_path: Path, paper: dict[str, Any]) -> None:
    """A listed citation given also as a paper object is merged into it; its own figures win."""
    citing = copy.deepcopy(paper["citations"][1])
    citing["citationCount"] = 5
    citing["references"] = [
        {"paperId": TURING, "title": paper["title"], "year": 1950},
        {"paperId": "f" * 40, "title": "A new reference", "year": 2020},
    ]
    batch = tmp_path / "batch.json"
    batch.write_text(json.dumps([paper, citing]))
    builder, info = build([batch], progress=False)
    papers, _, summary = builder.build()
    rows = {r["id"]: r for r in papers.to_pylist()}
    assert summary["papers"] == 1014 + 1 and rows["2405.19561"]["cited_by"] == 5
    assert summary["citations"] == 1013 + 1  # citing -> Turing was already there (a duplicate edge)
    assert summary["duplicate_edges"] == 2
    assert info["seeds"] == [TURING, "2405.19561"]

    page = tmp_path / "search.json"
    page.write_text(json.dumps({"total": 2, "offset": 0, "data": [citing, {"paperId": "e" * 40, "title": "Other"}]}))
    builder, _ = build([page], progress=False)
    _, _, summary = builder.build()
    assert summary["papers"] == 4 and summary["citations"] == 2

    lines = tmp_path / "papers.jsonl.gz"
    lines.write_bytes(gzip.compress((json.dumps(citing) + "\n" + json.dumps(paper) + "\n").encode()))
    builder, _ = build([lines], progress=False)
    assert builder.build()[2]["papers"] == 1014 + 1


# -- refused and bad input ---------------------------------------------------------------------------
def assert_failed_import(tmp_path: Path, src: Path, *parts: str) -> InputError:
    out = tmp_path / "out"
    with pytest.raises(InputError) as exc:
        run_import("s2", [src], out, argv=["test"], progress=False)
    message = str(exc.value)
    assert src.name in message
    for part in parts:
        assert part in message, message
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]
    return exc.value


@pytest.mark.parametrize(
    ("src", "endpoint", "key"), [(CITATION, "citations", "citingPaper"), (REFERENCE, "references", "citedPaper")]
)
def test_citation_and_reference_items_are_refused(tmp_path: Path, src: Path, endpoint: str, key: str) -> None:
    err = assert_failed_import(tmp_path, src, "line 1", f"/{endpoint} endpoint", "do not say", f"field '{key}'")
    assert err.line == 1
    page = tmp_path / f"{endpoint}-page.json"
    page.write_text(json.dumps({"offset": 0, "data": [json.loads(src.read_text())] * 2}))
    err = assert_failed_import(tmp_path, page, "record 0", "Import the paper object")


def test_truncated_json(tmp_path: Path) -> None:
    data = PAPER.read_bytes()
    src = tmp_path / "Paper.json"
    src.write_bytes(data[: len(data) * 2 // 3])
    err = assert_failed_import(tmp_path, src, "line 1", "not valid JSON", "truncated")
    assert err.line == 1


def test_missing_title_of_a_listed_paper(tmp_path: Path, paper: dict[str, Any]) -> None:
    bad = copy.deepcopy(paper)
    bad["citations"][3]["title"] = None
    src = tmp_path / "bad-citation.json"
    src.write_text(json.dumps(bad))
    err = assert_failed_import(tmp_path, src, "line 1, record citations[3]", "field 'title'")
    assert err.field == "title"


def test_missing_id_of_the_paper(tmp_path: Path, paper: dict[str, Any]) -> None:
    bad = [paper, {**paper, "paperId": None, "externalIds": {"DOI": "10.1/x"}}]
    src = tmp_path / "no-id.json"
    src.write_text(json.dumps(bad))
    assert_failed_import(tmp_path, src, "record 1", "field 'paperId'")


def test_bad_values_name_the_field(tmp_path: Path, paper: dict[str, Any]) -> None:
    cases = [
        ("year", "1950", "year"),
        ("publicationDate", "1950-10", "publicationDate"),
        ("citationCount", -3, "citationCount"),
        ("externalIds", {"ArXiv": "not an id"}, "externalIds.ArXiv"),
        ("paperId", "has spaces in it", "paperId"),
        ("fieldsOfStudy", "Computer Science", "fieldsOfStudy"),
        ("citations", {"oops": 1}, "citations"),
        ("references", 7, "references"),
    ]
    src = tmp_path / "pretty.json"
    small = {**paper, "citations": paper["citations"][:5]}
    for name, value, field in cases:
        src.write_text(json.dumps({**small, name: value}, indent=2))  # one document: record 0
        with pytest.raises(InputError, match=re.escape(f"pretty.json, record 0, field '{field}'")):
            build([src], progress=False)


# -- the record parser on arbitrary input ------------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
HEX40 = st.from_regex(r"[0-9a-f]{40}", fullmatch=True)
VALID_FIELDS = {
    "paperId": HEX40 | st.none(),
    "externalIds": st.fixed_dictionaries(
        {},
        optional={
            "ArXiv": st.sampled_from(["2405.19561", "cs/9901001", "1402.0030v2"]) | st.none(),
            "DOI": st.text(max_size=20),
            "CorpusId": st.integers(),
        },
    ),
    "year": st.integers(1, 9999) | st.none(),
    "publicationDate": st.dates().map(str) | st.none(),
    "citationCount": st.integers(0, 2**63 - 1) | st.none(),
    "referenceCount": st.integers(0, 10**6) | st.none(),
    "fieldsOfStudy": st.lists(st.text(max_size=12), max_size=3) | st.none(),
    "s2FieldsOfStudy": st.lists(
        st.fixed_dictionaries({"category": st.text(max_size=12)}, optional={"source": st.text(max_size=5)}), max_size=3
    ),
}
VALID_PAPERS = st.fixed_dictionaries({"title": st.text(min_size=1, max_size=30)}, optional=VALID_FIELDS)
JUNK = st.dictionaries(st.sampled_from(["title", *VALID_FIELDS, "citingPaper"]), JSON, min_size=1, max_size=2)
PAPERS = st.one_of(JSON, VALID_PAPERS, st.builds(lambda paper, junk: {**paper, **junk}, VALID_PAPERS, JUNK))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=PAPERS, require_id=st.booleans())
def test_parse_paper_returns_a_record_or_raises_input_error(raw: Any, require_id: bool) -> None:
    where = Where(Path("Paper.json"), record="0, citations[7]")
    try:
        rec = parse_paper(raw, where, require_id=require_id)
    except InputError as e:
        assert "Paper.json, record 0, citations[7]" in str(e)
        return
    assert isinstance(rec, PaperRecord) and rec.title.strip()
    assert rec.id is None or clean_id(rec.id) == rec.id
    assert rec.id is not None or not require_id
    builder = DatasetBuilder()  # the record must also make a valid table
    builder.add(rec)
    papers, _, _ = builder.build()
    assert papers.num_rows == 1


def test_cassette_yaml_is_refused_clearly(tmp_path: Path) -> None:
    assert_failed_import(tmp_path, FIXTURES / "test_get_paper.yaml", "YAML", "as a .json file")


def test_api_error_response_is_named(tmp_path: Path) -> None:
    src = tmp_path / "not-found.json"
    src.write_text('{"error":"Paper with id 0 not found"}\n')
    assert_failed_import(tmp_path, src, "line 1", "field 'error'", "Paper with id 0 not found")
