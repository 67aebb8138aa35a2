"""The engine of the snapshot-scale importers (:mod:`~dashboard.importers.openalex_duckdb`, OpenAlex JSON Lines;
:mod:`~dashboard.importers.csv_duckdb`, CSV tables): DuckDB in bounded memory, and the Python importers' dataset.

A format's :class:`Reader` extracts its records into a view ``works`` (SQL where it reads a value exactly as the
format's Python parser does: ``works_bulk``, in input order; the parser itself for the rest: ``works_rest``; what
SQL extracts is written once to a Parquet file in the import's folder, :func:`staged`); then, the same for every
format:

2. **Merge**: records that share an id or a normalised title with another record are the only ones that can
   merge; they, and only they, go through :class:`~dashboard.importers.common.DatasetBuilder` in input order.
   Every other record is a paper as it is (view ``paper``: read from the file again, not copied).
3. **Edges** (SQL, then numpy): the citations the input states, resolved through every id of every paper, as
   rows of the papers table (papers in order of first appearance; no string per edge); ends outside the papers
   and self-citations are counted and dropped as they stream out of DuckDB, the rest spread on disk a range of
   citing papers at a time, each range sorted and its repeats dropped into a file of row pairs
   (:data:`EDGE_FILE`), as the builder does.
4. **Output** (:class:`Streamed`): ``citemap import`` writes the dataset
   (:func:`dashboard.dataset.write.write_streamed`)
   reading the papers from DuckDB a batch at a time (the bulk as the file holds them, the few others sorted and
   put in their places: :func:`in_order`), then the ids, DOIs and alternative ids it sorts; then DuckDB is
   closed, and the citations are read from the file a chunk at a time (the index's lists: cut between citing papers, or
   regrouped on disk a range of cited papers at a time); :func:`run` reads the same into memory (for tests).

DuckDB runs in memory up to ``memory_limit`` while it extracts (``LINK_SHARE`` of it while it merges and links,
beside Python's part of those; ``OUTPUT_SHARE`` while the output is read) and spills to a temporary folder beyond it.
"""

from __future__ import annotations

import contextlib
import ctypes
import re
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dashboard.errors import DatasetError
from dashboard.importers.common import DatasetBuilder, InputError, PaperRecord, normalise_title

if TYPE_CHECKING:
    from dashboard.dataset.index_write import SortedKeys

MEMORY_LIMIT = "500MB"  # DuckDB's own memory; it spills to disk beyond it
STAGED_GROUP = 122_880  # rows a row group of a staged file (DuckDB's default)
M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
LINK_SHARE = 0.6  # of DuckDB's memory while it merges and links the papers beside Python's share of that
OUTPUT_SHARE = 0.4  # of DuckDB's memory, while the dataset is read from it beside the index being written
# Python's str.isspace() characters (str.split() splits on them), as an RE2 class
WS = r"[\t\n\x0b\x0c\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]"
# whitespace other than one space between words: only then is a text collapsed (most are not)
WS_ODD = WS.replace(r"\x1c-\x20", r"\x1c-\x1f") + "|  |^ | $"
NEW_ARXIV, OLD_ARXIV = r"[0-9]{4}\.[0-9]{4,5}", r"[a-zA-Z][a-zA-Z\-]*(?:\.[a-zA-Z]{2})?/[0-9]{7}"
ARXIV_BARE = rf"(?i)^({NEW_ARXIV}|{OLD_ARXIV})(?:v[0-9]+)?$"
DOI_PREFIX = r"(?i)^(?:https?://(?:dx\.)?doi\.org/|doi:)"
CBY = pa.list_(pa.struct([("year", pa.int64()), ("count", pa.int64())]))  # citations by year, as extracted

