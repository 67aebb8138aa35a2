"""The store: a dataset loaded once per process, answering queries by paper row.

Everything is columnar: memory-mapped numpy arrays and CSR indexes from :mod:`dashboard.index`, the
papers table as a zero-copy Arrow table, titles searched through a SQLite FTS5 index. There is no
Python object per paper and no graph object of the whole corpus; references or citers of a paper are
an array slice, already ordered most cited first. Knows nothing of Dash.

A paper is found by what a researcher types or links (:meth:`Store.resolve`): its id in any common form
(:mod:`dashboard.dataset.id_forms`: ``arXiv:ID``, arxiv.org and doi.org links, version suffixes, DOIs, OpenAlex
and Semantic Scholar ids), looked up among the ids, the alternative ids and the DOIs of the papers.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from dashboard.dataset import builds, id_forms, index, integrity
from dashboard.dataset.format import CITATIONS_FILE, META_FILE, PAPERS_FILE, read_meta
from dashboard.dataset.keys import title_hash, title_key
from dashboard.dataset.names import MAX_NAME, name_key
from dashboard.dataset.spelling import Vocabulary, spellings
from dashboard.errors import DatasetError

log = logging.getLogger(__name__)
# a search word: letters and digits, as the index's tokenizer (unicode61) cuts them; "_" separates there too, and a
# quoted word it cuts in two is a phrase, which an index without positions (detail=none) refuses
UNVERIFIED_ENV = "CITEMAP_ALLOW_UNVERIFIED"  # =1: serve a build `citemap verify` refuses (no checksums), warned
UNVERIFIED_FLAG = "--allow-unverified"  # citemap serve's option that sets it
WORD = re.compile(r"[^\W_]+", re.UNICODE)
EXTRA_TITLES = 20  # papers read beyond a search's limit where hashes are equal (titles sharing a hash)
MAX_WORDS = 12  # words of a search that count


@dataclass
class SearchResult:
    """A search's rows, and the text as corrected when the rows include papers found by correcting it."""

    rows: list[int]
    suggestion: str | None = None


def _cased(word: str, like: str) -> str:
    """``word`` (lower case) in the case of the word ``like``: ``Attention`` for ``Atention``, ``GAN`` for ``GNA``."""
    if len(like) > 1 and like.isupper():
        return word.upper()
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def _term(word: str, prefix: bool) -> str:
    """An FTS5 term for a word in any of its spellings (:func:`~dashboard.dataset.spelling.spellings`), as a
    prefix if ``prefix``."""
    forms = [f'"{form}"' + ("*" if prefix else "") for form in spellings(word)]
    return forms[0] if len(forms) == 1 else "(" + " OR ".join(forms) + ")"


