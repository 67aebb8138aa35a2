"""Derived index files of a dataset: what the store memory-maps instead of rebuilding at start-up.

Written by :func:`write_index_from` into ``<dataset>/index/`` (importers call it through
``dataset.write_dataset`` or ``dataset.write_streamed``) from a :class:`Source`: the papers a batch at a time and
the citation lists a chunk at a time, so that a snapshot-scale import never holds the dataset in memory. Every
array is a ``.npy`` file opened with ``mmap_mode="r"``, so that start-up costs milliseconds and gunicorn workers
share the pages. The two Arrow files hold one chunk per batch of about ``BATCH`` papers; the store reads them where
they are mapped (:func:`column`, :func:`take`), never joined into memory.

=========================  ===========  ====================================================
file                       dtype        content
=========================  ===========  ====================================================
``papers.arrow``           Arrow IPC    the papers table, uncompressed (zero-copy reads)
``year.npy``               int16        year, -1 if unknown
``in_cited.npy``           int32        citers inside the dataset: what sizes, sorts and the
                                        minimum-citations filter use (a source's own figure,
                                        ``cited_by``, is a fact shown beside it, never mixed in)
``in_refs.npy``            int32        references inside the dataset
``rank_rows.npy``          int32        rows from most to least cited in the dataset (ties: row
                                        order)
``row_rank.npy``           int32        inverse of ``rank_rows``
``ref_offsets/targets``    int64/int32  CSR: references of row r = targets[off[r]:off[r+1]],
                                        most cited first
``cit_offsets/sources``    int64/int32  CSR: citers of row r, most cited first
``id_sorted.npy``          bytes        ids in byte order, for binary search
``id_sorted_rows.npy``     int32        row of each sorted id
``doi_sorted.npy``         bytes        the DOIs there are, in byte order (``doi_sorted_rows``:
                                        their rows)
``area_offsets/codes``     int64/int16  CSR: area codes of each paper (codes index
                                        ``meta.json`` ``areas``; an empty list = unknown)
``primary_area.npy``       int16        first area's code, or the code of "unknown"
``search.sqlite``          SQLite FTS5  contentless index of titles and author names, rowid = rank
                                        (written by a child process for 200k papers or more)
``nodes.arrow``            Arrow IPC    per paper, its graph node's fixed fields as a JSON array
                                        and a comma (``NODE_FIELDS``: id, title, year, areas,
                                        in_cited, cited_by, authors), so that a view's payload copies text
                                        instead of building it (an array: about a third smaller
                                        than an object with keys)
=========================  ===========  ====================================================
"""

from __future__ import annotations

import contextlib
import itertools
import json
import mmap
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dashboard.dataset import PAPERS_SCHEMA

INDEX_DIR = "index"
INDEX_VERSION = 5
NODE_FIELDS = ("id", "title", "year", "areas", "in_cited", "cited_by", "authors")  # nodes.arrow's arrays
NODE_COLUMNS = ("id", "title", "year", "areas", "cited_by", "authors")  # the papers' columns they are made of
NODE_AUTHORS = 3  # authors a node carries (the hover card): the first ones, then "et al."
UNKNOWN_AREA = "unknown"
PARALLEL_SEARCH = 200_000  # papers from which search.sqlite is written by a child process beside the rest
SEARCH_HASH_BYTES = 32 * 2**20  # words the search index gathers in memory before writing them (3M works: 7 segments)
SEARCH_SEGMENTS = 8  # segments the search index may keep (more: merged into one)
SEARCH_BATCH = 25_000  # papers whose titles and names are Python strings at a time while the search index is written
SPREAD_FILES = 256  # at most, the temporary files rows are spread into (spread: open at once, within the limit)
KEY_BLOCK = 1 << 18  # keys padded to a fixed width at a time
BATCH = 100_000  # papers (about: Streamed.papers) a batch of the index: a chunk of papers.arrow and nodes.arrow
ARRAYS = (
    "year", "in_cited", "in_refs", "rank_rows", "row_rank",
    "ref_offsets", "ref_targets", "cit_offsets", "cit_sources",
    "id_sorted", "id_sorted_rows", "doi_sorted", "doi_sorted_rows", "area_offsets", "area_codes", "primary_area",
)


def _lists(owner: np.ndarray, other: np.ndarray, ranks: dict[str, np.ndarray]) -> np.ndarray:
    """``other`` grouped by ``owner`` (groups in owner order), each group most cited first: the CSR list.

    One sort of an int64 key (owner, rank of other): 8 bytes a citation, sorted in place, several times faster than
    ``np.lexsort`` of the two (30M citations: about 1 s against 8). Owners already in order (a citing paper's
    references, as the citations file holds them) leave short runs to sort, which the stable sort finds: 4M
    citations, 0.05 s against 0.27 s (in any order it is a little slower)."""
    n = len(ranks["row_rank"])
    key = owner.astype(np.int64)
    key *= n
    key += ranks["row_rank"][other]
    key.sort(kind="stable" if bool(np.all(owner[1:] >= owner[:-1])) else "quicksort")
    if n:
        np.remainder(key, n, out=key)  # the rank of other, in list order
    return ranks["rank_rows"].take(key).astype(np.int32, copy=False)


