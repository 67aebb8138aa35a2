"""What every importer shares (importers/common.py): merging papers, edges, ids, input errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.importers.common import (
    DatasetBuilder,
    InputError,
    PaperRecord,
    clean_id,
    expand_sources,
    normalise_title,
    parse_int,
    read_lines,
    title_id,
)


def test_input_error_names_file_line_record_field() -> None:
    assert str(InputError("a.json", "bad")) == "a.json: bad"
    assert str(InputError(Path("a.csv"), "bad", line=3, field="year")) == "a.csv, line 3, field 'year': bad"
    e = InputError("a.json", "bad", line=2, record="W1", field="id")
    assert str(e) == "a.json, line 2, record W1, field 'id': bad"
    assert (e.file, e.line, e.record, e.field) == ("a.json", 2, "W1", "id")
    assert str(InputError("f", "m", record=0)) == "f, record 0: m"


def test_titles_and_ids() -> None:
    assert normalise_title("  Attention Is ALL   you need!  ") == "attention is all you need"
    assert normalise_title("Résumé: Über-Modèles (v2)") == "resume uber modeles v2"
    assert title_id("Attention is all you need", 2017) == title_id("ATTENTION: is all you need.", 2017)
    assert title_id("A", 2017) != title_id("A", 2018) != title_id("A", None)
    assert title_id("A", None).startswith("t-") and len(title_id("A", None)) == 14
    assert title_id("A", None) == "t-" + __import__("hashlib").blake2b(b"a|", digest_size=6).hexdigest()
    assert clean_id(" 2110.10090 ") == "2110.10090" and clean_id("a b") is None and clean_id("") is None
    assert clean_id("x" * 128) == "x" * 128 and clean_id("x" * 129) is None and clean_id("a/b") is None
    assert parse_int("59,932") == 59932 and parse_int("1\u202f234") == 1234 and parse_int("1 234 567") == 1234567
    with pytest.raises(ValueError):
        parse_int("12a")


def test_merge_by_id_alternative_id_and_title() -> None:
    b = DatasetBuilder()
    k = b.add(PaperRecord(title="Deep  Residual Learning", id="1512.03385", year=2015, areas=["cs.CV"]))
    assert b.record(k).title == "Deep Residual Learning"  # whitespace collapsed
    assert b.add(PaperRecord(title="Other title", id="1512.03385", areas=["cs.LG", "cs.CV"])) == k
    assert b.record(k).areas == ["cs.CV", "cs.LG"] and b.record(k).title == "Deep Residual Learning"
    # merged by title (years one apart) though the ids differ: the arXiv id stays, the other is kept as alt id
    assert b.add(PaperRecord(title="deep residual learning", id="W123", year=2016)) == k
    assert b.record(k).id == "1512.03385" and b.record(k).alt_ids == ["W123"]
    assert b.find("W123") == k and b.find("1512.03385") == k and b.find("nope") is None
    # merging the same other id again adds it once
    b.add(PaperRecord(title="Deep Residual Learning", id="W123"))
    assert b.record(k).alt_ids == ["W123"]
    # found by an alternative id of the new record
    assert b.add(PaperRecord(title="x", id="DOI:1", alt_ids=["W123", "S2:9"])) == k
    assert b.record(k).alt_ids == ["W123", "DOI:1", "S2:9"] and b.find("S2:9") == k
    # years more than two apart, or two different arXiv ids: two papers
    assert b.add(PaperRecord(title="Deep Residual Learning", year=2019)) != k
    assert b.add(PaperRecord(title="Deep Residual Learning", id="1999.00001", year=2015)) != k
    assert b.stats["records"] == 7 and b.stats["merged"] == 4
    assert (b.stats["merged_by_id"], b.stats["merged_by_title"]) == (3, 1)
    # a title known without a year matches one with a year; years two apart match, three do not
    assert b.add(PaperRecord(title="deep residual learning")) == k
    assert b.add(PaperRecord(title="Deep Residual Learning", id="W8", year=2013)) == k
    assert b.add(PaperRecord(title="Deep Residual Learning", id="W9", year=2012)) != k
    c = DatasetBuilder()
    arx = c.add(PaperRecord(title="Same Title", id="2001.00001", year=2020))
    other = c.add(PaperRecord(title="Same Title", id="W7", year=2010))  # ten years apart: another paper
    assert arx != other
    # past the paper with another arXiv id, on to the next one of that title
    assert c.add(PaperRecord(title="same title", id="2001.00002")) == other
    assert c.record(other).id == "2001.00002" and c.record(other).alt_ids == ["W7"]


def test_the_merge_rule_by_doi_and_for_arxiv_papers() -> None:
    b = DatasetBuilder()
    k = b.add(PaperRecord(title="Automatic chemical design", id="1610.02415", year=2016))
    # an ogbn-arxiv node is an arXiv paper: its year (when published) may be far from the posting year
    assert b.add(PaperRecord(title="automatic chemical design", id="ogbn-90391", year=2018)) == k
    smote = b.add(PaperRecord(title="SMOTE: synthetic minority over-sampling", id="1106.1813", year=2011))
    assert b.add(PaperRecord(title="smote synthetic minority over sampling", id="ogbn-102042", year=2002)) == smote
    # not an arXiv paper: nine years apart are two papers
    assert b.add(PaperRecord(title="SMOTE: synthetic minority over-sampling", id="W1", year=2002)) != smote
    # an arXiv paper with another arXiv id: two papers whatever else
    assert b.add(PaperRecord(title="Automatic chemical design", id="2001.00001", year=2016)) != k
    assert b.record(k).alt_ids == ["ogbn-90391"] and b.find("ogbn-90391") == k
    # the same DOI: one paper, whatever the titles
    d = b.add(PaperRecord(title="Published", id="W2", year=2020, doi="10.1/x"))
    assert b.add(PaperRecord(title="Its preprint", id="S2", year=2019, doi="10.1/x")) == d
    assert b.record(d).alt_ids == ["S2"]
    # titles of no Latin letter or digit have the same (empty) key: never merged by it
    assert b.add(PaperRecord(title="深度学习", id="W3", year=2020)) != b.add(
        PaperRecord(title="强化学习", id="W4", year=2020)
    )
    assert [b.stats[f"merged_by_{part}"] for part in ("id", "doi", "title", "title_arxiv")] == [0, 1, 1, 1]
    assert b.stats["merged"] == 3


def test_a_record_known_by_title_alone_keeps_its_id_once_merged() -> None:
    b = DatasetBuilder()
    alone = b.add(PaperRecord(title="Listed by title", year=2019))
    b.add(PaperRecord(title="Listed by title", id="2103.00001", year=2021))
    kept = b.add(PaperRecord(title="Alone", year=2000))
    papers, _, _ = b.build()
    rows = papers.to_pylist()
    assert rows[alone]["id"] == "2103.00001" and rows[alone]["alt_ids"] == [title_id("Listed by title", 2019)]
    assert rows[kept]["id"] == title_id("Alone", 2000) and rows[kept]["alt_ids"] == []


def test_an_arxiv_id_replaces_a_weaker_one() -> None:
    b = DatasetBuilder()
    k = b.add(PaperRecord(title="Adam", id="W42", year=2014))
    b.add(PaperRecord(title="Adam", id="1412.6980", year=2014))
    assert b.record(k).id == "1412.6980" and b.record(k).alt_ids == ["W42"]
    b.add(PaperRecord(title="Adam", id="W43", year=2014))  # not arXiv: does not replace one
    assert b.record(k).id == "1412.6980" and b.record(k).alt_ids == ["W42", "W43"]
    t = b.add(PaperRecord(title="No id", year=2000))
    b.add(PaperRecord(title="no id", id="S1", year=2000))  # a paper known by title gets its first id
    assert b.record(t).id == "S1" and b.record(t).alt_ids == []
    b.add(PaperRecord(title="no id", year=2000, alt_ids=["S1", "S2"]))
    assert b.record(t).alt_ids == ["S2"]  # its own id is not an alternative of itself


def test_authoritative_records_win_for_counts_dates_and_title() -> None:
    b = DatasetBuilder()
    k = b.add(PaperRecord(title="a paper", id="p", year=2020, cited_by=3, posted=None))
    b.add(
        PaperRecord(
            title="A Paper",
            id="p",
            year=2021,
            cited_by=9,
            posted="2021-01-02",
            reference_count=4,
            citations_by_year={2022: 1},
        ),
        authoritative=True,
    )
    r = b.record(k)
    assert (r.title, r.year, r.cited_by, r.posted, r.reference_count, r.citations_by_year) == (
        "A Paper",
        2021,
        9,
        "2021-01-02",
        4,
        {2022: 1},
    )
    b.add(PaperRecord(title="A PAPER!", id="p", year=1999, cited_by=1, reference_count=None), authoritative=True)
    assert (r.title, r.year, r.cited_by, r.reference_count) == ("A Paper", 2021, 9, 4)  # the first authority stays
    b.add(PaperRecord(title="x", id="p", year=1990, cited_by=0))
    assert (r.year, r.cited_by) == (2021, 9)
    # a later non-authoritative record only fills what is missing
    k2 = b.add(PaperRecord(title="Second", id="q"))
    b.add(PaperRecord(title="Second", id="q", year=2001, cited_by=2))
    assert (b.record(k2).year, b.record(k2).cited_by) == (2001, 2)
    b.add(PaperRecord(title="Second", id="q", year=2002, cited_by=5))
    assert (b.record(k2).year, b.record(k2).cited_by) == (2001, 2)


def test_edges_and_their_bookkeeping() -> None:
    b = DatasetBuilder()
    x, y, z = (b.add(PaperRecord(title=t, id=t)) for t in "xyz")
    b.cite(x, y)
    b.cite(x, y)
    b.cite(y, y)
    b.cite(z, z)
    b.cite(z, x)
    b.cite_outside()
    b.cite_outside(4)
    assert b.edges == {(x, y), (z, x)}
    assert {k: b.stats[k] for k in ("edges_seen", "self_loops", "duplicate_edges", "edges_outside")} == {
        "edges_seen": 10,
        "self_loops": 2,
        "duplicate_edges": 1,
        "edges_outside": 5,
    }
    papers, citations, summary = b.build()
    assert papers.column("id").to_pylist() == ["x", "y", "z"]
    assert sorted(zip(citations.column("citing").to_pylist(), citations.column("cited").to_pylist(), strict=True)) == [
        ("x", "y"),
        ("z", "x"),
    ]
    assert summary["papers"] == 3 and summary["citations"] == 2 and summary["papers_with_areas"] == 0


def test_final_ids_are_unique_and_stable() -> None:
    from dashboard.importers.common import _Paper

    b = DatasetBuilder()
    for rec in (
        PaperRecord(title="T", year=1),
        PaperRecord(title="U", id="1234.56789"),
        PaperRecord(title="T", year=1),
        PaperRecord(title="T", year=1),
    ):
        b.papers.append(_Paper(rec, False))  # as if three papers shared a title and year (merging keeps them apart
        # only when their ids differ; a source can still list them)
    ids = b.final_ids()
    t = title_id("T", 1)
    assert ids == [t, "1234.56789", f"{t}-2", f"{t}-3"]
    assert len(set(ids)) == 4 and b.final_ids() == ids
    assert [p.rec.title for p in b.papers] == ["T", "U", "T", "T"]  # the records themselves are unchanged


def test_build_tables_hold_every_field() -> None:
    b = DatasetBuilder("src A")
    b.add(
        PaperRecord(
            title="P",
            id="p",
            year=2020,
            posted="2020-01-02",
            areas=["cs.LG"],
            cited_by=5,
            reference_count=7,
            citations_by_year={2022: 3, 2021: 1},
            authors=["Ada L", "Alan T"],
            venue="J. Tests",
            doi="10.1000/p",
            alt_ids=["W7"],
        )
    )
    b.source = ""
    b.add(PaperRecord(title="Q", id="q"))
    papers, _, summary = b.build()
    rows = papers.to_pylist()
    assert rows[0] == {
        "id": "p",
        "title": "P",
        "year": 2020,
        "posted": "2020-01-02",
        "areas": ["cs.LG"],
        "cited_by": 5,
        "reference_count": 7,
        "citations_by_year": [{"year": 2021, "count": 1}, {"year": 2022, "count": 3}],
        "cited_by_from": "src A",
        "authors": ["Ada L", "Alan T"],
        "venue": "J. Tests",
        "doi": "10.1000/p",
        "sources": ["src A"],
        "alt_ids": ["W7"],
    }
    assert rows[1] == {
        "id": "q",
        "title": "Q",
        "year": None,
        "posted": None,
        "areas": [],
        "cited_by": None,
        "reference_count": None,
        "citations_by_year": None,
        "cited_by_from": None,
        "authors": [],
        "venue": None,
        "doi": None,
        "sources": [],
        "alt_ids": [],
    }
    assert summary["papers_with_areas"] == 1 and summary["records"] == 2 and summary["merged"] == 0
    assert summary["papers_with_authors"] == 1
    plain = DatasetBuilder()  # no source named: papers list none, and a summary without authors says nothing of them
    plain.add(PaperRecord(title="R", id="r", cited_by=2))
    papers, _, summary = plain.build()
    assert papers.to_pylist()[0]["sources"] == [] and papers.to_pylist()[0]["cited_by_from"] is None
    assert "papers_with_authors" not in summary


def test_read_lines_and_sources(tmp_path: Path) -> None:
    good = tmp_path / "a.txt"
    good.write_text("one\ntwo\r\nthree")
    assert list(read_lines(good)) == [(1, "one"), (2, "two"), (3, "three")]
    bad = tmp_path / "b.txt"
    bad.write_bytes(b"fine\nstill fine\nbad \xff here\n")
    with pytest.raises(InputError, match=r"b\.txt, line 3: not UTF-8 text \(invalid start byte\)"):
        list(read_lines(bad))
    with pytest.raises(InputError, match=r"absent\.txt: cannot be read \(No such file or directory\)"):
        list(read_lines(tmp_path / "absent.txt"))
    assert expand_sources([str(good), bad]) == [good, bad]
    with pytest.raises(InputError, match=r"nope: no such file or folder"):
        expand_sources([good, tmp_path / "nope"])


def test_merged_sources_keep_the_first_sources_facts_and_name_every_source() -> None:
    """Two sources describe one paper: the first one's facts win, missing ones are filled in from the second,
    both are listed, and the source of the citation figure is the one that gave it."""
    b = DatasetBuilder("pages")
    b.add(PaperRecord(title="Attention Is All You Need", year=2017, cited_by=59932))
    b.add(PaperRecord(title="Only on pages", id="p1"))
    b.add(PaperRecord(title="Listed without a figure", id="p2"))
    b.add(PaperRecord(title="Own page later", id="p3", cited_by=5))
    b.source = "graph"
    b.add(
        PaperRecord(
            title="attention is all you need",
            id="1706.03762",
            year=2018,
            areas=["cs.CL"],
            authors=["A. Vaswani"],
            cited_by=12,
            doi="10.1/x",
        )
    )
    b.add(PaperRecord(title="Only in the graph", id="g1", cited_by=3))
    b.add(PaperRecord(title="Listed without a figure", id="p2", cited_by=7))
    b.source = "own page"
    b.add(PaperRecord(title="Own page later", id="p3", cited_by=900), authoritative=True)
    rows = {r["title"]: r for r in b.build()[0].to_pylist()}
    att = rows["Attention Is All You Need"]
    assert att["id"] == "1706.03762" and att["year"] == 2017 and att["cited_by"] == 59932  # the pages' facts
    assert att["areas"] == ["cs.CL"] and att["authors"] == ["A. Vaswani"] and att["doi"] == "10.1/x"  # filled in
    assert att["sources"] == ["pages", "graph"] and att["cited_by_from"] == "pages"
    assert rows["Only on pages"]["sources"] == ["pages"] and rows["Only on pages"]["cited_by_from"] is None
    # the pages list it without a figure, the graph gives one: the figure and its source come from the graph
    listed = rows["Listed without a figure"]
    assert listed["cited_by"] == 7 and listed["cited_by_from"] == "graph"
    # an authoritative record (the paper's own page) replaces a figure, and names its source
    assert rows["Own page later"]["cited_by"] == 900 and rows["Own page later"]["cited_by_from"] == "own page"
    assert rows["Only in the graph"]["sources"] == ["graph"] and rows["Only in the graph"]["cited_by_from"] == "graph"


def test_doi_and_names_are_cleaned() -> None:
    from dashboard.importers.common import clean_doi, clean_names

    assert clean_doi("https://doi.org/10.7717/PeerJ.4375") == "10.7717/peerj.4375"
    assert clean_doi(" doi:10.1000/ABC ") == "10.1000/abc" and clean_doi("10.48550/arXiv.1706.03762") is not None
    for link in ("http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "HTTPS://DOI.ORG/"):
        assert clean_doi(link + "10.1000/Xy") == "10.1000/xy", link
    assert clean_doi("not a doi") is None and clean_doi(None) is None and clean_doi("11.1000/x") is None
    assert clean_names([" Ada  Lovelace ", "", None, "Alan Turing"]) == ["Ada Lovelace", "Alan Turing"]


def test_for_source_names_the_source_of_the_builder_it_is_given() -> None:
    from dashboard.importers.common import for_source

    b = DatasetBuilder("first")
    assert for_source(b, "second") is b and b.source == "second"
    new = for_source(None, "third")
    assert isinstance(new, DatasetBuilder) and new is not b and new.source == "third" and new.papers == []


def test_run_import_merges_a_second_source_into_the_same_papers(tmp_path: Path) -> None:
    from dashboard.dataset.store import Store
    from dashboard.importers import parse_merge, run_import

    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text("id,title,year,cited_by\na,Alpha paper,2020,100\nb,Beta paper,2021,\n")
    second.write_text("id,title,year,authors,cited_by\nx,alpha paper,2020,Ada L,5\nc,Gamma paper,2022,,\n")
    cites = tmp_path / "cites.csv"
    cites.write_text("citing,cited\nc,x\n")
    assert parse_merge(f"csv:{second}") == ("csv", [second])
    summary = run_import(
        "csv", [first], tmp_path / "d", argv=["test"], progress=False, merge=[("csv", [second, cites])]
    )
    store = Store.load(tmp_path / "d")
    assert summary["papers"] == store.n == 3 and store.n_citations == 1
    a = store.paper(store.row("a"))
    assert (a["cited_by"], a["cited_by_from"], a["authors"]) == (100, "first.csv", ["Ada L"])
    assert a["sources"] == ["first.csv", "second.csv"] and store.row("x") is None  # merged under the first id
    assert store.ids(store.citers(store.row("a"))) == ["c"]  # the second source's edge, onto the merged paper
    assert store.meta["name"] == "CSV tables (first.csv) + CSV tables (second.csv, cites.csv)"
    assert any("earlier one's facts win" in n for n in store.meta["notes"])
    with pytest.raises(InputError, match="expected FORMAT:PATH"):
        parse_merge("csv")
    with pytest.raises(InputError, match="unknown format 'nope'"):
        parse_merge("nope:x")
