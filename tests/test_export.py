"""Exports (graph/export.py): every column and field checked against the store it comes from."""

from __future__ import annotations

import csv
import io
import json
import re

import networkx as nx
import pytest

from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.view import export, export_bibtex, naming
from dashboard.view.payload import compute_view

STATE = ViewState(("2110.10090",), expand=("2106.03764",), selected="2106.03764")


@pytest.fixture(scope="module")
def view(store: Store):
    return compute_view(store, STATE)


def test_csv_columns_are_the_stores_facts(store: Store, view) -> None:
    text, name = export.export(store, view, "csv")
    assert name == f"citemap-2110.10090-{view.n_nodes}-papers.csv"
    rows = list(csv.DictReader(io.StringIO(text)))
    assert "\r" not in text and text.count("\n") == view.n_nodes + 1 + sum(r["title"].count("\n") for r in rows)
    assert list(rows[0]) == export.COLUMNS
    assert [r["id"] for r in rows] == view.ids and len(rows) == view.n_nodes > 60
    roles = dict(zip(view.ids, view.sub.role_names(), strict=True))
    checked_differ = 0
    for r in rows:
        row = store.row(r["id"])
        p = store.paper(row)
        assert r["title"] == p["title"]
        assert r["year"] == ("" if p["year"] is None else str(p["year"]))
        assert r["posted"] == (p["posted"] or "")
        assert r["areas"] == ";".join(store.areas_of([row])[0])
        assert r["cited_by_source"] == ("" if p["cited_by"] is None else str(p["cited_by"]))
        assert r["cited_by_source_name"] == ("" if p["cited_by"] is None else "mlsanity pages")
        assert r["sources"] == "mlsanity pages" and r["authors"] == r["venue"] == r["doi"] == ""  # pages say none
        assert r["citers_in_dataset"] == str(store.n_citers(row))
        assert r["references_in_dataset"] == str(store.n_references(row))
        assert r["role"] == roles[r["id"]]
        checked_differ += store.n_citers(row) != store.n_references(row)
    assert checked_differ > 20  # the two in-dataset counts differ often enough to tell them apart
    by_id = {r["id"]: r for r in rows}
    assert by_id["2110.10090"]["role"] == "seed" and by_id["2106.03764"]["role"] == "reference"
    assert by_id["2110.10090"]["citers_in_dataset"] == "50" and by_id["2110.10090"]["references_in_dataset"] == "43"
    assert by_id["2110.10090"]["posted"] == "2021-10-19" and by_id["2110.10090"]["cited_by_source"] == "144"
    assert by_id["2110.10090"]["areas"] == "cs.LG;stat.ML"


def test_json_has_the_query_papers_and_every_edge(store: Store, view) -> None:
    data, name = export.export(store, view, "json")
    assert name.endswith("-papers.json") and data.startswith(b'{\n  "query": "?seeds=2110.10090')  # indented
    doc = json.loads(data)
    assert doc["query"] == "?seeds=2110.10090&expand=2106.03764&selected=2106.03764"
    assert [p["id"] for p in doc["papers"]] == view.ids
    csv_rows = list(csv.DictReader(io.StringIO(export.to_csv(store, view))))
    for paper, row in zip(doc["papers"], csv_rows, strict=True):  # the same facts as the CSV test checks
        assert {k: "" if v is None else ";".join(v) if isinstance(v, list) else str(v) for k, v in paper.items()} == row
    seed = doc["papers"][0]
    assert seed["id"] == "2110.10090" and seed["areas"] == ["cs.LG", "stat.ML"] and seed["citers_in_dataset"] == 50
    got = {(e["citing"], e["cited"]) for e in doc["citations"]}
    rows = set(view.sub.rows.tolist())
    want = {(store.id(a), store.id(b)) for a in rows for b in store.references(a).tolist() if b in rows}
    assert got == want and len(doc["citations"]) == len(got) == view.n_edges
    assert ("2110.10090", "1706.03762") in got and ("1706.03762", "2110.10090") not in got


