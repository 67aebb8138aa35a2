"""Exports of what a view shows: papers as CSV, BibTeX, JSON; the subgraph as GraphML (networkx).

A discovery view exports what it draws besides the papers (:func:`discovery_columns`): with ``color=cluster`` each
paper's ``cluster`` number and ``cluster_name`` (those of the legend: :func:`dashboard.graph.discovery.view_clusters`,
as the map is coloured), and in JSON the legend itself (``clusters``); with ``path=A,B`` whether each paper is
``on_path`` and its ``path_step`` (steps from A along the chains), and in JSON the ``chains`` drawn (paper ids from A
to B, best first)."""

from __future__ import annotations

import csv
import io
import re

import networkx as nx
import orjson

from dashboard.dataset.store import Store
from dashboard.graph.discovery import view_clusters
from dashboard.graph.state import encode_query
from dashboard.view.naming import file_stem
from dashboard.view.payload import View

# two citation counts, never mixed: citers inside this dataset, and a source's own figure with its source named
COLUMNS = [
    "id",
    "title",
    "authors",
    "year",
    "posted",
    "venue",
    "doi",
    "areas",
    "citers_in_dataset",
    "cited_by_source",
    "cited_by_source_name",
    "references_in_dataset",
    "sources",
    "role",
]
LISTS = ("authors", "areas", "sources")  # joined with ";" in CSV and GraphML (the CSV importer reads them back)
CLUSTER_COLUMNS = ["cluster", "cluster_name"]  # with color=cluster (empty: in no named cluster)
PATH_COLUMNS = ["on_path", "path_step"]  # with path=A,B (path_step empty: on no chain)


def discovery_columns(store: Store, view: View) -> dict[str, list]:
    """What a discovery view says of each of its papers besides the store's facts, by column (none for a plain
    view): the cluster number and name the map is coloured and its legend labelled by (``None``: in no named
    cluster), and whether a paper lies on one of the chains drawn, and how many steps from the path's first end."""
    rows = view.sub.rows.tolist()
    out: dict[str, list] = {}
    if view.state.color == "cluster":
        found = view_clusters(store, view.state)
        labels = found.labels_of(view.sub.rows).tolist()
        out["cluster"] = [k if k >= 0 else None for k in labels]
        out["cluster_name"] = [found.names[k] if k >= 0 else None for k in labels]
    if view.sub.kind == "path":
        step = {r: i for chain in drawn_chains(view) for i, r in enumerate(chain)}
        out["on_path"] = [r in step for r in rows]
        out["path_step"] = [step.get(r) for r in rows]
    return out


def drawn_chains(view: View) -> list[list[int]]:
    """The chains of a path view whose papers are all in view (all of them unless ``clusters=`` hides some), as
    rows from the first end to the second, best first."""
    shown = set(view.sub.rows.tolist())
    return [chain for chain in view.sub.chains if shown.issuperset(chain)]


def columns(store: Store, view: View) -> list[str]:
    """The CSV columns of a view: ``COLUMNS``, then those of a discovery view (see :func:`discovery_columns`)."""
    return (
        COLUMNS
        + (CLUSTER_COLUMNS if view.state.color == "cluster" else [])
        + (PATH_COLUMNS if view.sub.kind == "path" else [])
    )


def paper_rows(store: Store, view: View) -> list[dict]:
    rows = view.sub.rows
    extra = discovery_columns(store, view)
    out = []
    for k, (r, pid, role) in enumerate(zip(rows.tolist(), view.ids, view.sub.role_names(), strict=True)):
        p = store.paper(r)
        out.append(
            {
                "id": pid,
                "title": p["title"],
                "authors": p["authors"],
                "year": p["year"],
                "posted": p["posted"],
                "venue": p["venue"],
                "doi": p["doi"],
                "areas": p["areas"],
                "citers_in_dataset": p["in_cited"],
                "cited_by_source": p["cited_by"],
                "cited_by_source_name": p["cited_by_from"],
                "references_in_dataset": p["in_refs"],
                "sources": p["sources"],
                "role": role,
                **{name: values[k] for name, values in extra.items()},
            }
        )
    return out


def to_csv(store: Store, view: View) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns(store, view), lineterminator="\n")
    w.writeheader()
    for rec in paper_rows(store, view):
        w.writerow({**rec, **{k: ";".join(rec[k]) for k in LISTS}})
    return buf.getvalue()


