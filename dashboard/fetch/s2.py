"""``citemap fetch s2 ID... --out DIR``: a dataset of the papers around seed papers, from the Semantic Scholar
Graph API (https://api.semanticscholar.org/api-docs/graph).

Seeds are Semantic Scholar paper ids (40 hex digits, or a ``semanticscholar.org/paper/...`` URL), DOIs
(``10.1093/mind/lix.236.433``, ``https://doi.org/...``, ``DOI:...``), arXiv ids (``2106.09685``,
``arXiv:2106.09685``, an ``arxiv.org/abs/...`` URL) or ``CorpusId:NNN``; each is asked for in the form the API
documents (``DOI:...``, ``ARXIV:...``, ``CorpusId:...``, the bare id). The requests:

* the seeds, and at the end the reference lists of the papers whose references were not fetched page by page:
  ``POST /paper/batch`` with ``{"ids": [...]}``, at most :data:`BATCH_LIMIT` ids a request (the API's limit;
  its answer is a list in the order asked, ``null`` for an id it does not know);
* the references and the citers of a paper: ``GET /paper/{id}/references`` and ``/paper/{id}/citations``,
  ``offset``/``limit`` paging (``limit`` at most :data:`PAGE_LIMIT`; the answer's ``next`` is the next offset,
  absent after the last page). All references are read; the citers until ``max_citers`` are read, in the order
  the API lists them (it cannot sort them by their citations, as OpenAlex can);

each with ``fields=`` naming only what the ``s2`` importer reads (ids, title, year and date, venue, authors,
counts, fields of study; never an abstract). One hop fetches the references and citers of the seeds; two hops
do the same again from every paper the first hop added, with at most ``max_papers`` papers in all (references
first, those cited by the most papers of the hop first, then citers paper by paper), as ``fetch openalex`` does.
A listed paper without a Semantic Scholar id (the API lists some references by title only) or without a title
is left out.

The papers are written as JSON Lines of paper objects, each with a ``references`` list of the papers in the
dataset it cites (the shape ``citemap import s2`` reads), and imported with the ``s2`` importer through the
steps of :mod:`dashboard.fetch.common`: nothing is written to the dataset folder unless every request
succeeded, and the cache keeps what was fetched, so a run that stopped continues where it stopped.

``S2_API_KEY``, if set, is sent as the ``x-api-key`` header (the API's documented rate for a key is 1 request a
second; without a key requests share a pool with every other user and meet more 429s, which are waited out).
"""

from __future__ import annotations

import os
import re
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
from dashboard.fetch.http import HttpSettings, JsonClient, Params, ResponseCache, Shape
from dashboard.importers.common import clean_doi
from dashboard.importers.fields import ARXIV_BARE, ARXIV_URL

DEFAULT_BASE_URL = "https://api.semanticscholar.org/graph/v1"
BASE_URL_ENV = "CITEMAP_S2_URL"
API_KEY_ENV = "S2_API_KEY"
API_KEY_HEADER = "x-api-key"
RATE = 1.0  # requests a second: the documented rate with a key; without one, the shared pool's 429s are waited out
BATCH_LIMIT = 500  # ids a POST /paper/batch (documented: "Can only process 500 paper ids at a time")
MAX_LISTED = 9999  # papers listed in one batch answer ("Can only return up to 9999 citations at a time")
PAGE_LIMIT = 1000  # limit of a /citations or /references page (documented: "Must be <= 1000")
SOURCE = Source("s2", "Semantic Scholar")
# what dashboard.importers.s2 reads of a paper, nothing else (paperId comes anyway; named so that it is kept)
FIELDS = (
    "paperId",
    "externalIds",
    "title",
    "year",
    "publicationDate",
    "venue",
    "journal",
    "authors",
    "citationCount",
    "referenceCount",
    "fieldsOfStudy",
    "s2FieldsOfStudy",
)
LINKS = "references.paperId"  # a batch's fields when only the papers' reference lists are wanted
EDGE_KEYS = {"citations": "citingPaper", "references": "citedPaper"}

S2_ID = re.compile(r"^[0-9a-f]{40}$", re.IGNORECASE)
S2_URL = re.compile(r"semanticscholar\.org/paper/(?:[^/?#]+/)?(?P<id>[0-9a-f]{40})(?:[/?#]|$)", re.IGNORECASE)
CORPUS_ID = re.compile(r"^corpusid:\s*(?P<id>\d+)$", re.IGNORECASE)


# -- seeds ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Seed:
    text: str  # as given
    lookup: str  # as the API takes it: the paper id, "CorpusId:...", "ARXIV:...", "DOI:..."


