"""Exports of what a view shows: papers as CSV, BibTeX, RIS, JSON; the subgraph as GraphML (networkx).

BibTeX and RIS are written by their own modules (:mod:`dashboard.view.export_bibtex`,
:mod:`dashboard.view.export_ris`), from the rows of the CSV export with each paper's arXiv id (:func:`references`).

A discovery view exports what it draws besides the papers (:func:`discovery_columns`): with ``color=cluster`` each
paper's ``cluster`` number and ``cluster_name`` (those of the legend: :func:`dashboard.graph.discovery.view_clusters`,
as the map is coloured), and in JSON the legend itself (``clusters``); with ``path=A,B`` whether each paper is
``on_path`` and its ``path_step`` (steps from A along the chains), and in JSON the ``chains`` drawn (paper ids from A
to B, best first)."""

from __future__ import annotations

import csv
import io

import networkx as nx
import orjson

from dashboard.dataset.id_forms import ARXIV_BARE, ARXIV_DOI
from dashboard.dataset.store import Store
from dashboard.graph.discovery import view_clusters
from dashboard.graph.state import encode_query
from dashboard.view.export_bibtex import bibtex_of
from dashboard.view.export_ris import ris_of
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


def references(store: Store, view: View) -> list[dict]:
    """The view's papers as the BibTeX and RIS exports cite them: the rows of :func:`paper_rows`, each with its
    ``arxiv`` id (:func:`arxiv_id`; None: not on arXiv)."""
    out = paper_rows(store, view)
    for rec, row in zip(out, view.sub.rows.tolist(), strict=True):
        rec["arxiv"] = arxiv_id(rec["id"], store.paper(row)["alt_ids"], rec["doi"])
    return out


def arxiv_id(pid: str, alt_ids: list[str], doi: str | None) -> str | None:
    """A paper's arXiv id as arXiv writes it (``1810.04805``, ``hep-th/9901001``): its id if that is an arXiv id,
    else the first of its other ids that is, else the id its arXiv DOI names; None if none is."""
    for text in (pid, *alt_ids):
        if m := ARXIV_BARE.match(text):
            return m["id"].replace("_", "/")
    m = ARXIV_DOI.match(doi) if doi else None
    return m["id"].replace("_", "/") if m else None


def to_bibtex(store: Store, view: View) -> str:
    """The view's papers as BibTeX (the fields and the rules for titles: :mod:`dashboard.view.export_bibtex`)."""
    return bibtex_of(references(store, view))


def to_ris(store: Store, view: View) -> str:
    """The view's papers as RIS (the tags: :mod:`dashboard.view.export_ris`)."""
    return ris_of(references(store, view))


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
    "ris": (to_ris, "papers.ris", "application/x-research-info-systems"),
    "json": (to_json, "papers.json", "application/json"),
    "graphml": (to_graphml, "subgraph.graphml", "application/graphml+xml"),
}


def export(store: Store, view: View, kind: str) -> tuple[str | bytes, str]:
    """Content and file name of an export of the view."""
    fn, suffix, _ = EXPORTS[kind]
    stem = file_stem(view.state.seeds, view.n_nodes).removesuffix("-papers")
    return fn(store, view), f"{stem}-{suffix}"
