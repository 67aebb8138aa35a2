"""``citemap fetch openalex ID... --out DIR``: a dataset of the works around seed papers, from the OpenAlex API.

Seeds are OpenAlex work ids (``W2741809807`` or ``https://openalex.org/W2741809807``), DOIs (``10.7717/peerj.4375``,
``https://doi.org/...``) or arXiv ids (``1706.03762``, ``arXiv:1706.03762``: OpenAlex knows an arXiv paper by its
DataCite DOI ``10.48550/arXiv.1706.03762``). Every request is a ``/works`` list with a ``filter``
(https://docs.openalex.org/api-entities/works/filter-works):

* the seeds, and the references of a paper (its ``referenced_works``): batched lookups
  ``filter=openalex_id:W1|W2|...`` and ``filter=doi:D1|D2|...``, :data:`OR_LIMIT` values a request;
* the citers of a paper: ``filter=cites:W...``, the most cited first (``sort=cited_by_count:desc``), at most
  ``max_citers`` of them;

each with ``select=`` (only the fields the ``openalex`` importer reads: never an abstract), ``per-page`` and cursor
paging (``cursor=*``, then ``meta.next_cursor``). One hop fetches the references and citers of the seeds; two
hops do the same again from every paper the first hop added, with at most ``max_papers`` papers in all
(references first, those cited by the most papers of the hop first, then citers paper by paper).

The works are then written as JSON Lines into a temporary file and imported with the ``openalex`` importer
(:func:`dashboard.importers.run_import`), so the dataset gets the same checks as any import; ``dataset.json``
records the query and the date under ``fetched``. Nothing is written to the dataset folder unless every request
succeeded; the cache (:mod:`dashboard.fetch.http`) keeps what was fetched, so a run that stopped continues where
it stopped.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dashboard.fetch.common import (
    DEFAULT_HOPS,
    DEFAULT_MAX_CITERS,
    DEFAULT_MAX_PAPERS,
    Collected,
    Query,
    Source,
    collect,
    default_cache,
    finish,
    walk_hops,
    warn,
)
from dashboard.fetch.http import HttpSettings, JsonClient, Params, ResponseCache
from dashboard.importers.common import clean_doi
from dashboard.importers.fields import ARXIV_BARE, ARXIV_URL
from dashboard.importers.openalex import WORK_ID

DEFAULT_BASE_URL = "https://api.openalex.org"
BASE_URL_ENV = "CITEMAP_OPENALEX_URL"
MAILTO_ENV = "OPENALEX_MAILTO"
API_KEY_ENV = "OPENALEX_API_KEY"
# The docs disagree: docs.openalex.org allows per-page 1-200 and 50 values OR-ed in a filter,
# developers.openalex.org (newer) per_page 1-100 and 100 values. 100 and 100 are within the newer limits,
# and one page then holds a whole batch.
PER_PAGE = 100
OR_LIMIT = 100
CITERS_SORT = "cited_by_count:desc"
# what dashboard.importers.openalex reads (display_name, never title: the same text), nothing else
SELECT = (
    "id",
    "doi",
    "ids",
    "display_name",
    "publication_year",
    "publication_date",
    "cited_by_count",
    "counts_by_year",
    "referenced_works_count",
    "referenced_works",
    "authorships",
    "primary_location",
    "best_oa_location",
    "locations",
    "primary_topic",
    "concepts",
)
SOURCE = Source("openalex", "OpenAlex")


# -- seeds ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Seed:
    text: str  # as given
    field: str  # the filter that finds it: "openalex_id" or "doi"
    value: str  # W id, or DOI in lower case


def parse_seed(text: str) -> Seed | None:
    """A seed as given on the command line -> what to look it up by; None if it is no id we know."""
    value = text.strip()
    if m := WORK_ID.match(value):
        return Seed(text, "openalex_id", "W" + m["id"][1:])
    bare = value[6:] if value.lower().startswith("arxiv:") else value
    if m := (ARXIV_BARE.match(bare) or ARXIV_URL.search(bare)):
        return Seed(text, "doi", f"10.48550/arxiv.{m['id']}".lower())
    if doi := clean_doi(value):
        return Seed(text, "doi", doi)
    return None


def short_id(value: Any) -> str | None:
    m = WORK_ID.match(value.strip()) if isinstance(value, str) else None
    return "W" + m["id"][1:] if m else None


# -- answers -------------------------------------------------------------------------------------
def keep_facts(work: dict[str, Any]) -> dict[str, Any]:
    """The selected fields of a work only (a server that ignores ``select`` sends its abstract too)."""
    return {k: work[k] for k in SELECT if k in work}


def works_page(body: Any) -> dict[str, Any]:
    """A ``/works`` list page as kept: ``meta`` and the works' selected fields; ValueError if it is none."""
    if not isinstance(body, dict) or not isinstance(body.get("results"), list):
        raise ValueError("the answer is not a list page (no 'results' list)")
    meta = body.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise ValueError("the answer's 'meta' is not an object")
    for i, work in enumerate(body["results"]):
        if not isinstance(work, dict) or short_id(work.get("id")) is None:
            raise ValueError(f"results[{i}] is not a work with an OpenAlex id")
    return {"meta": meta or {}, "results": [keep_facts(w) for w in body["results"]]}