def owner_ranges(counts: np.ndarray, size: int) -> list[tuple[int, int]]:
    """Rows ``0..len(counts)`` cut into ascending ranges ``[lo, hi)`` of owners holding at most ``size`` citations
    each (``counts``: each row's; a row holding more is a range of its own)."""
    cum = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
    out, lo, n = [], 0, len(counts)
    while lo < n:
        hi = min(max(int(np.searchsorted(cum, cum[lo] + size, side="right")) - 1, lo + 1), n)
        out.append((lo, hi))
        lo = hi
    return out


def lists_of(chunks: Iterable[tuple[np.ndarray, np.ndarray]], ranks: dict[str, np.ndarray]) -> Iterator[np.ndarray]:
    """The CSR list (:func:`_lists`) of (owner, other) chunks that each hold every citation of a range of owners
    (:func:`grouped` by :func:`owner_ranges`, or :func:`owner_runs`), the ranges ascending and the citations in
    any order inside a chunk, a chunk at a time. A chunk whose owners do not all follow the previous chunk's raises
    ``ValueError``."""
    last = -1
    for owner, other in chunks:
        if len(owner):
            if int(owner.min()) <= last:
                raise ValueError("citations out of order: each chunk's owners must follow the previous chunk's")
            last = int(owner.max())
        yield _lists(owner, other, ranks)


SortedKeys = tuple[int, int, Iterable[tuple[pa.Array, np.ndarray]]]
"""Keys in byte order (ties by row) for binary search: how many, the longest's bytes, then (keys, their rows)
chunks: what :func:`write_sorted_keys` writes."""


def sorted_keys(values: pa.ChunkedArray | pa.Array) -> SortedKeys:
    """The non-null, non-empty ``values`` in byte order, stable (:data:`SortedKeys`, one chunk), sorted in
    memory with Arrow kernels (a million keys without a Python object each)."""
    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    keep = pc.and_(pc.is_valid(values), pc.greater(pc.binary_length(values), 0))
    rows = pc.indices_nonzero(pc.fill_null(keep, False))
    keys = pc.take(values, rows).cast(pa.binary())
    if not len(keys):
        return 0, 1, []
    order = pc.sort_indices(keys)  # byte order, stable
    keys = pc.take(keys, order).combine_chunks() if isinstance(keys, pa.ChunkedArray) else pc.take(keys, order)
    width = max(1, pc.max(pc.binary_length(keys)).as_py())
    return len(keys), width, [(keys, pc.take(rows, order).to_numpy().astype(np.int32))]


def padded(keys: pa.Array, width: int) -> np.ndarray:
    """``keys`` (no nulls) as a fixed-width numpy ``S`` array, as ``np.searchsorted`` wants: each key's bytes,
    left-aligned, NUL-padded as numpy's ``S`` is."""
    keys = keys.cast(pa.binary())
    offsets = np.frombuffer(keys.buffers()[1], dtype=np.int32, count=len(keys) + 1, offset=keys.offset * 4)
    data = np.frombuffer(keys.buffers()[2], dtype=np.uint8) if len(keys) else np.zeros(0, np.uint8)
    out = np.zeros((len(keys), width), dtype=np.uint8)
    col = np.arange(width)
    for a in range(0, len(keys), KEY_BLOCK):  # a block at a time: the mask is as big as the block's keys
        b = min(a + KEY_BLOCK, len(keys))
        out[a:b][col[None, :] < np.diff(offsets[a:b + 1])[:, None]] = data[offsets[a]:offsets[b]]
    return out.view(f"S{width}").ravel()


def write_sorted_keys(out: Path, name: str, keys: SortedKeys) -> None:
    """``<name>_sorted.npy`` (the keys, fixed width) and ``<name>_sorted_rows.npy`` (their rows), written a chunk
    at a time."""
    count, width, chunks = keys
    with npy_file(out / f"{name}_sorted.npy", np.dtype(f"S{width}"), count) as sorted_out, \
            npy_file(out / f"{name}_sorted_rows.npy", np.dtype("<i4"), count) as rows_out:
        for chunk, rows in chunks:
            sorted_out(padded(chunk, width))
            rows_out(rows)


