"""'In my library': BibTeX, RIS and CSL-JSON files read with their libraries, matched to the dataset's papers,
served by POST /library without keeping anything; broken entries skipped and named, and a file with nothing readable
refused with a message that names the file and the place. Real files of other projects: test_library_files.py."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from dashboard.errors import DatasetError
from dashboard.graph.state import ViewState
from dashboard.view import export
from dashboard.view.library import (
    MAX_BYTES,
    MAX_ENTRIES,
    LibraryError,
    Reference,
    find,
    match,
    read_library,
    summary,
)
from dashboard.view.payload import compute_view
from dashboard.web.app import create_app
from tests.conftest import DEFAULT_DATA, seed_data

BIB = r"""@inproceedings{vaswani2017,
  title = {Attention Is All You Need},
  author = {Vaswani, Ashish and Shazeer, Noam},
  year = {2017},
  eprint = {1706.03762},
  archivePrefix = {arXiv}
}

@article{devlin,
  title = {{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding},
  author = {Devlin, Jacob},
  year = {2019}
}

@misc{x,
  title = {On the Expressive Power of Self-Attention Matrices},
  year = {2021}
}

@book{absent,
  title = {A Book That Is Not In The Dataset},
  year = {1999}
}
"""
THREE = ["1706.03762", "1810.04805", "2106.03764"]

RIS = """TY  - JOUR
TI  - Attention is all you need
PY  - 2017
UR  - https://arxiv.org/abs/1706.03762v5
ER  -

TY  - CONF
T1  - BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding
PY  - 2018
ER  -

TY  - JOUR
TI  - Inductive Biases and Variable Creation in Self-Attention Mechanisms
DO  - 10.48550/arXiv.2110.10090
ER  -
"""

CSL = [
    {"id": "a", "type": "article", "title": "Attention Is All You Need", "issued": {"date-parts": [[2017, 6]]}},
    {
        "id": "b",
        "type": "article",
        "title": "Adam: A Method for Stochastic Optimization",
        "URL": "https://arxiv.org/abs/1412.6980",
    },
    {"id": "c", "type": "article", "title": "Attention Is All You Need", "issued": {"date-parts": [[2009]]}},
]


def test_bibtex_marks_exactly_the_three_papers_it_holds(default_store: Store) -> None:
    refs = read_library("mine.bib", BIB.encode()).refs
    assert len(refs) == 4 and refs[0] == Reference(title="Attention Is All You Need", year=2017, arxiv="1706.03762")
    assert refs[1].title.startswith("BERT: Pre-training")  # braces gone
    latex = read_library("a.bib", rb"@misc{a, title={Schr{\"o}dinger meets {BERT} \& co}, year=2020}").refs
    assert latex[0].title == "Schrödinger meets BERT & co"
    found = match(default_store, refs)
    assert (found.entries, found.matched) == (4, 3) and found.ids == THREE


def test_ris_and_csl_json(default_store: Store) -> None:
    ris = match(default_store, read_library("mine.ris", RIS.encode()).refs)
    assert ris.ids == ["1706.03762", "1810.04805", "2110.10090"]  # by arXiv link, by title and year, by arXiv DOI
    csl = match(default_store, read_library("mine.json", json.dumps(CSL).encode()).refs)
    # the third: the right title but eight years off, so another paper, not matched
    assert csl.ids == ["1706.03762", "1412.6980"] and (csl.entries, csl.matched) == (3, 2)
    items = read_library("items.json", json.dumps({"items": CSL[:1]}).encode()).refs
    assert match(default_store, items).ids == [THREE[0]]


def test_matching_by_doi_and_by_citemap_id(tmp_path: Path) -> None:
    from dashboard.importers.common import PaperRecord
    from tests.conftest import make_store

    store = make_store(
        tmp_path / "d",
        [
            PaperRecord(title="Alpha", id="W1", doi="10.1000/alpha", year=2000),
            PaperRecord(title="Beta", id="W2", year=2001),
        ],
    )
    assert find(store, Reference(doi="10.1000/alpha")) == store.row("W1")
    assert find(store, Reference(doi="10.1000/other", title="Beta", year=2002)) == store.row("W2")
    assert find(store, Reference(title="Beta", year=2005)) is None  # same title, years too far apart
    assert find(store, Reference(citemap_id="W2")) == store.row("W2") and find(store, Reference()) is None


@pytest.mark.parametrize(("kind", "name"), [("bibtex", "export.bib"), ("ris", "export.ris"), ("json", "export.json")])
def test_a_views_own_export_marks_every_paper_of_the_view(default_store: Store, kind: str, name: str) -> None:
    view = compute_view(default_store, ViewState(("2110.10090",)))
    text, _ = export.export(default_store, view, kind)
    reading = read_library(name, text.encode() if isinstance(text, str) else text)
    found = match(default_store, reading.refs)
    assert sorted(found.ids) == sorted(view.ids) and found.matched == found.entries == view.n_nodes
    assert reading.skipped == [] and all(r.citemap_id for r in reading.refs)  # each found by its citemap id


@pytest.mark.parametrize(
    ("name", "body", "where"),
    [
        (
            "broken.bib",
            "@misc{b, title = {Broken\n",
            r"broken\.bib, line 1: not a valid BibTeX entry: the value of field 'title' opens a brace that is never",
        ),
        (
            "keyless.bib",
            "\n\n@misc{x title = {T}}\n",
            r"keyless\.bib, line 3: not a valid BibTeX entry: no comma after the entry's key, or no key at all",
        ),
        ("comment.bib", "% only a comment\n", r"comment\.bib: no BibTeX entries"),
        ("strings.bib", "@string{x = {y}}\n@comment{z}\n", r"strings\.bib: no BibTeX entries"),
        ("empty.bib", "", r"^empty\.bib: the file is empty$"),
        ("blank.bib", " \n\t\n", r"^blank\.bib: the file is empty$"),
        ("empty.ris", "", r"^empty\.ris: the file is empty$"),
        ("empty.json", "", r"^empty\.json: the file is empty$"),
        ("empty.json", "[]", r"^empty\.json: no entries \(the list of items is empty\)$"),
        ("empty.json", '{"items": []}', r"^empty\.json: no entries \(the list of items is empty\)$"),
        ("citemap.json", '{"query": "", "papers": []}', r"^citemap\.json: no entries \(the list of papers is empty\)$"),
        (
            "open.ris",
            RIS.rsplit("ER  -", 1)[0].split("ER  -")[-1],
            r"open\.ris, line 3: the record has no end line \('ER'\)$",
        ),
        ("junk.ris", "hello\nworld\n", r"junk\.ris, line 1: no RIS records \(each begins with a 'TY' line\)"),
        ("untyped.ris", "TI  - A title\nER  -\n", r"untyped\.ris, line 1: a record without its type line \('TY'\)"),
        ("bad.json", '[{"title": 5}]', r"^bad\.json, line 1, item 1: its title is not text$"),
        (
            "bad.json",
            '[\n  {"id": "k", "title": "x", "issued": [2017]}\n]',
            r"bad\.json, line 2, k: its date \('issued'\)",
        ),
        ("bad.json", '{"items": [\n  "a",\n  3]}', r"^bad\.json, line 2, item 1: not an entry but a text$"),
        ("half.json", '[{"title": "x"', r"half\.json, line 1: not valid JSON"),
        ("other.json", '{"name": "x"}', r"other\.json, line 1: CSL-JSON is a list of items, .* or one item"),
        ("what.txt", "just words", r"what\.txt: not a BibTeX \(\.bib\), RIS \(\.ris or \.txt\), Web of Science"),
        ("pdf.bib", b"%PDF-1.4\n" + bytes(range(256)) * 4, r"pdf\.bib, line \d+: not text"),
    ],
)
def test_files_with_nothing_readable_name_the_file_and_place(name: str, body: str | bytes, where: str) -> None:
    with pytest.raises(LibraryError, match=where):
        read_library(name, body if isinstance(body, bytes) else body.encode())


def test_caps_and_a_legacy_encoding() -> None:
    with pytest.raises(LibraryError, match=r"big\.bib: 2,097,153 bytes; a library file may have at most 2,097,152"):
        read_library("big.bib", b"%" * (MAX_BYTES + 1))
    many = "".join(f"@misc{{k{i}, title={{T{i}}}}}\n" for i in range(MAX_ENTRIES + 1))
    with pytest.raises(LibraryError, match=r"5,001 entries; a library may have at most 5,000"):
        read_library("many.bib", many.encode())
    latin = read_library("latin.bib", b"@misc{a,\n title={Caf\xe9}}\n")
    assert latin.encoding == "windows-1252" and latin.refs[0].title == "Café"


def _tree_hash(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def test_post_library_answers_and_keeps_nothing() -> None:
    before = _tree_hash(DEFAULT_DATA)
    client = create_app(DEFAULT_DATA).server.test_client()
    r = client.post("/library?name=mine.bib", data=BIB.encode())
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert r.get_json() == {
        "name": "mine.bib",
        "format": "BibTeX",
        "encoding": "UTF-8",
        "entries": 4,
        "matched": 3,
        "ids": THREE,
        "skipped": 0,
        "log": [],
        "summary": "mine.bib: 3 of 4 entries are papers of this dataset.",
    }
    half = client.post("/library?name=half.bib", data=b"@misc{b, title = {Broken\n@article{c, title={Ok}}")
    assert half.status_code == 200 and half.get_json()["entries"] == 1
    assert half.get_json()["log"] == [{"line": 1, "entry": "b", "reason": half.get_json()["log"][0]["reason"]}]
    bad = client.post("/library?name=broken.bib", data=b"@misc{b, title = {Broken\n")
    assert bad.status_code == 400 and bad.get_json()["error"].startswith("broken.bib, line 1: not a valid BibTeX")
    huge = client.post("/library?name=huge.bib", data=b"%" * (MAX_BYTES + 10))
    assert huge.status_code == 413
    assert huge.get_json()["error"] == "huge.bib is larger than 2 MiB, the most this server reads"
    unnamed = client.post("/library", data=b"%" * (MAX_BYTES + 1))
    assert unnamed.get_json()["error"] == "the library file is larger than 2 MiB, the most this server reads"
    assert _tree_hash(DEFAULT_DATA) == before  # nothing written beside the dataset


def test_serve_library_marks_the_default_for_every_visitor(tmp_path: Path) -> None:
    lib = tmp_path / "lab.bib"
    lib.write_text(BIB)
    app = create_app(seed_data(), library=lib)
    layout = json.dumps(app.layout.to_plotly_json(), default=lambda o: o.to_plotly_json())
    assert '"ids": ["1706.03762", "1810.04805", "2106.03764"]' in layout and '"name": "lab.bib"' in layout
    lib.write_text("@misc{b, title = {Broken")
    with pytest.raises(DatasetError, match=r"lab\.bib, line 1: not a valid BibTeX"):
        create_app(seed_data(), library=lib)
    with pytest.raises(DatasetError, match=r"absent\.bib: cannot be read"):
        create_app(seed_data(), library=tmp_path / "absent.bib")


def test_one_csl_item_as_doi_content_negotiation_answers_it(default_store: Store) -> None:
    item = {"type": "article", "DOI": "10.48550/arXiv.1706.03762", "title": "Attention Is All You Need"}
    reading = read_library("doi.json", json.dumps(item).encode())
    assert reading.format == "CSL-JSON" and reading.refs == [
        Reference(title="Attention Is All You Need", doi="10.48550/arxiv.1706.03762", arxiv="1706.03762")
    ]
    assert match(default_store, reading.refs).ids == ["1706.03762"]


def test_bad_csl_items_are_skipped_by_line() -> None:
    text = '[\n  {"id": "a", "title": "Fine"},\n  {"id": "b", "title": 5},\n  7,\n  {"title": "Also fine"}\n]'
    reading = read_library("mixed.json", text.encode())
    assert [r.title for r in reading.refs] == ["Fine", "Also fine"]
    assert [(s.line, s.entry, s.reason) for s in reading.skipped] == [
        (3, "b", "its title is not text"),
        (4, "item 3", "not an entry but a number"),
    ]


@pytest.mark.parametrize(
    "link",
    [
        "https://doi.org/10.1145/3292500.3330701",
        "http://dx.doi.org/10.1145/3292500.3330701",
        "https://www.doi.org/10.1145%2F3292500.3330701",
        "http://doi.acm.org/10.1145/3292500.3330701",
        "doi:10.1145/3292500.3330701",
        "https://dl.acm.org/doi/10.1145/3292500.3330701",
        "https://dl.acm.org/doi/pdf/10.1145/3292500.3330701",
        "https://dl.acm.org/doi/abs/10.1145/3292500.3330701?download=true",
    ],
)
def test_doi_links_of_every_common_host_are_read_as_dois(link: str) -> None:
    from dashboard.dataset.id_forms import doi_of
    from dashboard.dataset.keys import clean_doi

    assert clean_doi(link) == doi_of(link) == "10.1145/3292500.3330701"
    bib = f"@inproceedings{{k, title = {{Some Title}}, url = {{{link}}}}}"
    assert read_library("doi.bib", bib.encode()).refs[0].doi == "10.1145/3292500.3330701"


@pytest.mark.parametrize(
    ("link", "doi"),
    [
        ("https://link.springer.com/article/10.1007/s10994-021-05946-3", "10.1007/s10994-021-05946-3"),
        ("https://link.springer.com/content/pdf/10.1007/978-3-030-58452-8_13.pdf", "10.1007/978-3-030-58452-8_13"),
        ("https://onlinelibrary.wiley.com/doi/full/10.1002/asi.24327", "10.1002/asi.24327"),
        (
            "https://www.tandfonline.com/doi/abs/10.1080/01621459.2017.1285773?journalCode=uasa20",
            "10.1080/01621459.2017.1285773",
        ),
        ("https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0012345", "10.1371/journal.pone.0012345"),
        ("http://link.aps.org/doi/10.1103/PhysRevA.67.042105", "10.1103/physreva.67.042105"),
        ("https://iopscience.iop.org/article/10.1088/1367-2630/17/9/093046/meta", "10.1088/1367-2630/17/9/093046"),
        ("https://ieeexplore.ieee.org/document/8578843", None),  # no DOI in the link
        ("https://arxiv.org/abs/1706.03762", None),
        ("https://example.org/files/10.5/x", None),
    ],
)
def test_publisher_links_that_carry_a_doi_are_read_as_dois(link: str, doi: str | None) -> None:
    from dashboard.dataset.id_forms import candidates
    from dashboard.dataset.keys import clean_doi

    assert clean_doi(link) == doi
    assert (("doi", doi) in candidates(link)) == (doi is not None)  # a link typed in the search box names it too


def test_the_citemap_id_field_and_the_old_note_are_read(default_store: Store) -> None:
    bib = (
        "@misc{a, title = {Whatever the title says}, citemapid = {2106.03764}}\n"
        "@misc{b, title = {Whatever else}, note = {citemap id 2006.04862}}\n"
    )
    refs = read_library("export.bib", bib.encode()).refs
    assert [r.citemap_id for r in refs] == ["2106.03764", "2006.04862"]
    assert match(default_store, refs).ids == ["2106.03764", "2006.04862"]


def test_arxiv_ids_in_the_forms_exports_write_them(default_store: Store) -> None:
    """Google Scholar writes the id in the journal, Mendeley in ``arxivId``, biblatex in ``eprint`` with
    ``eprinttype``; Zotero's RIS in a note and a link; old-style ids too."""
    bib = (
        "@article{gs, title={Attention is all you need}, journal={arXiv preprint arXiv:1706.03762}, year={2017}}\n"
        "@article{m, title={X}, arxivId = {1810.04805}}\n"
        "@online{b, title={Y}, eprint={2106.03764}, eprinttype={arxiv}}\n"
        "@article{o, title={Z}, eprint={hep-th/9901001}, archivePrefix={arXiv}}\n"
        "@article{n, title={W}, eprint={1234.5678}, archivePrefix={HAL}}\n"
    )
    assert [r.arxiv for r in read_library("a.bib", bib.encode()).refs] == [
        "1706.03762",
        "1810.04805",
        "2106.03764",
        "hep-th_9901001",
        None,
    ]
    zotero = (
        "TY  - PREPRINT\nTI  - Attention Is All You Need\nAU  - Vaswani, Ashish\nDA  - 2017/06/12/\nPY  - 2017\n"
        "DO  - 10.48550/arXiv.1706.03762\nUR  - http://arxiv.org/abs/1706.03762\n"
        "N1  - arXiv:1706.03762 [cs]\nER  - \n\n"
        "TY  - JOUR\nTI  - Something\nN1  - arXiv:1810.04805 [cs]\nER  - \n"
    )
    refs = read_library("zotero.ris", zotero.encode()).refs
    assert [r.arxiv for r in refs] == ["1706.03762", "1810.04805"] and refs[0].year == 2017


def test_broken_ris_records_are_skipped_and_the_rest_read() -> None:
    text = (
        "TY  - JOUR\nTI  - First, its end missing\n\n"  # lines 1-3
        "TY  - JOUR\nTI  - Second\nER  - \n"  # lines 4-6
        "TI  - Stray fields\nER  - \n"  # lines 7-8
        "TY  - JOUR\nTI  - Third\nER  - \n"  # lines 9-11
        "TY  - JOUR\nTI  - Last, unended\n"  # lines 12-13
    )
    reading = read_library("mixed.ris", text.encode())
    assert [r.title for r in reading.refs] == ["Second", "Third"]
    assert [(s.line, s.reason) for s in reading.skipped] == [
        (1, "the record has no end line ('ER') before the next record, on line 4"),
        (7, "a record without its type line ('TY')"),
        (12, "the record has no end line ('ER')"),
    ]


def test_a_repeated_type_line_is_one_more_line_of_its_record() -> None:
    """A record with more than one ``TY`` line (one at its top, one among its fields) is one record, as JabRef and
    rispy read it; a type line begins a new record only where both sides of it hold a title (an end line lost)."""
    text = (
        "TY  - JOUR\nTY  - BOOK\nT1  - Attention Is All You Need\nAU  - Vaswani, Ashish\n"  # lines 1-4
        "TY  - CONF\nPY  - 2017\nER  - \n\n"  # lines 5-8: a stray type among the fields
        "TY  - JOUR\nTI  - Second paper\n\n"  # lines 9-11: its end line lost
        "TY  - JOUR\nTI  - Third paper\nER  - \n"  # lines 12-14
    )
    reading = read_library("repeated.ris", text.encode())
    assert [(r.title, r.year) for r in reading.refs] == [("Attention Is All You Need", 2017), ("Third paper", None)]
    assert [(s.line, s.reason) for s in reading.skipped] == [
        (9, "the record has no end line ('ER') before the next record, on line 12")
    ]


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("Provider: Some database\n\nTY  - JOUR\nTI  - Attention is all you need\nPY  - 2017\nER  - \n", "RIS"),
        (
            "FN Clarivate Analytics Web of Science\nVR 1.0\nPT J\nTI Attention is all you need\nPY 2017\nER\nEF\n",
            "Web of Science",
        ),
        ("% from a reference manager\n@article{v, title = {Attention is all you need}, year = 2017}\n", "BibTeX"),
        ('[{"title": "Attention is all you need", "issued": {"date-parts": [[2017]]}}]', "CSL-JSON"),
    ],
)
def test_a_txt_file_is_read_by_what_it_holds(default_store: Store, text: str, fmt: str) -> None:
    reading = read_library("savedrecs.txt", text.encode())
    assert reading.format == fmt and match(default_store, reading.refs).ids == ["1706.03762"]


@pytest.mark.parametrize(
    ("entries", "matched", "said"),
    [
        (1, 1, "f.bib: 1 of 1 entry is a paper of this dataset."),
        (1, 0, "f.bib: 0 of 1 entry is a paper of this dataset."),
        (4, 1, "f.bib: 1 of 4 entries is a paper of this dataset."),
        (4, 3, "f.bib: 3 of 4 entries are papers of this dataset."),
        (4, 0, "f.bib: 0 of 4 entries are papers of this dataset."),
        (1200, 1000, "f.bib: 1,000 of 1,200 entries are papers of this dataset."),
    ],
)
def test_the_summary_is_singular_where_a_count_is_one(entries: int, matched: int, said: str) -> None:
    assert summary("f.bib", entries, matched) == said


def test_an_empty_file_is_refused_by_post_library() -> None:
    client = create_app(DEFAULT_DATA).server.test_client()
    for name, body in (("empty.bib", b""), ("empty.json", b"[]"), ("empty.ris", b"\n")):
        r = client.post(f"/library?name={name}", data=body)
        assert r.status_code == 400 and r.get_json()["error"].startswith(f"{name}: "), name
