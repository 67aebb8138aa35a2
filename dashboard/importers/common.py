"""What every importer shares: paper records, merging, edge bookkeeping, precise input errors."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from dashboard.dataset.format import citations_table, papers_table
from dashboard.dataset.keys import (  # noqa: F401 (importers' names too)
    ARXIV_ID,
    DOI,
    TITLE_WORD,
    Paper,
    clean_doi,
    normalise_title,
    same_paper_by_title,
)
from dashboard.errors import DatasetError, InputError  # noqa: F401 (importers' InputError)

SAFE_ID = re.compile(r"^[A-Za-z0-9._~\-]{1,128}$")


def title_id(title: str, year: int | None) -> str:
    """A stable, URL-safe id for a paper known only by its title (and year)."""
    key = f"{normalise_title(title)}|{year or ''}".encode()
    return "t-" + hashlib.blake2b(key, digest_size=6).hexdigest()


def clean_id(value: str) -> str | None:
    """An id usable in URLs and as a Cytoscape node id, or None."""
    value = value.strip()
    return value if SAFE_ID.match(value) else None


def clean_names(values: Iterable[object]) -> list[str]:
    """Author names with spaces collapsed, empty ones dropped, order kept."""
    out = []
    for v in values:
        if isinstance(v, str) and (name := " ".join(v.split())):
            out.append(name)
    return out


def parse_int(text: str) -> int:
    """``59,932`` -> 59932."""
    return int(text.replace(",", "").replace("\u202f", "").replace(" ", ""))


@dataclass
class PaperRecord:
    """One paper as one source describes it; ``None`` means the source does not say."""

    title: str
    id: str | None = None
    year: int | None = None
    posted: str | None = None
    areas: list[str] = field(default_factory=list)
    cited_by: int | None = None
    reference_count: int | None = None
    citations_by_year: dict[int, int] | None = None
    alt_ids: list[str] = field(default_factory=list)  # weaker ids that also name this paper
    authors: list[str] = field(default_factory=list)
    venue: str | None = None
    doi: str | None = None


@dataclass
class _Paper:
    rec: PaperRecord
    authoritative: bool
    sources: list[str] = field(default_factory=list)  # the sources that described it, in order
    cited_by_from: str | None = None  # the source whose figure ``rec.cited_by`` is
    title_only: list[str] = field(default_factory=list)  # ids of merged records known by title alone (title_id)


class DatasetBuilder:
    """Collects papers and citation edges from one or more sources and merges duplicates.

    Two records are one paper when they share any id (an id or an alternative id) or their DOI, or when their
    titles are the same once normalised and :func:`~dashboard.dataset.keys.same_paper_by_title` says so (years at
    most two apart; two arXiv papers, at most one of them with an arXiv id, whatever the years; never two
    different arXiv ids). The ids of the merged records stay the paper's alternative ids
    (a record known by its title alone: the ``t-`` id it would have had), so that a link to any of them finds the
    paper. ``stats`` counts the merges each part of the rule made (``merged_by_id``, ``merged_by_doi``,
    ``merged_by_title``, ``merged_by_title_arxiv``; ``merged`` in all).

    A record marked ``authoritative`` (the paper's own page or object) wins for counts and dates; otherwise the
    first value seen is kept and missing ones are filled in, so that the source added first wins where two sources
    speak of the same paper. ``source`` names the source of the records being added (an importer sets it); each
    paper keeps the list of its sources.
    """

    def __init__(self, source: str = "") -> None:
        self.source = source
        self.papers: list[_Paper] = []
        self.by_id: dict[str, int] = {}
        self.by_doi: dict[str, int] = {}
        self.by_title: dict[str, list[int]] = {}
        self.edges: set[tuple[int, int]] = set()
        self.stats: dict[str, int] = {
            "records": 0,
            "merged": 0,
            "merged_by_id": 0,
            "merged_by_doi": 0,
            "merged_by_title": 0,
            "merged_by_title_arxiv": 0,
            "edges_seen": 0,
            "self_loops": 0,
            "duplicate_edges": 0,
            "edges_outside": 0,
        }

    # -- papers -------------------------------------------------------------------------------
    def _find(self, rec: PaperRecord) -> tuple[int, str] | tuple[None, None]:
        """The paper ``rec`` is, and the part of the rule that says so (``id``, ``doi``, ``title``,
        ``title_arxiv``); or None."""
        for key in [rec.id, *rec.alt_ids]:
            if key and key in self.by_id:
                return self.by_id[key], "id"
        if rec.doi and rec.doi in self.by_doi:
            return self.by_doi[rec.doi], "doi"
        norm = normalise_title(rec.title)
        if not norm:  # a title of no Latin letter or digit: its key says nothing of it
            return None, None
        mine = Paper([i for i in (rec.id, *rec.alt_ids) if i], rec.year)
        for k in self.by_title.get(norm, ()):
            other = self.papers[k].rec
            why = same_paper_by_title(mine, Paper([i for i in (other.id, *other.alt_ids) if i], other.year))
            if why:
                return k, why
        return None, None

    def add(self, rec: PaperRecord, *, authoritative: bool = False) -> int:
        """Add or merge a paper; returns its key for :meth:`cite`."""
        self.stats["records"] += 1
        rec.title = " ".join(rec.title.split())
        k, why = self._find(rec)
        if k is None:
            k = len(self.papers)
            self.papers.append(
                _Paper(
                    PaperRecord(
                        **{
                            **rec.__dict__,
                            "areas": list(rec.areas),
                            "alt_ids": list(rec.alt_ids),
                            "authors": list(rec.authors),
                        }
                    ),
                    authoritative,
                    [self.source] if self.source else [],
                    (self.source or None) if rec.cited_by is not None else None,
                )
            )
            self.by_title.setdefault(normalise_title(rec.title), []).append(k)
        else:
            self.stats["merged"] += 1
            self.stats[f"merged_by_{why}"] += 1
            self._merge(self.papers[k], rec, authoritative, self.source)
        if rec.id is None:
            self.papers[k].title_only.append(title_id(rec.title, rec.year))
        for key in [rec.id, *rec.alt_ids]:
            if key:
                self.by_id.setdefault(key, k)
        if rec.doi:
            self.by_doi.setdefault(rec.doi, k)
        return k

    @staticmethod
    def _merge(p: _Paper, rec: PaperRecord, authoritative: bool, source: str) -> None:
        cur = p.rec
        if source and source not in p.sources:
            p.sources.append(source)
        if rec.id and (not cur.id or (ARXIV_ID.match(rec.id) and not ARXIV_ID.match(cur.id))):
            if cur.id:
                cur.alt_ids.append(cur.id)
            cur.id = rec.id
        elif rec.id and rec.id != cur.id and rec.id not in cur.alt_ids:
            cur.alt_ids.append(rec.id)  # merged by title: the other id still names this paper
        override = authoritative and not p.authoritative
        if rec.cited_by is not None and (override or cur.cited_by is None):
            p.cited_by_from = source or None
        for name in ("year", "posted", "cited_by", "reference_count", "citations_by_year", "venue", "doi"):
            new = getattr(rec, name)
            if new is not None and (override or getattr(cur, name) is None):
                setattr(cur, name, new)
        if rec.authors and (override or not cur.authors):
            cur.authors = list(rec.authors)
        if rec.title and (override or not cur.title):
            cur.title = rec.title
        for area in rec.areas:
            if area not in cur.areas:
                cur.areas.append(area)
        for alt in rec.alt_ids:
            if alt not in cur.alt_ids and alt != cur.id:
                cur.alt_ids.append(alt)
        p.authoritative = p.authoritative or authoritative

    def find(self, key: str) -> int | None:
        return self.by_id.get(key)

    def record(self, k: int) -> PaperRecord:
        return self.papers[k].rec

    # -- edges --------------------------------------------------------------------------------
    def cite(self, citing: int, cited: int) -> None:
        """Record that paper ``citing`` cites paper ``cited`` (keys from :meth:`add`)."""
        self.stats["edges_seen"] += 1
        if citing == cited:
            self.stats["self_loops"] += 1
        elif (citing, cited) in self.edges:
            self.stats["duplicate_edges"] += 1
        else:
            self.edges.add((citing, cited))

    def cite_outside(self, n: int = 1) -> None:
        """Count edges whose other end is not in the data (kept only as counts)."""
        self.stats["edges_seen"] += n
        self.stats["edges_outside"] += n

    # -- output -------------------------------------------------------------------------------
    def final_ids(self) -> list[str]:
        ids: list[str] = []
        used: set[str] = set()
        for p in self.papers:
            base = p.rec.id or title_id(p.rec.title, p.rec.year)
            pid, n = base, 1
            while pid in used:  # same title and year, different papers: numbered, still stable by order
                n += 1
                pid = f"{base}-{n}"
            used.add(pid)
            ids.append(pid)
        return ids

    def final_alt_ids(self, ids: list[str]) -> list[list[str]]:
        """Each paper's alternative ids (``ids``: :meth:`final_ids`): its records' other ids, then the ``t-`` ids of
        its records known by title alone where that is no paper's id."""
        out = []
        taken = set(ids) if any(p.title_only for p in self.papers) else set()
        for p in self.papers:
            alt = list(p.rec.alt_ids)
            for tid in p.title_only:
                if tid not in taken and tid not in alt:
                    alt.append(tid)
            out.append(alt)
        return out

    def build(self) -> tuple[pa.Table, pa.Table, dict[str, Any]]:
        """The papers and citations tables, and a summary of what was merged and dropped."""
        ids = self.final_ids()
        recs = [p.rec for p in self.papers]
        cols: dict[str, list[Any]] = {
            "id": ids,
            "title": [r.title for r in recs],
            "year": [r.year for r in recs],
            "posted": [r.posted for r in recs],
            "areas": [list(r.areas) for r in recs],
            "cited_by": [r.cited_by for r in recs],
            "reference_count": [r.reference_count for r in recs],
            "citations_by_year": [
                None
                if r.citations_by_year is None
                else [{"year": y, "count": c} for y, c in sorted(r.citations_by_year.items())]
                for r in recs
            ],
            "cited_by_from": [p.cited_by_from for p in self.papers],
            "authors": [list(r.authors) for r in recs],
            "venue": [r.venue for r in recs],
            "doi": [r.doi for r in recs],
            "sources": [list(p.sources) for p in self.papers],
            "alt_ids": self.final_alt_ids(ids),
        }
        edges = sorted(self.edges)
        papers = papers_table(cols)
        citations = citations_table([ids[a] for a, _ in edges], [ids[b] for _, b in edges])
        summary = {
            **self.stats,
            "papers": len(ids),
            "citations": len(edges),
            "papers_with_areas": sum(1 for r in recs if r.areas),
        }
        if any(r.authors for r in recs):
            summary["papers_with_authors"] = sum(1 for r in recs if r.authors)
        return papers, citations, summary


def for_source(builder: DatasetBuilder | None, source: str) -> DatasetBuilder:
    """``builder`` (a new one if None) set to record ``source`` for the papers added next."""
    builder = builder if builder is not None else DatasetBuilder()
    builder.source = source
    return builder


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Numbered lines of a UTF-8 text file; a file that is not UTF-8 is an :class:`InputError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        line = path.read_bytes()[: e.start].count(b"\n") + 1
        raise InputError(path, f"not UTF-8 text ({e.reason})", line=line) from e
    except OSError as e:
        raise InputError(path, f"cannot be read ({e.strerror})") from e
    yield from enumerate(text.splitlines(), start=1)


def expand_sources(sources: Iterable[str | Path]) -> list[Path]:
    paths = [Path(s) for s in sources]
    for p in paths:
        if not p.exists():
            raise InputError(p, "no such file or folder")
    return paths
