"""Importers: each turns one kind of source into a dataset folder (see :mod:`dashboard.dataset`).

``run_import(format, sources, out)`` is what ``citemap import`` calls. Each format module has a
``build(sources, **options, builder=None) -> (DatasetBuilder, info)``; this module turns the builder
into tables, adds the summary and the command line to the metadata, and writes the folder atomically.
``merge`` (``citemap import ... --merge FORMAT:PATH``) adds more sources to the same builder after the
first: papers they share are merged, the first source's facts win, every paper lists its sources.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dashboard.dataset.names import read_names
from dashboard.dataset.write import write_dataset, write_streamed
from dashboard.importers.common import DatasetBuilder, InputError, expand_sources, for_source


def _mlsanity(
    sources: list[Path], areas_from: Path | None = None, builder: DatasetBuilder | None = None, **_: Any
) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import mlsanity

    pages = [mlsanity.parse_page(p) for p in sorted(sources)]
    builder = for_source(builder, mlsanity.SOURCE)
    mlsanity.add_pages(builder, pages)
    info: dict[str, Any] = {
        "name": "mlsanity seed pages",
        "source": "saved mlsanity.com paper pages: " + ", ".join(p.path.name for p in pages),
        "seeds": [p.paper.id for p in pages],
        "data_through": sorted({p.data_through for p in pages if p.data_through}),
        "notes": [
            "cited_by is the site's own figure (citations anywhere) where a page gives it; citations "
            "inside this dataset are counted apart"
        ],
    }
    if areas_from is not None:
        from dashboard.importers.enrich import fill_from_arxiv2023

        filled = fill_from_arxiv2023(builder, areas_from)
        info["enriched"] = filled
        info["notes"].append(
            f"areas of {filled['areas_filled']} papers (and arXiv ids of {filled['ids_filled']} "
            f"papers listed by title only) filled from the arxiv-2023 table ({areas_from.name})"
        )
    return builder, info


def _arxiv2023(
    sources: list[Path],
    meta: Path | None = None,
    progress: bool = True,
    builder: DatasetBuilder | None = None,
    **_: Any,
) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import arxiv2023

    return arxiv2023.build(sources, meta=meta, progress=progress, builder=builder)


def _openalex(
    sources: list[Path], progress: bool = True, builder: DatasetBuilder | None = None, **_: Any
) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import openalex

    return openalex.build(sources, progress=progress, builder=builder)


def _s2(
    sources: list[Path], progress: bool = True, builder: DatasetBuilder | None = None, **_: Any
) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import s2

    return s2.build(sources, progress=progress, builder=builder)


def _csv(
    sources: list[Path],
    mapping: str | None = None,
    progress: bool = True,
    builder: DatasetBuilder | None = None,
    **_: Any,
) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import csv_tables

    return csv_tables.build(sources, mapping=mapping, progress=progress, builder=builder)


FORMATS: dict[str, Callable[..., tuple[DatasetBuilder, dict]]] = {
    "mlsanity": _mlsanity,
    "arxiv2023": _arxiv2023,
    "openalex": _openalex,
    "s2": _s2,
    "csv": _csv,
}


def parse_merge(text: str) -> tuple[str, list[Path]]:
    """``arxiv2023:data/arxiv-2023`` -> (format, [path]) for ``--merge``."""
    fmt, sep, path = text.partition(":")
    if not sep or not path:
        raise InputError("--merge", f"expected FORMAT:PATH, found {text!r}")
    if fmt not in FORMATS:
        raise InputError("--merge", f"unknown format {fmt!r}; known: {', '.join(sorted(FORMATS))}")
    return fmt, [Path(path)]


def merge_info(first: dict[str, Any], others: list[dict[str, Any]]) -> dict[str, Any]:
    """The metadata of a merged dataset: the first source's (its seeds, its name first), the others' added."""
    if not others:
        return first
    info = {**first, "name": " + ".join([first.get("name", "?"), *(o.get("name", "?") for o in others)])}
    info["source"] = "; ".join([first.get("source", "?"), *(o.get("source", "?") for o in others)])
    info["notes"] = [*first.get("notes", []), *(n for o in others for n in o.get("notes", []))]
    info["notes"].append(
        "sources merged in this order; where two describe the same paper (a shared id or DOI, or the same title "
        "with years at most two apart, or any years for two arXiv papers), the earlier one's facts win and missing "
        "ones are filled in"
    )
    return info


ExtraMeta = dict[str, Any] | Callable[[DatasetBuilder], dict[str, Any]]


def use_duckdb(fmt: str, paths: list[Path], engine: str, needs_builder: bool) -> bool:
    """Whether the sources go through the DuckDB engine (:mod:`~dashboard.importers.duckdb_engine`): OpenAlex
    JSON Lines and CSV tables, when no merge or builder-reading ``extra_meta`` needs the Python builder (engine
    auto: and the files are ones it reads; duckdb: always, or an error)."""
    if engine not in ("auto", "duckdb", "python"):
        raise InputError("--engine", f"unknown engine {engine!r}; known: auto, duckdb, python")
    if fmt not in ("openalex", "csv") or engine == "python":
        if engine == "duckdb":
            raise InputError("--engine", f"duckdb imports openalex and csv sources, not {fmt}")
        return False
    if engine == "duckdb":
        if needs_builder:
            raise InputError("--engine", "duckdb imports its sources alone (no --merge)")
        return True
    from dashboard.importers import csv_duckdb, openalex_duckdb

    return not needs_builder and (openalex_duckdb if fmt == "openalex" else csv_duckdb).usable(paths)


def duckdb_reader(fmt: str, paths: list[Path], options: dict[str, Any]) -> Any:
    """The :class:`~dashboard.importers.duckdb_engine.Reader` of the sources, or None when the Python importer
    is to say why they cannot be read."""
    from dashboard.importers import csv_duckdb, openalex_duckdb
    from dashboard.importers.csv_tables import parse_mapping

    if fmt == "openalex":
        return openalex_duckdb.OpenAlexLines(openalex_duckdb.source_files(paths))
    if not 1 <= len(paths) <= 2:
        return None
    return csv_duckdb.CsvTables(paths[0], paths[1] if len(paths) > 1 else None, parse_mapping(options.get("mapping")))


def run_import(
    fmt: str,
    sources: list[str | Path],
    out: str | Path,
    *,
    argv: list[str] | None = None,
    merge: list[tuple[str, list[Path]]] = (),
    extra_meta: ExtraMeta | None = None,
    names: str | Path | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Build a dataset from ``sources`` (and the ``merge`` sources after them, into the same papers) and write
    it to ``out``; returns the summary. ``extra_meta`` (a dict, or a function of the built builder, e.g. to
    name the dataset ids of seeds) is added to ``dataset.json`` over the importer's own keys
    (``citemap fetch`` records its query there). ``names``: a table of the papers' common names
    (:mod:`~dashboard.dataset.names`), read before the sources and kept in the build's search index."""
    if fmt not in FORMATS:
        raise InputError(fmt, f"unknown format; known: {', '.join(sorted(FORMATS))}")
    named = read_names(names) if names is not None else None  # a wrong line: said before the long part
    paths = expand_sources(sources)
    merged = [(other, expand_sources(other_paths)) for other, other_paths in merge]
    engine = options.pop("engine", "auto")
    memory = options.pop("memory_limit", None)
    command = argv if argv is not None else ["citemap", *sys.argv[1:]]
    if use_duckdb(fmt, paths, engine, bool(merged) or callable(extra_meta)):
        from dashboard.importers import csv_duckdb, duckdb_engine

        try:
            reader = duckdb_reader(fmt, paths, options)
            if reader is not None:
                with duckdb_engine.streamed(
                    reader, progress=options.get("progress", True), memory_limit=memory or duckdb_engine.MEMORY_LIMIT
                ) as imported:
                    write_streamed(
                        out,
                        imported,
                        {
                            **imported.info,
                            **(extra_meta or {}),
                            "format_in": fmt,
                            "engine": "duckdb",
                            "built_with": shlex.join(command),
                            "summary": imported.summary,
                        },
                        named,
                    )
                summary = imported.summary
                _field_map(out, options.get("progress", True))
                return summary
        except csv_duckdb.NotForDuckDB:
            pass  # a CSV file DuckDB does not read as the Python importer does: that importer reads it
    builder, info = FORMATS[fmt](paths, **options)
    others = []
    for other, other_paths in merged:
        builder, other_info = FORMATS[other](other_paths, **options, builder=builder)
        others.append(other_info)
    info = merge_info(info, others)
    papers, citations, summary = builder.build()
    extra = extra_meta(builder) if callable(extra_meta) else (extra_meta or {})
    meta = {
        **info,
        **extra,
        "format_in": fmt,
        "engine": "python",
        "built_with": shlex.join(command),
        "summary": summary,
    }
    write_dataset(out, papers, citations, meta, named)
    del papers, citations, builder
    _field_map(out, options.get("progress", True))
    return summary


def _field_map(out: str | Path, progress: bool) -> None:
    """The published build's field map, made once the build is served (:mod:`~dashboard.importers.field_map`)."""
    from dashboard.importers import field_map

    if progress:
        print(f"citemap: {out} is served; making its field map (the field view shows its progress)", file=sys.stderr)
    field_map.make(out, progress=progress)