# -- fetching ------------------------------------------------------------------------------------
class Fetcher:
    """Collects the works of a :class:`Query` through ``client``."""

    def __init__(self, client: JsonClient, query: Query) -> None:
        self.client, self.query = client, query
        self.out = Collected()

    def room(self) -> int:
        return self.query.max_papers - len(self.out.works)

    def add(self, work: dict[str, Any]) -> str | None:
        """Keep ``work`` if new and there is room; its W id if kept."""
        wid = short_id(work.get("id"))
        if wid is None or wid in self.out.works or self.room() <= 0:
            return None
        self.out.works[wid] = work
        return wid

    def pages(self, filter_: str, cap: int | None = None, sort: str | None = None) -> Iterator[dict[str, Any]]:
        """The works of ``/works?filter=...``, cursor page after cursor page, at most ``cap``."""
        cursor: str | None = "*"
        got, seen = 0, set[str]()
        while cursor and cursor not in seen and (cap is None or got < cap):
            seen.add(cursor)
            params: Params = [("filter", filter_), ("select", ",".join(SELECT)), ("per-page", str(PER_PAGE))]
            params += [("sort", sort)] if sort else []
            page = self.client.get("/works", [*params, ("cursor", cursor)], works_page)
            results, meta = page["results"], page["meta"]
            yield from results[: None if cap is None else cap - got]
            got += len(results)
            total = meta.get("count")
            if not results or (isinstance(total, int) and got >= total):
                return
            cursor = meta.get("next_cursor") if isinstance(meta.get("next_cursor"), str) else None

    def lookup(self, field_: str, values: list[str]) -> Iterator[dict[str, Any]]:
        """The works whose ``field_`` is one of ``values``, :data:`OR_LIMIT` values a request."""
        for i in range(0, len(values), OR_LIMIT):
            yield from self.pages(f"{field_}:{'|'.join(values[i : i + OR_LIMIT])}")

    # -- the steps ---------------------------------------------------------------------------
    def resolve(self, seeds: list[Seed]) -> None:
        """Look the seeds up (one batched lookup per kind of id); those not found go to ``missing``."""
        found: dict[tuple[str, str], str] = {}
        for field_ in ("openalex_id", "doi"):
            values = list(dict.fromkeys(s.value for s in seeds if s.field == field_))
            for work in self.lookup(field_, values) if values else ():
                key = short_id(work["id"]) if field_ == "openalex_id" else clean_doi(work.get("doi"))
                if key not in values:
                    continue  # e.g. a merged work answering for another id: not what was asked for
                self.add(work)
                if (wid := short_id(work["id"])) in self.out.works:
                    found.setdefault((field_, key), wid)
        for seed in seeds:
            wid = found.get((seed.field, seed.value))
            if wid is None:
                self.out.missing.append((seed.text, "not found in OpenAlex"))
            elif wid not in self.out.seeds:
                self.out.seeds.append(wid)

    def references(self, frontier: list[str]) -> list[str]:
        """Fetch the works the ``frontier`` papers cite (those cited by most of them first, while there is
        room); the W ids added."""
        counts = Counter(r for wid in frontier for r in self.refs_of(wid) if r not in self.out.works)
        wanted = [r for r, _ in counts.most_common(max(self.room(), 0))]
        return [wid for work in self.lookup("openalex_id", wanted) if (wid := self.add(work))]

    def refs_of(self, wid: str) -> list[str]:
        refs = self.out.works[wid].get("referenced_works")
        return list(dict.fromkeys(r for v in refs if (r := short_id(v)))) if isinstance(refs, list) else []

    def citers(self, wid: str) -> list[str]:
        """Fetch up to ``max_citers`` works citing ``wid`` (the most cited first); the W ids added."""
        cap = min(self.query.max_citers, self.room())
        if cap <= 0:
            return []
        return [new for work in self.pages(f"cites:{wid}", cap, CITERS_SORT) if (new := self.add(work))]

    def hop(self, frontier: list[str]) -> list[str]:
        added = self.references(frontier)
        for wid in frontier:
            added += self.citers(wid)
        return added

    def run(self, seeds: list[Seed]) -> Collected:
        self.resolve(seeds)
        walk_hops(self)
        return self.out