def parse_seed(text: str) -> Seed | None:
    """A seed as given on the command line -> the id to look it up by; None if it is no id we know."""
    value = text.strip()
    if S2_ID.match(value):
        return Seed(text, value.lower())
    if m := S2_URL.search(value):
        return Seed(text, m["id"].lower())
    if m := CORPUS_ID.match(value):
        return Seed(text, f"CorpusId:{m['id']}")
    bare = value[6:] if value.lower().startswith("arxiv:") else value
    if m := (ARXIV_BARE.match(bare) or ARXIV_URL.search(bare)):
        return Seed(text, f"ARXIV:{m['id']}")
    if doi := clean_doi(value):  # also DOI:10.... and https://doi.org/...
        return Seed(text, f"DOI:{doi}")
    return None


def parse_seeds(texts: list[str]) -> tuple[list[Seed], list[tuple[str, str]]]:
    seeds, bad = [], []
    for text in texts:
        seed = parse_seed(text)
        if seed is None:
            bad.append(
                (
                    text,
                    "not a Semantic Scholar paper id (40 hex digits), a DOI (10..../...), an arXiv id "
                    "(2106.09685) or CorpusId:NNN",
                )
            )
        else:
            seeds.append(seed)
    return seeds, bad


# -- answers -------------------------------------------------------------------------------------
Keep = Callable[[dict[str, Any]], dict[str, Any]]  # a paper of an answer -> what is kept of it


def keep_facts(paper: dict[str, Any]) -> dict[str, Any]:
    """The asked fields of a paper only (a server that ignores ``fields`` sends its abstract too)."""
    return {k: paper[k] for k in FIELDS if k in paper}


def paper_or_none(value: Any, where: str, id_required: bool = True) -> dict[str, Any] | None:
    """A listed paper as kept, or None for a ``null``; ValueError if it is neither. ``paperId`` may be null in
    lists (the papers the API knows by title only) but not in an answer for ids."""
    if value is None:
        return None
    pid = value.get("paperId") if isinstance(value, dict) else False
    if not (isinstance(pid, str) and pid) and (id_required or pid is not None):
        raise ValueError(f"{where} is not a paper with a paperId")
    return value


def papers_answer(count: int, keep: Keep = keep_facts) -> Shape:
    """A ``/paper/batch`` answer for ``count`` ids as kept: one paper (``keep`` of it) or None per id."""

    def shape(body: Any) -> list[dict[str, Any] | None]:
        if not isinstance(body, list):
            raise ValueError(f"the answer is not a list of {count} papers or nulls (one per id asked)")
        if len(body) != count:
            raise ValueError(f"the answer holds {len(body)} items, not {count} papers or nulls (one per id asked)")
        return [keep(p) if (p := paper_or_none(v, f"[{i}]")) else None for i, v in enumerate(body)]

    return shape


def keep_links(paper: dict[str, Any]) -> dict[str, Any]:
    """A batch answer's paper as the reference lists are kept: its id and the ids of the papers it cites."""
    refs = paper.get("references", False)
    if not isinstance(refs or [], list):
        raise ValueError(f"paper {paper['paperId']} has no 'references' list")
    kept = [p for i, v in enumerate(refs or []) if (p := paper_or_none(v, f"references[{i}]", id_required=False))]
    return {"paperId": paper["paperId"], "references": [{"paperId": p["paperId"]} for p in kept if p["paperId"]]}


def edge_page(endpoint: str) -> Shape:
    """A ``/paper/{id}/citations`` or ``/references`` page as kept: ``offset``, ``next`` and the listed papers'
    asked fields (``None`` for an item that names no paper)."""
    key = EDGE_KEYS[endpoint]

    def shape(body: Any) -> dict[str, Any]:
        if not isinstance(body, dict) or not isinstance(body.get("data"), list):
            raise ValueError("the answer is not a page (no 'data' list)")
        if body.get("next") is not None and not isinstance(body["next"], int):
            raise ValueError("the answer's 'next' is not an offset")
        listed = []
        for i, item in enumerate(body["data"]):
            if not isinstance(item, dict) or key not in item:
                raise ValueError(f"data[{i}] is not an item with a '{key}'")
            paper = paper_or_none(item[key], f"data[{i}].{key}", id_required=False)
            listed.append({key: keep_facts(paper) if paper else None})
        return {"offset": body.get("offset"), "next": body.get("next"), "data": listed}

    return shape


