"""The search index, ``index/search.sqlite`` (SQLite FTS5, contentless, rowid = rank): titles and author names,
written a block at a time, and a table of their common words for spelling suggestions (:func:`write_words`); for a
big dataset by a child process beside the rest of the index. Beside it, from the same titles, ``title_sorted.npy``
(each paper's :func:`~dashboard.dataset.keys.title_hash`, ascending; ties most cited first) and
``title_sorted_rows.npy`` (their rows), so that a search finds the papers titled exactly as typed (case, accents,
punctuation and spacing aside) however common their words.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dashboard.dataset import spill
from dashboard.dataset.index import INDEX_DIR, read_papers
from dashboard.dataset.keys import title_hash, title_key

PARALLEL_SEARCH = 200_000  # papers from which search.sqlite is written by a child process beside the rest
SEARCH_HASH_BYTES = 32 * 2**20  # words the search index gathers in memory before writing them: few segments
SEARCH_SEGMENTS = 8  # segments the search index may keep (more: merged into one)
WORD_MIN_DOCS = 2  # papers a title word is in, at least, to be suggested for a word typed wrong
WORD_LIMIT = 100_000  # words kept for suggestions, the most common
SEARCH_BATCH = 25_000  # papers whose titles and names are Python strings at a time while the search index is written


def write_search_index(path: Path, ranked: Iterable[tuple[int, list[str], list[str]]]) -> None:
    """A contentless FTS5 index of titles and author names whose rowid is the paper's rank (0 = most cited), from
    the titles and names in rank order, a block at a time (``ranked``: the first rank of each block, its titles,
    its names; :func:`ranked_text`).

    ``detail=none, columnsize=0``: the index keeps which papers hold a word, not where or in which column.
    ``Store.search`` asks only for papers holding all the words (the last as a prefix), most cited first (by rowid):
    no phrases, columns, NEAR or bm25, which are what positions serve. Without them the index is built several
    times faster and is a fraction of the size."""
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA journal_mode=OFF")
        con.execute("PRAGMA synchronous=OFF")
        con.execute(
            "CREATE VIRTUAL TABLE titles USING fts5(title, authors, content='', prefix='1 2 3 4 5', "
            "detail=none, columnsize=0, tokenize='unicode61 remove_diacritics 2')"
        )
        # Bulk load: words gathered in memory up to SEARCH_HASH_BYTES before each write (FTS5's default, 1 MB,
        # writes many times as many segments) and no merging of segments while loading: both make the load much
        # quicker. Nor after, up to SEARCH_SEGMENTS: merging a big index's segments into one ('optimize') changed
        # neither the results nor the time of queries made of its titles' words and prefixes; nor did fewer
        # segments from a larger SEARCH_HASH_BYTES, which only took more memory
        with contextlib.suppress(sqlite3.OperationalError):  # an SQLite without the option: the default, slower
            con.execute(f"INSERT INTO titles(titles, rank) VALUES ('hashsize', {SEARCH_HASH_BYTES})")
        con.execute("INSERT INTO titles(titles, rank) VALUES ('automerge', 0)")
        for start, titles, names in ranked:  # rowids ascending: FTS5 writes out its words when one goes back
            con.executemany(
                "INSERT INTO titles(rowid, title, authors) VALUES (?, ?, ?)",
                zip(range(start, start + len(titles)), titles, names, strict=True),
            )
        if con.execute("SELECT count(DISTINCT segid) FROM titles_idx").fetchone()[0] > SEARCH_SEGMENTS:
            con.execute("INSERT INTO titles(titles) VALUES ('optimize')")  # a query reads every segment
        write_words(con)
        con.commit()
    finally:
        con.close()


def write_words(con: sqlite3.Connection) -> None:
    """Table ``words`` (word, docs) of the index just written: its words held by at least ``WORD_MIN_DOCS`` papers,
    the ``WORD_LIMIT`` most common of them, with how many papers hold each: what a search's spelling suggestions
    are drawn from (:class:`~dashboard.dataset.spelling.Vocabulary`). A word of one paper is as often a typo or a
    name as a word a researcher means."""
    con.execute("CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, titles, 'row')")
    con.execute("CREATE TABLE words(word TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID")
    con.execute(
        "INSERT INTO words SELECT term, doc FROM temp.vocabulary WHERE doc >= ? ORDER BY doc DESC, term LIMIT ?",
        (WORD_MIN_DOCS, WORD_LIMIT),
    )
    con.execute("DROP TABLE temp.vocabulary")


RANKED = pa.schema([("rank", pa.int32()), ("title", pa.string()), ("names", pa.string())])


def ranked_text(folder: Path, row_rank: np.ndarray, block: int) -> Iterator[tuple[int, list[str], list[str]]]:
    """The papers' titles and author names (joined by "; "; "" for none) in rank order (``row_rank``: each row's
    rank), ``block`` ranks at a time as (first rank, titles, names): what :func:`write_search_index` reads.

    Bounded memory: the papers of the dataset being written in ``folder`` are read ``block`` at a time in row
    order (:func:`read_papers`), spread into one temporary file per block of ranks (:func:`spread`); then each
    block is sorted. Taking the titles in rank order from the map instead kept the whole columns resident."""
    n = len(row_rank)

    def texts() -> Iterator[tuple[np.ndarray, pa.Table]]:
        start = 0
        for batch in read_papers(folder, ("title", "authors"), block):
            ranks = np.asarray(row_rank[start : start + batch.num_rows], dtype=np.int32)
            yield (
                ranks // block,
                pa.table(
                    [
                        pa.array(ranks),
                        pc.fill_null(batch.column("title"), ""),
                        pc.fill_null(pc.binary_join(batch.column("authors"), "; "), ""),
                    ],
                    schema=RANKED,
                ),
            )
            start += len(ranks)

    for k, part in spill.spread(texts(), -(-n // block), folder / INDEX_DIR, RANKED):
        first = k * block
        if part is None:
            raise ValueError(f"{folder}: no row has a rank in {first}..{first + block - 1}")
        part = part.take(pc.sort_indices(part.column("rank")))
        if not np.array_equal(part.column("rank").to_numpy(), np.arange(first, min(first + block, n))):
            raise ValueError(f"{folder}: the ranks of rows {first}..{first + block - 1} are not each once")
        yield first, part.column("title").to_pylist(), part.column("names").to_pylist()
        del part


def write_search_of(folder: str) -> None:
    """``search.sqlite``, ``title_sorted.npy`` and ``title_sorted_rows.npy`` of the index being written in
    ``folder`` (dataset folder), from its ``papers.arrow``, ``row_rank.npy`` and ``rank_rows.npy``: what
    :func:`write_index` runs in a child process for a big dataset."""
    out = Path(folder) / INDEX_DIR
    row_rank = np.load(out / "row_rank.npy", allow_pickle=False)
    block = max(SEARCH_BATCH, -(-len(row_rank) // spill.SPREAD_FILES))  # files open at once: within the limit
    hashes = np.zeros(len(row_rank), dtype=np.uint32)  # each rank's title hash

    def hashed(ranked: Iterable[tuple[int, list[str], list[str]]]) -> Iterator[tuple[int, list[str], list[str]]]:
        for start, titles, names in ranked:
            hashes[start : start + len(titles)] = [title_hash(title_key(t)) for t in titles]
            yield start, titles, names

    write_search_index(out / "search.sqlite", hashed(ranked_text(Path(folder), row_rank, block)))
    order = np.argsort(hashes, kind="stable")  # equal hashes: most cited first
    np.save(out / "title_sorted.npy", hashes[order], allow_pickle=False)
    rank_rows = np.load(out / "rank_rows.npy", mmap_mode="r", allow_pickle=False)
    np.save(out / "title_sorted_rows.npy", np.asarray(rank_rows[order], dtype=np.int32), allow_pickle=False)


def search_child(folder: Path) -> subprocess.Popen:
    """A Python process running :func:`write_search_of` on ``folder`` (a process started from the command line,
    not by ``multiprocessing``, which would run again the calling script's unguarded top level)."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from dashboard.dataset import search_write; search_write.write_search_of(sys.argv[1])",
            str(folder),
        ],
        env=env,
    )