# Text as Python's importers clean it (fields.opt_text, common.clean_doi, common.normalise_title; a title of
# plain words, one space apart, is its own key once lower-cased: no regexp_replace, costly run on every title).
MACROS = rf"""
CREATE MACRO collapse(s) AS CASE WHEN regexp_matches(s, '{WS_ODD}')
    THEN nullif(trim(regexp_replace(s, '{WS}+', ' ', 'g')), '') ELSE nullif(s, '') END;
CREATE MACRO ascii(x) AS (x IS NULL OR strlen(CAST(x AS VARCHAR)) = length(CAST(x AS VARCHAR)));
CREATE MACRO title_key(t) AS CASE WHEN regexp_full_match(t, '[A-Za-z0-9]+( [A-Za-z0-9]+)*') THEN lower(t)
    WHEN strlen(t) = length(t) THEN trim(regexp_replace(lower(t), '[^a-z0-9]+', ' ', 'g')) ELSE py_norm(t) END;
CREATE MACRO pystrip(s) AS regexp_replace(s, '^{WS}+|{WS}+$', '', 'g');
CREATE MACRO doi_text(s) AS lower(pystrip(regexp_replace(pystrip(s), '{DOI_PREFIX}', '')));
CREATE MACRO doi_clean(s) AS CASE WHEN regexp_full_match(doi_text(s), '10\.[0-9]{{4,9}}/[^\t\n\x0b\x0c\r\x1c-\x20]+')
    THEN doi_text(s) END;
"""


def memory_bytes(text: str) -> int:
    """A memory size as DuckDB reads it (``500MB``, ``4GB``, ``1.5GiB``, ``2048B``; KB is 1000 bytes, KiB 1024)
    in bytes; ``ValueError`` if it is not one."""
    size = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*(?:([KMGT])(i?))?B", text.strip(), flags=re.IGNORECASE)
    if not size:
        raise ValueError(f"not a memory size such as 500MB or 4GB: {text!r}")
    power = "KMGT".index(size[2].upper()) + 1 if size[2] else 0
    return int(float(size[1]) * (1024 if size[3] else 1000) ** power)


def staged(con: Any, folder: Path, name: str, sql: str, params: list[Any] | None = None) -> None:
    """View ``name``: the rows of ``sql`` in its order (``line``: each row's place, from 0), written once to a
    Parquet file in ``folder`` (the import's temporary folder) as DuckDB streams them.

    A table of them would be held in DuckDB's memory and, past its limit, spilled to disk uncompressed and read
    back page by page; the file is compressed, much smaller, written once with no spilling, and each later query
    reads only the columns it names."""
    path = str(folder / f"{name}.parquet").replace("'", "''")
    con.execute(
        f"COPY ({sql}) TO '{path}' (FORMAT parquet, COMPRESSION lz4_raw, ROW_GROUP_SIZE {STAGED_GROUP})", params
    )  # in the query's order (preserve_insertion_order: COPY keeps it), whatever the row groups
    con.execute(
        f"CREATE VIEW {name} AS SELECT * EXCLUDE (file_row_number), file_row_number AS line "
        f"FROM read_parquet('{path}', file_row_number = true)"
    )


def connect(workdir: Path, memory_limit: str = MEMORY_LIMIT, macros: str = "") -> Any:
    import duckdb

    con = duckdb.connect()  # in memory, spilling to temp_directory beyond memory_limit
    con.execute(f"SET memory_limit = '{memory_limit}'")
    con.execute(f"SET temp_directory = '{workdir / 'spill'}'")
    con.execute("SET preserve_insertion_order = true")
    # memory it frees goes back to the system at once (by default it keeps up to 128 MB a thread, 512 MB after
    # a bulk free: memory resident for nothing while the index is written)
    con.execute("SET allocator_flush_threshold = '32MB'")
    con.execute("SET allocator_bulk_deallocation_flush_threshold = '32MB'")
    con.create_function("py_norm", normalise_title, ["VARCHAR"], "VARCHAR", side_effects=False)
    for statement in (MACROS + macros).strip().split(";\n"):
        if statement.strip():
            con.execute(statement)
    return con


# -- merge ------------------------------------------------------------------------------------------------
KEYS = """
CREATE TABLE keys AS SELECT ord, pid AS key FROM works UNION ALL SELECT ord, wid FROM works WHERE arxiv IS NOT NULL;
CREATE TABLE cand AS SELECT DISTINCT ord FROM (
  SELECT ord FROM keys WHERE key IN (SELECT key FROM keys GROUP BY key HAVING count(*) > 1)
  UNION ALL
  SELECT ord FROM works WHERE doi IN (SELECT doi FROM works WHERE doi IS NOT NULL GROUP BY doi HAVING count(*) > 1)
  UNION ALL
  SELECT ord FROM works WHERE tkey IN (SELECT tkey FROM works WHERE tkey <> hash('') GROUP BY tkey
                                       HAVING count(*) > 1));
"""  # the works that can merge: those sharing an id, a DOI or a title (not one of no Latin letter or digit)


