"""Filling in what a source leaves out from a local id -> category table (arxiv-2023)."""

from __future__ import annotations

from pathlib import Path

from dashboard.importers import arxiv2023
from dashboard.importers.common import ARXIV_ID, DatasetBuilder, Paper, normalise_title, same_paper_by_title


def fill_from_arxiv2023(builder: DatasetBuilder, folder: Path) -> dict[str, int]:
    """Give papers without areas the primary category that arxiv-2023 has for them.

    A paper is found by its arXiv id, else by normalised title as the merge rule matches titles
    (:func:`~dashboard.dataset.keys.same_paper_by_title`: years at most two apart, ...) if one row of the table
    matches; a paper that the source knew only by title then also takes the arXiv id. Returns how many papers got
    areas and ids.
    """
    by_id: dict[str, list[str]] = {}
    by_title: dict[str, list[tuple[str, int | None, list[str]]]] = {}
    for rec in arxiv2023.read_nodes(folder):
        by_id[rec.id] = rec.areas
        by_title.setdefault(normalise_title(rec.title), []).append((rec.id, rec.year, rec.areas))
    areas_filled = ids_filled = 0
    for k in range(len(builder.papers)):
        rec = builder.record(k)
        if rec.areas:
            continue
        if rec.id and rec.id in by_id:
            rec.areas = list(by_id[rec.id])
            areas_filled += 1
            continue
        mine = Paper([i for i in (rec.id, *rec.alt_ids) if i], rec.year)
        matches = [
            m
            for m in by_title.get(normalise_title(rec.title) or "\0", [])  # no key: no match
            if same_paper_by_title(mine, Paper([m[0]], m[1]))
        ]
        if len(matches) != 1:
            continue
        other_id, _, areas = matches[0]
        rec.areas = list(areas)
        areas_filled += 1
        if rec.id is None and ARXIV_ID.match(other_id) and builder.find(other_id) is None:
            rec.id = other_id
            builder.by_id[other_id] = k
            ids_filled += 1
    return {"areas_filled": areas_filled, "ids_filled": ids_filled}
