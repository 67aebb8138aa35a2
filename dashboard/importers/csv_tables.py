"""Importer for two CSV tables: papers, and citations between them.

``citemap import csv PAPERS.csv [CITATIONS.csv] --out DIR``: the first source is the papers table, the
second (optional) the citations table. Files are UTF-8 (a byte-order mark is fine), plain or gzipped,
with a header row; columns not listed below are ignored.

Papers columns (only ``id`` and ``title`` are required; empty cells mean "unknown"):

===================  =======================================================================
``id``               paper id: letters, digits and ``._~-`` (an old-style arXiv id such as
                     ``cs/9901001`` is stored as ``cs_9901001``)
``title``            title
``year``             year (if empty, taken from ``posted``)
``areas``            subject areas separated by ``;`` (``cs.LG; stat.ML``)
``cited_by``         citation count as the source reports it (``1,234`` is read as 1234)
``reference_count``  reference count as the source reports it
``posted``           first-posted date ``YYYY-MM-DD``
``authors``          author names separated by ``;`` (``Ada Lovelace; Alan Turing``)
``venue``            journal, conference or repository name
``doi``              DOI (``10.1000/xyz``, or as a ``https://doi.org/`` link)
===================  =======================================================================

Citations columns (both required): ``citing`` (the paper that cites) and ``cited`` (the paper it
cites), as ids of the papers table. A row whose citing or cited paper is not in the papers table is
only counted (``edges_outside``); self-citations and repeated rows are dropped and counted.

Column mapping: ``--mapping NAME=COLUMN,...`` reads the documented column ``NAME`` from the file's
column ``COLUMN``, e.g. ``--mapping id=paper_id,title=name,citing=source,cited=target``. Names are
the ones in the tables above; a column named in a mapping must exist in the file. Column names in a
mapping cannot contain ``,`` or ``=``.

Errors name the file, the line, and the column.
"""

from __future__ import annotations

import csv
import gzip
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tqdm import tqdm

from dashboard.importers.common import (
    DatasetBuilder,
    InputError,
    PaperRecord,
    clean_doi,
    clean_id,
    clean_names,
    for_source,
    parse_int,
)
from dashboard.importers.fields import (
    ARXIV_BARE,
    INT64_MAX,
    YEAR_MAX,
    YEAR_MIN,
    Where,
    dedupe,
    open_text,
    opt_date,
    opt_text,
)

PAPER_COLUMNS = ("id", "title", "year", "areas", "cited_by", "reference_count", "posted", "authors", "venue", "doi")
CITATION_COLUMNS = ("citing", "cited")
REQUIRED = frozenset({"id", "title", "citing", "cited"})
DEFAULT_COLUMNS: dict[str, str] = {name: name for name in PAPER_COLUMNS + CITATION_COLUMNS}
AREA_SEPARATOR = ";"


def parse_mapping(text: str | None) -> dict[str, str]:
    """``id=paper_id,title=name`` -> ``{"id": "paper_id", "title": "name"}``; unknown names are errors."""
    mapping: dict[str, str] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, sep, column = (s.strip() for s in part.partition("="))
        if not sep or not name or not column:
            raise InputError("--mapping", f"expected NAME=COLUMN, found {part.strip()!r}")
        if name not in DEFAULT_COLUMNS:
            raise InputError("--mapping", f"unknown column name; known: {', '.join(DEFAULT_COLUMNS)}", field=name)
        if name in mapping:
            raise InputError("--mapping", "mapped twice", field=name)
        mapping[name] = column
    return mapping


def paper_key(text: str) -> str:
    """An id as the dataset stores it: old-style arXiv ids lose their ``/``."""
    return text.replace("/", "_") if ARXIV_BARE.match(text) else text


def _cell(row: Mapping[str, Any], columns: Mapping[str, str], name: str, where: Where) -> str | None:
    column = columns.get(name)
    return None if column is None else opt_text(row.get(column), where, column)


