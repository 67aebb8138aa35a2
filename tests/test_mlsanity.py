"""The seed-page importer: every page parsed, papers merged, bad pages named by file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.dataset import builds
from dashboard.dataset.format import read_meta
from dashboard.dataset.store import Store
from dashboard.importers import run_import
from dashboard.importers.common import InputError
from dashboard.importers.mlsanity import parse_page
from tests.conftest import DEFAULT_DATA, SEEDS, seed_pages


def page(name_start: str):
    return parse_page(next(p for p in seed_pages() if p.name.startswith(name_start)))


def test_markdown_page_with_references_and_citers() -> None:
    p = page("000")
    assert p.paper.id == "2106.03764"
    assert p.paper.title == "On the Expressive Power of Self-Attention Matrices"
    assert p.paper.posted == "2021-06-07" and p.paper.year == 2021
    assert p.paper.cited_by == 47 and p.paper.reference_count == 46 and p.in_map_references == 31
    assert len(p.references) == 30 and len(p.citers) == 30
    assert p.references[0].id == "1706.03762" and p.references[0].title == "Attention Is All You Need"
    assert p.references[0].year == 2017
    assert p.citers[-1].id == "2112.10644"
    assert p.data_through == "2026-10-14"


def test_markdown_page_with_citers_only() -> None:
    p = page("002")
    assert p.paper.id == "2006.04862" and p.paper.posted == "2020-06-08"
    assert p.paper.cited_by == 83 and p.paper.reference_count is None
    assert len(p.references) == 0 and len(p.citers) == 30
    assert "2106.03764" in [c.id for c in p.citers]


def test_text_dump_page() -> None:
    p = page("003")
    assert p.paper.id == "2110.10090"
    assert p.paper.title == "Inductive Biases and Variable Creation in Self-Attention Mechanisms"
    assert p.paper.areas == ["cs.LG", "stat.ML"]
    assert p.paper.cited_by == 144 and p.paper.reference_count == 79 and p.in_map_references == 43
    assert p.paper.citations_by_year == {2022: 12, 2023: 42, 2024: 41, 2025: 26, 2026: 23}
    assert len(p.references) == 43 and len(p.citers) == 50
    first = p.references[0]
    assert (first.title, first.year, first.cited_by) == ("Attention Is All You Need", 2017, 59932)
    assert p.citers[0].title.startswith("H2O: Heavy-Hitter Oracle") and p.citers[0].cited_by == 805
    # the abstract is skipped: no sentence of it becomes a paper
    assert all("Self-attention, an architectural motif" not in r.title for r in p.references + p.citers)


def test_default_dataset_merges_papers_across_pages(store: Store) -> None:
    assert store.n == 156 and store.n_citations == 181
    row = store.row("2106.03764")
    p = store.paper(row)
    # listed on page 002 (a citer of 2006.04862) and page 003 (a reference of 2110.10090): one node
    assert store.id(row) == "2106.03764"
    assert "2006.04862" in store.ids(store.references(row))
    assert "2110.10090" in store.ids(store.citers(row))
    assert p["cited_by"] == 47  # its own page wins over the listing's 44
    titles = [t.lower() for t in store.titles(range(store.n))]
    assert titles.count("on the expressive power of self-attention matrices") == 1
    assert titles.count("attention is all you need") == 1


def test_default_dataset_records_its_import_and_its_counts() -> None:
    """The default dataset records the import command that makes it (the seed pages merged with arxiv-2023, with the
    papers' common names; that the command, run as written, makes the same build is tests/test_defaults.py's), its
    counts and its seeds."""
    meta = read_meta(DEFAULT_DATA)
    assert meta["counts"] == {"papers": 30352, "citations": 280542}
    pages = " ".join(f"data/seed-pages/{p.name}" for p in seed_pages())
    merge = "--merge arxiv2023:data/arxiv-2023"
    assert meta["built_with"] == f"citemap import mlsanity {pages} {merge} --names data/names.csv --out DIR"
    assert meta["seeds"] == ["2106.03764", "2006.04862", "2110.10090"]
    assert sum(f.stat().st_size for f in builds.served(DEFAULT_DATA).rglob("*") if f.is_file()) < 30 * 2**20


def test_seed_pages_alone_still_give_156_papers_and_181_citations(store: Store) -> None:
    """``citemap import mlsanity`` of the three pages, nothing merged (the ``store`` fixture builds it)."""
    assert (store.n, store.n_citations) == (156, 181) and store.source_counts() == {"mlsanity pages": 156}


def test_default_dataset_papers_name_their_sources_and_keep_the_two_counts_apart(default_store: Store) -> None:
    s = default_store
    assert s.source_counts() == {"mlsanity pages": 156, "arxiv-2023": 30256}
    att = s.paper(s.row("1706.03762"))
    assert att["sources"] == ["mlsanity pages", "arxiv-2023"]
    assert (att["cited_by"], att["cited_by_from"]) == (59932, "mlsanity pages")  # the pages' own figure
    assert att["in_cited"] == s.n_citers(s.row("1706.03762")) > 500  # citers inside the merged data
    assert att["year"] == 2017 and att["areas"] == ["cs.CL"]  # the pages' year; the area filled from arxiv-2023
    plain = next(r for r in range(s.n) if s.paper(r)["sources"] == ["arxiv-2023"])
    assert s.paper(plain)["cited_by"] is None and s.paper(plain)["cited_by_from"] is None  # no figure invented
    shared = [r for r in range(s.n) if len(s.papers.column("sources")[r].as_py()) == 2]
    assert len(shared) == 60  # papers the pages list that arxiv-2023 has too (same arXiv id, or title and year)
    for seed in ("2106.03764", "2006.04862", "2110.10090"):
        assert s.paper(s.row(seed))["sources"] == ["mlsanity pages"]


def test_no_abstract_text_in_the_dataset() -> None:
    text = b"".join(p.read_bytes() for p in builds.served(DEFAULT_DATA).rglob("*") if p.is_file())
    assert len(text) > 10**6
    for page_file in seed_pages():
        body = page_file.read_text()
        abstract = body.split("Abstract (arXiv)", 1)[1].strip().splitlines()[0]
        assert abstract[:60].encode() not in text


def _broken(tmp_path: Path, source: str, old: str, new: str) -> Path:
    text = (
        (SEEDS / source).read_text()
        if (SEEDS / source).exists()
        else next(p for p in seed_pages() if p.name.startswith(source)).read_text()
    )
    assert old in text
    out = tmp_path / "broken.txt"
    out.write_text(text.replace(old, new, 1))
    return out


def test_malformed_markdown_entry_names_file_and_line(tmp_path: Path) -> None:
    bad = _broken(
        tmp_path,
        "000",
        "- [Reformer: The Efficient Transformer](https://mlsanity.com/paper/2001.04451/)",
        "- [Reformer: The Efficient Transformer(https://mlsanity.com/paper/2001.04451/)",
    )
    with pytest.raises(InputError) as e:
        parse_page(bad)
    line = next(i for i, t in enumerate(bad.read_text().splitlines(), 1) if t.startswith("- [Reformer"))
    assert str(bad) in str(e.value) and f"line {line}" in str(e.value) and "field 'entry'" in str(e.value)


def test_malformed_text_entry_names_file_and_line(tmp_path: Path) -> None:
    bad = _broken(tmp_path, "003", "2016Layer Normalizationcited by 5,579", "2016Layer Normalization cited 5,579")
    with pytest.raises(InputError) as e:
        parse_page(bad)
    line = next(i for i, t in enumerate(bad.read_text().splitlines(), 1) if "Layer Normalization" in t)
    assert f"line {line}" in str(e.value) and "broken.txt" in str(e.value)


def test_count_mismatch_is_reported(tmp_path: Path) -> None:
    bad = _broken(tmp_path, "003", "References · 43", "References · 44")
    with pytest.raises(InputError, match=r"line \d+, field 'References': the page says 44 entries, 43"):
        parse_page(bad)


def test_not_a_page(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("\n\nhello\n")
    with pytest.raises(InputError, match=r"notes.txt, line 3: not a saved citation-map page"):
        parse_page(bad)


def test_failed_import_writes_nothing(tmp_path: Path) -> None:
    bad = _broken(tmp_path, "003", "References · 43", "References · 40")
    out = tmp_path / "out"
    with pytest.raises(InputError):
        run_import("mlsanity", [*seed_pages()[:2], bad], out, argv=["test"])
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

LINES = st.one_of(
    st.text(max_size=60),
    st.builds(
        lambda t, i, y: f"- [{t}](https://mlsanity.com/paper/{i}/) ({y})",
        st.text(max_size=30),
        st.text(max_size=12),
        st.integers(0, 99999),
    ),
    st.builds(
        lambda n, y, t, c: f"  {n}. {y}{t}cited by {c}",
        st.integers(0, 99),
        st.integers(0, 9999),
        st.text(max_size=30),
        st.text(max_size=8),
    ),
    st.sampled_from(
        [
            "## Builds on (most cited first, 2 of 3)",
            "## Built on by",
            "References · 2",
            "Built on by",
            "Key facts. Cited by 3 papers",
            "arXiv: https://arxiv.org/abs/2101.00001",
            "Citing papers per year: 2022: x",
            "First posted on arXiv 31 Feb 2021",
        ]
    ),
)


def test_a_count_of_commas_alone_is_refused_naming_the_file(tmp_path: Path) -> None:
    """A list entry whose count is only separators ("cited by ,") is not a count: an InputError naming the file,
    not a ValueError from deep inside (found by the property test below)."""
    path = tmp_path / "page.txt"
    path.write_text("mlsanityData to 7 Oct 2026\nReferences·0\n0. 00000cited by ,\n")
    try:
        parse_page(path)
    except InputError as e:
        assert str(path) in str(e)
    else:
        raise AssertionError("the page was read")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["# A paper", "mlsanityData to 7 Oct 2026", ""]), st.lists(LINES, max_size=12))
def test_page_parser_property(tmp_path: Path, first: str, lines: list[str]) -> None:
    """Any page: a Page whose papers all have titles, or an InputError naming the file."""
    path = tmp_path / "page.txt"
    path.write_text("\n".join([first, *lines]) + "\n")
    try:
        p = parse_page(path)
    except InputError as e:
        assert str(path) in str(e)
        return
    assert p.paper.id and all(r.title for r in p.references + p.citers)
