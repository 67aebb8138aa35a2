"""Writing a build's ``index/`` (the files :mod:`dashboard.dataset.index` describes and reads) from a :class:`Source`:
the papers a batch at a time and the citation lists a chunk at a time.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dashboard.dataset import search_write
from dashboard.dataset.format import PAPERS_SCHEMA
from dashboard.dataset.index import (
    FIELD_PROGRESS,
    FIELD_XY,
    INDEX_DIR,
    INDEX_VERSION,
    NODE_AUTHORS,
    NODE_COLUMNS,
    UNKNOWN_AREA,
    _copied,
    _joined,
    read_papers,
)

KEY_BLOCK = 1 << 18  # keys padded to a fixed width at a time
BATCH = 100_000  # papers (about: Streamed.papers) a batch of the index: a chunk of papers.arrow and nodes.arrow


def _lists(owner: np.ndarray, other: np.ndarray, ranks: dict[str, np.ndarray]) -> np.ndarray:
    """``other`` grouped by ``owner`` (groups in owner order), each group most cited first: the CSR list.

    One sort of an int64 key (owner, rank of other): 8 bytes a citation, sorted in place, several times faster than
    ``np.lexsort`` of the two. Owners already in order (a citing paper's references, as the citations file holds
    them) leave short runs to sort, which the stable sort finds and merges, far cheaper than sorting them anew (in
    any order it is a little slower than quicksort, hence only then)."""
    n = len(ranks["row_rank"])
    key = owner.astype(np.int64)
    key *= n
    key += ranks["row_rank"][other]
    key.sort(kind="stable" if bool(np.all(owner[1:] >= owner[:-1])) else "quicksort")
    if n:
        np.remainder(key, n, out=key)  # the rank of other, in list order
    return ranks["rank_rows"].take(key).astype(np.int32, copy=False)


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
    memory with Arrow kernels (a million keys without a Python object each). ``values`` is a column of one key a
    row, or of a list of keys a row (``alt_ids``: each key with its row)."""
    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    owners = None
    if pa.types.is_list(values.type):
        owners = pc.list_parent_indices(values)
        values = pc.list_flatten(values)
    keep = pc.and_(pc.is_valid(values), pc.greater(pc.binary_length(values), 0))
    rows = pc.indices_nonzero(pc.fill_null(keep, False))
    keys = pc.take(values, rows).cast(pa.binary())
    if owners is not None:
        rows = pc.take(owners, rows)
    if not len(keys):
        return 0, 1, []
    order = pc.sort_indices(keys)  # byte order, stable
    keys = pc.take(keys, order).combine_chunks() if isinstance(keys, pa.ChunkedArray) else pc.take(keys, order)
    width = max(1, pc.max(pc.binary_length(keys)).as_py())
    return len(keys), width, [(keys, pc.take(rows, order).to_numpy().astype(np.int32))]


KEY_COLUMNS = {"id": "id", "doi": "doi", "alt": "alt_ids"}  # the sorted keys of the index, and their column


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
        out[a:b][col[None, :] < np.diff(offsets[a : b + 1])[:, None]] = data[offsets[a] : offsets[b]]
    return out.view(f"S{width}").ravel()


