"""Importer for OpenAlex work objects (https://docs.openalex.org/api-entities/works/work-object).

Accepted inputs (each source a file, or a folder searched for ``*.json``, ``*.jsonl``, ``*.gz``):

* one page of the ``/works`` list endpoint: ``{"meta": ..., "results": [work, ...]}``;
* a single work object (``/works/W2741809807``), or a JSON list of work objects;
* a JSON Lines file, one work per line, as in the OpenAlex snapshot (``part_000.gz``); gzipped files
  are recognised by their content, whatever their name.

Per work: the paper id is the arXiv id when one is discoverable (``ids``, ``doi`` or a location URL:
``10.48550/arxiv.XXXX``, ``arxiv.org/abs/XXXX``), with the short OpenAlex id (``W2741809807``) kept as
an alternative id; otherwise the short OpenAlex id. ``display_name`` (else ``title``) is the title,
``publication_year`` the year, ``publication_date`` the posted date, ``cited_by_count`` /
``counts_by_year`` the citation counts, ``referenced_works_count`` (else the length of
``referenced_works``) the reference count, ``authorships`` the authors, the primary location's source
the venue, ``doi`` the DOI. Areas are the primary topic's field and subfield, else the three
best-scored level-0/1 concepts. A referenced work becomes an edge only when it is itself among
the imported works; other references are only counted.

Errors name the file, the line (JSON Lines) or record (index in the file), and the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tqdm import tqdm

from dashboard.importers.common import DatasetBuilder, InputError, PaperRecord, clean_doi, clean_names, for_source
from dashboard.importers.fields import (
    ARXIV_BARE,
    ARXIV_DOI,
    ARXIV_URL,
    INT32_MAX,
    Where,
    arxiv_key,
    check_type,
    dedupe,
    iter_json,
    list_items,
    opt_date,
    opt_int,
    opt_number,
    opt_text,
    opt_year,
    preview,
    source_files,
)

WORK_ID = re.compile(r"^(?:https?://(?:api\.)?openalex\.org/(?:works/)?)?(?P<id>[Ww]\d{1,20})$")


# -- OpenAlex works ---------------------------------------------------------------------------------
def short_work_id(value: Any, where: Where, field: str) -> str:
    """``https://openalex.org/W2741809807`` -> ``W2741809807``."""
    text = check_type(value, str, where, field, "an OpenAlex work id")
    m = WORK_ID.match(text.strip()) if text else None
    if not m:
        raise where.error(f"not an OpenAlex work id: {preview(value)}", field)
    return "W" + m["id"][1:]


def find_arxiv_id(raw: dict[str, Any]) -> str | None:
    """The arXiv id a work names in ``doi``, ``ids`` or its locations, if any (best effort: fields of
    an unexpected shape are skipped, they are not imported)."""
    for text in _arxiv_candidates(raw):
        m = ARXIV_DOI.search(text) or ARXIV_URL.search(text)
        if m:
            return arxiv_key(m["id"])
    return None


def _arxiv_candidates(raw: dict[str, Any]) -> Iterator[str]:
    yield from (v for v in (raw.get("doi"),) if isinstance(v, str))
    ids = raw.get("ids")
    if isinstance(ids, dict):
        arxiv = ids.get("arxiv")
        if isinstance(arxiv, str) and (m := ARXIV_BARE.match(arxiv.strip())):
            yield f"arxiv.org/abs/{m['id']}"
        yield from (v for v in ids.values() if isinstance(v, str))
    locations = raw.get("locations")
    locs = [
        raw.get("primary_location"),
        raw.get("best_oa_location"),
        *(locations if isinstance(locations, list) else []),
    ]
    for loc in locs:
        if isinstance(loc, dict):
            yield from (loc[k] for k in ("landing_page_url", "pdf_url", "id") if isinstance(loc.get(k), str))


def work_title(raw: dict[str, Any], where: Where) -> str:
    title = opt_text(raw.get("display_name"), where, "display_name") or opt_text(raw.get("title"), where, "title")
    if title is None:
        raise where.error("work has no title (display_name or title)", "display_name")
    return title


def work_areas(raw: dict[str, Any], where: Where) -> list[str]:
    """Field and subfield of the primary topic, else the best level-0/1 concepts (at most 3)."""
    topic = check_type(raw.get("primary_topic"), dict, where, "primary_topic", "an object")
    if topic:
        names = []
        for part in ("field", "subfield"):
            sub = check_type(topic.get(part), dict, where, f"primary_topic.{part}", "an object")
            if sub and (name := opt_text(sub.get("display_name"), where, f"primary_topic.{part}.display_name")):
                names.append(name)
        if names:
            return dedupe(names)
    scored: list[tuple[float, str]] = []
    for i, concept in enumerate(list_items(raw.get("concepts"), where, "concepts")):
        concept = check_type(concept, dict, where, f"concepts[{i}]", "an object")
        if not concept or concept.get("level") not in (0, 1) or isinstance(concept.get("level"), bool):
            continue
        if name := opt_text(concept.get("display_name"), where, f"concepts[{i}].display_name"):
            scored.append((opt_number(concept.get("score")), name))
    scored.sort(key=lambda s: -s[0])
    return dedupe([name for _, name in scored])[:3]


def counts_by_year(raw: dict[str, Any], where: Where) -> dict[int, int] | None:
    if raw.get("counts_by_year") is None:
        return None
    out: dict[int, int] = {}
    for i, item in enumerate(list_items(raw.get("counts_by_year"), where, "counts_by_year")):
        field = f"counts_by_year[{i}]"
        item = check_type(item, dict, where, field, "an object")
        year = opt_year((item or {}).get("year"), where, f"{field}.year")
        count = opt_int((item or {}).get("cited_by_count"), where, f"{field}.cited_by_count", hi=INT32_MAX)
        if year is None or count is None:
            raise where.error("needs a year and a cited_by_count", field)
        out[year] = count
    return out