def test_bibtex_entries(store: Store, view) -> None:
    text, name = export.export(store, view, "bibtex")
    assert name.endswith("-papers.bib")
    entries = re.findall(r"@misc\{([^,]+),\n(.*?)\n\}\n", text, re.S)
    assert len(entries) == view.n_nodes == text.count("@misc{")
    keys = [k for k, _ in entries]
    assert len(set(keys)) == len(keys)
    fields = {re.search(r"citemapid = \{(.+?)\}", body)[1]: body for _, body in entries}
    assert "note = " not in text and "citemap id" not in text  # the id is in a field no style prints
    title = store.titles([store.row("2110.10090")])[0]
    assert text.startswith(
        f"@misc{{inductive2021_211010090,\n  title = {{{title}}},\n  year = {{2021}},\n  eprint = {{2110.10090}},\n"
        "  archivePrefix = {arXiv},\n  url = {https://arxiv.org/abs/2110.10090},\n  primaryClass = {cs.LG},\n"
        "  citemapid = {2110.10090}\n}\n\n@misc{"
    )
    # no area known: no primaryClass
    assert fields["2106.03764"].endswith("url = {https://arxiv.org/abs/2106.03764},\n  citemapid = {2106.03764}")
    seed = fields["2110.10090"]
    assert "title = {" + store.titles([store.row("2110.10090")])[0] + "}" in seed
    assert "year = {2021}" in seed and "eprint = {2110.10090}" in seed and "archivePrefix = {arXiv}" in seed
    assert "url = {https://arxiv.org/abs/2110.10090}" in seed and "primaryClass = {cs.LG}" in seed
    assert keys[0] == export_bibtex.bibtex_key("2110.10090", store.titles([store.row("2110.10090")])[0], 2021)
    for pid, body in fields.items():  # title-only ids get no arXiv fields
        assert ("eprint" in body) == bool(re.match(r"^\d{4}\.\d{4,5}$", pid)), pid


def test_bibtex_escapes_and_keys() -> None:
    assert export_bibtex.bib_escape("A_b & 50% {x} #1 $") == r"A\_b \& 50\% \{x\} \#1 \$"
    assert export_bibtex.bib_escape("a~b^c -- d\\") == r"a\textasciitilde{}b\string^c -{}- d\textbackslash{}"
    assert export_bibtex.bibtex_key("2110.10090", "On the Opportunities of it", 2021) == "opportunities2021_211010090"
    assert export_bibtex.bibtex_key("t-ab/c", "A b c", None) == "paper_tabc"
    assert export_bibtex.bibtex_key("math.AG_0101001", "Sheaves", 2001) == "sheaves2001_mathAG0101001"


# titles and authors with LaTeX's special characters, braces paired and unpaired, text beyond ASCII, and what
# splitting an author field at " and " could cut
AWKWARD = [
    ("Alpha: a title ending in a backslash \\", ["Ann Back\\", "\\Bob Lead"]),
    ("Beta {balanced} braces, {nested {twice}} and \\{escaped\\}", ["{Carol} Brace", "Dan {Brace}"]),
    ("Gamma } unbalanced { braces }} and a last \\}", ["Eve {", "} Frank", "Gil \\"]),
    ("Delta 100% & $5 #1 a_b ~x^2 RL$^2$ \\LaTeX{} \\\\ line", ["Gus & Sons %", "H_ugo ~ Tilde", "I^gor $ #"]),
    ("Epsilon é ü 中文 — -- --- ``quoted'' !` ?` @home", ["José Müller", "王小明", "Smith and Wesson", "AND Co"]),
    ("Zeta {", ["}", "New\n@misc(line)"]),
]


def test_bibtex_reads_back_with_bibtexparser_as_the_text_it_was(tmp_path) -> None:
    """Read back with bibtexparser, every entry of the BibTeX export parses, and each title, author list and
    journal, LaTeX-decoded, is the store's text, character for character."""
    import bibtexparser
    from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors
    from pylatexenc.latex2text import LatexNodes2Text

    from dashboard.importers.common import PaperRecord
    from tests.conftest import make_store

    papers = [
        PaperRecord(title=title, id=f"p{k}", year=2000 + 10 * k, authors=authors, venue=f"{title[:6]} & {{J}}_%")
        for k, (title, authors) in enumerate(AWKWARD)
    ]
    papers += [PaperRecord(title=f"Omega {n}", id=pid, year=2090) for n, pid in (("one", "q-1"), ("two", "q1"))]
    store = make_store(tmp_path / "awkward", papers)
    for rec in papers:  # the store keeps the text as given: the export has it to write
        p = store.paper(store.row(rec.id))
        assert (p["title"], p["authors"], p["venue"]) == (rec.title, rec.authors, rec.venue)
    view = compute_view(store, ViewState(tuple(rec.id for rec in papers)))
    assert sorted(view.ids) == sorted(rec.id for rec in papers)
    text, name = export.export(store, view, "bibtex")
    assert name.endswith("-papers.bib") and text.count("@misc{") == len(papers)

    decoder = LatexNodes2Text()  # as dashboard.view.library reads LaTeX in a field
    library = bibtexparser.parse_string(
        text, append_middleware=[SeparateCoAuthors(), LatexDecodingMiddleware(decoder=decoder)]
    )
    assert library.failed_blocks == []
    assert len(library.entries) == len(papers)
    keys = [entry.key for entry in library.entries]
    assert len(set(keys)) == len(keys) and keys[-1] == keys[-2] + "_2"  # q-1 and q1: one key but for the suffix
    by_id = {}
    for entry in library.entries:
        fields = entry.fields_dict
        # the middleware decodes text, not the list of names SeparateCoAuthors makes: each name decoded alike
        authors = [decoder.latex_to_text(a) for a in fields["author"].value] if "author" in fields else []
        journal = fields["journal"].value if "journal" in fields else None
        by_id[fields["citemapid"].value] = (fields["title"].value, authors, journal)
    assert list(by_id) == view.ids  # in view order, each paper once
    for rec in papers:
        assert by_id[rec.id] == (rec.title, rec.authors, rec.venue), rec.id