def link_batches(ids: list[str], listed: dict[str, int | None]) -> Iterator[list[str]]:
    """``ids`` in batches of at most :data:`BATCH_LIMIT` whose papers list at most :data:`MAX_LISTED` references
    in all, as far as ``listed`` (their ``referenceCount``) says; a paper listing more goes alone."""
    batch: list[str] = []
    load = 0
    for pid in ids:
        n = listed.get(pid) or 0
        if batch and (len(batch) >= BATCH_LIMIT or load + n > MAX_LISTED):
            yield batch
            batch, load = [], 0
        batch.append(pid)
        load += n
    if batch:
        yield batch


# -- fetching ------------------------------------------------------------------------------------
class Fetcher:
    """Collects the papers of a :class:`Query` through ``client``, and the citations among them."""

    def __init__(self, client: JsonClient, query: Query) -> None:
        self.client, self.query = client, query
        self.out = Collected()
        self.cites: dict[str, dict[str, None]] = {}  # paperId -> the paperIds it cites (an ordered set)
        self.complete: set[str] = set()  # the papers whose whole reference list is in ``cites``
        self.unnamed = 0  # items of the lists that name no paper id (a reference known by title only)
        self.untitled: set[str] = set()  # papers left out for want of a title

    @property
    def left_out(self) -> int:
        return self.unnamed + len(self.untitled)

    def room(self) -> int:
        return self.query.max_papers - len(self.out.works)

    def add(self, paper: dict[str, Any]) -> str | None:
        """Keep ``paper`` if new, titled and there is room; its id if kept."""
        pid, title = paper["paperId"], paper.get("title")
        if pid in self.out.works or self.room() <= 0:
            return None
        if not (isinstance(title, str) and title.strip()):
            self.untitled.add(pid)
            return None
        self.out.works[pid] = paper
        return pid

    def cite(self, citing: str, cited: str) -> bool:
        """Record that ``citing`` cites ``cited``; True if it was not known (a paper citing itself is not kept)."""
        known = self.cites.setdefault(citing, {})
        if cited in known or citing == cited:
            return False
        known[cited] = None
        return True

    def batch(
        self, ids: list[str], fields: str, keep: Keep = keep_facts
    ) -> Iterator[tuple[str, dict[str, Any] | None]]:
        """Each id with its paper as ``keep`` keeps it (None if the API does not know the id), at most
        :data:`BATCH_LIMIT` ids a request."""
        for i in range(0, len(ids), BATCH_LIMIT):
            chunk = ids[i : i + BATCH_LIMIT]
            shape = papers_answer(len(chunk), keep)
            answer = self.client.post("/paper/batch", [("fields", fields)], {"ids": chunk}, shape)
            yield from zip(chunk, answer, strict=True)

    def listed(self, pid: str, endpoint: str, cap: int | None = None) -> Iterator[dict[str, Any]]:
        """The papers ``/paper/{pid}/{endpoint}`` lists (with an id), page after page, at most ``cap`` items."""
        key, offset, got = EDGE_KEYS[endpoint], 0, 0
        while cap is None or got < cap:
            limit = PAGE_LIMIT if cap is None else min(PAGE_LIMIT, cap - got)
            params: Params = [("fields", ",".join(FIELDS)), ("offset", str(offset)), ("limit", str(limit))]
            page = self.client.get(f"/paper/{pid}/{endpoint}", params, edge_page(endpoint))
            items = page["data"][: None if cap is None else cap - got]
            for item in items:
                if item[key] and item[key]["paperId"]:
                    yield item[key]
                else:
                    self.unnamed += 1
            got += len(items)
            following = page["next"]
            if not items or following is None or following <= offset:
                return
            offset = following

    # -- the steps ---------------------------------------------------------------------------
    def resolve(self, seeds: list[Seed]) -> None:
        """Look the seeds up (batched); those not found go to ``missing``."""
        found: dict[str, str | None] = {}
        for lookup, paper in self.batch(list(dict.fromkeys(s.lookup for s in seeds)), ",".join(FIELDS)):
            if paper is not None:
                found[lookup] = paper["paperId"] if paper["paperId"] in self.out.works or self.add(paper) else None
        for seed in seeds:
            if seed.lookup not in found:
                self.out.missing.append((seed.text, "not found in Semantic Scholar"))
            elif (pid := found[seed.lookup]) is None:
                self.out.missing.append(
                    (seed.text, "found in Semantic Scholar, but without a title or beyond --max-papers")
                )
            elif pid not in self.out.seeds:
                self.out.seeds.append(pid)

    def references(self, frontier: list[str]) -> list[str]:
        """Fetch the reference lists of the ``frontier`` papers and keep the papers they cite (those cited by
        most of them first, while there is room: :meth:`add` stops at ``max_papers``); the ids added."""
        counts: Counter[str] = Counter()
        papers: dict[str, dict[str, Any]] = {}
        for pid in frontier:
            for paper in self.listed(pid, "references"):
                if self.cite(pid, ref := paper["paperId"]):
                    counts[ref] += 1
                    papers.setdefault(ref, paper)
            self.complete.add(pid)
        return [pid for ref, _ in counts.most_common() if (pid := self.add(papers[ref]))]

    def citers(self, pid: str) -> list[str]:
        """Fetch up to ``max_citers`` papers citing ``pid`` (in the API's order); the ids added."""
        cap = min(self.query.max_citers, self.room())
        added = []
        for paper in self.listed(pid, "citations", cap) if cap > 0 else ():
            self.cite(paper["paperId"], pid)
            if new := self.add(paper):
                added.append(new)
        return added

    def links(self) -> None:
        """The reference lists of the papers whose references were not fetched page by page (batched), so that
        every citation among the papers kept is known."""
        works = self.out.works
        todo = [pid for pid, p in works.items() if pid not in self.complete and p.get("referenceCount") != 0]
        counts = {pid: n if isinstance(n := works[pid].get("referenceCount"), int) else None for pid in todo}
        for batch in link_batches(todo, counts):
            for pid, paper in self.batch(batch, LINKS, keep_links):
                for ref in (paper or {}).get("references", []):
                    self.cite(pid, ref["paperId"])
                self.complete.add(pid)

    def hop(self, frontier: list[str]) -> list[str]:
        added = self.references(frontier)
        for pid in frontier:
            added += self.citers(pid)
        return added

    def run(self, seeds: list[Seed]) -> Collected:
        self.resolve(seeds)
        walk_hops(self)
        if self.out.seeds:
            self.links()
        return self.out


