"""The CSV importer at scale, on DuckDB: the dataset :mod:`~dashboard.importers.csv_tables` gives, in bounded
memory.

``citemap import csv PAPERS.csv [CITATIONS.csv]`` takes this path when nothing is merged into the tables and
each file is plain or gzipped as its name says. DuckDB reads both tables (strict CSV: quotes doubled, a header
row); each papers row's cells are cleaned in SQL as :func:`~csv_tables.parse_paper_row` cleans them (whitespace
collapsed, ``;`` lists split and trimmed, numbers, dates, DOIs), and a row whose cells are not in the plain
shape SQL reads exactly (``1,234``, an old-style arXiv id with ``/``, a repeated area, a bad value...) is parsed
by ``parse_paper_row`` itself. Where SQL and Python could read a file differently, Python's reading counts:

* a file DuckDB will not read as it is (mixed line endings, a blank line of spaces, a gzip file not named
  ``.gz``...) is imported by the Python importer instead, which also gives the exact error if the file is bad;
* a bad row's error is the Python importer's (file, line, column): the file is read again with it to find the
  line.

Merging and edges: :mod:`~dashboard.importers.duckdb_engine`, as for OpenAlex.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from dashboard.importers.common import InputError, normalise_title
from dashboard.importers.csv_tables import (
    CITATION_COLUMNS,
    PAPER_COLUMNS,
    info_for,
    paper_key,
    parse_paper_row,
    read_rows,
    resolve_columns,
    swapped_hint,
)
from dashboard.importers.duckdb_engine import CBY, MEMORY_LIMIT, Imported, run, staged
from dashboard.importers.fields import Where, is_gzip

SAFE_ID = r"[A-Za-z0-9._~\-]{1,128}"  # common.SAFE_ID
MACROS = r"""
CREATE MACRO csv_int(t, lo, hi) AS (t IS NULL
    OR (regexp_full_match(t, '[0-9]{1,18}') AND TRY_CAST(t AS BIGINT) BETWEEN lo AND hi));
CREATE MACRO csv_key(t) AS CASE WHEN NOT contains(t, '/') THEN t ELSE py_paper_key(t) END;
CREATE MACRO csv_list(t) AS CASE WHEN t IS NULL THEN [] ELSE  -- t is collapsed: trim strips what strip() would
    list_filter(list_transform(string_split(t, ';'), lambda a: nullif(trim(a), '')), lambda a: a IS NOT NULL) END;
CREATE MACRO csv_names(t) AS CASE WHEN t IS NULL THEN [] ELSE
    list_filter(list_transform(string_split(t, ';'), lambda a: collapse(a)), lambda a: a IS NOT NULL) END;
"""
SLOW_SCHEMA = pa.schema(
    [
        ("ord", pa.int64()),
        ("wid", pa.string()),
        ("title", pa.string()),
        ("year", pa.int64()),
        ("posted", pa.string()),
        ("arxiv", pa.string()),
        ("doi", pa.string()),
        ("areas", pa.list_(pa.string())),
        ("cited_by", pa.int64()),
        ("ref_count", pa.int64()),
        ("cby", CBY),
        ("authors", pa.list_(pa.string())),
        ("venue", pa.string()),
        ("tnorm", pa.string()),
    ]
)


def plain_or_named_gzip(path: Path) -> bool:
    """DuckDB tells gzip by the name, the Python importer by the content: this path only when both agree."""
    return is_gzip(path) == path.name.endswith(".gz")


def usable(sources: list[Path]) -> bool:
    return 1 <= len(sources) <= 2 and all(p.is_file() and plain_or_named_gzip(p) for p in sources)


def _name(text: str, quote: str) -> str:
    return quote + text.replace(quote, quote * 2) + quote


def _read(path: Path, header: list[str]) -> str:
    """A read_csv of ``path`` with the Python importer's header names (stripped), every cell text."""
    cols = "{" + ", ".join(f"{_name(h, chr(39))}: 'VARCHAR'" for h in header) + "}"
    return (
        f"read_csv({_name(str(path), chr(39))}, header = true, auto_detect = false, columns = {cols}, "
        "delim = ',', quote = '\"', escape = '\"', strict_mode = true, encoding = 'utf-8')"
    )


