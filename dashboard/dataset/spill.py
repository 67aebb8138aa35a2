"""Rows spread into temporary files by ranges of their owner and read back grouped: how the index and the importers
sort more citations than memory holds.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa

SPREAD_FILES = 256  # at most, the temporary files rows are spread into (spread: open at once, within the limit)


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


def spread(
    tables: Iterable[tuple[np.ndarray, pa.Table]], buckets: int, folder: Path, schema: pa.Schema
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
                order = np.argsort(which, kind="stable")  # of 8 or 16 bits: a radix sort, far cheaper than comparing
                cuts = np.zeros(buckets + 1, dtype=np.int64)
                np.cumsum(np.bincount(which, minlength=buckets), out=cuts[1:])
                for k in np.flatnonzero(np.diff(cuts)):
                    if k not in writers:
                        writers[k] = stack.enter_context(pa.ipc.new_stream(str(tmp / f"{k}.arrow"), schema))
                    writers[k].write_table(table.take(pa.array(order[cuts[k] : cuts[k + 1]])))
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


def grouped(
    rows: Iterable[tuple[np.ndarray, np.ndarray]], owner: str, counts: np.ndarray, size: int, folder: Path
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The citations (``rows``: chunks of (citing, cited) rows, in any order) as (owner, other) chunks, each
    every citation of a range of owners (``owner``: ``"citing"`` or ``"cited"``; :func:`owner_ranges` of
    ``counts``, each row's citations as owner, at most ``size`` a range), the ranges ascending: what
    :func:`lists_of` takes. One pass spreads them on disk (:func:`spread`, in ``folder``); ranges grow past
    ``size`` so that there are at most :data:`SPREAD_FILES`."""
    total, n = int(np.sum(counts, dtype=np.int64)), len(counts)
    ranges = owner_ranges(counts, max(size, -(-2 * total // SPREAD_FILES)))  # a range and the next: > size
    range_of = np.repeat(
        np.arange(len(ranges), dtype=np.uint16 if len(ranges) <= 1 << 16 else np.int64), [hi - lo for lo, hi in ranges]
    )  # each row's range
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