def test_graphml_is_the_visible_subgraph(store: Store, view) -> None:
    text, name = export.export(store, view, "graphml")
    assert name.endswith("-subgraph.graphml")
    assert text.startswith('<graphml xmlns="http://graphml.graphdrawing.org/xmlns"') and text.endswith("</graphml>\n")
    assert text.count("\n") > view.n_nodes + view.n_edges  # pretty-printed: an element a line
    assert "\n  <key id=" in text and "XX" not in text
    g = nx.parse_graphml(text)
    assert list(g.nodes) == view.ids and g.number_of_edges() == view.n_edges
    seed = g.nodes["2110.10090"]
    assert seed["role"] == "seed" and seed["year"] == 2021 and seed["areas"] == "cs.LG;stat.ML"
    assert seed["citers_in_dataset"] == 50 and seed["cited_by_source"] == 144 and seed["sources"] == "mlsanity pages"
    assert "authors" not in seed and "doi" not in seed  # the pages name none: left out, not invented
    no_figure = [p for p in g.nodes if store.cited_by([store.row(p)])[0] < 0]
    assert no_figure and all(g.nodes[p]["cited_by_source"] == -1 for p in no_figure)
    assert seed["title"] == store.titles([store.row("2110.10090")])[0]
    assert g.has_edge("2110.10090", "1706.03762") and not g.has_edge("1706.03762", "2110.10090")
    assert g.is_directed()


def test_file_stems_say_what_the_file_holds() -> None:
    assert naming.file_stem(["2110.10090"], 60) == "citemap-2110.10090-60-papers"
    assert naming.file_stem(["a", "b", "c"], 7) == "citemap-a-and-2-more-7-papers"
    assert naming.file_stem(["a", "b"], 7) == "citemap-a-and-1-more-7-papers"
    assert naming.file_stem([], 0) == "citemap-view-0-papers"


def test_unknown_years_in_graphml_and_csv(tiny: Store) -> None:
    view = compute_view(tiny, ViewState(("d",)))  # d (year unknown) and the three papers citing it
    g = export.subgraph(tiny, view)
    assert g.nodes["d"]["year"] == -1 and g.nodes["a"]["year"] == 2000 and g.nodes["d"]["areas"] == "cs.CL"
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(export.to_csv(tiny, view)))}
    assert rows["d"]["year"] == "" and rows["c"]["areas"] == "unknown" and set(rows) == set("abcd")
    assert "year = " not in export.to_bibtex(tiny, view).split("@misc")[1]  # d comes first: no year field


def test_an_image_title_names_dataset_seeds_filters_and_size(default_store) -> None:
    state = ViewState(
        ("1706.03762", "1810.04805", "2005.14165", "1412.6980"),
        years=(2018, 2021),
        areas=("cs.CL",),
        min_citations=5,
        layout="timeline",
        color="year",
    )
    title = naming.image_title(default_store, state, 123)
    # what the papers are and where from, in the page's own about line's words; no internal name of the dataset
    assert title.startswith(
        "Citation map of computer-science papers from an arXiv citation dataset (2023) and 3 paper pages of"
        " mlsanity.com · seeds: Attention Is All You Need; BERT"
    )
    assert default_store.meta["name"] not in title
    assert "and 1 more" in title and "years 2018–2021" in title and "areas Natural language processing (cs.CL)" in title
    assert "at least 5 citing" in title and "timeline layout, colour by year" in title and title.endswith("123 papers")
    assert "network layout" in naming.image_title(default_store, ViewState(("1706.03762",), layout="force"), 9)
    plain = naming.image_title(default_store, ViewState(("1706.03762",)), 9)
    assert "years" not in plain and "areas" not in plain and "citing" not in plain