def work_authors(raw: dict[str, Any], where: Where) -> list[str]:
    """Author names in ``authorships`` order (``author.display_name``, else ``raw_author_name``)."""
    names = []
    for i, item in enumerate(list_items(raw.get("authorships"), where, "authorships")):
        item = check_type(item, dict, where, f"authorships[{i}]", "an object") or {}
        author = check_type(item.get("author"), dict, where, f"authorships[{i}].author", "an object") or {}
        names.append(
            opt_text(author.get("display_name"), where, f"authorships[{i}].author.display_name")
            or opt_text(item.get("raw_author_name"), where, f"authorships[{i}].raw_author_name")
        )
    return clean_names(names)


def work_venue(raw: dict[str, Any], where: Where) -> str | None:
    """The primary location's source name (``host_venue.display_name`` in the older schema)."""
    loc = check_type(raw.get("primary_location"), dict, where, "primary_location", "an object")
    src = check_type((loc or {}).get("source"), dict, where, "primary_location.source", "an object")
    if src and (name := opt_text(src.get("display_name"), where, "primary_location.source.display_name")):
        return name
    host = check_type(raw.get("host_venue"), dict, where, "host_venue", "an object")
    return opt_text((host or {}).get("display_name"), where, "host_venue.display_name") if host else None


def referenced_works(raw: Any, where: Where) -> list[str]:
    """Short ids of the works a work cites (empty if it does not say)."""
    if not isinstance(raw, dict):
        return []
    items = list_items(raw.get("referenced_works"), where, "referenced_works")
    return [short_work_id(v, where, f"referenced_works[{i}]") for i, v in enumerate(items)]


def parse_work(raw: Any, where: Where) -> PaperRecord:
    """One OpenAlex work object as a paper record; bad or missing required fields are an InputError."""
    if not isinstance(raw, dict):
        raise where.error(f"expected a work object, found {type(raw).__name__}")
    if raw.get("id") is None:
        raise where.error("work has no id", "id")
    work_id = short_work_id(raw.get("id"), where, "id")
    title = work_title(raw, where)
    arxiv = find_arxiv_id(raw)
    year = opt_year(raw.get("publication_year"), where, "publication_year")
    posted = opt_date(raw.get("publication_date"), where, "publication_date")
    ref_count = opt_int(raw.get("referenced_works_count"), where, "referenced_works_count")
    if ref_count is None and raw.get("referenced_works") is not None:
        ref_count = len(list_items(raw.get("referenced_works"), where, "referenced_works"))
    return PaperRecord(
        title=title,
        id=arxiv or work_id,
        year=year if year is not None else (int(posted[:4]) if posted else None),
        posted=posted,
        areas=work_areas(raw, where),
        cited_by=opt_int(raw.get("cited_by_count"), where, "cited_by_count"),
        reference_count=ref_count,
        citations_by_year=counts_by_year(raw, where),
        alt_ids=[work_id] if arxiv else [],
        authors=work_authors(raw, where),
        venue=work_venue(raw, where),
        doi=clean_doi(raw.get("doi")),
    )


def iter_works(path: Path) -> Iterator[tuple[Where, Any]]:
    """Each raw work of a file with where it is: a list page's results, a list, one work, JSON Lines."""
    for line, value in iter_json(path):
        where = Where(path, line)
        if isinstance(value, dict) and "results" in value and "id" not in value:
            results = list_items(value["results"], where, "results")
            yield from ((where.at(i), w) for i, w in enumerate(results))
        elif isinstance(value, list):
            yield from ((where.at(i), w) for i, w in enumerate(value))
        else:
            yield (where if line is not None else where.at(0)), value


def build(
    sources: list[Path], progress: bool = True, builder: DatasetBuilder | None = None
) -> tuple[DatasetBuilder, dict[str, Any]]:
    """Add every work (authoritative), then the references between imported works as edges."""
    files = source_files(sources)
    builder = for_source(builder, "OpenAlex")
    pending: list[tuple[int, list[str]]] = []
    for path in files:
        works = iter_works(path)
        for where, raw in tqdm(works, desc=path.name, unit=" works", disable=not progress, mininterval=0.5):
            rec = parse_work(raw, where)
            pending.append((builder.add(rec, authoritative=True), referenced_works(raw, where)))
    if not pending:
        raise InputError(files[0] if files else "openalex", "no works found")
    outside = 0
    for key, refs in pending:
        for ref in refs:
            other = builder.find(ref)
            if other is None:
                outside += 1
            else:
                builder.cite(key, other)
    builder.cite_outside(outside)
    return builder, info_for(files, outside)


def info_for(files: list[Path], outside: int) -> dict[str, Any]:
    """The metadata of a dataset imported from these files, ``outside`` references to works not in them."""
    return {
        "name": "OpenAlex works (" + ", ".join(p.name for p in files[:3]) + (", ..." if len(files) > 3 else "") + ")",
        "source": "OpenAlex work objects: " + ", ".join(str(p) for p in files),
        "notes": [
            "cited_by, citations_by_year and reference_count are OpenAlex's counts over all of OpenAlex",
            f"only references between imported works are edges; {outside:,} references to other works "
            "are kept only as counts",
            "areas are the primary topic's field and subfield, else the top level-0/1 concepts",
            "ids are arXiv ids where OpenAlex names one, else OpenAlex work ids (W...)",
        ],
    }