@contextlib.contextmanager
def npy_file(path: Path, dtype: np.dtype, count: int) -> Iterator[Callable[[np.ndarray], None]]:
    """A ``.npy`` file of ``count`` values written a chunk at a time (the function it gives writes one); fewer or
    more raise ``ValueError``."""
    written = 0

    def write(chunk: np.ndarray) -> None:
        nonlocal written
        f.write(np.ascontiguousarray(chunk, dtype=dtype).data)  # not tobytes(): a copy
        written += len(chunk)

    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": np.lib.format.dtype_to_descr(dtype),
                                                 "fortran_order": False, "shape": (count,)})
        yield write
    if written != count:
        raise ValueError(f"{path.name}: {written} values written, {count} expected")


EdgeRows = tuple[np.ndarray, np.ndarray]  # citing and cited papers of each citation, as rows of the papers table


def edge_rows(papers: pa.Table, citations: pa.Table) -> EdgeRows:
    """The citations table's ids as rows of the papers table."""
    ids = papers.column("id").combine_chunks()
    src = pc.index_in(citations.column("citing"), value_set=ids).to_numpy(zero_copy_only=False)
    dst = pc.index_in(citations.column("cited"), value_set=ids).to_numpy(zero_copy_only=False)
    return src.astype(np.int64), dst.astype(np.int64)


def rank_arrays(n: int, src: np.ndarray, dst: np.ndarray) -> dict[str, np.ndarray]:
    """Citation counts inside the dataset and the rank they give (:func:`ranks_of`)."""
    return rank_arrays_of(n, [(src, dst)])