def _int_cell(
    row: Mapping[str, Any], columns: Mapping[str, str], name: str, where: Where, lo: int = 0, hi: int = INT64_MAX
) -> int | None:
    text = _cell(row, columns, name, where)
    if text is None:
        return None
    try:
        value = parse_int(text)
    except ValueError as e:
        raise where.error(f"not a whole number: {text[:40]!r}", columns[name]) from e
    if not lo <= value <= hi:
        raise where.error(f"{value} is out of range ({lo}..{hi})", columns[name])
    return value


def _required_cell(row: Mapping[str, Any], columns: Mapping[str, str], name: str, where: Where) -> str:
    text = _cell(row, columns, name, where)
    if text is None:
        raise where.error("empty (required)", columns.get(name, name))
    return text


def _id_cell(row: Mapping[str, Any], columns: Mapping[str, str], name: str, where: Where) -> str:
    text = _required_cell(row, columns, name, where)
    pid = clean_id(paper_key(text))
    if pid is None:
        raise where.error(f"not a usable paper id (letters, digits and ._~- only): {text[:60]!r}", columns[name])
    return pid


def parse_paper_row(row: Mapping[str, Any], where: Where, columns: Mapping[str, str] = DEFAULT_COLUMNS) -> PaperRecord:
    """One row of the papers table (header name -> cell text) as a paper record."""
    if not isinstance(row, Mapping):
        raise where.error(f"expected a row, found {type(row).__name__}")
    pid = _id_cell(row, columns, "id", where)
    title = _required_cell(row, columns, "title", where)
    posted = opt_date(_cell(row, columns, "posted", where), where, columns.get("posted", "posted"))
    year = _int_cell(row, columns, "year", where, YEAR_MIN, YEAR_MAX)
    areas = (_cell(row, columns, "areas", where) or "").split(AREA_SEPARATOR)
    doi_text = _cell(row, columns, "doi", where)
    doi = clean_doi(doi_text)
    if doi_text is not None and doi is None:
        raise where.error(f"not a DOI (10.NNNN/...): {doi_text[:60]!r}", columns["doi"])
    return PaperRecord(
        title=title,
        id=pid,
        year=year if year is not None else (int(posted[:4]) if posted else None),
        posted=posted,
        areas=dedupe([a.strip() for a in areas if a.strip()]),
        cited_by=_int_cell(row, columns, "cited_by", where),
        reference_count=_int_cell(row, columns, "reference_count", where),
        authors=clean_names((_cell(row, columns, "authors", where) or "").split(AREA_SEPARATOR)),
        venue=_cell(row, columns, "venue", where),
        doi=doi,
    )


