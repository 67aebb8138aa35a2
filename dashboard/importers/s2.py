"""Importer for Semantic Scholar Graph API paper objects (https://api.semanticscholar.org/api-docs/graph).

Accepted inputs (each source a JSON file, plain or gzipped, or a folder of them):

* one paper object, as ``/graph/v1/paper/{id}?fields=...,citations,references`` returns it;
* a JSON list of paper objects (``POST /paper/batch``), or a ``{"data": [paper, ...]}`` page of paper
  objects (``/paper/search``); JSON Lines of paper objects also work.

Each such paper is authoritative for its own facts. The papers in its ``citations`` and ``references``
lists become papers too (records that fill gaps only), with the edges *citation -> paper* and
*paper -> reference*. The paper id is the arXiv id (``externalIds.ArXiv``) when there is one, with the
S2 ``paperId`` kept as an alternative id; else the ``paperId``; a listed paper with neither (S2 lists
unresolved references by title only) gets a title id. ``title``, ``year``, ``publicationDate`` (the
posted date), ``citationCount`` (cited_by), ``referenceCount`` (reference_count); areas are
``fieldsOfStudy``, else the categories of ``s2FieldsOfStudy``.

Recorded HTTP cassettes (vcrpy ``.yaml``) are not read (PyYAML is not a dependency), and their
citations pages would name the paper only by the id in the request URL, without a title.

Pages of the ``/paper/{id}/citations`` and ``/paper/{id}/references`` endpoints (items
``{"citingPaper": {...}}`` / ``{"citedPaper": {...}}``) are refused: they do not say which paper they
belong to, so no edge could be made honestly. Import the paper object with its lists instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tqdm import tqdm

from dashboard.importers.common import (
    DatasetBuilder,
    InputError,
    PaperRecord,
    clean_doi,
    clean_id,
    clean_names,
    for_source,
)
from dashboard.importers.fields import (
    ARXIV_BARE,
    Where,
    arxiv_key,
    check_type,
    dedupe,
    iter_json,
    list_items,
    opt_date,
    opt_int,
    opt_text,
    opt_year,
    source_files,
)

EDGE_KEYS = ("citingPaper", "citedPaper")
EDGE_PAGE_MESSAGE = (
    "an item of the /paper/{{id}}/{endpoint} endpoint: such items do not say which paper they {verb}, "
    "so no citation edge can be made from them. Import the paper object itself, fetched with "
    "fields=title,year,publicationDate,externalIds,citationCount,referenceCount,fieldsOfStudy,"
    "citations.title,citations.year,references.title,references.year (and any other citations.* / "
    "references.* fields)"
)


def _edge_page_error(where: Where, key: str) -> InputError:
    endpoint, verb = ("citations", "cite") if key == "citingPaper" else ("references", "are cited by")
    return where.error(EDGE_PAGE_MESSAGE.format(endpoint=endpoint, verb=verb), key)


def paper_arxiv_id(raw: dict[str, Any], where: Where) -> str | None:
    ext = check_type(raw.get("externalIds"), dict, where, "externalIds", "an object")
    value = opt_text((ext or {}).get("ArXiv"), where, "externalIds.ArXiv")
    if value is None:
        return None
    m = ARXIV_BARE.match(value)
    if not m:
        raise where.error(f"not an arXiv id: {value!r}", "externalIds.ArXiv")
    return arxiv_key(m["id"])


def paper_s2_id(raw: dict[str, Any], where: Where) -> str | None:
    value = opt_text(raw.get("paperId"), where, "paperId")
    if value is None:
        return None
    pid = clean_id(value)
    if pid is None:
        raise where.error(f"not a usable paper id: {value[:60]!r}", "paperId")
    return pid


def paper_areas(raw: dict[str, Any], where: Where) -> list[str]:
    """``fieldsOfStudy``, else the categories of ``s2FieldsOfStudy`` (both deduplicated)."""
    fields = [
        opt_text(v, where, f"fieldsOfStudy[{i}]")
        for i, v in enumerate(list_items(raw.get("fieldsOfStudy"), where, "fieldsOfStudy"))
    ]
    names = [f for f in fields if f]
    if names:
        return dedupe(names)
    for i, item in enumerate(list_items(raw.get("s2FieldsOfStudy"), where, "s2FieldsOfStudy")):
        item = check_type(item, dict, where, f"s2FieldsOfStudy[{i}]", "an object")
        if item and (name := opt_text(item.get("category"), where, f"s2FieldsOfStudy[{i}].category")):
            names.append(name)
    return dedupe(names)


def parse_paper(raw: Any, where: Where, *, require_id: bool = True) -> PaperRecord:
    """One S2 paper object as a paper record. A paper given for itself needs an id (``paperId`` or
    ``externalIds.ArXiv``) and a title; a listed citation or reference needs a title only."""
    if not isinstance(raw, dict):
        raise where.error(f"expected a paper object, found {type(raw).__name__}")
    for key in EDGE_KEYS:
        if key in raw:
            raise _edge_page_error(where, key)
    s2_id = paper_s2_id(raw, where)
    arxiv = paper_arxiv_id(raw, where)
    if require_id and not (s2_id or arxiv):
        raise where.error("paper has no id", "paperId")
    title = opt_text(raw.get("title"), where, "title")
    if title is None:
        raise where.error("paper has no title", "title")
    posted = opt_date(raw.get("publicationDate"), where, "publicationDate")
    year = opt_year(raw.get("year"), where, "year")
    return PaperRecord(
        title=title,
        id=arxiv or s2_id,
        year=year if year is not None else (int(posted[:4]) if posted else None),
        posted=posted,
        areas=paper_areas(raw, where),
        cited_by=opt_int(raw.get("citationCount"), where, "citationCount"),
        reference_count=opt_int(raw.get("referenceCount"), where, "referenceCount"),
        alt_ids=[s2_id] if arxiv and s2_id else [],
        authors=paper_authors(raw, where),
        venue=paper_venue(raw, where),
        doi=paper_doi(raw),
    )


def paper_authors(raw: dict[str, Any], where: Where) -> list[str]:
    names = []
    for i, item in enumerate(list_items(raw.get("authors"), where, "authors")):
        item = check_type(item, dict, where, f"authors[{i}]", "an object") or {}
        names.append(opt_text(item.get("name"), where, f"authors[{i}].name"))
    return clean_names(names)


def paper_venue(raw: dict[str, Any], where: Where) -> str | None:
    """``journal.name``, else ``venue``."""
    journal = check_type(raw.get("journal"), dict, where, "journal", "an object")
    return (opt_text((journal or {}).get("name"), where, "journal.name") if journal else None) or opt_text(
        raw.get("venue"), where, "venue"
    )


def paper_doi(raw: dict[str, Any]) -> str | None:
    ext = raw.get("externalIds")
    return clean_doi(ext.get("DOI")) if isinstance(ext, dict) else None


def iter_papers(path: Path) -> Iterator[tuple[Where, Any]]:
    """Each top-level paper object of a file with where it is."""
    if path.suffix.lower() in (".yaml", ".yml"):
        raise InputError(
            path,
            "a YAML file (a vcrpy cassette?) is not read: save the response body, the "
            "paper object, as a .json file and import that",
        )
    for line, value in iter_json(path):
        where = Where(path, line)
        if isinstance(value, dict) and "data" in value and "paperId" not in value:
            items = list_items(value["data"], where, "data")
            yield from ((where.at(i), item) for i, item in enumerate(items))
        elif isinstance(value, list):
            yield from ((where.at(i), item) for i, item in enumerate(value))
        elif isinstance(value, dict) and "error" in value and "paperId" not in value and "title" not in value:
            raise where.error(f"an API error response, not a paper: {str(value['error'])[:200]!r}", "error")
        else:
            yield (where if line is not None else where.at(0)), value


def _listed(raw: dict[str, Any], where: Where, name: str) -> list[tuple[Where, Any]]:
    prefix = f"{where.record}, " if where.record is not None else ""
    items = list_items(raw.get(name), where, name)
    return [(where.at(f"{prefix}{name}[{j}]"), item) for j, item in enumerate(items)]


def _add_lists(builder: DatasetBuilder, focal: list[tuple[int, Where, dict[str, Any]]], progress: bool) -> list[str]:
    """Add the citations and references of each paper, with their edges; returns notes on short lists."""
    total = sum(len(v) for _, _, raw in focal for n in ("citations", "references") if isinstance(v := raw.get(n), list))
    bar = tqdm(total=total, desc="citations and references", unit=" papers", disable=not progress, mininterval=0.5)
    short: list[str] = []
    with bar:
        for key, where, raw in focal:
            for name in ("references", "citations"):
                listed = _listed(raw, where, name)
                for item_where, item in listed:
                    other = builder.add(parse_paper(item, item_where, require_id=False))
                    if name == "references":
                        builder.cite(key, other)
                    else:
                        builder.cite(other, key)
                    bar.update()
                short.extend(_short_list_note(builder.record(key), raw, name, len(listed)))
    return short


def _short_list_note(rec: PaperRecord, raw: dict[str, Any], name: str, n: int) -> list[str]:
    if name not in raw or raw.get(name) is None:
        return []
    stated = rec.cited_by if name == "citations" else rec.reference_count
    if stated is None or n >= stated:
        return []
    return [f"{rec.id or rec.title}: lists {n:,} of its {stated:,} {name}"]


def _seed_ids(builder: DatasetBuilder, keys: list[int], limit: int = 10) -> list[str]:
    """Final ids of the given papers (at most ``limit``), for ``citemap info``."""
    ids = builder.final_ids()
    return list(dict.fromkeys(ids[k] for k in keys))[:limit]


def build(
    sources: list[Path], progress: bool = True, builder: DatasetBuilder | None = None
) -> tuple[DatasetBuilder, dict[str, Any]]:
    """Add every given paper (authoritative) first, then the papers they list, with the edges."""
    files = source_files(sources)
    raws = [(where, raw) for path in files for where, raw in iter_papers(path)]
    if not raws:
        raise InputError(files[0] if files else "s2", "no paper objects found")
    builder = for_source(builder, "Semantic Scholar")
    focal = [(builder.add(parse_paper(raw, where), authoritative=True), where, raw) for where, raw in raws]
    short = _add_lists(builder, focal, progress)
    notes = [
        "cited_by and reference_count are Semantic Scholar's counts; edges are the citations and "
        "references listed with the imported papers",
        "areas are fieldsOfStudy, else s2FieldsOfStudy categories",
    ]
    if short:
        notes.append(
            "lists shorter than the paper's own counts (the API returns at most 1,000 items a list): "
            + "; ".join(short[:5])
            + (f"; and {len(short) - 5} more" if len(short) > 5 else "")
        )
    info = {
        "name": "Semantic Scholar papers ("
        + ", ".join(p.name for p in files[:3])
        + (", ..." if len(files) > 3 else "")
        + ")",
        "source": "Semantic Scholar Graph API paper objects: " + ", ".join(str(p) for p in files),
        "seeds": _seed_ids(builder, [key for key, _, _ in focal]),
        "notes": notes,
    }
    return builder, info
