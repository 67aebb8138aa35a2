"""Importers: each turns one kind of source into a dataset folder (see :mod:`dashboard.dataset`).

``run_import(format, sources, out)`` is what ``citemap import`` calls. Each format module has a
``build(sources, **options) -> (DatasetBuilder, info)``; this module turns the builder into tables,
adds the summary and the command line to the metadata, and writes the folder atomically.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dashboard.dataset import write_dataset
from dashboard.importers.common import DatasetBuilder, InputError, expand_sources


def _mlsanity(sources: list[Path], areas_from: Path | None = None, **_: Any) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import mlsanity

    pages = [mlsanity.parse_page(p) for p in sorted(sources)]
    builder = DatasetBuilder()
    mlsanity.add_pages(builder, pages)
    info: dict[str, Any] = {
        "name": "mlsanity seed pages",
        "source": "saved mlsanity.com paper pages: " + ", ".join(p.path.name for p in pages),
        "seeds": [p.paper.id for p in pages],
        "data_through": sorted({p.data_through for p in pages if p.data_through}),
        "notes": ["cited_by is the site's figure where a page gives it; list entries without a figure "
                  "count only citations inside this dataset"],
    }
    if areas_from is not None:
        from dashboard.importers.enrich import fill_from_arxiv2023

        filled = fill_from_arxiv2023(builder, areas_from)
        info["enriched"] = filled
        info["notes"].append(f"areas of {filled['areas_filled']} papers (and arXiv ids of {filled['ids_filled']} "
                             f"papers listed by title only) filled from the arxiv-2023 table ({areas_from.name})")
    return builder, info


def _arxiv2023(sources: list[Path], meta: Path | None = None, progress: bool = True,
               **_: Any) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import arxiv2023

    return arxiv2023.build(sources, meta=meta, progress=progress)


def _openalex(sources: list[Path], progress: bool = True, **_: Any) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import openalex

    return openalex.build(sources, progress=progress)


def _s2(sources: list[Path], progress: bool = True, **_: Any) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import s2

    return s2.build(sources, progress=progress)


def _csv(sources: list[Path], mapping: str | None = None, progress: bool = True,
         **_: Any) -> tuple[DatasetBuilder, dict]:
    from dashboard.importers import csv_tables

    return csv_tables.build(sources, mapping=mapping, progress=progress)


FORMATS: dict[str, Callable[..., tuple[DatasetBuilder, dict]]] = {
    "mlsanity": _mlsanity,
    "arxiv2023": _arxiv2023,
    "openalex": _openalex,
    "s2": _s2,
    "csv": _csv,
}


def run_import(fmt: str, sources: list[str | Path], out: str | Path, *, argv: list[str] | None = None,
               **options: Any) -> dict[str, Any]:
    """Build a dataset from ``sources`` and write it to ``out``; returns the summary."""
    if fmt not in FORMATS:
        raise InputError(fmt, f"unknown format; known: {', '.join(sorted(FORMATS))}")
    paths = expand_sources(sources)
    builder, info = FORMATS[fmt](paths, **options)
    papers, citations, summary = builder.build()
    command = argv if argv is not None else ["citemap", *sys.argv[1:]]
    meta = {**info, "format_in": fmt, "built_with": shlex.join(command), "summary": summary}
    write_dataset(out, papers, citations, meta)
    return summary
