"""'In my library': BibTeX, RIS and CSL-JSON files read with their libraries, matched to the dataset's papers,
served by POST /library without keeping anything, refused with a message that names the file and the place."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from dashboard.errors import DatasetError
from dashboard.graph.state import ViewState
from dashboard.view import export
from dashboard.view.library import MAX_BYTES, MAX_ENTRIES, LibraryError, Reference, find, match, read_library
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
    refs = read_library("mine.bib", BIB.encode())
    assert len(refs) == 4 and refs[0] == Reference(title="Attention Is All You Need", year=2017, arxiv="1706.03762")
    assert refs[1].title.startswith("BERT: Pre-training")  # braces gone
    latex = read_library("a.bib", rb"@misc{a, title={Schr{\"o}dinger meets {BERT} \& co}, year=2020}")
    assert latex[0].title == "Schrödinger meets BERT & co"
    found = match(default_store, refs)
    assert (found.entries, found.matched) == (4, 3) and found.ids == THREE


def test_ris_and_csl_json(default_store: Store) -> None:
    ris = match(default_store, read_library("mine.ris", RIS.encode()))
    assert ris.ids == ["1706.03762", "1810.04805", "2110.10090"]  # by arXiv link, by title and year, by arXiv DOI
    csl = match(default_store, read_library("mine.json", json.dumps(CSL).encode()))
    # the third: the right title but eight years off, so another paper, not matched
    assert csl.ids == ["1706.03762", "1412.6980"] and (csl.entries, csl.matched) == (3, 2)
    assert match(default_store, read_library("items.json", json.dumps({"items": CSL[:1]}).encode())).ids == [THREE[0]]


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


def test_a_views_own_bibtex_export_marks_every_paper_of_the_view(default_store: Store) -> None:
    view = compute_view(default_store, ViewState(("2110.10090",)))
    text, _ = export.export(default_store, view, "bibtex")
    found = match(default_store, read_library("export.bib", text.encode()))
    assert sorted(found.ids) == sorted(view.ids) and found.matched == found.entries == view.n_nodes


@pytest.mark.parametrize(
    ("name", "body", "where"),
    [
        (
            "broken.bib",
            BIB.replace("year = {2019}\n}", "year = {2019\n", 1),
            r"broken\.bib, line \d+: not a valid BibTeX",
        ),
        ("open.ris", RIS.rsplit("ER  -", 1)[0], r"open\.ris, line 12: this record has no end \(field 'ER'\)"),
        ("junk.ris", "hello\nworld\n", r"junk\.ris, line 1: no RIS records"),
        ("bad.json", '[{"title": 5}]', r"bad\.json, entry 0, field 'title': expected text"),
        ("bad.json", '[{"title": "x", "issued": 2017}]', r"bad\.json, entry 0, field 'issued'"),
        ("half.json", '[{"title": "x"', r"half\.json: not valid JSON"),
        ("what.txt", "just words", r"what\.txt: not a BibTeX \(\.bib\), RIS \(\.ris\) or CSL-JSON"),
    ],
)
def test_malformed_files_name_the_file_and_place(name: str, body: str, where: str) -> None:
    with pytest.raises(LibraryError, match=where):
        read_library(name, body.encode())


def test_caps_and_encoding() -> None:
    with pytest.raises(LibraryError, match=r"big\.bib: 2,097,153 bytes; a library file may have at most 2,097,152"):
        read_library("big.bib", b"%" * (MAX_BYTES + 1))
    many = "".join(f"@misc{{k{i}, title={{T{i}}}}}\n" for i in range(MAX_ENTRIES + 1))
    with pytest.raises(LibraryError, match=r"5,001 entries; a library may have at most 5,000"):
        read_library("many.bib", many.encode())
    with pytest.raises(LibraryError, match=r"latin\.bib, line 2: not UTF-8"):
        read_library("latin.bib", b"@misc{a,\n title={Caf\xe9}}\n")


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
    assert r.get_json() == {"name": "mine.bib", "entries": 4, "matched": 3, "ids": THREE}
    bad = client.post("/library?name=broken.bib", data=b"@misc{b, title = {Broken\n@article{c, title={Ok}}")
    assert bad.status_code == 400 and bad.get_json()["error"].startswith("broken.bib, line 1: not a valid BibTeX")
    huge = client.post("/library?name=huge.bib", data=b"%" * (MAX_BYTES + 10))
    assert huge.status_code == 413
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