def read_rows(path: Path) -> Iterator[tuple[int, list[str], dict[str, str]]]:
    """``(line, header, row)`` of each non-blank data row; the first yield has line 1 and no row."""
    if path.is_dir():
        raise InputError(path, "is a folder; expected a CSV file")
    line = 0
    try:
        with open_text(path, "utf-8-sig") as f:
            reader = csv.reader(f, strict=True)
            header = [h.strip() for h in next(reader, [])]
            if not any(header):
                raise InputError(path, "file is empty or has no header", line=1)
            yield 1, header, {}
            for values in reader:
                line = reader.line_num
                if not values or (len(values) == 1 and not values[0].strip()):
                    continue
                if len(values) != len(header):
                    raise InputError(
                        path,
                        f"expected {len(header)} values (as in the header), found {len(values)}",
                        line=line,
                        field=header[min(len(values), len(header) - 1)],
                    )
                yield line, header, dict(zip(header, values, strict=True))
    except (EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise InputError(path, f"file is truncated or not valid gzip ({e})", line=line + 1) from e
    except UnicodeDecodeError as e:
        raise InputError(path, f"not UTF-8 text ({e.reason})", line=line + 1) from e
    except csv.Error as e:
        raise InputError(path, f"malformed CSV, the file may be truncated ({e})", line=line + 1) from e
    except OSError as e:
        raise InputError(path, f"cannot be read ({e.strerror or e})") from e


def resolve_columns(
    path: Path, header: list[str], names: tuple[str, ...], mapping: Mapping[str, str], hint: str = ""
) -> dict[str, str]:
    """Documented name -> file column, for the columns present; missing required or mapped ones are errors."""
    dup = sorted({h for h in header if h and header.count(h) > 1})
    if dup:
        raise InputError(path, f"column(s) {', '.join(dup)} appear more than once in the header", line=1, field=dup[0])
    columns: dict[str, str] = {}
    for name in names:
        column = mapping.get(name, name)
        if column in header:
            columns[name] = column
        elif name in REQUIRED or name in mapping:
            how = "" if name in mapping else f"; name it with --mapping {name}=COLUMN"
            raise InputError(path, f"no column {column!r} in the header {header}{how}{hint}", line=1, field=column)
    return columns


def swapped_hint(path: Path, mapping: Mapping[str, str]) -> str:
    """What to add to a missing-column error when the papers file looks like a citations table."""
    _, header, _ = next(read_rows(path))
    looks_swapped = all(mapping.get(n, n) in header for n in CITATION_COLUMNS)
    return " (this looks like a citations table: give the papers table first)" if looks_swapped else ""


def read_papers(builder: DatasetBuilder, path: Path, mapping: Mapping[str, str], progress: bool) -> int:
    rows = read_rows(path)
    _, header, _ = next(rows)
    columns = resolve_columns(path, header, PAPER_COLUMNS, mapping, swapped_hint(path, mapping))
    n = 0
    for line, _, row in tqdm(rows, desc=path.name, unit=" rows", disable=not progress, mininterval=0.5):
        builder.add(parse_paper_row(row, Where(path, line), columns), authoritative=True)
        n += 1
    if not n:
        raise InputError(path, "the papers table has no rows", line=2)
    return n


def read_citations(builder: DatasetBuilder, path: Path, mapping: Mapping[str, str], progress: bool) -> int:
    """Add the edges between known papers; returns the number of rows with an end outside the papers."""
    rows = read_rows(path)
    _, header, _ = next(rows)
    columns = resolve_columns(path, header, CITATION_COLUMNS, mapping)
    outside = 0
    for line, _, row in tqdm(rows, desc=path.name, unit=" rows", disable=not progress, mininterval=0.5):
        where = Where(path, line)
        citing, cited = (
            builder.find(paper_key(_required_cell(row, columns, name, where))) for name in CITATION_COLUMNS
        )
        if citing is None or cited is None:
            outside += 1
        else:
            builder.cite(citing, cited)
    builder.cite_outside(outside)
    return outside


def build(
    sources: list[Path], mapping: str | None = None, progress: bool = True, builder: DatasetBuilder | None = None
) -> tuple[DatasetBuilder, dict[str, Any]]:
    if not 1 <= len(sources) <= 2:
        raise InputError(
            sources[2] if len(sources) > 2 else "csv",
            "give the papers CSV and, optionally, the citations CSV (two sources at most)",
        )
    columns = parse_mapping(mapping)
    builder = for_source(builder, sources[0].name)
    read_papers(builder, sources[0], columns, progress)
    outside = read_citations(builder, sources[1], columns, progress) if len(sources) == 2 else 0
    info = info_for(sources, columns, outside)
    return builder, info


def info_for(sources: list[Path], columns: Mapping[str, str], outside: int) -> dict[str, Any]:
    """The metadata of a dataset imported from these tables, ``outside`` citation rows with an end elsewhere."""
    notes = ["cited_by and reference_count are the table's figures where given"]
    if len(sources) == 2:
        notes.append(f"citation rows with an end outside the papers table are kept only as counts: {outside:,}")
    else:
        notes.append("no citations table given: the dataset has no edges")
    if columns:
        notes.append("column mapping: " + ", ".join(f"{k}={v}" for k, v in columns.items()))
    return {
        "name": f"CSV tables ({', '.join(p.name for p in sources)})",
        "source": "CSV tables: " + ", ".join(str(p) for p in sources),
        "notes": notes,
    }