def test_the_image_title_endpoint_answers_for_any_view() -> None:
    """GET /image-title?<view>: what the browser puts above an exported image; a malformed query still answers."""
    from dashboard.web.app import create_app
    from tests.conftest import seed_data

    client = create_app(seed_data()).server.test_client()
    got = client.get("/image-title?seeds=2006.04862&years=2020-2024&layout=timeline")
    assert got.status_code == 200 and got.headers["Cache-Control"] == "no-store"
    answer = got.get_json()
    assert answer["title"].startswith("Citation map of ") and "years 2020–2024" in answer["title"]
    assert answer["file"].startswith("citemap-2006.04862-") and answer["file"].endswith("-graph")
    bad = client.get("/image-title?seeds=%ff%fe,nope&years=zz&limit=-4")
    assert bad.status_code == 200 and "papers" in bad.get_json()["title"]


def test_about_line_names_the_papers_their_number_and_their_sources(store) -> None:
    from dashboard.view.naming import about_line, short_source

    # the pages alone: most of their papers have no area, so they are not named by one (tests/test_plain_words.py)
    assert (
        about_line(store)
        == f"{store.n:,} papers and the {store.n_citations:,} citations among them, from 3 paper pages of mlsanity.com"
    )
    assert store.n == 156 and "156 papers and the 181 citations among them" in about_line(store)
    assert (
        short_source("saved mlsanity.com paper pages: a.txt, b.txt; data/arxiv-2023")
        == "saved mlsanity.com paper pages; arxiv-2023"
    )
    assert short_source("/data/openalex/") == "openalex" and short_source("OpenAlex API") == "OpenAlex API"
    assert short_source("") == ""


def test_a_similarity_map_exports_its_pairs_as_similar_not_as_citations(default_store) -> None:
    view = compute_view(default_store, ViewState(("1706.03762",), mode="similar", limit=20))
    doc = json.loads(export.to_json(default_store, view))
    assert "citations" not in doc and len(doc["similar"]) == len(view.sub.edge_i) > 0
    first = doc["similar"][0]
    assert (first["a"], first["b"]) == (view.ids[view.sub.edge_i[0]], view.ids[view.sub.edge_j[0]])
    assert first["why"] == view.sub.edge_why[0]
    assert [e["strength"] for e in doc["similar"]] == [round(float(w), 4) for w in view.sub.edge_weight]
    g = nx.parse_graphml(export.to_graphml(default_store, view))
    kinds = {d["kind"] for _, _, d in g.edges(data=True)}
    assert kinds == {"similar"} and g.number_of_edges() == len(view.sub.edge_i)
    cites = nx.parse_graphml(export.to_graphml(default_store, compute_view(default_store, ViewState(("1706.03762",)))))
    assert {d["kind"] for _, _, d in cites.edges(data=True)} == {"cites"}


def legend_clusters(store: Store, view) -> dict[int, tuple[str, int]]:
    """{cluster number: (name, size)} as the legend beside the map shows them (dashboard/web/callbacks/render.py)."""
    from dashboard.web.callbacks.render import legend

    out = {}
    for item in legend(store, view.sub, view.state)[1:]:
        if "cluster-item" not in item.className:  # the papers in no named cluster, the chart's other colours
            continue
        name, size = re.fullmatch(r"(.+) \(([\d,]+)\)", item.children[1].children).groups()
        out[int(item.id["index"])] = (name, int(size.replace(",", "")))
    return out


