"""Derived index files of a dataset: what the store memory-maps instead of rebuilding at start-up.

Written by :func:`~dashboard.dataset.index_write.write_index_from` into ``<dataset>/index/`` (importers call it through
:mod:`dashboard.dataset.write`) from a :class:`~dashboard.dataset.index_write.Source`: the papers a batch at a time and
the citation lists a chunk at a time, so that a snapshot-scale import never holds the dataset in memory. Every
array is a ``.npy`` file opened with ``mmap_mode="r"``, so that start-up reads next to nothing and gunicorn workers
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
``alt_sorted.npy``         bytes        the papers' alternative ids (``alt_ids``), in byte order
                                        (``alt_sorted_rows``: their rows)
``area_offsets/codes``     int64/int16  CSR: area codes of each paper (codes index
                                        ``meta.json`` ``areas``; an empty list = unknown)
``primary_area.npy``       int16        first area's code, or the code of "unknown"
``field_xy.npy``           float32      (n, 2): each paper's place on the map of the whole
                                        dataset (``dashboard.graph.field_layout``): papers
                                        linked by citations close, centred, any scale; papers
                                        without a citation on a ring outside. Added to the build
                                        once it is served (:func:`load_field_xy`), never part of
                                        what ``dataset.json`` records
``field_progress.json``    JSON         while ``field_xy.npy`` is being made: the share done
                                        (:func:`read_field_progress`); gone once it is there
``search.sqlite``          SQLite FTS5  contentless index of titles and author names, rowid = rank
                                        (by a child process from ``search_write.PARALLEL_SEARCH`` papers),
                                        and table ``words``: their common words and how many
                                        papers hold each (spelling suggestions; an index written
                                        before it has none); table ``names``: the papers' common
                                        names (``resnet``) and their rows, from the import's
                                        ``--names`` table (:mod:`~dashboard.dataset.names`)
``title_sorted.npy``       uint32       each paper's title hash (``keys.title_hash``), ascending,
                                        equal ones most cited first (``title_sorted_rows``: their
                                        rows; written with ``search.sqlite``)
``nodes.arrow``            Arrow IPC    per paper, its graph node's fixed fields as a JSON array
                                        and a comma (``NODE_FIELDS``: id, title, year, areas,
                                        in_cited, cited_by, authors), so that a view's payload copies text
                                        instead of building it (an array: about a third smaller
                                        than an object with keys)
=========================  ===========  ====================================================
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import json
import mmap
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa

from dashboard.dataset import id_forms
from dashboard.dataset.format import PAPERS_SCHEMA

INDEX_DIR = "index"
INDEX_VERSION = 7
NODE_FIELDS = ("id", "title", "year", "areas", "in_cited", "cited_by", "authors")  # nodes.arrow's arrays
NODE_COLUMNS = ("id", "title", "year", "areas", "cited_by", "authors")  # the papers' columns they are made of
NODE_AUTHORS = 3  # authors a node carries (the hover card): the first ones, then "et al."
UNKNOWN_AREA = "unknown"
ARRAYS = (
    "year",
    "in_cited",
    "in_refs",
    "rank_rows",
    "row_rank",
    "ref_offsets",
    "ref_targets",
    "cit_offsets",
    "cit_sources",
    "id_sorted",
    "id_sorted_rows",
    "doi_sorted",
    "doi_sorted_rows",
    "alt_sorted",
    "alt_sorted_rows",
    "title_sorted",
    "title_sorted_rows",
    "area_offsets",
    "area_codes",
    "primary_area",
)
FIELD_XY = "field_xy"  # the papers' places on the map of the whole dataset: made after the rest (optional)
FIELD_PROGRESS = "field_progress.json"  # how far along the making of FIELD_XY is


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


def find_key(arrays: dict[str, np.ndarray], name: str, key_text: object) -> int | None:
    """The row of one key in a sorted key array (``name``: ``id_sorted``, ``doi_sorted``, ``alt_sorted``), by binary
    search, or None."""
    if not isinstance(key_text, str) or not key_text or len(key_text) > 200:
        return None
    key = key_text.encode("utf-8", "replace")
    keys = arrays[name]
    if not len(keys) or len(key) > keys.dtype.itemsize:
        return None
    i = int(np.searchsorted(keys, key))
    if i < len(keys) and keys[i] == key:
        return int(arrays[name + "_rows"][i])
    return None


def resolve_row(arrays: dict[str, np.ndarray], text: object) -> int | None:
    """The row of the paper ``text`` names, in any form :mod:`~dashboard.dataset.id_forms` reads (an id, an
    alternative id, a DOI, a link to one), or None."""
    for kind, key in id_forms.candidates(text):
        row = find_key(arrays, "doi_sorted" if kind == "doi" else "id_sorted", key)
        if row is None and kind != "doi":
            row = find_key(arrays, "alt_sorted", key)
        if row is not None:
            return row
    return None


def load_field_xy(folder: Path, n: int) -> np.ndarray | None:
    """The papers' places on the map of the whole dataset (float32 ``(n, 2)``, memory-mapped), or None while the
    build has none yet (it is added whole, by one rename: never seen half-written) or one of another shape."""
    try:
        xy = np.load(Path(folder) / INDEX_DIR / f"{FIELD_XY}.npy", mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None
    return np.asarray(xy) if xy.shape == (n, 2) and xy.dtype == np.float32 else None


def read_field_progress(folder: Path) -> dict | None:
    """What the process making the field's map last said of its progress (``share``: 0..1 done, ``started``:
    epoch seconds), or None if no process is making it (none holds :func:`field_lock`: a file left by one that
    was stopped is not progress)."""
    try:
        got = json.loads((Path(folder) / INDEX_DIR / FIELD_PROGRESS).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(got, dict) or not isinstance(got.get("share"), int | float):
        return None
    try:
        fd = os.open(Path(folder) / INDEX_DIR, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return got  # held: being made
    finally:
        os.close(fd)  # closing releases a lock taken
    return None


def field_lock(folder: Path) -> int | None:
    """The lock of whoever makes a build's field map (an exclusive ``flock`` of its ``index/`` folder): its file
    descriptor, to close when done, or None if another process holds it."""
    fd = os.open(Path(folder) / INDEX_DIR, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def load_node_json(folder: Path) -> Column:
    source = pa.memory_map(str(Path(folder) / INDEX_DIR / "nodes.arrow"), "r")
    return column(pa.ipc.open_file(source).read_all().column("json"))


class Chunks:
    """A memory-mapped column of several chunks (a file written a batch at a time), read without joining them:
    ``ChunkedArray.take`` joins all the chunks first, on every call: costly for a big column."""

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
        parts = [
            self.col.chunk(k).take(pa.array(ordered[a:b] - self.starts[k]))
            for k, (a, b) in enumerate(itertools.pairwise(cuts))
            if b > a
        ]
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


StringParts = tuple[np.ndarray, list[tuple[np.ndarray, memoryview]]]
"""A string column's chunks as numpy can read them: the chunks' first rows (and the total), and each chunk's value
offsets and bytes (views of the memory map: nothing copied)."""


def string_parts(col: Column) -> StringParts:
    """The :data:`StringParts` of a memory-mapped string column (Arrow ``string`` or ``large_string``)."""
    chunks = col.col.chunks if isinstance(col, Chunks) else [col]
    parts = []
    for chunk in chunks:
        kind = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
        width = np.dtype(kind).itemsize
        offsets = np.frombuffer(chunk.buffers()[1], dtype=kind, count=len(chunk) + 1, offset=chunk.offset * width)
        data = chunk.buffers()[2]
        parts.append((offsets, memoryview(data) if data is not None else memoryview(b"")))
    starts = np.concatenate([[0], np.cumsum([len(c) for c in chunks])]).astype(np.int64)
    return starts, parts


def joined_bytes(parts: StringParts, rows: np.ndarray | Sequence[int]) -> bytes:
    """The bytes of the values at ``rows`` (in that order) end to end: read from the chunks' buffers directly,
    cheaper than a take of Arrow arrays (one per chunk, joined, then put back in order) for a few hundred rows."""
    starts, chunks = parts
    rows = np.asarray(rows, dtype=np.int64)
    if len(rows) and (rows.min() < 0 or rows.max() >= starts[-1]):
        raise IndexError(f"row out of range 0..{starts[-1] - 1}")
    which = np.searchsorted(starts, rows, side="right") - 1
    local = rows - starts[which]
    begin, end = np.empty(len(rows), np.int64), np.empty(len(rows), np.int64)
    for k in np.unique(which).tolist():
        at = which == k
        offsets = chunks[k][0]
        begin[at], end[at] = offsets[local[at]], offsets[local[at] + 1]
    return b"".join([chunks[k][1][a:b] for k, a, b in zip(which.tolist(), begin.tolist(), end.tolist(), strict=True)])


def take(col: Column, rows: np.ndarray | Sequence[int]) -> pa.Array:
    """The values of ``col`` at ``rows`` (in that order), as one array."""
    rows = np.asarray(rows, dtype=np.int64)
    return col.take(pa.array(rows)) if isinstance(col, pa.Array) else col.take(rows)


def read_papers(
    folder: Path, columns: Sequence[str] | None = None, rows: int | None = None
) -> Iterator[pa.RecordBatch]:
    """The batches of ``papers.arrow`` of the dataset being written in ``folder`` (``columns`` of them; in
    slices of ``rows`` papers), read from a memory map whose pages are let go after each: pages read through a
    map stay resident (by the import's end, the whole file, in this process and the search index's), and a batch
    read into memory is all its columns. A batch's arrays are valid until the next."""
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


def _joined(parts: list[pa.Array], kind: pa.DataType) -> pa.Array:
    return pa.concat_arrays(parts) if parts else pa.array([], kind)
