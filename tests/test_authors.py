"""Authors, venue and DOI: read from each source that has them, searchable, shown, exported; never invented."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import networkx as nx
import pytest
from pylatexenc.latex2text import LatexNodes2Text

from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.importers import run_import
from dashboard.view import export
from dashboard.view.payload import compute_view
from dashboard.web.callbacks.render import paper_facts
from tests.conftest import FIXTURES

OPENALEX = FIXTURES / "openalex"
S2 = FIXTURES / "semanticscholar"


@pytest.fixture(scope="module")
def openalex(tmp_path_factory: pytest.TempPathFactory) -> Store:
    out = tmp_path_factory.mktemp("oa") / "oa"
    run_import(
        "openalex",
        [OPENALEX / "works-list-page.json", OPENALEX / "work-W2741809807.json"],
        out,
        argv=["test"],
        progress=False,
    )
    return Store.load(out)


def _text(component) -> str:
    """The visible text of a Dash component tree."""
    if isinstance(component, str):
        return component
    children = getattr(component, "children", None)
    if children is None:
        return ""
    if isinstance(children, list | tuple):
        return "".join(_text(c) for c in children)
    return _text(children)


def test_openalex_authors_venue_doi_are_the_work_objects(openalex: Store) -> None:
    works = json.loads((OPENALEX / "works-list-page.json").read_text())["results"]
    works.append(json.loads((OPENALEX / "work-W2741809807.json").read_text()))
    checked = 0
    for w in works:
        row = openalex.row(w["id"].rsplit("/", 1)[1])
        if row is None:  # merged into an arXiv id
            continue
        p = openalex.paper(row)
        assert p["authors"] == [a["author"]["display_name"] for a in w["authorships"]]
        loc = (w.get("primary_location") or {}).get("source") or {}
        assert p["venue"] == loc.get("display_name")
        assert p["doi"] == (w["doi"].removeprefix("https://doi.org/").lower() if w.get("doi") else None)
        assert p["sources"] == ["OpenAlex"]
        checked += 1
    assert checked >= 40  # of 50 works; the others were merged under arXiv ids
    peerj = openalex.paper(openalex.row("W2741809807"))
    assert peerj["authors"][:2] == ["Heather Piwowar", "Jason Priem"] and peerj["venue"] == "PeerJ"
    assert peerj["doi"] == "10.7717/peerj.4375"
    assert openalex.row_by_doi("10.7717/peerj.4375") == openalex.row("W2741809807") != None  # noqa: E711


def test_an_authors_surname_finds_their_papers(openalex: Store) -> None:
    row = openalex.row("W2741809807")
    assert row in openalex.search("Piwowar", 10) and row in openalex.search("haustein piw", 10)
    assert openalex.search("Piwowar zzzzqqq", 10) == []
    # every hit of a surname search has that author (or the word in its title)
    for r in openalex.search("Naumova", 10):
        p = openalex.paper(r)
        assert any("Naumova" in a for a in p["authors"]) or "naumova" in p["title"].lower()
    assert openalex.search("Naumova", 10)


def test_panel_and_hover_fields_show_authors_venue_doi(openalex: Store) -> None:
    p = openalex.paper(openalex.row("W2741809807"))
    text = " | ".join(_text(li) for li in paper_facts(p))
    assert "Authors: Heather Piwowar, Jason Priem" in text and "Venue: PeerJ" in text
    assert "DOI: 10.7717/peerj.4375" in text
    assert "according to OpenAlex (its own figure)" in text and "papers in this dataset" in text
    node = json.loads("[" + openalex.node_json([openalex.row("W2741809807")]) + "]")[0]
    assert node[-1] == ["Heather Piwowar", "Jason Priem", "Vincent Larivière", "et al."]  # the hover card's authors


def test_exports_carry_authors_venue_doi(openalex: Store) -> None:
    view = compute_view(openalex, ViewState(("W2741809807",)))
    bib, _ = export.export(openalex, view, "bibtex")
    entry = next(e for e in bib.split("\n\n") if "citemapid = {W2741809807}" in e)
    author = next(line for line in entry.splitlines() if line.startswith("  author = "))
    names = openalex.paper(openalex.row("W2741809807"))["authors"]
    assert author.startswith("  author = {") and author.endswith("},") and author.isascii()  # the field closed
    # every author, in order, accented letters as LaTeX ("Larivi{\`e}re")
    assert LatexNodes2Text().latex_to_text(author[len("  author = {") : -2]) == " and ".join(names)
    assert "Vincent Larivière" in names and r"Vincent Larivi{\`e}re" in author
    assert "  journal = {PeerJ}" in entry and "  doi = {10.7717/peerj.4375}" in entry
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(export.export(openalex, view, "csv")[0]))}
    assert rows["W2741809807"]["authors"].startswith("Heather Piwowar;Jason Priem;")
    assert rows["W2741809807"]["venue"] == "PeerJ" and rows["W2741809807"]["doi"] == "10.7717/peerj.4375"
    g = nx.parse_graphml(export.export(openalex, view, "graphml")[0])
    assert g.nodes["W2741809807"]["doi"] == "10.7717/peerj.4375" and g.nodes["W2741809807"]["venue"] == "PeerJ"


def test_s2_authors_venue_doi(tmp_path: Path) -> None:
    out = tmp_path / "s2"
    run_import("s2", [S2 / "Paper.json"], out, argv=["test"], progress=False)
    store = Store.load(out)
    raw = json.loads((S2 / "Paper.json").read_text())
    p = store.paper(store.row(raw["paperId"]))
    assert p["authors"] == ["A. Turing"] and p["venue"] == "Mind" and p["doi"] == "10.1093/mind/lix.236.433"
    assert store.row(raw["paperId"]) in store.search("turing", 5)
    listed = raw["citations"][0]
    row = store.search(listed["title"], 1)[0]
    assert store.paper(row)["authors"] == [a["name"] for a in listed["authors"] if a.get("name")]


def test_csv_authors_venue_doi_and_a_bad_doi(tmp_path: Path) -> None:
    papers = tmp_path / "papers.csv"
    papers.write_text(
        "id,title,authors,venue,doi\np1,One,Ada Lovelace; Alan Turing,J. Tests,https://doi.org/10.1000/ONE\np2,Two,,,\n"
    )
    run_import("csv", [papers], tmp_path / "d", argv=["test"], progress=False)
    store = Store.load(tmp_path / "d")
    one, two = store.paper(store.row("p1")), store.paper(store.row("p2"))
    assert (one["authors"], one["venue"], one["doi"]) == (["Ada Lovelace", "Alan Turing"], "J. Tests", "10.1000/one")
    assert (two["authors"], two["venue"], two["doi"]) == ([], None, None)  # empty, not invented
    papers.write_text("id,title,doi\np1,One,not-a-doi\n")
    from dashboard.importers.common import InputError

    with pytest.raises(InputError, match=r"papers\.csv, line 2, field 'doi': not a DOI"):
        run_import("csv", [papers], tmp_path / "e", argv=["test"], progress=False)
    assert not (tmp_path / "e").exists()


def test_default_data_has_no_invented_authors(default_store: Store) -> None:
    # neither the pages nor arxiv-2023 name authors: every paper's list is empty, and the panel says nothing
    assert all(not a for a in default_store.papers.column("authors").to_pylist())
    facts = " ".join(_text(li) for li in paper_facts(default_store.paper(default_store.row("1706.03762"))))
    assert "Authors" not in facts and "DOI" not in facts


def _find(component, wanted: str):
    """The component of a Dash layout tree whose id is ``wanted``, or None."""
    if getattr(component, "id", None) == wanted:
        return component
    children = getattr(component, "children", None)
    for child in children if isinstance(children, list | tuple) else [children]:
        if child is not None and not isinstance(child, str) and (found := _find(child, wanted)) is not None:
            return found
    return None


def test_the_search_box_asks_for_authors_only_where_the_data_names_them(openalex: Store, store: Store) -> None:
    from dashboard.web.layout import make_layout

    assert openalex.has_authors and not store.has_authors
    assert _find(make_layout(openalex), "input-search").placeholder == "Search a title, an author or an id…"
    assert _find(make_layout(store), "input-search").placeholder == "Search a title or an id…"
    assert not store.has_names  # the seed pages keep no common names of papers
    # nor does the help ("?") on data without authors
    assert "an author" not in _text(make_layout(store)) and "an author" in _text(make_layout(openalex))