def record(row: dict[str, Any]) -> PaperRecord:
    """A ``works`` row as the record the format's Python parser makes of the same paper."""
    cby = row["cby"]
    return PaperRecord(
        title=row["title"],
        id=row["pid"],
        year=row["year"],
        posted=row["posted"],
        areas=list(row["areas"] or []),
        cited_by=row["cited_by"],
        reference_count=row["ref_count"],
        citations_by_year=None if cby is None else {c["year"]: c["count"] for c in cby},
        alt_ids=[row["wid"]] if row["arxiv"] else [],
        authors=list(row["authors"] or []),
        venue=row["venue"],
        doi=row["doi"],
    )


def merge(con: Any, source: str) -> dict[str, int]:
    """View ``paper`` (one row per paper, ``ord`` its order of first appearance: the works that merge with none,
    read again from the reader's file, and table ``merged``), merging the works that can merge (table ``cand``)
    exactly as DatasetBuilder does; tables ``cand_ords`` (each of those works' ``ord`` -> its paper's ``ord``) and
    ``cand_keys`` (every id of their papers -> the paper's ``ord``); the other works are their own papers, with
    the ids of table ``keys``. Returns the merge counts."""
    for statement in KEYS.strip().split(";\n"):
        con.execute(statement)
    cand = (
        con.sql(
            "SELECT ord, wid, pid, arxiv, title, year, posted, areas, cited_by, ref_count, cby, authors, "
            "venue, doi FROM works SEMI JOIN cand USING (ord) ORDER BY ord"
        )
        .to_arrow_table()
        .to_pylist()
    )
    builder = DatasetBuilder(source)
    first_ord: list[int] = []
    ord_paper: list[tuple[int, int]] = []
    for row in cand:
        n = len(builder.papers)
        k = builder.add(record(row), authoritative=True)
        if k == n:
            first_ord.append(row["ord"])
        ord_paper.append((row["ord"], k))
    ids = builder.final_ids()
    recs = [p.rec for p in builder.papers]
    merged = pa.table(  # noqa: F841 (read by DuckDB by name)
        {
            "ord": pa.array(first_ord, pa.int64()),
            "id": ids,
            "title": [r.title for r in recs],
            "year": pa.array([r.year for r in recs], pa.int32()),
            "posted": [r.posted for r in recs],
            "areas": pa.array([r.areas for r in recs], pa.list_(pa.string())),
            "cited_by": pa.array([r.cited_by for r in recs], pa.int64()),
            "ref_count": pa.array([r.reference_count for r in recs], pa.int64()),
            "cby": pa.array(
                [
                    None
                    if r.citations_by_year is None
                    else [{"year": y, "count": c} for y, c in r.citations_by_year.items()]
                    for r in recs
                ],
                CBY,
            ),
            "authors": pa.array([r.authors for r in recs], pa.list_(pa.string())),
            "venue": [r.venue for r in recs],
            "doi": [r.doi for r in recs],
            "alt_ids": pa.array(builder.final_alt_ids(ids), pa.list_(pa.string())),
        }
    )
    cand_ords = pa.table(  # noqa: F841 (DuckDB's)
        {
            "ord": pa.array([o for o, _ in ord_paper], pa.int64()),
            "pord": pa.array([first_ord[k] for _, k in ord_paper], pa.int64()),
        }
    )
    cand_keys = pa.table(  # noqa: F841 (DuckDB's)
        {
            "key": pa.array(list(builder.by_id), pa.string()),
            "pord": pa.array([first_ord[k] for k in builder.by_id.values()], pa.int64()),
        }
    )
    con.execute("CREATE TABLE merged AS SELECT * FROM merged")
    for name, works in (("paper_bulk", "works_bulk"), ("paper_rest", "works_rest"), ("paper", "works")):
        con.execute(f"""CREATE VIEW {name} AS  -- views: the works are read from their file, not held twice
            SELECT ord, pid AS id, title, year, posted, areas, cited_by, ref_count, cby, authors, venue, doi,
              CASE WHEN arxiv IS NOT NULL THEN [wid] ELSE []::VARCHAR[] END AS alt_ids
            FROM {works}{"" if name == "paper_bulk" else " ANTI JOIN cand USING (ord) UNION ALL SELECT * FROM merged"}
            """)  # paper_bulk: its works as the file holds them, those in cand among them (Streamed.papers)
    con.execute("CREATE TABLE cand_ords AS SELECT * FROM cand_ords")
    con.execute("CREATE TABLE cand_keys AS SELECT * FROM cand_keys")
    return {
        "records": builder.stats["records"]
        + con.execute("SELECT count(*) FROM works ANTI JOIN cand USING (ord)").fetchall()[0][0],
        **{k: v for k, v in builder.stats.items() if k.startswith("merged")},
    }