# -- the command --------------------------------------------------------------------------------
def parse_seeds(texts: list[str]) -> tuple[list[Seed], list[tuple[str, str]]]:
    seeds, bad = [], []
    for text in texts:
        seed = parse_seed(text)
        if seed is None:
            bad.append((text, "not an OpenAlex work id (W...), a DOI (10..../...) or an arXiv id (1706.03762)"))
        else:
            seeds.append(seed)
    return seeds, bad


def fetch_openalex(
    seeds: list[str],
    out: str | Path,
    *,
    hops: int = DEFAULT_HOPS,
    max_citers: int = DEFAULT_MAX_CITERS,
    max_papers: int = DEFAULT_MAX_PAPERS,
    mailto: str | None = None,
    cache: str | Path | None = None,
    base_url: str | None = None,
    progress: bool = True,
    settings: HttpSettings | None = None,
    on_warning: Callable[[str], None] = warn,
) -> dict[str, Any]:
    """Fetch the works around ``seeds`` and write them as a dataset to ``out``; returns the import's summary
    with ``requests`` (sent, retries included), ``from_cache`` and ``retries`` added. Raises :class:`FetchError`
    (nothing written to ``out``) if a request fails for good, an answer is malformed or no seed is found."""
    query = Query(list(seeds), hops, max_citers, max_papers)
    query.check()
    out = Path(out)
    base = (base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")
    mailto = mailto or os.environ.get(MAILTO_ENV) or None
    private = [("mailto", mailto)] if mailto else []
    private += [("api_key", key)] if (key := os.environ.get(API_KEY_ENV)) else []
    agent = f"citemap (mailto:{mailto})" if mailto else "citemap"
    parsed, bad = parse_seeds(query.seeds)
    with JsonClient(
        base,
        private,
        ResponseCache(Path(cache) if cache else default_cache(out)),
        settings or HttpSettings(),
        user_agent=agent,
    ) as client:
        found = collect(SOURCE, client, Fetcher(client, query), parsed, bad, query, progress)
    return finish(
        SOURCE, client, base, query, found, found.works.values(), out, progress=progress, on_warning=on_warning
    )