def _col(columns: Mapping[str, str], name: str) -> str:
    """The collapsed text of a documented column (NULL when the file has no such column)."""
    column = columns.get(name)
    return "NULL::VARCHAR" if column is None else f"collapse({_name(column, chr(34))})"


def papers_sql(path: Path, header: list[str], columns: Mapping[str, str]) -> str:
    """Each papers row: its values as parse_paper_row reads them, ``fast``, and its cells when not fast."""
    c = {name: _col(columns, name) for name in PAPER_COLUMNS}
    cells = "{" + ", ".join(f"{_name(h, chr(39))}: {_name(h, chr(34))}" for h in header) + "}"
    return f"""
SELECT * EXCLUDE (cells), CASE WHEN fast THEN NULL ELSE cells END AS cells FROM (
 SELECT *, (id_text IS NOT NULL AND regexp_full_match(id_text, '{SAFE_ID}') AND title IS NOT NULL
    AND csv_int(year_text, 1, 9999) AND csv_int(cited_text, 0, 9223372036854775807)
    AND csv_int(refs_text, 0, 9223372036854775807)
    AND (posted IS NULL OR (regexp_full_match(posted, '[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}')
         AND TRY_CAST(posted AS DATE) IS NOT NULL AND left(posted, 4) <> '0000'))
    AND (doi_text IS NULL OR doi IS NOT NULL)
    AND len(list_distinct(areas)) = len(areas)) IS TRUE AS fast
 FROM (
  SELECT *, doi_clean(doi_text) AS doi, TRY_CAST(year_text AS BIGINT) AS year0, csv_list(areas_text) AS areas,
    csv_names(authors_text) AS authors
  FROM (
    SELECT {c["id"]} AS id_text, {c["title"]} AS title, {c["year"]} AS year_text, {c["posted"]} AS posted,
      {c["areas"]} AS areas_text, {c["cited_by"]} AS cited_text, {c["reference_count"]} AS refs_text,
      {c["authors"]} AS authors_text, {c["venue"]} AS venue, {c["doi"]} AS doi_text, {cells} AS cells
    FROM {_read(path, header)})))
"""


def header_of(
    path: Path, names: tuple[str, ...], mapping: Mapping[str, str], hint: str = ""
) -> tuple[list[str], dict[str, str]]:
    """The file's header and its documented columns, with the Python importer's checks and errors."""
    _, header, _ = next(read_rows(path))
    return header, resolve_columns(path, header, names, mapping, hint)


