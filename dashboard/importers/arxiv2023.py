"""Importer for the ``arxiv-2023`` citation graph (gzipped CSV: ids, titles, labels, edges).

Row i of ``ids.csv.gz`` / ``titles.csv.gz`` / ``labels.csv.gz`` describes node i; ``edges.csv.gz`` has
``source,target`` rows (node ``source`` cites node ``target``). An id is an arXiv id (``2304.07638``,
year from the id) or an ogbn-arxiv node index (``162972``: id ``ogbn-162972``, year from
``ogbn-arxiv-meta/node_year.csv.gz`` found beside the folder, or given with ``--meta``).
The primary arXiv category is the paper's area. Citation counts are counts inside the graph.
"""

from __future__ import annotations

import csv
import gzip
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

from tqdm import tqdm

from dashboard.importers.common import DatasetBuilder, InputError, PaperRecord, for_source

NEW_ID = re.compile(r"^(\d{2})(\d{2})\.\d{4,5}$")
OLD_ID = re.compile(r"^[a-z\-]+(?:\.[A-Z]{2})?/(\d{2})\d{5}$")
OGBN_ID = re.compile(r"^\d+$")
FILES = ("ids.csv.gz", "titles.csv.gz", "labels.csv.gz", "edges.csv.gz")


def arxiv_year(arxiv_id: str) -> int | None:
    """Year of an arXiv id: ``2010.07922`` -> 2020, ``cs/9901001`` -> 1999."""
    if m := NEW_ID.match(arxiv_id):
        return 2000 + int(m[1])
    if m := OLD_ID.match(arxiv_id):
        yy = int(m[1])
        return 1900 + yy if yy >= 91 else 2000 + yy
    return None


def read_csv_rows(path: Path, columns: list[str]) -> Iterator[tuple[int, list[str]]]:
    """(line number, row) of a gzipped or plain CSV whose header must be ``columns``."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8", newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise InputError(path, "file is empty", line=1)
            if [h.strip() for h in header] != columns:
                raise InputError(path, f"header is {header}, expected {columns}", line=1, field="header")
            for row in reader:
                if len(row) != len(columns):
                    raise InputError(
                        path,
                        f"expected {len(columns)} values, found {len(row)}",
                        line=reader.line_num,
                        field=columns[min(len(row), len(columns) - 1)],
                    )
                yield reader.line_num, row
    except (EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise InputError(path, f"file is truncated or not valid gzip ({e})") from e
    except UnicodeDecodeError as e:
        raise InputError(path, f"not UTF-8 text ({e.reason})") from e
    except csv.Error as e:
        raise InputError(path, f"malformed CSV ({e})") from e


def read_column(path: Path, column: str) -> list[str]:
    return [row[0] for _, row in read_csv_rows(path, [column])]


def read_years(meta: Path | None) -> list[int] | None:
    """ogbn-arxiv node years (row k = node k), or None if the meta folder is not there."""
    if meta is None:
        return None
    path = meta / "node_year.csv.gz"
    if not path.is_file():
        raise InputError(path, "missing: needed for the years of ogbn-arxiv nodes")
    years: list[int] = []
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt") as f:
            for no, line in enumerate(f, start=1):
                try:
                    years.append(int(line.strip()))
                except ValueError as e:
                    raise InputError(path, f"not a year: {line.strip()!r}", line=no, field="year") from e
    except (EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise InputError(path, f"file is truncated or not valid gzip ({e})") from e
    return years


def find_meta(folder: Path) -> Path | None:
    candidate = folder.parent / "ogbn-arxiv-meta"
    return candidate if candidate.is_dir() else None


def read_nodes(folder: Path, meta: Path | None = None) -> list[PaperRecord]:
    """The papers of an arxiv-2023 folder, in node order."""
    for name in FILES[:3]:
        if not (folder / name).is_file():
            raise InputError(folder / name, "missing (an arxiv-2023 folder holds " + ", ".join(FILES) + ")")
    ids = read_column(folder / "ids.csv.gz", "ids")
    titles = read_column(folder / "titles.csv.gz", "titles")
    labels = read_column(folder / "labels.csv.gz", "labels")
    for name, col in (("titles.csv.gz", titles), ("labels.csv.gz", labels)):
        if len(col) != len(ids):
            raise InputError(
                folder / name, f"has {len(col)} rows, ids.csv.gz has {len(ids)}", line=min(len(col), len(ids)) + 2
            )
    years = read_years(meta or find_meta(folder))
    records = []
    for i, (raw_id, title, label) in enumerate(zip(ids, titles, labels, strict=True)):
        raw_id = raw_id.strip()
        line = i + 2
        if not title.strip():
            raise InputError(folder / "titles.csv.gz", "empty title", line=line, field="titles")
        if OGBN_ID.match(raw_id):
            node = int(raw_id)
            year = years[node] if years is not None and node < len(years) else None
            rec = PaperRecord(title=title, id=f"ogbn-{node}", year=year)
        elif (year := arxiv_year(raw_id)) is not None:
            rec = PaperRecord(title=title, id=raw_id.replace("/", "_"), year=year)
        else:
            raise InputError(
                folder / "ids.csv.gz", f"not an arXiv id or ogbn index: {raw_id!r}", line=line, field="ids"
            )
        if label.strip():
            rec.areas = [label.strip()]
        records.append(rec)
    return records


def build(
    sources: list[Path], meta: Path | None = None, progress: bool = True, builder: DatasetBuilder | None = None
) -> tuple[DatasetBuilder, dict]:
    if len(sources) != 1 or not sources[0].is_dir():
        raise InputError(sources[0] if sources else "arxiv2023", "give the arxiv-2023 folder as the one source")
    folder = sources[0]
    builder = for_source(builder, "arxiv-2023")
    records = read_nodes(folder, meta)
    keys = [builder.add(rec) for rec in records]
    n = len(keys)
    edges_path = folder / "edges.csv.gz"
    if not edges_path.is_file():
        raise InputError(edges_path, "missing")
    rows = read_csv_rows(edges_path, ["source", "target"])
    for line, (s, t) in tqdm(rows, desc="edges", unit=" edges", disable=not progress, mininterval=0.5):
        try:
            a, b = int(s), int(t)
        except ValueError as e:
            raise InputError(
                edges_path,
                f"node index is not a number: {s!r},{t!r}",
                line=line,
                field="source" if not s.strip().isdigit() else "target",
            ) from e
        for name, v in (("source", a), ("target", b)):
            if not 0 <= v < n:
                raise InputError(edges_path, f"node {v} is not in ids.csv.gz ({n} nodes)", line=line, field=name)
        builder.cite(keys[a], keys[b])
    info = {
        "name": folder.name,
        "source": str(folder),
        "notes": ["citation counts count citations inside this graph only", "areas are primary arXiv categories"],
    }
    return builder, info