def write_sorted_keys(out: Path, name: str, keys: SortedKeys) -> None:
    """``<name>_sorted.npy`` (the keys, fixed width) and ``<name>_sorted_rows.npy`` (their rows), written a chunk
    at a time."""
    count, width, chunks = keys
    with (
        npy_file(out / f"{name}_sorted.npy", np.dtype(f"S{width}"), count) as sorted_out,
        npy_file(out / f"{name}_sorted_rows.npy", np.dtype("<i4"), count) as rows_out,
    ):
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
        np.lib.format.write_array_header_1_0(
            f, {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": (count,)}
        )
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
    """:func:`rank_arrays` of the citations given a chunk of (citing, cited) rows at a time (one pass over them,
    quicker than a GROUP BY of each end in DuckDB)."""
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
    area of a paper, not the two columns (larger, and as large again while they were coded)."""

    def __init__(self) -> None:
        self.years: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []
        self.codes: list[np.ndarray] = []  # each area as the order its name came in (``seen``), until all are in
        self.seen: dict[str, int] = {}

    def add(self, years: pa.Array, areas: pa.Array) -> None:
        """The next papers' years and areas."""
        year = years.to_numpy(zero_copy_only=False).astype(np.float64)
        self.years.append(np.where(np.isnan(year), -1, np.nan_to_num(year)).astype(np.int16))
        self.lengths.append(
            pc.fill_null(pc.list_value_length(areas), 0).to_numpy(zero_copy_only=False).astype(np.int64)
        )
        flat = pc.dictionary_encode(pc.list_flatten(areas))
        first = np.array(
            [self.seen.setdefault(name, len(self.seen)) for name in flat.dictionary.to_pylist()], dtype=np.int32
        )
        self.codes.append(first[flat.indices.to_numpy(zero_copy_only=False)] if len(first) else np.zeros(0, np.int32))

    def arrays(self) -> tuple[dict[str, np.ndarray], list[str]]:
        """The arrays (``year``, ``area_offsets``, ``area_codes``, ``primary_area``) and the area names, most
        papers first (ties by name), then "unknown" if a paper has no area."""
        year, lengths, first = (
            np.concatenate(parts) if parts else np.zeros(0, kind)
            for parts, kind in ((self.years, np.int16), (self.lengths, np.int64), (self.codes, np.int32))
        )
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
    sorted_keys: Callable[[str], SortedKeys] | None = None  # KEY_COLUMNS' names: sorted elsewhere than in memory
    done: Callable[[], None] | None = None  # called once the papers and their keys are read: what it holds, freed


def tables_source(papers: pa.Table, citations: pa.Table | EdgeRows) -> Source:
    """The :class:`Source` of tables in memory (the citations as a table, or as rows of the papers table)."""
    src, dst = edge_rows(papers, citations) if isinstance(citations, pa.Table) else citations
    src, dst = np.asarray(src), np.asarray(dst)  # int32 rows stay int32 (4 bytes a citation, not 8)
    n = papers.num_rows
    ranks = rank_arrays(n, src, dst)
    return Source(
        n,
        len(src),
        lambda: papers.to_batches(max_chunksize=BATCH),
        ranks,
        lambda: [_lists(src, dst, ranks)],
        lambda: [_lists(dst, src, ranks)],
    )


def write_list(path: Path, count: int, n: int, chunks: Iterable[np.ndarray]) -> None:
    """A CSR list (``count`` rows of ``n`` papers, int32) as a ``.npy`` file written a chunk at a time; every row
    checked to be a paper's."""
    with npy_file(path, np.dtype("<i4"), count) as write:
        for chunk in chunks:
            if len(chunk) and (int(chunk.min()) < 0 or int(chunk.max()) >= n):
                raise ValueError(f"{path.name}: a row outside the papers (0..{n - 1})")
            write(chunk)


# Each paper's graph-node fields (NODE_FIELDS) as a JSON array followed by a comma, in row order. DuckDB writes the
# JSON on every core (far quicker than one orjson.dumps a paper); its text differs from orjson's
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
                nodes = (  # noqa: F841 (DuckDB's)
                    pa.Table.from_batches([batch])
                    .select(NODE_COLUMNS)
                    .append_column(
                        "in_cited", pa.array(np.asarray(in_cited[start : start + batch.num_rows], dtype=np.int32))
                    )
                )
                text = con.sql(NODE_SQL).to_arrow_table().column("json").combine_chunks()
                w.write_batch(pa.record_batch([text.cast(pa.string())], names=["json"]))
                start += batch.num_rows
    finally:
        con.close()


def write_index(
    folder: Path, papers: pa.Table, citations: pa.Table | EdgeRows, build_id: str | Callable[[], str]
) -> str:
    """Write ``folder/index/`` for tables in memory (``folder`` is a dataset being written); the citations may
    come as rows of the papers table (:data:`EdgeRows`). See :func:`write_index_from`."""
    return write_index_from(folder, tables_source(papers, citations), build_id)


def write_index_from(folder: Path, source: Source, build_id: str | Callable[[], str]) -> str:
    """Write ``folder/index/`` from a :class:`Source`, holding a batch of papers at a time, their keys (ids, DOIs,
    alternative ids, years, areas) and the arrays of one number a paper.

    ``build_id`` is the build's id, or a function that writes the dataset's tables and returns it (run while a
    child process writes the search index, so that both take the time of one; after the keys and ``done``: it
    may read ``papers.arrow`` and the citations, not the papers from the source). Returns the build id."""
    out = Path(folder) / INDEX_DIR
    out.mkdir(parents=True, exist_ok=True)
    n, ranks = source.n, source.ranks
    for name, arr in ranks.items():  # row_rank: what the search index reads, with papers.arrow
        np.save(out / f"{name}.npy", arr, allow_pickle=False)
    fields = FieldArrays()
    kept = () if source.sorted_keys else tuple(KEY_COLUMNS.values())
    keys = _write_papers(out / "papers.arrow", source.batches(), kept, fields)
    pa.default_memory_pool().release_unused()  # what the batches took, kept by Arrow's allocator
    arrays, names = fields.arrays()
    del fields
    for name, arr in arrays.items():
        np.save(out / f"{name}.npy", arr, allow_pickle=False)
    del arrays
    # a big dataset's search index is written by a child process while this one writes the rest
    child = search_write.search_child(Path(folder)) if n >= search_write.PARALLEL_SEARCH else None
    try:
        for name, column in KEY_COLUMNS.items():
            write_sorted_keys(
                out,
                name,
                source.sorted_keys(name)
                if source.sorted_keys
                else sorted_keys(_joined(keys.pop(column), PAPERS_SCHEMA.field(column).type)),
            )
        if source.done:  # nothing more is read from the source but its citations
            source.done()
        build_id = build_id if isinstance(build_id, str) else build_id()
        pa.default_memory_pool().release_unused()  # Arrow's allocator kept what the keys took
        for offsets_name, list_name, counts, lists in (
            ("ref_offsets", "ref_targets", "in_refs", source.references),
            ("cit_offsets", "cit_sources", "in_cited", source.citers),
        ):
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
        search_write.write_search_of(str(folder))
    meta = {"version": INDEX_VERSION, "build_id": build_id, "papers": n, "citations": source.citations, "areas": names}
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    return build_id


def save_field_xy(build: Path, xy: np.ndarray) -> None:
    """Add ``field_xy.npy`` (every paper's place on the map of the whole dataset) to a build, written beside and
    renamed into place: a reader sees none or all of it. The progress file goes after it."""
    out = Path(build) / INDEX_DIR
    tmp = out / f".{FIELD_XY}-{os.getpid()}.npy"
    try:
        with open(tmp, "wb") as f:
            np.save(f, np.ascontiguousarray(xy, dtype=np.float32), allow_pickle=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out / f"{FIELD_XY}.npy")
    finally:
        tmp.unlink(missing_ok=True)
    (out / FIELD_PROGRESS).unlink(missing_ok=True)


def save_field_progress(build: Path, share: float, started: float) -> None:
    """Say how far along the making of a build's ``field_xy.npy`` is (:func:`~dashboard.dataset.index.
    read_field_progress`), the file replaced whole."""
    out = Path(build) / INDEX_DIR
    tmp = out / f".{FIELD_PROGRESS}-{os.getpid()}"
    tmp.write_text(json.dumps({"share": round(float(share), 4), "started": started, "pid": os.getpid()}))
    os.replace(tmp, out / FIELD_PROGRESS)


def clear_field_progress(build: Path) -> None:
    """Remove a build's progress file (its making stopped)."""
    (Path(build) / INDEX_DIR / FIELD_PROGRESS).unlink(missing_ok=True)


def _write_papers(
    path: Path, batches: Iterable[pa.RecordBatch], kept: Sequence[str], fields: FieldArrays
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
