"""The citemap dataset format: a folder that importers write and the store reads.

A dataset is a folder with:

``papers.parquet`` - one row a paper:

=====================  ==============================  ==============================================
column                 type                            meaning
=====================  ==============================  ==============================================
``id``                 string, unique, URL-safe        arXiv id where known (``2106.03764``), else a
                                                       source id (``W2741809807``) or ``t-`` + a hash
                                                       of the normalised title
``title``              string                          title as the source gives it
``year``               int16, null if unknown          publication / first-posted year
``posted``             string ``YYYY-MM-DD`` or null   first-posted date where known
``areas``              list<string>                    subject areas (arXiv categories, fields);
                                                       empty list = unknown
``cited_by``           int64 or null                   citation count as the source reports it (its
                                                       own, global figure; never a count of this data)
``cited_by_from``      string or null                  the source that reported ``cited_by``
``reference_count``    int64 or null                   reference count as the source reports it
``citations_by_year``  list<struct<year, count>>       citations per year as the source gives them
``authors``            list<string>                    author names in order; empty = not known
``venue``              string or null                  journal, conference or repository name
``doi``                string or null                  DOI, lower case, without ``https://doi.org/``
``sources``            list<string>                    the sources that describe this paper
``alt_ids``            list<string>                    other ids that name this paper in its sources
                                                       (the OpenAlex ``W`` id or Semantic Scholar
                                                       paperId of a paper whose ``id`` is its arXiv
                                                       id); the ids of the records merged into it
                                                       (an ogbn node's ``ogbn-N``; for a record
                                                       known by title alone, the ``t-`` id it would
                                                       have had); a link or search for one finds
                                                       the paper. Optional when read: a build
                                                       written without it has none
=====================  ==============================  ==============================================

Each paper is one paper: importers merge the records that describe the same one (a shared id or DOI; the same
normalised title with nearby years; :func:`~dashboard.dataset.keys.same_paper_by_title`), and ``citemap info``
counts the papers that still share a title and why (:mod:`dashboard.dataset.duplicates`).

``citations.parquet`` - one row a citation edge between two papers of the dataset: ``citing`` cites
``cited`` (both ``id`` values). No self-loops, no duplicates; edges with an end outside the dataset
are kept only as counts (``cited_by`` / ``reference_count``).

``dataset.json`` - name, source, the command that built it, counts, notes, the importer's summary, each other
file's size and checksum (``files``), and last a checksum of its own other fields (``meta_checksum``; see
:mod:`dashboard.dataset.integrity`).

``index/`` - derived files the store memory-maps (see :mod:`dashboard.dataset.index`); the importer writes
them; a store refuses a build whose index is missing or stale, naming the command that rebuilds it.

These files make one *build*. A dataset folder holds its builds in ``builds/`` and a ``current`` link to the
one served (:mod:`dashboard.dataset.builds`): an import writes a new build beside the others, in a temporary folder
renamed into place, and only then moves the link, so a failed import leaves the served build untouched and a
running server never sees its files change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from dashboard.dataset import builds
from dashboard.errors import DatasetError

FORMAT_NAME = "citemap-dataset"
FORMAT_VERSION = 1
PAPERS_FILE = "papers.parquet"
CITATIONS_FILE = "citations.parquet"
META_FILE = "dataset.json"

CBY_TYPE = pa.list_(pa.struct([("year", pa.int16()), ("count", pa.int32())]))
PAPERS_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("title", pa.string()),
        ("year", pa.int16()),
        ("posted", pa.string()),
        ("areas", pa.list_(pa.string())),
        ("cited_by", pa.int64()),
        ("reference_count", pa.int64()),
        ("citations_by_year", CBY_TYPE),
        ("cited_by_from", pa.string()),
        ("authors", pa.list_(pa.string())),
        ("venue", pa.string()),
        ("doi", pa.string()),
        ("sources", pa.list_(pa.string())),
        ("alt_ids", pa.list_(pa.string())),
    ]
)
OPTIONAL_COLUMNS = ("alt_ids",)  # columns a papers table written by an older citemap lacks: read as empty lists
CITATIONS_SCHEMA = pa.schema([("citing", pa.string()), ("cited", pa.string())])


def papers_table(columns: dict[str, list[Any]]) -> pa.Table:
    """A papers table with the dataset schema from plain Python column lists."""
    return pa.table(
        {name: pa.array(columns[name], type=PAPERS_SCHEMA.field(name).type) for name in PAPERS_SCHEMA.names},
        schema=PAPERS_SCHEMA,
    )


def citations_table(citing: list[str] | pa.Array, cited: list[str] | pa.Array) -> pa.Table:
    return pa.table(
        {"citing": pa.array(citing, pa.string()), "cited": pa.array(cited, pa.string())}, schema=CITATIONS_SCHEMA
    )


def read_meta(folder: str | Path) -> dict[str, Any]:
    """The ``dataset.json`` of the build ``folder`` serves (``folder`` itself if it is a build)."""
    folder = Path(folder)
    if folder.is_dir():
        folder = builds.served(folder)
    path = folder / META_FILE
    if not folder.is_dir():
        raise DatasetError(f"{folder}: no such dataset folder")
    if not path.is_file():
        raise DatasetError(f"{path}: missing (a dataset folder needs {META_FILE}, {PAPERS_FILE}, {CITATIONS_FILE})")
    try:
        meta = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        line = getattr(e, "lineno", "?")
        raise DatasetError(f"{path}, line {line}: not valid JSON ({e})") from e
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_NAME:
        raise DatasetError(f"{path}: field 'format' must be {FORMAT_NAME!r}")
    if meta.get("version") != FORMAT_VERSION:
        raise DatasetError(f"{path}: field 'version' is {meta.get('version')!r}, this citemap reads {FORMAT_VERSION}")
    return meta


def read_tables(folder: str | Path) -> tuple[pa.Table, pa.Table]:
    """Read and check both tables of the build ``folder`` serves; errors name the file."""
    folder = Path(folder)
    if folder.is_dir():
        folder = builds.served(folder)
    tables = []
    for name, schema in ((PAPERS_FILE, PAPERS_SCHEMA), (CITATIONS_FILE, CITATIONS_SCHEMA)):
        path = folder / name
        if not path.is_file():
            raise DatasetError(f"{path}: missing")
        try:
            table = pq.read_table(path)
        except (pa.ArrowException, OSError) as e:
            raise DatasetError(f"{path}: cannot be read as Parquet ({e})") from e
        for column in OPTIONAL_COLUMNS if schema is PAPERS_SCHEMA else ():
            if column not in table.schema.names:
                table = table.append_column(column, pa.array([[]] * table.num_rows, schema.field(column).type))
        missing = [f.name for f in schema if f.name not in table.schema.names]
        if missing:
            raise DatasetError(f"{path}: missing column(s) {', '.join(missing)}")
        try:
            table = table.select(schema.names).cast(schema)
        except (pa.ArrowException, ValueError) as e:
            raise DatasetError(f"{path}: a column has the wrong type ({e})") from e
        tables.append(table)
    return tables[0], tables[1]