def rank_arrays_of(n: int, rows: Iterable[tuple[np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    """:func:`rank_arrays` of the citations given a chunk of (citing, cited) rows at a time (one pass: 31.7M
    citations in 1.4 s from DuckDB, against 1.8 s for a GROUP BY of each end)."""
    in_cited, in_refs = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    for src, dst in rows:
        in_refs += np.bincount(src, minlength=n)
        in_cited += np.bincount(dst, minlength=n)
    return ranks_of(in_cited.astype(np.int32), in_refs.astype(np.int32))


def ranks_of(in_cited: np.ndarray, in_refs: np.ndarray) -> dict[str, np.ndarray]:
    """The rank citation counts give (most cited first, ties by row), with the counts: what the search index
    needs, so that it can be written while the rest is computed."""
    n = len(in_cited)
    rank_rows = np.argsort(-in_cited.astype(np.int64), kind="stable").astype(np.int32)
    row_rank = np.empty(n, dtype=np.int32)
    row_rank[rank_rows] = np.arange(n, dtype=np.int32)
    return {"in_cited": in_cited, "in_refs": in_refs, "rank_rows": rank_rows, "row_rank": row_rank}


class FieldArrays:
    """The index arrays of the papers' years and areas (codes), and the area names the codes point to, made from the
    papers a batch at a time (:meth:`add`, then :meth:`arrays`): what they hold is one number a paper and one an
    area of a paper (3M works: 40 MB), not the two columns (0.1 GB, and as much again while they were coded)."""

    def __init__(self) -> None:
        self.years: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []
        self.codes: list[np.ndarray] = []  # each area as the order its name came in (``seen``), until all are in
        self.seen: dict[str, int] = {}

    def add(self, years: pa.Array, areas: pa.Array) -> None:
        """The next papers' years and areas."""
        year = years.to_numpy(zero_copy_only=False).astype(np.float64)
        self.years.append(np.where(np.isnan(year), -1, np.nan_to_num(year)).astype(np.int16))
        self.lengths.append(pc.fill_null(pc.list_value_length(areas), 0).to_numpy(zero_copy_only=False)
                            .astype(np.int64))
        flat = pc.dictionary_encode(pc.list_flatten(areas))
        first = np.array([self.seen.setdefault(name, len(self.seen)) for name in flat.dictionary.to_pylist()],
                         dtype=np.int32)
        self.codes.append(first[flat.indices.to_numpy(zero_copy_only=False)] if len(first) else
                          np.zeros(0, np.int32))

    def arrays(self) -> tuple[dict[str, np.ndarray], list[str]]:
        """The arrays (``year``, ``area_offsets``, ``area_codes``, ``primary_area``) and the area names, most
        papers first (ties by name), then "unknown" if a paper has no area."""
        year, lengths, first = (np.concatenate(parts) if parts else np.zeros(0, kind) for parts, kind in
                                ((self.years, np.int16), (self.lengths, np.int64), (self.codes, np.int32)))
        counts = np.bincount(first, minlength=len(self.seen))
        names = sorted(self.seen, key=lambda name: (-int(counts[self.seen[name]]), name))
        code = np.zeros(len(names), dtype=np.int16)  # a name's first-seen order -> its place in names
        code[[self.seen[name] for name in names]] = np.arange(len(names))
        if (lengths == 0).any():
            names.append(UNKNOWN_AREA)
        n = len(year)
        area_offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(lengths, out=area_offsets[1:])
        area_codes = code[first]
        primary = np.full(n, names.index(UNKNOWN_AREA) if UNKNOWN_AREA in names else -1, dtype=np.int16)
        has = lengths > 0
        primary[has] = area_codes[area_offsets[:-1][has]]
        return {"year": year, "area_offsets": area_offsets, "area_codes": area_codes, "primary_area": primary}, names


@dataclass
class Source:
    """What an index is written from: the papers in row order, a batch at a time (the papers table's schema), the
    citation counts and rank (:func:`ranks_of`), and each paper's references and citers as rows, most cited
    first, row after row (the CSR lists, in chunks). From tables in memory (:func:`tables_source`) or streamed by
    a snapshot-scale import, so that the index is written without the whole dataset in memory."""

    n: int
    citations: int
    batches: Callable[[], Iterable[pa.RecordBatch]]
    ranks: dict[str, np.ndarray]
    references: Callable[[], Iterable[np.ndarray]]
    citers: Callable[[], Iterable[np.ndarray]]
    sorted_keys: Callable[[str], SortedKeys] | None = None  # "id", "doi": sorted elsewhere than in memory
    done: Callable[[], None] | None = None  # called once the papers and their keys are read: what it holds, freed


def tables_source(papers: pa.Table, citations: pa.Table | EdgeRows) -> Source:
    """The :class:`Source` of tables in memory (the citations as a table, or as rows of the papers table)."""
    src, dst = edge_rows(papers, citations) if isinstance(citations, pa.Table) else citations
    src, dst = np.asarray(src), np.asarray(dst)  # int32 rows stay int32 (4 bytes a citation, not 8)
    n = papers.num_rows
    ranks = rank_arrays(n, src, dst)
    return Source(n, len(src), lambda: papers.to_batches(max_chunksize=BATCH), ranks,
                  lambda: [_lists(src, dst, ranks)], lambda: [_lists(dst, src, ranks)])


def write_list(path: Path, count: int, n: int, chunks: Iterable[np.ndarray]) -> None:
    """A CSR list (``count`` rows of ``n`` papers, int32) as a ``.npy`` file written a chunk at a time; every row
    checked to be a paper's."""
    with npy_file(path, np.dtype("<i4"), count) as write:
        for chunk in chunks:
            if len(chunk) and (int(chunk.min()) < 0 or int(chunk.max()) >= n):
                raise ValueError(f"{path.name}: a row outside the papers (0..{n - 1})")
            write(chunk)


def write_search_index(path: Path, ranked: Iterable[tuple[int, list[str], list[str]]]) -> None:
    """A contentless FTS5 index of titles and author names whose rowid is the paper's rank (0 = most cited), from
    the titles and names in rank order, a block at a time (``ranked``: the first rank of each block, its titles,
    its names; :func:`ranked_text`).

    ``detail=none, columnsize=0``: the index keeps which papers hold a word, not where or in which column.
    ``Store.search`` asks only for papers holding all the words (the last as a prefix), most cited first (by rowid):
    no phrases, columns, NEAR or bm25, which are what positions serve. Without them the index is built 2-3x
    faster and is a third of the size (300k works: 4 s and 27 MB against 10-14 s and 90 MB)."""
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA journal_mode=OFF")
        con.execute("PRAGMA synchronous=OFF")
        con.execute("CREATE VIRTUAL TABLE titles USING fts5(title, authors, content='', prefix='1 2 3 4 5', "
                    "detail=none, columnsize=0, tokenize='unicode61 remove_diacritics 2')")
        # Bulk load: words gathered in memory up to 32 MB before each write (the default, 1 MB, writes 32 times
        # as many segments) and no merging of segments while loading (300k works: 1 s against 2.4 s). Nor after,
        # up to SEARCH_SEGMENTS: merging 3M works' segments into one ('optimize', 5 s) changed neither the results
        # nor the time of 600 queries made of its titles' words and prefixes (1.4-1.6 s in all; 4 segments, from
        # 64 MB, which took 0.04 GB more than 32 MB's 7, with the same rows and times for 18 prefix queries)
        with contextlib.suppress(sqlite3.OperationalError):  # an SQLite without the option: the default, slower
            con.execute(f"INSERT INTO titles(titles, rank) VALUES ('hashsize', {SEARCH_HASH_BYTES})")
        con.execute("INSERT INTO titles(titles, rank) VALUES ('automerge', 0)")
        for start, titles, names in ranked:  # rowids ascending: FTS5 writes out its words when one goes back
            con.executemany("INSERT INTO titles(rowid, title, authors) VALUES (?, ?, ?)",
                            zip(range(start, start + len(titles)), titles, names, strict=True))
        if con.execute("SELECT count(DISTINCT segid) FROM titles_idx").fetchone()[0] > SEARCH_SEGMENTS:
            con.execute("INSERT INTO titles(titles) VALUES ('optimize')")  # a query reads every segment
        con.commit()
    finally:
        con.close()


RANKED = pa.schema([("rank", pa.int32()), ("title", pa.string()), ("names", pa.string())])


def ranked_text(folder: Path, row_rank: np.ndarray, block: int) -> Iterator[tuple[int, list[str], list[str]]]:
    """The papers' titles and author names (joined by "; "; "" for none) in rank order (``row_rank``: each row's
    rank), ``block`` ranks at a time as (first rank, titles, names): what :func:`write_search_index` reads.

    Bounded memory: the papers of the dataset being written in ``folder`` are read ``block`` at a time in row
    order (:func:`read_papers`), spread into one temporary file per block of ranks (:func:`spread`); then each
    block is sorted. Taking the titles in rank order from the map instead kept the whole columns resident (3M
    works: 0.4 GB)."""
    n = len(row_rank)

    def texts() -> Iterator[tuple[np.ndarray, pa.Table]]:
        start = 0
        for batch in read_papers(folder, ("title", "authors"), block):
            ranks = np.asarray(row_rank[start:start + batch.num_rows], dtype=np.int32)
            yield ranks // block, pa.table([pa.array(ranks), pc.fill_null(batch.column("title"), ""),
                                            pc.fill_null(pc.binary_join(batch.column("authors"), "; "), "")],
                                           schema=RANKED)
            start += len(ranks)

    for k, part in spread(texts(), -(-n // block), folder / INDEX_DIR, RANKED):
        first = k * block
        if part is None:
            raise ValueError(f"{folder}: no row has a rank in {first}..{first + block - 1}")
        part = part.take(pc.sort_indices(part.column("rank")))
        if not np.array_equal(part.column("rank").to_numpy(), np.arange(first, min(first + block, n))):
            raise ValueError(f"{folder}: the ranks of rows {first}..{first + block - 1} are not each once")
        yield first, part.column("title").to_pylist(), part.column("names").to_pylist()
        del part


def spread(tables: Iterable[tuple[np.ndarray, pa.Table]], buckets: int, folder: Path, schema: pa.Schema
           ) -> Iterator[tuple[int, pa.Table | None]]:
    """Rows regrouped on disk: ``tables`` (each with its rows' buckets, ``0..buckets - 1``) are spread into one
    temporary Arrow file per bucket, then each bucket's rows are given, in input order, bucket after bucket
    (``None`` for a bucket no row is in). Memory holds one table and one bucket at a time, not all the rows.
    The files are in a temporary folder under ``folder``, removed after; keep ``buckets`` within the limit of
    open files (:data:`SPREAD_FILES`)."""
    small = np.uint8 if buckets <= 1 << 8 else np.uint16 if buckets <= 1 << 16 else np.int64
    tmp = Path(tempfile.mkdtemp(prefix="spread-", dir=folder))
    try:
        with contextlib.ExitStack() as stack:
            writers: dict[int, pa.ipc.RecordBatchStreamWriter] = {}
            for which, table in tables:
                if len(which) and (int(which.min()) < 0 or int(which.max()) >= buckets):
                    raise ValueError(f"a row's bucket is outside 0..{buckets - 1}")
                which = which.astype(small, copy=False)
                order = np.argsort(which, kind="stable")  # of 8 or 16 bits: a radix sort (1M rows: 3 ms, not 30)
                cuts = np.zeros(buckets + 1, dtype=np.int64)
                np.cumsum(np.bincount(which, minlength=buckets), out=cuts[1:])
                for k in np.flatnonzero(np.diff(cuts)):
                    if k not in writers:
                        writers[k] = stack.enter_context(pa.ipc.new_stream(str(tmp / f"{k}.arrow"), schema))
                    writers[k].write_table(table.take(pa.array(order[cuts[k]:cuts[k + 1]])))
                del which, table, order
        for k in range(buckets):
            path = tmp / f"{k}.arrow"
            if not path.exists():
                yield k, None
                continue
            with pa.OSFile(str(path)) as source:
                part = pa.ipc.open_stream(source).read_all()
            path.unlink()
            yield k, part
            del part
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


OWNED = pa.schema([("owner", pa.int32()), ("other", pa.int32())])


def grouped(rows: Iterable[tuple[np.ndarray, np.ndarray]], owner: str, counts: np.ndarray, size: int,
            folder: Path) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The citations (``rows``: chunks of (citing, cited) rows, in any order) as (owner, other) chunks, each
    every citation of a range of owners (``owner``: ``"citing"`` or ``"cited"``; :func:`owner_ranges` of
    ``counts``, each row's citations as owner, at most ``size`` a range), the ranges ascending: what
    :func:`lists_of` takes. One pass spreads them on disk (:func:`spread`, in ``folder``); ranges grow past
    ``size`` so that there are at most :data:`SPREAD_FILES`."""
    total, n = int(np.sum(counts, dtype=np.int64)), len(counts)
    ranges = owner_ranges(counts, max(size, -(-2 * total // SPREAD_FILES)))  # a range and the next: > size
    range_of = np.repeat(np.arange(len(ranges), dtype=np.uint16 if len(ranges) <= 1 << 16 else np.int64),
                         [hi - lo for lo, hi in ranges])  # each row's range
    flip = {"citing": False, "cited": True}[owner]

    def tables() -> Iterator[tuple[np.ndarray, pa.Table]]:
        for citing, cited in rows:
            own, other = (cited, citing) if flip else (citing, cited)
            if len(own) and (int(own.min()) < 0 or int(own.max()) >= n):
                raise ValueError(f"a citation's row is outside the papers (0..{n - 1})")
            yield range_of[own], pa.table([own, other], schema=OWNED)

    empty = np.zeros(0, np.int32)
    for _, part in spread(tables(), len(ranges), folder, OWNED):
        yield (empty, empty) if part is None else (part.column(0).to_numpy(), part.column(1).to_numpy())


def owner_runs(rows: Iterable[tuple[np.ndarray, np.ndarray]]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The citations (``rows``: chunks of (citing, cited) rows, citing ascending) as (owner, other) chunks, each
    every citation of a range of citing papers: what :func:`lists_of` takes, without :func:`grouped`'s pass on
    disk. A chunk is cut before its last paper, whose citations may go on in the next chunk."""
    owner, other = np.zeros(0, np.int32), np.zeros(0, np.int32)
    for citing, cited in rows:
        owner, other = np.concatenate((owner, citing)), np.concatenate((other, cited))
        cut = int(np.searchsorted(owner, owner[-1])) if len(owner) else 0
        if cut:
            yield owner[:cut], other[:cut]
            owner, other = owner[cut:], other[cut:]
    if len(owner):
        yield owner, other


# Each paper's graph-node fields (NODE_FIELDS) as a JSON array followed by a comma, in row order. DuckDB writes the
# JSON on every core (3M papers: about 2 s, against 17 s one orjson.dumps a paper); its text differs from orjson's
# only in the case of \u001F escapes, and parses to the same values (tests/test_index.py).
NODE_SQL = f"""
SELECT json_array(id, coalesce(title, ''), year, CASE WHEN len(areas) > 0 THEN areas ELSE ['{UNKNOWN_AREA}'] END,
    in_cited, cited_by,
    CASE WHEN len(authors) > {NODE_AUTHORS} THEN authors[1:{NODE_AUTHORS}] || ['et al.'] ELSE coalesce(authors, []) END
  ) || ',' AS json
FROM nodes
"""


def write_node_json(path: Path, papers: Iterable[pa.RecordBatch], in_cited: np.ndarray) -> None:
    """``nodes.arrow``: the node text of the papers (:data:`NODE_SQL`), one array per batch of the papers table
    (the store reads the chunks from the memory map without a copy)."""
    import duckdb

    con = duckdb.connect()
    try:
        con.execute("SET preserve_insertion_order = true")
        with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, pa.schema([("json", pa.string())])) as w:
            start = 0
            for batch in papers:
                nodes = pa.Table.from_batches([batch]).select(NODE_COLUMNS).append_column(  # noqa: F841 (DuckDB's)
                    "in_cited", pa.array(np.asarray(in_cited[start:start + batch.num_rows], dtype=np.int32)))
                text = con.sql(NODE_SQL).to_arrow_table().column("json").combine_chunks()
                w.write_batch(pa.record_batch([text.cast(pa.string())], names=["json"]))
                start += batch.num_rows
    finally:
        con.close()


def write_search_of(folder: str) -> None:
    """``search.sqlite`` of the index being written in ``folder`` (dataset folder), from its ``papers.arrow`` and
    ``row_rank.npy``: what :func:`write_index` runs in a child process for a big dataset."""
    out = Path(folder) / INDEX_DIR
    row_rank = np.load(out / "row_rank.npy", allow_pickle=False)
    block = max(SEARCH_BATCH, -(-len(row_rank) // SPREAD_FILES))  # files open at once: within the limit
    write_search_index(out / "search.sqlite", ranked_text(Path(folder), row_rank, block))


def search_child(folder: Path) -> subprocess.Popen:
    """A Python process running :func:`write_search_of` on ``folder`` (a process started from the command line,
    not by ``multiprocessing``, which would run again the calling script's unguarded top level)."""
    package_root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
    return subprocess.Popen([sys.executable, "-c", "import sys; from dashboard import index; "
                             "index.write_search_of(sys.argv[1])", str(folder)], env=env)


def write_index(folder: Path, papers: pa.Table, citations: pa.Table | EdgeRows,
                build_id: str | Callable[[], str]) -> str:
    """Write ``folder/index/`` for tables in memory (``folder`` is a dataset being written); the citations may
    come as rows of the papers table (:data:`EdgeRows`). See :func:`write_index_from`."""
    return write_index_from(folder, tables_source(papers, citations), build_id)


def write_index_from(folder: Path, source: Source, build_id: str | Callable[[], str]) -> str:
    """Write ``folder/index/`` from a :class:`Source`, holding a batch of papers at a time, their keys (ids, DOIs,
    years, areas) and the arrays of one number a paper.

    ``build_id`` is the build's id, or a function that writes the dataset's tables and returns it (run while a
    child process writes the search index, so that both take the time of one; after the keys and ``done``: it
    may read ``papers.arrow`` and the citations, not the papers from the source). Returns the build id."""
    out = Path(folder) / INDEX_DIR
    out.mkdir(parents=True, exist_ok=True)
    n, ranks = source.n, source.ranks
    for name, arr in ranks.items():  # row_rank: what the search index reads, with papers.arrow
        np.save(out / f"{name}.npy", arr, allow_pickle=False)
    fields = FieldArrays()
    keys = _write_papers(out / "papers.arrow", source.batches(), () if source.sorted_keys else ("id", "doi"), fields)
    pa.default_memory_pool().release_unused()  # what the batches took, kept by Arrow's allocator (3M works: 74 MB)
    arrays, names = fields.arrays()
    del fields
    for name, arr in arrays.items():
        np.save(out / f"{name}.npy", arr, allow_pickle=False)
    del arrays
    # a big dataset's search index is written by a child process while this one writes the rest
    child = search_child(Path(folder)) if n >= PARALLEL_SEARCH else None
    try:
        for name in ("id", "doi"):
            write_sorted_keys(out, name, source.sorted_keys(name) if source.sorted_keys else
                              sorted_keys(_joined(keys.pop(name), PAPERS_SCHEMA.field(name).type)))
        if source.done:  # nothing more is read from the source but its citations
            source.done()
        build_id = build_id if isinstance(build_id, str) else build_id()
        pa.default_memory_pool().release_unused()  # Arrow's allocator kept what the keys took (3M works: 0.4 GB)
        for offsets_name, list_name, counts, lists in (("ref_offsets", "ref_targets", "in_refs", source.references),
                                                       ("cit_offsets", "cit_sources", "in_cited", source.citers)):
            offsets = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(ranks[counts], out=offsets[1:])
            np.save(out / f"{offsets_name}.npy", offsets, allow_pickle=False)
            write_list(out / f"{list_name}.npy", source.citations, n, lists())
        write_node_json(out / "nodes.arrow", read_papers(Path(folder), NODE_COLUMNS), ranks["in_cited"])
    except BaseException:
        if child:  # the import failed: its search index is not waited for
            child.kill()
            child.wait()
        raise
    code = child.wait() if child else 0
    if code:
        raise RuntimeError(f"{out / 'search.sqlite'}: the process writing it failed (exit code {code})")
    if child is None:
        write_search_of(str(folder))
    meta = {"version": INDEX_VERSION, "build_id": build_id, "papers": n, "citations": source.citations,
            "areas": names}
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    return build_id


def _write_papers(path: Path, batches: Iterable[pa.RecordBatch], kept: Sequence[str], fields: FieldArrays
                  ) -> dict[str, list[pa.Array]]:
    """``papers.arrow`` from the papers a batch at a time, their years and areas given to ``fields``; returns the
    columns ``kept`` (in a function: the last batch is not held after)."""
    keys: dict[str, list[pa.Array]] = {name: [] for name in kept}
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, PAPERS_SCHEMA) as w:
        for batch in batches:
            w.write_batch(batch)
            fields.add(batch.column("year"), batch.column("areas"))
            for name, parts in keys.items():  # copied: a column of a batch DuckDB exported holds the whole batch
                parts.append(_copied(batch.column(name)))
    return keys


def _joined(parts: list[pa.Array], kind: pa.DataType) -> pa.Array:
    return pa.concat_arrays(parts) if parts else pa.array([], kind)


def read_index_meta(folder: Path) -> dict | None:
    path = Path(folder) / INDEX_DIR / "meta.json"
    try:
        meta = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) and meta.get("version") == INDEX_VERSION else None


def load_arrays(folder: Path) -> dict[str, np.ndarray]:
    out = Path(folder) / INDEX_DIR
    return {name: np.load(out / f"{name}.npy", mmap_mode="r", allow_pickle=False) for name in ARRAYS}


def load_node_json(folder: Path) -> Column:
    source = pa.memory_map(str(Path(folder) / INDEX_DIR / "nodes.arrow"), "r")
    return column(pa.ipc.open_file(source).read_all().column("json"))


class Chunks:
    """A memory-mapped column of several chunks (a file written a batch at a time), read without joining them:
    ``ChunkedArray.take`` joins all the chunks first (3M titles: 9 ms a call against 6 us)."""

    def __init__(self, col: pa.ChunkedArray) -> None:
        self.col = col
        self.starts = np.concatenate([[0], np.cumsum([len(c) for c in col.chunks])]).astype(np.int64)

    def __len__(self) -> int:
        return int(self.starts[-1])

    def __getitem__(self, row: int) -> pa.Scalar:
        k = int(np.searchsorted(self.starts, row, side="right")) - 1
        return self.col.chunk(k)[row - int(self.starts[k])]

    def take(self, rows: np.ndarray) -> pa.Array:
        if len(rows) and (rows.min() < 0 or rows.max() >= self.starts[-1]):
            raise IndexError(f"row out of range 0..{self.starts[-1] - 1}")
        which = np.searchsorted(self.starts, rows, side="right") - 1
        if not len(rows) or which.min() == which.max():  # all in one chunk
            k = int(which[0]) if len(rows) else 0
            return self.col.chunk(k).take(pa.array(rows - self.starts[k]))
        order = np.argsort(which, kind="stable")
        ordered, chunk_of = rows[order], which[order]
        cuts = np.searchsorted(chunk_of, np.arange(self.col.num_chunks + 1))
        parts = [self.col.chunk(k).take(pa.array(ordered[a:b] - self.starts[k]))
                 for k, (a, b) in enumerate(itertools.pairwise(cuts)) if b > a]
        back = np.empty_like(order)
        back[order] = np.arange(len(order))
        return pa.concat_arrays(parts).take(pa.array(back))

    def to_pylist(self) -> list:
        return self.col.to_pylist()


Column = pa.Array | Chunks  # a column of a memory-mapped file: its one array, or its chunks


def column(col: pa.ChunkedArray) -> Column:
    """A memory-mapped column as it is, never copied: its one array, or its :class:`Chunks` (a file written a
    batch at a time, by a snapshot-scale import); read it with :func:`take`."""
    if col.num_chunks <= 1:
        return col.chunk(0) if col.num_chunks else pa.array([], col.type)
    return Chunks(col)


def take(col: Column, rows: np.ndarray | Sequence[int]) -> pa.Array:
    """The values of ``col`` at ``rows`` (in that order), as one array."""
    rows = np.asarray(rows, dtype=np.int64)
    return col.take(pa.array(rows)) if isinstance(col, pa.Array) else col.take(rows)


def read_papers(folder: Path, columns: Sequence[str] | None = None, rows: int | None = None
                ) -> Iterator[pa.RecordBatch]:
    """The batches of ``papers.arrow`` of the dataset being written in ``folder`` (``columns`` of them; in
    slices of ``rows`` papers), read from a memory map whose pages are let go after each: pages read through a
    map stay resident (at 3M works, 1.0 GB at the import's end with the search index's process), and a batch
    read into memory is all its columns (500k papers: 150 MB). A batch's arrays are valid until the next."""
    with open(Path(folder) / INDEX_DIR / "papers.arrow", "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    try:
        reader, batch = pa.ipc.open_file(pa.py_buffer(mm)), None
        for i in range(reader.num_record_batches):
            batch = reader.get_batch(i)
            batch = batch.select(list(columns)) if columns is not None else batch
            for start in range(0, max(batch.num_rows, 1), rows or max(batch.num_rows, 1)):
                yield batch.slice(start, rows) if rows else batch
                mm.madvise(mmap.MADV_DONTNEED)  # the pages stay in the page cache, not in this process
        del reader, batch
    finally:
        with contextlib.suppress(BufferError):  # an array of it still held by the caller: closed when collected
            mm.close()


def read_column(folder: Path, name: str) -> pa.Array:
    """One column of ``papers.arrow`` of the dataset being written in ``folder``, copied into memory a batch at a
    time (:func:`read_papers`)."""
    return _joined([_copied(b.column(0)) for b in read_papers(folder, (name,))], PAPERS_SCHEMA.field(name).type)


def _copied(values: pa.Array) -> pa.Array:
    """``values`` in memory of their own (a column of a batch can hold the whole batch, or a map)."""
    return pa.concat_arrays([values, pa.array([], values.type)])


def load_papers(folder: Path) -> pa.Table:
    source = pa.memory_map(str(Path(folder) / INDEX_DIR / "papers.arrow"), "r")
    return pa.ipc.open_file(source).read_all()
