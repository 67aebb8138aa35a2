"""Writing a dataset: the tables checked, then a new build of the folder (:mod:`dashboard.dataset.builds`) with
its index, tables and ``dataset.json``; the format is :mod:`dashboard.dataset.format`'s.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from dashboard.dataset import builds, index_write
from dashboard.dataset.format import (
    CITATIONS_FILE,
    CITATIONS_SCHEMA,
    FORMAT_NAME,
    FORMAT_VERSION,
    META_FILE,
    PAPERS_FILE,
    PAPERS_SCHEMA,
    citations_table,
)
from dashboard.dataset.names import Names, write_names
from dashboard.errors import DatasetError


def _check_tables(papers: pa.Table, citations: pa.Table) -> None:
    import pyarrow.compute as pc

    if papers.schema != PAPERS_SCHEMA:
        raise DatasetError(f"papers table has schema {papers.schema}, expected {PAPERS_SCHEMA}")
    if citations.schema != CITATIONS_SCHEMA:
        raise DatasetError(f"citations table has schema {citations.schema}, expected {CITATIONS_SCHEMA}")
    ids = papers.column("id")
    if ids.null_count:
        raise DatasetError("papers table has a paper without an id")
    if pc.count_distinct(ids).as_py() != len(ids):
        counts = pc.value_counts(ids)
        dup = [v["values"] for v in counts.to_pylist() if v["counts"] > 1][:5]
        raise DatasetError(f"papers table has duplicate ids: {dup}")
    for name in ("citing", "cited"):
        col = citations.column(name)
        missing = pc.invert(pc.is_in(col, value_set=ids.combine_chunks()))
        if pc.any(missing).as_py():
            bad = pc.filter(col, missing)[0].as_py()
            raise DatasetError(f"citations table: {name} id {bad!r} is not a paper of the dataset")
    if pc.any(pc.equal(citations.column("citing"), citations.column("cited"))).as_py():
        raise DatasetError("citations table has a self-citation")


EDGE_CHUNK = 1 << 22  # citations written a chunk at a time when they come as rows
# papers.parquet of a snapshot-scale import: a dictionary for the columns of few values only (not ids, titles,
# DOIs, authors, whose dictionaries Parquet builds only to drop them: a quicker write and a smaller file;
# write_dataset keeps Parquet's defaults, so that the datasets it wrote keep their build ids)
STREAMED_DICTIONARY = [
    "year",
    "posted",
    "areas",
    "cited_by",
    "reference_count",
    "citations_by_year",
    "cited_by_from",
    "venue",
    "sources",
]


def write_dataset(
    out: str | Path,
    papers: pa.Table,
    citations: pa.Table | tuple[np.ndarray, np.ndarray],
    meta: dict[str, Any],
    names: Names | None = None,
) -> Path:
    """Validate the tables and write them as a new build of the dataset folder ``out``, which then serves it
    (:mod:`dashboard.dataset.builds`: the builds before it stay as they are, but for pruning).

    ``citations`` is the citations table, or the citing and cited papers as two arrays of rows of ``papers``
    (what a snapshot-scale import gives: no string per edge in memory; written to Parquet a chunk at a time).
    ``meta`` is stored in ``dataset.json`` with the format version and counts added; ``names``, the papers' common
    names, in the search index (:mod:`~dashboard.dataset.names`). Returns ``out``.
    """

    if isinstance(citations, pa.Table):
        _check_tables(papers, citations)
    else:
        _check_rows(papers, *citations)

    def write_tables(tmp: Path) -> None:
        pq.write_table(papers, tmp / PAPERS_FILE, compression="zstd")
        if isinstance(citations, pa.Table):
            pq.write_table(citations, tmp / CITATIONS_FILE, compression="zstd")
        else:
            _write_citation_rows(tmp / CITATIONS_FILE, papers.column("id").combine_chunks(), [citations])

    return _write_build(out, index_write.tables_source(papers, citations), write_tables, meta, names)


def write_streamed(out: str | Path, imported: Any, meta: dict[str, Any], names: Names | None = None) -> Path:
    """:func:`write_dataset` for an import DuckDB holds (:class:`~dashboard.importers.duckdb_engine.Streamed`):
    the index from it (the papers a batch at a time, the citations from its file of row pairs), then
    ``papers.parquet`` and the citations' ids from the index's ``papers.arrow``. The engine makes the tables
    valid (unique ids, each citation once, between two papers); the index checks each citation's rows as it
    writes them."""
    from dashboard.dataset import index

    def write_tables(tmp: Path) -> None:  # from the index's papers.arrow, read a batch at a time
        with pq.ParquetWriter(
            tmp / PAPERS_FILE, PAPERS_SCHEMA, compression="zstd", use_dictionary=STREAMED_DICTIONARY
        ) as writer:
            for batch in index.read_papers(tmp):
                writer.write_batch(batch)
        _write_citation_rows(tmp / CITATIONS_FILE, index.read_column(tmp, "id"), imported.citation_rows())

    return _write_build(out, imported.index_source(), write_tables, meta, names)


def _write_build(
    out: str | Path,
    source: Any,
    write_tables: Callable[[Path], None],
    meta: dict[str, Any],
    names: Names | None = None,
) -> Path:
    """Write a new build of the dataset folder ``out`` from an index :class:`~dashboard.dataset.index_write.Source`:
    the index,
    the tables (``write_tables``, while a big dataset's search index is written by a child process), then
    ``dataset.json``; then the folder serves it. The build id hashes the tables, and the names if any."""
    from dashboard.dataset import integrity

    out = Path(out).resolve()
    with builds.new_build(out) as tmp:

        def tables() -> str:
            write_tables(tmp)
            return _content_hash(tmp / PAPERS_FILE, tmp / CITATIONS_FILE, extra=names.digest() if names else b"")

        full_meta = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            **meta,
            "counts": {"papers": source.n, "citations": source.citations},
            "build_id": index_write.write_index_from(tmp, source, tables),
        }
        if names is not None:
            write_names(tmp, names)
        full_meta[integrity.FILES_KEY] = integrity.record(tmp)  # every file written, then dataset.json last
        full_meta = integrity.seal(full_meta)  # and its own checksum, of all of the above
        (tmp / META_FILE).write_text(json.dumps(full_meta, indent=2, ensure_ascii=False) + "\n")
        builds.publish(out, tmp, full_meta["build_id"])
    return out


def _check_rows(papers: pa.Table, citing: np.ndarray, cited: np.ndarray) -> None:
    """What :func:`_check_tables` checks, for citations given as rows of ``papers``."""
    _check_tables(papers, citations_table([], []))
    n = papers.num_rows
    if len(citing) != len(cited):
        raise DatasetError(f"citations: {len(citing)} citing rows but {len(cited)} cited rows")
    for name, rows in (("citing", citing), ("cited", cited)):
        if len(rows) and (rows.min() < 0 or rows.max() >= n):
            raise DatasetError(f"citations table: a {name} row is not a paper of the dataset (0..{n - 1})")
    if np.any(citing == cited):
        raise DatasetError("citations table has a self-citation")


def _write_citation_rows(path: Path, ids: pa.Array, rows: Iterable[tuple[np.ndarray, np.ndarray]]) -> None:
    """``citations.parquet`` from the citations as rows of the papers (citing and cited, a chunk at a time)."""
    # a dictionary for the citing ids only: they come sorted (few distinct ids a page), the cited ones do not
    # (building a dictionary of them that Parquet then drops is a large share of the write's time); nor statistics
    # (min and max) of the cited ones, each page of them spanning most ids (time spent for statistics of no use)
    with pq.ParquetWriter(
        path, CITATIONS_SCHEMA, compression="zstd", use_dictionary=["citing"], write_statistics=["citing"]
    ) as writer:
        empty = True
        for citing, cited in rows:
            for start in range(0, len(citing), EDGE_CHUNK):
                stop = start + EDGE_CHUNK
                writer.write_table(
                    citations_table(ids.take(pa.array(citing[start:stop])), ids.take(pa.array(cited[start:stop])))
                )
                empty = False
        if empty:
            writer.write_table(citations_table([], []))


def _content_hash(*paths: Path, extra: bytes = b"") -> str:
    h = hashlib.blake2b(digest_size=12)
    h.update(extra)
    for p in paths:
        with open(p, "rb") as f:
            for chunk in iter(lambda f=f: f.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()