# -- writing -------------------------------------------------------------------------------------
def records(found: Collected, cites: dict[str, dict[str, None]]) -> Iterator[dict[str, Any]]:
    """Each paper as the ``s2`` importer reads a paper object: its facts, and a ``references`` list of the
    papers in the dataset it cites (each by its id and title: the importer matches them by id)."""
    works = found.works
    for pid, paper in works.items():
        cited = [works[ref] for ref in cites.get(pid, {}) if ref in works]
        yield {**paper, "references": [{"paperId": p["paperId"], "title": p["title"]} for p in cited]}


def notes(query: Query, left_out: int) -> list[str]:
    """``dataset.json``'s notes (the importer's own would call each short reference list a truncated one)."""
    return [
        "cited_by and reference_count are Semantic Scholar's counts; edges are the citations among the fetched "
        "papers (each paper's reference list, kept within the dataset)",
        "areas are fieldsOfStudy, else s2FieldsOfStudy categories",
        f"citers: at most {query.max_citers:,} a paper, in the order Semantic Scholar lists them (it cannot sort "
        "them by their citations)",
        *(
            [
                f"{left_out:,} listed papers without a Semantic Scholar id or a title (the API lists some references "
                "by title only) are left out"
            ]
            if left_out
            else []
        ),
    ]


# -- the command --------------------------------------------------------------------------------
def fetch_s2(
    seeds: list[str],
    out: str | Path,
    *,
    hops: int = DEFAULT_HOPS,
    max_citers: int = DEFAULT_MAX_CITERS,
    max_papers: int = DEFAULT_MAX_PAPERS,
    cache: str | Path | None = None,
    base_url: str | None = None,
    progress: bool = True,
    settings: HttpSettings | None = None,
    on_warning: Callable[[str], None] = warn,
) -> dict[str, Any]:
    """Fetch the papers around ``seeds`` and write them as a dataset to ``out``; returns the import's summary
    with ``requests`` (sent, retries included), ``from_cache`` and ``retries`` added. Raises
    :class:`~dashboard.fetch.http.FetchError` (nothing written to ``out``) if a request fails for good, an answer
    is malformed or no seed is found."""
    query = Query(list(seeds), hops, max_citers, max_papers)
    query.check()
    out = Path(out)
    base = (base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")
    key = os.environ.get(API_KEY_ENV)
    parsed, bad = parse_seeds(query.seeds)
    with JsonClient(
        base,
        cache=ResponseCache(Path(cache) if cache else default_cache(out)),
        settings=settings or HttpSettings(rate=RATE),
        private_headers={API_KEY_HEADER: key} if key else {},
    ) as client:
        fetcher = Fetcher(client, query)
        found = collect(SOURCE, client, fetcher, parsed, bad, query, progress)
    return finish(
        SOURCE,
        client,
        base,
        query,
        found,
        records(found, fetcher.cites),
        out,
        progress=progress,
        on_warning=on_warning,
        notes=notes(query, fetcher.left_out),
    )