def gather(offsets: np.ndarray, values: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The CSR lists of ``rows`` concatenated: (index into ``rows`` of each value's owner, values)."""
    starts = offsets[rows]
    lengths = offsets[rows + 1] - starts
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if len(ends) else 0
    if not total:
        return np.empty(0, np.int64), values[:0]
    owner = np.repeat(np.arange(len(rows)), lengths)
    pos = np.arange(total) + (starts - (ends - lengths))[owner]
    return owner, values[pos]


class RowSlots:
    """Rows numbered 1, 2, ... in the order they are added, in an int32 array as long as the dataset (0: not
    added): membership and position of many rows at one array lookup each, with no sorting or hashing."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array
        self.count = 0
        self._added: list[np.ndarray] = []

    def add(self, rows: np.ndarray) -> None:
        """Add rows that are not in yet (and not repeated)."""
        self.array[rows] = np.arange(self.count + 1, self.count + len(rows) + 1, dtype=np.int32)
        self._added.append(rows)
        self.count += len(rows)

    def __contains__(self, row: int) -> bool:
        return bool(self.array[row])

    def absent(self, rows: np.ndarray) -> np.ndarray:
        """The ``rows`` not added yet, in their order."""
        return rows[self.array[rows] == 0]

    def positions(self, rows: np.ndarray) -> np.ndarray:
        """Position of each row in the order of adding; -1 for rows not added."""
        return self.array[rows] - 1

    def clear(self) -> None:
        for rows in self._added:
            self.array[rows] = 0
        self._added.clear()
        self.count = 0


class Store:
    """One loaded dataset. Rows are ints in ``range(n)``; ids are the dataset's paper ids."""

    def __init__(self, folder: Path, meta: dict[str, Any], build: Path) -> None:
        self.folder = folder  # the dataset folder
        self.meta = meta
        self.build = build  # the build it serves, every file read from here (the folder, if flat)
        imeta = index.read_index_meta(build) or {}
        self.area_names: list[str] = list(imeta.get("areas", []))
        try:
            # plain ndarray views of the memory maps: no np.memmap overhead on every slice
            self.arrays = {k: np.asarray(v) for k, v in index.load_arrays(build).items()}
            self.papers = index.load_papers(build)
        except (OSError, ValueError, pa.ArrowException) as e:
            raise DatasetError(f"{build / index.INDEX_DIR}: index file unreadable ({e})") from e
        a = self.arrays
        self.n = self.papers.num_rows
        self.n_citations = int(a["ref_offsets"][-1]) if self.n else 0
        if (
            any(len(a[k]) != self.n for k in ("year", "in_cited", "rank_rows", "primary_area"))
            or len(a["ref_offsets"]) != self.n + 1
            or len(a["ref_targets"]) != self.n_citations
        ):
            raise DatasetError(f"{build / index.INDEX_DIR}: index files do not match each other")
        self.year = a["year"]
        self.in_cited = a["in_cited"]  # citers in the dataset: what sizes, sorts and filters use
        self.in_refs = a["in_refs"]
        self.primary_area = a["primary_area"]
        self._ids = index.column(self.papers.column("id"))
        self._titles = index.column(self.papers.column("title"))
        self._cited_by = index.column(self.papers.column("cited_by"))
        try:
            self._node_json = index.load_node_json(build)
        except (OSError, ValueError, pa.ArrowException) as e:
            raise DatasetError(f"{build / index.INDEX_DIR / 'nodes.arrow'}: unreadable ({e})") from e
        self._search_path = build / index.INDEX_DIR / "search.sqlite"
        self._field_xy: np.ndarray | None = None  # read when first there (made after the rest of the build)
        self._local = threading.local()
        known = self.year[self.year >= 0]
        self.year_min = int(known.min()) if len(known) else None
        self.year_max = int(known.max()) if len(known) else None

    # -- loading ------------------------------------------------------------------------------
    @classmethod
    def load(cls, folder: str | Path, *, allow_unverified: bool | None = None) -> Store:
        """Load the build a dataset folder serves (:mod:`dashboard.dataset.builds`), pinned for as long as the store
        lives: its dataset.json as written (its own checksum), its files as written (``dataset.json`` ``files``:
        sizes and checksums), its index fresh for its build. Anything else is a DatasetError naming the file and the
        command that rebuilds it; nothing is written (a read-only host stays read-only).

        A build that records no checksums (of its files, or dataset.json's own: written by an older citemap) is
        refused as ``citemap verify`` refuses it, unless ``allow_unverified`` (by default: the environment's
        ``CITEMAP_ALLOW_UNVERIFIED=1``, which ``citemap serve --allow-unverified`` sets); then it loads with a
        warning."""
        if allow_unverified is None:
            allow_unverified = os.environ.get(UNVERIFIED_ENV, "").strip() == "1"
        folder = Path(folder).resolve()
        build, pin = builds.pinned(folder)
        try:
            store = cls._load_build(folder, build, allow_unverified)
        except BaseException:
            os.close(pin)
            raise
        builds.unpin_with(store, pin)
        return store

    @classmethod
    def _load_build(cls, folder: Path, build: Path, allow_unverified: bool) -> Store:
        meta = read_meta(build)
        changed = integrity.meta_problem(meta, build)  # first: the files' checksums are among what it says
        if changed:
            raise DatasetError(f"{changed}; {integrity.fix_hint(meta, folder)}")
        recorded = integrity.recorded_files(meta, build)
        if recorded:
            found = integrity.problems(build, recorded)
            if found:
                raise DatasetError(f"{found[0]}; {integrity.fix_hint(meta, folder)}")
        unverified = None
        if not recorded:
            unverified = "records no checksums (written by an older citemap); files not checked"
        elif not integrity.records_meta_checksum(meta, build):
            unverified = "records no checksum of its own (written by an older citemap); its fields not checked"
        if unverified and not allow_unverified:
            raise DatasetError(
                f"{build / META_FILE}: {unverified.split(';')[0]}; `citemap verify` refuses it; "
                f"{integrity.fix_hint(meta, folder)} (or serve it as it is with citemap serve {UNVERIFIED_FLAG}, "
                f"{UNVERIFIED_ENV}=1)"
            )
        if unverified:
            log.warning("%s: dataset.json %s", build, unverified)
        counts = {}
        for name in (PAPERS_FILE, CITATIONS_FILE):
            path = build / name
            if not path.is_file():
                raise DatasetError(f"{path}: missing")
            try:
                counts[name] = pq.ParquetFile(path).metadata.num_rows
            except (pa.ArrowException, OSError) as e:
                raise DatasetError(f"{path}: cannot be read as Parquet ({e})") from e
        imeta = index.read_index_meta(build)
        fresh = (
            imeta is not None
            and imeta.get("build_id") == meta.get("build_id")
            and imeta.get("papers") == counts[PAPERS_FILE]
            and imeta.get("citations") == counts[CITATIONS_FILE]
        )
        if not fresh:
            raise DatasetError(
                f"{build / index.INDEX_DIR}: missing, unreadable or from another build of this "
                f"dataset; {integrity.fix_hint(meta, folder)}"
            )
        return cls(folder, meta, build)

    @property
    def field_xy(self) -> np.ndarray | None:
        """Each paper's place on the map of the whole dataset: float32 ``(n, 2)``, rows as the store's, centred, any
        scale (:mod:`dashboard.graph.field_layout`), memory-mapped; None until the build has it (it is made after
        the build is served: :meth:`field_progress` says how far along)."""
        if self._field_xy is None:
            self._field_xy = index.load_field_xy(self.build, self.n)
        return self._field_xy

    def field_progress(self) -> dict | None:
        """How far along the making of the field's map is (``share`` done, 0..1; ``started``: epoch seconds), or
        None if no process is making it."""
        return index.read_field_progress(self.build)

    # -- ids and rows ---------------------------------------------------------------------------
    def row(self, paper_id: str) -> int | None:
        """The row of a paper id, or None."""
        return self._lookup("id_sorted", paper_id)

    def row_by_doi(self, doi: str) -> int | None:
        """The row of the paper with this DOI (lower case, no ``https://doi.org/``), or None."""
        return self._lookup("doi_sorted", doi)

    def row_by_alt(self, alt_id: str) -> int | None:
        """The row of the paper this alternative id names (an OpenAlex or Semantic Scholar id of a paper whose id
        is its arXiv id, say), or None."""
        return self._lookup("alt_sorted", alt_id)

    def resolve(self, text: object) -> int | None:
        """The row of the paper ``text`` names, in any form :mod:`~dashboard.dataset.id_forms` reads (an id, an
        alternative id, a DOI, a link to one), or None."""
        return index.resolve_row(self.arrays, text)

    def resolve_id(self, text: object) -> str | None:
        """The id of the paper ``text`` names (:meth:`resolve`), or None."""
        row = self.resolve(text)
        return None if row is None else self.id(row)

    def _lookup(self, name: str, key_text: str) -> int | None:
        """Binary search of a sorted key array (``id_sorted``, ``doi_sorted``, ``alt_sorted``) for one key."""
        return index.find_key(self.arrays, name, key_text)

    def rows(self, paper_ids: Iterable[str]) -> tuple[list[int], list[str]]:
        """Rows of the ids that are known, and the ids that are not (both in input order)."""
        found, unknown = [], []
        for pid in paper_ids:
            r = self.row(pid)
            (unknown.append(pid) if r is None else found.append(r))
        return found, unknown

    def id(self, row: int) -> str:
        return self._ids[row].as_py()

    def ids(self, rows: Sequence[int] | np.ndarray) -> list[str]:
        return index.take(self._ids, rows).to_pylist()

    def node_json(self, rows: Sequence[int] | np.ndarray) -> str:
        """The fixed graph-node fields of ``rows`` as JSON objects separated by commas (see index.py)."""
        if not len(rows):
            return ""
        # each value ends with a comma: the values' bytes, end to end, are the list's inside
        return index.joined_bytes(self._node_parts, rows)[:-1].decode()

    @cached_property
    def _node_parts(self) -> index.StringParts:
        return index.string_parts(self._node_json)

    def cited_by(self, rows: Sequence[int] | np.ndarray) -> np.ndarray:
        """The sources' own citation figures of ``rows`` (int64; -1 where no source gives one)."""
        col = index.take(self._cited_by, rows)
        return np.asarray(col.fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.int64)

    def titles(self, rows: Sequence[int] | np.ndarray) -> list[str]:
        return index.take(self._titles, rows).to_pylist()

    def areas_of(self, rows: Sequence[int] | np.ndarray) -> list[list[str]]:
        """Area names of each row; papers without areas get ``["unknown"]``."""
        rows = np.asarray(rows, dtype=np.int64)
        owner, codes = gather(self.arrays["area_offsets"], self.arrays["area_codes"], rows)
        names = self.area_names
        out: list[list[str]] = [[] for _ in range(len(rows))]
        for i, c in zip(owner.tolist(), codes.tolist(), strict=True):
            out[i].append(names[c])
        return [a or [index.UNKNOWN_AREA] for a in out]

    def paper(self, row: int) -> dict[str, Any]:
        """All facts of one paper, as plain Python values."""
        rec = self.papers.slice(row, 1).to_pylist()[0]
        rec["areas"] = self.areas_of([row])[0]
        rec["authors"] = rec["authors"] or []
        rec["sources"] = rec["sources"] or []
        rec["in_cited"] = int(self.in_cited[row])
        rec["in_refs"] = int(self.in_refs[row])
        rec["citations_by_year"] = {d["year"]: d["count"] for d in rec["citations_by_year"] or []} or None
        return rec

    # -- neighbours ---------------------------------------------------------------------------
    def references(self, row: int, limit: int | None = None) -> np.ndarray:
        """Rows this paper cites, most cited first."""
        off = self.arrays["ref_offsets"]
        start, end = int(off[row]), int(off[row + 1])
        if limit is not None:
            end = min(end, start + limit)
        return self.arrays["ref_targets"][start:end]

    def citers(self, row: int, limit: int | None = None) -> np.ndarray:
        """Rows that cite this paper, most cited first."""
        off = self.arrays["cit_offsets"]
        start, end = int(off[row]), int(off[row + 1])
        if limit is not None:
            end = min(end, start + limit)
        return self.arrays["cit_sources"][start:end]

    def n_references(self, row: int) -> int:
        off = self.arrays["ref_offsets"]
        return int(off[row + 1] - off[row])

    def n_citers(self, row: int) -> int:
        off = self.arrays["cit_offsets"]
        return int(off[row + 1] - off[row])

    def edge_positions(self, rows: np.ndarray, slots: RowSlots | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Citation edges with both ends in ``rows`` (unique), as positions in ``rows``: ``rows[i]`` cites
        ``rows[j]``. ``slots``: RowSlots that hold exactly ``rows``, added in that order, if the caller has them."""
        if slots is None:
            with self.row_slots() as own:
                own.add(rows)
                return self.edge_positions(rows, own)
        owner, dst = gather(self.arrays["ref_offsets"], self.arrays["ref_targets"], rows)
        if not len(dst):
            return np.empty(0, np.int64), np.empty(0, np.int64)
        j = slots.positions(dst)
        keep = j >= 0
        return owner[keep], j[keep].astype(np.int64)

    @contextmanager
    def row_slots(self) -> Iterator[RowSlots]:
        """Empty :class:`RowSlots` over all rows, emptied again when the block ends (one array per thread,
        reused; a nested block gets its own)."""
        free = getattr(self._local, "slots", None)
        self._local.slots = None
        slots = RowSlots(free if free is not None else np.zeros(self.n, dtype=np.int32))
        try:
            yield slots
        finally:
            slots.clear()
            self._local.slots = slots.array

    # -- filters ------------------------------------------------------------------------------
    def area_mask(self, rows: np.ndarray, areas: Iterable[str]) -> np.ndarray:
        """True for rows with at least one of ``areas`` ("unknown" matches papers without areas)."""
        wanted = {self.area_names.index(a) for a in areas if a in self.area_names}
        rows = np.asarray(rows, dtype=np.int64)
        if not wanted or not len(rows):
            return np.zeros(len(rows), dtype=bool)
        off = self.arrays["area_offsets"]
        unknown = self.area_names.index(index.UNKNOWN_AREA) if index.UNKNOWN_AREA in self.area_names else -1
        mask = np.zeros(len(rows), dtype=bool)
        if unknown in wanted:
            mask |= off[rows + 1] == off[rows]
        owner, codes = gather(off, self.arrays["area_codes"], rows)
        mask[owner[np.isin(codes, np.fromiter(wanted, dtype=np.int64))]] = True
        return mask

    def filter_mask(
        self,
        rows: np.ndarray,
        *,
        years: tuple[int, int] | None = None,
        areas: Iterable[str] | None = None,
        min_citations: int | None = None,
    ) -> np.ndarray:
        """True for the rows that pass every given filter (a paper of unknown year passes a year filter
        only if the range covers the whole dataset)."""
        rows = np.asarray(rows, dtype=np.int64)
        mask = np.ones(len(rows), dtype=bool)
        if years is not None:
            y = self.year[rows]
            in_range = (y >= years[0]) & (y <= years[1])
            if self.year_min is not None and years[0] <= self.year_min and years[1] >= self.year_max:
                in_range |= y < 0
            mask &= in_range
        if areas is not None:
            mask &= self.area_mask(rows, areas)
        if min_citations:
            mask &= self.in_cited[rows] >= min_citations
        return mask

    def year_at_percentile(self, q: float) -> int | None:
        """The year below which ``q`` percent of the papers of known year were published (None: no years)."""
        known = self.year[self.year >= 0]
        return int(np.percentile(known, q, method="lower")) if len(known) else None

    def area_counts(self) -> dict[str, int]:
        """Papers per area over the whole dataset (a paper counts once per area)."""
        counts = np.bincount(self.arrays["area_codes"], minlength=len(self.area_names))
        out = {name: int(counts[i]) for i, name in enumerate(self.area_names)}
        if index.UNKNOWN_AREA in out:
            off = self.arrays["area_offsets"]
            out[index.UNKNOWN_AREA] = int(np.count_nonzero(np.diff(off) == 0))
        return out

    @cached_property
    def has_authors(self) -> bool:
        """Whether any paper names its authors (the search then finds papers by them too)."""
        import pyarrow.compute as pc

        lengths = pc.list_value_length(self.papers.column("authors"))
        return bool(len(lengths) and (pc.max(lengths).as_py() or 0) > 0)

    def source_counts(self) -> dict[str, int]:
        """Papers per source (a paper described by two sources counts for both)."""
        import pyarrow.compute as pc

        flat = pc.list_flatten(self.papers.column("sources"))
        return {d["values"]: d["counts"] for d in pc.value_counts(flat).to_pylist()} if len(flat) else {}

    # -- search -------------------------------------------------------------------------------
    def _search_db(self) -> sqlite3.Connection:
        con = getattr(self._local, "con", None)
        if con is None or getattr(self._local, "pid", None) != os.getpid():
            uri = self._search_path.resolve().as_uri() + "?mode=ro&immutable=1"
            con = sqlite3.connect(uri, uri=True, check_same_thread=False)
            self._local.con, self._local.pid = con, os.getpid()
        return con

    def search(self, text: str, limit: int = 10) -> list[int]:
        """Rows for what a researcher typed, in this order: the paper ``text`` names as an id in any form
        (:meth:`resolve`); the paper whose common name it is (:meth:`by_name`: "ResNet", "gpt3"); the papers titled
        exactly ``text`` (case, accents, punctuation and spacing aside); the papers whose id starts with ``text``;
        the papers whose title and author names hold all its words (the last one as a prefix; a word in its British
        or American spelling alike). Each group most cited first. Words typed wrong find nothing here (a library's
        titles are matched so): :meth:`search_suggesting` corrects them."""
        return self.search_suggesting(text, limit, correct=False).rows

    def search_suggesting(self, text: str, limit: int = 10, *, correct: bool = True) -> SearchResult:
        """:meth:`search`, and when no paper holds all the words (and ``correct``), the words typed wrong replaced
        by the dataset's closest common words (:meth:`corrected`): the papers that hold those follow, and the
        corrected text is the result's ``suggestion`` ("Did you mean"); never when ``text`` is a paper's name."""
        if not isinstance(text, str):
            return SearchResult([])
        named = self.resolve(text)
        text = text.strip()[:200]
        if not text:
            return SearchResult([])
        limit = max(1, min(int(limit), 100))
        out: list[int] = [] if named is None else [named]
        by_name = self.by_name(text)
        if by_name is not None:
            correct = False  # a name is no typo, though no title holds it
            if by_name not in out:
                out.append(by_name)
        out.extend(r for r in self._exact_titles(text, limit) if r not in out)
        out.extend(r for r in self._id_prefix(id_forms.typed_prefix(text), limit) if r not in out)
        typed = [(m.start(), m.end(), m[0].lower()) for m in WORD.finditer(text)][:MAX_WORDS]
        words = [w for _, _, w in typed]
        suggestion = None
        if words and len(out) < limit:
            # a word before the last that no paper holds: no paper holds them all (asked without reading the others'
            # lists, which for a long last word read as a prefix can take a while)
            hopeless = correct and not all(self._holds(w, prefix=False) for w in words[:-1])
            found = [] if hopeless else self._holding(words, limit, text)
            if not found and correct:
                fixed = self.corrected(words)
                if fixed != words and (found := self._holding(fixed, limit, text)):
                    suggestion = text
                    for (start, end, _), old, new in reversed(list(zip(typed, words, fixed, strict=True))):
                        if new != old:
                            suggestion = suggestion[:start] + _cased(new, text[start:end]) + suggestion[end:]
            out.extend(r for r in found if r not in out)
        return SearchResult(out[:limit], suggestion)

    @cached_property
    def has_names(self) -> bool:
        """Whether the build keeps common names of papers ("ResNet"), which the search finds first."""
        try:
            return self._search_db().execute("SELECT 1 FROM names LIMIT 1").fetchone() is not None
        except sqlite3.Error:  # a build written without names
            return False

    def by_name(self, text: str) -> int | None:
        """The row of the paper whose common name ``text`` is, case, spaces and punctuation aside
        (:func:`~dashboard.dataset.names.name_key`: "ResNet", "GPT-3", "gpt3"), from the build's table of names; None
        if it names none (or the build keeps no names)."""
        key = name_key(text) if isinstance(text, str) and len(text) <= MAX_NAME else ""
        if not key:
            return None
        try:
            found = self._search_db().execute("SELECT row FROM names WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:  # a build written without names
            return None
        return int(found[0]) if found is not None and 0 <= found[0] < self.n else None

    def _holding(self, words: list[str], limit: int, text: str) -> list[int]:
        """Rows of the papers whose title and author names hold all ``words`` (the last as a prefix), in either
        spelling, most cited first (``text``: what was typed, for the log)."""
        ranks = self._match(" AND ".join(_term(w, i == len(words) - 1) for i, w in enumerate(words)), limit, text)
        return [int(r) for r in self.arrays["rank_rows"][np.asarray(ranks, dtype=np.int64)]]

    def _match(self, query: str, limit: int, text: str) -> list[int]:
        """Ranks (rowids) of the search index matching an FTS5 ``query``, lowest first; [] if it fails (logged
        with ``text``, what was typed)."""
        try:
            return [
                r
                for (r,) in self._search_db().execute(
                    "SELECT rowid FROM titles WHERE titles MATCH ? ORDER BY rowid LIMIT ?", (query, limit)
                )
            ]
        except sqlite3.Error as e:
            log.warning("search %r failed: %s", text, e)
            return []

    def _holds(self, word: str, prefix: bool) -> bool:
        """Whether a paper holds ``word`` in either spelling (or, if ``prefix``, a word that starts with it): the
        whole word asked first, which is quick; a prefix longer than the index's prefixes merges every word that
        starts with it."""
        return bool(self._match(_term(word, False), 1, word)) or (
            prefix and bool(self._match(_term(word, True), 1, word))
        )

    def corrected(self, words: list[str]) -> list[str]:
        """``words`` (lower case, as typed) with each one typed wrong replaced by the closest common word of the
        dataset (:meth:`~dashboard.dataset.spelling.Vocabulary.closest`): a word no paper holds (the last one: that
        no word of a paper starts with), or one that a close word is many times as common as. Words with digits,
        and the last word while it may still be being typed, are kept."""
        vocabulary = self.vocabulary
        out = []
        for i, word in enumerate(words):
            last = i == len(words) - 1
            fixed = None
            if not any(c.isdigit() for c in word):
                if not self._holds(word, prefix=last):
                    fixed = vocabulary.closest(word, docs=0)
                elif not last or word in vocabulary.docs:
                    fixed = vocabulary.closest(word, docs=vocabulary.docs.get(word, 1))
            out.append(fixed or word)
        return out

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The common words of the titles and author names, with how many papers hold each (read once, when a
        search first needs it; none for a build written before the index kept them)."""
        try:
            return Vocabulary(self._search_db().execute("SELECT word, docs FROM words"))
        except sqlite3.Error:
            return Vocabulary([])

    def _exact_titles(self, text: str, limit: int) -> list[int]:
        """Rows titled ``text`` (:func:`~dashboard.dataset.keys.title_key` of both equal), most cited
        first."""
        key = title_key(text)
        if not key:
            return []
        hashes = self.arrays["title_sorted"]
        h = np.uint32(title_hash(key))
        lo = int(np.searchsorted(hashes, h, side="left"))
        hi = int(np.searchsorted(hashes, h, side="right"))
        rows = [int(r) for r in self.arrays["title_sorted_rows"][lo : min(hi, lo + limit + EXTRA_TITLES)]]
        return [r for r, title in zip(rows, self.titles(rows), strict=True) if title_key(title or "") == key][:limit]

    def _id_prefix(self, text: str, limit: int) -> list[int]:
        if len(text) < 4 or " " in text:
            return []
        ids = self.arrays["id_sorted"]
        key = text.encode("utf-8", "replace")
        if len(key) > ids.dtype.itemsize:
            return []
        lo = int(np.searchsorted(ids, key, side="left"))
        hi = int(np.searchsorted(ids, key + b"\xff", side="left"))
        if hi <= lo:
            return []
        rows = np.asarray(self.arrays["id_sorted_rows"][lo : min(hi, lo + 1000)], dtype=np.int64)
        best = rows[np.argsort(self.arrays["row_rank"][rows], kind="stable")][:limit]
        return [int(r) for r in best]