def test_cluster_colouring_exports_each_papers_cluster_as_the_legend_names_it(default_store) -> None:
    """Issue 12, item 5: with color=cluster, CSV, JSON and GraphML carry each paper's cluster number and name, the
    ones the map is coloured by (the payload's labels) and the legend shows."""
    store = default_store
    view = compute_view(store, ViewState(("1706.03762",), color="cluster"))
    shown = legend_clusters(store, view)
    assert len(shown) >= 3
    drawn = dict(zip(view.ids, view.payload["cluster"].tolist(), strict=True))  # each paper's colour on the map
    names = view.payload["palette"]["cluster_names"]
    assert names == [shown[k][0] for k in range(len(shown))]

    rows = list(csv.DictReader(io.StringIO(export.to_csv(store, view))))
    assert list(rows[0]) == [*export.COLUMNS, "cluster", "cluster_name"]
    for r in rows:
        k = drawn[r["id"]]
        assert (r["cluster"], r["cluster_name"]) == ((str(k), shown[k][0]) if k >= 0 else ("", "")), r["id"]
    by_id = {r["id"]: r for r in rows}
    seed = by_id["1706.03762"]  # a known paper: its cluster is the one the legend names for its colour
    assert seed["cluster_name"] == shown[drawn["1706.03762"]][0] == names[int(seed["cluster"])]
    sizes = {k: sum(r["cluster"] == str(k) for r in rows) for k in shown}
    assert sizes == {k: size for k, (_, size) in shown.items()}  # every paper of each cluster, and no other
    assert any(r["cluster"] == "" for r in rows) or sum(sizes.values()) == len(rows)

    doc = json.loads(export.to_json(store, view))
    assert doc["clusters"] == [{"cluster": k, "name": name, "size": size} for k, (name, size) in shown.items()]
    for paper, row in zip(doc["papers"], rows, strict=True):
        assert paper["cluster"] == (int(row["cluster"]) if row["cluster"] else None)
        assert paper["cluster_name"] == (row["cluster_name"] or None)
    g = nx.parse_graphml(export.to_graphml(store, view))
    for pid, k in drawn.items():
        assert g.nodes[pid]["cluster"] == k
        assert g.nodes[pid].get("cluster_name") == (shown[k][0] if k >= 0 else None)

    # a filter by cluster: the papers exported are those shown, each still in the cluster it was picked for
    some = compute_view(store, ViewState(("1706.03762",), color="cluster", clusters=(1,)))
    picked = list(csv.DictReader(io.StringIO(export.to_csv(store, some))))
    assert len(picked) == some.n_nodes < len(rows)
    assert {r["cluster_name"] for r in picked if r["role"] != "seed"} == {shown[1][0]}
    # other colours: no cluster columns
    plain = list(csv.DictReader(io.StringIO(export.to_csv(store, compute_view(store, ViewState(("1706.03762",)))))))
    assert list(plain[0]) == export.COLUMNS


def test_a_path_exports_its_chains_and_which_papers_are_on_them(default_store, tiny: Store) -> None:
    """Issue 12, item 5: with path=A,B the JSON carries the chains drawn (paper ids, A to B, best first: those of
    paths.shortest_paths) and every export says which papers are on a chain and how many steps from A."""
    from dashboard.graph import discovery, paths

    store = default_store
    a, b, selected = "2106.03764", "1512.03385", "1810.04805"
    view = compute_view(store, ViewState((a,), path=(a, b), selected=selected))  # the selected paper: on no chain
    want = paths.shortest_paths(
        store, store.row(a), store.row(b), max_steps=discovery.MAX_STEPS, k=discovery.PATHS_SHOWN
    )
    chains = [store.ids(c) for c in want.chains]
    assert len(chains) >= 2 and all(c[0] == a and c[-1] == b and len(c) == want.steps + 1 for c in chains)
    doc = json.loads(export.to_json(store, view))
    assert doc["chains"] == chains
    step = {pid: i for c in chains for i, pid in enumerate(c)}
    assert selected in view.ids and selected not in step
    assert {p["id"]: (p["on_path"], p["path_step"]) for p in doc["papers"]} == {
        pid: (pid in step, step.get(pid)) for pid in view.ids
    }
    rows = list(csv.DictReader(io.StringIO(export.to_csv(store, view))))
    assert list(rows[0]) == [*export.COLUMNS, "on_path", "path_step"]
    assert {r["id"]: (r["on_path"], r["path_step"]) for r in rows} == {
        pid: (str(pid in step), str(step.get(pid, ""))) for pid in view.ids
    }
    assert {r["role"] for r in rows if r["on_path"] == "True"} == {"seed", "onpath"}
    g = nx.parse_graphml(export.to_graphml(store, view))
    assert {pid: (d["on_path"], d["path_step"]) for pid, d in g.nodes(data=True)} == {
        pid: (pid in step, step.get(pid, -1)) for pid in view.ids
    }

    lone = compute_view(tiny, ViewState(("a",), path=("a", "f")))  # f cites nothing, nothing cites it: no chain
    doc = json.loads(export.to_json(tiny, lone))
    assert doc["chains"] == [] and [(p["id"], p["on_path"], p["path_step"]) for p in doc["papers"]] == [
        ("a", False, None),
        ("f", False, None),
    ]
