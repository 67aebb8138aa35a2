"""Papers of a dataset that share a title once case and punctuation are set aside (:func:`~dashboard.dataset.keys.
normalise_title`), and whether the importers' merge rule (:func:`~dashboard.dataset.keys.same_paper_by_title`) keeps
them apart: what ``citemap info`` reports of a build, read from its papers, not from what the import says it did."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dashboard.dataset.keys import Paper, arxiv_ids, normalise_title, same_paper_by_title, title_hash

if TYPE_CHECKING:
    from dashboard.dataset.store import Store

APART_ARXIV = "arxiv"  # two different arXiv ids: arXiv lists them as two papers
APART_YEARS = "years"  # years too far apart, not both arXiv papers
MERGEABLE = "mergeable"  # the rule would make them one paper: the import missed them


@dataclass
class TitleGroups:
    """Groups of papers that share a title: how many, by why they stay apart, and an example of each."""

    groups: int = 0
    papers: int = 0
    by_reason: dict[str, int] = field(default_factory=lambda: {APART_ARXIV: 0, APART_YEARS: 0, MERGEABLE: 0})
    examples: dict[str, list[str]] = field(default_factory=dict)  # reason -> the ids of one group


def reason(papers: list[Paper]) -> str:
    """Why papers of one title are apart: :data:`MERGEABLE` if the rule joins any two of them, else
    :data:`APART_YEARS` if any two are apart by their years, else :data:`APART_ARXIV`."""
    found = APART_ARXIV
    for i, a in enumerate(papers):
        for b in papers[i + 1 :]:
            if same_paper_by_title(a, b):
                return MERGEABLE
            mine, theirs = arxiv_ids(a.ids), arxiv_ids(b.ids)
            if not (mine and theirs and not mine & theirs):
                found = APART_YEARS
    return found


def candidates(store: Store) -> np.ndarray:
    """Rows that may share a normalised title with another: those whose exact-title hash (``title_sorted``) another
    row has, the titles that are not ASCII and the rows whose hash is the one of such a title's normalised form.
    (For an ASCII title the exact-title key is its normalised title: equal ones have equal hashes.)"""
    hashes, hash_rows = store.arrays["title_sorted"], store.arrays["title_sorted_rows"]
    same = np.flatnonzero(hashes[1:] == hashes[:-1])
    found = [hash_rows[same], hash_rows[same + 1]]
    titles = store.papers.column("title")
    other = np.flatnonzero(~pc.fill_null(pc.string_is_ascii(titles), True).to_numpy(zero_copy_only=False))
    if len(other):
        found.append(other)
        keys = [normalise_title(t or "") for t in store.titles(other)]
        wanted = np.array([title_hash(k) for k in keys if k], dtype=hashes.dtype)
        lo, hi = np.searchsorted(hashes, wanted, "left"), np.searchsorted(hashes, wanted, "right")
        found += [hash_rows[a:b] for a, b in zip(lo.tolist(), hi.tolist(), strict=True) if b > a]
    return np.unique(np.concatenate(found).astype(np.int64)) if found else np.empty(0, np.int64)


def title_groups(store: Store) -> TitleGroups:
    """The groups of the store's papers that share a normalised title that is not empty (a title of no Latin
    letter or digit has no key), and why each stays apart."""
    rows = candidates(store)
    members: dict[str, list[tuple[str, Paper]]] = {}
    if len(rows):
        picked = store.papers.select(["id", "title", "year", "alt_ids"]).take(pa.array(rows)).to_pylist()
        for rec in picked:
            key = normalise_title(rec["title"] or "")
            if key:
                ids = [rec["id"], *(rec["alt_ids"] or [])]
                members.setdefault(key, []).append((rec["id"], Paper(ids, rec["year"])))
    out = TitleGroups()
    for group in members.values():
        if len(group) < 2:
            continue
        why = reason([p for _, p in group])
        out.groups += 1
        out.papers += len(group)
        out.by_reason[why] += 1
        out.examples.setdefault(why, [pid for pid, _ in group])
    return out