# -- edges -------------------------------------------------------------------------------------------------
# Each paper's row (``r``: papers in order of first appearance) found by a work's ``ord`` and by any id, joined on
# integers (a work that merges with none is its own paper: its ``ord`` is the paper's; joins on the ids are slower,
# and need tables of every paper's ids)
RANKS = """
CREATE TABLE rank AS SELECT ord, id, doi, alt_ids, CAST(row_number() OVER (ORDER BY ord) - 1 AS INTEGER) AS r
  FROM paper;
CREATE TABLE ordrank AS SELECT ord, r FROM rank ANTI JOIN cand USING (ord)
  UNION ALL SELECT c.ord, p.r FROM cand_ords c JOIN rank p ON c.pord = p.ord;
CREATE TABLE keyrank AS SELECT key, r FROM keys JOIN rank USING (ord) ANTI JOIN cand USING (ord)
  UNION ALL SELECT c.key, p.r FROM cand_keys c JOIN rank p ON c.pord = p.ord;
"""
# Every stated citation (view refs, an end outside the papers as -1) as it streams out of DuckDB: :func:`edges` counts
# and drops those ends and self-citations, spreads the rest on disk a range of citing papers a file, and sorts each
# range (a table of them all, sorted by DuckDB in its memory, is slow to write and to sort once it spills; a
# DISTINCT before that hashed them all to drop the few repeats)
EDGE_SQL = "SELECT coalesce(citing, -1) AS citing, coalesce(cited, -1) AS cited FROM refs"
EDGE_RANGE = 100_000  # citing papers a range of the citations sorted at a time: few ranges, each sorted in memory


def ahead(items: Iterable[Any]) -> Iterator[Any]:
    """``items`` in order, the next one made by a thread while the caller works on this one (DuckDB lets go of
    Python's lock while it executes: its threads and the caller's work at once, not in turn). A failure making one
    is raised to the caller; a caller that stops waits for the one being made, no more."""
    source, end = iter(items), object()
    with ThreadPoolExecutor(max_workers=1) as maker:
        coming = maker.submit(next, source, end)
        while (item := coming.result()) is not end:
            coming = maker.submit(next, source, end)
            yield item