@dataclass
class CsvTables:
    """The engine's :class:`~dashboard.importers.duckdb_engine.Reader` for a papers CSV and a citations CSV."""

    papers: Path
    citations: Path | None
    mapping: dict[str, str]  # parsed --mapping (csv_tables.parse_mapping)
    macros: str = MACROS
    drops: tuple[str, ...] = ("TABLE cites",)  # not the rows: view paper reads them
    columns: dict[str, str] = field(default_factory=dict)

    @property
    def source(self) -> str:
        return self.papers.name

    @property
    def first(self) -> Path:
        return self.papers

    refs_sql: str = """
CREATE VIEW refs AS SELECT a.r AS citing, b.r AS cited
  FROM cites c LEFT JOIN keyrank a ON c.citing = a.key LEFT JOIN keyrank b ON c.cited = b.key;
"""

    def extract(self, con: Any, folder: Path) -> None:
        import duckdb

        con.create_function("py_paper_key", paper_key, ["VARCHAR"], "VARCHAR", side_effects=False)
        header, self.columns = header_of(
            self.papers, PAPER_COLUMNS, self.mapping, swapped_hint(self.papers, self.mapping)
        )
        try:
            staged(con, folder, "rows", papers_sql(self.papers, header, self.columns))
        except duckdb.Error as e:
            raise NotForDuckDB(str(e)) from e
        self._slow(con)
        if con.execute("SELECT count(*) FROM works").fetchall()[0][0] == 0:
            raise InputError(self.papers, "the papers table has no rows", line=2)
        self._citations(con)

    def _slow(self, con: Any) -> None:
        """Table ``slow``: the rows SQL did not read, read by parse_paper_row; view ``works``: every paper row,
        those SQL read (``works_bulk``, in the file's order) and the others (``works_rest``)."""
        rows = con.execute("SELECT line, cells FROM rows WHERE NOT fast ORDER BY line").fetchall()
        out: dict[str, list[Any]] = {name: [] for name in SLOW_SCHEMA.names}
        for line, cells in rows:
            try:
                rec = parse_paper_row(cells, Where(self.papers, None, line), self.columns)
            except InputError as e:
                raise locate_papers_error(self.papers, self.columns) or e from e
            values = {
                "ord": line,
                "wid": rec.id,
                "title": rec.title,
                "year": rec.year,
                "posted": rec.posted,
                "arxiv": None,
                "doi": rec.doi,
                "areas": rec.areas,
                "cited_by": rec.cited_by,
                "ref_count": rec.reference_count,
                "cby": None,
                "authors": rec.authors,
                "venue": rec.venue,
                "tnorm": normalise_title(rec.title),
            }
            for name, value in values.items():
                out[name].append(value)
        slow = pa.table(out, schema=SLOW_SCHEMA)  # noqa: F841 (read by DuckDB by name)
        con.execute("CREATE TABLE slow AS SELECT * FROM slow")
        con.execute("""CREATE VIEW works_bulk AS SELECT *, wid AS pid FROM (
            SELECT line AS ord, id_text AS wid, title,
              coalesce(year0, TRY_CAST(left(posted, 4) AS BIGINT)) AS year, posted, NULL::VARCHAR AS arxiv, doi,
              areas, TRY_CAST(cited_text AS BIGINT) AS cited_by, TRY_CAST(refs_text AS BIGINT) AS ref_count,
              NULL::STRUCT(year BIGINT, count BIGINT)[] AS cby, authors, venue, hash(title_key(title)) AS tkey
            FROM rows WHERE fast)""")
        con.execute(
            "CREATE VIEW works_rest AS SELECT *, wid AS pid FROM (SELECT * EXCLUDE (tnorm), hash(tnorm) FROM slow)"
        )
        con.execute("CREATE VIEW works AS SELECT * FROM works_bulk UNION ALL SELECT * FROM works_rest")

    def _citations(self, con: Any) -> None:
        """Table ``cites``: the citations rows as paper keys (an empty cell: the Python importer's error)."""
        import duckdb

        if self.citations is None:
            con.execute("CREATE TABLE cites (citing VARCHAR, cited VARCHAR)")
            return
        header, columns = header_of(self.citations, CITATION_COLUMNS, self.mapping)
        a, b = _col(columns, "citing"), _col(columns, "cited")
        try:
            con.execute(
                f"CREATE TABLE cites AS SELECT csv_key({a}) AS citing, csv_key({b}) AS cited "
                f"FROM {_read(self.citations, header)}"
            )
        except duckdb.Error as e:
            raise NotForDuckDB(str(e)) from e
        if con.execute("SELECT count(*) FROM cites WHERE citing IS NULL OR cited IS NULL").fetchall()[0][0]:
            raise locate_citations_error(self.citations, columns) or InputError(self.citations, "an empty cell")

    def info(self, outside: int) -> dict[str, Any]:
        return info_for([p for p in (self.papers, self.citations) if p], self.mapping, outside)


class NotForDuckDB(Exception):
    """DuckDB did not read a file as it is: the Python importer reads it (and says what is wrong, if anything)."""


def locate_papers_error(path: Path, columns: Mapping[str, str]) -> InputError | None:
    """The Python importer's error for the papers file (read again a row at a time), if it finds one."""
    rows = read_rows(path)
    next(rows)
    try:
        for line, _, row in rows:
            parse_paper_row(row, Where(path, line), columns)
    except InputError as e:
        return e
    return None


def locate_citations_error(path: Path, columns: Mapping[str, str]) -> InputError | None:
    from dashboard.importers.csv_tables import _required_cell

    rows = read_rows(path)
    next(rows)
    try:
        for line, _, row in rows:
            for name in CITATION_COLUMNS:
                _required_cell(row, columns, name, Where(path, line))
    except InputError as e:
        return e
    return None


def build(
    sources: list[Path],
    mapping: dict[str, str],
    progress: bool = True,
    workdir: Path | None = None,
    memory_limit: str = MEMORY_LIMIT,
) -> Imported:
    """The dataset of the papers CSV (and the citations CSV); :class:`NotForDuckDB` if DuckDB cannot read them
    as the Python importer does."""
    return run(
        CsvTables(sources[0], sources[1] if len(sources) > 1 else None, mapping), progress, workdir, memory_limit
    )