def to_json(store: Store, view: View) -> bytes:
    doc = {"query": _query(view), "papers": paper_rows(store, view)}
    if view.sub.kind == "similar":  # a similarity map's lines are similar pairs, not citations
        doc["similar"] = [
            {"a": view.ids[i], "b": view.ids[j], **_similar_attrs(view, k)}
            for k, (i, j) in enumerate(_edge_positions(view))
        ]
    else:
        doc["citations"] = [{"citing": view.ids[i], "cited": view.ids[j]} for i, j in _edge_positions(view)]
    if view.state.color == "cluster":  # the legend: each named cluster's number, name and size
        found = view_clusters(store, view.state)
        doc["clusters"] = [{"cluster": k, "name": name, "size": found.sizes[k]} for k, name in found.names.items()]
    if view.sub.kind == "path":
        doc["chains"] = [store.ids(chain) for chain in drawn_chains(view)]
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def _similar_attrs(view: View, k: int) -> dict:
    sub = view.sub
    return {
        "strength": round(float(sub.edge_weight[k]), 4) if sub.edge_weight is not None else None,
        "why": sub.edge_why[k] if sub.edge_why is not None else "",
    }


# LaTeX's special characters, each written so that LaTeX (and a LaTeX decoder such as pylatexenc, which
# bibtexparser's LatexDecodingMiddleware and dashboard.view.library use) reads the character itself: a backslash
# escape where LaTeX has one; \textbackslash and \textasciitilde (a bare ~ is a non-breaking space); \string^ for ^
# (a bare ^ is a superscript, and \textasciicircum reads back as the modifier letter ˆ; a decoder that does not know
# \string drops it and keeps the ^)
_LATEX = {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\string^", **{c: "\\" + c for c in "{}&%$#_"}}
_LATEX_SPECIAL = re.compile(r"[\\{}&%$#_~^]")
# pairs LaTeX reads as one character (-- an en dash, ``  and '' curly quotes, !` and ?` inverted marks): an empty
# group between the two keeps them two characters
_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=[!?])(?=`)")
# an @ that begins a line, which bibtexparser would take for the start of the next entry: put in a group
_LINE_START_AT = re.compile(r"(?<=\n)(\s*)@")
# an author who would not come back as one name from splitting the field at " and " (bibtexparser's splitter also
# reads a backslash as escaping the character after it, which can move where it sees a name begin or end)
_NAME_AND = re.compile(r"(?:^|\s)and(?:\s|$)", re.IGNORECASE)
_NOT_VERBATIM = re.compile(r"[\\{}\n]")  # what could end a field's value early or leave its braces unbalanced


def _bib_escape(text: str) -> str:
    """``text`` as the LaTeX of a BibTeX field's value: LaTeX-decoded, it is ``text`` again, character for character.
    Its braces are all escaped or paired, so they never end the value (bibtexparser does not count an escaped brace;
    BibTeX itself does, and so finds a value whose text has an unpaired brace unbalanced)."""
    out = _LATEX_SPECIAL.sub(lambda m: _LATEX[m[0]], text)
    return _LINE_START_AT.sub(r"\1{@}", _LIGATURE.sub("{}", out))


def _bib_name(name: str) -> str:
    """One author of an ``author`` field (names joined by " and "): escaped, and in a group (which LaTeX drops, and
    which BibTeX takes as a name not to be split into first and last) when splitting could cut or trim it."""
    text = _bib_escape(name)
    if not name or name != name.strip() or "\\" in text or _NAME_AND.search(name):
        return "{" + text + "}"
    return text


def _bib_verbatim(text: str) -> str:
    """An identifier (DOI, id, category) as it is, for readers that take it as written; escaped like text only if it
    holds a brace, a backslash or a line break, which could break the entry."""
    return _bib_escape(text) if _NOT_VERBATIM.search(text) else text


def bibtex_key(pid: str, title: str, year: int | None) -> str:
    word = next((w for w in re.findall(r"[A-Za-z]{4,}", title)), "paper").lower()
    return f"{word}{year or ''}_{re.sub(r'[^A-Za-z0-9]', '', pid)}"


def to_bibtex(store: Store, view: View) -> str:
    """The view's papers as ``@misc`` entries, in view order, written by bibtexparser: title, authors and journal as
    LaTeX (:func:`_bib_escape`), identifiers as they are (:func:`_bib_verbatim`). Read back with bibtexparser, every
    entry parses, and each text field, LaTeX-decoded, is the store's text."""
    import bibtexparser
    from bibtexparser.middlewares import default_unparse_stack
    from bibtexparser.model import Entry, Field

    library = bibtexparser.Library()
    seen: dict[str, int] = {}
    for rec in paper_rows(store, view):
        pid = rec["id"]
        fields = [Field("title", _bib_escape(rec["title"]))]
        if rec["authors"]:
            fields.append(Field("author", " and ".join(_bib_name(a) for a in rec["authors"])))
        if rec["year"] is not None:
            fields.append(Field("year", str(rec["year"])))
        if rec["venue"]:
            fields.append(Field("journal", _bib_escape(rec["venue"])))
        if rec["doi"]:
            fields.append(Field("doi", _bib_verbatim(rec["doi"])))
        if re.match(r"^\d{4}\.\d{4,5}$", pid):
            fields += [
                Field("eprint", pid),
                Field("archivePrefix", "arXiv"),
                Field("url", "https://arxiv.org/abs/" + pid),
            ]
            if rec["areas"] and rec["areas"][0] != "unknown":
                fields.append(Field("primaryClass", _bib_verbatim(rec["areas"][0])))
        fields.append(Field("note", "citemap id " + _bib_verbatim(pid)))
        # two ids alike but for punctuation share a key: the later ones get _2, _3, ... (a key of bibtex_key has
        # one underscore, so no other paper's key)
        key = bibtex_key(pid, rec["title"], rec["year"])
        seen[key] = n = seen.get(key, 0) + 1
        library.add(Entry("misc", key if n == 1 else f"{key}_{n}", fields))
    layout = bibtexparser.BibtexFormat()
    layout.indent, layout.block_separator = "  ", "\n"  # fields indented by two spaces, a blank line between entries
    # the default unparse stack (each value in braces), allowed to change the entries just built instead of copying
    stack = default_unparse_stack(allow_inplace_modification=True)
    return bibtexparser.write_string(library, unparse_stack=stack, bibtex_format=layout)


def _edge_positions(view: View) -> list[tuple[int, int]]:
    return list(zip(view.sub.edge_i.tolist(), view.sub.edge_j.tolist(), strict=True))


def subgraph(store: Store, view: View) -> nx.DiGraph:
    """The visible subgraph as a networkx DiGraph. Node attributes: title, authors, year (-1: unknown), venue, doi,
    areas, citers_in_dataset, cited_by_source (-1: no source gives one), role; text left out where unknown; with
    color=cluster, cluster (-1: none) and cluster_name; with path=A,B, on_path and path_step (-1: on no chain). Edge
    attribute kind: "cites" (source cites target) or, on a similarity map, "similar" with strength and why."""
    g = nx.DiGraph()
    for rec in paper_rows(store, view):
        attrs = {k: rec[k] for k in ("venue", "doi") if rec[k]} | {k: ";".join(rec[k]) for k in LISTS if rec[k]}
        if "cluster" in rec:
            attrs["cluster"] = rec["cluster"] if rec["cluster"] is not None else -1
            attrs |= {"cluster_name": rec["cluster_name"]} if rec["cluster_name"] else {}
        if "on_path" in rec:
            attrs |= {"on_path": rec["on_path"], "path_step": rec["path_step"] if rec["path_step"] is not None else -1}
        g.add_node(
            rec["id"],
            title=rec["title"],
            year=rec["year"] if rec["year"] is not None else -1,
            citers_in_dataset=int(rec["citers_in_dataset"]),
            cited_by_source=int(rec["cited_by_source"]) if rec["cited_by_source"] is not None else -1,
            role=rec["role"],
            **attrs,
        )
    if view.sub.kind == "similar":
        g.add_edges_from(
            (view.ids[i], view.ids[j], {"kind": "similar", **_similar_attrs(view, k)})
            for k, (i, j) in enumerate(_edge_positions(view))
        )
    else:
        g.add_edges_from((view.ids[i], view.ids[j], {"kind": "cites"}) for i, j in _edge_positions(view))
    return g


def to_graphml(store: Store, view: View) -> str:
    return "\n".join(nx.generate_graphml(subgraph(store, view), prettyprint=True)) + "\n"


def _query(view: View) -> str:
    return encode_query(view.state)


EXPORTS = {
    "csv": (to_csv, "papers.csv", "text/csv"),
    "bibtex": (to_bibtex, "papers.bib", "application/x-bibtex"),
    "json": (to_json, "papers.json", "application/json"),
    "graphml": (to_graphml, "subgraph.graphml", "application/graphml+xml"),
}


def export(store: Store, view: View, kind: str) -> tuple[str | bytes, str]:
    """Content and file name of an export of the view."""
    fn, suffix, _ = EXPORTS[kind]
    stem = file_stem(view.state.seeds, view.n_nodes).removesuffix("-papers")
    return fn(store, view), f"{stem}-{suffix}"