def edges(con: Any, refs_sql: str, path: Path) -> dict[str, int]:
    """The citations file ``path`` (:func:`read_pairs`): each citation once, as the rows (``rank``) of its two
    papers, in the builder's order (by citing paper, then cited paper); returns the counts. ``refs_sql`` makes view
    ``refs``: every citation the input states, as rows (``citing``, ``cited``; null for an end outside the
    papers), from ``ordrank`` (a paper's ``ord`` -> row) and ``keyrank`` (any id -> row). The citations are
    regrouped by ranges of citing papers in a temporary folder beside ``path``
    (:func:`dashboard.dataset.spill.grouped`)."""
    from dashboard.dataset.spill import grouped

    for statement in [*RANKS.strip().split(";\n"), *refs_sql.strip().split(";\n")]:
        if statement.strip():
            con.execute(statement)
    n = con.execute("SELECT count(*) FROM rank").fetchall()[0][0]
    counts = {"seen": 0, "outside": 0, "self_loops": 0}

    def inside() -> Iterator[tuple[np.ndarray, np.ndarray]]:  # the citations between two papers
        for b in ahead(con.sql(EDGE_SQL).to_arrow_reader(STREAM_ROWS)):
            citing, cited = _rows(b.column(0)), _rows(b.column(1))
            both = (citing >= 0) & (cited >= 0)
            kept = both & (citing != cited)
            n_both, n_kept = int(both.sum()), int(kept.sum())
            counts["seen"] += len(citing)
            counts["outside"] += len(citing) - n_both
            counts["self_loops"] += n_both - n_kept
            yield citing[kept], cited[kept]

    # each join built on its right side as written (the rows, the ids), not on the side DuckDB guesses smaller: it
    # guessed the references (an unnest, many per work) smaller than the ids and hashed them, and then the works with
    # their lists; so the citations come out in the works' order, by citing paper, which is faster to regroup
    con.execute("SET disabled_optimizers = 'build_side_probe_side'")
    try:
        with open(path, "wb") as f:  # ranges of EDGE_RANGE citing papers: grouped's, each paper counted once
            ranges = grouped(inside(), "citing", np.ones(n, dtype=np.int8), EDGE_RANGE, path.parent)
            unique = _write_sorted_ranges(f, ranges, n)
    finally:
        con.execute("RESET disabled_optimizers")
    seen, outside, self_loops = counts["seen"], counts["outside"], counts["self_loops"]
    return {
        "edges_seen": seen,
        "self_loops": self_loops,
        "duplicate_edges": seen - outside - self_loops - unique,
        "edges_outside": outside,
        "citations": unique,
    }


def _write_sorted_ranges(f: BinaryIO, ranges: Iterable[tuple[np.ndarray, np.ndarray]], n: int) -> int:
    """Each range's citations (citing, cited rows) sorted, without repeats, to ``f`` as int32 pairs; returns how
    many."""
    unique = 0
    for citing, cited in ranges:
        key = citing.astype(np.int64) * max(n, 1)
        key += cited
        # by citing, then cited paper: a repeat follows the citation it repeats. Stable: numpy's timsort merges
        # the runs the citations come in, by citing paper: far cheaper than sorting them as if in no order
        key.sort(kind="stable")
        new = np.empty(len(key), dtype=bool)
        new[:1] = True
        np.not_equal(key[1:], key[:-1], out=new[1:])
        key = key[new]
        pairs = np.empty((len(key), 2), dtype="<i4")
        pairs[:, 0], pairs[:, 1] = np.divmod(key, max(n, 1))
        unique += len(pairs)
        pairs.tofile(f)
    return unique


# -- output ----------------------------------------------------------------------------------------------------
PAPERS_SQL = """  -- $source: the source every paper names; {paper}: the view read
SELECT ord, id, title, CAST(year AS SMALLINT) AS year, posted, areas, cited_by, ref_count AS reference_count,
  CASE WHEN cby IS NULL THEN NULL ELSE list_transform(list_sort(cby), lambda c: {'year': CAST(c.year AS SMALLINT),
                                                                            'count': CAST(c.count AS INTEGER)}) END
    AS citations_by_year,
  CASE WHEN cited_by IS NOT NULL THEN $source END AS cited_by_from,
  authors, venue, doi, [$source] AS sources, alt_ids
FROM {paper}
"""
KEY_SQL = {  # the keys the store finds papers by, non-empty, with each paper's row
    "id": "SELECT id AS key, r FROM rank WHERE id <> ''",
    "doi": "SELECT doi AS key, r FROM rank WHERE doi <> ''",  # not paper's join: the output's memory is small
    "alt": "SELECT key, r FROM (SELECT unnest(alt_ids) AS key, r FROM rank) WHERE key <> ''",
}


@dataclass
class Imported:
    """What an import gives in memory: the papers table, the citations as rows of it, the summary and the
    metadata (:func:`run`; tests compare it with the Python importers'; ``citemap import`` streams instead)."""

    papers: pa.Table
    citing: np.ndarray
    cited: np.ndarray
    summary: dict[str, Any]
    info: dict[str, Any]

    def citations(self) -> pa.Table:
        """The citations table (ids)."""
        from dashboard.dataset.format import citations_table

        ids = self.papers.column("id")
        return citations_table(ids.take(pa.array(self.citing)), ids.take(pa.array(self.cited)))


STREAM_ROWS = 1 << 22  # rows a chunk read from DuckDB (citations, keys)
READ_ROWS = 1 << 20  # citations a chunk read from the citations file (Streamed.citation_rows); a range of the lists
EDGE_FILE = "edges.i4"  # the citations as (citing, cited) rows, int32 pairs, in the builder's order (Streamed.folder)


@dataclass
class Streamed:
    """An import held by DuckDB (:func:`streamed`): the papers read from it a batch at a time and their ids and
    DOIs sorted by it while the connection is open (:meth:`close` ends it); the citations from the file of row
    pairs, a chunk at a time (the lists of citers regrouped from it on disk); nothing of the size of the
    dataset in Python's memory but one number a paper."""

    con: Any
    source: str
    summary: dict[str, Any]
    info: dict[str, Any]
    folder: Path  # the import's temporary folder: the citations file (EDGE_FILE), what they are regrouped in

    @property
    def n(self) -> int:
        return int(self.summary["papers"])

    def papers(self, batch: int) -> Iterator[pa.RecordBatch]:
        """The papers table, in row order, about ``batch`` rows at a time: the bulk of the works read as the file
        holds them, the rest (works the format's parser read, merged papers) sorted by DuckDB and put in their
        places (:func:`in_order`). Sorting them all in DuckDB's bounded memory would spill, and cost a large
        share of the time they are read in."""
        from dashboard.dataset.format import PAPERS_SCHEMA

        schema = PAPERS_SCHEMA.append(pa.field("ord", pa.int64()))
        dropped = self.con.execute("SELECT ord FROM cand ORDER BY ord").fetchnumpy()["ord"]
        rest_con = self.con.cursor()  # a second stream of the same database

        def read(con: Any, sql: str) -> Iterator[pa.Table]:
            for b in con.sql(sql, params={"source": self.source}).to_arrow_reader(batch):
                yield pa.Table.from_batches([b]).select(schema.names).cast(schema)

        bulk, rest = (PAPERS_SQL.replace("{paper}", view) for view in ("paper_bulk", "paper_rest"))
        try:
            for table in in_order(read(self.con, bulk), read(rest_con, rest + " ORDER BY ord"), dropped):
                if table.num_rows:
                    yield table.drop_columns(["ord"]).combine_chunks().to_batches()[0]
        finally:
            rest_con.close()

    def pairs(self, owner: str, counts: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Each citation as (``owner``, other) rows (``owner``: ``citing`` or ``cited``), a range of owners at a
        time (``counts``: each row's citations as ``owner``): what :func:`dashboard.dataset.index_write.lists_of`
        makes the
        index's lists of. The citations file is in citing order: cut between citing papers
        (:func:`dashboard.dataset.spill.owner_runs`); by cited paper, regrouped in one pass
        (:func:`dashboard.dataset.spill.grouped`):
        DuckDB's filtered scans of its table, one a range, read the whole table again each time (most of it
        spilled to disk, beside DuckDB's bounded memory)."""
        from dashboard.dataset.spill import grouped, owner_runs

        if owner == "citing":  # the file is in citing order: cut between papers, not regrouped
            return owner_runs(self.citation_rows())
        return grouped(self.citation_rows(), owner, counts, READ_ROWS, self.folder)

    def index_source(self) -> Any:
        """The :class:`~dashboard.dataset.index_write.Source` the dataset's index is written from."""
        from dashboard.dataset import index_write

        ranks = index_write.rank_arrays_of(self.n, self.citation_rows())
        return index_write.Source(
            self.n,
            int(self.summary["citations"]),
            lambda: self.papers(index_write.BATCH),
            ranks,
            lambda: index_write.lists_of(self.pairs("citing", ranks["in_refs"]), ranks),
            lambda: index_write.lists_of(self.pairs("cited", ranks["in_cited"]), ranks),
            self.sorted_keys,
            self.close,
        )

    def sorted_keys(self, name: str) -> SortedKeys:
        """The papers' ids, DOIs or alternative ids (``name``: ``id``, ``doi``, ``alt``) in byte order, ties by row
        (:data:`dashboard.dataset.index_write.SortedKeys`),
        sorted by DuckDB (VARCHAR compares bytes): a chunk at a time, not all the keys and their copies in memory."""
        sql = KEY_SQL[name]
        count, width = self.con.execute(f"SELECT count(*), max(strlen(key)) FROM ({sql})").fetchall()[0]
        batches = self.con.sql(f"{sql} ORDER BY key, r").to_arrow_reader(STREAM_ROWS)
        chunks = ((b.column(0), _rows(b.column(1))) for b in batches)
        return count, max(1, width or 1), chunks

    def citation_rows(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Each citation as the rows of its two papers (int32), in the builder's order, a chunk at a time."""
        return read_pairs(self.folder / EDGE_FILE, READ_ROWS)

    def close(self) -> None:
        """DuckDB's tables and memory given back: what is read after is the citations file."""
        self.con.close()


def in_order(bulk: Iterable[pa.Table], rest: Iterable[pa.Table], dropped: np.ndarray) -> Iterator[pa.Table]:
    """The rows of ``bulk`` but those whose ``ord`` is in ``dropped`` (sorted), and the rows of ``rest``, in ``ord``
    order, a table of ``bulk`` at a time with the rows of ``rest`` that come before its end (then what is left of
    ``rest``). Both come in ascending ``ord``: a bulk table that does not raises ``ValueError``."""
    rest_tables = iter(rest)
    pending = None  # rows of rest read and not yet given
    done, last = False, -1
    for table in bulk:
        ords = table.column("ord").to_numpy()
        if len(ords):
            if int(ords[0]) <= last or np.any(ords[1:] <= ords[:-1]):
                raise ValueError("the bulk of the works came out of their order")
            last = int(ords[-1])
        while not done and (pending is None or pending.column("ord")[pending.num_rows - 1].as_py() <= last):
            more = next(rest_tables, None)
            if more is None:
                done = True
            elif more.num_rows:
                pending = more if pending is None else pa.concat_tables([pending, more])
        at = np.searchsorted(dropped, ords)
        kept = (at == len(dropped)) | (dropped[np.minimum(at, len(dropped) - 1)] != ords) if len(dropped) else None
        part = table if kept is None or kept.all() else table.filter(pa.array(kept))
        if pending is not None:
            cut = int(np.searchsorted(pending.column("ord").to_numpy(), last, side="right"))
            if cut:
                part = pa.concat_tables([part, pending.slice(0, cut)])
                part = part.take(pc.sort_indices(part.column("ord")))
                pending = pending.slice(cut) if cut < pending.num_rows else None
        yield part
    if pending is not None:
        yield pending
    yield from rest_tables


def read_pairs(path: Path, size: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The (citing, cited) rows of a citations file :func:`edges` wrote (int32 pairs), ``size`` at a time (read,
    not mapped: the pages do not stay in the process)."""
    with open(path, "rb") as f:
        while len(chunk := np.fromfile(f, dtype="<i4", count=2 * size)):
            pairs = chunk.reshape(-1, 2)
            yield pairs[:, 0].copy(), pairs[:, 1].copy()
            del chunk, pairs


def _rows(column: pa.Array) -> np.ndarray:
    """A column of rows DuckDB gave, as int32."""
    return column.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)


class Reader(Protocol):
    """What a format gives the engine: its source name, its macros, its extraction (a view ``works``: one row per
    record, ``ord`` its place in the input, the paper's values, ``pid`` and ``wid`` its ids, ``arxiv`` set when
    ``wid`` is an alternative id, ``tkey`` a hash of its normalised title; the union of ``works_bulk``, the records
    SQL read, in ``ord`` order as DuckDB scans them, and ``works_rest``, the others), the SQL making view ``refs``
    and the tables to drop before the output."""

    source: str
    macros: str
    refs_sql: str
    drops: tuple[str, ...]
    first: Path

    def extract(self, con: Any, folder: Path) -> None: ...

    def info(self, outside: int) -> dict[str, Any]: ...


def run(
    reader: Reader, progress: bool = True, workdir: Path | None = None, memory_limit: str = MEMORY_LIMIT
) -> Imported:
    """One format's dataset in memory (see :func:`streamed`)."""
    from dashboard.dataset.format import PAPERS_SCHEMA

    with streamed(reader, progress, workdir, memory_limit) as imported:
        papers = pa.concat_tables(
            [pa.Table.from_batches([b]) for b in imported.papers(1 << 20)] or [PAPERS_SCHEMA.empty_table()]
        )
        rows = list(imported.citation_rows())
        citing, cited = (np.concatenate([r[k] for r in rows] or [np.zeros(0, np.int32)]) for k in (0, 1))
        return Imported(papers, citing, cited, imported.summary, imported.info)


@contextmanager
def streamed(
    reader: Reader, progress: bool = True, workdir: Path | None = None, memory_limit: str = MEMORY_LIMIT
) -> Iterator[Streamed]:
    """Extract, merge and link one format's records, then hand the open import on (DuckDB spills into a folder
    under ``workdir``, removed after)."""
    import duckdb

    given = memory_bytes(memory_limit)  # a size it does not read: before any work
    link_bytes, output_bytes = int(given * LINK_SHARE), int(given * OUTPUT_SHARE)
    tmp = Path(tempfile.mkdtemp(prefix="citemap-import-", dir=workdir))
    con = None
    give_back_freed_memory()
    try:
        con = connect(tmp, memory_limit, reader.macros)
        steps: dict[str, float] = {}
        with _step(steps, "extract", progress):
            reader.extract(con, tmp)
        if con.execute("SELECT count(*) FROM works").fetchall()[0][0] == 0:
            raise InputError(reader.first, "no works found" if reader.source == "OpenAlex" else "no papers found")
        # less from here: what DuckDB holds beyond it goes to disk, not beside the merge's Python records and the
        # citations' chunks (a lower peak of resident memory than with all of it, and no slower)
        con.execute(f"SET memory_limit = '{link_bytes}B'")
        with _step(steps, "merge", progress):
            counts = merge(con, reader.source)
        with _step(steps, "edges", progress):
            stats = edges(con, reader.refs_sql, tmp / EDGE_FILE)
        for done in (
            *reader.drops,
            "VIEW refs",
            "TABLE keys",
            "TABLE cand_keys",
            "TABLE keyrank",
            "TABLE cand_ords",
            "TABLE ordrank",
        ):
            con.execute(f"DROP {done}")  # what the output does not read: its memory back before the output's
        con.execute(f"SET memory_limit = '{output_bytes}B'")  # tables it holds go to disk beyond it
        papers, with_areas, with_authors = con.execute(
            "SELECT count(*), count(*) FILTER (len(areas) > 0), count(*) FILTER (len(authors) > 0) FROM paper"
        ).fetchall()[0]
        summary: dict[str, Any] = {
            **counts,
            "merged": counts["records"] - papers,
            **{k: v for k, v in stats.items() if k != "citations"},
            "papers": papers,
            "citations": stats["citations"],
            "papers_with_areas": with_areas,
        }
        if with_authors:
            summary["papers_with_authors"] = with_authors
        yield Streamed(con, reader.source, _order(summary), reader.info(stats["edges_outside"]), tmp)
    except duckdb.OutOfMemoryException as e:
        raise DatasetError(
            f"DuckDB needed more than its {memory_limit} of memory for this input: run the import "
            "again with a larger --memory (e.g. --memory 4GB)"
        ) from e
    finally:
        if con is not None:
            con.close()
        shutil.rmtree(tmp, ignore_errors=True)


def give_back_freed_memory() -> None:
    """glibc: blocks of 128 kB or more get maps of their own, given back to the system when freed. By default
    glibc raises that threshold to the size of each big block freed (up to 32 MB), after which numpy's arrays of
    a few MB come from its heap and stay resident once freed, raising the import's peak of resident memory.
    Elsewhere than glibc: nothing."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(M_MMAP_THRESHOLD, 128 * 1024)


def _order(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary's keys in DatasetBuilder.build's order."""
    keys = (
        "records",
        "merged",
        "merged_by_id",
        "merged_by_doi",
        "merged_by_title",
        "merged_by_title_arxiv",
        "edges_seen",
        "self_loops",
        "duplicate_edges",
        "edges_outside",
        "papers",
        "citations",
        "papers_with_areas",
        "papers_with_authors",
    )
    return {k: summary[k] for k in keys if k in summary}


class _step:
    def __init__(self, steps: dict[str, float], name: str, progress: bool) -> None:
        self.steps, self.name, self.progress = steps, name, progress

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.steps[self.name] = time.perf_counter() - self.t0
        if self.progress and exc[0] is None:
            print(f"  {self.name}: {self.steps[self.name]:.1f} s", flush=True)
